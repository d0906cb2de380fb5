//! The team tournament's domain: teams, rosters, line-ups, matches, results.
//!
//! Rules kept here (each refused with a reason, nothing changed):
//! - a team's **roster** is in board order: by rating, highest first (unrated
//!   last, ties in the order given), unless the organiser fixes the order
//!   ([`Team::fixed_order`]); a player belongs to one team only (same FIDE id,
//!   or same name and birth year, in two teams is refused);
//! - a **line-up** for a round names up to `boards` players of the roster in
//!   the roster's order (a later roster player never sits above an earlier
//!   one), each once; missing players leave the LAST boards empty, and an
//!   empty board is lost by forfeit (both empty: both lose);
//! - the line-up can change until a result of that match is entered;
//! - a **match** is won by the team with more game points; match points are
//!   the tournament's [`Scoring`] (2/1/0 by default, any win > draw ≥ loss the
//!   organiser announces, e.g. 3/1/0);
//! - a **whole-match forfeit** loses every board by forfeit; the match counts
//!   as unplayed for the tie-breaks.
//!
//! The team with White on board 1 is the match's first-named team ("home");
//! it has White on the odd boards and Black on the even boards (the usual
//! alternation; C.04.6 1.6.1: a team's colour is its colour on board 1).

use std::collections::BTreeSet;
use std::fmt;

use escaque::{Lang, Localized};

use crate::model::Outcome;
use crate::HalfPoints;

/// A team's number: its place in [`TeamTournament::teams`], from 1.
pub type TeamId = u32;

/// A player of a team's roster.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Member {
    pub name: String,
    pub rating: Option<u16>,
    pub fide_id: Option<u64>,
    /// The category the school rules count (e.g. "sub12", "F").
    pub category: String,
    pub sex: String,
    pub title: String,
    pub federation: String,
    pub birth_year: Option<u16>,
}

impl Member {
    pub fn new(name: &str) -> Member {
        Member {
            name: name.trim().to_string(),
            ..Member::default()
        }
    }

    pub fn rated(name: &str, rating: u16) -> Member {
        Member {
            rating: Some(rating),
            ..Member::new(name)
        }
    }

    /// Two entries are the same person: same FIDE id, or (without ids) the
    /// same name, ignoring case and spaces, and the same birth year.
    pub fn same_person(&self, other: &Member) -> bool {
        match (self.fide_id, other.fide_id) {
            (Some(a), Some(b)) => a == b,
            _ => normal(&self.name) == normal(&other.name) && self.birth_year == other.birth_year,
        }
    }
}

fn normal(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A team: its roster in board order and its captain.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Team {
    pub name: String,
    /// Short name or federation (TRF `310` columns 42-46).
    pub short: String,
    /// The school or club the team represents (school rules count by it).
    pub school: String,
    /// The roster, board order.
    pub members: Vec<Member>,
    /// The captain: an index into `members`.
    pub captain: Option<usize>,
    /// The organiser fixed the board order: the roster is not sorted by rating.
    pub fixed_order: bool,
}

impl Team {
    pub fn new(name: &str, members: Vec<Member>) -> Team {
        Team {
            name: name.trim().to_string(),
            members,
            ..Team::default()
        }
    }

    /// Sorts the roster by rating (highest first, unrated last, ties kept in
    /// the order given), unless the order is fixed; the captain follows.
    pub fn sort_roster(&mut self) {
        if self.fixed_order {
            return;
        }
        let mut idx: Vec<usize> = (0..self.members.len()).collect();
        idx.sort_by_key(|&i| std::cmp::Reverse(self.members[i].rating.unwrap_or(0)));
        self.captain = self.captain.and_then(|c| idx.iter().position(|&i| i == c));
        self.members = idx.iter().map(|&i| self.members[i].clone()).collect();
    }

    /// The average rating of the first `boards` rated players of the roster
    /// (the team's strength for the starting ranking), rounded down.
    pub fn average_rating(&self, boards: u32) -> Option<u32> {
        let r: Vec<u32> = self
            .members
            .iter()
            .take(boards as usize)
            .filter_map(|m| m.rating.map(u32::from))
            .collect();
        if r.is_empty() {
            None
        } else {
            Some(r.iter().sum::<u32>() / r.len() as u32)
        }
    }
}

/// The pairing system of a team tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeamSystem {
    /// FIDE C.04.6 Swiss Team Pairing System.
    Swiss,
    /// Round robin of teams, Berger tables.
    RoundRobin { double: bool },
    /// Scheveningen: two teams, every player against every player of the other.
    Scheveningen { double: bool },
}

/// Match points for a match won, drawn and lost, and what a pairing-allocated
/// bye gives.
///
/// The bye's value by default is C.04.6's (art. 1.4 as Gacrux, FIDE TEC's
/// reference tooling, and Sharly Chess apply it): a drawn match — a draw's
/// match points and half a point a board. The rules of a competition may
/// give a win's instead ([`Scoring::bye_as_win`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    /// Match points of a pairing-allocated bye (default: a draw's).
    pub bye_match_points: u32,
    /// Game points of a pairing-allocated bye, in half points; `None`: half
    /// a point per board (every board as drawn).
    pub bye_game_points: Option<HalfPoints>,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            win: 2,
            draw: 1,
            loss: 0,
            bye_match_points: 1,
            bye_game_points: None,
        }
    }
}

impl Scoring {
    /// The scoring `win`/`draw`/`loss` (a bye scores a draw, C.04.6 1.4);
    /// refused unless win > draw ≥ loss.
    pub fn new(win: u32, draw: u32, loss: u32) -> Result<Scoring, TeamError> {
        if win <= draw || draw < loss {
            return Err(TeamError::BadScoring { win, draw, loss });
        }
        Ok(Scoring {
            win,
            draw,
            loss,
            bye_match_points: draw,
            bye_game_points: None,
        })
    }

    /// The same scoring with the pairing-allocated bye worth a won match: a
    /// win's match points and a point a board of `boards` (what the rules
    /// of a competition may set instead of C.04.6's draw).
    pub fn bye_as_win(self, boards: u32) -> Scoring {
        Scoring {
            bye_match_points: self.win,
            bye_game_points: Some(2 * boards),
            ..self
        }
    }

    /// The game points (half points) of a pairing-allocated bye with
    /// `boards` boards.
    pub fn bye_game_points_for(&self, boards: u32) -> HalfPoints {
        self.bye_game_points.unwrap_or(boards)
    }

    /// Match points and game points (half points) of a requested bye of
    /// this kind with `boards` boards.
    pub fn requested_bye(&self, kind: RequestedBye, boards: u32) -> (u32, HalfPoints) {
        match kind {
            RequestedBye::Full => (self.win, 2 * boards),
            RequestedBye::Half => (self.draw, boards),
            RequestedBye::Zero => (0, 0),
        }
    }
}

/// A bye a team asked for before its round was paired (TRF-2026 record
/// `240`): the team is not paired in that round and scores, as C.04.2's
/// requested byes for individuals and the TRF's codes say, a won match and
/// a point a board (`F`, full point), a drawn match and half a point a
/// board (`H`, half point) or nothing (`Z`, zero). A team with a
/// full-point bye may not get the pairing-allocated bye (C.04.6 [C2]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RequestedBye {
    Full,
    Half,
    Zero,
}

impl RequestedBye {
    /// The TRF-2026 letter.
    pub fn code(self) -> char {
        match self {
            RequestedBye::Full => 'F',
            RequestedBye::Half => 'H',
            RequestedBye::Zero => 'Z',
        }
    }

    /// From a TRF-2026 letter (`F`, `H`, `Z`).
    pub fn from_code(c: char) -> Option<RequestedBye> {
        match c.to_ascii_uppercase() {
            'F' => Some(RequestedBye::Full),
            'H' => Some(RequestedBye::Half),
            'Z' => Some(RequestedBye::Zero),
            _ => None,
        }
    }
}

impl Scoring {
    /// Match points for `own` game points against `other`.
    pub fn match_points(&self, own: HalfPoints, other: HalfPoints) -> u32 {
        match own.cmp(&other) {
            std::cmp::Ordering::Greater => self.win,
            std::cmp::Ordering::Equal => self.draw,
            std::cmp::Ordering::Less => self.loss,
        }
    }
}

/// One side of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first-named team (White on board 1).
    Home,
    /// The second-named team.
    Away,
}

/// A board's result, seen from the match: the first-named team ("home") and
/// the second ("away").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardResult {
    Pending,
    HomeWins,
    Draw,
    AwayWins,
    /// The away player did not come (or the away team left the board empty).
    HomeForfeitWin,
    /// The home player did not come.
    AwayForfeitWin,
    /// Neither came.
    DoubleForfeit,
}

impl BoardResult {
    /// Game points (home, away) in half points.
    pub fn points(self) -> (HalfPoints, HalfPoints) {
        match self {
            BoardResult::Pending | BoardResult::DoubleForfeit => (0, 0),
            BoardResult::HomeWins | BoardResult::HomeForfeitWin => (2, 0),
            BoardResult::AwayWins | BoardResult::AwayForfeitWin => (0, 2),
            BoardResult::Draw => (1, 1),
        }
    }

    /// Played over the board.
    pub fn played(self) -> bool {
        matches!(
            self,
            BoardResult::HomeWins | BoardResult::Draw | BoardResult::AwayWins
        )
    }

    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            BoardResult::HomeForfeitWin | BoardResult::AwayForfeitWin | BoardResult::DoubleForfeit
        )
    }

    /// The board's result from White's and Black's result (`home_white`: the
    /// home player has White on this board).
    pub fn from_outcome(o: Outcome, home_white: bool) -> BoardResult {
        let r = match o {
            Outcome::WhiteWins => BoardResult::HomeWins,
            Outcome::BlackWins => BoardResult::AwayWins,
            Outcome::Draw => BoardResult::Draw,
            Outcome::WhiteForfeitWin => BoardResult::HomeForfeitWin,
            Outcome::BlackForfeitWin => BoardResult::AwayForfeitWin,
            Outcome::DoubleForfeit => BoardResult::DoubleForfeit,
            Outcome::Pending => BoardResult::Pending,
        };
        if home_white {
            r
        } else {
            r.swapped()
        }
    }

    /// The result as White-Black (`home_white`: the home player has White).
    pub fn outcome(self, home_white: bool) -> Outcome {
        let r = if home_white { self } else { self.swapped() };
        match r {
            BoardResult::HomeWins => Outcome::WhiteWins,
            BoardResult::AwayWins => Outcome::BlackWins,
            BoardResult::Draw => Outcome::Draw,
            BoardResult::HomeForfeitWin => Outcome::WhiteForfeitWin,
            BoardResult::AwayForfeitWin => Outcome::BlackForfeitWin,
            BoardResult::DoubleForfeit => Outcome::DoubleForfeit,
            BoardResult::Pending => Outcome::Pending,
        }
    }

    /// The same result with home and away exchanged.
    pub fn swapped(self) -> BoardResult {
        match self {
            BoardResult::HomeWins => BoardResult::AwayWins,
            BoardResult::AwayWins => BoardResult::HomeWins,
            BoardResult::HomeForfeitWin => BoardResult::AwayForfeitWin,
            BoardResult::AwayForfeitWin => BoardResult::HomeForfeitWin,
            other => other,
        }
    }
}

/// One board of a match: the players (indices into each roster; `None`: the
/// board is empty) and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub home_player: Option<usize>,
    pub away_player: Option<usize>,
    /// The home player has White.
    pub home_white: bool,
    pub result: BoardResult,
}

impl Board {
    /// The result an empty board forces: a forfeit for the side that has a
    /// player (both empty: both lose); `None` when both players are there.
    pub fn forced(&self) -> Option<BoardResult> {
        match (self.home_player, self.away_player) {
            (Some(_), Some(_)) => None,
            (Some(_), None) => Some(BoardResult::HomeForfeitWin),
            (None, Some(_)) => Some(BoardResult::AwayForfeitWin),
            (None, None) => Some(BoardResult::DoubleForfeit),
        }
    }
}

/// A match between two teams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// The first-named team (White on board 1).
    pub home: TeamId,
    pub away: TeamId,
    pub boards: Vec<Board>,
}

impl Match {
    /// A match of `boards` boards whose line-ups are the first players of
    /// each roster (`home_size`, `away_size`: the rosters' lengths), home
    /// with White on the odd boards.
    pub fn new(
        home: TeamId,
        away: TeamId,
        boards: u32,
        home_size: usize,
        away_size: usize,
    ) -> Match {
        let mut m = Match {
            home,
            away,
            boards: (0..boards as usize)
                .map(|b| Board {
                    home_player: (b < home_size).then_some(b),
                    away_player: (b < away_size).then_some(b),
                    home_white: b % 2 == 0,
                    result: BoardResult::Pending,
                })
                .collect(),
        };
        m.apply_forced();
        m
    }

    /// Empty boards get their forfeit.
    pub(crate) fn apply_forced(&mut self) {
        for b in &mut self.boards {
            if let Some(r) = b.forced() {
                b.result = r;
            }
        }
    }

    /// Some board with both players has a result: the line-ups are final.
    pub fn started(&self) -> bool {
        self.boards
            .iter()
            .any(|b| b.forced().is_none() && b.result != BoardResult::Pending)
    }

    pub fn complete(&self) -> bool {
        self.boards.iter().all(|b| b.result != BoardResult::Pending)
    }

    /// Game points (home, away) in half points, counting only boards with a result.
    pub fn game_points(&self) -> (HalfPoints, HalfPoints) {
        self.boards.iter().fold((0, 0), |(h, a), b| {
            let (x, y) = b.result.points();
            (h + x, a + y)
        })
    }

    /// Match points (home, away) once every board has a result. A match
    /// whose every board is lost by both sides (neither team came) is lost
    /// by both: a loss's points each, not a draw's.
    pub fn match_points(&self, s: &Scoring) -> Option<(u32, u32)> {
        if !self.complete() {
            return None;
        }
        if self
            .boards
            .iter()
            .all(|b| b.result == BoardResult::DoubleForfeit)
        {
            return Some((s.loss, s.loss));
        }
        let (h, a) = self.game_points();
        Some((s.match_points(h, a), s.match_points(a, h)))
    }

    /// At least one game was played over the board (a match lost entirely by
    /// forfeit is an unplayed round for the tie-breaks).
    pub fn played(&self) -> bool {
        self.boards.iter().any(|b| b.result.played())
    }

    pub fn side_of(&self, team: TeamId) -> Option<Side> {
        if team == self.home {
            Some(Side::Home)
        } else if team == self.away {
            Some(Side::Away)
        } else {
            None
        }
    }
}

/// One round: its matches in table order, the team with the
/// pairing-allocated bye, and the teams that do not play.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TeamRound {
    pub matches: Vec<Match>,
    pub bye: Option<TeamId>,
}

/// What a team did in one round, as the standings and the pairing see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundRecord {
    Match {
        opponent: TeamId,
        side: Side,
        /// Own and opponent's game points (half points).
        own: HalfPoints,
        other: HalfPoints,
        /// Own match points (when complete).
        match_points: Option<u32>,
        /// At least one game played over the board.
        played: bool,
        /// Own game points per board (board number from 1, half points).
        boards: Vec<(u32, HalfPoints)>,
    },
    Bye {
        match_points: u32,
        game_points: HalfPoints,
    },
    /// A bye the team asked for (not paired; a voluntarily unplayed round).
    Requested {
        kind: RequestedBye,
        match_points: u32,
        game_points: HalfPoints,
    },
    /// Not paired this round.
    Absent,
}

/// A team tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamTournament {
    pub name: String,
    pub city: String,
    pub federation: String,
    pub start_date: String,
    pub end_date: String,
    pub chief_arbiter: String,
    pub time_control: String,
    pub system: TeamSystem,
    pub total_rounds: u32,
    /// Boards per match.
    pub boards: u32,
    pub scoring: Scoring,
    /// Pairing by game points instead of match points (C.04.6 1.2 lets the
    /// rules choose; match points by default).
    pub pair_by_game_points: bool,
    /// Colour preference type of C.04.6 1.7 for the Swiss.
    pub colour_preferences: crate::teams::swiss::ColourType,
    /// The team drawn for White in round 1 on the first table (C.04.6 4.1):
    /// `true` = the first team has White.
    pub first_white: bool,
    pub teams: Vec<Team>,
    pub rounds: Vec<TeamRound>,
    pub tiebreaks: Vec<crate::teams::standings::TeamTieBreak>,
    pub school: Option<crate::teams::school::SchoolRules>,
    /// Pairs of teams that must not meet (C.04.1's forbidden pairs, as the
    /// organiser declares them: two teams of one school or club), smaller
    /// number first, sorted. Only a Swiss pairs around them.
    pub forbidden: Vec<(TeamId, TeamId)>,
    /// Byes teams asked for: (round, team, kind), sorted; a team so listed
    /// is not paired in that round (Swiss only).
    pub requested_byes: Vec<(u32, TeamId, RequestedBye)>,
    /// The Baku acceleration of a team Swiss (C.04.7, which C.04.6 lets
    /// the rules use with match points as the primary score:
    /// [`crate::teams::swiss::virtual_points`]); off by default.
    pub baku: bool,
}

impl TeamTournament {
    pub fn new(name: &str, system: TeamSystem, boards: u32, total_rounds: u32) -> TeamTournament {
        TeamTournament {
            name: name.to_string(),
            city: String::new(),
            federation: String::new(),
            start_date: String::new(),
            end_date: String::new(),
            chief_arbiter: String::new(),
            time_control: String::new(),
            system,
            total_rounds,
            boards: boards.max(1),
            scoring: Scoring::default(),
            pair_by_game_points: false,
            colour_preferences: crate::teams::swiss::ColourType::A,
            first_white: true,
            teams: Vec::new(),
            rounds: Vec::new(),
            tiebreaks: crate::teams::standings::TeamTieBreak::default_list(),
            school: None,
            forbidden: Vec::new(),
            requested_byes: Vec::new(),
            baku: false,
        }
    }

    /// Records that `team` asks not to be paired in `round` and to score
    /// the bye `kind` (a second request for the same round replaces the
    /// first). Refused, nothing changed: not a Swiss, a team that is not
    /// in, a round already paired or after the last.
    pub fn request_bye(
        &mut self,
        round: u32,
        team: TeamId,
        kind: RequestedBye,
    ) -> Result<(), TeamError> {
        if self.system != TeamSystem::Swiss {
            return Err(TeamError::ByeNeedsSwiss);
        }
        self.team(team)?;
        let paired = self.rounds.len() as u32;
        if round <= paired || round > self.total_rounds {
            return Err(TeamError::ByeRound {
                round,
                paired,
                total: self.total_rounds,
            });
        }
        self.requested_byes
            .retain(|&(r, t, _)| !(r == round && t == team));
        self.requested_byes.push((round, team, kind));
        self.requested_byes.sort_unstable();
        Ok(())
    }

    /// The bye `team` asked for in `round`, if any.
    pub fn requested_bye(&self, team: TeamId, round: u32) -> Option<RequestedBye> {
        self.requested_byes
            .iter()
            .find(|&&(r, t, _)| r == round && t == team)
            .map(|&(_, _, k)| k)
    }

    /// Forbids every two of `teams` to meet in the rounds still to pair
    /// (pairs already forbidden stay once). Refused, nothing changed: not
    /// a Swiss (a round robin's schedule has every team meet every other),
    /// fewer than two different teams, a team that is not in.
    pub fn forbid(&mut self, teams: &[TeamId]) -> Result<(), TeamError> {
        if self.system != TeamSystem::Swiss {
            return Err(TeamError::ForbiddenNeedsSwiss);
        }
        let mut ids: Vec<TeamId> = teams.to_vec();
        ids.sort_unstable();
        ids.dedup();
        for &id in &ids {
            self.team(id)?;
        }
        if ids.len() < 2 {
            return Err(TeamError::ForbiddenGroup { given: ids.len() });
        }
        for (i, &a) in ids.iter().enumerate() {
            for &b in &ids[i + 1..] {
                if !self.forbidden.contains(&(a, b)) {
                    self.forbidden.push((a, b));
                }
            }
        }
        self.forbidden.sort_unstable();
        Ok(())
    }

    /// Forbids the teams of each school or club (their `school`, case
    /// aside; teams without one are left alone) to meet one another.
    pub fn forbid_same_school(&mut self) -> Result<(), TeamError> {
        let mut groups: Vec<(String, Vec<TeamId>)> = Vec::new();
        for id in self.team_ids() {
            let school = self.teams[id as usize - 1].school.trim().to_lowercase();
            if school.is_empty() {
                continue;
            }
            match groups.iter_mut().find(|g| g.0 == school) {
                Some(g) => g.1.push(id),
                None => groups.push((school, vec![id])),
            }
        }
        if self.system != TeamSystem::Swiss {
            return Err(TeamError::ForbiddenNeedsSwiss);
        }
        for (_, ids) in groups.iter().filter(|g| g.1.len() > 1) {
            self.forbid(ids)?;
        }
        Ok(())
    }

    /// Whether `a` and `b` may not meet.
    pub fn is_forbidden(&self, a: TeamId, b: TeamId) -> bool {
        self.forbidden.contains(&(a.min(b), a.max(b)))
    }

    pub fn team(&self, id: TeamId) -> Result<&Team, TeamError> {
        id.checked_sub(1)
            .and_then(|i| self.teams.get(i as usize))
            .ok_or(TeamError::NoSuchTeam(id))
    }

    /// Enters a team: its roster sorted by rating unless fixed. Refused: no
    /// name, a name already taken, an empty roster, a player twice in the
    /// roster or already in another team, a captain outside the roster, a
    /// round robin already started, the school rules' team limit.
    pub fn add_team(&mut self, mut team: Team) -> Result<TeamId, TeamError> {
        if team.name.trim().is_empty() {
            return Err(TeamError::NoName);
        }
        if self
            .teams
            .iter()
            .any(|t| normal(&t.name) == normal(&team.name))
        {
            return Err(TeamError::DuplicateTeam(team.name));
        }
        if team.members.is_empty() || team.members.iter().any(|m| m.name.trim().is_empty()) {
            return Err(TeamError::EmptyRoster(team.name));
        }
        if !matches!(self.system, TeamSystem::Swiss) && !self.rounds.is_empty() {
            return Err(TeamError::Started);
        }
        for (i, m) in team.members.iter().enumerate() {
            if team.members[..i].iter().any(|o| o.same_person(m)) {
                return Err(TeamError::PlayerTwice {
                    player: m.name.clone(),
                    team: team.name.clone(),
                });
            }
            if let Some(other) = self
                .teams
                .iter()
                .find(|t| t.members.iter().any(|o| o.same_person(m)))
            {
                return Err(TeamError::PlayerInTwoTeams {
                    player: m.name.clone(),
                    team: other.name.clone(),
                });
            }
        }
        if let Some(c) = team.captain {
            if c >= team.members.len() {
                return Err(TeamError::NoSuchMember {
                    team: team.name.clone(),
                    index: c + 1,
                });
            }
        }
        if let Some(rules) = &self.school {
            rules.check_new_team(self, &team)?;
        }
        team.sort_roster();
        self.teams.push(team);
        Ok(self.teams.len() as TeamId)
    }

    /// The number of the next round to pair; refused when all rounds are
    /// paired or the last one has boards without a result.
    pub fn next_round_number(&self) -> Result<u32, TeamError> {
        if let Some((i, r)) = self.rounds.iter().enumerate().next_back() {
            let pending: Vec<u32> = r
                .matches
                .iter()
                .enumerate()
                .filter(|(_, m)| !m.complete())
                .map(|(k, _)| k as u32 + 1)
                .collect();
            if !pending.is_empty() {
                return Err(TeamError::RoundNotComplete {
                    round: i as u32 + 1,
                    matches: pending,
                });
            }
        }
        let next = self.rounds.len() as u32 + 1;
        if next > self.total_rounds {
            return Err(TeamError::TournamentOver(self.total_rounds));
        }
        Ok(next)
    }

    /// Records a round (from a pairing system or a file). Refused: a team
    /// unknown, a team twice in the round, a match of a team against itself.
    pub fn record_round(&mut self, round: TeamRound) -> Result<u32, TeamError> {
        let mut seen = BTreeSet::new();
        let ids = round
            .matches
            .iter()
            .flat_map(|m| [m.home, m.away])
            .chain(round.bye);
        for id in ids {
            self.team(id)?;
            if !seen.insert(id) {
                return Err(TeamError::TeamTwiceInRound {
                    round: self.rounds.len() as u32 + 1,
                    team: id,
                });
            }
        }
        self.rounds.push(round);
        Ok(self.rounds.len() as u32)
    }

    fn round_mut(&mut self, round: u32) -> Result<&mut TeamRound, TeamError> {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get_mut(i as usize))
            .ok_or(TeamError::NoSuchRound(round))
    }

    fn match_mut(&mut self, round: u32, table: u32) -> Result<&mut Match, TeamError> {
        let r = self.round_mut(round)?;
        table
            .checked_sub(1)
            .and_then(|i| r.matches.get_mut(i as usize))
            .ok_or(TeamError::NoSuchMatch { round, table })
    }

    /// The match of `team` in `round` and its table number (from 1).
    pub fn match_of(&self, round: u32, team: TeamId) -> Option<(u32, &Match)> {
        let r = self.rounds.get(round.checked_sub(1)? as usize)?;
        r.matches
            .iter()
            .enumerate()
            .find(|(_, m)| m.home == team || m.away == team)
            .map(|(i, m)| (i as u32 + 1, m))
    }

    /// Sets `team`'s line-up for `round`: `players` are indices into the
    /// roster, board 1 first. Refused (nothing changed): the team does not
    /// play that round, a Scheveningen (the system sets who plays whom),
    /// more players than boards, a player not in the roster or twice, a
    /// player above one who stands before him in the roster, a result of the
    /// match already entered.
    pub fn set_lineup(
        &mut self,
        round: u32,
        team: TeamId,
        players: &[usize],
    ) -> Result<(), TeamError> {
        let t = self.team(team)?.clone();
        if matches!(self.system, TeamSystem::Scheveningen { .. }) {
            return Err(TeamError::LineupFixedBySystem);
        }
        if round == 0 || round as usize > self.rounds.len() {
            return Err(TeamError::NoSuchRound(round));
        }
        let (table, _) = self
            .match_of(round, team)
            .ok_or(TeamError::NotPlaying { round, team })?;
        if players.is_empty() || players.len() > self.boards as usize {
            return Err(TeamError::LineupSize {
                given: players.len(),
                boards: self.boards,
            });
        }
        for (b, &p) in players.iter().enumerate() {
            if p >= t.members.len() {
                return Err(TeamError::NoSuchMember {
                    team: t.name.clone(),
                    index: p + 1,
                });
            }
            if players[..b].contains(&p) {
                return Err(TeamError::PlayerTwice {
                    player: t.members[p].name.clone(),
                    team: t.name.clone(),
                });
            }
            if b > 0 && p < players[b - 1] {
                return Err(TeamError::LineupOrder {
                    board: b as u32 + 1,
                    player: t.members[p].name.clone(),
                    above: t.members[players[b - 1]].name.clone(),
                });
            }
        }
        let m = self.match_mut(round, table)?;
        if m.started() {
            return Err(TeamError::LineupLocked { round, table });
        }
        let side = m.side_of(team).expect("the match has the team");
        for (b, board) in m.boards.iter_mut().enumerate() {
            let p = players.get(b).copied();
            match side {
                Side::Home => board.home_player = p,
                Side::Away => board.away_player = p,
            }
            board.result = BoardResult::Pending;
        }
        m.apply_forced();
        Ok(())
    }

    /// Enters a board's result (home/away view). Refused: no such round,
    /// table or board; a board left empty (its forfeit stands).
    pub fn set_result(
        &mut self,
        round: u32,
        table: u32,
        board: u32,
        result: BoardResult,
    ) -> Result<(), TeamError> {
        let m = self.match_mut(round, table)?;
        let b = board
            .checked_sub(1)
            .and_then(|i| m.boards.get_mut(i as usize))
            .ok_or(TeamError::NoSuchBoard {
                round,
                table,
                board,
            })?;
        if b.forced().is_some() {
            return Err(TeamError::EmptyBoard {
                round,
                table,
                board,
            });
        }
        b.result = result;
        Ok(())
    }

    /// Enters a board's result as White-Black, as the scoresheet says.
    pub fn set_result_by_colour(
        &mut self,
        round: u32,
        table: u32,
        board: u32,
        o: Outcome,
    ) -> Result<(), TeamError> {
        let m = self.match_mut(round, table)?;
        let home_white = board
            .checked_sub(1)
            .and_then(|i| m.boards.get(i as usize))
            .map(|b| b.home_white)
            .ok_or(TeamError::NoSuchBoard {
                round,
                table,
                board,
            })?;
        self.set_result(
            round,
            table,
            board,
            BoardResult::from_outcome(o, home_white),
        )
    }

    /// A whole match forfeited: by one side (`Some`) or both (`None`).
    /// Every board is lost by forfeit by the side that forfeits.
    pub fn forfeit_match(
        &mut self,
        round: u32,
        table: u32,
        by: Option<Side>,
    ) -> Result<(), TeamError> {
        let m = self.match_mut(round, table)?;
        let r = match by {
            Some(Side::Home) => BoardResult::AwayForfeitWin,
            Some(Side::Away) => BoardResult::HomeForfeitWin,
            None => BoardResult::DoubleForfeit,
        };
        for b in &mut m.boards {
            b.result = r;
        }
        Ok(())
    }

    /// What `team` did in `round` (1-based); `None` for a round not paired yet.
    pub fn record(&self, team: TeamId, round: u32) -> Option<RoundRecord> {
        let r = self.rounds.get(round.checked_sub(1)? as usize)?;
        if r.bye == Some(team) {
            return Some(RoundRecord::Bye {
                match_points: self.scoring.bye_match_points,
                game_points: self.scoring.bye_game_points_for(self.boards),
            });
        }
        let Some(m) = r.matches.iter().find(|m| m.home == team || m.away == team) else {
            if let Some(kind) = self.requested_bye(team, round) {
                let (match_points, game_points) = self.scoring.requested_bye(kind, self.boards);
                return Some(RoundRecord::Requested {
                    kind,
                    match_points,
                    game_points,
                });
            }
            return Some(RoundRecord::Absent);
        };
        let side = m.side_of(team)?;
        let (h, a) = m.game_points();
        let mp = m.match_points(&self.scoring);
        let boards = m
            .boards
            .iter()
            .enumerate()
            .filter(|(_, b)| b.result != BoardResult::Pending)
            .map(|(i, b)| {
                let (x, y) = b.result.points();
                (i as u32 + 1, if side == Side::Home { x } else { y })
            })
            .collect();
        Some(match side {
            Side::Home => RoundRecord::Match {
                opponent: m.away,
                side,
                own: h,
                other: a,
                match_points: mp.map(|p| p.0),
                played: m.played(),
                boards,
            },
            Side::Away => RoundRecord::Match {
                opponent: m.home,
                side,
                own: a,
                other: h,
                match_points: mp.map(|p| p.1),
                played: m.played(),
                boards,
            },
        })
    }

    /// Match points and game points (half points) after `rounds` rounds.
    pub fn scores_after(&self, team: TeamId, rounds: u32) -> (u32, HalfPoints) {
        (1..=rounds.min(self.rounds.len() as u32))
            .filter_map(|r| self.record(team, r))
            .fold((0, 0), |(mp, gp), rec| match rec {
                RoundRecord::Match {
                    own, match_points, ..
                } => (mp + match_points.unwrap_or(0), gp + own),
                RoundRecord::Bye {
                    match_points,
                    game_points,
                }
                | RoundRecord::Requested {
                    match_points,
                    game_points,
                    ..
                } => (mp + match_points, gp + game_points),
                RoundRecord::Absent => (mp, gp),
            })
    }

    pub fn team_ids(&self) -> impl Iterator<Item = TeamId> {
        1..=self.teams.len() as TeamId
    }
}

/// Everything refused in a team tournament, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeamError {
    NoName,
    DuplicateTeam(String),
    EmptyRoster(String),
    /// The same player twice in one roster or one line-up.
    PlayerTwice {
        player: String,
        team: String,
    },
    /// The player is already in the roster of `team`.
    PlayerInTwoTeams {
        player: String,
        team: String,
    },
    NoSuchTeam(TeamId),
    /// `index` counts from 1.
    NoSuchMember {
        team: String,
        index: usize,
    },
    NoSuchRound(u32),
    NoSuchMatch {
        round: u32,
        table: u32,
    },
    NoSuchBoard {
        round: u32,
        table: u32,
        board: u32,
    },
    NotPlaying {
        round: u32,
        team: TeamId,
    },
    LineupSize {
        given: usize,
        boards: u32,
    },
    /// `player` sits on `board` above `above`, who stands before him in the roster.
    LineupOrder {
        board: u32,
        player: String,
        above: String,
    },
    LineupLocked {
        round: u32,
        table: u32,
    },
    LineupFixedBySystem,
    EmptyBoard {
        round: u32,
        table: u32,
        board: u32,
    },
    RoundNotComplete {
        round: u32,
        matches: Vec<u32>,
    },
    TournamentOver(u32),
    TeamTwiceInRound {
        round: u32,
        team: TeamId,
    },
    /// Teams can no longer be entered or withdrawn: a round robin has started.
    Started,
    NoPairing {
        round: u32,
    },
    /// Scheveningen is for two teams with the same number of players.
    Scheveningen {
        teams: usize,
    },
    BadScoring {
        win: u32,
        draw: u32,
        loss: u32,
    },
    /// Forbidden pairs belong to a Swiss.
    ForbiddenNeedsSwiss,
    /// A forbidden group needs two different teams at least.
    ForbiddenGroup {
        given: usize,
    },
    /// A requested bye belongs to a Swiss.
    ByeNeedsSwiss,
    /// A bye is asked for a round already paired (`paired` rounds are) or
    /// after the last (`total`).
    ByeRound {
        round: u32,
        paired: u32,
        total: u32,
    },
    /// School rules: the school already has its `max` teams.
    SchoolFull {
        school: String,
        max: u32,
    },
    /// School rules: a team needs `needed` players of `category`.
    CategoryShort {
        team: String,
        category: String,
        needed: u32,
        has: u32,
    },
}

impl fmt::Display for TeamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for TeamError {}

impl Localized for TeamError {
    fn message(&self, lang: Lang) -> String {
        use TeamError::*;
        match self {
            NoName => lang.pick(
                "el equipo no tiene nombre".to_string(),
                "the team has no name".to_string(),
            ),
            DuplicateTeam(n) => lang.pick(
                format!("ya hay un equipo «{n}»"),
                format!("there is already a team '{n}'"),
            ),
            EmptyRoster(n) => lang.pick(
                format!("el equipo «{n}» no tiene jugadores (o uno no tiene nombre)"),
                format!("team '{n}' has no players (or one has no name)"),
            ),
            PlayerTwice { player, team } => lang.pick(
                format!("«{player}» está dos veces en «{team}»"),
                format!("'{player}' appears twice in '{team}'"),
            ),
            PlayerInTwoTeams { player, team } => lang.pick(
                format!("«{player}» ya juega en el equipo «{team}»: un jugador solo puede estar en un equipo"),
                format!("'{player}' already plays for team '{team}': a player may be in one team only"),
            ),
            NoSuchTeam(t) => lang.pick(
                format!("no hay ningún equipo con el número {t}"),
                format!("there is no team number {t}"),
            ),
            NoSuchMember { team, index } => lang.pick(
                format!("«{team}» no tiene jugador número {index} en su lista"),
                format!("'{team}' has no player number {index} in its roster"),
            ),
            NoSuchRound(r) => lang.pick(
                format!("la ronda {r} no está emparejada"),
                format!("round {r} is not paired"),
            ),
            NoSuchMatch { round, table } => lang.pick(
                format!("la ronda {round} no tiene encuentro {table}"),
                format!("round {round} has no match {table}"),
            ),
            NoSuchBoard { round, table, board } => lang.pick(
                format!("el encuentro {table} de la ronda {round} no tiene tablero {board}"),
                format!("match {table} of round {round} has no board {board}"),
            ),
            NotPlaying { round, team } => lang.pick(
                format!("el equipo {team} no juega en la ronda {round}"),
                format!("team {team} does not play in round {round}"),
            ),
            LineupSize { given, boards } => lang.pick(
                format!("la alineación tiene {given} jugadores; deben ser entre 1 y {boards}"),
                format!("the line-up has {given} players; it must have 1 to {boards}"),
            ),
            LineupOrder { board, player, above } => lang.pick(
                format!("tablero {board}: «{player}» no puede jugar por debajo de «{above}», que va detrás en el orden de fuerza"),
                format!("board {board}: '{player}' cannot play below '{above}', who comes after them in the board order"),
            ),
            LineupLocked { round, table } => lang.pick(
                format!("el encuentro {table} de la ronda {round} ya tiene resultados: la alineación no puede cambiar"),
                format!("match {table} of round {round} already has results: the line-up cannot change"),
            ),
            LineupFixedBySystem => lang.pick(
                "en el sistema Scheveningen el calendario fija quién juega con quién".to_string(),
                "in a Scheveningen the schedule sets who plays whom".to_string(),
            ),
            EmptyBoard { round, table, board } => lang.pick(
                format!("ronda {round}, encuentro {table}, tablero {board}: el tablero está vacío y se pierde por incomparecencia"),
                format!("round {round}, match {table}, board {board}: the board is empty and is lost by forfeit"),
            ),
            RoundNotComplete { round, matches } => lang.pick(
                format!("faltan resultados de la ronda {round} (encuentros {matches:?})"),
                format!("round {round} still has results missing (matches {matches:?})"),
            ),
            TournamentOver(n) => lang.pick(
                format!("las {n} rondas ya están emparejadas"),
                format!("all {n} rounds are paired"),
            ),
            TeamTwiceInRound { round, team } => lang.pick(
                format!("el equipo {team} aparece dos veces en la ronda {round}"),
                format!("team {team} appears twice in round {round}"),
            ),
            Started => lang.pick(
                "el torneo ya empezó: no se pueden cambiar los equipos".to_string(),
                "the tournament has started: teams cannot change".to_string(),
            ),
            NoPairing { round } => lang.pick(
                format!("no hay emparejamiento posible para la ronda {round}"),
                format!("no pairing exists for round {round}"),
            ),
            Scheveningen { teams } => lang.pick(
                format!("el sistema Scheveningen es para dos equipos con al menos tantos jugadores como tableros (hay {teams})"),
                format!("a Scheveningen needs two teams with at least as many players as boards ({teams} given)"),
            ),
            BadScoring { win, draw, loss } => lang.pick(
                format!("puntuación {win}/{draw}/{loss} no válida: victoria > empate ≥ derrota"),
                format!("scoring {win}/{draw}/{loss} is not valid: win > draw ≥ loss"),
            ),
            ForbiddenNeedsSwiss => lang.pick(
                "solo un suizo admite emparejamientos prohibidos: en una liguilla o un Scheveningen todos se enfrentan".to_string(),
                "only a Swiss takes forbidden pairings: in a round robin or a Scheveningen everyone meets".to_string(),
            ),
            ForbiddenGroup { given } => lang.pick(
                format!("emparejamiento prohibido: hacen falta al menos dos equipos distintos (hay {given})"),
                format!("forbidden pairing: at least two different teams are needed ({given} given)"),
            ),
            ByeNeedsSwiss => lang.pick(
                "solo un suizo admite descansos pedidos: en una liguilla o un Scheveningen el calendario está fijado".to_string(),
                "only a Swiss takes requested byes: a round robin's or a Scheveningen's schedule is fixed".to_string(),
            ),
            ByeRound { round, paired, total } => lang.pick(
                format!("no se puede pedir descanso para la ronda {round}: solo para una ronda aún sin emparejar, de la {} a la {total}", paired + 1),
                format!("a bye cannot be asked for round {round}: only for a round not yet paired, {} to {total}", paired + 1),
            ),
            SchoolFull { school, max } => lang.pick(
                format!("el centro «{school}» ya tiene {max} equipos, el máximo"),
                format!("school '{school}' already has {max} teams, the most allowed"),
            ),
            CategoryShort { team, category, needed, has } => lang.pick(
                format!("«{team}» tiene {has} jugadores de la categoría {category}; necesita {needed}"),
                format!("'{team}' has {has} players of category {category}; it needs {needed}"),
            ),
        }
    }
}
