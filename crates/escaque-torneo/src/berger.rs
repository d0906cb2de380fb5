//! Round robin with the Berger tables (FIDE C.05 Annex 1).
//!
//! For `n` players (a dummy `n + 1` makes an odd number even; whoever meets
//! it rests), round `r` seats the last player against `p(r)`, with
//! `p(r) = (r + 1) / 2` in odd rounds (the last player has Black) and
//! `n / 2 + r / 2` in even rounds (the last player has White); on board `k`
//! the player `k - 1` places after `p(r)` in the cycle of the other `n - 1`
//! has White against the one `k - 1` places before.

use crate::error::TorneoError;
use crate::model::{ByeKind, Game, Outcome, PlayerId, Round, Tournament};

/// The pairings (White, Black) of round `round` (1-based, up to `n - 1`) of
/// a single round robin of `n` players, `n` even, in board order.
pub fn table_round(n: u32, round: u32) -> Vec<(u32, u32)> {
    assert!(n >= 2 && n.is_multiple_of(2) && round >= 1 && round < n);
    let m = n - 1;
    let p = if round % 2 == 1 {
        round.div_ceil(2)
    } else {
        n / 2 + round / 2
    };
    let mut out = Vec::with_capacity(n as usize / 2);
    out.push(if round % 2 == 1 { (p, n) } else { (n, p) });
    for k in 1..n / 2 {
        let white = (p - 1 + k) % m + 1;
        let black = (p - 1 + m - k) % m + 1;
        out.push((white, black));
    }
    out
}

/// All rounds for `players` players (any number ≥ 2), single or double.
/// `None` is the bye (the table's highest number when `players` is odd).
///
/// A double round robin follows FIDE C.05 Annex 1: the second cycle is the
/// table again, round by round in the table's order, with colours reversed;
/// and the last two rounds of the FIRST cycle only are swapped, so that no
/// one has the same colour three rounds running across the two cycles. With
/// 4 players: 1-4 2-3 | 2-4 3-1 | 4-3 1-2 | 4-1 3-2 | 3-4 2-1 | 4-2 1-3.
pub fn schedule(players: u32, double: bool) -> Vec<Vec<(u32, Option<u32>)>> {
    let n = players + players % 2;
    let table: Vec<Vec<(u32, u32)>> = (1..n).map(|r| table_round(n, r)).collect();
    let mut rounds = table.clone();
    if double {
        // C.05 Annex 1: the first cycle's last two rounds swapped…
        let l = rounds.len();
        if l >= 2 {
            rounds.swap(l - 1, l - 2);
        }
        // …and the second cycle in the table's own order, colours reversed.
        rounds.extend(
            table
                .iter()
                .map(|r| r.iter().map(|&(w, b)| (b, w)).collect()),
        );
    }
    rounds
        .into_iter()
        .map(|r| {
            r.into_iter()
                .map(|(w, b)| {
                    if w > players {
                        (b, None)
                    } else if b > players {
                        (w, None)
                    } else {
                        (w, Some(b))
                    }
                })
                .collect()
        })
        .collect()
}

/// Builds round `round` of a round-robin tournament from the table. A player
/// who is withdrawn or absent loses by forfeit (the game stays in the table).
pub(crate) fn tournament_round(
    t: &Tournament,
    round: u32,
    double: bool,
) -> Result<Round, TorneoError> {
    let n = t.players.len() as u32;
    if n < 2 {
        return Err(TorneoError::NoPairing { round });
    }
    let sched = schedule(n, double);
    let pairs = sched
        .get(round as usize - 1)
        .ok_or(TorneoError::TournamentOver(sched.len() as u32))?;
    let mut r = Round::default();
    for &(a, b) in pairs {
        match b {
            None => r.byes.push((a as PlayerId, ByeKind::Zero)),
            Some(b) => {
                let (wa, ba) = (
                    t.players[a as usize - 1].available(round),
                    t.players[b as usize - 1].available(round),
                );
                let outcome = match (wa, ba) {
                    (true, true) => Outcome::Pending,
                    (true, false) => Outcome::WhiteForfeitWin,
                    (false, true) => Outcome::BlackForfeitWin,
                    (false, false) => Outcome::DoubleForfeit,
                };
                r.games.push(Game {
                    white: a,
                    black: b,
                    outcome,
                    unusual: None,
                });
            }
        }
    }
    Ok(r)
}
