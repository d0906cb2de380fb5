//! Several `escaque servir` processes on one database (issue 28; the design
//! is in docs/architecture-server.md, "Several processes").
//!
//! * **One owner per game** ([`lease`]): a process runs a game's task only
//!   while it holds the game's lease in the database; every game write
//!   carries the [`Fence`] it was taken with and is refused once another
//!   process has taken the game over.
//! * **A dead owner is known at once** ([`session`]): on PostgreSQL each
//!   process holds a session lock the database releases when the process's
//!   connection drops; a claim takes the game of a process whose lock is
//!   free without waiting for its lease to run out.
//! * **Any process serves any connection** ([`relay`]): a process asked for
//!   a game another process owns gets a stand-in with the same queue
//!   ([`crate::actor::Cmd`]) that forwards to the owner, and that keeps its
//!   connections open while the game moves to another owner.
//! * **Fan-out across processes** ([`bus`]): the lobby, tournaments and
//!   classes tell their watchers on every process through one [`bus::Bus`].
//!
//! With SQLite there is one process: it takes every lease at start, and the
//! bus is the process's own.

/// The fan-out between processes (a module of its own below the lobby and
/// the tournaments; here too for the old paths).
pub use crate::bus;
pub mod lease;
pub mod relay;
pub mod session;
pub mod wire;

use std::sync::Arc;
use std::time::Duration;

/// This process, as the other processes know it.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its unique name (`--nodo`, or the host's name).
    pub name: Arc<str>,
    /// Where the other processes reach its HTTP listener (`host:port`).
    pub addr: String,
    /// How long a lease lasts unless renewed.
    pub lease: Duration,
    /// The secret the processes of one database share (kept in `meta`):
    /// the internal routes answer only requests that carry it.
    pub secret: String,
}

/// The right to write a game (kept with storage, which checks it).
pub use crate::store::Fence;

/// Where a game's task runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Here: this process took (or holds) the lease.
    Mine(Fence),
    /// In another live process.
    Elsewhere(OwnerAt),
    /// No such game.
    NoGame,
}

/// Another process that owns a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerAt {
    /// Its name.
    pub node: String,
    /// Where it listens (`host:port`).
    pub addr: String,
}

/// The name of this host (`/proc/sys/kernel/hostname`, `$HOSTNAME`), the
/// default node name.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "escaque".to_string())
}
