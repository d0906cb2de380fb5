//! The lobby: open seeks, kept in memory (a seek is an invitation, not a game:
//! seeks do not survive a restart), the list of games in progress, and the
//! connections watching it.
//!
//! Everything the lobby tells its watchers goes through one interface,
//! [`Fanout`]: today one process holds every watcher ([`Lobby`]); a server
//! of several processes puts its shared channel behind the same trait.

use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::json;
use tokio::sync::mpsc;

use crate::actor::Out;

/// An open seek.
#[derive(Clone, Debug, Serialize)]
pub struct Seek {
    /// Id.
    pub id: String,
    /// Who posted it (not shown).
    #[serde(skip)]
    pub owner: String,
    /// Display name.
    pub name: String,
    /// Time control text, if any.
    pub time_control: Option<String>,
    /// `white`, `black` or `random`: the poster's colour.
    pub color: String,
    /// The rule set's id ([`escaque::RuleSet::id`]).
    pub rules: String,
    /// The odds preset's id ([`escaque::Odds::id`]), if any (the poster
    /// gives them).
    pub odds: Option<String>,
    /// A rated seek.
    pub rated: bool,
    /// The rating pool of the seek's clock (null without a clock).
    pub perf: Option<&'static str>,
    /// The poster's rating in that pool (null for a guest or without a
    /// pool).
    pub rating: Option<i64>,
    /// That rating is provisional.
    pub provisional: bool,
    /// The lowest rating that may accept (null: no lower bound).
    pub rating_min: Option<i64>,
    /// The highest rating that may accept (null: no upper bound).
    pub rating_max: Option<i64>,
}

struct Watcher {
    owner: String,
    tx: mpsc::Sender<Out>,
}

/// Seeks and watchers.
#[derive(Default)]
pub struct Lobby {
    seeks: Mutex<Vec<Seek>>,
    watchers: Mutex<Vec<Watcher>>,
    /// The last list of games in progress that was pushed.
    live: Mutex<Option<Out>>,
}

/// How the lobby reaches its watchers.
pub trait Fanout {
    /// A new watcher (`owner` is its identity key).
    fn watch(&self, owner: String, tx: mpsc::Sender<Out>);
    /// Whether anybody is watching.
    fn watching(&self) -> bool;
    /// Tells every watcher.
    fn broadcast(&self, msg: Out);
    /// Tells one identity's watchers privately.
    fn tell_owner(&self, owner: &str, msg: Out);
}

impl Lobby {
    /// All open seeks.
    pub fn list(&self) -> Vec<Seek> {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn list_json(&self) -> Out {
        Arc::from(json!({"t": "seeks", "seeks": self.list()}).to_string())
    }

    /// Adds a seek (one per owner: a new one replaces the old) and tells
    /// everybody.
    pub fn add(&self, seek: Seek) {
        {
            let mut s = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            s.retain(|x| x.owner != seek.owner);
            s.push(seek);
        }
        self.publish();
    }

    /// Takes a seek away (accepted or withdrawn).
    pub fn take(&self, id: &str) -> Option<Seek> {
        let found = {
            let mut s = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            let i = s.iter().position(|x| x.id == id)?;
            Some(s.remove(i))
        };
        self.publish();
        found
    }

    /// The list of games in progress changed: tell everybody, unless it is
    /// the same as the last one told.
    pub fn set_live(&self, msg: Out) {
        {
            let mut last = self.live.lock().unwrap_or_else(|e| e.into_inner());
            if last.as_deref() == Some(&*msg) {
                return;
            }
            *last = Some(Arc::clone(&msg));
        }
        self.broadcast(msg);
    }

    fn publish(&self) {
        self.broadcast(self.list_json());
    }
}

impl Fanout for Lobby {
    /// A watcher subscribes; it gets the seeks and the games in progress at
    /// once.
    fn watch(&self, owner: String, tx: mpsc::Sender<Out>) {
        let _ = tx.try_send(self.list_json());
        if let Some(live) = self.live.lock().unwrap_or_else(|e| e.into_inner()).clone() {
            let _ = tx.try_send(live);
        }
        self.watchers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Watcher { owner, tx });
    }

    fn watching(&self) -> bool {
        let mut w = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
        w.retain(|x| !x.tx.is_closed());
        let any = !w.is_empty();
        if !any {
            // Nobody saw the last list; the next watcher waits for a fresh one.
            *self.live.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
        any
    }

    fn broadcast(&self, msg: Out) {
        let mut w = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
        w.retain(|x| x.tx.try_send(Arc::clone(&msg)).is_ok());
    }

    fn tell_owner(&self, owner: &str, msg: Out) {
        let mut w = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
        w.retain(|x| x.owner != owner || x.tx.try_send(Arc::clone(&msg)).is_ok());
    }
}
