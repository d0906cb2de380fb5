//! The WebSocket endpoints: a game's (`/ws/games/{id}`, a seat with its
//! secret or a spectator) and the lobby's (`/ws/lobby`). The connection
//! reads frames, measures the round trip with pings, rate-limits and hands
//! each message to the game's actor; see `docs/protocol.md`.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use escaque::Color;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::{mpsc, oneshot};

use super::{ApiError, ApiResult, Identity};
use crate::actor::{Cmd, Out};
use crate::lobby::Fanout;
use crate::presence::PresenceView;
use crate::proto::{
    frame_id, parse_client, ClientMsg, ErrorCode, ServerMsg, MAX_FRAME_BYTES, TRANSPORT_FRAME_BYTES,
};
use crate::ratelimit::Bucket;
use crate::Hub;

#[derive(Deserialize)]
pub(crate) struct WsQuery {
    #[serde(default, alias = "asiento")]
    seat: Option<String>,
}

pub(crate) async fn ws_game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    let row = hub.store.game(&id).await?.ok_or_else(ApiError::not_found)?;
    let seat = match q.seat {
        None => None,
        Some(s) => match Hub::seat_of(&row, &s) {
            Some(c) => Some(c),
            None => {
                return Err(ErrorCode::BadSeat.into());
            }
        },
    };
    let ws = match ws {
        Ok(ws) => ws,
        Err(r) => return Ok(r.into_response()),
    };
    Ok(small_buffers(ws)
        .max_message_size(TRANSPORT_FRAME_BYTES)
        .max_frame_size(TRANSPORT_FRAME_BYTES)
        .on_upgrade(move |socket| {
            // A seated player is online while the game's socket is open.
            let owner = seat
                .and_then(|c| c.fold(row.white_owner, row.black_owner))
                .filter(|o| !o.is_empty());
            let present = owner.map(|o| hub.presence.enter(&o));
            async move {
                game_connection(hub, id, seat, socket).await;
                drop(present);
            }
        }))
}

fn median(v: &VecDeque<Duration>) -> Duration {
    if v.is_empty() {
        return Duration::ZERO;
    }
    let mut s: Vec<Duration> = v.iter().copied().collect();
    s.sort();
    s[s.len() / 2]
}

/// True when a read failed because the frame is over the transport's limit.
fn too_big(e: &axum::Error) -> bool {
    use std::error::Error as _;
    use tokio_tungstenite::tungstenite::Error;
    matches!(
        e.source().and_then(|s| s.downcast_ref::<Error>()),
        Some(Error::Capacity(_))
    )
}

/// The close frame for a frame over [`MAX_FRAME_BYTES`]: code 1009 (message
/// too big) and the limit, in Spanish and English.
fn too_big_close() -> CloseFrame {
    CloseFrame {
        code: close_code::SIZE,
        reason: format!(
            "mensaje demasiado grande (máximo {MAX_FRAME_BYTES} bytes) / \
             message too big (at most {MAX_FRAME_BYTES} bytes)"
        )
        .into(),
    }
}

/// Has the writer send the close frame for a frame over [`MAX_FRAME_BYTES`]
/// and waits (at most a second) until it is out.
async fn close_with(
    close_tx: &mut Option<oneshot::Sender<CloseFrame>>,
    writer: &mut tokio::task::JoinHandle<()>,
) {
    if let Some(tx) = close_tx.take() {
        let _ = tx.send(too_big_close());
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), writer).await;
}

/// After the close frame: reads (and drops) what the client still sends,
/// until it closes too, for at most two seconds.
async fn drain(stream: &mut futures_util::stream::SplitStream<WebSocket>) {
    let until = tokio::time::Instant::now() + Duration::from_secs(2);
    let mut errors = 0;
    while let Ok(Some(frame)) = tokio::time::timeout_at(until, stream.next()).await {
        match frame {
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(_) => {
                errors += 1;
                if errors > 16 {
                    break;
                }
            }
        }
    }
}

/// One player's or spectator's socket on a game, in phases: joined to the
/// game's task ([`join`]), a writer task sending what the game says
/// ([`spawn_writer`]), then the reading loop — pings out ([`Pings`]),
/// each frame read ([`read_frame`]) and its message handed to the game
/// ([`Conn::message`]) — and last the leave.
async fn game_connection(hub: Arc<Hub>, id: String, seat: Option<Color>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, rx) = mpsc::channel::<Out>(512);
    let Some((game, sub)) = join(&hub, &id, seat, &tx).await else {
        let _ = sink
            .send(Message::Text(
                ServerMsg::error(&ErrorCode::NoSuchGame, None)
                    .to_text()
                    .into(),
            ))
            .await;
        return;
    };
    // Local answers go through a weak handle, so the channel closes when the
    // game drops this connection.
    let local = tx.downgrade();
    drop(tx);
    // The reader asks the writer to close with a code (a frame too big).
    let (close_tx, close_rx) = oneshot::channel::<CloseFrame>();
    let mut conn = Conn {
        game,
        sub,
        local,
        writer: spawn_writer(sink, rx, close_rx),
        close_tx: Some(close_tx),
        bucket: Bucket::new(hub.config.msgs_burst, hub.config.msgs_per_sec),
        pings: Pings::default(),
    };
    let mut ticker = tokio::time::interval(hub.config.ping_every);
    loop {
        tokio::select! {
            _ = &mut conn.writer => {
                // The close frame is out: read until the client's own close
                // (at most two seconds), so that the socket is not dropped
                // with the client's frames unread — the kernel would answer
                // them with a reset, and the client could lose the close
                // frame and its code (1012: reconnect).
                drain(&mut stream).await;
                break;
            }
            _ = ticker.tick() => {
                let n = conn.pings.next();
                conn.say(ServerMsg::Ping { n });
            }
            frame = stream.next() => {
                let received = Instant::now();
                let text = match read_frame(frame) {
                    Frame::Text(t) => t,
                    Frame::Skip => continue,
                    Frame::Binary => {
                        conn.say(ServerMsg::error(&ErrorCode::Binary, None));
                        continue;
                    }
                    Frame::End => break,
                    Frame::OverTransport => {
                        // Beyond the transport's limit: the close frame is
                        // sent, and the connection kept a moment so that the
                        // client reads it before the socket goes.
                        conn.close_too_big().await;
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        break;
                    }
                    Frame::TooBig => {
                        conn.close_too_big().await;
                        drain(&mut stream).await;
                        break;
                    }
                };
                if conn.message(text.as_str(), received).await.is_break() {
                    if conn.wait_writer().await {
                        drain(&mut stream).await;
                    }
                    break;
                }
            }
        }
    }
    let _ = conn.game.send(Cmd::Leave { sub: conn.sub }).await;
    conn.writer.abort();
}

/// Joins the game's task (once more if it was just ending): its queue and
/// this connection's subscription number.
async fn join(
    hub: &Arc<Hub>,
    id: &str,
    seat: Option<Color>,
    tx: &mpsc::Sender<Out>,
) -> Option<(mpsc::Sender<Cmd>, u64)> {
    for _ in 0..2 {
        let game = hub.game(id).await?;
        let (rtx, rrx) = oneshot::channel();
        let join = Cmd::Join {
            seat,
            tx: tx.clone(),
            reply: rtx,
        };
        if game.send(join).await.is_err() {
            continue;
        }
        if let Ok(sub) = rrx.await {
            return Some((game, sub));
        }
    }
    None
}

/// The writer task: sends what the game says until the game lets the
/// connection go (then 1012: the client reconnects), the game's task stops
/// here (1012 with its reason), or the reader asks for a close frame.
fn spawn_writer(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Out>,
    mut close_rx: oneshot::Receiver<CloseFrame>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            tokio::select! {
                m = rx.recv() => match m {
                    Some(m) => {
                        if let Some(reason) = crate::actor::close_reason(&m) {
                            // The game's task stopped here (its game changed
                            // hands, or this process stops): 1012, and the
                            // client reconnects.
                            let frame = CloseFrame {
                                code: crate::actor::RESTART_CLOSE_CODE,
                                reason: reason.into(),
                            };
                            let _ = sink.send(Message::Close(Some(frame))).await;
                            let _ = sink.flush().await;
                            return;
                        }
                        if sink.send(Message::Text(m.as_ref().into())).await.is_err() {
                            return;
                        }
                    }
                    None => break,
                },
                Ok(frame) = &mut close_rx => {
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    let _ = sink.flush().await;
                    return;
                }
            }
        }
        // The game's task (or its stand-in: `cluster::relay`) let this
        // connection go: it ended, the game changed hands, or the connection
        // could not keep up. 1012: the client reconnects.
        let _ = sink
            .send(Message::Close(Some(super::internal::restart_close())))
            .await;
        let _ = sink.flush().await;
    })
}

/// A frame as the reading loop takes it.
enum Frame {
    /// A text frame within [`MAX_FRAME_BYTES`]: a message.
    Text(axum::extract::ws::Utf8Bytes),
    /// A binary frame: refused with `binary`.
    Binary,
    /// A ping or pong of the transport: nothing to do.
    Skip,
    /// The client closed, or the socket failed.
    End,
    /// Over [`MAX_FRAME_BYTES`]: closed with 1009.
    TooBig,
    /// Over the transport's own limit (the read failed): closed with 1009.
    OverTransport,
}

fn read_frame(frame: Option<Result<Message, axum::Error>>) -> Frame {
    match frame {
        Some(Err(e)) if too_big(&e) => Frame::OverTransport,
        Some(Err(_)) | None | Some(Ok(Message::Close(_))) => Frame::End,
        Some(Ok(Message::Text(t))) if t.len() > MAX_FRAME_BYTES => Frame::TooBig,
        Some(Ok(Message::Binary(b))) if b.len() > MAX_FRAME_BYTES => Frame::TooBig,
        Some(Ok(Message::Text(t))) => Frame::Text(t),
        Some(Ok(Message::Binary(_))) => Frame::Binary,
        Some(Ok(_)) => Frame::Skip,
    }
}

/// The pings this connection sent (the last 32) and the last five round
/// trips measured from their pongs: the lag the game's clock allows.
#[derive(Default)]
struct Pings {
    n: u64,
    sent: VecDeque<(u64, Instant)>,
    rtts: VecDeque<Duration>,
}

impl Pings {
    /// The next ping's number (its time kept).
    fn next(&mut self) -> u64 {
        self.n += 1;
        self.sent.push_back((self.n, Instant::now()));
        if self.sent.len() > 32 {
            self.sent.pop_front();
        }
        self.n
    }

    /// Pong `n` came at `received`.
    fn pong(&mut self, n: u64, received: Instant) {
        if let Some(i) = self.sent.iter().position(|(k, _)| *k == n) {
            let (_, at) = self.sent.remove(i).unwrap_or((n, received));
            self.rtts.push_back(received.duration_since(at));
            if self.rtts.len() > 5 {
                self.rtts.pop_front();
            }
        }
    }

    /// The median of the last round trips.
    fn rtt(&self) -> Duration {
        median(&self.rtts)
    }
}

/// A game connection's reading side.
struct Conn {
    game: mpsc::Sender<Cmd>,
    sub: u64,
    local: mpsc::WeakSender<Out>,
    writer: tokio::task::JoinHandle<()>,
    close_tx: Option<oneshot::Sender<CloseFrame>>,
    bucket: Bucket,
    pings: Pings,
}

impl Conn {
    /// Answers this connection only.
    fn say(&self, msg: ServerMsg) {
        if let Some(tx) = self.local.upgrade() {
            let _ = tx.try_send(Arc::from(msg.to_text()));
        }
    }

    /// Closes with 1009 (a frame too big).
    async fn close_too_big(&mut self) {
        close_with(&mut self.close_tx, &mut self.writer).await;
    }

    /// Waits (two seconds at most) for the writer's close; true if it came.
    async fn wait_writer(&mut self) -> bool {
        let wait = Duration::from_secs(2);
        tokio::time::timeout(wait, &mut self.writer).await.is_ok()
    }

    /// One text frame: rate-limited, read, and a pong kept or the message
    /// handed to the game. `Break`: the game's task stopped here.
    async fn message(&mut self, text: &str, received: Instant) -> ControlFlow<()> {
        if !self.bucket.take() {
            // Refused unread, but the answer says which message.
            self.say(ServerMsg::error(&ErrorCode::RateLimited, frame_id(text)));
            return ControlFlow::Continue(());
        }
        match parse_client(text) {
            Err(bad) => self.say(ServerMsg::error(&bad.error, bad.id)),
            Ok(ClientMsg::Pong { n, .. }) => self.pings.pong(n, received),
            Ok(msg) => {
                let id = msg.id();
                let cmd = Cmd::Msg {
                    sub: self.sub,
                    msg,
                    received,
                    rtt: self.pings.rtt(),
                };
                if self.game.send(cmd).await.is_err() {
                    // The game's task stopped here: the message is refused
                    // with `retry` (when the task still holds this
                    // connection), and the writer closes with 1012 once the
                    // task lets it go.
                    self.say(ServerMsg::error(&ErrorCode::Retry, id));
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }
}

pub(crate) async fn ws_lobby(
    State(hub): State<Arc<Hub>>,
    axum::Extension(me): axum::Extension<Identity>,
    ws: WebSocketUpgrade,
) -> Response {
    small_buffers(ws)
        .max_message_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| lobby_connection(hub, me, socket))
}

/// Messages are small (a state is a few KiB): 8 KiB buffers instead of the
/// default 128 KiB keep a connection's memory small; a client that stops
/// reading is cut off at 1 MiB of unsent data.
pub fn small_buffers(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_write_buffer_size(1024 * 1024)
}

async fn lobby_connection(hub: Arc<Hub>, me: Identity, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Out>(256);
    let _present = hub.presence.enter(&me.key);
    // Kid mode: a pupil is shown its circle's seeks only.
    let viewer = crate::classes::kid::viewer(&hub.store, &me).await;
    hub.lobby.watch(viewer, tx);
    let mut writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(Message::Text(m.as_ref().into())).await.is_err() {
                return;
            }
        }
    });
    loop {
        tokio::select! {
            _ = &mut writer => break,
            frame = stream.next() => match frame {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(_)) => {}
            }
        }
    }
    writer.abort();
}
