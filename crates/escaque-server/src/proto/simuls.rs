//! The simul routes' answers (docs/protocol.md "Simuls"): a new simul's
//! boards, the grid, a restarted board, a class's simuls.

use serde::Serialize;
use serde_json::Value;

/// One board of a new simul, with the host's seat.
#[derive(Debug, Serialize)]
pub struct NewBoard {
    /// Board number, from 1.
    pub board: u32,
    /// The pupil's account name.
    pub pupil: String,
    /// The game.
    pub game: String,
    /// The host's colour on it.
    pub color: &'static str,
    /// The host's seat secret.
    pub secret: String,
    /// The host's seat socket.
    pub ws: String,
}

/// `201` to `POST /api/classes/{id}/simuls`.
#[derive(Debug, Serialize)]
pub struct SimulCreated {
    /// The simul.
    pub id: String,
    /// Its page, `/simul/ID`.
    pub url: String,
    /// The boards, in order.
    pub boards: Vec<NewBoard>,
}

/// One board of the grid: its current game.
#[derive(Debug, Serialize)]
pub struct GridBoard {
    /// Board number.
    pub board: u32,
    /// The pupil's account name.
    pub pupil: String,
    /// The current game.
    pub game: String,
    /// Its attempt (1, then one more at each restart).
    pub attempt: u32,
    /// As in its `state`.
    pub status: String,
    /// As in its `state`.
    pub result: Option<String>,
    /// As in its `state`.
    pub termination: Option<String>,
    /// The host's colour on the board.
    pub host_color: &'static str,
    /// `host` or `pupil` while played, else `null`.
    pub to_move: Option<&'static str>,
    /// As in its `state`.
    pub fen: Option<String>,
    /// The last move in coordinates.
    pub last_move: Option<String>,
    /// As in its `state`.
    pub plies: Option<u64>,
    /// As in its `state` (`crate::proto::ClockView`), `null` without one.
    pub clock: Value,
}

/// The simul's score.
#[derive(Debug, Serialize)]
pub struct Score {
    /// The host's points.
    pub host: f64,
    /// The pupils' points.
    pub pupils: f64,
}

/// `GET /api/simuls/{id}`: the grid.
#[derive(Debug, Serialize)]
pub struct Grid {
    /// The simul.
    pub id: String,
    /// Its class.
    pub class: String,
    /// The host's account name.
    pub host: String,
    /// Every board's clock, `null` without.
    pub time_control: Option<String>,
    /// `white`, `black` or `random`, as asked.
    pub host_color: String,
    /// When created (wall, ms).
    pub created_ms: i64,
    /// `host`, `teacher` or `pupil`.
    pub you: &'static str,
    /// The asking pupil's board.
    pub your_board: Option<u32>,
    /// The boards.
    pub boards: Vec<GridBoard>,
    /// The score.
    pub score: Score,
}

/// `201` to `POST /api/simuls/{id}/boards/{board}/restart`.
#[derive(Debug, Serialize)]
pub struct Restarted {
    /// Board number.
    pub board: u32,
    /// The new game.
    pub game: String,
    /// Its attempt.
    pub attempt: u32,
    /// The host's colour.
    pub color: &'static str,
    /// The host's seat secret, to the host only.
    pub secret: Option<String>,
    /// The host's seat socket, to the host only.
    pub ws: Option<String>,
}

/// One simul in a class's list.
#[derive(Debug, Serialize)]
pub struct SimulItem {
    /// The simul.
    pub id: String,
    /// The host's account name.
    pub host: String,
    /// Every board's clock.
    pub time_control: Option<String>,
    /// `white`, `black` or `random`.
    pub host_color: String,
    /// When created (wall, ms).
    pub created_ms: i64,
    /// How many boards.
    pub boards: usize,
    /// How many of their current games are not over.
    pub in_play: usize,
}

/// An active pupil of the class, for the simul form.
#[derive(Debug, Serialize)]
pub struct PupilOnline {
    /// Account name.
    pub name: String,
    /// Online now.
    pub online: bool,
}

/// `GET /api/classes/{id}/simuls`.
#[derive(Debug, Serialize)]
pub struct SimulList {
    /// The last simuls, newest first.
    pub simuls: Vec<SimulItem>,
    /// The class's active pupils.
    pub pupils: Vec<PupilOnline>,
}
