//! The player pages' answers (`GET /api/players/{name}`, `…/vs/{other}`;
//! docs/protocol.md "Player pages").

use escaque_analysis::Opening;
use serde::Serialize;
use serde_json::Value;

/// One point of a rating's history.
#[derive(Debug, Serialize)]
pub struct HistoryPoint {
    /// When the game ended (wall, ms).
    pub at_ms: i64,
    /// The rating after it, whole.
    pub rating: i64,
    /// The game.
    pub game: String,
}

/// A rating pool of the player.
#[derive(Debug, Serialize)]
pub struct Pool {
    /// The pool (`blitz`, `chess960`…).
    pub perf: String,
    /// The rating now, whole.
    pub rating: i64,
    /// The deviation, rounded.
    pub deviation: i64,
    /// Provisional.
    pub provisional: bool,
    /// Rated games.
    pub games: i64,
    /// Its history.
    pub history: Vec<HistoryPoint>,
}

/// Wins, draws and losses.
#[derive(Debug, Serialize)]
pub struct ScoreView {
    /// Games.
    pub games: i64,
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

/// A finished game from the player's side.
#[derive(Debug, Serialize)]
pub struct PlayerGame {
    /// Game id.
    pub game: String,
    /// When created (wall, ms).
    pub created_ms: i64,
    /// The player's colour.
    pub color: &'static str,
    /// The opponent's name.
    pub opponent: String,
    /// `engine` or `human`.
    pub opponent_kind: &'static str,
    /// The engine's level.
    pub opponent_level: Option<u32>,
    /// Whether the opponent has an account.
    pub opponent_account: bool,
    /// The result (PGN).
    pub result: Option<&'static str>,
    /// `win`, `draw`, `loss`.
    pub score: Option<&'static str>,
    /// As in `state`.
    pub termination: Option<&'static str>,
    /// As in `state`.
    pub termination_side: Option<&'static str>,
    /// The clock.
    pub time_control: Option<String>,
    /// The rule set's id.
    pub rules: &'static str,
    /// `standard` or `chess960`.
    pub variant: &'static str,
    /// Rated.
    pub rated: bool,
    /// Its pool.
    pub perf: Option<String>,
    /// The player's rating before it.
    pub rating: Option<i64>,
    /// The opponent's.
    pub opponent_rating: Option<i64>,
    /// The player's change.
    pub rating_diff: Option<i64>,
    /// The opening, if named.
    pub opening: Option<Opening>,
    /// Always `null` (reserved for the player's accuracy).
    pub accuracy: Value,
}

/// `GET /api/players/{name}`.
#[derive(Debug, Serialize)]
pub struct PlayerPage {
    /// Name.
    pub name: String,
    /// Whether it is the caller.
    pub you: bool,
    /// A pupil's account.
    pub managed: bool,
    /// When created (wall, ms).
    pub created_ms: i64,
    /// Its pools.
    pub ratings: Vec<Pool>,
    /// Its score.
    pub score: ScoreView,
    /// Its recent games.
    pub games: Vec<PlayerGame>,
}

/// `GET /api/players/{name}/vs/{other}`.
#[derive(Debug, Serialize)]
pub struct HeadToHead {
    /// The player.
    pub name: String,
    /// The opponent.
    pub opponent: String,
    /// The player's score against it.
    pub score: ScoreView,
    /// Their games.
    pub games: Vec<PlayerGame>,
}
