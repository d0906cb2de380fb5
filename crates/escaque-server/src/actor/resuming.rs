//! The state a stand-in shows while the game's owner is gone and no
//! process runs the game yet (issue 60; `crate::cluster::relay`): the game
//! as stored, with status `resuming` — no legal moves, no claims, the clocks
//! stopped — so that a connection is answered at once; the full `state` of
//! the process that takes the game over follows on the same connection.

use std::sync::Arc;

use super::{Actor, Phase};
use crate::proto::StateView;
use crate::store::cluster::Taken;
use crate::store::Fence;
use crate::Hub;

/// The status of a game in progress while no process runs it.
pub const RESUMING: &str = "resuming";

/// Game `id` as stored, seen while it resumes (a game in progress shows
/// status [`RESUMING`]; a game waiting, adjourned or over shows its own);
/// `None` when there is no such game or it cannot be read.
pub async fn resuming_state(hub: &Arc<Hub>, id: &str) -> Option<StateView> {
    let row = hub.store.game(id).await.ok()??;
    let moves = hub.store.moves(id).await.ok()?;
    // Read only: this actor never runs, and writes nothing (no epoch is
    // ever -1).
    let view = Taken {
        fence: Fence {
            node: hub.node.name.clone(),
            epoch: -1,
        },
        heartbeat_ms: None,
        turn_started_ms: None,
    };
    let (mut actor, _) = Actor::load(Arc::clone(hub), row, moves, view).ok()?;
    actor.load_link().await;
    actor.load_ratings().await;
    let mut st = actor.state(true);
    if actor.phase == Phase::Playing {
        st.status = RESUMING;
        st.legal.clear();
        st.legal_uci.clear();
        st.claimable.clear();
        st.claim_moves.clear();
        st.can_abort = false;
        st.abandon_claimable_by = None;
        if let Some(c) = st.clock.as_mut() {
            c.running = None;
        }
    }
    Some(st)
}
