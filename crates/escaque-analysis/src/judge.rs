//! The judgement of a move: winning chances from an evaluation, the marks
//! (`?!`, `?`, `??`) with lichess's published method, mate-aware, and the
//! accuracy of a move and of a game.

use serde::{Deserialize, Serialize};

/// An evaluation from White's point of view, as JSON writes it:
/// `{"cp": 35}` or `{"mate": -3}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Eval {
    /// Centipawns, White positive.
    Cp(i32),
    /// Mate in this many moves: positive when White mates, negative when
    /// Black mates. Never 0 (a checkmate on the board is not an evaluation).
    Mate(i32),
}

/// A move's mark.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    /// `?!` imprecisión (lost ≥ 0.1 of the winning chances).
    Inaccuracy,
    /// `?` error (≥ 0.2).
    Mistake,
    /// `??` error grave (≥ 0.3, or walked into a forced mate).
    Blunder,
}

impl Judgement {
    /// The stable id: `inaccuracy`, `mistake`, `blunder`.
    pub fn id(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The PGN numeric annotation glyph: `$6` `?!`, `$2` `?`, `$4` `??`.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The symbol: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}
