//! Time classes: how fast a game is, by its estimated duration, as lichess
//! sorts its rating pools (bala, relámpago, rápidas, clásicas).
//!
//! A game's estimated duration is the first period's time plus 40 times its
//! per-move bonus (lichess's `estimateTotalSeconds`: initial + 40 ×
//! increment). Below 3 minutes a game is bullet (lichess's ultrabullet,
//! under 30 s, is folded in), below 8 minutes blitz, below 25 minutes rapid,
//! and classical from there. A delay (simple or Bronstein) is counted as the
//! per-move bonus it at most gives; later periods of a multi-period control
//! are not counted (they come after the first 40 moves or are a rest of the
//! game that the estimate's 40 moves do not reach).
//!
//! ```
//! use escaque::{TimeClass, TimeControl};
//!
//! let tc: TimeControl = "3+2".parse().unwrap(); // 180 + 80 = 260 s
//! assert_eq!(tc.time_class(), TimeClass::Blitz);
//! assert_eq!(TimeClass::from_id("rapid"), Some(TimeClass::Rapid));
//! ```

use core::time::Duration;

use crate::clock::{Bonus, TimeControl};

/// How fast a game is (a rating pool for each).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimeClass {
    /// Bala: estimated under 3 minutes.
    Bullet,
    /// Relámpago: under 8 minutes.
    Blitz,
    /// Rápidas: under 25 minutes.
    Rapid,
    /// Clásicas: 25 minutes or more.
    Classical,
}

impl TimeClass {
    /// Every class, fastest first.
    pub const ALL: [TimeClass; 4] = [
        TimeClass::Bullet,
        TimeClass::Blitz,
        TimeClass::Rapid,
        TimeClass::Classical,
    ];

    /// The stable identifier, for files, databases and programs: `bullet`,
    /// `blitz`, `rapid`, `classical`.
    pub fn id(self) -> &'static str {
        match self {
            TimeClass::Bullet => "bullet",
            TimeClass::Blitz => "blitz",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
        }
    }

    /// The class with identifier `id` ([`TimeClass::id`]), exactly.
    pub fn from_id(id: &str) -> Option<TimeClass> {
        TimeClass::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The class of a game estimated to last `estimate` (both players'
    /// time for 40 moves each): lichess's boundaries, 180 s, 480 s and
    /// 1500 s.
    pub fn of_estimate(estimate: Duration) -> TimeClass {
        let s = estimate.as_secs_f64();
        if s < 180.0 {
            TimeClass::Bullet
        } else if s < 480.0 {
            TimeClass::Blitz
        } else if s < 1500.0 {
            TimeClass::Rapid
        } else {
            TimeClass::Classical
        }
    }
}

impl TimeControl {
    /// The estimated duration of a game under this control, for one
    /// player: the first period's time plus 40 times its per-move bonus
    /// (an increment, or a delay counted as what it at most gives).
    pub fn estimated_duration(&self) -> Duration {
        let first = self.periods()[0];
        let bonus = match first.bonus {
            Bonus::None => Duration::ZERO,
            Bonus::Increment(d) | Bonus::Bronstein(d) | Bonus::Delay(d) => d,
        };
        first.time + bonus * 40
    }

    /// The time class of a game under this control
    /// ([`TimeClass::of_estimate`] of [`TimeControl::estimated_duration`]).
    pub fn time_class(&self) -> TimeClass {
        TimeClass::of_estimate(self.estimated_duration())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(text: &str) -> TimeClass {
        text.parse::<TimeControl>().unwrap().time_class()
    }

    #[test]
    fn lichess_boundaries() {
        // Ultrabullet and bullet.
        assert_eq!(class("15s"), TimeClass::Bullet);
        assert_eq!(class("1+0"), TimeClass::Bullet);
        assert_eq!(class("2+1"), TimeClass::Bullet); // 120 + 40 = 160
        assert_eq!(class("30s+3"), TimeClass::Bullet); // 30 + 120 = 150
        assert_eq!(class("2+2"), TimeClass::Blitz); // 120 + 80 = 200
    }

    #[test]
    fn each_boundary_belongs_to_the_slower_class() {
        let of = |s: u64| TimeClass::of_estimate(Duration::from_secs(s));
        assert_eq!(of(179), TimeClass::Bullet);
        assert_eq!(of(180), TimeClass::Blitz);
        assert_eq!(of(479), TimeClass::Blitz);
        assert_eq!(of(480), TimeClass::Rapid);
        assert_eq!(of(1499), TimeClass::Rapid);
        assert_eq!(of(1500), TimeClass::Classical);
        // 3+0 is 180 s (blitz), 5+3 is 420 s, 8+0 is 480 s (rapid),
        // 15+10 is 1300 s (rapid), 25+0 is 1500 s (classical).
        assert_eq!(class("3"), TimeClass::Blitz);
        assert_eq!(class("5+3"), TimeClass::Blitz);
        assert_eq!(class("8"), TimeClass::Rapid);
        assert_eq!(class("15+10"), TimeClass::Rapid); // 900 + 400 = 1300
        assert_eq!(class("25"), TimeClass::Classical);
        assert_eq!(class("40/90+30, 30+30"), TimeClass::Classical);
        // A delay counts as the bonus it at most gives: 120 + 40 × 3 = 240.
        assert_eq!(class("2+d3"), TimeClass::Blitz);
        assert_eq!(class("2+b3"), TimeClass::Blitz);
    }

    #[test]
    fn ids_read_back() {
        for c in TimeClass::ALL {
            assert_eq!(TimeClass::from_id(c.id()), Some(c));
        }
        assert_eq!(TimeClass::from_id("Bullet"), None);
        assert_eq!(TimeClass::from_id("ultrabullet"), None);
    }
}
