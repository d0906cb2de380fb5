//! # escaque-analysis — el análisis
//!
//! What a player learns from a finished game, computed by an engine:
//!
//! * [`judge`]: winning chances from an evaluation (the constant fitted to
//!   escaque's own evaluation scale), the marks `?!` imprecisión, `?` error
//!   and `??` error grave with lichess's published method, mate-aware, move
//!   and game accuracy and the average centipawn loss;
//! * [`analyse`]: the analysis of a whole game by any [`analyse::Evaluator`]
//!   (escaque's engine by default, or any UCI engine through
//!   [`uci_engine::UciEvaluator`]), with a position cache keyed by Zobrist so
//!   that shared openings cost nothing;
//! * [`annotate`]: the annotated PGN (`[%eval …]`, NAGs, Spanish or English
//!   comments and the engine's line as a variation);
//! * [`openings`]: opening names (ECO, Spanish and English) classified by
//!   position, from lichess's CC0 chess-openings data shipped in `data/`.
//!
//! The crate does no network or terminal I/O: the server and the command
//! line (`escaque analizar`) wire it to their users.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analyse;
pub mod annotate;
pub mod book;
pub mod judge;
pub mod openings;
pub mod problemas;
pub mod uci_engine;

pub use analyse::{
    analyse_game, AnalysisError, Cache, EscaqueEvaluator, Evaluator, GameAnalysis, Line, LineView,
    PlyAnalysis, Progress, Settings, SideSummary, Verdict,
};
pub use judge::{Eval, Judgement};
pub use openings::Opening;
pub use uci_engine::{UciError, UciEvaluator};
