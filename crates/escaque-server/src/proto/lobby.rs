//! The lobby socket's messages (`/ws/lobby`, docs/protocol.md "Lobby"):
//! the seeks a viewer is shown, and the private `your_game` that takes a
//! player to a game somebody else started for them (a class game, a
//! simul's board, an online tournament's round).

use serde::Serialize;

/// `{"t":"seeks","seeks":[…]}`: the open seeks this viewer is shown.
#[derive(Debug, Serialize)]
pub struct SeeksMsg<'a, S: Serialize> {
    /// Always `seeks`.
    pub t: &'static str,
    /// The seeks.
    pub seeks: &'a [S],
}

impl<'a, S: Serialize> SeeksMsg<'a, S> {
    /// The message for `seeks`.
    pub fn new(seeks: &'a [S]) -> Self {
        SeeksMsg { t: "seeks", seeks }
    }
}

/// `your_game`: a seat in a game started for this player, with its secret
/// (sent to the seat's owner only).
#[derive(Clone, Debug, Serialize)]
pub struct YourGame {
    /// Always `your_game`.
    pub t: &'static str,
    /// An online tournament's game: the tournament's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// An online tournament's game: its round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// A tournament's or a simul's board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
    /// The game.
    pub game: String,
    /// The seat: `white` or `black`.
    pub color: &'static str,
    /// The seat's secret.
    pub secret: String,
    /// The seat's socket, `/ws/games/{game}?seat={secret}`.
    pub ws: String,
    /// The game's page, `/partida/{game}`.
    pub watch: String,
    /// The class the game is played in (a class game, a simul, a class's
    /// tournament).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// A simul's board: the simul.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simul: Option<String>,
}

impl YourGame {
    /// Seat `color` (`white`/`black`) of `game`, opened by `secret`; the
    /// other fields empty.
    pub fn new(game: &str, color: &'static str, secret: &str) -> YourGame {
        YourGame {
            t: "your_game",
            tournament: None,
            round: None,
            board: None,
            game: game.to_string(),
            color,
            secret: secret.to_string(),
            ws: format!("/ws/games/{game}?seat={secret}"),
            watch: format!("/partida/{game}"),
            class: None,
            simul: None,
        }
    }

    /// As text, for a socket.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The games being played, as the lobby lists them: each a
/// `crate::proto::LiveGame`, merged from every process (as each stored its
/// part, hence JSON values).
#[derive(Debug, Serialize)]
pub struct LiveList<'a> {
    /// The games, most moves first.
    pub games: &'a [serde_json::Value],
}

/// The lobby socket's `{"t":"live","games":[…]}`.
#[derive(Debug, Serialize)]
pub struct LiveMsg<'a> {
    /// Always `live`.
    pub t: &'static str,
    /// The games.
    pub games: &'a [serde_json::Value],
}
