//! Online team play (issue 59; docs/protocol.md "Team tournaments",
//! "Online team play"): the option that makes a team tournament an online
//! one, and the boards' games as the players and the watchers see them.

use serde::{Deserialize, Serialize};

/// `online` in `POST /api/equipos`: the team tournament is played on the
/// server, each board a game between the two boards' accounts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnlineOptions {
    /// The games' clock, as the server's games write it (`10+5`, `3+2`…).
    pub time_control: String,
    /// Seconds a player may take to make the first move before losing the
    /// board by forfeit (10 to 3600; 120 when not given).
    #[serde(default)]
    pub no_show_s: Option<u32>,
}

/// One board's game of an online team tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamGame {
    /// The round.
    pub round: u32,
    /// The match's table.
    pub table: u32,
    /// The board.
    pub board: u32,
    /// The game's id.
    pub game: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's team.
    pub white_team: String,
    /// Black's team.
    pub black_team: String,
    /// The board's result White–Black once in the standings (`null`
    /// before).
    pub result: Option<String>,
    /// Whether the game is still being played.
    pub playing: bool,
    /// The game's page, `/partida/{game}`.
    pub watch: String,
}

/// `GET /api/equipos/{id}/partidas`: the boards' games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamGames {
    /// The games' clock.
    pub time_control: String,
    /// Every board's game, by round, table and board.
    pub games: Vec<TeamGame>,
}

/// `GET /api/equipos/{id}/mi-tablero`: the asking account's board of the
/// round being played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyBoard {
    /// The board's game, as in `partidas`.
    pub my_game: TeamGame,
    /// The asker's seat: `white` or `black`.
    pub color: String,
    /// The asker's team.
    pub team: String,
}
