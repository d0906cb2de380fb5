//! Leases: one owner per game (see the module above).

use super::{Claim, Fence};
use crate::Hub;

/// Takes (or keeps) the lease of game `id` for this process, or says which
/// live process holds it.
///
/// Today: one process, so every existing game is this process's.
pub async fn claim(hub: &Hub, id: &str) -> Claim {
    match hub.store.game(id).await {
        Ok(Some(_)) => Claim::Mine(Fence {
            node: hub.node.name.clone(),
            epoch: 0,
        }),
        _ => Claim::NoGame,
    }
}
