//! The internal routes: what a process serving a client asks of the process
//! that owns the client's game (issue 28; docs/protocol.md, "Several
//! processes"). Not for clients; the other end is `crate::cluster::relay`.
//!
//! * `GET /interno/ws/games/{id}[?seat=white|black]`: one WebSocket per
//!   client connection of the serving process. It joins this process's task
//!   of the game with that seat (the client's seat secret was checked where
//!   the client connected) and carries the task's text frames out unchanged;
//!   frames in are [`Frame`]s (a client message, the measured round trip,
//!   the time it waited in the serving process).
//! * `POST /interno/games/{id}/cmd`: one [`Command`] as JSON; the answer is
//!   an [`Answer`].
//!
//! Both answer only a request carrying `x-escaque-clave` with the secret the
//! processes of one database share ([`crate::cluster::Node::secret`]);
//! without it they answer as an unknown route (404). Both run only this
//! process's own task of the game: a process that does not hold the game's
//! lease answers 409 `not_owner` (and so never relays a relayed request).
//!
//! The types on the wire between the processes are the cluster's
//! (`crate::cluster::wire`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use escaque::Color;
use serde::Deserialize;
use tokio::sync::{mpsc, oneshot};

use super::{ApiError, ApiResult};
use crate::actor::{Cmd, Out};
use crate::cluster::wire::{Answer, Command, Frame, LiveWire, Side, MAX_HELD, SECRET_HEADER};
use crate::proto::{ErrorCode, ServerMsg, MAX_FRAME_BYTES};
use crate::Hub;

/// The close frame of a socket whose game's task (or stand-in) is gone: the
/// process stops, or the game changed hands. The client reconnects (code
/// 1012, service restart).
pub fn restart_close() -> CloseFrame {
    CloseFrame {
        code: close_code::RESTART,
        reason: "reinicio: vuelve a conectar / restart: reconnect".into(),
    }
}

/// The internal routes, behind the secret.
pub(crate) fn routes(hub: Arc<Hub>) -> Router<Arc<Hub>> {
    Router::new()
        .route("/interno/ws/games/{id}", get(ws))
        .route("/interno/games/{id}/cmd", post(cmd))
        .route_layer(middleware::from_fn_with_state(hub, require_secret))
}

/// Equal secrets, compared in time independent of where they differ.
fn same_secret(given: &[u8], secret: &[u8]) -> bool {
    given.len() == secret.len()
        && !secret.is_empty()
        && given
            .iter()
            .zip(secret)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Without the secret, an internal route is an unknown route.
async fn require_secret(State(hub): State<Arc<Hub>>, req: Request, next: Next) -> Response {
    let given = req
        .headers()
        .get(SECRET_HEADER)
        .map(|v| v.as_bytes())
        .unwrap_or(b"");
    if !same_secret(given, hub.node.secret.as_bytes()) {
        return ApiError::no_route().into_response();
    }
    next.run(req).await
}

fn not_owner() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "not_owner",
        "este proceso no lleva esa partida",
        "this process does not own that game",
    )
}

/// This process's own task of game `id`: 404 when there is no such game,
/// 409 `not_owner` unless this process holds the game's lease.
async fn owned_task(hub: &Arc<Hub>, id: &str) -> Result<mpsc::Sender<Cmd>, ApiError> {
    let lease = hub.store.lease(id).await?.ok_or_else(ApiError::not_found)?;
    if lease.owner.as_deref() != Some(&*hub.node.name) || lease.until_ms == 0 {
        return Err(not_owner());
    }
    hub.game(id).await.ok_or_else(ApiError::not_found)
}

#[derive(Deserialize)]
struct SeatQuery {
    #[serde(default)]
    seat: Option<Side>,
}

/// `GET /interno/ws/games/{id}[?seat=white|black]`.
async fn ws(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    query: Result<Query<SeatQuery>, axum::extract::rejection::QueryRejection>,
    upgrade: WebSocketUpgrade,
) -> ApiResult {
    let Query(q) = query?;
    let game = owned_task(&hub, &id).await?;
    let seat = q.seat.map(Color::from);
    Ok(super::small_buffers(upgrade)
        .max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| connection(hub, id, game, seat, socket)))
}

/// One relayed client connection: joins the task, then carries frames both
/// ways until either side closes.
async fn connection(
    hub: Arc<Hub>,
    id: String,
    mut game: mpsc::Sender<Cmd>,
    seat: Option<Color>,
    mut socket: WebSocket,
) {
    let (tx, mut rx) = mpsc::channel::<Out>(512);
    // Join (once more if the task was just ending).
    let mut sub = None;
    for attempt in 0..2 {
        if attempt > 0 {
            match owned_task(&hub, &id).await {
                Ok(g) => game = g,
                Err(_) => break,
            }
        }
        let (reply, answer) = oneshot::channel();
        let join = Cmd::Join {
            seat,
            tx: tx.clone(),
            reply,
        };
        if game.send(join).await.is_err() {
            continue;
        }
        if let Ok(n) = answer.await {
            sub = Some(n);
            break;
        }
    }
    let Some(sub) = sub else {
        let _ = socket.send(Message::Close(Some(restart_close()))).await;
        return;
    };
    // The task holds the only sender: the channel closes when it drops
    // this connection.
    drop(tx);
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(text) => {
                    if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                        break;
                    }
                }
                None => {
                    let _ = socket.send(Message::Close(Some(restart_close()))).await;
                    break;
                }
            },
            frame = socket.recv() => {
                let arrived = Instant::now();
                let answer = match frame {
                    Some(Ok(Message::Text(t))) => match Frame::read(t.as_str()) {
                        Ok(f) => {
                            let held = Duration::from_micros(f.held_us).min(MAX_HELD);
                            let cmd = Cmd::Msg {
                                sub,
                                msg: f.msg,
                                received: arrived.checked_sub(held).unwrap_or(arrived),
                                rtt: Duration::from_micros(f.rtt_us),
                            };
                            if game.send(cmd).await.is_err() {
                                let _ = socket.send(Message::Close(Some(restart_close()))).await;
                                break;
                            }
                            None
                        }
                        Err(e) => Some(ServerMsg::error(&e, None)),
                    },
                    Some(Ok(Message::Binary(_))) => Some(ServerMsg::error(&ErrorCode::Binary, None)),
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    // Pings are answered by the transport.
                    Some(Ok(_)) => None,
                };
                if let Some(a) = answer {
                    if socket.send(Message::Text(a.to_text().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
    }
    let _ = game.send(Cmd::Leave { sub }).await;
}

/// `POST /interno/games/{id}/cmd`.
async fn cmd(State(hub): State<Arc<Hub>>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let command: Command = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad("malformed", crate::texts::serde_error_es(&e), e.to_string()))?;
    let game = owned_task(&hub, &id).await?;
    // The task went away meanwhile: not (any longer) this process's.
    let answer = run(&game, command).await?.ok_or_else(not_owner)?;
    Ok(Json(answer).into_response())
}

/// Runs `command` on the task `game`; `None` when the task is gone.
async fn run(game: &mpsc::Sender<Cmd>, command: Command) -> Result<Option<Answer>, ApiError> {
    let mut answer = Answer::default();
    match command {
        Command::Probe => {
            let (reply, r) = oneshot::channel();
            if game.send(Cmd::Live { reply }).await.is_err() || r.await.is_err() {
                return Ok(None);
            }
        }
        Command::Seated { seat, name, owner } => {
            let c = Cmd::Seated {
                seat: seat.into(),
                name,
                owner,
            };
            if game.send(c).await.is_err() {
                return Ok(None);
            }
        }
        Command::SeatReclaimed { seat } => {
            let c = Cmd::SeatReclaimed { seat: seat.into() };
            if game.send(c).await.is_err() {
                return Ok(None);
            }
        }
        Command::Snapshot => {
            let (reply, r) = oneshot::channel();
            if game.send(Cmd::Snapshot { reply }).await.is_err() {
                return Ok(None);
            }
            let Ok(v) = r.await else { return Ok(None) };
            answer.state = Some(v);
        }
        Command::Live => {
            let (reply, r) = oneshot::channel();
            if game.send(Cmd::Live { reply }).await.is_err() {
                return Ok(None);
            }
            let Ok(live) = r.await else { return Ok(None) };
            answer.live = live.as_ref().map(LiveWire::from);
        }
        Command::AddTime { color, ms } => {
            let (reply, r) = oneshot::channel();
            let c = Cmd::AddTime {
                color: color.into(),
                time: Duration::from_millis(ms),
                reply,
            };
            if game.send(c).await.is_err() {
                return Ok(None);
            }
            let Ok(done) = r.await else { return Ok(None) };
            answer.refused = done.err();
        }
        Command::SetResult { outcome } => {
            let outcome = escaque_torneo::Outcome::parse(&outcome).map_err(|_| {
                ApiError::bad(
                    "bad_result",
                    format!("resultado ilegible: {outcome:?}"),
                    format!("unreadable result: {outcome:?}"),
                )
            })?;
            let (reply, r) = oneshot::channel();
            if game.send(Cmd::SetResult { outcome, reply }).await.is_err() {
                return Ok(None);
            }
            let Ok(done) = r.await else { return Ok(None) };
            answer.refused = done.err();
        }
    }
    Ok(Some(answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_must_match_exactly() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abd", b"abc"));
        assert!(!same_secret(b"ab", b"abc"));
        assert!(!same_secret(b"", b""));
    }
}
