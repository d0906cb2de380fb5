//! Team round robin (Berger tables) and Scheveningen, and the pairing
//! service that asks the tournament's system for the next round.
//!
//! **Round robin.** The teams are numbered in the order entered (the draw);
//! round `r` is the Berger table's round `r` for that many teams
//! ([`crate::berger::schedule`], FIDE C.05 Annex 1), the first-named team of
//! each pair being the one with White on board 1. With an odd number of
//! teams the one drawn against the dummy rests that round (no points). A
//! double round robin is the table twice, colours reversed in the second
//! cycle and the first cycle's last two rounds swapped, as C.05 Annex 1 asks.
//!
//! **Scheveningen.** Two teams of `boards` players (the first `boards` of
//! each roster); in round `r` (1 ≤ r ≤ boards) player `i` of the first team
//! meets player `(i + r − 1) mod boards` of the second (0-based), so after
//! `boards` rounds everyone has met every player of the other team once.
//! Player `i` of the first team has White against player `j` when `i + j` is
//! even: every player alternates colours from round to round, and with an
//! even number of boards each has as many Whites as Blacks. A double
//! Scheveningen repeats the cycle with colours reversed.

use crate::teams::model::{
    Board, BoardResult, Match, TeamError, TeamRound, TeamSystem, TeamTournament,
};

/// The pairings of every round of a round robin of `teams` teams: (first
/// team, second team) with team numbers from 1; a team missing from a round
/// rests.
pub fn round_robin(teams: u32, double: bool) -> Vec<Vec<(u32, u32)>> {
    if teams < 2 {
        return Vec::new();
    }
    crate::berger::schedule(teams, double)
        .into_iter()
        .map(|r| {
            r.into_iter()
                .filter_map(|(a, b)| b.map(|b| (a, b)))
                .collect()
        })
        .collect()
}

/// Round `round` (from 1) of a Scheveningen of `boards` boards: per board,
/// (first team's player, second team's player, the first team's player has
/// White), players as 0-based roster indices.
pub fn scheveningen_round(
    boards: u32,
    round: u32,
    double: bool,
) -> Option<Vec<(usize, usize, bool)>> {
    let n = boards as usize;
    let cycles = if double { 2 } else { 1 };
    if n == 0 || round == 0 || round as usize > n * cycles {
        return None;
    }
    let r = (round as usize - 1) % n;
    let second = (round as usize - 1) / n == 1;
    Some(
        (0..n)
            .map(|i| {
                let j = (i + r) % n;
                let white = (i + j).is_multiple_of(2);
                (i, j, white != second)
            })
            .collect(),
    )
}

/// The number of rounds the system has for the tournament's teams (the
/// Swiss: the rounds announced).
pub fn rounds_of(t: &TeamTournament) -> u32 {
    let n = t.teams.len() as u32;
    match t.system {
        TeamSystem::Swiss => t.total_rounds,
        TeamSystem::RoundRobin { double } => {
            let per = if n.is_multiple_of(2) {
                n.saturating_sub(1)
            } else {
                n
            };
            per * if double { 2 } else { 1 }
        }
        TeamSystem::Scheveningen { double } => t.boards * if double { 2 } else { 1 },
    }
}

/// The next round as the tournament's system pairs it, without recording it
/// (a round robin or Scheveningen needs `total_rounds` set to
/// [`rounds_of`], as [`pair_next_round`] does).
pub fn next_round(t: &TeamTournament) -> Result<TeamRound, TeamError> {
    let round = t.next_round_number()?;
    let size = |id: u32| t.teams[id as usize - 1].members.len();
    match t.system {
        TeamSystem::Swiss => crate::teams::swiss::pair_round(t),
        TeamSystem::RoundRobin { double } => {
            let sched = round_robin(t.teams.len() as u32, double);
            let pairs = sched
                .get(round as usize - 1)
                .ok_or(TeamError::TournamentOver(sched.len() as u32))?;
            Ok(TeamRound {
                matches: pairs
                    .iter()
                    .map(|&(a, b)| Match::new(a, b, t.boards, size(a), size(b)))
                    .collect(),
                bye: None,
            })
        }
        TeamSystem::Scheveningen { double } => {
            if t.teams.len() != 2 || t.teams.iter().any(|x| x.members.len() < t.boards as usize) {
                return Err(TeamError::Scheveningen {
                    teams: t.teams.len(),
                });
            }
            let boards = scheveningen_round(t.boards, round, double)
                .ok_or(TeamError::TournamentOver(rounds_of(t)))?;
            Ok(TeamRound {
                matches: vec![Match {
                    home: 1,
                    away: 2,
                    boards: boards
                        .into_iter()
                        .map(|(i, j, w)| Board {
                            home_player: Some(i),
                            away_player: Some(j),
                            home_white: w,
                            result: BoardResult::Pending,
                        })
                        .collect(),
                }],
                bye: None,
            })
        }
    }
}

/// Pairs the next round and records it; returns its number.
pub fn pair_next_round(t: &mut TeamTournament) -> Result<u32, TeamError> {
    if t.system != TeamSystem::Swiss {
        t.total_rounds = rounds_of(t);
    }
    let r = next_round(t)?;
    t.record_round(r)
}
