//! A stand-in for a game another process owns: the same queue
//! ([`crate::actor::Cmd`]) as a local game's task, forwarding to the owner
//! over the internal routes (`crate::http::internal`; docs/protocol.md,
//! "Several processes").
//!
//! * `Join`: one internal WebSocket to the owner per client connection,
//!   joined with the client's seat; every text frame from the owner goes to
//!   the connection unchanged. `Msg`: the client's message goes up as an
//!   internal frame with the round trip to credit (the client's, plus this
//!   hop's, measured with WebSocket pings) and the time it waited here.
//!   `Leave`: that socket is closed.
//! * `Seated`, `SeatReclaimed`, `Snapshot`, `Live`, `AddTime`, `SetResult`:
//!   one internal HTTP request each, in the order they came.
//! * The stand-in ends when the owner cannot be reached, answers that it
//!   does not own the game, or closes an upstream socket (or stops answering
//!   its pings): its queue closes and every connection it served is closed,
//!   so the clients reconnect and [`crate::Hub::game`] claims the game again.
//!   It ends too when nobody has been connected through it for
//!   [`crate::Config::idle_actor`].

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::{lease, Claim, OwnerAt};
use crate::actor::{Cmd, Out};
use crate::http::internal::{Answer, Command, Frame, SECRET_HEADER};
use crate::proto::{side, ClientMsg};
use crate::Hub;

/// Between two claims while the owner cannot be reached.
const STEP: Duration = Duration::from_millis(200);
/// The longest wait for the owner's answer to the probe.
const PROBE_WAIT: Duration = Duration::from_secs(1);
/// The longest wait for an upstream socket to open.
const CONNECT_WAIT: Duration = Duration::from_secs(3);
/// The longest wait for the answer to a command.
const REQUEST_WAIT: Duration = Duration::from_secs(5);
/// Client messages queued for one upstream socket before its connection is
/// dropped.
const UP_QUEUE: usize = 64;

type Upstream = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A stand-in for game `id`, owned by `owner`, once the owner answered; or,
/// when the owner cannot be reached, the game's own task here after its
/// lease ran out (claimed again every 200 ms, for at most a lease and a
/// second); `None` when there is no such game or nobody could be reached.
pub async fn proxy(hub: &Arc<Hub>, id: &str, owner: OwnerAt) -> Option<mpsc::Sender<Cmd>> {
    let give_up = Instant::now() + hub.node.lease + Duration::from_secs(1);
    let mut owner = owner;
    loop {
        match request(hub, &owner, id, &Command::Probe, PROBE_WAIT).await {
            Ok(_) => break,
            Err(why) => {
                if Instant::now() + STEP > give_up {
                    eprintln!(
                        "escaque-server: game {id}: owner {} ({}): {why}",
                        owner.node, owner.addr
                    );
                    return None;
                }
            }
        }
        tokio::time::sleep(STEP).await;
        match lease::take(hub, id).await {
            Ok(taken) => return hub.load_taken(id, taken).await,
            Err(Claim::Elsewhere(o)) => owner = o,
            Err(_) => return None,
        }
    }
    let (tx, rx) = mpsc::channel(256);
    let (done_tx, done_rx) = mpsc::unbounded_channel();
    let stand_in = StandIn {
        hub: Arc::clone(hub),
        id: id.to_string(),
        owner,
        links: HashMap::new(),
        next_sub: 1,
        done: done_tx,
    };
    tokio::spawn(stand_in.run(rx, done_rx));
    Some(tx)
}

/// Why the owner did not answer a command.
#[derive(Debug, thiserror::Error)]
enum Failure {
    /// No connection, no answer in time, or not HTTP.
    #[error("no se pudo llegar / unreachable: {0}")]
    Unreachable(String),
    /// 409: it does not own the game (any longer).
    #[error("no lleva la partida / does not own the game")]
    NotOwner,
    /// Any other status.
    #[error("respondió / answered {0}")]
    Status(u16),
    /// A 200 whose body is no answer.
    #[error("respuesta ilegible / unreadable answer: {0}")]
    Unreadable(String),
}

/// One internal command to the owner (`POST /interno/games/{id}/cmd`) over
/// a fresh connection.
async fn request(
    hub: &Hub,
    owner: &OwnerAt,
    id: &str,
    command: &Command,
    wait: Duration,
) -> Result<Answer, Failure> {
    let unreachable = |e: &dyn std::fmt::Display| Failure::Unreachable(e.to_string());
    let exchange = async {
        let stream = TcpStream::connect(owner.addr.as_str())
            .await
            .map_err(|e| unreachable(&e))?;
        let _ = stream.set_nodelay(true);
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| unreachable(&e))?;
        let conn = tokio::spawn(conn);
        let body = serde_json::to_vec(command).map_err(|e| unreachable(&e))?;
        let req = hyper::Request::post(format!("/interno/games/{id}/cmd"))
            .header(hyper::header::HOST, owner.addr.as_str())
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .header(SECRET_HEADER, hub.node.secret.as_str())
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| unreachable(&e))?;
        let resp = sender
            .send_request(req)
            .await
            .map_err(|e| unreachable(&e))?;
        let status = resp.status().as_u16();
        let body = resp
            .into_body()
            .collect()
            .await
            .map_err(|e| unreachable(&e))?
            .to_bytes();
        conn.abort();
        match status {
            200 => serde_json::from_slice(&body).map_err(|e| Failure::Unreadable(e.to_string())),
            409 => Err(Failure::NotOwner),
            s => Err(Failure::Status(s)),
        }
    };
    tokio::time::timeout(wait, exchange)
        .await
        .unwrap_or_else(|_| Err(Failure::Unreachable("sin respuesta / timed out".into())))
}

/// A client message on its way up.
struct Up {
    msg: ClientMsg,
    received: Instant,
    rtt: Duration,
}

/// How an upstream socket's pump ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ended {
    /// This side: the connection left, or could not keep up.
    Here,
    /// The owner closed the socket, failed, or stopped answering pings.
    Owner,
}

/// The stand-in's task.
struct StandIn {
    hub: Arc<Hub>,
    id: String,
    owner: OwnerAt,
    /// Each connection's queue to its upstream socket's pump, by sub number.
    links: HashMap<u64, mpsc::Sender<Up>>,
    next_sub: u64,
    /// Where the pumps say they ended.
    done: mpsc::UnboundedSender<(u64, Ended)>,
}

impl StandIn {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Cmd>,
        mut done: mpsc::UnboundedReceiver<(u64, Ended)>,
    ) {
        loop {
            let idle = self.links.is_empty();
            let idle_at = tokio::time::Instant::now() + self.hub.config.idle_actor;
            tokio::select! {
                biased;
                Some((sub, why)) = done.recv() => {
                    if self.links.remove(&sub).is_some() && why == Ended::Owner {
                        break;
                    }
                }
                cmd = rx.recv() => match cmd {
                    Some(cmd) => {
                        if !self.handle(cmd, &mut rx).await {
                            break;
                        }
                    }
                    None => break,
                },
                _ = tokio::time::sleep_until(idle_at), if idle => break,
            }
        }
        // Closed first, so that the next `Hub::game` claims again; then every
        // connection served here is let go (each pump closes its socket).
        rx.close();
        self.links.clear();
        drop(rx);
        self.hub.forget_closed(&self.id);
    }

    /// One command; `false` when the owner failed (the queue is closed
    /// before the command's reply is dropped).
    async fn handle(&mut self, cmd: Cmd, rx: &mut mpsc::Receiver<Cmd>) -> bool {
        match cmd {
            Cmd::Join { seat, tx, reply } => match self.open(seat).await {
                Ok(ws) => {
                    let sub = self.next_sub;
                    self.next_sub += 1;
                    let (up_tx, up_rx) = mpsc::channel(UP_QUEUE);
                    self.links.insert(sub, up_tx);
                    let ping_every = self.hub.config.ping_every;
                    let done = self.done.clone();
                    tokio::spawn(async move {
                        let why = pump(ws, tx, up_rx, ping_every).await;
                        let _ = done.send((sub, why));
                    });
                    let _ = reply.send(sub);
                    true
                }
                Err(why) => {
                    self.failed(&why, rx);
                    false
                }
            },
            Cmd::Leave { sub } => {
                self.links.remove(&sub);
                true
            }
            Cmd::Msg {
                sub,
                msg,
                received,
                rtt,
            } => {
                let full = self
                    .links
                    .get(&sub)
                    .is_some_and(|l| l.try_send(Up { msg, received, rtt }).is_err());
                if full {
                    self.links.remove(&sub);
                }
                true
            }
            Cmd::Seated { seat, name, owner } => {
                let c = Command::Seated {
                    seat: seat.into(),
                    name,
                    owner,
                };
                self.tell(c, rx).await.is_some()
            }
            Cmd::SeatReclaimed { seat } => {
                let c = Command::SeatReclaimed { seat: seat.into() };
                self.tell(c, rx).await.is_some()
            }
            Cmd::Snapshot { reply } => match self.tell(Command::Snapshot, rx).await {
                Some(a) => {
                    let _ = reply.send(a.state.unwrap_or_default());
                    true
                }
                None => false,
            },
            Cmd::Live { reply } => match self.tell(Command::Live, rx).await {
                Some(a) => {
                    let _ = reply.send(a.live.as_ref().map(|l| l.to_live()));
                    true
                }
                None => false,
            },
            Cmd::AddTime { color, time, reply } => {
                let c = Command::AddTime {
                    color: color.into(),
                    ms: time.as_millis() as u64,
                };
                match self.tell(c, rx).await {
                    Some(a) => {
                        let _ = reply.send(a.refused.map_or(Ok(()), |r| Err(r.to_error())));
                        true
                    }
                    None => false,
                }
            }
            Cmd::SetResult { outcome, reply } => {
                let c = Command::SetResult {
                    outcome: outcome.text().to_string(),
                };
                match self.tell(c, rx).await {
                    Some(a) => {
                        let _ = reply.send(a.refused.map_or(Ok(()), |r| Err(r.to_error())));
                        true
                    }
                    None => false,
                }
            }
        }
    }

    /// A command to the owner; `None` (and the queue closed) when it failed.
    async fn tell(&self, c: Command, rx: &mut mpsc::Receiver<Cmd>) -> Option<Answer> {
        match request(&self.hub, &self.owner, &self.id, &c, REQUEST_WAIT).await {
            Ok(a) => Some(a),
            Err(why) => {
                self.failed(&why, rx);
                None
            }
        }
    }

    fn failed(&self, why: &dyn std::fmt::Display, rx: &mut mpsc::Receiver<Cmd>) {
        eprintln!(
            "escaque-server: game {}: owner {} ({}): {why}",
            self.id, self.owner.node, self.owner.addr
        );
        rx.close();
    }

    /// Opens the upstream socket of a connection holding `seat`.
    async fn open(&self, seat: Option<escaque::Color>) -> Result<Upstream, Failure> {
        let fail = |e: &dyn std::fmt::Display| Failure::Unreachable(e.to_string());
        let mut url = format!("ws://{}/interno/ws/games/{}", self.owner.addr, self.id);
        if let Some(c) = seat {
            url.push_str("?seat=");
            url.push_str(side(c));
        }
        let mut req = url.into_client_request().map_err(|e| fail(&e))?;
        let secret = HeaderValue::from_str(&self.hub.node.secret).map_err(|e| fail(&e))?;
        req.headers_mut().insert(SECRET_HEADER, secret);
        let connect = tokio_tungstenite::connect_async_with_config(req, None, true);
        match tokio::time::timeout(CONNECT_WAIT, connect).await {
            Ok(Ok((ws, _))) => Ok(ws),
            Ok(Err(tokio_tungstenite::tungstenite::Error::Http(r))) if r.status() == 409 => {
                Err(Failure::NotOwner)
            }
            Ok(Err(e)) => Err(fail(&e)),
            Err(_) => Err(fail(&"sin respuesta / timed out")),
        }
    }
}

fn median(v: &VecDeque<Duration>) -> Duration {
    let mut s: Vec<Duration> = v.iter().copied().collect();
    s.sort();
    s.get(s.len() / 2).copied().unwrap_or_default()
}

/// Carries one connection's frames: the owner's to `tx` unchanged, the
/// client's messages up as [`Frame`]s; pings the owner every `ping_every`
/// (this hop's round trip, and whether the owner still answers).
async fn pump(
    mut ws: Upstream,
    tx: mpsc::Sender<Out>,
    mut up: mpsc::Receiver<Up>,
    ping_every: Duration,
) -> Ended {
    let dead_after = ping_every * 2 + Duration::from_secs(1);
    let mut ticker = tokio::time::interval(ping_every);
    let mut heard = Instant::now();
    let mut n = 0u64;
    let mut pings: VecDeque<(u64, Instant)> = VecDeque::new();
    let mut rtts: VecDeque<Duration> = VecDeque::new();
    let why = loop {
        tokio::select! {
            frame = ws.next() => {
                let now = Instant::now();
                match frame {
                    Some(Ok(Message::Text(t))) => {
                        heard = now;
                        if tx.try_send(Arc::from(t.as_str())).is_err() {
                            // Gone, or too slow to keep up: let go, as the
                            // owner's task does.
                            break Ended::Here;
                        }
                    }
                    Some(Ok(Message::Pong(p))) => {
                        heard = now;
                        let k = <[u8; 8]>::try_from(p.as_ref()).map(u64::from_be_bytes).ok();
                        if let Some(i) = pings.iter().position(|(m, _)| Some(*m) == k) {
                            if let Some((_, at)) = pings.remove(i) {
                                rtts.push_back(now.duration_since(at));
                                if rtts.len() > 5 {
                                    rtts.pop_front();
                                }
                            }
                        }
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return Ended::Owner,
                    Some(Ok(_)) => heard = now,
                }
            }
            msg = up.recv() => match msg {
                Some(Up { msg, received, rtt }) => {
                    let frame = Frame {
                        msg,
                        rtt_us: (rtt + median(&rtts)).as_micros() as u64,
                        held_us: received.elapsed().as_micros() as u64,
                    };
                    let Ok(text) = serde_json::to_string(&frame) else { continue };
                    if ws.send(Message::Text(text.into())).await.is_err() {
                        return Ended::Owner;
                    }
                }
                None => break Ended::Here,
            },
            _ = ticker.tick() => {
                if heard.elapsed() > dead_after {
                    return Ended::Owner;
                }
                n += 1;
                pings.push_back((n, Instant::now()));
                if pings.len() > 8 {
                    pings.pop_front();
                }
                let ping = Message::Ping(n.to_be_bytes().to_vec().into());
                if ws.send(ping).await.is_err() {
                    return Ended::Owner;
                }
            }
            _ = tx.closed() => break Ended::Here,
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
    why
}
