//! Leases: one owner per game (see the module above).
//!
//! A process runs a game's task only after [`claim`] gave it the game's
//! lease ([`Claim::Mine`]); it renews every lease it holds every third of
//! the lease's length ([`renew_loop`]), and gives a lease up when the
//! game's task ends ([`release`]).
//!
//! * **Fencing**: every game write of a task carries its [`Fence`]; the
//!   store refuses it ([`crate::store::StoreError::Fenced`]) once another
//!   process has taken the game. A fenced task stops (its connections are
//!   closed with 1012), and so does a task whose lease the renewal no
//!   longer lists (the process was paused past its lease).
//! * **Takeover**: on PostgreSQL a claim on a game whose holder's database
//!   session is gone (its session lock, `super::session`, is free: the
//!   process died) takes the lease at once, from that holder at that epoch
//!   ([`crate::store::Store::take_lease_from`]). Otherwise a claim on a game
//!   whose holder looks dead (its heartbeat older than half a lease: a
//!   paused process keeps its session) waits until the lease runs out, at
//!   most a lease and a second, looking at the holder's session every
//!   200 ms, and takes it; a holder that is handing its games over is
//!   waited for the same way. Every process sweeps, every half
//!   lease, the games in progress whose lease ran out ([`sweep_loop`]), so
//!   that clocks and engine turns go on with nobody connected.
//! * **Clocks**: a process taking a game over charges the side to move for
//!   its turn only up to the old owner's last heartbeat
//!   ([`Taken::heartbeat_ms`]), never for the time no process owned it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::mpsc;

use super::{Claim, Fence, OwnerAt};
use crate::actor::Stop;
use crate::store::cluster::LeaseRow;
use crate::store::now_ms;
use crate::Hub;

/// What this process knows of its own games: the loads in progress (one
/// lock per game, so that a claim that waits blocks no other game), the
/// tasks it runs with their epochs, and whether it is handing over.
#[derive(Default)]
pub struct Local {
    loads: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    held: Mutex<HashMap<String, Held>>,
    stopping: AtomicBool,
    /// The last heartbeat of the previous run under this name (read at
    /// start, before registering again).
    prev_seen: Mutex<Option<i64>>,
}

struct Held {
    epoch: i64,
    stop: mpsc::Sender<Stop>,
}

/// The lock of one game's load, held while a claim and a load are under
/// way.
pub struct LoadGuard<'a> {
    local: &'a Local,
    id: String,
    lock: Arc<tokio::sync::Mutex<()>>,
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Drop for LoadGuard<'_> {
    fn drop(&mut self) {
        self.guard.take();
        let mut map = self.local.loads.lock().unwrap_or_else(|e| e.into_inner());
        // Nobody else waits on it: the map's copy and this one.
        if Arc::strong_count(&self.lock) == 2 {
            map.remove(&self.id);
        }
    }
}

impl Local {
    /// Waits for (and holds) the load lock of game `id`.
    pub async fn lock_game(&self, id: &str) -> LoadGuard<'_> {
        let lock = {
            let mut map = self.loads.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(map.entry(id.to_string()).or_default())
        };
        let guard = Arc::clone(&lock).lock_owned().await;
        LoadGuard {
            local: self,
            id: id.to_string(),
            lock,
            guard: Some(guard),
        }
    }

    /// A game's task runs here with the lease of epoch `epoch`.
    pub(crate) fn register(&self, id: &str, epoch: i64, stop: mpsc::Sender<Stop>) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.insert(id.to_string(), Held { epoch, stop });
    }

    /// The task of game `id` at `epoch` ended.
    pub(crate) fn unregister(&self, id: &str, epoch: i64) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.get(id).is_some_and(|h| h.epoch == epoch) {
            held.remove(id);
        }
    }

    /// The games whose task runs here, with their epochs.
    pub fn held(&self) -> Vec<(String, i64)> {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.iter().map(|(id, h)| (id.clone(), h.epoch)).collect()
    }

    /// How many games' tasks run here.
    pub fn count(&self) -> usize {
        self.held.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Tells the task of game `id` at `epoch` to stop.
    fn stop(&self, id: &str, epoch: i64, why: Stop) {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(h) = held.get(id).filter(|h| h.epoch == epoch) {
            let _ = h.stop.try_send(why);
        }
    }

    /// Every task's stop handle (a handover).
    pub(crate) fn stoppers(&self) -> Vec<mpsc::Sender<Stop>> {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.values().map(|h| h.stop.clone()).collect()
    }

    /// This process is handing its games over: it takes no lease any more.
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    pub(crate) fn set_stopping(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    pub(crate) fn set_prev_seen(&self, ms: Option<i64>) {
        *self.prev_seen.lock().unwrap_or_else(|e| e.into_inner()) = ms;
    }

    fn prev_seen(&self) -> Option<i64> {
        *self.prev_seen.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A lease taken (kept with storage, below the game's task).
pub use crate::store::cluster::Taken;

/// Takes (or keeps) the lease of game `id` for this process, or says which
/// live process holds it.
pub async fn claim(hub: &Hub, id: &str) -> Claim {
    match take(hub, id).await {
        Ok(t) => Claim::Mine(t.fence),
        Err(c) => c,
    }
}

/// Whether the holder of lease `l` is presumed alive: registered, `up`,
/// and seen within half a lease.
fn holder_alive(hub: &Hub, l: &LeaseRow, now: i64) -> bool {
    let half = (hub.node.lease.as_millis() / 2) as i64;
    l.state.as_deref() == Some("up") && l.seen_ms.is_some_and(|s| now - s <= half)
}

fn elsewhere(l: LeaseRow) -> Claim {
    match (l.owner, l.addr) {
        (Some(node), Some(addr)) => Claim::Elsewhere(OwnerAt { node, addr }),
        // Held by a process that never registered: it cannot be
        // reached; its lease runs out.
        (Some(node), None) => Claim::Elsewhere(OwnerAt {
            node,
            addr: String::new(),
        }),
        (None, _) => Claim::NoGame,
    }
}

/// [`claim`], with the old holder's last heartbeat: takes the lease when
/// it is free, expired, given up or already this process's; when its
/// holder looks dead (or is handing over) waits until it can take it, at
/// most a lease and a second. `Err`: the game is elsewhere, or there is
/// no such game.
pub async fn take(hub: &Hub, id: &str) -> Result<Taken, Claim> {
    let me = &hub.node;
    let lease_ms = me.lease.as_millis() as i64;
    let deadline = tokio::time::Instant::now() + me.lease + Duration::from_secs(1);
    loop {
        let before = match hub.store.lease(id).await {
            Ok(Some(l)) => l,
            Ok(None) => return Err(Claim::NoGame),
            Err(e) => {
                eprintln!("escaque-server: lease of {id}: {e}");
                return Err(Claim::NoGame);
            }
        };
        let now = now_ms();
        if hub.local.is_stopping() {
            // Handing over: this process takes nothing.
            let held =
                before.owner.as_deref().is_some_and(|o| o != &*me.name) && before.until_ms >= now;
            return Err(if held {
                elsewhere(before)
            } else {
                Claim::NoGame
            });
        }
        match hub.store.take_lease(id, &me.name, lease_ms).await {
            Ok(Some(epoch)) => {
                let heartbeat_ms = match &before.owner {
                    _ if before.until_ms == 0 => None,
                    None => None,
                    Some(o) if o == &*me.name => hub.local.prev_seen(),
                    Some(_) => before.seen_ms,
                };
                return Ok(taken(hub, id, epoch, heartbeat_ms).await);
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("escaque-server: lease of {id}: {e}");
                return Err(Claim::NoGame);
            }
        }
        let l = match hub.store.lease(id).await {
            Ok(Some(l)) => l,
            Ok(None) => return Err(Claim::NoGame),
            Err(e) => {
                eprintln!("escaque-server: lease of {id}: {e}");
                return Err(Claim::NoGame);
            }
        };
        let now = now_ms();
        let handing_over = l.state.as_deref() == Some("stopping");
        // The holder's database session is gone (PostgreSQL: it died, or
        // lost its database): the game is taken from it now, whatever its
        // lease's time, unless the lease changed meanwhile.
        if let Some(from) = l.owner.as_deref().filter(|o| *o != &*me.name) {
            if !handing_over && session_gone(hub, from).await {
                match hub
                    .store
                    .take_lease_from(id, &me.name, lease_ms, from, l.epoch)
                    .await
                {
                    Ok(Some(epoch)) => return Ok(taken(hub, id, epoch, l.seen_ms).await),
                    Ok(None) => {
                        if tokio::time::Instant::now() >= deadline {
                            return Err(elsewhere(l));
                        }
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                    Err(e) => {
                        eprintln!("escaque-server: lease of {id}: {e}");
                        return Err(Claim::NoGame);
                    }
                }
            }
        }
        if (holder_alive(hub, &l, now) && !handing_over) || tokio::time::Instant::now() >= deadline
        {
            return Err(elsewhere(l));
        }
        // The holder looks dead: its lease runs out at `until_ms` (a
        // holder handing over gives it up sooner).
        // (At most every `SESSION_CHECK`: the holder's session is looked at
        // again.)
        let wait = if handing_over {
            50
        } else {
            ((l.until_ms - now).clamp(0, lease_ms) as u64 + 20).min(SESSION_CHECK_MS)
        };
        let at = (tokio::time::Instant::now() + Duration::from_millis(wait)).min(deadline);
        tokio::time::sleep_until(at).await;
    }
}

/// While a claim waits for a holder that looks dead, how often its
/// session is looked at (ms).
const SESSION_CHECK_MS: u64 = 200;

/// Whether process `name`'s database session is known to be gone (never
/// on SQLite, nor when the database cannot say).
pub async fn session_gone(hub: &Hub, name: &str) -> bool {
    match hub.store.node_session_alive(name).await {
        Ok(alive) => alive == Some(false),
        Err(e) => {
            eprintln!("escaque-server: session of {name}: {e}");
            false
        }
    }
}

/// The lease of game `id` taken at `epoch`; the turn's start as stored is
/// read (after the taking, so that no write of the old owner is missed)
/// when the old owner's heartbeat charges the clock.
async fn taken(hub: &Hub, id: &str, epoch: i64, heartbeat_ms: Option<i64>) -> Taken {
    let turn_started_ms = match heartbeat_ms {
        Some(_) => match hub.store.lease(id).await {
            Ok(Some(l)) => l.turn_started_ms,
            _ => None,
        },
        None => None,
    };
    Taken {
        fence: Fence {
            node: hub.node.name.clone(),
            epoch,
        },
        heartbeat_ms,
        turn_started_ms,
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
            hub.adopt(&id).await;
        }
    }
}

/// Renews this process's leases every third of a lease, for as long as the
/// hub lives; a task whose lease the renewal no longer lists at its epoch
/// (another process took the game while this one was paused) stops.
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
        // The tasks running before the renewal: each took its lease before
        // it, so the renewal lists it if the lease is still this process's.
        let running = hub.local.held();
        match hub.store.renew_leases(&hub.node.name, lease_ms).await {
            Ok(mine) => {
                for (id, epoch) in running {
                    if !mine.iter().any(|(g, e)| *g == id && *e == epoch) {
                        hub.local.stop(&id, epoch, Stop::Lost);
                    }
                }
            }
            Err(e) => eprintln!("escaque-server: renewing leases: {e}"),
        }
    }
}

/// Every half lease, takes the games in progress whose lease ran out (their
/// owner died or gave them up) and runs their tasks here, so that their
/// clocks and engine turns go on with nobody connected.
pub async fn sweep_loop(hub: Weak<Hub>) {
    let every = match hub.upgrade() {
        Some(h) => h.node.lease / 2,
        None => return,
    };
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(hub) = hub.upgrade() else {
            return;
        };
        if hub.local.is_stopping() {
            continue;
        }
        match hub.store.orphan_games(now_ms()).await {
            Ok(ids) => {
                for id in ids {
                    hub.adopt(&id).await;
                }
            }
            Err(e) => eprintln!("escaque-server: orphan games: {e}"),
        }
    }
}
