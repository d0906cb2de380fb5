//! The puzzle trainer's messages (docs/protocol.md "Problemas"): the next
//! puzzle served, an answer and what it changed, a hint, the solution, and
//! a solver's profile (rating, streak, history, success per theme, queue).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The most solver moves an answer may carry.
pub const MAX_ANSWER_MOVES: usize = 64;
/// The longest move text accepted (UCI is 4–5 characters).
pub const MAX_MOVE_CHARS: usize = 8;
/// The longest time an answer may claim, ms (a day).
pub const MAX_TIME_MS: u64 = 86_400_000;

/// `GET /api/puzzles/next` query.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    /// `rating` (the default), `streak` or `queue`.
    pub mode: Option<String>,
    /// A theme key (`fork`, `mateIn2`…) the puzzle must have.
    pub theme: Option<String>,
    /// `easiest`, `easier`, `normal` (the default), `harder`, `hardest`.
    pub difficulty: Option<String>,
    /// This puzzle (a link to one): served whatever the other fields say,
    /// in `rating` mode (rated if the solver has not answered it before).
    pub puzzle: Option<String>,
}

/// `POST /api/puzzles/attempts/{id}/answer` body: the solver's moves so far.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AnswerBody {
    /// The solver's moves in UCI, from the first (the opponent's moves are
    /// the server's).
    pub moves: Vec<String>,
    /// The time the player has taken, ms.
    pub time_ms: u64,
}

/// A theme, by key and name.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ThemeView {
    /// lichess's key.
    pub key: String,
    /// Its Spanish name.
    pub es: String,
    /// Its English name.
    pub en: String,
}

/// `GET /api/puzzles/themes`: the themes of the puzzles the asker is served
/// from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ThemesView {
    /// Kid mode (a pupil of a class): the children's mates only.
    pub kid: bool,
    /// How many puzzles that catalogue holds.
    pub puzzles: i64,
    /// Each theme present, most puzzles first.
    pub themes: Vec<ThemeCount>,
}

/// A theme and how many puzzles of the catalogue have it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ThemeCount {
    /// The theme.
    pub theme: ThemeView,
    /// How many puzzles have it.
    pub puzzles: i64,
}

/// Where a puzzle found in a game of this server comes from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct GameLink {
    /// The game's id.
    pub game: String,
    /// The ply of the opponent's move, from 1 (its number in the game's
    /// move list, half-moves).
    pub ply: i64,
    /// The game's page at that move.
    pub url: String,
}

/// A puzzle as served (its solution is not in it).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PuzzleView {
    /// The puzzle's id.
    pub id: String,
    /// The position before the opponent's move.
    pub fen: String,
    /// The opponent's move (UCI), played before the solver's turn.
    pub first_move: String,
    /// The solver's legal moves after it: origin → destinations.
    pub legal: BTreeMap<String, Vec<String>>,
    /// The solver's side: `white` or `black`.
    pub solver: String,
    /// How many moves the solver must find.
    pub solver_moves: usize,
    /// The puzzle's rating (absent in kid mode).
    pub rating: Option<i64>,
    /// The game of this server it was found in.
    pub game: Option<GameLink>,
}

/// A solver's rating.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RatingView {
    /// The rating, truncated.
    pub rating: i64,
    /// The deviation.
    pub deviation: f64,
    /// Provisional while the deviation is 110 or more.
    pub provisional: bool,
}

/// `GET /api/puzzles/next`: an attempt opened.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Served {
    /// The attempt's id (the answer, hint and solution routes name it).
    pub attempt: String,
    /// `rating`, `streak` or `queue`.
    pub mode: String,
    /// The puzzle.
    pub puzzle: PuzzleView,
    /// The solver's rating (absent in kid mode).
    pub player: Option<RatingView>,
    /// The current streak (streak mode).
    pub streak: i64,
    /// Puzzles of the solver's queue due now.
    pub queue_due: usize,
    /// Kid mode: stars, not ratings.
    pub kid: bool,
}

/// A rated attempt's change.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RatingChange {
    /// Before (Glicko-2 rating, unrounded).
    pub before: f64,
    /// After.
    pub after: f64,
    /// The whole-number rating's change.
    pub diff: i64,
    /// The deviation after.
    pub deviation: f64,
}

/// `POST …/answer` and `POST …/solution`: where the attempt stands.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Answered {
    /// `continue` (right so far: play on after `reply`), `solved` or
    /// `failed`.
    pub state: String,
    /// The opponent's reply to the last move (state `continue`).
    pub reply: Option<String>,
    /// The solver's legal moves after the reply (state `continue`).
    pub legal: BTreeMap<String, Vec<String>>,
    /// The rating's change (a rated attempt, once finished).
    pub rating: Option<RatingChange>,
    /// The puzzle's rating after the attempt (not in kid mode).
    pub puzzle_rating: Option<i64>,
    /// Kid mode: 3 solved, 2 solved with a hint, 0 failed.
    pub stars: Option<u8>,
    /// The streak after the attempt (streak mode).
    pub streak: Option<i64>,
    /// When the puzzle comes back from the queue (wall, ms), if it is queued.
    pub queued_until: Option<i64>,
    /// The puzzle's themes (once finished).
    pub themes: Vec<ThemeView>,
    /// The whole line after the opponent's first move (once finished).
    pub solution: Vec<String>,
}

/// `POST …/hint`: the piece to move.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct HintView {
    /// Its square (`e2`).
    pub square: String,
    /// The piece in Spanish (`caballo`).
    pub piece_es: String,
    /// The piece in English (`knight`).
    pub piece_en: String,
    /// Hints asked in this attempt so far.
    pub hints: i64,
}

/// One answered attempt in a solver's history.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct HistoryItem {
    /// The attempt.
    pub attempt: String,
    /// The puzzle.
    pub puzzle: String,
    /// `rating`, `streak` or `queue`.
    pub mode: String,
    /// When it was answered (wall, ms).
    pub answered_ms: i64,
    /// Solved.
    pub solved: bool,
    /// The solver's moves.
    pub moves: Vec<String>,
    /// As the client measured it.
    pub time_ms: Option<i64>,
    /// Hints asked.
    pub hints: i64,
    /// The solution was shown.
    pub solution_seen: bool,
    /// The rating's change, when rated.
    pub rating_diff: Option<i64>,
}

/// Success in one theme.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ThemeScore {
    /// The theme.
    pub theme: ThemeView,
    /// Attempts answered.
    pub tried: u64,
    /// Solved.
    pub solved: u64,
}

/// One puzzle of a solver's queue.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct QueueItem {
    /// The puzzle.
    pub puzzle: String,
    /// When it is due (wall, ms).
    pub due_ms: i64,
    /// Due now.
    pub due_now: bool,
    /// −1 new; 0–3 how many times it came back after a miss.
    pub step: i64,
    /// The game of this server it was found in.
    pub game: Option<GameLink>,
}

/// `GET /api/puzzles/me`: a solver's profile.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Profile {
    /// The rating (absent in kid mode and before the first rated attempt).
    pub rating: Option<RatingView>,
    /// Kid mode.
    pub kid: bool,
    /// Rated attempts.
    pub rated: i64,
    /// The current streak.
    pub streak: i64,
    /// The longest.
    pub best_streak: i64,
    /// The last attempts answered, newest first (at most 50).
    pub history: Vec<HistoryItem>,
    /// Success per theme, most tried first.
    pub themes: Vec<ThemeScore>,
    /// The queue, soonest due first.
    pub queue: Vec<QueueItem>,
}
