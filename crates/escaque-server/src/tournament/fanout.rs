//! A tournament's watchers: the connections of `/ws/tournaments/{id}`.
//!
//! The service tells them through one interface, [`TournamentFanout`],
//! keyed by tournament id, as the lobby does with `lobby::Fanout`. Every
//! change goes through the bus (`crate::cluster::bus`) as a signal naming
//! the tournament, so that the watchers of every process hear of it: each
//! process loads the tournament and renders it for its own watchers
//! (`crate::tournament::changed`). Each watcher sees the view for its own
//! identity (`can_edit`, `me`), so rendering is a function from identity
//! key to message ([`Watchers::render`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use crate::bus::{Bus, Signal};
use crate::proto::Out;

struct Watcher {
    owner: String,
    tx: mpsc::Sender<Out>,
}

/// Every tournament's watchers in this process.
pub struct Watchers {
    bus: Arc<dyn Bus>,
    map: Mutex<HashMap<String, Vec<Watcher>>>,
}

/// How a tournament reaches its watchers, in every process.
pub trait TournamentFanout {
    /// A new watcher of `tournament` (`owner` is its identity key).
    fn watch(&self, tournament: &str, owner: String, tx: mpsc::Sender<Out>);
    /// Whether anybody watches `tournament` in this process.
    fn watching(&self, tournament: &str) -> bool;
    /// `tournament` changed: every watcher is told its new view.
    fn changed(&self, tournament: &str);
    /// Tells every watcher of `tournament` the same message.
    fn publish_all(&self, tournament: &str, msg: Out);
    /// Tells one identity's watchers of `tournament` privately.
    fn tell_owner(&self, tournament: &str, owner: &str, msg: Out);
}

impl Watchers {
    /// No watchers yet; changes are signalled on `bus`.
    pub fn new(bus: Arc<dyn Bus>) -> Watchers {
        Watchers {
            bus,
            map: Mutex::new(HashMap::new()),
        }
    }

    /// The tournaments watched in this process.
    pub fn watched(&self) -> Vec<String> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.keys().cloned().collect()
    }

    /// Tells this process's watchers of `tournament` the message `render`
    /// makes for each identity.
    pub fn render(&self, tournament: &str, render: &dyn Fn(&str) -> Out) {
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

    /// Tells this process's watchers of `tournament` of identity `owner`.
    pub fn deliver(&self, tournament: &str, owner: &str, msg: Out) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(list) = map.get_mut(tournament) {
            list.retain(|w| w.owner != owner || w.tx.try_send(Arc::clone(&msg)).is_ok());
        }
    }
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

    fn changed(&self, tournament: &str) {
        self.bus.publish(Signal::Tournament {
            id: tournament.to_string(),
        });
    }

    fn publish_all(&self, tournament: &str, msg: Out) {
        self.bus.publish(Signal::TournamentAll {
            id: tournament.to_string(),
            msg: msg.to_string(),
        });
    }

    fn tell_owner(&self, tournament: &str, owner: &str, msg: Out) {
        self.bus.publish(Signal::TournamentOwner {
            id: tournament.to_string(),
            key: owner.to_string(),
            msg: msg.to_string(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::{Delivery, LocalBus};

    #[test]
    fn each_watcher_gets_its_own_view_and_only_its_tournament() {
        let w = Watchers::new(Arc::new(LocalBus::default()));
        let (a, mut ra) = mpsc::channel(4);
        let (b, mut rb) = mpsc::channel(4);
        let (c, mut rc) = mpsc::channel(4);
        w.watch("t1", "g:a".into(), a);
        w.watch("t1", "g:b".into(), b);
        w.watch("t2", "g:a".into(), c);
        assert!(w.watching("t1") && w.watching("t2") && !w.watching("t3"));
        let mut watched = w.watched();
        watched.sort();
        assert_eq!(watched, ["t1", "t2"]);
        w.render("t1", &|who| Arc::from(format!("for {who}")));
        assert_eq!(&*ra.try_recv().unwrap(), "for g:a");
        assert_eq!(&*rb.try_recv().unwrap(), "for g:b");
        assert!(rc.try_recv().is_err());
        w.deliver("t1", "g:b", Arc::from("private"));
        assert_eq!(&*rb.try_recv().unwrap(), "private");
        assert!(ra.try_recv().is_err());
        drop(ra);
        drop(rb);
        w.render("t1", &|_| Arc::from("x"));
        assert!(!w.watching("t1"));
    }

    #[test]
    fn changes_and_private_messages_go_through_the_bus() {
        let bus = Arc::new(LocalBus::default());
        let mut rx = bus.subscribe();
        let w = Watchers::new(bus);
        w.changed("t1");
        w.tell_owner("t1", "g:a", Arc::from("m"));
        assert_eq!(
            rx.try_recv().unwrap(),
            Delivery::Signal(Signal::Tournament { id: "t1".into() })
        );
        assert_eq!(
            rx.try_recv().unwrap(),
            Delivery::Signal(Signal::TournamentOwner {
                id: "t1".into(),
                key: "g:a".into(),
                msg: "m".into()
            })
        );
    }
}
