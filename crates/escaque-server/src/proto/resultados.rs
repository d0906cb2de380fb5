//! Results entered by the players from a QR code (issue 59; docs/protocol.md
//! "Results by the players"): what a board's code opens, what a phone
//! sends, the arbiter's list of a round and the log.

use serde::{Deserialize, Serialize};

/// A player of a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardPlayer {
    /// Start number.
    pub number: u32,
    /// Name as the tournament has it.
    pub name: String,
}

/// `GET /api/resultados/{code}` and the answer to a phone's entry: one
/// board as its code opens it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardResult {
    /// The tournament's id.
    pub tournament: String,
    /// The tournament's name.
    pub tournament_name: String,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// White.
    pub white: BoardPlayer,
    /// Black.
    pub black: BoardPlayer,
    /// `missing`, `entered` (one side said it), `conflict` (the sides
    /// disagree), `confirmed` (both agreed: in the standings), `arbiter`
    /// (an organiser entered it: in the standings).
    pub state: &'static str,
    /// What White's side said (`1-0`, `0-1`, `½-½`, `+-`, `-+`; a phone
    /// gives no unusual result), if anything.
    pub white_claim: Option<String>,
    /// What Black's side said.
    pub black_claim: Option<String>,
    /// The result in the standings, once confirmed or entered by an
    /// organiser: `1-0`, `0-1`, `½-½`, `+-`, `-+`, `--`, or the unusual
    /// `½-0`, `0-½`, `0-0` as such (never the `½-½` they are stored with).
    pub result: Option<String>,
    /// Whether the phones may still enter or confirm (no final result
    /// yet).
    pub open: bool,
}

/// `POST /api/resultados/{code}`: a phone enters or confirms a result.
/// `tournament`, `round` and `board` are those the phone was shown: a code
/// that names another board is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnterResult {
    /// The tournament's id.
    pub tournament: String,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// Who enters it: `white` or `black`.
    pub side: String,
    /// `1-0`, `0-1`, `½-½` (`1/2-1/2`), `+-` or `-+` (`--`, `*` and the
    /// unusual `½-0`, `0-½`, `0-0` are the arbiter's: refused).
    pub result: String,
}

/// `POST /api/tournaments/{id}/resultados/{round}/{board}`: an organiser
/// (the arbiter) enters, overrides or clears (`*`) a board's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArbiterResult {
    /// Any result the desk takes (`1-0`, `0-1`, `½-½`, `+-`, `-+`, `--`,
    /// and the unusual `½-0`, `0-½`, `0-0`), `*` to clear it.
    pub result: String,
}

/// The answer to [`ArbiterResult`]: the board as its code opens it, and
/// what it held in the standings before (as the desk's result endpoint
/// answers `previous`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArbiterSet {
    /// The board (`state` `arbiter`, or `missing` once cleared).
    #[serde(flatten)]
    pub board: BoardResult,
    /// The board's result in the standings before this one (`1-0`, …, an
    /// unusual `½-0`, `0-½`, `0-0` by its own text, not the `½-½` it is
    /// stored with); `null` when it had none. The page says "Mesa 3
    /// corregida: antes 1-0" when it differs from `result`.
    pub previous: Option<&'static str>,
}

/// One board of the arbiter's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArbiterBoard {
    /// The board as its code opens it.
    #[serde(flatten)]
    pub board: BoardResult,
    /// The board's secret code.
    pub code: String,
    /// The phone's page, `/resultado/{code}`.
    pub url: String,
}

/// How many boards of a round are in each state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StateCounts {
    /// No side said anything.
    pub missing: u32,
    /// One side said it.
    pub entered: u32,
    /// The sides disagree.
    pub conflict: u32,
    /// Both agreed.
    pub confirmed: u32,
    /// An organiser entered it.
    pub arbiter: u32,
}

/// `GET /api/tournaments/{id}/resultados/{round}`: a round's boards for
/// the arbiter, conflicts first, then the missing and the half-entered,
/// then those in the standings (each group by board).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundResults {
    /// The tournament's id.
    pub tournament: String,
    /// The round.
    pub round: u32,
    /// The round being played (the last paired); only its codes are
    /// taken.
    pub current_round: u32,
    /// The boards per state.
    pub counts: StateCounts,
    /// The boards.
    pub boards: Vec<ArbiterBoard>,
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogLine {
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// When (wall, ms since the epoch).
    pub at_ms: i64,
    /// `white` or `black` (a phone with the board's code), or the
    /// organiser's name.
    pub who: String,
    /// `entered`, `confirmed`, `conflict`, `arbiter`, `override`,
    /// `cleared`.
    pub action: String,
    /// The result given.
    pub result: Option<String>,
    /// What the board held before, for `override` and `cleared`.
    pub previous: Option<String>,
}

/// `GET /api/tournaments/{id}/resultados`: the tournament's log, oldest
/// first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultLog {
    /// The tournament's id.
    pub tournament: String,
    /// The lines.
    pub lines: Vec<LogLine>,
}
