//! The lobby: open seeks, kept in memory (a seek is an invitation, not a game:
//! seeks do not survive a restart), the list of games in progress, and the
//! connections watching it.
//!
//! Everything the lobby tells its watchers goes through one interface,
//! [`Fanout`]: today one process holds every watcher ([`Lobby`]); a server
//! of several processes puts its shared channel behind the same trait.
//!
//! Kid mode (issue 26, `crate::classes::kid`): the list of seeks is told to
//! each watcher as its [`Viewer`] may see it. A pupil's seek carries its
//! class's members as its audience and is shown to them only; a pupil
//! watching is shown only the seeks of its circle.

use std::collections::{HashMap, HashSet};
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
    /// `standard` or `chess960`.
    pub variant: &'static str,
    /// A Chess960 seek's starting position (0–959); `None` for one drawn
    /// at random when the seek is accepted (and for standard chess).
    pub position: Option<u16>,
    /// A pupil's seek: its class (the game will belong to it). Not shown.
    #[serde(skip)]
    pub class_id: Option<String>,
    /// A pupil's seek: the identity keys it is shown to (its class's
    /// teachers and pupils when it was posted); `None`: shown to everybody
    /// but pupils outside the poster's circle. Not shown.
    #[serde(skip)]
    pub audience: Option<Arc<HashSet<String>>>,
}

impl Seek {
    /// Whether `viewer` is shown this seek (and may try to accept it).
    pub fn visible_to(&self, viewer: &Viewer) -> bool {
        if self.owner == viewer.key {
            return true;
        }
        if let Some(audience) = &self.audience {
            return audience.contains(&viewer.key);
        }
        match &viewer.circle {
            Some(circle) => circle.contains(&self.owner),
            None => true,
        }
    }
}

/// Who watches the lobby, as far as what it may see goes.
#[derive(Clone, Debug)]
pub struct Viewer {
    /// The identity key (`u:ID`, `g:ID`).
    pub key: String,
    /// A pupil's circle (its class's teachers' and pupils' keys): it sees
    /// the seeks of those only. `None` for anybody who is not a pupil.
    pub circle: Option<Arc<HashSet<String>>>,
}

impl Viewer {
    /// Somebody who is not a pupil (sees every seek but pupils').
    pub fn open(key: impl Into<String>) -> Viewer {
        Viewer {
            key: key.into(),
            circle: None,
        }
    }
}

struct Watcher {
    viewer: Viewer,
    tx: mpsc::Sender<Out>,
}

/// Seeks and watchers.
#[derive(Default)]
pub struct Lobby {
    seeks: Mutex<Vec<Seek>>,
    watchers: Mutex<Vec<Watcher>>,
    /// The last list of games in progress that was pushed.
    live: Mutex<Option<Out>>,
    /// Whether an identity key is a pupil's, as read from the store (an
    /// account is made managed or not and stays so): the list of games in
    /// progress asks for every seat every two seconds.
    pupils: Mutex<HashMap<String, bool>>,
}

/// How the lobby reaches its watchers.
pub trait Fanout {
    /// A new watcher (its identity key and what it may see).
    fn watch(&self, viewer: Viewer, tx: mpsc::Sender<Out>);
    /// Whether anybody is watching.
    fn watching(&self) -> bool;
    /// Tells every watcher.
    fn broadcast(&self, msg: Out);
    /// Tells one identity's watchers privately.
    fn tell_owner(&self, owner: &str, msg: Out);
}

impl Lobby {
    /// All open seeks (pupils' included: see [`Lobby::list_for`]).
    pub fn list(&self) -> Vec<Seek> {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The open seeks `viewer` is shown.
    pub fn list_for(&self, viewer: &Viewer) -> Vec<Seek> {
        let mut v = self.list();
        v.retain(|s| s.visible_to(viewer));
        v
    }

    fn seeks_json(seeks: &[&Seek]) -> Out {
        Arc::from(json!({"t": "seeks", "seeks": seeks}).to_string())
    }

    fn list_json_for(&self, viewer: &Viewer) -> Out {
        let all = self.list();
        Self::seeks_json(
            &all.iter()
                .filter(|s| s.visible_to(viewer))
                .collect::<Vec<_>>(),
        )
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

    /// Whether identity key `key` is known to be a pupil's (`None`: not
    /// read yet).
    pub fn known_pupil(&self, key: &str) -> Option<bool> {
        let m = self.pupils.lock().unwrap_or_else(|e| e.into_inner());
        m.get(key).copied()
    }

    /// Remembers whether identity key `key` is a pupil's.
    pub fn remember_pupil(&self, key: &str, pupil: bool) {
        let mut m = self.pupils.lock().unwrap_or_else(|e| e.into_inner());
        m.insert(key.to_string(), pupil);
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

    /// Tells every watcher the seeks it is shown. Watchers who are not
    /// pupils and are in no pupil's audience are all shown the same list,
    /// written once.
    fn publish(&self) {
        let all = self.list();
        let public: Vec<&Seek> = all.iter().filter(|s| s.audience.is_none()).collect();
        let mut shared: Option<Out> = None;
        let mut special: HashMap<String, Out> = HashMap::new();
        let mut w = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
        w.retain(|x| {
            let v = &x.viewer;
            let ordinary = v.circle.is_none()
                && !all
                    .iter()
                    .any(|s| s.audience.as_ref().is_some_and(|a| a.contains(&v.key)));
            let msg = if ordinary {
                Arc::clone(shared.get_or_insert_with(|| Self::seeks_json(&public)))
            } else {
                Arc::clone(special.entry(v.key.clone()).or_insert_with(|| {
                    Self::seeks_json(&all.iter().filter(|s| s.visible_to(v)).collect::<Vec<_>>())
                }))
            };
            x.tx.try_send(msg).is_ok()
        });
    }
}

impl Fanout for Lobby {
    /// A watcher subscribes; it gets the seeks and the games in progress at
    /// once.
    fn watch(&self, viewer: Viewer, tx: mpsc::Sender<Out>) {
        let _ = tx.try_send(self.list_json_for(&viewer));
        if let Some(live) = self.live.lock().unwrap_or_else(|e| e.into_inner()).clone() {
            let _ = tx.try_send(live);
        }
        self.watchers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Watcher { viewer, tx });
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
        w.retain(|x| x.viewer.key != owner || x.tx.try_send(Arc::clone(&msg)).is_ok());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(id: &str, owner: &str, audience: Option<&[&str]>) -> Seek {
        Seek {
            id: id.into(),
            owner: owner.into(),
            name: owner.into(),
            time_control: None,
            color: "random".into(),
            rules: "fide2023".into(),
            odds: None,
            rated: false,
            perf: None,
            rating: None,
            provisional: false,
            rating_min: None,
            rating_max: None,
            variant: "standard",
            position: None,
            class_id: audience.map(|_| "clase".into()),
            audience: audience.map(|a| Arc::new(a.iter().map(|k| k.to_string()).collect())),
        }
    }

    fn pupil(key: &str, circle: &[&str]) -> Viewer {
        Viewer {
            key: key.into(),
            circle: Some(Arc::new(circle.iter().map(|k| k.to_string()).collect())),
        }
    }

    /// The ids in the last list of seeks a watcher was told.
    fn last_ids(rx: &mut mpsc::Receiver<Out>) -> Vec<String> {
        let mut last = None;
        while let Ok(m) = rx.try_recv() {
            last = Some(m);
        }
        let v: serde_json::Value = serde_json::from_str(&last.expect("a message")).expect("json");
        v["seeks"]
            .as_array()
            .expect("seeks")
            .iter()
            .map(|s| s["id"].as_str().unwrap_or("").to_string())
            .collect()
    }

    #[test]
    fn each_watcher_is_told_the_seeks_it_may_see() {
        let class = ["u:teacher", "u:kid1", "u:kid2"];
        let lobby = Lobby::default();
        let mut rxs = Vec::new();
        for v in [
            Viewer::open("g:guest"),
            Viewer::open("u:teacher"),
            pupil("u:kid2", &class),
            pupil("u:other-kid", &["u:other-teacher", "u:other-kid"]),
        ] {
            let (tx, rx) = mpsc::channel(16);
            lobby.watch(v, tx);
            rxs.push(rx);
        }
        lobby.add(seek("public", "u:stranger", None));
        lobby.add(seek("teachers", "u:teacher", None));
        lobby.add(seek("kids", "u:kid1", Some(&class)));
        let told: Vec<Vec<String>> = rxs.iter_mut().map(last_ids).collect();
        assert_eq!(told[0], ["public", "teachers"], "a guest");
        assert_eq!(told[1], ["public", "teachers", "kids"], "the teacher");
        assert_eq!(told[2], ["teachers", "kids"], "a classmate");
        assert!(
            told[3].is_empty(),
            "a pupil of another class: {:?}",
            told[3]
        );
        // The seek is never serialised with its class or audience.
        let json = serde_json::to_string(&lobby.list()).expect("json");
        assert!(
            !json.contains("clase") && !json.contains("u:kid2"),
            "{json}"
        );
        // A new watcher is told the same on connect.
        let (tx, mut rx) = mpsc::channel(16);
        lobby.watch(pupil("u:kid1", &class), tx);
        assert_eq!(last_ids(&mut rx), ["teachers", "kids"]);
    }
}
