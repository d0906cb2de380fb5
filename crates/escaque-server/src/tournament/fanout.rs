//! A tournament's watchers: the connections of `/ws/tournaments/{id}`.
//!
//! The service tells them through one interface, [`TournamentFanout`],
//! keyed by tournament id, as the lobby does with `lobby::Fanout`: today one
//! process holds every watcher ([`Watchers`]); a server of several
//! processes puts its shared channel behind the same trait. Each watcher
//! sees the view for its own identity (`can_edit`, `me`), so a change is
//! published as a function from identity key to message.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use crate::actor::Out;

struct Watcher {
    owner: String,
    tx: mpsc::Sender<Out>,
}

/// Every tournament's watchers in this process.
#[derive(Default)]
pub struct Watchers {
    map: Mutex<HashMap<String, Vec<Watcher>>>,
}

/// How a tournament reaches its watchers.
pub trait TournamentFanout {
    /// A new watcher of `tournament` (`owner` is its identity key).
    fn watch(&self, tournament: &str, owner: String, tx: mpsc::Sender<Out>);
    /// Whether anybody watches `tournament`.
    fn watching(&self, tournament: &str) -> bool;
    /// Tells every watcher of `tournament` the message `render` makes for
    /// its identity.
    fn publish(&self, tournament: &str, render: &dyn Fn(&str) -> Out);
    /// Tells one identity's watchers of `tournament` privately.
    fn tell_owner(&self, tournament: &str, owner: &str, msg: Out);
}

impl TournamentFanout for Watchers {
    fn watch(&self, tournament: &str, owner: String, tx: mpsc::Sender<Out>) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let list = map.entry(tournament.to_string()).or_default();
        list.retain(|w| !w.tx.is_closed());
        list.push(Watcher { owner, tx });
    }

    fn watching(&self, tournament: &str) -> bool {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let Some(list) = map.get_mut(tournament) else {
            return false;
        };
        list.retain(|w| !w.tx.is_closed());
        if list.is_empty() {
            map.remove(tournament);
            return false;
        }
        true
    }

    fn publish(&self, tournament: &str, render: &dyn Fn(&str) -> Out) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let Some(list) = map.get_mut(tournament) else {
            return;
        };
        // One message per identity, shared by its connections.
        let mut made: HashMap<String, Out> = HashMap::new();
        list.retain(|w| {
            let msg = made
                .entry(w.owner.clone())
                .or_insert_with(|| render(&w.owner));
            w.tx.try_send(Arc::clone(msg)).is_ok()
        });
        if list.is_empty() {
            map.remove(tournament);
        }
    }

    fn tell_owner(&self, tournament: &str, owner: &str, msg: Out) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(list) = map.get_mut(tournament) {
            list.retain(|w| w.owner != owner || w.tx.try_send(Arc::clone(&msg)).is_ok());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_watcher_gets_its_own_view_and_only_its_tournament() {
        let w = Watchers::default();
        let (a, mut ra) = mpsc::channel(4);
        let (b, mut rb) = mpsc::channel(4);
        let (c, mut rc) = mpsc::channel(4);
        w.watch("t1", "g:a".into(), a);
        w.watch("t1", "g:b".into(), b);
        w.watch("t2", "g:a".into(), c);
        assert!(w.watching("t1") && w.watching("t2") && !w.watching("t3"));
        w.publish("t1", &|who| Arc::from(format!("for {who}")));
        assert_eq!(&*ra.try_recv().unwrap(), "for g:a");
        assert_eq!(&*rb.try_recv().unwrap(), "for g:b");
        assert!(rc.try_recv().is_err());
        w.tell_owner("t1", "g:b", Arc::from("private"));
        assert_eq!(&*rb.try_recv().unwrap(), "private");
        assert!(ra.try_recv().is_err());
        drop(ra);
        drop(rb);
        w.publish("t1", &|_| Arc::from("x"));
        assert!(!w.watching("t1"));
    }
}
