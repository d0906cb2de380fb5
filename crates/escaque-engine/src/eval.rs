//! Static evaluation: a tapered (middlegame/endgame) sum of linear terms.
//!
//! Every term is a weight from [`crate::weights::WEIGHTS`] multiplied by a count
//! taken from the position. [`trace`] walks the position once and reports each
//! (term, count) pair to an [`Accumulator`]: the engine accumulates scores, the
//! tuner records the counts as features of a logistic model.

use escaque::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use escaque::{Bitboard, Color, Position, Role, Square};

use crate::weights::WEIGHTS;

/// Material value of each role (pawn … king), in the middlegame.
pub const MATERIAL: usize = 0;
/// Piece-square tables: 6 roles × 64 squares, from the owner's point of view.
pub const PST: usize = MATERIAL + 6;
/// Knight mobility by number of safe squares (0..=8).
pub const MOB_N: usize = PST + 6 * 64;
/// Bishop mobility (0..=13).
pub const MOB_B: usize = MOB_N + 9;
/// Rook mobility (0..=14).
pub const MOB_R: usize = MOB_B + 14;
/// Queen mobility (0..=27).
pub const MOB_Q: usize = MOB_R + 15;
/// Passed pawn by relative rank (0..=7).
pub const PASSED: usize = MOB_Q + 28;
/// Isolated pawn.
pub const ISOLATED: usize = PASSED + 8;
/// Doubled pawn (a friendly pawn stands in front of it).
pub const DOUBLED: usize = ISOLATED + 1;
/// Backward pawn.
pub const BACKWARD: usize = DOUBLED + 1;
/// Attack units on the enemy king zone, capped at 15.
pub const KING_DANGER: usize = BACKWARD + 1;
/// Pawns in front of the own king (0..=3).
pub const SHIELD: usize = KING_DANGER + 16;
/// Files at and next to the king with no pawn of its own.
pub const KING_OPEN: usize = SHIELD + 4;
/// Two bishops or more.
pub const BISHOP_PAIR: usize = KING_OPEN + 1;
/// Rook on a file with no pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// Rook on a file with only enemy pawns.
pub const ROOK_SEMI: usize = ROOK_OPEN + 1;
/// Side to move.
pub const TEMPO: usize = ROOK_SEMI + 1;
/// A passed pawn whose path to promotion is free of pieces, by relative rank.
pub const PASSED_FREE: usize = TEMPO + 1;
/// Number of weights.
pub const N_PARAMS: usize = PASSED_FREE + 8;

// The weights table (written by `escaque-tune fit`) has one entry per term.
const _: () = assert!(WEIGHTS.len() == N_PARAMS);

/// Full game phase (all minor and major pieces on the board).
pub const PHASE_MAX: i32 = 24;

/// Receives the terms of the evaluation: `count` times weight `index`, counted
/// positive for White and negative for Black.
pub trait Accumulator {
    /// Adds `count` units of term `index`.
    fn add(&mut self, index: usize, count: i32);
}

/// The engine's accumulator: middlegame and endgame sums.
#[derive(Default)]
struct Score {
    mg: i32,
    eg: i32,
}

impl Accumulator for Score {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        let w = WEIGHTS[index];
        self.mg += w[0] as i32 * count;
        self.eg += w[1] as i32 * count;
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

const fn file_mask(f: usize) -> u64 {
    FILE_A << f
}

const fn adjacent_files(f: usize) -> u64 {
    let mut m = 0;
    if f > 0 {
        m |= file_mask(f - 1);
    }
    if f < 7 {
        m |= file_mask(f + 1);
    }
    m
}

/// Squares strictly in front of `sq` (from `color`'s side) on ranks only.
const fn ranks_ahead(color: usize, rank: usize) -> u64 {
    if color == 0 {
        if rank >= 7 {
            0
        } else {
            !0u64 << ((rank + 1) * 8)
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> ((8 - rank) * 8)
    }
}

const fn build_front(adjacent: bool) -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let files = if adjacent {
                file_mask(sq % 8) | adjacent_files(sq % 8)
            } else {
                file_mask(sq % 8)
            };
            t[c][sq] = files & ranks_ahead(c, sq / 8);
            sq += 1;
        }
        c += 1;
    }
    t
}

/// Squares in front of a pawn on its file.
const FRONT: [[u64; 64]; 2] = build_front(false);
/// Squares in front of a pawn on its file and the adjacent ones (passed-pawn span).
const PASSED_SPAN: [[u64; 64]; 2] = build_front(true);

#[inline(always)]
fn pawn_attacks_all(color: Color, pawns: u64) -> u64 {
    const NOT_A: u64 = !FILE_A;
    const NOT_H: u64 = !(FILE_A << 7);
    match color {
        Color::White => ((pawns & NOT_A) << 7) | ((pawns & NOT_H) << 9),
        Color::Black => ((pawns & NOT_A) >> 9) | ((pawns & NOT_H) >> 7),
    }
}

/// The game phase, 0 (bare kings and pawns) to [`PHASE_MAX`].
pub fn phase(pos: &Position) -> i32 {
    let minors = (pos.by_role(Role::Knight) | pos.by_role(Role::Bishop)).count() as i32;
    let rooks = pos.by_role(Role::Rook).count() as i32;
    let queens = pos.by_role(Role::Queen).count() as i32;
    (minors + 2 * rooks + 4 * queens).min(PHASE_MAX)
}

/// Reports every term of the evaluation of `pos` to `acc` (White positive).
pub fn trace<A: Accumulator>(pos: &Position, acc: &mut A) {
    let occ = pos.occupied();
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        let them = color.other();
        let ci = color.index();
        let own = pos.by_color(color);
        let own_pawns = pos.pieces(color, Role::Pawn).0;
        let their_pawns = pos.pieces(them, Role::Pawn).0;
        let their_pawn_att = pawn_attacks_all(them, their_pawns);
        let area = !own.0 & !their_pawn_att;
        let their_king = pos.king(them);
        let zone = king_attacks(their_king).0 | Bitboard::from_square(their_king).0;
        let mut units = 0i32;
        let rel = |sq: Square| -> usize {
            if color == Color::White {
                sq.index()
            } else {
                sq.flip_vertical().index()
            }
        };

        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                acc.add(MATERIAL + role.index(), sign);
                acc.add(PST + role.index() * 64 + rel(sq), sign);
                match role {
                    Role::Pawn => {
                        let f = sq.file().index();
                        let isolated = own_pawns & adjacent_files(f) == 0;
                        if isolated {
                            acc.add(ISOLATED, sign);
                        }
                        if own_pawns & FRONT[ci][sq.index()] != 0 {
                            acc.add(DOUBLED, sign);
                        }
                        let rr = rel(sq) / 8;
                        if their_pawns & PASSED_SPAN[ci][sq.index()] == 0
                            && own_pawns & FRONT[ci][sq.index()] == 0
                        {
                            acc.add(PASSED + rr, sign);
                            if occ.0 & FRONT[ci][sq.index()] == 0 {
                                acc.add(PASSED_FREE + rr, sign);
                            }
                        } else if !isolated {
                            // Backward: no friendly pawn beside or behind it on the
                            // adjacent files, and its stop square is hit by a pawn.
                            let behind = adjacent_files(f) & !ranks_ahead(ci, sq.rank().index());
                            let stop = if color == Color::White {
                                sq.index() + 8
                            } else {
                                sq.index().wrapping_sub(8)
                            };
                            if own_pawns & behind == 0
                                && stop < 64
                                && their_pawn_att & (1u64 << stop) != 0
                            {
                                acc.add(BACKWARD, sign);
                            }
                        }
                    }
                    Role::Knight => {
                        let a = knight_attacks(sq).0;
                        acc.add(MOB_N + (a & area).count_ones() as usize, sign);
                        if a & zone != 0 {
                            units += 2;
                        }
                    }
                    Role::Bishop => {
                        let a = bishop_attacks(sq, occ).0;
                        acc.add(MOB_B + (a & area).count_ones() as usize, sign);
                        if a & zone != 0 {
                            units += 2;
                        }
                    }
                    Role::Rook => {
                        let a = rook_attacks(sq, occ).0;
                        acc.add(MOB_R + (a & area).count_ones() as usize, sign);
                        if a & zone != 0 {
                            units += 3;
                        }
                        let fm = file_mask(sq.file().index());
                        if own_pawns & fm == 0 {
                            if their_pawns & fm == 0 {
                                acc.add(ROOK_OPEN, sign);
                            } else {
                                acc.add(ROOK_SEMI, sign);
                            }
                        }
                    }
                    Role::Queen => {
                        let a = (bishop_attacks(sq, occ) | rook_attacks(sq, occ)).0;
                        acc.add(MOB_Q + (a & area).count_ones() as usize, sign);
                        if a & zone != 0 {
                            units += 5;
                        }
                    }
                    Role::King => {
                        let f = sq.file().index();
                        let files = file_mask(f) | adjacent_files(f);
                        let shield_ranks = ranks_ahead(ci, sq.rank().index())
                            & !ranks_ahead(
                                ci,
                                if color == Color::White {
                                    (sq.rank().index() + 2).min(7)
                                } else {
                                    sq.rank().index().saturating_sub(2)
                                },
                            );
                        let shield = (own_pawns & files & shield_ranks).count_ones().min(3);
                        acc.add(SHIELD + shield as usize, sign);
                        let mut open = 0;
                        for ff in f.saturating_sub(1)..=(f + 1).min(7) {
                            if own_pawns & file_mask(ff) == 0 {
                                open += 1;
                            }
                        }
                        acc.add(KING_OPEN, sign * open);
                    }
                }
            }
        }
        acc.add(KING_DANGER + units.min(15) as usize, sign);
        if pos.pieces(color, Role::Bishop).count() >= 2 {
            acc.add(BISHOP_PAIR, sign);
        }
    }
    acc.add(TEMPO, if pos.turn() == Color::White { 1 } else { -1 });
}

/// The evaluation in centipawns from the point of view of the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    if pos.is_insufficient_material() {
        return 0;
    }
    let mut s = Score::default();
    trace(pos, &mut s);
    let ph = phase(pos);
    let v = (s.mg * ph + s.eg * (PHASE_MAX - ph)) / PHASE_MAX;
    scale_drawish(pos, if pos.turn() == Color::White { v } else { -v })
}

/// An evaluation `v` (side to move's point of view) divided by 8 when the
/// side it favours has no pawns and no more than a minor piece's worth of
/// material over the other: without pawns that is not enough to win.
pub fn scale_drawish(pos: &Position, v: i32) -> i32 {
    let strong = if v > 0 {
        pos.turn()
    } else {
        pos.turn().other()
    };
    if pos.pieces(strong, Role::Pawn).is_empty() {
        let strong_np = non_pawn_material(pos, strong);
        let weak_np = non_pawn_material(pos, strong.other());
        if strong_np - weak_np <= 350 {
            return v / 8;
        }
    }
    v
}

/// Rough value of the pieces other than pawns and king (for scaling and pruning).
pub fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    pos.pieces(color, Role::Knight).count() as i32 * 320
        + pos.pieces(color, Role::Bishop).count() as i32 * 330
        + pos.pieces(color, Role::Rook).count() as i32 * 500
        + pos.pieces(color, Role::Queen).count() as i32 * 950
}
