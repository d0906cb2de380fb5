//! The engine behind the game. Until `escaque-engine` is in the workspace
//! this stand-in plays the first legal move the rules crate lists, so the
//! game, its thread and its tests run end to end.

use std::sync::atomic::AtomicBool;

use escaque::{Lang, Move, Position};

use super::engine_worker::Budget;

/// The engine.
pub struct Thinker;

impl Thinker {
    /// A new engine.
    pub fn new() -> Thinker {
        Thinker
    }

    /// The move to play in `pos` within `budget`; `stop` ends the search early.
    pub fn best_move(
        &mut self,
        pos: &Position,
        _history: &[u64],
        _budget: &Budget,
        _stop: &AtomicBool,
    ) -> Option<Move> {
        pos.legal_moves().iter().copied().next()
    }
}

/// The name of engine level `n` (1–10) in `lang` (the engine crate names them).
pub fn level_name(_n: u32, _lang: Lang) -> Option<&'static str> {
    None
}
