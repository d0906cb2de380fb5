//! The visitor interface: the reader hands each game to it as it reads.

use crate::{GameResult, Move, Position};

use super::error::PgnWarning;

/// Whether to read a variation or skip over it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VariationAction {
    /// Read its moves (they are checked and reach the visitor).
    Enter,
    /// Skip to its closing parenthesis without reading its moves.
    Skip,
}

/// Receives a game as the reader goes through it. Every method but
/// [`Visitor::end_game`] has a default that does nothing.
pub trait Visitor {
    /// What a finished game gives.
    type Output;
    /// A new game starts.
    fn begin_game(&mut self) {}
    /// A tag pair.
    fn tag(&mut self, _name: &str, _value: &str) {}
    /// The movetext starts from `start` (the initial position, or the FEN tag's).
    fn start(&mut self, _start: &Position) {}
    /// A legal move `m`, played from `before`.
    fn mv(&mut self, _before: &Position, _m: Move) {}
    /// A numeric annotation glyph (`$1`, or `!` read as 1) after the last move.
    fn nag(&mut self, _nag: u8) {}
    /// A numeric annotation glyph before the first move of a game or of a
    /// variation (`($142 38... b5)`): it belongs to the next move.
    fn nag_before(&mut self, _nag: u8) {}
    /// Something read leniently (an Informant symbol, a tag with unescaped
    /// quotes, a `Result` tag the movetext disagrees with): the game goes on.
    fn warning(&mut self, _warning: &PgnWarning) {}
    /// A comment (whitespace runs collapsed to one space).
    fn comment(&mut self, _text: &str) {}
    /// A variation starts: an alternative to the last move.
    fn begin_variation(&mut self) -> VariationAction {
        VariationAction::Skip
    }
    /// The variation that was entered ends.
    fn end_variation(&mut self) {}
    /// The result token that ends the movetext: a result, or `None` for `*`
    /// (a game in progress or whose result is unknown).
    fn result(&mut self, _result: Option<GameResult>) {}
    /// The game ends without error.
    fn end_game(&mut self) -> Self::Output;
}
