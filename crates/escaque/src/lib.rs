//! # escaque — las reglas del ajedrez
//!
//! The rules of chess as FIDE's Laws (2023) state them: squares and pieces,
//! a legal [`Position`], its legal moves generated directly (checks, pins and the
//! en passant discovered check handled while generating), FEN in and out with
//! precise errors, Polyglot Zobrist hashing, and [`perft`].
//!
//! On top of the position: a [`Game`] that records moves and knows every way a
//! game ends (mate, resignation, stalemate, dead position, repetitions, fifty and
//! seventy-five moves, agreement, time), [`clock`]s for real time controls
//! driven by an injected [`TimeSource`], and [`rules`] sets (FIDE 2023, Londres
//! 1846) with odds presets.
//!
//! Pure: no I/O, no threads, no global state (the one exception is
//! [`MonotonicTime`], the system clock behind a trait); all tables are built at
//! compile time.
//!
//! ```
//! use escaque::{Position, Move, Square, perft};
//!
//! let pos = Position::new();
//! assert_eq!(perft(&pos, 4), 197_281);
//!
//! // Fool's mate: 1.f3 e5 2.g4 Dh4#
//! let mut pos = Position::new();
//! for (from, to) in [(Square::F2, Square::F3), (Square::E7, Square::E5),
//!                    (Square::G2, Square::G4), (Square::D8, Square::H4)] {
//!     pos.play(Move::normal(from, to)).unwrap();
//! }
//! assert!(pos.is_checkmate());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod adjourn;
pub mod attacks;
mod bitboard;
mod castling;
pub mod chess960;
pub mod clock;
mod color;
pub mod coord;
pub mod dead;
mod fen;
pub mod game;
mod lang;
mod legality;
mod messages;
mod mov;
mod movegen;
mod perft;
pub mod pgn;
mod polyglot_keys;
mod position;
pub mod read;
mod role;
pub mod rules;
pub mod san;
pub mod sealed;
mod square;
mod time_class;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use castling::{king_home, CastlingMode, CastlingRights, CastlingSide, CastlingStyle};
pub use clock::{Clock, ClockReading, FakeTime, MonotonicTime, TimeControl, TimeSource};
pub use color::Color;
pub use fen::{FenError, FenWarning};
pub use game::{
    ClaimResult, DrawClaim, Game, GameError, GameResult, GameStatus, MoveRecord, Outcome,
    Termination,
};
pub use lang::{Lang, Localized};
pub use legality::{IllegalMove, IllegalReason};
pub use mov::{Move, MoveKind};
pub use movegen::{MoveList, MoveVisitor, MAX_MOVES};
pub use perft::{divide, perft};
pub use pgn::{PgnError, PgnErrorKind};
pub use position::Position;
pub use read::{read_move, Notation};
pub use role::{Piece, Role};
pub use rules::{Odds, RuleSet};
pub use san::{MoveError, San, SanLang};
pub use square::{File, Rank, Square};
pub use time_class::TimeClass;

/// The FEN of the initial position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
