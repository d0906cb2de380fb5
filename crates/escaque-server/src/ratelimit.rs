//! Token buckets: per connection (messages) and per address (game creation,
//! logins).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// One bucket: `burst` tokens, refilled at `per_sec`.
#[derive(Debug)]
pub struct Bucket {
    tokens: f64,
    burst: f64,
    per_sec: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(burst: f64, per_sec: f64) -> Bucket {
        Bucket {
            tokens: burst,
            burst,
            per_sec,
            last: Instant::now(),
        }
    }

    /// Whether a token is there now (none is taken).
    pub fn has(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.per_sec).min(self.burst);
        self.tokens >= 1.0
    }

    /// Takes a token if there is one.
    pub fn take(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.per_sec).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A bucket per address.
#[derive(Debug)]
pub struct PerKey {
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
    burst: f64,
    per_sec: f64,
}

impl PerKey {
    /// Buckets of `burst`, refilled at `per_sec`.
    pub fn new(burst: f64, per_sec: f64) -> PerKey {
        PerKey {
            buckets: Mutex::new(HashMap::new()),
            burst,
            per_sec,
        }
    }

    /// Takes a token for `ip`.
    pub fn take(&self, ip: IpAddr) -> bool {
        let mut map = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > 100_000 {
            // Forget everybody rather than grow without bound.
            map.clear();
        }
        map.entry(ip)
            .or_insert_with(|| Bucket::new(self.burst, self.per_sec))
            .take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusal() {
        let mut b = Bucket::new(3.0, 0.0);
        assert!(b.take() && b.take() && b.take());
        assert!(!b.take());
    }

    #[test]
    fn looking_takes_nothing() {
        let mut b = Bucket::new(1.0, 0.0);
        assert!(b.has() && b.has());
        assert!(b.take());
        assert!(!b.has());
    }
}
