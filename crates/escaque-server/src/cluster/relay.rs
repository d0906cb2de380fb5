//! A stand-in for a game another process owns: the same queue
//! ([`crate::actor::Cmd`]) as a local game's task, forwarding to the owner.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::OwnerAt;
use crate::actor::Cmd;
use crate::Hub;

/// A stand-in for game `id`, owned by `owner`; `None` when the owner cannot
/// be reached.
///
/// Today: not built (one process owns every game).
pub async fn proxy(_hub: &Arc<Hub>, _id: &str, _owner: OwnerAt) -> Option<mpsc::Sender<Cmd>> {
    None
}
