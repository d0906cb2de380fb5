//! "Partidas en juego": the games in progress, for visitors to watch.
//!
//! `GET /api/games/live` answers the list once; the lobby's WebSocket
//! (`/ws/lobby`) pushes it as `{"t":"live","games":[…]}` when a watcher
//! connects and whenever it changes (checked every [`PUSH_EVERY`]: a move or a
//! tick of the clock changes it, so a watched list refreshes at that pace).

use std::sync::{Arc, Weak};
use std::time::Duration;

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::oneshot;

use crate::actor::Cmd;
use crate::lobby::Fanout;
use crate::Hub;

/// How often the pushed list is recomputed.
pub const PUSH_EVERY: Duration = Duration::from_secs(2);

/// The most games listed.
pub const MAX_LISTED: usize = 50;

/// One game in progress.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveGame {
    /// Game id.
    pub game: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The rule set, as the game's state names it.
    pub rules: Value,
    /// Half-moves played.
    pub plies: u64,
    /// The clock (`white_ms`, `black_ms`, `running`, `control`), or null.
    pub clock: Value,
    /// Where a spectator's page is.
    pub watch: String,
}

/// The games in progress (both seats taken, not over), at most
/// [`MAX_LISTED`], most moves first.
pub async fn live_games(hub: &Arc<Hub>) -> Vec<LiveGame> {
    let mut out = Vec::new();
    for (id, tx) in hub.live_games() {
        let (rtx, rrx) = oneshot::channel();
        if tx.send(Cmd::Snapshot { reply: rtx }).await.is_err() {
            continue;
        }
        let Ok(v) = rrx.await else { continue };
        if v["status"] != "playing" {
            continue;
        }
        let mut clock = v["clock"].clone();
        if let Some(c) = clock.as_object_mut() {
            c.retain(|k, _| matches!(k.as_str(), "white_ms" | "black_ms" | "running" | "control"));
        }
        out.push(LiveGame {
            watch: format!("/partida/{id}"),
            game: id,
            white: v["white"]["name"].as_str().unwrap_or_default().to_string(),
            black: v["black"]["name"].as_str().unwrap_or_default().to_string(),
            rules: v["rules"].clone(),
            plies: v["plies"].as_u64().unwrap_or(0),
            clock,
        });
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
