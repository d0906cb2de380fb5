//! The tournament routes' answers and the tournament socket's frames
//! (docs/protocol.md "Tournaments"): the view (`GET /api/tournaments/{id}`,
//! the socket's `tournament` frame), the list, the countdown, and the short
//! answers of the organiser's and players' routes.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A player of the view.
#[derive(Debug, Serialize)]
pub struct PlayerItem {
    /// Starting number.
    pub number: u32,
    /// Name.
    pub name: String,
    /// Club ("" if none).
    pub club: String,
    /// Category ("" if none).
    pub category: String,
    /// Year of birth.
    pub birth_year: Option<u16>,
    /// Rating.
    pub rating: Option<u16>,
    /// FIDE id.
    pub fide_id: Option<u64>,
    /// Title ("" if none).
    pub title: String,
    /// The round from which the player is withdrawn.
    pub withdrawn_from: Option<u32>,
    /// Points.
    pub points: f64,
    /// An online event's player who said "present".
    pub present: bool,
    /// An online event's player with an account or guest behind it.
    pub online: bool,
}

/// A board of a round.
#[derive(Debug, Serialize)]
pub struct BoardItem {
    /// Board number.
    pub board: usize,
    /// White's starting number.
    pub white: u32,
    /// Black's.
    pub black: u32,
    /// `1-0`, `0-1`, `½-½`, `+-`, `-+`, `--`, or an unusual `½-0`, `0-½`,
    /// `0-0` (each player scores their own); `null` while pending.
    pub result: Option<&'static str>,
    /// An online board's game.
    pub game: Option<String>,
}

/// A bye of a round.
#[derive(Debug, Serialize)]
pub struct ByeItem {
    /// The player's starting number.
    pub player: u32,
    /// `pairing`, `half`, `full`, `zero`.
    pub kind: &'static str,
}

/// A round of the view.
#[derive(Debug, Serialize)]
pub struct RoundItem {
    /// Round number.
    pub number: usize,
    /// Its boards.
    pub boards: Vec<BoardItem>,
    /// Its byes.
    pub byes: Vec<ByeItem>,
}

/// A row of standings.
#[derive(Debug, Serialize)]
pub struct StandingRow {
    /// Rank.
    pub rank: u32,
    /// Starting number.
    pub number: u32,
    /// Name.
    pub name: String,
    /// Club.
    pub club: String,
    /// Category.
    pub category: String,
    /// Points.
    pub points: f64,
    /// The tie-breaks' values, in the event's order.
    pub tiebreaks: Vec<f64>,
}

/// A tie-break of the event.
#[derive(Debug, Serialize)]
pub struct TieBreakItem {
    /// Its id.
    pub id: &'static str,
    /// Spanish name.
    pub name_es: &'static str,
    /// English name.
    pub name_en: &'static str,
}

/// The standings of the view.
#[derive(Debug, Serialize)]
pub struct Standings {
    /// The last round with every result in.
    pub after_round: u32,
    /// The round being played, if any.
    pub in_progress: Option<u32>,
    /// The tie-breaks.
    pub tiebreaks: Vec<TieBreakItem>,
    /// The rows.
    pub rows: Vec<StandingRow>,
}

/// A category's standings.
#[derive(Debug, Serialize)]
pub struct CategoryItem {
    /// The category.
    pub name: String,
    /// Its rows.
    pub rows: Vec<StandingRow>,
}

/// A team (club) of the team standings.
#[derive(Debug, Serialize)]
pub struct TeamItem {
    /// Rank.
    pub rank: u32,
    /// Club.
    pub name: String,
    /// Points of the counted players.
    pub points: f64,
    /// The counted players' numbers.
    pub players: Vec<u32>,
}

/// A player's rating change (FIDE's formula).
#[derive(Debug, Serialize)]
pub struct RatingChangeItem {
    /// Starting number.
    pub number: u32,
    /// Rated games.
    pub games: u32,
    /// Expected score.
    pub expected: f64,
    /// Score.
    pub score: f64,
    /// K factor.
    pub k: f64,
    /// Change.
    pub change: f64,
}

/// The view without the caller's part ([`ViewFor`] adds it).
#[derive(Debug, Serialize)]
pub struct TournamentView {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// `otb` or `online`.
    pub mode: String,
    /// `registration`, `playing`, `finished`…
    pub status: String,
    /// `dutch`, `round_robin`, `double_round_robin`.
    pub system: &'static str,
    /// Rounds planned.
    pub rounds_planned: u32,
    /// The server's settings (`crate::tournament::Settings`, as stored).
    pub settings: Value,
    /// Rounds paired.
    pub round: u32,
    /// Whether the last paired round has every result.
    pub round_complete: bool,
    /// The players.
    pub players: Vec<PlayerItem>,
    /// The rounds.
    pub rounds: Vec<RoundItem>,
    /// The standings.
    pub standings: Standings,
    /// By category.
    pub categories: Vec<CategoryItem>,
    /// By club.
    pub teams: Vec<TeamItem>,
    /// Players counted per club.
    pub team_size: u32,
    /// Rating changes after the complete rounds.
    pub rating_changes: Vec<RatingChangeItem>,
    /// An online event's countdown to its next round.
    pub countdown_ms: Option<u64>,
}

/// The view as one identity sees it.
#[derive(Debug, Serialize)]
pub struct ViewFor<'a> {
    /// The view.
    #[serde(flatten)]
    pub view: &'a TournamentView,
    /// Whether the caller may organise it.
    pub can_edit: bool,
    /// The caller's starting number, if it plays.
    pub me: Option<u32>,
}

/// The socket's `{"t":"tournament","view":…}`.
#[derive(Debug, Serialize)]
pub struct TournamentMsg<'a> {
    /// Always `tournament`.
    pub t: &'static str,
    /// The view.
    pub view: &'a ViewFor<'a>,
}

/// The socket's `{"t":"countdown","round","ms"}`: the next round of an
/// online event is paired in `ms` milliseconds.
#[derive(Debug, Serialize)]
pub struct Countdown {
    /// Always `countdown`.
    pub t: &'static str,
    /// The round to be paired.
    pub round: u32,
    /// In how long.
    pub ms: u64,
}

/// One event of `GET /api/tournaments`.
#[derive(Debug, Serialize)]
pub struct ListItem {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// `otb` or `online`.
    pub mode: String,
    /// Status.
    pub status: String,
    /// System id.
    pub system: &'static str,
    /// Rounds planned.
    pub rounds: u32,
    /// Rounds paired.
    pub round: usize,
    /// Players.
    pub players: usize,
}

/// `201 {"id"}`: an event created or imported.
#[derive(Debug, Serialize)]
pub struct Created {
    /// Its id.
    pub id: String,
}

/// `{"number"}`: a player entered, edited, withdrawn.
#[derive(Debug, Serialize)]
pub struct Number {
    /// Starting number.
    pub number: u32,
}

/// `{"number","round"}`: a bye asked.
#[derive(Debug, Serialize)]
pub struct NumberRound {
    /// Starting number.
    pub number: u32,
    /// Round.
    pub round: u32,
}

/// `{"number","present":true}`.
#[derive(Debug, Serialize)]
pub struct Present {
    /// Starting number.
    pub number: u32,
    /// Always true.
    pub present: bool,
}

/// `{"added"}`: players imported.
#[derive(Debug, Serialize)]
pub struct Added {
    /// How many.
    pub added: usize,
}

/// `{"players"}`: a pairing forbidden.
#[derive(Debug, Serialize)]
pub struct Forbidden {
    /// The players' numbers.
    pub players: Vec<u32>,
}

/// `{"account"}`: a co-organiser added.
#[derive(Debug, Serialize)]
pub struct Organiser {
    /// The account's name.
    pub account: String,
}

/// `{"round"}`: a round paired.
#[derive(Debug, Serialize)]
pub struct Paired {
    /// The round.
    pub round: u32,
}

/// `{"round","board","result","previous"}`: a result entered.
#[derive(Debug, Serialize)]
pub struct ResultSet {
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// The result, `null` when cleared.
    pub result: Option<&'static str>,
    /// What the board held before (`½-0`, `0-½`, `0-0` for an unusual
    /// one, not the `½-½` it is stored with), `null` when it had none: the
    /// desk says "Corregido: antes …" when it differs from `result`.
    pub previous: Option<&'static str>,
}

/// `{"game","color","seconds"}`: time added to a player's clock.
#[derive(Debug, Serialize)]
pub struct TimeAdded {
    /// The game.
    pub game: String,
    /// The side, as asked.
    pub color: String,
    /// Seconds added.
    pub seconds: u32,
}

/// `POST /api/tournaments/{id}/join`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    /// A guest's name (an account plays under its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}
