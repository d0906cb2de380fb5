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
//! Unplayed rounds follow C.07 Article 16 (2026 text) with match points as
//! the score, as Gacrux computes team events: a round is *voluntarily*
//! unplayed when the team did not come to a match (a whole-match forfeit
//! lost) or was not paired; a team's score as its opponents count it is
//! adjusted after its last round not voluntarily unplayed (those rounds
//! count a draw's match points, 16.3); a team's own round without a match
//! played counts for `BH` and the `SB`s a dummy opponent with the team's
//! own match points (16.4), at most the real opponent's adjusted score
//! after a forfeit (16.4.1) and at most a draw per round after a bye or an
//! absence (16.4.2); the `SB`s multiply it by what the team scored that
//! round (the bye's or the forfeit's points). A round robin's unplayed
//! rounds count nothing. `BC` counts a forfeit's boards and a bye's
//! boards as won. Values that count game points are in half points.

use crate::teams::model::{RoundRecord, TeamId, TeamSystem, TeamTournament};
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

/// One round of a team as C.07 Article 16 sees it.
#[derive(Clone, Copy)]
enum Round {
    /// A match played over the board (at least one game).
    Played {
        opponent: TeamId,
        mp: u32,
        gp: HalfPoints,
    },
    /// A match without a game played (a whole-match forfeit): the
    /// opponent is known; `voluntary` for the team that did not come.
    Forfeit {
        opponent: TeamId,
        mp: u32,
        gp: HalfPoints,
        voluntary: bool,
    },
    /// The pairing-allocated bye (not voluntary).
    Bye { mp: u32, gp: HalfPoints },
    /// A bye the team asked for: points, but voluntarily unplayed.
    Requested { mp: u32, gp: HalfPoints },
    /// Not paired (voluntary: absent).
    Absent,
}

impl Round {
    fn mp(self) -> u32 {
        match self {
            Round::Played { mp, .. }
            | Round::Forfeit { mp, .. }
            | Round::Bye { mp, .. }
            | Round::Requested { mp, .. } => mp,
            Round::Absent => 0,
        }
    }
    fn gp(self) -> HalfPoints {
        match self {
            Round::Played { gp, .. }
            | Round::Forfeit { gp, .. }
            | Round::Bye { gp, .. }
            | Round::Requested { gp, .. } => gp,
            Round::Absent => 0,
        }
    }
    fn voluntary(self) -> bool {
        matches!(
            self,
            Round::Absent
                | Round::Requested { .. }
                | Round::Forfeit {
                    voluntary: true,
                    ..
                }
        )
    }
    fn opponent(self) -> Option<TeamId> {
        match self {
            Round::Played { opponent, .. } | Round::Forfeit { opponent, .. } => Some(opponent),
            _ => None,
        }
    }
}

struct Facts {
    mp: u32,
    gp: HalfPoints,
    rounds: Vec<Round>,
    wins: i64,
    won: i64,
    board_count: i64,
}

fn facts(t: &TeamTournament, team: TeamId, rounds: u32) -> Facts {
    let mut f = Facts {
        mp: 0,
        gp: 0,
        rounds: Vec::new(),
        wins: 0,
        won: 0,
        board_count: 0,
    };
    for r in 1..=rounds {
        let round = match t.record(team, r) {
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
                    Round::Played {
                        opponent,
                        mp,
                        gp: own,
                    }
                } else {
                    Round::Forfeit {
                        opponent,
                        mp,
                        gp: own,
                        voluntary: own <= other,
                    }
                }
            }
            Some(RoundRecord::Requested {
                match_points,
                game_points,
                ..
            }) => Round::Requested {
                mp: match_points,
                gp: game_points,
            },
            Some(RoundRecord::Bye {
                match_points,
                game_points,
            }) => {
                // A bye worth a won match counts as a win (C.07's WIN
                // counts the rounds won, played or not).
                if match_points >= t.scoring.win {
                    f.wins += 1;
                }
                // BC counts every board of a pairing-allocated bye as won,
                // whatever the bye's game points (a drawn match by default,
                // C.04.6 1.4): Gacrux's board points for a bye, checked on
                // evento_dos_descanso_empate.trf.
                for b in 1..=t.boards as i64 {
                    f.board_count += b * 2;
                }
                Round::Bye {
                    mp: match_points,
                    gp: game_points,
                }
            }
            _ => Round::Absent,
        };
        f.mp += round.mp();
        f.gp += round.gp();
        f.rounds.push(round);
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
    let draw = t.scoring.draw as i64;
    let round_robin = matches!(t.system, TeamSystem::RoundRobin { .. });
    // C.07 16.3: a team's score as its opponents' Buchholz counts it —
    // every round up to its last round not voluntarily unplayed as it is,
    // a round with an opponent (even one not played) as it is, the other
    // rounds after it (a withdrawal: absent to the end) as draws.
    let adjusted: Vec<i64> = all
        .iter()
        .map(|f| {
            let last = f
                .rounds
                .iter()
                .rposition(|r| !r.voluntary())
                .map_or(0, |i| i + 1);
            f.rounds
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    if i < last || r.opponent().is_some() {
                        r.mp() as i64
                    } else if round_robin {
                        0
                    } else {
                        draw
                    }
                })
                .sum()
        })
        .collect();
    let adj = |id: TeamId| adjusted[id as usize - 1];
    // Each round's (opponent's score, own game points, own match points)
    // for Buchholz and the Sonneborn-Bergers: a match played counts the
    // opponent's adjusted score; any other round of a Swiss counts a
    // dummy opponent with the team's own score (16.4), at most the real
    // opponent's adjusted score for a forfeit (16.4.1) and at most a draw
    // per round without one (16.4.2, the 2026 text); a round robin's
    // unplayed rounds count nothing.
    let contributions = |id: TeamId| -> Vec<(i64, i64, i64)> {
        let f = get(id);
        let own = f.mp as i64;
        f.rounds
            .iter()
            .filter_map(|&r| match r {
                Round::Played { opponent, mp, gp } => Some((adj(opponent), gp as i64, mp as i64)),
                _ if round_robin => None,
                Round::Forfeit { opponent, .. } => {
                    Some((own.min(adj(opponent)), r.gp() as i64, r.mp() as i64))
                }
                _ => Some((own.min(draw * rounds as i64), r.gp() as i64, r.mp() as i64)),
            })
            .collect()
    };
    let value = |id: TeamId, tb: TeamTieBreak| -> i64 {
        let f = get(id);
        match tb {
            TeamTieBreak::MatchPoints => f.mp as i64,
            TeamTieBreak::GamePoints => f.gp as i64,
            TeamTieBreak::OlympiadSb => contributions(id).iter().map(|c| c.0 * c.1).sum(),
            TeamTieBreak::MatchSb => contributions(id).iter().map(|c| c.0 * c.2).sum(),
            TeamTieBreak::Buchholz => contributions(id).iter().map(|c| c.0).sum(),
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
