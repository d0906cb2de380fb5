//! The analysis routes' answers (docs/protocol.md "Analysis"): a request
//! queued, an analysis's view, an upload's analyses, a try of "Aprende de
//! tus errores", and the analysis board.

use std::collections::BTreeMap;

use escaque_analysis::analyse::LineView;
use escaque_analysis::Opening;
use serde::Serialize;
use serde_json::Value;

/// How far an analysis is.
#[derive(Debug, Serialize)]
pub struct ProgressView {
    /// Positions done.
    pub done: usize,
    /// Positions in all (the moves and the start).
    pub total: usize,
}

/// `GET /api/analysis/{aid}`: an analysis.
#[derive(Debug, Serialize)]
pub struct AnalysisView {
    /// Its id.
    pub id: String,
    /// `queued`, `running`, `done`, `failed`.
    pub status: String,
    /// Analyses queued ahead of it.
    pub queue: i64,
    /// How far.
    pub progress: ProgressView,
    /// The server's game, if it is one.
    pub game: Option<String>,
    /// White.
    pub white: String,
    /// Black.
    pub black: String,
    /// The result.
    pub result: String,
    /// The start position.
    pub start_fen: String,
    /// A Chess960 game.
    pub chess960: bool,
    /// The opening, if named.
    pub opening: Option<Opening>,
    /// The engine that analyses it.
    pub engine: String,
    /// Why it failed.
    pub error: Option<String>,
    /// The analysis once done, as stored (`escaque_analysis`'s JSON).
    pub analysis: Value,
}

/// A request's answer: the analysis, its status, its place.
#[derive(Debug, Serialize)]
pub struct Queued {
    /// The analysis's id.
    pub analysis: String,
    /// Its status.
    pub status: String,
    /// Analyses queued ahead of it.
    pub queue: i64,
}

/// One game of an upload.
#[derive(Debug, Serialize)]
pub struct Uploaded {
    /// The analysis's id.
    pub analysis: String,
    /// White (the tag).
    pub white: String,
    /// Black.
    pub black: String,
    /// Its status.
    pub status: String,
}

/// `202` to `POST /api/analysis`.
#[derive(Debug, Serialize)]
pub struct UploadedList {
    /// One per game, in the text's order.
    pub analyses: Vec<Uploaded>,
}

/// `POST /api/analysis/{aid}/try`.
#[derive(Debug, Serialize)]
pub struct TryVerdict {
    /// `best`, `good`, `not_yet`.
    pub verdict: &'static str,
    /// The try, SAN in English.
    pub san: String,
    /// In Spanish.
    pub san_es: String,
    /// The best move, SAN in English.
    pub best_san: String,
    /// In Spanish.
    pub best_san_es: String,
}

/// The last move of the board's line.
#[derive(Debug, Serialize)]
pub struct LastMove {
    /// In coordinates.
    pub uci: String,
    /// SAN, English.
    pub san: String,
    /// SAN, Spanish.
    pub san_es: String,
}

/// `POST /api/analysis/position`: the analysis board.
#[derive(Debug, Serialize)]
pub struct BoardView {
    /// The position.
    pub fen: String,
    /// Who moves.
    pub turn: &'static str,
    /// From square → destination squares.
    pub legal: BTreeMap<String, Vec<String>>,
    /// The last move, `null` at the start.
    pub last: Option<LastMove>,
    /// How the game ended there, if it did.
    pub over: Option<&'static str>,
    /// The engine's lines.
    pub lines: Vec<LineView>,
    /// The opening, if named.
    pub opening: Option<Opening>,
}
