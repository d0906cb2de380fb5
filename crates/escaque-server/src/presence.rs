//! Who is online now: the identities with a socket open (lobby, game seat,
//! tournament, class) or a request in the last [`RECENT`].
//!
//! A class page shows its teacher which pupils are here. Everything goes
//! through [`PresenceView`], as the lobby's fan-out does through its
//! trait: today one process knows every connection ([`Presence`]); a
//! server of several processes puts its shared view behind the same trait.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A request this recent counts as online.
pub const RECENT: Duration = Duration::from_secs(60);

#[derive(Default)]
struct Entry {
    sockets: usize,
    last: Option<Instant>,
}

/// The presence of every identity in this process.
#[derive(Default)]
pub struct Presence {
    map: Arc<Mutex<HashMap<String, Entry>>>,
}

/// An open socket of one identity; dropping it closes it.
pub struct Present {
    key: String,
    map: Arc<Mutex<HashMap<String, Entry>>>,
}

impl Drop for Present {
    fn drop(&mut self) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = map.get_mut(&self.key) {
            e.sockets = e.sockets.saturating_sub(1);
            e.last = Some(Instant::now());
        }
    }
}

/// How the server asks who is online.
pub trait PresenceView {
    /// `key` made a request now.
    fn touch(&self, key: &str);
    /// `key` opened a socket, open until the guard is dropped.
    fn enter(&self, key: &str) -> Present;
    /// Whether `key` is online now.
    fn online(&self, key: &str) -> bool;
    /// When `key` was last seen, in ms ago (`Some(0)` while a socket is
    /// open; `None` if never seen since the process started).
    fn seen_ms_ago(&self, key: &str) -> Option<u64>;
}

impl PresenceView for Presence {
    fn touch(&self, key: &str) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(key.to_string()).or_default().last = Some(Instant::now());
    }

    fn enter(&self, key: &str) -> Present {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let e = map.entry(key.to_string()).or_default();
        e.sockets += 1;
        e.last = Some(Instant::now());
        Present {
            key: key.to_string(),
            map: Arc::clone(&self.map),
        }
    }

    fn online(&self, key: &str) -> bool {
        self.seen_ms_ago(key)
            .is_some_and(|ms| ms <= RECENT.as_millis() as u64)
    }

    fn seen_ms_ago(&self, key: &str) -> Option<u64> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let e = map.get(key)?;
        if e.sockets > 0 {
            return Some(0);
        }
        e.last.map(|t| t.elapsed().as_millis() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_socket_keeps_one_online_until_dropped() {
        let p = Presence::default();
        assert!(!p.online("u:a"));
        let s = p.enter("u:a");
        assert_eq!(p.seen_ms_ago("u:a"), Some(0));
        drop(s);
        assert!(p.online("u:a"), "just left: seen recently");
        p.touch("u:b");
        assert!(p.online("u:b"));
        assert!(!p.online("u:c"));
    }
}
