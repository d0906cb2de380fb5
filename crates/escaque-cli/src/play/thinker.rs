//! The engine behind the game: `escaque-engine` at one of its ten levels.

use std::sync::atomic::AtomicBool;

use escaque::{Color, Lang, Move, Position};
use escaque_engine::{Engine, Level, Limits};

use super::engine_worker::Budget;

/// The engine, set to the level asked for.
pub struct Thinker {
    engine: Engine,
    level: Option<u32>,
}

impl Thinker {
    /// An engine at full strength until a level is asked for.
    pub fn new() -> Thinker {
        Thinker {
            engine: Engine::new(),
            level: None,
        }
    }

    /// The move to play in `pos` within `budget`; `stop` ends the search early.
    pub fn best_move(
        &mut self,
        pos: &Position,
        history: &[u64],
        budget: &Budget,
        stop: &AtomicBool,
    ) -> Option<Move> {
        if self.level != Some(budget.level) {
            let level = Level::from_number(budget.level).unwrap_or(Level::ClubPlayer);
            self.engine.set_level(level);
            self.level = Some(budget.level);
        }
        let ms = |d: std::time::Duration| d.as_millis() as u64;
        let limits = match budget.clock {
            Some(t) => Limits {
                wtime: Some(ms(t[Color::White.index()])),
                btime: Some(ms(t[Color::Black.index()])),
                winc: Some(ms(budget.increment)),
                binc: Some(ms(budget.increment)),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(ms(budget.movetime)),
                ..Limits::default()
            },
        };
        let found = self.engine.search(pos, history, &limits, stop).best_move;
        // Never stay silent with a legal move available.
        found.or_else(|| pos.legal_moves().iter().copied().next())
    }
}

/// The name of engine level `n` (1–10) in `lang`.
pub fn level_name(n: u32, lang: Lang) -> Option<&'static str> {
    Level::from_number(n).map(|l| l.name(lang))
}
