//! What went wrong in a PGN game, and where.

use crate::read::MoveError;
use crate::FenError;

/// What went wrong in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// Reading the input failed.
    Io(String),
    /// A tag pair is not `[Name "value"]`.
    BadTag,
    /// The FEN tag is not a valid position.
    BadFen(FenError),
    /// A move could not be read or is not legal.
    San(MoveError),
    /// A null move (`--`, `Z0`, `0000`) while the side to move is in check.
    NullMoveInCheck,
    /// A `{` comment that is never closed.
    UnclosedComment,
    /// A `(` variation that is never closed.
    UnclosedVariation,
    /// A `)` with no variation open.
    UnmatchedClose,
    /// A `(` variation before any move it could be an alternative to.
    VariationWithoutMove,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`](super::MAX_VARIATION_DEPTH).
    TooDeep,
}

/// A failed game: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The number of the game in the input, from 1.
    pub game: usize,
    /// Line, from 1.
    pub line: usize,
    /// Column (in characters), from 1.
    pub column: usize,
    /// What went wrong.
    pub kind: PgnErrorKind,
}
