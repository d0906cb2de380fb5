//! The WebSocket endpoints: a game's (`/ws/games/{id}`, a seat with its
//! secret or a spectator) and the lobby's (`/ws/lobby`). The connection
//! reads frames, measures the round trip with pings, rate-limits and hands
//! each message to the game's actor; see `docs/protocol.md`.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use escaque::{Color, Lang};
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
                let e = ErrorCode::BadSeat;
                return Err(ApiError(
                    StatusCode::FORBIDDEN,
                    e.code(),
                    e.text(Lang::Es),
                    e.text(Lang::En),
                ));
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

async fn game_connection(hub: Arc<Hub>, id: String, seat: Option<Color>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Out>(512);
    // Join (retry once if the game's task was just ending).
    let mut joined = None;
    for _ in 0..2 {
        let Some(game) = hub.game(&id).await else {
            break;
        };
        let (rtx, rrx) = oneshot::channel();
        if game
            .send(Cmd::Join {
                seat,
                tx: tx.clone(),
                reply: rtx,
            })
            .await
            .is_err()
        {
            continue;
        }
        if let Ok(sub) = rrx.await {
            joined = Some((game, sub));
            break;
        }
    }
    let Some((game, sub)) = joined else {
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
    let (close_tx, mut close_rx) = oneshot::channel::<CloseFrame>();
    let mut writer = tokio::spawn(async move {
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
    });
    let mut close_tx = Some(close_tx);
    let say = |msg: ServerMsg| {
        if let Some(tx) = local.upgrade() {
            let _ = tx.try_send(Arc::from(msg.to_text()));
        }
    };
    let cfg = &hub.config;
    let mut bucket = Bucket::new(cfg.msgs_burst, cfg.msgs_per_sec);
    let mut ticker = tokio::time::interval(cfg.ping_every);
    let mut ping_n = 0u64;
    let mut pings: VecDeque<(u64, Instant)> = VecDeque::new();
    let mut rtts: VecDeque<Duration> = VecDeque::new();
    loop {
        tokio::select! {
            _ = &mut writer => {
                // The close frame is out: read until the client's own close
                // (at most two seconds), so that the socket is not dropped
                // with the client's frames unread — the kernel would answer
                // them with a reset, and the client could lose the close
                // frame and its code (1012: reconnect).
                drain(&mut stream).await;
                break;
            }
            _ = ticker.tick() => {
                ping_n += 1;
                pings.push_back((ping_n, Instant::now()));
                if pings.len() > 32 {
                    pings.pop_front();
                }
                say(ServerMsg::Ping { n: ping_n });
            }
            frame = stream.next() => {
                let received = Instant::now();
                let text = match frame {
                    Some(Err(e)) => {
                        if too_big(&e) {
                            // Beyond the transport's limit: the close frame
                            // is sent, and the connection kept a moment so
                            // that the client reads it before the socket goes.
                            close_with(&mut close_tx, &mut writer).await;
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                        break;
                    }
                    None => break,
                    Some(Ok(Message::Text(t))) if t.len() > MAX_FRAME_BYTES => {
                        close_with(&mut close_tx, &mut writer).await;
                        drain(&mut stream).await;
                        break;
                    }
                    Some(Ok(Message::Binary(b))) if b.len() > MAX_FRAME_BYTES => {
                        close_with(&mut close_tx, &mut writer).await;
                        drain(&mut stream).await;
                        break;
                    }
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        say(ServerMsg::error(&ErrorCode::Binary, None));
                        continue;
                    }
                    Some(Ok(Message::Close(_))) => break,
                    Some(Ok(_)) => continue,
                };
                if !bucket.take() {
                    // Refused unread, but the answer says which message.
                    say(ServerMsg::error(&ErrorCode::RateLimited, frame_id(text.as_str())));
                    continue;
                }
                match parse_client(text.as_str()) {
                    Err(bad) => say(ServerMsg::error(&bad.error, bad.id)),
                    Ok(ClientMsg::Pong { n, .. }) => {
                        if let Some(i) = pings.iter().position(|(k, _)| *k == n) {
                            let (_, at) = pings.remove(i).unwrap_or((n, received));
                            rtts.push_back(received.duration_since(at));
                            if rtts.len() > 5 {
                                rtts.pop_front();
                            }
                        }
                    }
                    Ok(msg) => {
                        let id = msg.id();
                        let cmd = Cmd::Msg { sub, msg, received, rtt: median(&rtts) };
                        if game.send(cmd).await.is_err() {
                            // The game's task stopped here: the message is
                            // refused with `retry` (when the task still
                            // holds this connection), and the writer closes
                            // with 1012 once the task lets it go.
                            say(ServerMsg::error(&ErrorCode::Retry, id));
                            let wait = Duration::from_secs(2);
                            if tokio::time::timeout(wait, &mut writer).await.is_ok() {
                                drain(&mut stream).await;
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
    let _ = game.send(Cmd::Leave { sub }).await;
    writer.abort();
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
