//! The game's time and the network credit (see `docs/protocol.md`, "Lag"):
//! a player's measured round trip, at most the configured cap, is given
//! back on each move, and the flag waits as long before it falls.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use escaque::TimeSource;
use escaque_play::Player;

use super::{Actor, Phase};

/// The game's own time: the system's monotonic clock, minus the network
/// time credited to players (see `docs/protocol.md`, "Lag").
#[derive(Debug)]
pub struct GameTime {
    origin: Instant,
    credit: Mutex<Duration>,
    /// Time counted as passed before the task started (the turn's time
    /// under the game's previous owner).
    advanced: Mutex<Duration>,
}

impl GameTime {
    pub(super) fn new() -> GameTime {
        GameTime {
            origin: Instant::now(),
            credit: Mutex::new(Duration::ZERO),
            advanced: Mutex::new(Duration::ZERO),
        }
    }

    /// Counts `d` as passed: a running clock is charged for it.
    pub(super) fn advance(&self, d: Duration) {
        let mut a = self.advanced.lock().unwrap_or_else(|e| e.into_inner());
        *a += d;
    }

    pub(super) fn credit(&self, d: Duration) {
        let mut c = self.credit.lock().unwrap_or_else(|e| e.into_inner());
        *c += d;
    }

    /// Takes back a credit given to a move that was then not made.
    pub(super) fn uncredit(&self, d: Duration) {
        let mut c = self.credit.lock().unwrap_or_else(|e| e.into_inner());
        *c = c.saturating_sub(d);
    }
}

impl TimeSource for GameTime {
    fn now(&self) -> Duration {
        let c = *self.credit.lock().unwrap_or_else(|e| e.into_inner());
        let a = *self.advanced.lock().unwrap_or_else(|e| e.into_inner());
        (self.origin.elapsed() + a).saturating_sub(c)
    }
}
impl Actor {
    /// When the flag of the side to move falls, allowing a person's network
    /// time; `None` while no clock runs.
    pub(super) fn flag_deadline(&self) -> Option<tokio::time::Instant> {
        if self.phase != Phase::Playing {
            return None;
        }
        let r = self.game.clock()?.peek();
        let turn = r.running?;
        let allowance = match self.kinds[turn.index()] {
            Player::Human => self.rtt[turn.index()].min(self.hub.config.lag_cap),
            Player::Engine(_) => Duration::ZERO,
        };
        Some(tokio::time::Instant::now() + r.remaining(turn) + r.delay_left + allowance)
    }

    /// Gives the mover back the network time of this move: the measured
    /// round trip, at most the configured cap, plus the time the message
    /// waited in the server's own queue; never more than this turn has lasted.
    pub(super) fn credit_lag(&mut self, received: Instant, rtt: Duration) -> Duration {
        let Some(clock) = self.game.clock() else {
            return Duration::ZERO;
        };
        let r = clock.peek();
        if r.running.is_none() {
            return Duration::ZERO;
        }
        let want = rtt.min(self.hub.config.lag_cap) + received.elapsed();
        let credit = want.min(self.turn_elapsed());
        self.time.credit(credit);
        credit
    }

    /// Time the side to move has been thinking, on the game's time source.
    fn turn_elapsed(&self) -> Duration {
        self.time.now().saturating_sub(self.turn_start)
    }
}
