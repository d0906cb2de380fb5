//! The lobby: open seeks, the list of games in progress, and the
//! connections watching it.
//!
//! The seeks are kept in the database (`seeks`, shared by every process of
//! one database; a seek is an invitation, not a game: the seeks of a
//! process go when it starts again or is seen gone, see [`sweep_loop`]).
//! Accepting one takes it away with `DELETE … RETURNING` ([`take`]): of two
//! processes accepting at once, one gets it. Every change is a
//! [`Signal::Seeks`] on the bus (`crate::cluster::bus`); each process then
//! reads the seeks again ([`seeks_changed`]) and tells its own watchers.
//!
//! Everything the lobby tells its watchers goes through one interface,
//! [`Fanout`] ([`Lobby`] holds this process's watchers; a private message,
//! [`Fanout::tell_owner`], goes through the bus to the watchers of every
//! process).
//!
//! Kid mode (issue 26, `crate::classes::kid`): the list of seeks is told to
//! each watcher as its [`Viewer`] may see it. A pupil's seek carries its
//! class's members as its audience and is shown to them only; a pupil
//! watching is shown only the seeks of its circle.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::bus::{Bus, Signal};
use crate::proto::Out;
use crate::store::seeks::SeekRow;
use crate::store::{self, now_ms, StoreError};
use crate::Hub;

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

/// A seek as stored (`seeks.seek`): every field, the private ones too.
#[derive(Serialize, Deserialize)]
struct Stored {
    id: String,
    owner: String,
    name: String,
    time_control: Option<String>,
    color: String,
    rules: String,
    odds: Option<String>,
    rated: bool,
    perf: Option<String>,
    rating: Option<i64>,
    provisional: bool,
    rating_min: Option<i64>,
    rating_max: Option<i64>,
    variant: String,
    position: Option<u16>,
    class_id: Option<String>,
    audience: Option<Vec<String>>,
}

impl Seek {
    /// The seek as stored (JSON).
    fn stored(&self) -> String {
        let mut audience: Option<Vec<String>> =
            self.audience.as_ref().map(|a| a.iter().cloned().collect());
        if let Some(a) = &mut audience {
            a.sort();
        }
        let s = Stored {
            id: self.id.clone(),
            owner: self.owner.clone(),
            name: self.name.clone(),
            time_control: self.time_control.clone(),
            color: self.color.clone(),
            rules: self.rules.clone(),
            odds: self.odds.clone(),
            rated: self.rated,
            perf: self.perf.map(str::to_string),
            rating: self.rating,
            provisional: self.provisional,
            rating_min: self.rating_min,
            rating_max: self.rating_max,
            variant: self.variant.to_string(),
            position: self.position,
            class_id: self.class_id.clone(),
            audience,
        };
        serde_json::to_string(&s).unwrap_or_default()
    }

    /// A stored seek read back; `None` (logged) when it does not read.
    fn from_row(row: &SeekRow) -> Option<Seek> {
        let s: Stored = match serde_json::from_str(&row.seek) {
            Ok(s) => s,
            Err(e) => {
                crate::store::log_unreadable(
                    &format!("propuesta / seek {}", row.id),
                    "seeks.seek",
                    e,
                );
                return None;
            }
        };
        Some(Seek {
            id: row.id.clone(),
            owner: row.owner.clone(),
            name: s.name,
            time_control: s.time_control,
            color: s.color,
            rules: s.rules,
            odds: s.odds,
            rated: s.rated,
            perf: s
                .perf
                .and_then(|p| crate::rating::PERFS.iter().copied().find(|x| *x == p)),
            rating: s.rating,
            provisional: s.provisional,
            rating_min: s.rating_min,
            rating_max: s.rating_max,
            variant: if s.variant == "chess960" {
                "chess960"
            } else {
                "standard"
            },
            position: s.position,
            class_id: s.class_id,
            audience: s.audience.map(|a| Arc::new(a.into_iter().collect())),
        })
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

/// What a stored seek was read as (its id and its JSON).
type ReadKey = (String, String);

/// This process's lobby: the seeks as last read, and the watchers.
pub struct Lobby {
    bus: Arc<dyn Bus>,
    /// The seeks as last read from the store, and what was read (to tell
    /// a change from a signal that changed nothing here).
    seeks: Mutex<(Vec<Seek>, Vec<ReadKey>)>,
    /// One re-read at a time: a later read always shows a later state.
    reading: tokio::sync::Mutex<()>,
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
    /// Whether anybody is watching (in this process).
    fn watching(&self) -> bool;
    /// Tells every watcher of this process.
    fn broadcast(&self, msg: Out);
    /// Tells one identity's watchers privately, in every process.
    fn tell_owner(&self, owner: &str, msg: Out);
}

impl Lobby {
    /// A lobby whose private messages go through `bus`.
    pub fn new(bus: Arc<dyn Bus>) -> Lobby {
        Lobby {
            bus,
            seeks: Mutex::new((Vec::new(), Vec::new())),
            reading: tokio::sync::Mutex::new(()),
            watchers: Mutex::new(Vec::new()),
            live: Mutex::new(None),
            pupils: Mutex::new(HashMap::new()),
        }
    }

    /// The open seeks as last read (pupils' included).
    fn cached(&self) -> Vec<Seek> {
        self.seeks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .clone()
    }

    fn seeks_json(seeks: &[&Seek]) -> Out {
        Arc::from(
            serde_json::to_string(&crate::proto::lobby::SeeksMsg::new(seeks)).unwrap_or_default(),
        )
    }

    fn list_json_for(&self, viewer: &Viewer) -> Out {
        let all = self.cached();
        Self::seeks_json(
            &all.iter()
                .filter(|s| s.visible_to(viewer))
                .collect::<Vec<_>>(),
        )
    }

    /// Keeps the seeks just read; true when they differ from the last ones
    /// (or `force`), and then every watcher is told.
    fn replace(&self, rows: &[SeekRow], force: bool) -> bool {
        let key: Vec<ReadKey> = rows
            .iter()
            .map(|r| (r.id.clone(), r.seek.clone()))
            .collect();
        {
            let mut s = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            if s.1 == key && !force {
                return false;
            }
            *s = (rows.iter().filter_map(Seek::from_row).collect(), key);
        }
        self.publish();
        true
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

    /// Tells this process's watchers of `owner` privately.
    fn deliver(&self, owner: &str, msg: Out) {
        let mut w = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
        w.retain(|x| x.viewer.key != owner || x.tx.try_send(Arc::clone(&msg)).is_ok());
    }

    /// Tells every watcher the seeks it is shown. Watchers who are not
    /// pupils and are in no pupil's audience are all shown the same list,
    /// written once.
    fn publish(&self) {
        let all = self.cached();
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
        // Under the watchers' lock: a re-read that lands meanwhile tells
        // this watcher too.
        let mut w = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
        let _ = tx.try_send(self.list_json_for(&viewer));
        if let Some(live) = self.live.lock().unwrap_or_else(|e| e.into_inner()).clone() {
            let _ = tx.try_send(live);
        }
        w.push(Watcher { viewer, tx });
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
        self.bus.publish(Signal::Owner {
            key: owner.to_string(),
            msg: msg.to_string(),
        });
    }
}

// ---------------------------------------------------------------- the shared seeks

/// Every open seek (pupils' included: see [`list_for`]), as stored now.
pub async fn list(hub: &Hub) -> Result<Vec<Seek>, StoreError> {
    let rows = hub.store.seeks().await?;
    Ok(rows.iter().filter_map(Seek::from_row).collect())
}

/// The open seeks `viewer` is shown, as stored now.
pub async fn list_for(hub: &Hub, viewer: &Viewer) -> Result<Vec<Seek>, StoreError> {
    let mut v = list(hub).await?;
    v.retain(|s| s.visible_to(viewer));
    Ok(v)
}

/// After a change to the seeks: the signal (unless it was sent in the
/// change's transaction), and this process's watchers told at once.
async fn after_change(hub: &Hub, notified: bool) {
    if !notified {
        hub.bus.publish(Signal::Seeks);
    }
    seeks_changed(hub, false).await;
}

/// Posts a seek (one per identity: a new one replaces the old) in this
/// process's name, and tells everybody.
pub async fn post(hub: &Hub, seek: &Seek) -> Result<(), StoreError> {
    let row = SeekRow {
        id: seek.id.clone(),
        owner: seek.owner.clone(),
        node: hub.node.name.to_string(),
        seek: seek.stored(),
        created_ms: now_ms(),
    };
    let payload = hub.bus.payload_in_commit(&Signal::Seeks);
    hub.store.post_seek(&row, payload.as_deref()).await?;
    after_change(hub, payload.is_some()).await;
    Ok(())
}

/// Withdraws `owner`'s seek `id`; false when there is none.
pub async fn withdraw(hub: &Hub, id: &str, owner: &str) -> Result<bool, StoreError> {
    let payload = hub.bus.payload_in_commit(&Signal::Seeks);
    let gone = hub
        .store
        .withdraw_seek(id, owner, payload.as_deref())
        .await?;
    if gone {
        after_change(hub, payload.is_some()).await;
    }
    Ok(gone)
}

/// Takes seek `id` away to accept it; `None` when it is gone (withdrawn,
/// or another process took it first).
pub async fn take(hub: &Hub, id: &str) -> Result<Option<Seek>, StoreError> {
    let payload = hub.bus.payload_in_commit(&Signal::Seeks);
    let Some(row) = hub.store.take_seek(id, payload.as_deref()).await? else {
        return Ok(None);
    };
    after_change(hub, payload.is_some()).await;
    Ok(Seek::from_row(&row))
}

/// The seeks changed (a signal, or this process changed them): they are
/// read again and, if they differ from the last read (or `force`), every
/// watcher of this process is told.
pub async fn seeks_changed(hub: &Hub, force: bool) {
    let _one = hub.lobby.reading.lock().await;
    match hub.store.seeks().await {
        Ok(rows) => {
            hub.lobby.replace(&rows, force);
        }
        Err(e) => store::log_failure_in("lobby", &e),
    }
}

/// Signals may have been lost: the seeks are read again and told to every
/// watcher.
pub async fn resync(hub: &Hub) {
    seeks_changed(hub, true).await;
}

/// The lobby's ear on the bus: a seek posted or withdrawn anywhere, a
/// private message to an owner connected here, a resync.
pub struct BusSubscriber;

impl crate::bus::Subscriber for BusSubscriber {
    fn hear<'a>(
        &'a self,
        hub: &'a Arc<Hub>,
        signal: &'a Signal,
    ) -> futures_util::future::BoxFuture<'a, ()> {
        Box::pin(async move {
            match signal {
                Signal::Seeks => seeks_changed(hub, false).await,
                Signal::Owner { key, msg } => told(hub, key, Arc::from(msg.as_str())),
                _ => {}
            }
        })
    }

    fn resync<'a>(&'a self, hub: &'a Arc<Hub>) -> futures_util::future::BoxFuture<'a, ()> {
        Box::pin(resync(hub))
    }
}

/// A private message for `owner`'s lobby watchers arrived on the bus.
pub fn told(hub: &Hub, owner: &str, msg: Out) {
    hub.lobby.deliver(owner, msg);
}

/// At start: the seeks this process held before (their posters'
/// connections are gone) are removed, and the seeks read.
pub async fn start(hub: &Hub) {
    let payload = hub.bus.payload_in_commit(&Signal::Seeks);
    match hub
        .store
        .remove_node_seeks(&hub.node.name, payload.as_deref())
        .await
    {
        Ok(n) if n > 0 && payload.is_none() => hub.bus.publish(Signal::Seeks),
        Ok(_) => {}
        Err(e) => store::log_failure_in("lobby", &e),
    }
    seeks_changed(hub, true).await;
}

/// How long spilled signals are kept.
const SPILL_KEPT: Duration = Duration::from_secs(300);

/// While the hub lives, every lease's length: the seeks of processes seen
/// gone (stopped, or no heartbeat for two leases' length) are removed, and
/// old spilled signals forgotten.
pub async fn sweep_loop(hub: Weak<Hub>) {
    let every = match hub.upgrade() {
        Some(h) => h.node.lease,
        None => return,
    };
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        let Some(hub) = hub.upgrade() else { return };
        // Two leases without a heartbeat (renewed every third of one): a
        // process merely slow keeps its seeks.
        let stale = now_ms() - 2 * hub.node.lease.as_millis() as i64;
        let payload = hub.bus.payload_in_commit(&Signal::Seeks);
        match hub
            .store
            .remove_dead_seeks(&hub.node.name, stale, payload.as_deref())
            .await
        {
            Ok(n) if n > 0 => after_change(&hub, payload.is_some()).await,
            Ok(_) => {}
            Err(e) => store::log_failure_in("lobby", &e),
        }
        let old = now_ms() - SPILL_KEPT.as_millis() as i64;
        if let Err(e) = hub.store.sweep_spill(old).await {
            store::log_failure_in("bus", &e);
        }
    }
}

/// What the lobby refuses (issue 53): seeks, challenges and their seats;
/// `crate::http::error` gives each its HTTP status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `no_such_seek`: the seek was taken or withdrawn.
    SeekGone,
    /// `no_such_seek`: the asker has no seek with that id (withdrawing).
    NotYourSeek,
    /// `seat_taken`: the challenge's free seat is taken.
    SeatTaken,
    /// `own_game`: one person may not hold both seats of a game.
    OwnGame,
}

impl Refusal {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::SeekGone | Refusal::NotYourSeek => "no_such_seek",
            Refusal::SeatTaken => "seat_taken",
            Refusal::OwnGame => "own_game",
        }
    }

    /// The Spanish and English text.
    pub fn text(&self) -> (&'static str, &'static str) {
        match self {
            Refusal::SeekGone => ("esa propuesta ya no está", "that seek is gone"),
            Refusal::NotYourSeek => (
                "no tienes ninguna propuesta con ese número",
                "you have no seek with that id",
            ),
            Refusal::SeatTaken => ("ese puesto ya está ocupado", "that seat is already taken"),
            Refusal::OwnGame => (
                "no puedes jugar contra ti: la invitación es tuya",
                "you cannot play yourself: the invitation is yours",
            ),
        }
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

    fn row(s: &Seek) -> SeekRow {
        SeekRow {
            id: s.id.clone(),
            owner: s.owner.clone(),
            node: "a".into(),
            seek: s.stored(),
            created_ms: 0,
        }
    }

    #[test]
    fn a_seek_reads_back_as_stored() {
        let mut s = seek("x", "u:kid1", Some(&["u:kid1", "u:teacher"]));
        s.perf = Some("blitz");
        s.variant = "chess960";
        s.position = Some(518);
        let back = Seek::from_row(&row(&s)).expect("reads");
        assert_eq!(back.stored(), s.stored());
        assert_eq!(back.perf, Some("blitz"));
        assert!(back.audience.expect("audience").contains("u:teacher"));
        let bad = SeekRow {
            seek: "{".into(),
            ..row(&s)
        };
        assert!(Seek::from_row(&bad).is_none());
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
        let lobby = Lobby::new(Arc::new(crate::bus::LocalBus::default()));
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
        let mut rows = Vec::new();
        for s in [
            seek("public", "u:stranger", None),
            seek("teachers", "u:teacher", None),
            seek("kids", "u:kid1", Some(&class)),
        ] {
            rows.push(row(&s));
            assert!(lobby.replace(&rows, false));
        }
        assert!(!lobby.replace(&rows, false), "the same seeks: nobody told");
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
        let json = serde_json::to_string(&lobby.cached()).expect("json");
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
