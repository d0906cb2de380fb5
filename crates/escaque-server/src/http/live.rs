//! "Partidas en juego": the games in progress, for visitors to watch.
//!
//! `GET /api/games/live` answers the list once; the lobby's WebSocket
//! (`/ws/lobby`) pushes it as `{"t":"live","games":[…]}` when a watcher
//! connects and whenever it changes (checked every [`PUSH_EVERY`]: a move or a
//! tick of the clock changes it, so a watched list refreshes at that pace).
//!
//! Several processes on one PostgreSQL: each lists the games whose task it
//! runs ([`local_games`]) and keeps that part in the table `live_parts`
//! every [`PUSH_EVERY`] when it changed; the list is every process's part
//! (of the processes up: a process seen gone drops out), so a watcher on
//! any process sees the games of all ([`live_games`]).
//!
//! Kid mode: a game with a pupil in it (or that belongs to a class) is not
//! listed; its class's page lists it for the class.

use std::sync::{Arc, Weak};
use std::time::Duration;

use axum::extract::State;
use axum::Json;
use serde_json::Value;
use tokio::sync::oneshot;

use crate::actor::Cmd;
use crate::lobby::Fanout;
use crate::proto::LiveGame;
use crate::store::Backend;
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

/// The games in progress whose task runs in this process (both seats
/// taken, not over) that may be listed publicly (kid mode: none with a
/// pupil in it), at most [`MAX_LISTED`], most moves first. Each game's task
/// answers for itself (`Cmd::Live`: names, rules, plies, clock, seats).
pub async fn local_games(hub: &Arc<Hub>) -> Vec<LiveGame> {
    let mut out = Vec::new();
    for (_, tx) in hub.live_games() {
        let (rtx, rrx) = oneshot::channel();
        if tx.send(Cmd::Live { reply: rtx }).await.is_err() {
            continue;
        }
        // A task that cannot answer at once (a stand-in for a game another
        // process runs) is left out: its owner lists it.
        if let Ok(Ok(Some(g))) = tokio::time::timeout(ANSWER_WITHIN, rrx).await {
            if public(hub, &g).await {
                out.push(g);
            }
        }
    }
    out.sort_by(|a, b| b.plies.cmp(&a.plies).then_with(|| a.game.cmp(&b.game)));
    out.truncate(MAX_LISTED);
    out
}

/// How long a game's task is given to answer for the list.
const ANSWER_WITHIN: Duration = Duration::from_millis(500);

/// Several processes share the list (PostgreSQL).
fn shared(hub: &Hub) -> bool {
    hub.store.backend() == Backend::Postgres
}

/// The list: this process's games and, with several processes, the
/// other processes' parts as they last kept them; each game once, at most
/// [`MAX_LISTED`], most moves first.
pub async fn live_games(hub: &Arc<Hub>) -> Vec<Value> {
    let mine = local_games(hub).await;
    let mut all: Vec<Value> = mine
        .iter()
        .filter_map(|g| serde_json::to_value(g).ok())
        .collect();
    if shared(hub) {
        all.extend(other_parts(hub).await);
    }
    merge(all)
}

/// The parts kept by the other processes that are up (a process whose
/// heartbeat is older than two leases is taken for gone).
async fn other_parts(hub: &Hub) -> Vec<Value> {
    let fresh = crate::store::now_ms() - 2 * hub.node.lease.as_millis() as i64;
    let parts = match hub.store.live_parts(&hub.node.name, fresh).await {
        Ok(p) => p,
        Err(e) => {
            drop(crate::http::ApiError::from(e));
            return Vec::new();
        }
    };
    parts
        .iter()
        .filter_map(|p| serde_json::from_str::<Vec<Value>>(p).ok())
        .flatten()
        .collect()
}

/// Each game once (the first part that lists it), most moves first, at
/// most [`MAX_LISTED`].
fn merge(mut all: Vec<Value>) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    all.retain(|g| seen.insert(g["game"].as_str().unwrap_or("").to_string()));
    let plies = |g: &Value| g["plies"].as_u64().unwrap_or(0);
    let id = |g: &Value| g["game"].as_str().unwrap_or("").to_string();
    all.sort_by(|a, b| plies(b).cmp(&plies(a)).then_with(|| id(a).cmp(&id(b))));
    all.truncate(MAX_LISTED);
    all
}

/// The list as the lobby pushes it.
pub fn live_message(games: &[Value]) -> String {
    let msg = crate::proto::lobby::LiveMsg { t: "live", games };
    serde_json::to_string(&msg).unwrap_or_default()
}

/// `GET /api/games/live`.
pub(super) async fn list(State(hub): State<Arc<Hub>>) -> axum::response::Response {
    use axum::response::IntoResponse;
    let games = live_games(&hub).await;
    Json(crate::proto::lobby::LiveList { games: &games }).into_response()
}

/// While the server lives, every [`PUSH_EVERY`]: this process's part kept
/// for the others (when it changed; several processes only), and the list
/// pushed to the lobby's watchers.
pub async fn push_loop(hub: Weak<Hub>) {
    let mut ticker = tokio::time::interval(PUSH_EVERY);
    let mut kept: Option<String> = None;
    loop {
        ticker.tick().await;
        let Some(hub) = hub.upgrade() else { return };
        let watching = hub.lobby.watching();
        if !shared(&hub) && !watching {
            continue;
        }
        let mine = local_games(&hub).await;
        if shared(&hub) {
            let part = serde_json::to_string(&mine).unwrap_or_else(|_| "[]".into());
            if kept.as_deref() != Some(&*part) {
                match hub.store.put_live_part(&hub.node.name, &part).await {
                    Ok(()) => kept = Some(part),
                    Err(e) => drop(crate::http::ApiError::from(e)),
                }
            }
        }
        if watching {
            let mut all: Vec<Value> = mine
                .iter()
                .filter_map(|g| serde_json::to_value(g).ok())
                .collect();
            if shared(&hub) {
                all.extend(other_parts(&hub).await);
            }
            let msg = live_message(&merge(all));
            hub.lobby.set_live(Arc::from(msg));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parts_merge_each_game_once_most_moves_first() {
        let g = |id: &str, plies: u64| json!({"game": id, "plies": plies});
        let merged = merge(vec![g("a", 3), g("b", 10), g("a", 4), g("c", 3)]);
        let ids: Vec<&str> = merged.iter().filter_map(|v| v["game"].as_str()).collect();
        assert_eq!(ids, ["b", "a", "c"]);
        let many = (0..80).map(|i| g(&format!("g{i:02}"), i)).collect();
        assert_eq!(merge(many).len(), MAX_LISTED);
    }
}
