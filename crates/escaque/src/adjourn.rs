//! Adjournment: a game in progress saved to PGN with its clock times and
//! resumed later with the same remaining times and the same side to move.
//!
//! The PGN written by [`Game::adjourn`] is ordinary export PGN with:
//! * `[%clk H:MM:SS]` after every move: the mover's time after pressing the
//!   clock;
//! * `TimeControl` in the PGN standard's form (or `?` for a delay, which that
//!   form cannot express), and `EscaqueTimeControl` in escaque's own text form
//!   (`5+d3`), which is preferred when reading back;
//! * `WhiteClock` and `BlackClock`: both remaining times at the moment of
//!   adjournment (the side to move has used part of its time since its last
//!   `[%clk]`);
//! * `SetUp`/`FEN` when the game did not start from the initial position,
//!   `Rules` with the rule set's name, `Result "*"` and
//!   `Termination "unterminated"` while the game goes on.
//!
//! Pending draw offers and a London fifty-move agreement are not saved; a game
//! that ended other than on the board (resignation, agreement, time) resumes as
//! its moves, without that ending.
//!
//! ```
//! use std::sync::Arc;
//! use escaque::{Clock, FakeTime, Game, SanLang, TimeControl};
//!
//! let time = FakeTime::new();
//! let clock = Clock::new(TimeControl::parse("90+30").unwrap(), Arc::new(time.clone()));
//! let mut game = Game::new().with_clock(clock);
//! game.start_clock();
//! time.advance_secs(60);
//! game.play_san("e4", SanLang::Auto).unwrap();
//! time.advance_secs(125);
//! let pgn = game.adjourn();
//! assert!(pgn.contains("[TimeControl \"5400+30\"]"));
//! assert!(pgn.contains("[WhiteClock \"1:29:30\"]"));
//! assert!(pgn.contains("[BlackClock \"1:27:55\"]"));
//! assert!(pgn.contains("1. e4 {[%clk 1:29:30]} *"));
//!
//! let resumed = Game::resume_from_pgn(&pgn, Arc::new(FakeTime::new())).unwrap();
//! assert_eq!(resumed.clock().unwrap().peek().black.as_secs(), 5275);
//! ```

use core::time::Duration;
use std::sync::Arc;

use crate::clock::{format_hms, parse_hms, Clock, TimeControl, TimeControlError, TimeSource};
use crate::game::{Game, GameError};
use crate::pgn::{self, Node, PgnError, PgnReader, PgnStyle};
use crate::rules::RuleSet;
use crate::Position;

/// Why an adjourned game could not be resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResumeError {
    /// The text holds no game.
    NoGame,
    /// The PGN could not be read.
    Pgn(PgnError),
    /// The time-control tag could not be read.
    TimeControl(TimeControlError),
    /// A clock tag (`WhiteClock`, `BlackClock`) is not a time `H:MM:SS`.
    BadClockTag {
        /// The tag's name.
        tag: &'static str,
        /// Its value.
        value: String,
    },
    /// The game has a time control but no times to resume with.
    MissingClock,
    /// A move of the PGN could not be replayed (the game had ended before it).
    Replay(GameError),
    /// The sealed-move envelope's tags are malformed (see [`crate::sealed`]).
    BadEnvelope {
        /// The tag's name.
        tag: &'static str,
        /// Its value.
        value: String,
    },
}

const RULES_TAG: &str = "Rules";
const OWN_TC_TAG: &str = "EscaqueTimeControl";

impl Game {
    /// The game as a PGN game tree: the tags listed in the module
    /// documentation, every move with its `[%clk]`, and the result.
    pub fn to_pgn_game(&self) -> pgn::PgnGame {
        let mut g = pgn::PgnGame {
            start: *self.start_position(),
            ..pgn::PgnGame::default()
        };
        let result = self.result().map_or("*", |r| r.pgn());
        g.set_tag("Result", result);
        if self.is_chess960() {
            g.set_tag("Variant", "Chess960");
        }
        if *self.start_position() != Position::new() || self.is_chess960() {
            g.set_tag("SetUp", "1");
            g.set_tag("FEN", &self.start_position().to_fen());
        }
        g.set_tag(RULES_TAG, self.rules().name());
        if let Some(clock) = self.clock() {
            let tc = clock.control();
            g.set_tag("TimeControl", &tc.to_pgn().unwrap_or_else(|_| "?".into()));
            g.set_tag(OWN_TC_TAG, &tc.to_string());
            let r = clock.peek();
            g.set_tag("WhiteClock", &format_hms(r.white));
            g.set_tag("BlackClock", &format_hms(r.black));
        }
        if self.outcome().is_none() {
            g.set_tag("Termination", "unterminated");
        }
        for rec in self.moves() {
            let mut node = Node::new(rec.mv);
            node.clock_ms = rec.clock.map(|d| d.as_millis() as u64);
            g.moves.push(node);
        }
        g.result = Some(self.result());
        g
    }

    /// Adjourns the game: pauses the clock and returns the game as PGN text
    /// (see the module documentation).
    pub fn adjourn(&mut self) -> String {
        if let Some(c) = self.clock_mut() {
            c.pause();
        }
        // A flag that fell before the adjournment ends the game.
        self.poll_clock();
        pgn::write_game_string(&self.to_pgn_game(), PgnStyle::export())
    }

    /// Resumes a game adjourned with [`Game::adjourn`] (or any PGN game): the
    /// moves are replayed, the rule set is taken from the `Rules` tag, and if
    /// the game has a time control the clock is set to the saved remaining
    /// times with the side to move on turn, paused until
    /// [`Game::start_clock`].
    pub fn resume_from_pgn(text: &str, source: Arc<dyn TimeSource>) -> Result<Game, ResumeError> {
        let pg = PgnReader::new(text.as_bytes())
            .next_game()
            .ok_or(ResumeError::NoGame)?
            .map_err(ResumeError::Pgn)?;
        let rules = pg.tag(RULES_TAG).and_then(parse_rules).unwrap_or_default();
        let chess960 = pg.tag("Variant").is_some_and(pgn::is_chess960_variant);
        let mut game = Game::from_position(pg.start)
            .with_rules(rules)
            .with_chess960(chess960);
        for node in &pg.moves {
            game.play(node.mv).map_err(ResumeError::Replay)?;
        }
        let control = match pg.tag(OWN_TC_TAG) {
            Some(t) => Some(TimeControl::parse(t).map_err(ResumeError::TimeControl)?),
            None => match pg.tag("TimeControl") {
                Some(t) => TimeControl::from_pgn(t).map_err(ResumeError::TimeControl)?,
                None => None,
            },
        };
        let Some(control) = control else {
            return Ok(game);
        };
        // Remaining times: the clock tags, else each side's last [%clk], else
        // the initial time for a side that has not moved yet.
        let mut remaining = [None, None];
        let mut moves = [0u32; 2];
        let mut mover = pg.start.turn();
        for node in &pg.moves {
            moves[mover.index()] += 1;
            remaining[mover.index()] = node.clock_ms.map(Duration::from_millis);
            mover = mover.other();
        }
        for (i, tag) in ["WhiteClock", "BlackClock"].into_iter().enumerate() {
            if let Some(v) = pg.tag(tag) {
                remaining[i] = Some(parse_hms(v).ok_or_else(|| ResumeError::BadClockTag {
                    tag,
                    value: v.to_string(),
                })?);
            }
        }
        let mut times = [Duration::ZERO; 2];
        for i in 0..2 {
            times[i] = match (remaining[i], moves[i]) {
                (Some(t), _) => t,
                (None, 0) => control.initial_time(),
                (None, _) => return Err(ResumeError::MissingClock),
            };
        }
        let clock = Clock::restored(control, source, times, moves, game.position().turn());
        let clocks: Vec<Option<Duration>> = pg
            .moves
            .iter()
            .map(|n| n.clock_ms.map(Duration::from_millis))
            .collect();
        game.restore_clock(clock, &clocks);
        Ok(game)
    }
}

fn parse_rules(name: &str) -> Option<RuleSet> {
    name.parse().ok()
}
