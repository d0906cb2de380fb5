//! PGN: a streaming reader over any [`Read`](std::io::Read), a game tree with variations,
//! comments, NAGs and clock times, and a writer (the PGN export format, or a
//! Spanish rendering for display and printing).
//!
//! The reader replays every move as it reads it, so each move reaches the
//! [`Visitor`] already checked. A game that fails (an illegal move, garbage) is
//! reported with its number, line and column, and the reader goes on to the next
//! game.
//!
//! ```
//! use escaque::pgn::{PgnReader, PgnStyle, write_game_string};
//!
//! let text = "[White \"Ruy López\"]\n\n1. e4 e5 2. Cf3 {desarrollo} Cc6 (2... d6) 3. Ab5 *\n";
//! let mut reader = PgnReader::new(text.as_bytes());
//! let game = reader.next_game().unwrap().unwrap();
//! assert_eq!(game.mainline().count(), 5);
//! let out = write_game_string(&game, PgnStyle::export());
//! assert!(out.contains("2. Nf3 {desarrollo} 2... Nc6 (2... d6) 3. Bb5 *"));
//! ```

mod clk;
mod error;
mod lang;
mod lexer;
mod model;
mod reader;
mod visitor;
mod writer;

#[cfg(test)]
mod tests;

pub use clk::{extract_clock, extract_clock_at};
pub use error::{PgnError, PgnErrorKind, PgnWarning, PgnWarningKind};
pub use model::{GameBuilder, Node, PgnGame};
pub use reader::{is_chess960_variant, variant_kind, PgnReader, ReaderOptions, VariantKind};
pub use visitor::{VariationAction, Visitor};
pub use writer::{write_game, write_game_string, PgnStyle, MAX_LINE, SEVEN_TAG_ROSTER};

/// The deepest nesting of variations the reader accepts.
pub const MAX_VARIATION_DEPTH: usize = 64;
