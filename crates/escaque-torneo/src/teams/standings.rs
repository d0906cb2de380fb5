//! Team standings and the team tie-breaks of FIDE C.07 (Tie-Break
//! Regulations, 2023 text with its team section).
//!
//! The primary score is match points (game points when the tournament pairs
//! by game points). The tie-breaks, with the acronyms C.07 and Gacrux use:
//!
//! - `MPTS` match points, `GPTS` game points (the other primary score);
//! - `EMGSB` the Olympiad Sonneborn-Berger: for each opponent, the
//!   opponent's match points times the game points scored against it;
//! - `EMMSB` Sonneborn-Berger on match points: the opponent's match points
//!   times the match points scored against it;
//! - `BH` Buchholz: the sum of the opponents' match points;
//! - `DE` direct encounter: among the teams still tied, the match points
//!   scored in their mutual matches, when all of them have met;
//! - `WIN` matches won (by forfeit or bye too), `WON` matches won over the
//!   board;
//! - `BC` board count: the sum over the boards of the board's number times
//!   the game points scored on it (lower is better: points on the top boards
//!   weigh less), as Gacrux computes it.
//!
//! Rounds a team did not play (a bye, a round not paired, a match lost or
//! won entirely by forfeit) count for `BH` and the `SB`s as an opponent with
//! the match points of a drawn match per round played (a "dummy" opponent,
//! as C.07 16 does for individuals); a forfeited match's real opponent is
//! not used. Values that count game points are in half points.

use crate::teams::model::{RoundRecord, TeamId, TeamTournament};
use crate::HalfPoints;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TeamTieBreak {
    MatchPoints,
    GamePoints,
    OlympiadSb,
    MatchSb,
    Buchholz,
    DirectEncounter,
    Wins,
    Won,
    BoardCount,
}

impl TeamTieBreak {
    pub const ALL: [TeamTieBreak; 9] = [
        TeamTieBreak::MatchPoints,
        TeamTieBreak::GamePoints,
        TeamTieBreak::OlympiadSb,
        TeamTieBreak::MatchSb,
        TeamTieBreak::Buchholz,
        TeamTieBreak::DirectEncounter,
        TeamTieBreak::Wins,
        TeamTieBreak::Won,
        TeamTieBreak::BoardCount,
    ];

    /// The acronym (C.07, Gacrux, TRF-2026 `202`).
    pub fn code(self) -> &'static str {
        match self {
            TeamTieBreak::MatchPoints => "MPTS",
            TeamTieBreak::GamePoints => "GPTS",
            TeamTieBreak::OlympiadSb => "EMGSB",
            TeamTieBreak::MatchSb => "EMMSB",
            TeamTieBreak::Buchholz => "BH",
            TeamTieBreak::DirectEncounter => "DE",
            TeamTieBreak::Wins => "WIN",
            TeamTieBreak::Won => "WON",
            TeamTieBreak::BoardCount => "BC",
        }
    }

    pub fn from_code(code: &str) -> Option<TeamTieBreak> {
        let c = code.trim().to_ascii_uppercase();
        let c = c.split(['/', ':']).next().unwrap_or("");
        let c = match c {
            "MP" | "PTS" => "MPTS",
            "GP" => "GPTS",
            "OSB" | "SB" => "EMGSB",
            "EDE" => "DE",
            other => other,
        };
        TeamTieBreak::ALL.into_iter().find(|t| t.code() == c)
    }

    /// The name in Spanish.
    pub fn name_es(self) -> &'static str {
        match self {
            TeamTieBreak::MatchPoints => "puntos de encuentro",
            TeamTieBreak::GamePoints => "puntos de partida",
            TeamTieBreak::OlympiadSb => "Sonneborn-Berger olímpico",
            TeamTieBreak::MatchSb => "Sonneborn-Berger por encuentros",
            TeamTieBreak::Buchholz => "Buchholz",
            TeamTieBreak::DirectEncounter => "encuentro directo",
            TeamTieBreak::Wins => "encuentros ganados",
            TeamTieBreak::Won => "encuentros ganados jugando",
            TeamTieBreak::BoardCount => "recuento por tableros",
        }
    }

    /// A higher value ranks higher (all but board count).
    pub fn higher_is_better(self) -> bool {
        self != TeamTieBreak::BoardCount
    }

    /// The default order after match points: game points, Olympiad SB,
    /// direct encounter.
    pub fn default_list() -> Vec<TeamTieBreak> {
        vec![
            TeamTieBreak::GamePoints,
            TeamTieBreak::OlympiadSb,
            TeamTieBreak::DirectEncounter,
        ]
    }
}

/// A team's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamStanding {
    pub rank: u32,
    pub team: TeamId,
    pub match_points: u32,
    /// Half points.
    pub game_points: HalfPoints,
    /// The tie-breaks in the tournament's order.
    pub values: Vec<(TeamTieBreak, i64)>,
}

struct Facts {
    mp: u32,
    gp: HalfPoints,
    /// Per round: Some((opponent, own mp, own gp)) for a match played.
    games: Vec<Option<(TeamId, u32, HalfPoints)>>,
    unplayed: u32,
    wins: i64,
    won: i64,
    board_count: i64,
}

fn facts(t: &TeamTournament, team: TeamId, rounds: u32) -> Facts {
    let mut f = Facts {
        mp: 0,
        gp: 0,
        games: Vec::new(),
        unplayed: 0,
        wins: 0,
        won: 0,
        board_count: 0,
    };
    for r in 1..=rounds {
        match t.record(team, r) {
            Some(RoundRecord::Match {
                opponent,
                own,
                other,
                match_points,
                played,
                boards,
                ..
            }) => {
                let mp = match_points.unwrap_or(0);
                f.mp += mp;
                f.gp += own;
                if own > other && match_points.is_some() {
                    f.wins += 1;
                    if played {
                        f.won += 1;
                    }
                }
                f.board_count += boards
                    .iter()
                    .map(|&(b, p)| b as i64 * p as i64)
                    .sum::<i64>();
                if played {
                    f.games.push(Some((opponent, mp, own)));
                } else {
                    f.games.push(None);
                    f.unplayed += 1;
                }
            }
            Some(RoundRecord::Bye {
                match_points,
                game_points,
            }) => {
                f.mp += match_points;
                f.gp += game_points;
                f.wins += 1;
                f.games.push(None);
                f.unplayed += 1;
            }
            _ => {
                f.games.push(None);
                f.unplayed += 1;
            }
        }
    }
    f
}

/// The standings after every paired round.
pub fn compute(t: &TeamTournament) -> Vec<TeamStanding> {
    compute_after(t, t.rounds.len() as u32)
}

/// The standings after `rounds` rounds.
pub fn compute_after(t: &TeamTournament, rounds: u32) -> Vec<TeamStanding> {
    let rounds = rounds.min(t.rounds.len() as u32);
    let all: Vec<Facts> = t.team_ids().map(|id| facts(t, id, rounds)).collect();
    let get = |id: TeamId| &all[id as usize - 1];
    let dummy_mp = t.scoring.draw as i64;
    let value = |id: TeamId, tb: TeamTieBreak| -> i64 {
        let f = get(id);
        let opp_mp = |o: TeamId| get(o).mp as i64;
        match tb {
            TeamTieBreak::MatchPoints => f.mp as i64,
            TeamTieBreak::GamePoints => f.gp as i64,
            TeamTieBreak::OlympiadSb => f
                .games
                .iter()
                .flatten()
                .map(|&(o, _, gp)| opp_mp(o) * gp as i64)
                .sum(),
            TeamTieBreak::MatchSb => f
                .games
                .iter()
                .flatten()
                .map(|&(o, mp, _)| opp_mp(o) * mp as i64)
                .sum(),
            TeamTieBreak::Buchholz => {
                f.games
                    .iter()
                    .flatten()
                    .map(|&(o, _, _)| opp_mp(o))
                    .sum::<i64>()
                    + f.unplayed as i64 * dummy_mp * rounds as i64
            }
            TeamTieBreak::Wins => f.wins,
            TeamTieBreak::Won => f.won,
            TeamTieBreak::BoardCount => f.board_count,
            TeamTieBreak::DirectEncounter => 0,
        }
    };
    let primary = |id: TeamId| {
        let f = get(id);
        if t.pair_by_game_points {
            f.gp as i64
        } else {
            f.mp as i64
        }
    };
    let mut rows: Vec<TeamStanding> = t
        .team_ids()
        .map(|id| TeamStanding {
            rank: 0,
            team: id,
            match_points: get(id).mp,
            game_points: get(id).gp,
            values: t.tiebreaks.iter().map(|&tb| (tb, value(id, tb))).collect(),
        })
        .collect();
    // Direct encounter needs the groups still tied before it: fill it in
    // order, one tie-break at a time.
    let key = |r: &TeamStanding, upto: usize| -> Vec<i64> {
        let mut k = vec![primary(r.team)];
        for (tb, v) in r.values.iter().take(upto) {
            k.push(if tb.higher_is_better() { *v } else { -*v });
        }
        k
    };
    for i in 0..t.tiebreaks.len() {
        if t.tiebreaks[i] != TeamTieBreak::DirectEncounter {
            continue;
        }
        let keys: Vec<Vec<i64>> = rows.iter().map(|r| key(r, i)).collect();
        for a in 0..rows.len() {
            let group: Vec<TeamId> = (0..rows.len())
                .filter(|&b| keys[b] == keys[a])
                .map(|b| rows[b].team)
                .collect();
            rows[a].values[i].1 = direct_encounter(t, rows[a].team, &group, rounds);
        }
    }
    let order = crate::teams::swiss::starting_order(t);
    let number = |id: TeamId| order.iter().position(|&x| x == id).unwrap_or(0);
    let n = t.tiebreaks.len();
    rows.sort_by(|a, b| {
        key(b, n)
            .cmp(&key(a, n))
            .then(number(a.team).cmp(&number(b.team)))
    });
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i], n) == key(&rows[i - 1], n) {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    rows
}

/// Match points `team` scored against the other teams of `group` — when
/// every two teams of the group have met (C.07: otherwise direct encounter
/// does not separate them, 0 for all).
fn direct_encounter(t: &TeamTournament, team: TeamId, group: &[TeamId], rounds: u32) -> i64 {
    if group.len() < 2 {
        return 0;
    }
    let met = |a: TeamId, b: TeamId| {
        (1..=rounds).any(|r| {
            matches!(t.record(a, r), Some(RoundRecord::Match { opponent, match_points: Some(_), .. }) if opponent == b)
        })
    };
    for (i, &a) in group.iter().enumerate() {
        for &b in &group[i + 1..] {
            if !met(a, b) {
                return 0;
            }
        }
    }
    (1..=rounds)
        .filter_map(|r| match t.record(team, r) {
            Some(RoundRecord::Match {
                opponent,
                match_points: Some(mp),
                ..
            }) if group.contains(&opponent) => Some(mp as i64),
            _ => None,
        })
        .sum()
}

/// A value as a person reads it: game-point tie-breaks are in half points.
pub fn value_text(tb: TeamTieBreak, v: i64) -> String {
    match tb {
        TeamTieBreak::GamePoints | TeamTieBreak::OlympiadSb | TeamTieBreak::BoardCount => {
            if v % 2 == 0 {
                format!("{}", v / 2)
            } else {
                format!("{}.5", v / 2)
            }
        }
        _ => v.to_string(),
    }
}
