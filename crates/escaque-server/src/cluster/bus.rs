//! The fan-out between processes: a change one process makes that watchers
//! on other processes must hear of is a [`Signal`] published on the
//! [`Bus`]; every process (the publisher included) receives it and tells its
//! own watchers, re-reading the database where the signal only names what
//! changed.

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

/// A change, as small as can be (PostgreSQL's NOTIFY carries < 8000 bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
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
