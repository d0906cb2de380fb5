//! Leases: one owner per game (see the module above).
//!
//! A process runs a game's task only after [`claim`] gave it the game's
//! lease ([`Claim::Mine`]); it renews every lease it holds every third of
//! the lease's length ([`renew_loop`]), and gives a lease up when the
//! game's task ends ([`release`]).

use std::sync::{Arc, Weak};

use super::{Claim, Fence, OwnerAt};
use crate::store::now_ms;
use crate::Hub;

/// Takes (or keeps) the lease of game `id` for this process, or says which
/// live process holds it.
pub async fn claim(hub: &Hub, id: &str) -> Claim {
    let me = &hub.node;
    let lease_ms = me.lease.as_millis() as i64;
    match hub.store.take_lease(id, &me.name, lease_ms).await {
        Ok(Some(epoch)) => {
            return Claim::Mine(Fence {
                node: me.name.clone(),
                epoch,
            })
        }
        Ok(None) => {}
        Err(e) => {
            eprintln!("escaque-server: lease of {id}: {e}");
            return Claim::NoGame;
        }
    }
    match hub.store.lease(id).await {
        Ok(Some(l)) => match (l.owner, l.addr) {
            (Some(node), Some(addr)) => Claim::Elsewhere(OwnerAt { node, addr }),
            // Held by a process that never registered: it cannot be
            // reached; its lease runs out.
            (Some(node), None) => Claim::Elsewhere(OwnerAt {
                node,
                addr: String::new(),
            }),
            (None, _) => Claim::NoGame,
        },
        Ok(None) => Claim::NoGame,
        Err(e) => {
            eprintln!("escaque-server: lease of {id}: {e}");
            Claim::NoGame
        }
    }
}

/// Gives the lease of a game whose task ended up.
pub async fn release(hub: &Hub, id: &str, fence: &Fence) {
    if let Err(e) = hub.store.release_lease(id, &fence.node, fence.epoch).await {
        eprintln!("escaque-server: release of {id}: {e}");
    }
}

/// Takes the unfinished games nobody holds (at start: the games this
/// process held before it stopped, and those of processes that died) and
/// runs their tasks.
pub async fn adopt_orphans(hub: &Arc<Hub>) {
    let Ok(ids) = hub.store.unfinished_games().await else {
        return;
    };
    let now = now_ms();
    for id in ids {
        let free = match hub.store.lease(&id).await {
            Ok(Some(l)) => {
                l.owner.is_none() || l.owner.as_deref() == Some(&*hub.node.name) || l.until_ms < now
            }
            _ => false,
        };
        if free {
            let _ = hub.game(&id).await;
        }
    }
}

/// Renews this process's leases every third of a lease, for as long as the
/// hub lives.
pub async fn renew_loop(hub: Weak<Hub>) {
    let every = match hub.upgrade() {
        Some(h) => h.node.lease / 3,
        None => return,
    };
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        let Some(hub) = hub.upgrade() else {
            return;
        };
        let lease_ms = hub.node.lease.as_millis() as i64;
        if let Err(e) = hub.store.renew_leases(&hub.node.name, lease_ms).await {
            eprintln!("escaque-server: renewing leases: {e}");
        }
    }
}
