//! The game and account routes' answers (docs/protocol.md "HTTP API"): a
//! seat, `/api/me`, the caller's games, seeks posted and accepted.

use escaque_analysis::Opening;
use serde::{Deserialize, Serialize};

/// A seat in a game: what creating, joining, reclaiming a seat and
/// accepting a seek answer.
#[derive(Clone, Debug, Serialize)]
pub struct Seat {
    /// The game.
    pub game: String,
    /// `white` or `black`.
    pub seat: &'static str,
    /// The seat's secret.
    pub secret: String,
    /// The seat's socket.
    pub ws: String,
    /// A spectator's socket.
    pub watch: String,
    /// The challenge's join route.
    pub challenge: String,
}

impl Seat {
    /// Seat `seat` of `game`, opened by `secret`.
    pub fn new(game: &str, seat: &'static str, secret: &str) -> Seat {
        Seat {
            game: game.to_string(),
            seat,
            secret: secret.to_string(),
            ws: format!("/ws/games/{game}?seat={secret}"),
            watch: format!("/ws/games/{game}"),
            challenge: format!("/api/games/{game}/join"),
        }
    }
}

/// The lobby socket's `seek_accepted`, to the seek's poster: its seat.
#[derive(Debug, Serialize)]
pub struct SeekAccepted {
    /// Always `seek_accepted`.
    pub t: &'static str,
    /// The seek.
    pub seek: String,
    /// The poster's seat.
    #[serde(flatten)]
    pub seat: Seat,
}

/// `201 {"seek"}`: a seek posted.
#[derive(Debug, Serialize)]
pub struct SeekPosted {
    /// Its id.
    pub seek: String,
}

/// `GET /api/seeks`.
#[derive(Debug, Serialize)]
pub struct SeekList<S: Serialize> {
    /// The seeks the caller is shown.
    pub seeks: Vec<S>,
}

/// `GET /api/me`.
#[derive(Debug, Serialize)]
pub struct Me {
    /// Display name.
    pub name: String,
    /// An account (not a guest).
    pub account: bool,
    /// A pupil's account.
    pub managed: bool,
    /// May create classes.
    pub may_teach: bool,
    /// A pupil's class.
    pub class: Option<String>,
}

/// One of the caller's games.
#[derive(Debug, Serialize)]
pub struct MyGame {
    /// Game id.
    pub game: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Status.
    pub status: String,
    /// The result (PGN).
    pub result: Option<&'static str>,
    /// As in `state`.
    pub termination: Option<&'static str>,
    /// As in `state`.
    pub termination_side: Option<&'static str>,
    /// The clock.
    pub time_control: Option<String>,
    /// The rule set's id.
    pub rules: &'static str,
    /// When created (wall, ms).
    pub created_ms: i64,
    /// `standard` or `chess960`.
    pub variant: &'static str,
    /// The caller's colour.
    pub you: &'static str,
    /// The opening, if named.
    pub opening: Option<Opening>,
}

/// `GET /api/me/games`.
#[derive(Debug, Serialize)]
pub struct MyGames {
    /// Newest first.
    pub games: Vec<MyGame>,
}

/// `{"name","account":true}`: signed up or logged in.
#[derive(Debug, Serialize)]
pub struct LoggedIn {
    /// The account's name, as stored.
    pub name: String,
    /// Always true.
    pub account: bool,
}

/// One move of a game's replay.
#[derive(Debug, Serialize)]
pub struct ReplayMove {
    /// Its index, from 0.
    pub ply: usize,
    /// In coordinates.
    pub uci: String,
    /// SAN, English.
    pub san: String,
    /// SAN, Spanish.
    pub san_es: String,
    /// The position after it.
    pub fen: String,
    /// Whether it gives check.
    pub check: bool,
    /// The mover's clock after it, ms.
    pub clock_ms: Option<i64>,
}

/// `GET /api/games/{id}/positions`: every position of a game, for replay.
#[derive(Debug, Serialize)]
pub struct Replay {
    /// Game id.
    pub game: String,
    /// The start position.
    pub start_fen: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result (PGN).
    pub result: Option<&'static str>,
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
    /// The opening, if named.
    pub opening: Option<Opening>,
    /// The moves.
    pub moves: Vec<ReplayMove>,
}

/// `GET /salud`: this process's health (Spanish names, as the deployment
/// guide's checks read them).
#[derive(Debug, Serialize)]
pub struct Health {
    /// The process's name.
    pub nodo: String,
    /// `up` or `stopping`.
    pub estado: &'static str,
    /// Games it holds.
    pub partidas: usize,
}

/// `POST /api/games`: a new game (docs/protocol.md "Creating a game").
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// `engine` or `friend`.
    pub opponent: String,
    /// The engine's level, 1–10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// `white`, `black`, `random`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// The clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// The rule set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Odds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub odds: Option<String>,
    /// A start position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// A rated game (friend challenges between accounts only).
    #[serde(default)]
    pub rated: bool,
    /// `standard` (default) or `chess960`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// A Chess960 starting position: 0–959 or `random` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
    /// The homework item this game is (issue 57, "juego tras la tarea"):
    /// `{class, homework, item}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homework: Option<crate::proto::tareas::HomeworkGame>,
}

/// `POST /api/signup` and `POST /api/login`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The account's name.
    pub name: String,
    /// Its password.
    pub password: String,
}
