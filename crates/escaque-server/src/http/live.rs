//! "Partidas en juego": the games in progress, for visitors to watch.
//!
//! `GET /api/games/live` answers the list once; the lobby's WebSocket
//! (`/ws/lobby`) pushes it as `{"t":"live","games":[…]}` when a watcher
//! connects and whenever it changes (checked every [`PUSH_EVERY`]: a move or a
//! tick of the clock changes it, so a watched list refreshes at that pace).
//!
//! Kid mode: a game with a pupil in it (or that belongs to a class) is not
//! listed; its class's page lists it for the class.

use std::sync::{Arc, Weak};
use std::time::Duration;

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use tokio::sync::oneshot;

use crate::actor::Cmd;
use crate::lobby::Fanout;
use crate::proto::LiveGame;
use crate::Hub;

/// How often the pushed list is recomputed.
pub const PUSH_EVERY: Duration = Duration::from_secs(2);

/// The most games listed.
pub const MAX_LISTED: usize = 50;

/// Whether identity key `key` is a pupil's. When the store cannot tell,
/// the answer is yes: a game is rather left off the list than a pupil
/// shown.
async fn is_pupil(hub: &Hub, key: &str) -> bool {
    crate::classes::kid::is_pupil(hub, key)
        .await
        .unwrap_or_else(|e| {
            // Logged once, as a route's store error is.
            drop(crate::http::ApiError::from(e));
            true
        })
}

/// Whether game `g` may be listed publicly: it belongs to no class and no
/// pupil sits in it.
async fn public(hub: &Hub, g: &LiveGame) -> bool {
    if g.class_id.is_some() {
        return false;
    }
    for key in g.owners.iter().flatten() {
        if is_pupil(hub, key).await {
            return false;
        }
    }
    true
}

/// The games in progress (both seats taken, not over) that may be listed
/// publicly (kid mode: none with a pupil in it), at most [`MAX_LISTED`],
/// most moves first. Each game's task answers for itself (`Cmd::Live`:
/// names, rules, plies, clock, seats).
pub async fn live_games(hub: &Arc<Hub>) -> Vec<LiveGame> {
    let mut out = Vec::new();
    for (_, tx) in hub.live_games() {
        let (rtx, rrx) = oneshot::channel();
        if tx.send(Cmd::Live { reply: rtx }).await.is_err() {
            continue;
        }
        if let Ok(Some(g)) = rrx.await {
            if public(hub, &g).await {
                out.push(g);
            }
        }
    }
    out.sort_by(|a, b| b.plies.cmp(&a.plies).then_with(|| a.game.cmp(&b.game)));
    out.truncate(MAX_LISTED);
    out
}

/// The list as the lobby pushes it.
pub fn live_message(games: &[LiveGame]) -> Value {
    json!({"t": "live", "games": games})
}

/// `GET /api/games/live`.
pub(super) async fn list(State(hub): State<Arc<Hub>>) -> Json<Value> {
    Json(json!({"games": live_games(&hub).await}))
}

/// Pushes the list to the lobby's watchers while the server lives.
pub async fn push_loop(hub: Weak<Hub>) {
    let mut ticker = tokio::time::interval(PUSH_EVERY);
    loop {
        ticker.tick().await;
        let Some(hub) = hub.upgrade() else { return };
        if hub.lobby.watching() {
            let msg = live_message(&live_games(&hub).await);
            hub.lobby.set_live(Arc::from(msg.to_string()));
        }
    }
}
