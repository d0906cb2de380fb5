//! Time management: how long one search may take, the clock that counts
//! against it (which stands still while pondering), and when iterative
//! deepening stops starting new iterations.
//!
//! With a clock, `soft = (time − overhead) / movestogo(25) + ¾·inc` and
//! `hard = min(4·soft, 40 % of the time left)` (70 % on the last move before
//! a time control). A new iteration is not started after
//! `soft × stability × unclearness`; the hard limit is checked by the search
//! every 1024 nodes. `go movetime T` is exact, as UCI defines it: the search
//! runs until `T − overhead` and stops only then (or with a single legal
//! move), never earlier because its best move has settled.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use escaque::{Color, Move};

use crate::limits::Limits;

/// Time budget for one search.
#[derive(Copy, Clone, Debug)]
pub struct TimeBudget {
    /// Stop starting iterations after this (scaled by stability).
    pub soft_ms: u64,
    /// Never go past this.
    pub hard_ms: u64,
    /// `go movetime`: search until the hard limit, whatever the soft one.
    pub exact: bool,
}

impl TimeBudget {
    /// The budget for `limits` with the side `us` to move; `None` for no time limit.
    pub fn compute(limits: &Limits, us: Color, overhead: u64) -> Option<TimeBudget> {
        if limits.infinite {
            return None;
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(1);
            return Some(TimeBudget {
                soft_ms: t,
                hard_ms: t,
                exact: true,
            });
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc.unwrap_or(0)),
            Color::Black => (limits.btime, limits.binc.unwrap_or(0)),
        };
        let time = time?;
        let avail = time.saturating_sub(overhead).max(1);
        let mtg = limits.movestogo.map(|m| m.clamp(1, 50)).unwrap_or(25) as u64;
        let cap = if mtg == 1 {
            avail * 7 / 10
        } else {
            avail * 2 / 5
        };
        let base = avail / mtg + inc * 3 / 4;
        let hard = (base * 4).min(cap).max(1);
        let soft = base.min(hard).max(1);
        Some(TimeBudget {
            soft_ms: soft,
            hard_ms: hard,
            exact: false,
        })
    }
}

/// The clock of one search, shared by its threads: wall time since the start
/// (for progress reports) and the time that counts against the budget, which
/// starts when pondering ends.
pub(crate) struct TimeManager<'a> {
    start: Instant,
    ponder: Option<&'a AtomicBool>,
    /// Milliseconds after `start` when pondering ended (u64::MAX while pondering).
    clock_from: AtomicU64,
    budget: Option<TimeBudget>,
}

impl<'a> TimeManager<'a> {
    /// A clock started at `start`; while `ponder` is set the budget does not run.
    pub fn new(
        start: Instant,
        ponder: Option<&'a AtomicBool>,
        budget: Option<TimeBudget>,
    ) -> TimeManager<'a> {
        let pondering = ponder.is_some_and(|p| p.load(Ordering::Relaxed));
        TimeManager {
            start,
            ponder,
            clock_from: AtomicU64::new(if pondering { u64::MAX } else { 0 }),
            budget,
        }
    }

    /// Milliseconds since the search began.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether the search is still pondering (its clock stands still).
    pub fn pondering(&self) -> bool {
        self.ponder.is_some_and(|p| p.load(Ordering::Relaxed))
    }

    /// Milliseconds that count against the budget.
    fn budget_elapsed(&self) -> u64 {
        let now = self.elapsed_ms();
        if self.pondering() {
            return 0;
        }
        let from = self.clock_from.load(Ordering::Relaxed);
        if from == u64::MAX {
            self.clock_from.store(now, Ordering::Relaxed);
            return 0;
        }
        now - from
    }

    /// Whether the hard limit has been reached: the search must stop now.
    pub fn past_hard_limit(&self) -> bool {
        self.budget
            .is_some_and(|b| self.budget_elapsed() >= b.hard_ms)
    }

    /// Whether to stop after a completed iteration rather than start another:
    /// at once with a single legal move (unless pondering), otherwise when the
    /// soft limit, scaled by how settled the search is, has passed.
    pub fn stop_after_iteration(&self, progress: &Progress, only_move: bool) -> bool {
        let Some(b) = self.budget else {
            return false;
        };
        let elapsed = self.budget_elapsed();
        if only_move && !self.pondering() {
            return true;
        }
        if b.exact {
            return elapsed >= b.hard_ms;
        }
        let stability = if progress.stable >= 6 {
            0.55
        } else if progress.stable >= 3 {
            0.8
        } else {
            1.0
        };
        let unclear = 1.0
            + progress.changes * 1.2
            + if progress.score + 30 < progress.last_score {
                0.4
            } else {
                0.0
            };
        let target = b.soft_ms as f64 * stability * unclear;
        elapsed as f64 >= target.min(b.hard_ms as f64)
    }
}

/// How settled the main thread's iterations are: how long the best move has
/// stayed the same, how often it changed lately, and whether the score fell.
#[derive(Default)]
pub(crate) struct Progress {
    best: Option<Move>,
    /// Iterations in a row with the same best move.
    stable: u32,
    /// Best-move changes, halved every iteration.
    changes: f64,
    /// Score of the latest completed iteration.
    score: i32,
    /// Score of the one before.
    last_score: i32,
}

impl Progress {
    /// Records a completed iteration's best move and score.
    pub fn record(&mut self, best: Move, score: i32) {
        if self.best == Some(best) {
            self.stable += 1;
        } else {
            self.stable = 0;
            if self.best.is_some() {
                self.changes += 1.0;
            }
        }
        self.changes *= 0.5;
        self.best = Some(best);
        self.last_score = self.score;
        self.score = score;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settled() -> Progress {
        let m = escaque::Position::new().legal_moves()[0];
        let mut p = Progress::default();
        for _ in 0..8 {
            p.record(m, 20);
        }
        p
    }

    #[test]
    fn movetime_is_searched_to_its_end() {
        let limits = Limits {
            movetime: Some(2000),
            ..Limits::default()
        };
        let b = TimeBudget::compute(&limits, Color::White, 0).unwrap();
        assert!(b.exact && b.soft_ms == 2000 && b.hard_ms == 2000);
        let tm = TimeManager::new(Instant::now(), None, Some(b));
        // Past the settled search's share of a clock's soft limit (0.55 ×
        // 2000 ms), still short of the move time: the search goes on.
        std::thread::sleep(std::time::Duration::from_millis(1200));
        assert!(!tm.stop_after_iteration(&settled(), false));
        // A single legal move is still played at once.
        assert!(tm.stop_after_iteration(&settled(), true));
    }

    #[test]
    fn a_clock_stops_a_settled_search_early() {
        let limits = Limits {
            wtime: Some(1000),
            ..Limits::default()
        };
        let b = TimeBudget::compute(&limits, Color::White, 0).unwrap();
        assert!(!b.exact && b.soft_ms < b.hard_ms);
        let tm = TimeManager::new(Instant::now(), None, Some(b));
        std::thread::sleep(std::time::Duration::from_millis(b.soft_ms + 5));
        assert!(tm.stop_after_iteration(&settled(), false));
    }
}
