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

/// Entries idle this long (no socket) are forgotten.
const FORGET: Duration = Duration::from_secs(600);

/// The presence of every identity in this process.
#[derive(Default)]
pub struct Presence {
    map: Arc<Mutex<HashMap<String, Entry>>>,
    touches: std::sync::atomic::AtomicU64,
}

/// Forgets the entries without a socket idle for `idle` or longer.
fn forget_idle(map: &mut HashMap<String, Entry>, idle: Duration) {
    map.retain(|_, e| e.sockets > 0 || e.last.is_some_and(|t| t.elapsed() < idle));
}

impl Presence {
    /// How many identities are remembered (online or seen lately).
    pub fn len(&self) -> usize {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether nobody is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
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
        // Every guest's first request makes an entry: now and then the
        // ones idle for long are forgotten, so the map stays small.
        let n = self
            .touches
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if n % 1024 == 1023 {
            forget_idle(&mut map, FORGET);
        }
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

    #[test]
    fn idle_entries_are_forgotten_open_sockets_never() {
        let p = Presence::default();
        let _open = p.enter("u:open");
        for i in 0..2000 {
            p.touch(&format!("g:{i}"));
        }
        assert_eq!(p.len(), 2001);
        std::thread::sleep(Duration::from_millis(5));
        forget_idle(&mut p.map.lock().unwrap(), Duration::from_millis(1));
        assert_eq!(p.len(), 1, "only the open socket is left");
        assert!(p.online("u:open"));
    }
}
