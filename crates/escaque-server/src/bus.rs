//! The fan-out between processes: a change one process makes that watchers
//! on other processes must hear of is a [`Signal`] published on the
//! [`Bus`]; every process (the publisher included) receives it and tells its
//! own watchers, re-reading the database where the signal only names what
//! changed.
//!
//! * [`LocalBus`]: one process (SQLite): a channel in memory.
//! * [`PgBus`]: PostgreSQL's `NOTIFY escaque, '<signal as JSON>'`, heard by
//!   a listening connection of its own in every process
//!   (`application_name` `escaque-bus-{node}`). A notification is never
//!   replayed: when that connection is cut, the process connects again
//!   (waiting longer each time it fails) and its subscribers get
//!   [`Delivery::Resync`]: they re-read everything they show.
//!   A signal too big for a notification (PostgreSQL takes < 8000 bytes) is
//!   kept in the table `bus_spill` and the notification names its row
//!   ([`Signal::Spill`]).
//!
//! [`run`] is each process's receiving end: it hands each delivery to its
//! [`Subscriber`]s (the lobby and the tournaments subscribe; the bus
//! imports neither).

use std::str::FromStr;
use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};
use tokio::sync::{broadcast, mpsc};

use crate::store::{self, Store, StoreError};
use crate::Hub;

/// The channel every process listens on (kept with storage, which signals
/// on it too).
pub use crate::store::cluster::CHANNEL;

/// The longest payload sent as a notification (PostgreSQL refuses 8000
/// bytes and more); a longer signal is spilled.
pub const MAX_PAYLOAD: usize = 7900;

/// A change, as small as can be (PostgreSQL's NOTIFY carries < 8000 bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case", deny_unknown_fields)]
pub enum Signal {
    /// The open seeks changed: re-read them.
    Seeks,
    /// A private message for one identity's lobby watchers.
    Owner {
        /// The identity key (`u:ID`, `g:ID`).
        key: String,
        /// The message (JSON text).
        msg: String,
    },
    /// A tournament changed: its watchers are told its new view (each
    /// process loads it and renders it for its own watchers).
    Tournament {
        /// The tournament's id.
        id: String,
    },
    /// One message for every watcher of a tournament (a countdown).
    TournamentAll {
        /// The tournament's id.
        id: String,
        /// The message (JSON text).
        msg: String,
    },
    /// A private message for one identity's watchers of a tournament.
    TournamentOwner {
        /// The tournament's id.
        id: String,
        /// The identity key.
        key: String,
        /// The message (JSON text).
        msg: String,
    },
    /// A signal too big for a notification, kept in `bus_spill` under this
    /// id.
    Spill {
        /// The row's id.
        id: String,
    },
}

/// A notification's payload that is no signal (logged and ignored).
#[derive(Debug, thiserror::Error)]
pub enum BadSignal {
    /// Not UTF-8.
    #[error("no es UTF-8 / not UTF-8")]
    NotUtf8,
    /// Longer than any signal sent.
    #[error("demasiado largo / too long: {0} bytes")]
    TooLong(usize),
    /// Not a signal's JSON.
    #[error("no es una señal / not a signal: {0}")]
    Json(#[from] serde_json::Error),
}

impl Signal {
    /// The signal as a payload (JSON).
    pub fn encode(&self) -> String {
        // A derived Serialize of strings and unit variants cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The signal as a notification's payload, when it fits in one.
    pub fn payload(&self) -> Option<String> {
        Some(self.encode()).filter(|p| p.len() <= MAX_PAYLOAD)
    }

    /// Reads a payload (anything may arrive on the channel: a payload
    /// that is not a signal is refused, never a panic).
    pub fn decode(payload: &[u8]) -> Result<Signal, BadSignal> {
        if payload.len() > MAX_PAYLOAD {
            return Err(BadSignal::TooLong(payload.len()));
        }
        let text = std::str::from_utf8(payload).map_err(|_| BadSignal::NotUtf8)?;
        Ok(serde_json::from_str(text)?)
    }
}

/// What a process's subscription receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// A signal, in the order published by its publisher.
    Signal(Signal),
    /// Signals may have been lost (the listening connection was cut and is
    /// back): re-read everything watched.
    Resync,
}

/// How processes tell each other.
pub trait Bus: Send + Sync {
    /// Tells every process (this one included).
    fn publish(&self, signal: Signal);
    /// What this process receives from now on.
    fn subscribe(&self) -> broadcast::Receiver<Delivery>;
    /// The payload to notify inside the transaction that makes the change
    /// (so that it is delivered if and only if the change commits), when
    /// this bus is the database's own notifications and `signal` fits in
    /// one. `None`: the caller calls [`Bus::publish`] after the commit.
    fn payload_in_commit(&self, signal: &Signal) -> Option<String> {
        let _ = signal;
        None
    }
}

/// The bus of one process alone (SQLite).
pub struct LocalBus {
    tx: broadcast::Sender<Delivery>,
}

impl Default for LocalBus {
    fn default() -> LocalBus {
        LocalBus {
            tx: broadcast::channel(1024).0,
        }
    }
}

impl Bus for LocalBus {
    fn publish(&self, signal: Signal) {
        let _ = self.tx.send(Delivery::Signal(signal));
    }

    fn subscribe(&self) -> broadcast::Receiver<Delivery> {
        self.tx.subscribe()
    }
}

/// The bus of the processes of one PostgreSQL database: `NOTIFY escaque`.
pub struct PgBus {
    tx: broadcast::Sender<Delivery>,
    out: mpsc::UnboundedSender<Signal>,
    listener: tokio::task::JoinHandle<()>,
}

impl PgBus {
    /// Starts listening on `url` (a connection of its own, named
    /// `escaque-bus-{node}`) and publishing through `store`.
    pub fn start(url: &str, store: Store, node: &str) -> Result<PgBus, StoreError> {
        let opts =
            PgConnectOptions::from_str(url)?.application_name(&format!("escaque-bus-{node}"));
        let (tx, _) = broadcast::channel(1024);
        let (out, rx) = mpsc::unbounded_channel();
        tokio::spawn(publisher(store, rx));
        let listener = tokio::spawn(listen(opts, tx.clone()));
        Ok(PgBus { tx, out, listener })
    }
}

impl Drop for PgBus {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl Bus for PgBus {
    fn publish(&self, signal: Signal) {
        let _ = self.out.send(signal);
    }

    fn subscribe(&self) -> broadcast::Receiver<Delivery> {
        self.tx.subscribe()
    }

    fn payload_in_commit(&self, signal: &Signal) -> Option<String> {
        signal.payload()
    }
}

/// Sends the signals published by this process, one at a time (so that
/// they are delivered in the order published).
async fn publisher(store: Store, mut rx: mpsc::UnboundedReceiver<Signal>) {
    while let Some(signal) = rx.recv().await {
        let payload = match signal.payload() {
            Some(p) => p,
            None => match store.spill_signal(&signal.encode()).await {
                Ok(id) => Signal::Spill { id }.encode(),
                Err(e) => {
                    store::log_failure_in("bus", &e);
                    continue;
                }
            },
        };
        if let Err(e) = store.notify(CHANNEL, &payload).await {
            // The listeners will hear nothing: they re-read when their
            // connection comes back, and at the next signal.
            store::log_failure_in("bus: NOTIFY", &e);
        }
    }
}

/// The first wait before connecting again, doubled after each failure up
/// to [`BACKOFF_MAX`].
const BACKOFF_MIN: Duration = Duration::from_millis(100);
const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// The listening connection, for as long as the bus lives: every time it is
/// (re)connected and listening, [`Delivery::Resync`]; then every
/// notification that reads as a signal.
async fn listen(opts: PgConnectOptions, tx: broadcast::Sender<Delivery>) {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .min_connections(0)
        .connect_lazy_with(opts);
    let mut backoff = BACKOFF_MIN;
    loop {
        match PgListener::connect_with(&pool).await {
            Ok(mut l) => match l.listen(CHANNEL).await {
                Ok(()) => {
                    backoff = BACKOFF_MIN;
                    let _ = tx.send(Delivery::Resync);
                    loop {
                        match l.try_recv().await {
                            Ok(Some(n)) => {
                                if let Some(s) = heard(n.payload().as_bytes()) {
                                    let _ = tx.send(Delivery::Signal(s));
                                }
                            }
                            // Cut, and listening again on a new connection:
                            // what was sent meanwhile is lost.
                            Ok(None) => {
                                eprintln!(
                                    "escaque-server: bus: escucha cortada, de nuevo a la escucha / listener cut, listening again"
                                );
                                let _ = tx.send(Delivery::Resync);
                            }
                            Err(e) => {
                                eprintln!(
                                    "escaque-server: bus: escucha cortada / listener cut: {e}"
                                );
                                break;
                            }
                        }
                    }
                }
                Err(e) => eprintln!("escaque-server: bus: LISTEN: {e}"),
            },
            Err(e) => eprintln!("escaque-server: bus: conexión / connection: {e}"),
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(BACKOFF_MAX);
    }
}

/// A notification's payload as heard: its signal, or `None` with the
/// reason logged (anything may be sent on the channel; nothing panics).
pub fn heard(payload: &[u8]) -> Option<Signal> {
    match Signal::decode(payload) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("escaque-server: bus: notificación ignorada / notification ignored: {e}");
            None
        }
    }
}

/// One who hears the bus: the lobby and the tournaments subscribe
/// (`crate::lobby::BusSubscriber`, `crate::tournament::BusSubscriber`); the
/// bus knows neither (issue 53).
pub trait Subscriber: Send + Sync {
    /// A signal, in the order published (a spilled one already read back).
    fn hear<'a>(&'a self, hub: &'a Arc<Hub>, signal: &'a Signal) -> BoxFuture<'a, ()>;
    /// Signals may have been lost: re-read everything shown.
    fn resync<'a>(&'a self, hub: &'a Arc<Hub>) -> BoxFuture<'a, ()>;
}

/// This process's receiving end, for as long as the hub lives: each
/// delivery, in order, to every subscriber. A subscriber that fell behind
/// (more than the channel holds) resyncs.
pub async fn run(
    hub: Weak<Hub>,
    mut rx: broadcast::Receiver<Delivery>,
    subscribers: Vec<Arc<dyn Subscriber>>,
) {
    loop {
        let d = match rx.recv().await {
            Ok(d) => d,
            Err(broadcast::error::RecvError::Lagged(_)) => Delivery::Resync,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Some(hub) = hub.upgrade() else { return };
        match d {
            Delivery::Signal(s) => {
                if let Some(signal) = read_back(&hub, s).await {
                    for sub in &subscribers {
                        sub.hear(&hub, &signal).await;
                    }
                }
            }
            Delivery::Resync => {
                for sub in &subscribers {
                    sub.resync(&hub).await;
                }
            }
        }
    }
}

/// The signal itself: a spilled one read back from `bus_spill` (`None`
/// when it cannot be).
async fn read_back(hub: &Arc<Hub>, signal: Signal) -> Option<Signal> {
    match signal {
        Signal::Spill { id } => match hub.store.spilled_signal(&id).await {
            Ok(Some(text)) => match Signal::decode(text.as_bytes()) {
                Ok(Signal::Spill { .. }) => {
                    store::log_unreadable(
                        &format!("bus: señal / signal {id}"),
                        "bus_spill.signal",
                        "remite a otra señal guardada / names another spilled signal",
                    );
                    None
                }
                Err(e) => {
                    store::log_unreadable(
                        &format!("bus: señal / signal {id}"),
                        "bus_spill.signal",
                        e,
                    );
                    None
                }
                Ok(s) => Some(s),
            },
            Ok(None) => {
                eprintln!("escaque-server: bus: señal {id} ya no está / signal {id} is gone");
                None
            }
            Err(e) => {
                store::log_failure_in("bus", &e);
                None
            }
        },
        s => Some(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn signals_read_back() {
        for s in [
            Signal::Seeks,
            Signal::Owner {
                key: "u:1".into(),
                msg: r#"{"t":"seek_accepted"}"#.into(),
            },
            Signal::Tournament { id: "t".into() },
            Signal::TournamentAll {
                id: "t".into(),
                msg: "{}".into(),
            },
            Signal::TournamentOwner {
                id: "t".into(),
                key: "g:2".into(),
                msg: "ñ".into(),
            },
            Signal::Spill { id: "x".into() },
        ] {
            let p = s.payload().expect("fits");
            assert_eq!(Signal::decode(p.as_bytes()).unwrap(), s);
        }
        assert_eq!(Signal::Seeks.encode(), r#"{"k":"seeks"}"#);
    }

    #[test]
    fn a_big_signal_does_not_fit() {
        let s = Signal::Owner {
            key: "u:1".into(),
            msg: "x".repeat(MAX_PAYLOAD),
        };
        assert!(s.payload().is_none());
        assert!(matches!(
            Signal::decode(s.encode().as_bytes()),
            Err(BadSignal::TooLong(_))
        ));
    }

    proptest! {
        /// Any bytes as a payload: a signal or a reason, never a panic.
        #[test]
        fn any_payload_is_a_signal_or_a_reason(bytes in proptest::collection::vec(any::<u8>(), 0..9000)) {
            match Signal::decode(&bytes) {
                Ok(s) => prop_assert!(s.payload().is_some()),
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
            let _ = heard(&bytes);
        }

        /// Any text shaped like a signal: read, or refused with a reason.
        #[test]
        fn signal_shaped_payloads(k in "(seeks|owner|tournament|tournament_all|spill|x)", key in ".{0,20}", extra in proptest::option::of(".{0,10}")) {
            let mut v = serde_json::json!({"k": k, "key": key, "id": key, "msg": key});
            if let Some(x) = extra { v[x] = serde_json::json!(1); }
            let text = v.to_string();
            let _ = Signal::decode(text.as_bytes());
        }

        /// Every signal published reads back as itself.
        #[test]
        fn owner_signals_round_trip(key in ".{0,40}", msg in ".{0,400}") {
            let s = Signal::Owner { key, msg };
            let p = s.payload().expect("small");
            prop_assert_eq!(Signal::decode(p.as_bytes()).unwrap(), s);
        }
    }
}
