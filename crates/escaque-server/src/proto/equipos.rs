//! Team tournaments on the server (issue 59, teams; docs/protocol.md
//! "Team tournaments"): the organiser's desk (create, teams with rosters,
//! line-ups, pairing, results by board, whole-match forfeits), the view
//! with standings and team tie-breaks, the match codes and what a phone
//! sends from a team match's QR code.

use serde::{Deserialize, Serialize};

/// `POST /api/equipos`: a new team tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTeamTournament {
    /// The tournament's name.
    pub name: String,
    /// `suizo` (FIDE C.04.6), `liguilla` (round robin, Berger tables),
    /// `liguilla_doble`, `scheveningen`, `scheveningen_doble`.
    pub system: String,
    /// Rounds of a Swiss (a round robin and a Scheveningen have the rounds
    /// their system gives; a number here is refused for them).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Boards per match (1 to 20).
    pub boards: u32,
    /// Match points for a win, draw and loss, `2/1/0` by default (any
    /// win > draw ≥ loss, e.g. `3/1/0`).
    #[serde(default)]
    pub scoring: Option<String>,
    /// City, printed on the sheets.
    #[serde(default)]
    pub city: Option<String>,
    /// School rules (none by default).
    #[serde(default)]
    pub school: Option<SchoolRulesBody>,
    /// The Baku acceleration (C.04.7, match points) of a Swiss; `false`
    /// by default, refused for the other systems.
    #[serde(default)]
    pub baku: bool,
}

/// A school rule of the roster: at least `players` of `category`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategoryQuota {
    /// The category as the rosters write it (`F`, `sub12`…).
    pub category: String,
    /// At least this many players of it in every roster (1 to 30).
    pub players: u32,
}

/// School rules: how many teams a school may enter, the categories every
/// roster needs, how many teams of a school count in the school ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchoolRulesBody {
    /// At most this many teams per school (1 to 99; none: no limit).
    #[serde(default)]
    pub max_teams: Option<u32>,
    /// Every roster needs these players (at most 10 categories).
    #[serde(default)]
    pub categories: Vec<CategoryQuota>,
    /// The school ranking adds up each school's best `counted` teams (1 to
    /// 99; 1 by default).
    #[serde(default)]
    pub counted: Option<u32>,
}

/// A school's line in the school ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchoolStandingView {
    /// Place.
    pub rank: u32,
    /// The school.
    pub school: String,
    /// Match points of its counted teams.
    pub match_points: u32,
    /// Game points of its counted teams (`7½`).
    pub game_points: String,
    /// The teams counted, best first.
    pub teams: Vec<u32>,
}

/// A player of a new team's roster: a name, or an account of the server
/// (its name is the player's), or both.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewMember {
    /// The player's name (the account's when empty).
    #[serde(default)]
    pub name: Option<String>,
    /// An account of this server: it must exist; one account plays in one
    /// team only.
    #[serde(default)]
    pub account: Option<String>,
    /// Rating (the roster is sorted by it unless the order is fixed).
    #[serde(default)]
    pub rating: Option<u16>,
    /// Category for the school rules (`sub10`, `F`…).
    #[serde(default)]
    pub category: Option<String>,
}

/// `POST /api/equipos/{id}/equipos`: a team enters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTeam {
    /// The team's name.
    pub name: String,
    /// Its school or club.
    #[serde(default)]
    pub school: Option<String>,
    /// The roster's order is the one given (otherwise by rating, highest
    /// first).
    #[serde(default)]
    pub fixed_order: bool,
    /// The captain: a place in `members`, from 1.
    #[serde(default)]
    pub captain: Option<u32>,
    /// The roster (1 to 30 players).
    pub members: Vec<NewMember>,
}

/// `POST /api/equipos/{id}/alineacion`: a team's line-up for a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lineup {
    /// The round.
    pub round: u32,
    /// The team's number.
    pub team: u32,
    /// Places in the roster (from 1), board 1 first, in the roster's
    /// order; fewer than the boards leave the last boards empty.
    pub players: Vec<u32>,
}

/// `POST /api/equipos/{id}/prohibidos`: teams that must not meet (a Swiss
/// only): every two of `teams`, and with `same_school` every two teams of
/// one school or club.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForbiddenPairing {
    /// Team numbers (two at least, unless `same_school`).
    #[serde(default)]
    pub teams: Vec<u32>,
    /// Keep the teams of each school or club apart.
    #[serde(default)]
    pub same_school: bool,
}

/// `POST /api/equipos/{id}/descansos`: a team asks not to be paired in a
/// round not yet paired (a Swiss only); asked again for the same round and
/// team, the new kind replaces the old.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamByeRequest {
    /// The round, one not yet paired.
    pub round: u32,
    /// The team's number.
    pub team: u32,
    /// `completo` (a won match's match points and a point a board),
    /// `medio` (a drawn match's and half a point a board) or `cero`.
    pub kind: String,
}

/// A requested bye in the view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestedByeView {
    /// The round.
    pub round: u32,
    /// The team's number.
    pub team: u32,
    /// `completo`, `medio` or `cero`.
    pub kind: String,
}

/// `POST /api/equipos/{id}/resultado`: an organiser enters (or corrects,
/// or clears with `*`) a board's result as the scoresheet says it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardResultBody {
    /// The round.
    pub round: u32,
    /// The match's table.
    pub table: u32,
    /// The board.
    pub board: u32,
    /// White–Black: `1-0`, `0-1`, `½-½`, `+-`, `-+`, `--`, `*`.
    pub result: String,
}

/// `POST /api/equipos/{id}/incomparecencia`: a whole match forfeited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchForfeit {
    /// The round.
    pub round: u32,
    /// The match's table.
    pub table: u32,
    /// Who did not come: `home` (the first-named team), `away` or `both`.
    pub by: String,
}

/// `POST /api/equipos/codigo/{code}`: a phone with a match's code enters
/// or confirms one board's result for its team. `tournament`, `round` and
/// `table` are those the phone was shown: a code of another match is
/// refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhoneEntry {
    /// The tournament's id.
    pub tournament: String,
    /// The round.
    pub round: u32,
    /// The match's table.
    pub table: u32,
    /// The board.
    pub board: u32,
    /// For which team the phone speaks: `home` or `away`.
    pub side: String,
    /// White–Black: `1-0`, `0-1`, `½-½`, `+-`, `-+`.
    pub result: String,
}

/// `POST /api/equipos`: the new tournament's id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    /// The id.
    pub id: String,
}

/// `POST /api/equipos/{id}/equipos`: the new team's number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamEntered {
    /// The team's number.
    pub team: u32,
}

/// `POST /api/equipos/{id}/emparejar`: the round paired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paired {
    /// The round's number.
    pub round: u32,
}

/// A roster player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberView {
    /// Place in the roster (board order), from 1.
    pub order: u32,
    /// Name.
    pub name: String,
    /// Rating.
    pub rating: Option<u16>,
    /// Category.
    pub category: String,
    /// The linked account's name, if any.
    pub account: Option<String>,
}

/// A team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamView {
    /// Number.
    pub number: u32,
    /// Name.
    pub name: String,
    /// School or club.
    pub school: String,
    /// The captain's place in the roster.
    pub captain: Option<u32>,
    /// The roster, in board order.
    pub members: Vec<MemberView>,
}

/// One board of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    /// Board number.
    pub board: u32,
    /// The first-named team's player (`None`: the board is empty).
    pub home_player: Option<String>,
    /// The second-named team's player.
    pub away_player: Option<String>,
    /// Who has White: `home` or `away`.
    pub white: String,
    /// The result White–Black (`1-0`, `½-½`, `+/-`…), once in the
    /// standings.
    pub result: Option<String>,
    /// `missing`, `entered` (one team's phone said it), `conflict` (the
    /// two teams disagree), `confirmed` (both agreed), `arbiter` (an
    /// organiser entered it), `forfeit` (an empty board).
    pub state: String,
    /// What the first-named team's phone said, if anything.
    pub home_claim: Option<String>,
    /// What the second-named team's phone said.
    pub away_claim: Option<String>,
}

/// One match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchView {
    /// Table number.
    pub table: u32,
    /// The first-named team (White on board 1).
    pub home: u32,
    /// The second-named team.
    pub away: u32,
    /// Their names.
    pub home_name: String,
    /// The second's name.
    pub away_name: String,
    /// Game points so far (`2½`).
    pub home_points: String,
    /// The second's game points.
    pub away_points: String,
    /// Match points, once every board has a result.
    pub home_match_points: Option<u32>,
    /// The second's match points.
    pub away_match_points: Option<u32>,
    /// Every board has a result.
    pub complete: bool,
    /// The boards.
    pub boards: Vec<BoardView>,
}

/// One round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundView {
    /// Number.
    pub round: u32,
    /// Its matches by table.
    pub matches: Vec<MatchView>,
    /// The team with the pairing-allocated bye.
    pub bye: Option<u32>,
}

/// A tie-break's value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieValue {
    /// C.07's code (`GPTS`, `EMGSB`, `DE`…).
    pub code: String,
    /// The value as printed.
    pub value: String,
}

/// A team's place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingView {
    /// Place.
    pub rank: u32,
    /// Team number.
    pub team: u32,
    /// Team name.
    pub name: String,
    /// Match points.
    pub match_points: u32,
    /// Game points (`7½`).
    pub game_points: String,
    /// The tie-breaks, in the tournament's order.
    pub tiebreaks: Vec<TieValue>,
}

/// `GET /api/equipos/{id}`: the whole tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamTournamentView {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// As created (`suizo`, `liguilla`…).
    pub system: String,
    /// Boards per match.
    pub boards: u32,
    /// Rounds planned.
    pub total_rounds: u32,
    /// `registration`, `running`, `finished`.
    pub status: String,
    /// `2/1/0`.
    pub scoring: String,
    /// A Swiss with the Baku acceleration (C.04.7).
    pub baku: bool,
    /// Whoever asks may change it (an organiser).
    pub can_edit: bool,
    /// The round that can be paired now, if any.
    pub next_round: Option<u32>,
    /// The teams by number.
    pub teams: Vec<TeamView>,
    /// The rounds paired.
    pub rounds: Vec<RoundView>,
    /// The standings with the team tie-breaks.
    pub standings: Vec<StandingView>,
    /// Pairs of teams that must not meet, `[a, b]` with `a < b`.
    pub forbidden: Vec<[u32; 2]>,
    /// The byes teams asked for, by round then team.
    pub requested_byes: Vec<RequestedByeView>,
    /// The school rules, if the tournament has them.
    pub school: Option<SchoolRulesBody>,
    /// The school ranking (schools named by the teams; empty without).
    pub schools: Vec<SchoolStandingView>,
}

/// A match's secret code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchCode {
    /// Table.
    pub table: u32,
    /// The code.
    pub code: String,
    /// The link its QR code holds.
    pub link: String,
}

/// `GET /api/equipos/{id}/rondas/{round}/codigos` (organisers): the
/// round's match codes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchCodes {
    /// The round.
    pub round: u32,
    /// One per match, by table.
    pub matches: Vec<MatchCode>,
}

/// `GET /api/equipos/codigo/{code}` and the answer to a phone's entry: the
/// match the code opens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhoneMatch {
    /// The tournament's id.
    pub tournament: String,
    /// Its name.
    pub tournament_name: String,
    /// The round.
    pub round: u32,
    /// The match, its boards and what each side said.
    #[serde(rename = "match")]
    pub team_match: MatchView,
}

/// One step of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// When (wall, ms).
    pub at_ms: i64,
    /// Round.
    pub round: u32,
    /// Table.
    pub table: u32,
    /// Board.
    pub board: u32,
    /// `home`, `away` (a phone) or `arbiter`.
    pub who: String,
    /// `entered`, `confirmed`, `conflict`, `arbiter`, `override`.
    pub action: String,
    /// The result given.
    pub result: Option<String>,
    /// What the board held before, for an override.
    pub previous: Option<String>,
}

/// `GET /api/equipos/{id}/registro` (organisers): every step, oldest
/// first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamLog {
    /// The steps.
    pub entries: Vec<LogLine>,
}
