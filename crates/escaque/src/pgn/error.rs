//! What went wrong in a PGN game, and where.

use crate::san::MoveError;
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
    /// The `Variant` tag names a variant escaque does not play (atomic,
    /// crazyhouse, antichess, horde, …): the game is not read as chess.
    UnsupportedVariant(String),
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

/// What the reader read leniently in a game, where a strict reader would have
/// stopped: the game is kept, and this says what was assumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnWarningKind {
    /// An Informant symbol written in the movetext (`+-`, `=`, `N`, `RR`, …),
    /// read as the NAG it stands for.
    InformantSymbol {
        /// The symbol as written.
        text: String,
        /// The NAG read.
        nag: u8,
    },
    /// A tag value with double quotes inside that are not escaped
    /// (`[White ""Socrates Expert""]`): read up to the last quote before `]`.
    UnescapedQuotes {
        /// The tag's name.
        name: String,
    },
    /// A tag value whose last character is a backslash (`[Event "Tournament
    /// \"]`, a Windows folder written as it is): PGN would read `\"` as a
    /// quote inside a value the line never closes; the backslash is read as
    /// itself and the value ends at that quote.
    TrailingBackslash {
        /// The tag's name.
        name: String,
    },
    /// The `Result` tag and the result that ends the movetext disagree; both
    /// are kept as written.
    ResultMismatch {
        /// The `Result` tag's value.
        tag: String,
        /// The termination marker of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
        movetext: String,
    },
    /// A game with no moves whose movetext is only `*` while its `Result`
    /// tag records a result (round files published by pairing programs
    /// before the games are entered): the tag's result stands, as the
    /// writer meant and python-chess reads it.
    ResultFromTag {
        /// The `Result` tag's value, now the game's result.
        tag: String,
    },
    /// Text (a tag value, a comment) that is not UTF-8: read as Windows-1252,
    /// the Latin-1 of ChessBase, Scid and older Windows programs.
    NotUtf8,
}

impl PgnWarningKind {
    /// A stable identifier for programs: `informant_symbol`,
    /// `unescaped_quotes`, `trailing_backslash`, `result_mismatch`,
    /// `result_from_tag`, `not_utf8`.
    pub fn id(&self) -> &'static str {
        match self {
            PgnWarningKind::InformantSymbol { .. } => "informant_symbol",
            PgnWarningKind::UnescapedQuotes { .. } => "unescaped_quotes",
            PgnWarningKind::TrailingBackslash { .. } => "trailing_backslash",
            PgnWarningKind::ResultMismatch { .. } => "result_mismatch",
            PgnWarningKind::ResultFromTag { .. } => "result_from_tag",
            PgnWarningKind::NotUtf8 => "not_utf8",
        }
    }
}

/// Something read leniently in a game: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnWarning {
    /// The number of the game in the input, from 1.
    pub game: usize,
    /// Line, from 1.
    pub line: usize,
    /// Column (in characters), from 1.
    pub column: usize,
    /// What was read leniently.
    pub kind: PgnWarningKind,
}
