//! Correction history: what the search has lately found the static
//! evaluation to get wrong in positions with the same pawns, and with the
//! same pieces of each side, added back to the evaluation the pruning reads.
//!
//! Three tables per side to move, each a running average of (search score −
//! corrected static evaluation) in 1/[`GRAIN`] of a centipawn: one indexed by
//! a hash of both sides' pawns, one by a hash of White's pieces other than
//! pawns, one by Black's. A node updates them when its score says more than
//! its evaluation (not in check, the best move quiet or none, the bound on
//! the right side of the evaluation, not a mate), weighted by its depth.

use escaque::{Color, Position, Role};

/// Entries per table (a power of two).
const SIZE: usize = 16384;
/// Units of an entry per centipawn.
const GRAIN: i32 = 256;
/// An entry's bound: ± 64 centipawns.
const LIMIT: i32 = 64 * GRAIN;
/// Most weight (of 256) one update gets.
const MAX_WEIGHT: i32 = 16;

pub(crate) struct Correction {
    /// `[side to move][index]`.
    pawns: Box<[[i16; SIZE]; 2]>,
    /// `[side to move][colour of the pieces][index]`.
    pieces: Box<[[[i16; SIZE]; 2]; 2]>,
}

#[inline]
fn mix(mut x: u64) -> u64 {
    // A 64-bit finaliser (the constants of splitmix64): every input bit
    // reaches every output bit.
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[inline]
fn index(h: u64) -> usize {
    (h >> 50) as usize & (SIZE - 1)
}

fn pawn_index(pos: &Position) -> usize {
    let w = pos.pieces(Color::White, Role::Pawn).0;
    let b = pos.pieces(Color::Black, Role::Pawn).0;
    index(mix(w ^ mix(b ^ 0x9e37_79b9_7f4a_7c15)))
}

fn piece_index(pos: &Position, color: Color) -> usize {
    let mut h = color.index() as u64;
    for role in [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ] {
        h = mix(h ^ pos.pieces(color, role).0);
    }
    index(h)
}

impl Correction {
    pub fn new() -> Correction {
        Correction {
            pawns: Box::new([[0; SIZE]; 2]),
            pieces: Box::new([[[0; SIZE]; 2]; 2]),
        }
    }

    /// The correction for `pos`, in centipawns from the side to move's point
    /// of view: the pawn table's entry plus the mean of the two piece
    /// tables' (at most ± 128). Since each update pulls the entries towards
    /// the error left *after* this correction, a constant error d is at rest
    /// when each entry holds d/3: two thirds of it corrected, a damped
    /// feedback rather than a full one.
    pub fn get(&self, pos: &Position) -> i32 {
        let stm = pos.turn().index();
        let p = self.pawns[stm][pawn_index(pos)] as i32;
        let w = self.pieces[stm][0][piece_index(pos, Color::White)] as i32;
        let b = self.pieces[stm][1][piece_index(pos, Color::Black)] as i32;
        (2 * p + w + b) / (2 * GRAIN)
    }

    /// The search found `diff` centipawns (score − corrected evaluation) at
    /// `depth`.
    pub fn update(&mut self, pos: &Position, depth: i32, diff: i32) {
        let stm = pos.turn().index();
        let target = (diff * GRAIN).clamp(-LIMIT, LIMIT);
        let weight = (depth + 1).min(MAX_WEIGHT);
        let blend = |e: &mut i16| {
            let v = (*e as i32 * (256 - weight) + target * weight) / 256;
            *e = v.clamp(-LIMIT, LIMIT) as i16;
        };
        blend(&mut self.pawns[stm][pawn_index(pos)]);
        blend(&mut self.pieces[stm][0][piece_index(pos, Color::White)]);
        blend(&mut self.pieces[stm][1][piece_index(pos, Color::Black)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use escaque::read::{read_move, Notation};

    #[test]
    fn starts_at_zero_and_moves_towards_what_the_search_found() {
        let pos = Position::default();
        let mut c = Correction::new();
        assert_eq!(c.get(&pos), 0);
        for _ in 0..200 {
            c.update(&pos, 15, 40);
        }
        // Each table's running average approaches +40 without passing it;
        // the correction is the pawn table's plus the mean of the others.
        let v = c.get(&pos);
        assert!((76..=80).contains(&v), "{v}");
        for _ in 0..400 {
            c.update(&pos, 15, 10_000);
        }
        let v = c.get(&pos);
        assert!(
            (126..=128).contains(&v),
            "each table is bounded at ±64 cp: {v}"
        );
        for _ in 0..400 {
            c.update(&pos, 3, -10_000);
        }
        let v = c.get(&pos);
        assert!((-128..=-126).contains(&v), "{v}");
        // The other side to move has its own entries.
        let black = pos.null_move().expect("no check at the start");
        assert_eq!(c.get(&black), 0);
    }

    #[test]
    fn a_constant_error_in_the_search_settles_at_two_thirds_corrected() {
        let pos = Position::default();
        let mut c = Correction::new();
        for _ in 0..500 {
            let corrected = 30 + c.get(&pos);
            c.update(&pos, 10, 90 - corrected);
        }
        // Raw evaluation 30, the search says 90: 30 + 2/3 · 60 = 70.
        let v = 30 + c.get(&pos);
        assert!((68..=72).contains(&v), "{v}");
    }

    #[test]
    fn positions_with_other_pawns_or_pieces_have_other_entries() {
        let start = Position::default();
        let mut c = Correction::new();
        for _ in 0..300 {
            c.update(&start, 12, 50);
        }
        let after = |uci: &str| {
            let mut p = start;
            let m = read_move(&p, uci, Notation::Uci).expect("a legal move");
            p.play_unchecked(m);
            p
        };
        // Black to move, other pawns: nothing learnt for it.
        assert_eq!(c.get(&after("e2e4")), 0);
        let after_nf3 = after("g1f3");
        let back = after_nf3.null_move().expect("no check");
        // White to move again, same pawns, White's pieces moved: the pawn
        // table and Black's piece table still speak, White's does not.
        let v = c.get(&back);
        assert!((60..=75).contains(&v), "{v}");
    }
}
