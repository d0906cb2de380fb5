//! The analysis of a whole game: every position evaluated by an
//! [`Evaluator`], each move judged, each side's accuracy.

use std::sync::atomic::AtomicBool;

use escaque::{Move, Position};
use serde::{Deserialize, Serialize};

use crate::judge::{Eval, Judgement};

/// One line of an evaluator: its evaluation (White's point of view) and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The evaluation at the end of the line, White's point of view.
    pub eval: Eval,
    /// The moves, from the position evaluated.
    pub moves: Vec<Move>,
    /// The depth the evaluator reached.
    pub depth: u32,
}

/// How deep an evaluator looks at each position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Depth in plies (escaque's default for analysis when both are `None`).
    pub depth: Option<u32>,
    /// Nodes per position.
    pub nodes: Option<u64>,
}

/// Something that evaluates positions: escaque's engine, a UCI engine, a
/// test double.
pub trait Evaluator: Send {
    /// A short name for reports (`escaque`, `Stockfish 15.1`).
    fn name(&self) -> String;
    /// The best `lines` lines of `pos` (at least one when `pos` has a legal
    /// move), best first. `history`: Zobrist keys of the earlier positions
    /// of the game (for repetitions). `stop` ends the search early.
    fn evaluate(
        &mut self,
        pos: &Position,
        history: &[u64],
        lines: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError>;
}

/// What went wrong in an analysis.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The external engine could not be started or stopped answering.
    #[error("engine: {0}")]
    Engine(String),
    /// The analysis was stopped.
    #[error("stopped")]
    Stopped,
}

/// How far an analysis has come: positions evaluated of the total.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Positions evaluated.
    pub done: usize,
    /// Positions in the game.
    pub total: usize,
}

/// One move of an analysed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// Index of the move, from 0.
    pub ply: usize,
    /// The move in coordinates (`e2e4`, castling as the king's move).
    pub uci: String,
    /// SAN, English letters.
    pub san: String,
    /// SAN, Spanish letters.
    pub san_es: String,
    /// FEN after the move.
    pub fen: String,
    /// Evaluation after the move, White's point of view; `None` when the move
    /// checkmates.
    pub eval: Option<Eval>,
    /// White's winning chances after the move, −1 to 1.
    pub wc: f64,
    /// The mark, if the move lost enough.
    pub judgement: Option<Judgement>,
    /// The engine's best move in the position before, when it is not the
    /// move played: coordinates, English SAN, Spanish SAN.
    pub best: Option<String>,
    /// As `best`, English SAN.
    pub best_san: Option<String>,
    /// As `best`, Spanish SAN.
    pub best_san_es: Option<String>,
    /// The engine's line from the position before (starting with `best`),
    /// in coordinates; empty when the move played was the best.
    pub line: Vec<String>,
    /// As `line`, English SAN.
    pub line_san: Vec<String>,
    /// As `line_san`, Spanish SAN.
    pub line_san_es: Vec<String>,
    /// Move accuracy, 0 to 100.
    pub accuracy: f64,
    /// Centipawns lost by the move (for the average), ≥ 0.
    pub loss_cp: i32,
}

/// One side's summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// Game accuracy, 0 to 100.
    pub accuracy: f64,
    /// Average centipawn loss.
    pub acpl: u32,
    /// `?!` marks.
    pub inaccuracies: u32,
    /// `?` marks.
    pub mistakes: u32,
    /// `??` marks.
    pub blunders: u32,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameAnalysis {
    /// The evaluator's name.
    pub engine: String,
    /// The settings it ran with.
    pub settings: Settings,
    /// FEN of the start position.
    pub start_fen: String,
    /// Evaluation of the start position.
    pub start_eval: Option<Eval>,
    /// White's winning chances at the start.
    pub start_wc: f64,
    /// Every move.
    pub plies: Vec<PlyAnalysis>,
    /// White's summary.
    pub white: SideSummary,
    /// Black's summary.
    pub black: SideSummary,
}

/// Evaluations already made, keyed by the position's Zobrist key and the
/// number of lines; shared between analyses (thread-safe, bounded).
pub struct Cache {
    _private: (),
}

/// escaque's own engine as an [`Evaluator`].
pub struct EscaqueEvaluator {
    _private: (),
}

/// Analyses a game: evaluates the start and every position after each move
/// (from the cache when it has them), judges every move and sums up each
/// side. `progress` is called after each position.
pub fn analyse_game(
    _start: &Position,
    _moves: &[Move],
    _evaluator: &mut dyn Evaluator,
    _cache: Option<&Cache>,
    _stop: &AtomicBool,
    _progress: &mut dyn FnMut(Progress),
) -> Result<GameAnalysis, AnalysisError> {
    unimplemented!("issue 27: helper J")
}
