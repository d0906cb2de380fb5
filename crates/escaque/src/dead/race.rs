//! A search phase for a winner with nothing but its king and pawns: first
//! the promotion race, with the loser's moves kept out of the pawn's way,
//! then the mating search from each position with the new piece.
//!
//! The helpmate search proper spends its budget on the loser's piece moves
//! between the pawn's steps (each of them may be the one that blocks or takes
//! the pawn later). Here the winner only moves its pawns and the loser only
//! makes moves that neither capture, nor give check, nor stand on a square in
//! front of one of the winner's pawns; each promotion is followed by a small
//! mating search. A line found is a witness like any other (it is replayed by
//! the rules before it is handed out); finding none proves nothing, so this
//! phase can only answer "winnable".

use super::search::Search;
use super::Winnability;
use crate::{Bitboard, Color, Move, Position, Role};

/// Budget of one mating search after a promotion.
const MATE_NODES: u64 = 20_000;

/// True if the winner has nothing but its king and pawns (and some pawns).
pub(super) fn applies(pos: &Position, winner: Color) -> bool {
    let ours = pos.by_color(winner);
    let pawns = pos.pieces(winner, Role::Pawn);
    pawns.any() && (ours & !pawns & !pos.by_role(Role::King)).is_empty()
}

struct Race {
    winner: Color,
    nodes: u64,
    limit: u64,
    line: Vec<Move>,
}

/// Looks for a helpmate that first promotes a pawn, within about `limit`
/// nodes (race and mating searches together).
pub(super) fn promotion_race(pos: &Position, winner: Color, limit: u64) -> Option<Vec<Move>> {
    let mut race = Race {
        winner,
        nodes: 0,
        limit,
        line: Vec::new(),
    };
    if race.step(pos, 24) {
        Some(race.line)
    } else {
        None
    }
}

impl Race {
    fn step(&mut self, pos: &Position, plies: u32) -> bool {
        if plies == 0 || self.nodes >= self.limit {
            return false;
        }
        let moves = pos.legal_moves();
        if pos.turn() == self.winner {
            // Pawn moves, the most advanced pawn first, promotions to a
            // queen first.
            let mut mine: Vec<(i32, Move)> = moves
                .iter()
                .copied()
                .filter(|m| pos.pieces(self.winner, Role::Pawn).contains(m.from()))
                .map(|m| {
                    let rank = m.to().rank().relative_to(self.winner).index() as i32;
                    let kind = match m.promotion_role() {
                        Some(Role::Queen) => 0,
                        None => 1,
                        Some(Role::Knight) => 2,
                        Some(_) => 3,
                    };
                    (kind * 16 - rank, m)
                })
                .collect();
            mine.sort_by_key(|&(k, _)| k);
            for (_, m) in mine {
                self.nodes += 1;
                let mut child = *pos;
                child.play_unchecked(m);
                self.line.push(m);
                if m.promotion_role().is_some() {
                    if let Some(mut rest) = self.mate(&child) {
                        self.line.append(&mut rest);
                        return true;
                    }
                } else if self.step(&child, plies - 1) {
                    return true;
                }
                self.line.pop();
                if self.nodes >= self.limit {
                    return false;
                }
            }
            false
        } else {
            // The loser keeps out of the way: no captures, no checks, no
            // piece on a square in front of a winner's pawn. Its pawns'
            // pushes first, then its pieces, then its king.
            let pawns = pos.pieces(self.winner, Role::Pawn);
            let mut ahead = Bitboard::EMPTY;
            let mut front = pawns;
            for _ in 0..7 {
                front = front.forward(self.winner);
                ahead |= front;
            }
            let theirs = pos.by_color(self.winner);
            let mut quiet: Vec<(u8, Move)> = Vec::new();
            for &m in moves.iter() {
                if theirs.contains(m.to()) || m.is_en_passant() || ahead.contains(m.to()) {
                    continue;
                }
                let mut child = *pos;
                child.play_unchecked(m);
                if child.is_check() {
                    continue;
                }
                let order = if pos.by_role(Role::Pawn).contains(m.from()) {
                    0
                } else if pos.by_role(Role::King).contains(m.from()) {
                    2
                } else {
                    1
                };
                quiet.push((order, m));
            }
            quiet.sort_by_key(|&(k, _)| k);
            // A few replies suffice: they only have to let the pawn through.
            for &(_, m) in quiet.iter().take(4) {
                self.nodes += 1;
                let mut child = *pos;
                child.play_unchecked(m);
                self.line.push(m);
                if self.step(&child, plies - 1) {
                    return true;
                }
                self.line.pop();
                if self.nodes >= self.limit {
                    return false;
                }
            }
            false
        }
    }

    /// A mating search from the position after a promotion.
    fn mate(&mut self, pos: &Position) -> Option<Vec<Move>> {
        let mut search = Search::new(pos, self.winner);
        search.use_tt = true;
        search.global_limit = MATE_NODES.min(self.limit.saturating_sub(self.nodes));
        search.per_depth_limit = u64::MAX;
        let r = search.deepen(pos, 1..=40);
        self.nodes += search.nodes;
        match r {
            Some(Winnability::Winnable(line)) => Some(line),
            _ => None,
        }
    }
}
