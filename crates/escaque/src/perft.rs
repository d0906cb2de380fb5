//! Perft: counting the leaf nodes of the legal move tree, the standard check of a
//! move generator against published tables.

use crate::{Move, Position};

/// The number of legal move sequences of length `depth` from `pos`.
///
/// ```
/// use escaque::{perft, Position};
/// assert_eq!(perft(&Position::new(), 3), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut next = *pos;
                next.play_unchecked(m);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// Perft split by root move: each legal move with the count below it, in the
/// generator's order. `depth` 0 gives an empty list.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut next = *pos;
            next.play_unchecked(m);
            (m, perft(&next, depth - 1))
        })
        .collect()
}
