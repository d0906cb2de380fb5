//! Proofs of unwinnability by a few plies of every legal move, each position
//! reached proved by the static analysis with its case split.
//!
//! The static analysis judges a position as a whole: one piece that can
//! roam (a rook about to be taken, a piece that must capture at once to
//! answer a check) spoils the reach of every other piece. A ply or two of
//! every legal move often removes it, and the positions after them fall to
//! the analysis. Soundness is plain: a position with legal moves, each of
//! which leads to a position proved unwinnable, is unwinnable (every
//! continuation passes through one of them); a position without legal moves
//! ends the game, and is unwinnable unless the winner's opponent is mated
//! there; each leaf is proved by the analysis, itself sound. The cost is
//! bounded: at most 48 analyses in all.

use super::statics::StaticAnalysis;
use crate::{Color, Position};

/// The most static analyses (each a case split of up to 96 fixpoints) one
/// expansion may run.
pub(super) const EXPANSION_ANALYSES: u32 = 48;

/// True if every continuation of `plies` plies (fewer where the game ends
/// or a position is proved earlier) leads to positions the static analysis
/// proves unwinnable for `winner`, within `EXPANSION_ANALYSES` analyses. The
/// analysis of `pos` itself is left to the caller (it has been run and has
/// failed).
pub(super) fn proves_by_expansion(pos: &Position, winner: Color, plies: u32) -> bool {
    let mut left = EXPANSION_ANALYSES;
    expand(pos, winner, plies, true, &mut left)
}

fn expand(pos: &Position, winner: Color, plies: u32, root: bool, left: &mut u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        // Mate of the loser is the one thing to disprove; stalemate or the
        // winner mated end the game without it.
        return !(pos.is_check() && pos.turn() == winner.other());
    }
    if pos.has_insufficient_material(winner) {
        return true;
    }
    if !root {
        if *left == 0 {
            return false;
        }
        *left -= 1;
        if StaticAnalysis::proves_unwinnable_split(pos, winner) {
            return true;
        }
    }
    if plies == 0 || moves.len() as u32 > *left {
        return false;
    }
    moves.iter().all(|&m| {
        let mut child = *pos;
        child.play_unchecked(m);
        expand(&child, winner, plies - 1, false, left)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn a_forced_capture_then_the_analysis() {
        // Black's rook must take on a6 and is taken: then neither side can
        // mate (chasolver), which the analysis proves after those plies.
        let p = pos("1bB5/k7/R5r1/8/1pBp1p1p/1PpP1PbP/K1P4b/RB6 b - - 0 1");
        for c in [Color::White, Color::Black] {
            assert!(!StaticAnalysis::proves_unwinnable_split(&p, c));
            assert!(!proves_by_expansion(&p, c, 1));
            assert!(proves_by_expansion(&p, c, 2));
        }
    }

    #[test]
    fn a_winnable_neighbour_is_not_proved() {
        // The same family with a black bishop on h8 instead of g3: White can
        // mate (chasolver), Black cannot.
        let p = pos("1bB4b/k7/R5r1/8/1pBp1p1p/1PpP1P1P/K1P4b/RB6 b - - 0 1");
        assert!(!proves_by_expansion(&p, Color::White, 2));
        assert!(proves_by_expansion(&p, Color::Black, 2));
    }

    #[test]
    fn a_mate_in_the_tree_is_never_proved() {
        // White mates at once (Qb8#): no expansion may call it unwinnable.
        let p = pos("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");
        for plies in 0..3 {
            assert!(!proves_by_expansion(&p, Color::White, plies));
        }
    }
}
