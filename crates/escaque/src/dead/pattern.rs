//! Searches guided by a mating picture around a corner (see
//! [`super::search::Pattern`]): the loser's king walked into the corner, its
//! own pieces blocking the flight squares, the winner's king two squares
//! away and its other pieces on the squares that check. They find the
//! helpmates in which the loser's own pieces wall in its king — a knight
//! against bishops, a king shut in by its own bishop and mated by a queen
//! promoted on the far side — that the corner guidance of the main search
//! misses or reaches only after millions of positions.

use super::search::{Pattern, Search};
use super::Winnability;
use crate::{Color, Position, Square};

/// Tries the four corners, nearest to the loser's king first, in rounds of
/// growing budgets (each corner 1/64, then 1/16, then 1/6 of `nodes`, about
/// `nodes` in all): a line (`Winnable`), a proof (`Unwinnable`, when an
/// iteration closed uncut: the guidance only weights the search) or `None`.
pub(super) fn corners(pos: &Position, winner: Color, nodes: u64) -> Option<Winnability> {
    let king = pos.king(winner.other());
    let mut corners = [Square::A1, Square::H1, Square::A8, Square::H8];
    corners.sort_by_key(|&c| c.distance(king));
    for share in [64, 16, 6] {
        for corner in corners {
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
