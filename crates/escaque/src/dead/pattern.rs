//! Searches guided by a mating picture around a corner (see
//! [`super::search::Pattern`]): the loser's king walked into the corner, its
//! own pieces blocking the flight squares, the winner's king two squares
//! away and its other pieces on the squares that check. They find the
//! helpmates in which the loser's own pieces wall in its king — a knight
//! against bishops, a king shut in by its own bishop and mated by a queen
//! promoted on the far side — that the corner guidance of the main search
//! misses or reaches only after millions of positions.

use super::search::{Pattern, Search};
use super::statics::StaticAnalysis;
use super::Winnability;
use crate::attacks::king_attacks;
use crate::{Bitboard, Color, Position, Square};

/// Tries the corners, nearest to the loser's king first, in two rounds
/// (each corner 1/64, then 1/8 of `nodes`: at most 9/16 of `nodes` in
/// all): a line (`Winnable`), a proof (`Unwinnable`, when an iteration
/// closed uncut: the guidance only weights the search) or `None`.
pub(super) fn corners(
    pos: &Position,
    winner: Color,
    sa: &StaticAnalysis,
    nodes: u64,
) -> Option<Winnability> {
    let king = pos.king(winner.other());
    // Only corners whose square or a neighbour the loser's king may ever
    // reach (the static analysis over-approximates its squares): behind a
    // locked wall most corners are out of its reach, and a picture there
    // would only waste the budget.
    let reach = sa.reachable(king);
    let mut corners: Vec<Square> = [Square::A1, Square::H1, Square::A8, Square::H8]
        .into_iter()
        .filter(|&c| (reach & (king_attacks(c) | Bitboard::from_square(c))).any())
        .collect();
    corners.sort_by_key(|&c| c.distance(king));
    for share in [64, 8] {
        for &corner in &corners {
            let mut search = Search::new(pos, winner);
            search.pattern = Some(Box::new(Pattern::new(winner, corner)));
            search.global_limit = nodes / share;
            search.per_depth_limit = u64::MAX;
            match search.deepen(pos, 2..=128) {
                Some(Winnability::Undecided) | None => {}
                r => return r,
            }
        }
    }
    None
}
