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
//! * **Resuming** (issue 60): when the owner cannot be reached, answers
//!   that it does not own the game, or closes an upstream socket (or stops
//!   answering its pings), no connection is closed. Each is let go by its
//!   upstream socket and waits here, and is sent the game as stored with
//!   status `resuming` (`crate::actor::resuming`), as is every connection
//!   that joins meanwhile; its messages wait with it (at most
//!   [`UP_QUEUE`]), and so do reads (`Snapshot`, `Live`). The game is
//!   claimed again ([`lease::take`]: at once when the owner's database
//!   session is gone, otherwise when its lease runs out), every 100 ms:
//!   when this process takes it over, each waiting connection is joined to
//!   its new task, which sends it the full state, and the stand-in goes on
//!   carrying the connections' messages to that task for as long as they
//!   last; when another process has it, each gets an upstream socket
//!   there. Only when the game runs nowhere after two leases and two
//!   seconds does the stand-in end, closing its connections with 1012 (the
//!   clients reconnect and [`crate::Hub::game`] claims the game again).
//! * It ends too when nobody has been connected through it for
//!   [`crate::Config::idle_actor`].

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::wire::{Answer, Command, Frame, SECRET_HEADER};
use super::{lease, Claim, OwnerAt};
use crate::actor::{Cmd, Out};
use crate::proto::{side, ClientMsg, ErrorCode, ServerMsg, StateMsg, StateView};
use crate::Hub;

/// Between two claims while the game resumes.
const RESUME_STEP: Duration = Duration::from_millis(100);
/// The longest wait for the owner's answer to the probe.
const PROBE_WAIT: Duration = Duration::from_secs(1);
/// The longest wait for an upstream socket to open.
const CONNECT_WAIT: Duration = Duration::from_secs(3);
/// The longest wait for the answer to a command.
const REQUEST_WAIT: Duration = Duration::from_secs(5);
/// Client messages queued for one upstream socket (or waiting while the
/// game resumes) before its connection is dropped.
const UP_QUEUE: usize = 64;

type Upstream = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A stand-in for game `id`, whose lease `owner` holds. When the owner
/// answers the probe, the stand-in forwards to it; when it does not (it
/// died a moment ago, or is paused) the stand-in starts resuming at once
/// (see the module above), so that the connection asking is answered now.
pub async fn proxy(hub: &Arc<Hub>, id: &str, owner: OwnerAt) -> Option<mpsc::Sender<Cmd>> {
    let alive = match request(hub, &owner, id, &Command::Probe, PROBE_WAIT).await {
        Ok(_) => true,
        Err(why) => {
            eprintln!(
                "escaque-server: game {id}: owner {} ({}): {why}",
                owner.node, owner.addr
            );
            false
        }
    };
    let (tx, rx) = mpsc::channel(256);
    let (done_tx, done_rx) = mpsc::unbounded_channel();
    let mut stand_in = StandIn {
        hub: Arc::clone(hub),
        id: id.to_string(),
        target: Target::Remote(owner.clone()),
        links: HashMap::new(),
        next_sub: 1,
        done: done_tx,
        deferred: VecDeque::new(),
        resolving: None,
        resuming_since: None,
        view: None,
    };
    if !alive {
        stand_in.resume(Some(owner));
    }
    tokio::spawn(stand_in.run(rx, done_rx));
    Some(tx)
}

/// Where the game runs, as a resumption found it.
enum Resolved {
    /// Here: this process took the game over; its task's queue.
    Local(mpsc::Sender<Cmd>),
    /// In another live process.
    Remote(OwnerAt),
    /// No such game, or nobody could be reached in time.
    Gone,
}

/// Claims game `id` again until it runs somewhere: here (this process took
/// its lease: at once when the owner's session is gone, else when its
/// lease runs out), or in a live process other than `failed` (or `failed`
/// itself if it answers again); [`Resolved::Gone`] after `give_up`.
async fn resolve(hub: Arc<Hub>, id: String, failed: Option<OwnerAt>, give_up: Instant) -> Resolved {
    loop {
        let claim = {
            let _guard = hub.local.lock_game(&id).await;
            match lease::take(&hub, &id).await {
                Ok(taken) => {
                    return match hub.load_taken(&id, taken).await {
                        Some(task) => Resolved::Local(task),
                        None => Resolved::Gone,
                    }
                }
                Err(c) => c,
            }
        };
        let Claim::Elsewhere(owner) = claim else {
            return Resolved::Gone;
        };
        let other = failed.as_ref() != Some(&owner);
        if other
            || request(&hub, &owner, &id, &Command::Probe, PROBE_WAIT)
                .await
                .is_ok()
        {
            return Resolved::Remote(owner);
        }
        if Instant::now() + RESUME_STEP > give_up {
            eprintln!(
                "escaque-server: game {id}: owner {} ({}) unreachable, its lease held",
                owner.node, owner.addr
            );
            return Resolved::Gone;
        }
        tokio::time::sleep(RESUME_STEP).await;
    }
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
    /// The connection left, or could not keep up.
    Client,
    /// The stand-in let the socket go (the connection left, or is moved).
    Released,
    /// The owner closed the socket, failed, or stopped answering pings.
    Owner,
}

/// A pump's end: the connection's queue given back (unless it left), with
/// the client messages never sent up, and the `id`s of those sent up that
/// the owner never answered.
struct PumpEnd {
    sub: u64,
    why: Ended,
    client: mpsc::Sender<Out>,
    unsent: Vec<Up>,
    unanswered: Vec<Option<u64>>,
}

/// Where the stand-in sends what comes in.
#[derive(Clone)]
enum Target {
    /// To the owner, another process.
    Remote(OwnerAt),
    /// Nowhere yet: the owner is gone and the game is being claimed again.
    Resuming,
    /// To this process's own task of the game (it took the game over).
    Local(mpsc::Sender<Cmd>),
}

/// One client connection served here.
struct Link {
    seat: Option<escaque::Color>,
    route: Route,
}

/// How a connection's messages go on.
enum Route {
    /// Through its upstream socket's pump, which holds the connection's
    /// queue.
    Up(mpsc::Sender<Up>),
    /// Its pump was told to let go: the connection's queue comes back with
    /// the pump's end; its messages wait here meanwhile.
    Stopping(VecDeque<Up>),
    /// Its pump ended by itself (the owner failed) and its end is on its
    /// way: the messages that came meanwhile wait here.
    Ended(VecDeque<Up>),
    /// The game runs nowhere yet: the connection waits, with its messages.
    Waiting {
        client: mpsc::Sender<Out>,
        queued: VecDeque<Up>,
    },
    /// Joined to this process's own task, as its subscription number.
    Local(u64),
}

/// Commands other than a connection's kept while the game resumes.
const DEFERRED: usize = 64;

/// The stand-in's task.
struct StandIn {
    hub: Arc<Hub>,
    id: String,
    target: Target,
    /// The connections served here, by sub number.
    links: HashMap<u64, Link>,
    next_sub: u64,
    /// Where the pumps say they ended.
    done: mpsc::UnboundedSender<PumpEnd>,
    /// Commands waiting for the game to resume.
    deferred: VecDeque<Cmd>,
    /// The claim under way while resuming.
    resolving: Option<tokio::task::JoinHandle<Resolved>>,
    /// Since when the game has been resuming without a connection moved.
    resuming_since: Option<Instant>,
    /// The stored state while resuming, read once per resumption.
    view: Option<StateView>,
}

/// The claim's answer, once there is a claim under way.
async fn resolution(h: &mut Option<tokio::task::JoinHandle<Resolved>>) -> Resolved {
    match h {
        Some(h) => h.await.unwrap_or(Resolved::Gone),
        None => std::future::pending().await,
    }
}

impl StandIn {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Cmd>,
        mut done: mpsc::UnboundedReceiver<PumpEnd>,
    ) {
        loop {
            // Taken over here and nobody left: new connections go to the
            // task itself.
            if self.links.is_empty() && matches!(self.target, Target::Local(_)) {
                break;
            }
            let idle = self.links.is_empty() && matches!(self.target, Target::Remote(_));
            let idle_at = tokio::time::Instant::now() + self.hub.config.idle_actor;
            tokio::select! {
                biased;
                Some(end) = done.recv() => self.pump_ended(end).await,
                r = resolution(&mut self.resolving) => {
                    self.resolving = None;
                    if !self.resolved(r).await {
                        break;
                    }
                }
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = tokio::time::sleep_until(idle_at), if idle => break,
            }
        }
        // Closed first, so that the next `Hub::game` claims again; then every
        // connection still served here is let go (its socket closes with
        // 1012, and the client reconnects).
        rx.close();
        self.links.clear();
        self.deferred.clear();
        drop(rx);
        self.hub.forget_closed(&self.id);
    }

    /// One command.
    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join { seat, tx, reply } => {
                let sub = self.next_sub;
                self.next_sub += 1;
                let route = Route::Waiting {
                    client: tx,
                    queued: VecDeque::new(),
                };
                self.links.insert(sub, Link { seat, route });
                let _ = reply.send(sub);
                self.attach(sub).await;
            }
            Cmd::Leave { sub } => {
                if let Some(Link {
                    route: Route::Local(n),
                    ..
                }) = self.links.remove(&sub)
                {
                    if let Target::Local(task) = &self.target {
                        let _ = task.send(Cmd::Leave { sub: n }).await;
                    }
                }
            }
            Cmd::Msg {
                sub,
                msg,
                received,
                rtt,
            } => {
                let up = Up { msg, received, rtt };
                let Some(link) = self.links.get_mut(&sub) else {
                    return;
                };
                let gone = match &mut link.route {
                    Route::Up(q) => match q.try_send(up) {
                        Ok(()) => false,
                        // Its pump has just ended: the message waits for
                        // the pump's end, and goes where the game runs.
                        Err(mpsc::error::TrySendError::Closed(up)) => {
                            link.route = Route::Ended(VecDeque::from([up]));
                            false
                        }
                        // Too slow to keep up: let go.
                        Err(mpsc::error::TrySendError::Full(_)) => true,
                    },
                    Route::Stopping(queued)
                    | Route::Ended(queued)
                    | Route::Waiting { queued, .. } => {
                        queued.push_back(up);
                        queued.len() > UP_QUEUE
                    }
                    Route::Local(n) => match &self.target {
                        Target::Local(task) => {
                            let cmd = Cmd::Msg {
                                sub: *n,
                                msg: up.msg,
                                received: up.received,
                                rtt: up.rtt,
                            };
                            task.send(cmd).await.is_err()
                        }
                        _ => true,
                    },
                };
                if gone {
                    self.links.remove(&sub);
                }
            }
            other => self.command(other).await,
        }
    }

    /// A command that is no connection's: forwarded, or kept while the
    /// game resumes.
    async fn command(&mut self, cmd: Cmd) {
        match self.target.clone() {
            Target::Resuming => {
                // Beyond the limit it is refused (`retry`), or its reply
                // channel closes.
                if self.deferred.len() < DEFERRED {
                    self.deferred.push_back(cmd);
                } else {
                    cmd.refuse();
                }
            }
            Target::Local(task) => {
                let _ = task.send(cmd).await;
            }
            Target::Remote(owner) => self.remote(owner, cmd).await,
        }
    }

    /// A command to the owner, one internal request. When the owner fails,
    /// the game resumes; a read (`Snapshot`, `Live`) waits for it, a change
    /// is not sent twice: it is refused with `retry` (it may have been done:
    /// the caller looks and asks again).
    async fn remote(&mut self, owner: OwnerAt, cmd: Cmd) {
        match cmd {
            Cmd::Seated {
                seat,
                name,
                owner: who,
            } => {
                let c = Command::Seated {
                    seat: seat.into(),
                    name,
                    owner: who,
                };
                self.tell(&owner, c).await;
            }
            Cmd::SeatReclaimed { seat } => {
                let c = Command::SeatReclaimed { seat: seat.into() };
                self.tell(&owner, c).await;
            }
            Cmd::Snapshot { reply } => match self.tell(&owner, Command::Snapshot).await {
                Some(a) => drop(reply.send(a.state.unwrap_or_default())),
                None => self.deferred.push_back(Cmd::Snapshot { reply }),
            },
            Cmd::Live { reply } => match self.tell(&owner, Command::Live).await {
                Some(a) => drop(reply.send(a.live.as_ref().map(|l| l.to_live()))),
                None => self.deferred.push_back(Cmd::Live { reply }),
            },
            Cmd::AddTime { color, time, reply } => {
                let c = Command::AddTime {
                    color: color.into(),
                    ms: time.as_millis() as u64,
                };
                let answer = match self.tell(&owner, c).await {
                    Some(a) => a.refused.map_or(Ok(()), Err),
                    None => Err(ErrorCode::Retry),
                };
                let _ = reply.send(answer);
            }
            Cmd::SetResult { outcome, reply } => {
                let c = Command::SetResult {
                    outcome: outcome.text().to_string(),
                };
                let answer = match self.tell(&owner, c).await {
                    Some(a) => a.refused.map_or(Ok(()), Err),
                    None => Err(ErrorCode::Retry),
                };
                let _ = reply.send(answer);
            }
            // A connection's commands are the switchboard's.
            Cmd::Join { .. } | Cmd::Leave { .. } | Cmd::Msg { .. } => {}
        }
    }

    /// A command to the owner; `None` (and the game resuming) when it
    /// failed.
    async fn tell(&mut self, owner: &OwnerAt, c: Command) -> Option<Answer> {
        match request(&self.hub, owner, &self.id, &c, REQUEST_WAIT).await {
            Ok(a) => Some(a),
            Err(why) => {
                self.failed(owner, &why);
                self.resume(Some(owner.clone()));
                None
            }
        }
    }

    fn failed(&self, owner: &OwnerAt, why: &dyn std::fmt::Display) {
        eprintln!(
            "escaque-server: game {}: owner {} ({}): {why}",
            self.id, owner.node, owner.addr
        );
    }

    /// The owner failed (`failed`), or this process's own task of the game
    /// ended: every connection is let go by its pump and waits here, and
    /// the game is claimed again (see [`resolve`]).
    fn resume(&mut self, failed: Option<OwnerAt>) {
        if matches!(self.target, Target::Resuming) {
            return;
        }
        self.target = Target::Resuming;
        self.view = None;
        // A connection joined to a task that ended was closed by it.
        self.links
            .retain(|_, l| !matches!(l.route, Route::Local(_)));
        for link in self.links.values_mut() {
            if matches!(link.route, Route::Up(_)) {
                // The pump's queue dropped: it gives the connection back.
                link.route = Route::Stopping(VecDeque::new());
            }
        }
        let since = *self.resuming_since.get_or_insert_with(Instant::now);
        let give_up = since + self.hub.node.lease * 2 + Duration::from_secs(2);
        let hub = Arc::clone(&self.hub);
        self.resolving = Some(tokio::spawn(resolve(hub, self.id.clone(), failed, give_up)));
    }

    /// The claim found where the game runs: the waiting connections are
    /// joined there, then the commands kept. `false`: it runs nowhere (the
    /// stand-in ends, closing its connections).
    async fn resolved(&mut self, r: Resolved) -> bool {
        self.target = match r {
            Resolved::Gone => return false,
            Resolved::Local(task) => Target::Local(task),
            Resolved::Remote(owner) => Target::Remote(owner),
        };
        self.view = None;
        let waiting: Vec<u64> = self
            .links
            .iter()
            .filter(|(_, l)| matches!(l.route, Route::Waiting { .. }))
            .map(|(s, _)| *s)
            .collect();
        for sub in waiting {
            if matches!(self.target, Target::Resuming) {
                break;
            }
            self.attach(sub).await;
        }
        while !matches!(self.target, Target::Resuming) {
            let Some(cmd) = self.deferred.pop_front() else {
                break;
            };
            self.command(cmd).await;
        }
        true
    }

    /// A pump ended: a connection that left is forgotten; one whose owner
    /// failed (or that was let go) waits, and is joined where the game runs.
    async fn pump_ended(&mut self, end: PumpEnd) {
        if end.why == Ended::Client {
            self.links.remove(&end.sub);
            return;
        }
        let Some(link) = self.links.get_mut(&end.sub) else {
            return;
        };
        // What the owner was sent and never answered may or may not have
        // been done: each is refused with `retry` (its `id` echoed) before
        // the state that says which (docs/protocol.md, "Several processes").
        for id in end.unanswered {
            let retry = ServerMsg::error(&ErrorCode::Retry, id);
            let _ = end.client.try_send(Arc::from(retry.to_text()));
        }
        let mut queued: VecDeque<Up> = end.unsent.into();
        let current = match &mut link.route {
            Route::Up(_) => true,
            Route::Ended(q) => {
                queued.extend(q.drain(..));
                true
            }
            Route::Stopping(q) => {
                queued.extend(q.drain(..));
                false
            }
            // Not this pump's connection any more.
            Route::Waiting { .. } | Route::Local(_) => return,
        };
        link.route = Route::Waiting {
            client: end.client,
            queued,
        };
        if current && end.why == Ended::Owner {
            if let Target::Remote(owner) = self.target.clone() {
                self.resume(Some(owner));
            }
        }
        self.attach(end.sub).await;
    }

    /// Joins waiting connection `sub` where the game runs: an upstream
    /// socket to the owner, or this process's own task (which sends it the
    /// full state); while resuming, it is sent the stored state (status
    /// `resuming`).
    async fn attach(&mut self, sub: u64) {
        let Some(seat) = self
            .links
            .get(&sub)
            .filter(|l| matches!(l.route, Route::Waiting { .. }))
            .map(|l| l.seat)
        else {
            return;
        };
        match self.target.clone() {
            Target::Resuming => self.tell_resuming(sub).await,
            Target::Remote(owner) => match self.open(&owner, seat).await {
                Ok(ws) => {
                    let Some(link) = self.links.get_mut(&sub) else {
                        return;
                    };
                    let Route::Waiting { client, queued } =
                        std::mem::replace(&mut link.route, Route::Stopping(VecDeque::new()))
                    else {
                        return;
                    };
                    let (up_tx, up_rx) = mpsc::channel(UP_QUEUE);
                    for up in queued {
                        let _ = up_tx.try_send(up);
                    }
                    link.route = Route::Up(up_tx);
                    self.resuming_since = None;
                    let ping_every = self.hub.config.ping_every;
                    let done = self.done.clone();
                    tokio::spawn(async move {
                        let (end, ws) = pump(ws, client, up_rx, ping_every).await;
                        let _ = done.send(PumpEnd { sub, ..end });
                        if let Some(mut ws) = ws {
                            let _ =
                                tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
                        }
                    });
                }
                Err(why) => {
                    self.failed(&owner, &why);
                    self.resume(Some(owner));
                    self.tell_resuming(sub).await;
                }
            },
            Target::Local(task) => {
                let Some(Route::Waiting { client, .. }) = self.links.get(&sub).map(|l| &l.route)
                else {
                    return;
                };
                let (reply, answer) = oneshot::channel();
                let join = Cmd::Join {
                    seat,
                    tx: client.clone(),
                    reply,
                };
                let n = match task.send(join).await {
                    Ok(()) => answer.await.ok(),
                    Err(_) => None,
                };
                let Some(n) = n else {
                    // The task ended meanwhile.
                    self.resume(None);
                    self.tell_resuming(sub).await;
                    return;
                };
                let Some(link) = self.links.get_mut(&sub) else {
                    let _ = task.send(Cmd::Leave { sub: n }).await;
                    return;
                };
                let Route::Waiting { queued, .. } =
                    std::mem::replace(&mut link.route, Route::Local(n))
                else {
                    return;
                };
                self.resuming_since = None;
                for up in queued {
                    let cmd = Cmd::Msg {
                        sub: n,
                        msg: up.msg,
                        received: up.received,
                        rtt: up.rtt,
                    };
                    if task.send(cmd).await.is_err() {
                        break;
                    }
                }
            }
        }
    }

    /// Sends waiting connection `sub` the stored state, status `resuming`
    /// (read once per resumption).
    async fn tell_resuming(&mut self, sub: u64) {
        if self.view.is_none() {
            self.view = crate::actor::resuming::resuming_state(&self.hub, &self.id).await;
        }
        let (Some(view), Some(link)) = (&self.view, self.links.get(&sub)) else {
            return;
        };
        if let Route::Waiting { client, .. } = &link.route {
            let msg = ServerMsg::State(StateMsg {
                you: link.seat.map(side),
                id: None,
                state: view.clone(),
            });
            let _ = client.try_send(Arc::from(msg.to_text()));
        }
    }

    /// Opens the upstream socket of a connection holding `seat`.
    async fn open(
        &self,
        owner: &OwnerAt,
        seat: Option<escaque::Color>,
    ) -> Result<Upstream, Failure> {
        let fail = |e: &dyn std::fmt::Display| Failure::Unreachable(e.to_string());
        let mut url = format!("ws://{}/interno/ws/games/{}", owner.addr, self.id);
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

/// Whether a client message gets an answer of its own from the owner's
/// task (an `ack`, an `error` or, to a `state` request, a `state` with its
/// `id`), and so is waited for: every message but `pong` and a `state`
/// request without an `id` (any `state` answers that one).
fn answered(msg: &ClientMsg) -> bool {
    match msg {
        ClientMsg::Pong { .. } => false,
        ClientMsg::State { id } => id.is_some(),
        _ => true,
    }
}

/// The `t` and `id` of an owner's frame.
#[derive(serde::Deserialize)]
struct Reply {
    t: String,
    #[serde(default)]
    id: Option<u64>,
}

/// The `id` a frame from the owner answers, if it is an answer: an `ack`
/// or an `error` (`id` or none), or a `state` carrying an `id`. Events and
/// pings, the most of the frames, are told apart by their first bytes and
/// not read.
fn answer_to(text: &str) -> Option<Option<u64>> {
    if text.starts_with(r#"{"t":"event""#) || text.starts_with(r#"{"t":"ping""#) {
        return None;
    }
    let r: Reply = serde_json::from_str(text).ok()?;
    match r.t.as_str() {
        "ack" | "error" => Some(r.id),
        "state" => r.id.map(Some),
        _ => None,
    }
}

/// Carries one connection's frames: the owner's to `tx` unchanged, the
/// client's messages up as [`Frame`]s; pings the owner every `ping_every`
/// (this hop's round trip, and whether the owner still answers). Gives the
/// connection's queue back with the messages never sent up and the `id`s
/// of those sent up and not answered yet (in its [`PumpEnd`], whose `sub`
/// the caller sets), and the socket to close unless it broke.
async fn pump(
    mut ws: Upstream,
    tx: mpsc::Sender<Out>,
    mut up: mpsc::Receiver<Up>,
    ping_every: Duration,
) -> (PumpEnd, Option<Upstream>) {
    let dead_after = ping_every * 2 + Duration::from_secs(1);
    let mut ticker = tokio::time::interval(ping_every);
    let mut heard = Instant::now();
    let mut n = 0u64;
    let mut pings: VecDeque<(u64, Instant)> = VecDeque::new();
    let mut rtts: VecDeque<Duration> = VecDeque::new();
    // The `id`s of the messages sent up and not answered yet, in order.
    let mut waiting: VecDeque<Option<u64>> = VecDeque::new();
    let why = loop {
        tokio::select! {
            frame = ws.next() => {
                let now = Instant::now();
                match frame {
                    Some(Ok(Message::Text(t))) => {
                        heard = now;
                        if let Some(id) = answer_to(t.as_str()) {
                            if let Some(i) = waiting.iter().position(|w| *w == id) {
                                waiting.remove(i);
                            }
                        }
                        if tx.try_send(Arc::from(t.as_str())).is_err() {
                            // Gone, or too slow to keep up: let go, as the
                            // owner's task does.
                            break Ended::Client;
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
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                        return (pump_end(Ended::Owner, tx, &mut up, waiting), None);
                    }
                    Some(Ok(_)) => heard = now,
                }
            }
            msg = up.recv() => match msg {
                Some(Up { msg, received, rtt }) => {
                    let wait = answered(&msg).then(|| msg.id());
                    let frame = Frame {
                        msg,
                        rtt_us: (rtt + median(&rtts)).as_micros() as u64,
                        held_us: received.elapsed().as_micros() as u64,
                    };
                    let Ok(text) = serde_json::to_string(&frame) else { continue };
                    // Waited for from now: a message whose sending fails
                    // may have reached the owner, and is not sent again.
                    waiting.extend(wait);
                    if ws.send(Message::Text(text.into())).await.is_err() {
                        return (pump_end(Ended::Owner, tx, &mut up, waiting), None);
                    }
                }
                None => break Ended::Released,
            },
            _ = ticker.tick() => {
                if heard.elapsed() > dead_after {
                    return (pump_end(Ended::Owner, tx, &mut up, waiting), None);
                }
                n += 1;
                pings.push_back((n, Instant::now()));
                if pings.len() > 8 {
                    pings.pop_front();
                }
                let ping = Message::Ping(n.to_be_bytes().to_vec().into());
                if ws.send(ping).await.is_err() {
                    return (pump_end(Ended::Owner, tx, &mut up, waiting), None);
                }
            }
            _ = tx.closed() => break Ended::Client,
        }
    };
    (pump_end(why, tx, &mut up, waiting), Some(ws))
}

/// A pump's end (its `sub` set by the caller): the messages left in its
/// queue are the unsent ones.
fn pump_end(
    why: Ended,
    client: mpsc::Sender<Out>,
    up: &mut mpsc::Receiver<Up>,
    waiting: VecDeque<Option<u64>>,
) -> PumpEnd {
    let mut unsent = Vec::new();
    while let Ok(u) = up.try_recv() {
        unsent.push(u);
    }
    PumpEnd {
        sub: 0,
        why,
        client,
        unsent,
        unanswered: waiting.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_told_from_other_frames() {
        let ack = ServerMsg::Ack { id: Some(7) }.to_text();
        assert_eq!(answer_to(&ack), Some(Some(7)));
        let error = ServerMsg::error(&ErrorCode::NotYourTurn, None).to_text();
        assert_eq!(answer_to(&error), Some(None));
        let error = ServerMsg::error(&ErrorCode::Retry, Some(3)).to_text();
        assert_eq!(answer_to(&error), Some(Some(3)));
        assert_eq!(answer_to(&ServerMsg::Ping { n: 4 }.to_text()), None);
        let state = r#"{"t":"state","you":"white","id":9,"game":"g","plies":3}"#;
        assert_eq!(answer_to(state), Some(Some(9)));
        let pushed = r#"{"t":"state","you":"white","id":null,"game":"g","plies":3}"#;
        assert_eq!(answer_to(pushed), None);
        let event = r#"{"t":"event","event":"move","id":5}"#;
        assert_eq!(answer_to(event), None);
        assert_eq!(answer_to("not json"), None);
    }

    #[test]
    fn every_message_but_pong_and_a_bare_state_is_waited_for() {
        assert!(answered(&ClientMsg::Move {
            mv: "e2e4".into(),
            id: None
        }));
        assert!(answered(&ClientMsg::Resign { id: Some(1) }));
        assert!(answered(&ClientMsg::State { id: Some(2) }));
        assert!(!answered(&ClientMsg::State { id: None }));
        assert!(!answered(&ClientMsg::Pong { n: 1, id: None }));
    }
}
