//! Attack tables: knight, king and pawn steps, rook and bishop rays by magic
//! bitboards, and the `between`/`line` tables used for pins and checks.
//!
//! Every table is a `static` computed by `const fn` at compile time: nothing runs
//! at start-up. The magic multipliers were found by `examples/find_magics.rs`;
//! building the tables checks each one against the slow ray walk and refuses to
//! compile if any blocker set would be mapped to a wrong attack set.

use crate::{Bitboard, Color, Square};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Squares reached by walking `dirs` from `sq`, each ray stopping at the first
/// occupied square (included). With `edges == false` the last square of every ray
/// is left out: that is the "relevant occupancy" mask of a magic lookup.
const fn ray_walk(sq: usize, occ: u64, dirs: &[(i32, i32); 4], edges: bool) -> u64 {
    let mut out = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32;
        let mut r = (sq / 8) as i32;
        loop {
            f += df;
            r += dr;
            if f < 0 || f > 7 || r < 0 || r > 7 {
                break;
            }
            let (nf, nr) = (f + df, r + dr);
            if !edges && (nf < 0 || nf > 7 || nr < 0 || nr > 7) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            out |= bit;
            if occ & bit != 0 {
                break;
            }
        }
        d += 1;
    }
    out
}

/// Rook attacks by walking the rays square by square (slow; the reference the
/// magic tables are checked against).
pub const fn rook_attacks_slow(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(ray_walk(sq.index(), occupied.0, &ROOK_DIRS, true))
}

/// Bishop attacks by walking the rays square by square (slow reference).
pub const fn bishop_attacks_slow(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(ray_walk(sq.index(), occupied.0, &BISHOP_DIRS, true))
}

/// The squares whose occupancy matters to a rook on `sq` (rays without their ends).
pub const fn rook_mask(sq: Square) -> Bitboard {
    Bitboard(ray_walk(sq.index(), 0, &ROOK_DIRS, false))
}

/// The squares whose occupancy matters to a bishop on `sq`.
pub const fn bishop_mask(sq: Square) -> Bitboard {
    Bitboard(ray_walk(sq.index(), 0, &BISHOP_DIRS, false))
}

const ROOK_MAGICS: [u64; 64] = [
    0x2080002080400010,
    0x00C0002001401000,
    0x2100110008402002,
    0x0880080081041000,
    0x0200020020041008,
    0x2300040008010012,
    0x0C00283004008201,
    0x0180010000407A80,
    0x0168800080400020,
    0x0010400040201000,
    0x1001002001001048,
    0x1001002408100100,
    0x0801000408010012,
    0x4001000209000400,
    0x08A20004C8020001,
    0x2002801145002280,
    0x0080860021004200,
    0x001000C009402002,
    0x00B0002004002800,
    0x100A808010020800,
    0x8101010008000410,
    0x0244008002000480,
    0x0000040010810208,
    0x2000020000448534,
    0x4104400480008033,
    0x0000810100204000,
    0x0440430900200010,
    0x4600240900100100,
    0x0060080080040080,
    0x0001000300080400,
    0x0004084400011002,
    0x0023040200008041,
    0x0580050043002080,
    0x0400804002802008,
    0x0001002001004010,
    0x1000200901001000,
    0x4410800801800C00,
    0xA012003806001004,
    0x0020100104008802,
    0x0004808402000041,
    0x0010400170898000,
    0x0080500020004004,
    0x1040408012020020,
    0x8010040008004040,
    0x2001080100110004,
    0x0000020004008080,
    0x0021010810040002,
    0x0800008C43020024,
    0x0000800021005100,
    0x0070201040008080,
    0x0000D04282006A00,
    0x0010014400080240,
    0x0001080110050100,
    0x0012000810240600,
    0x0402000801040200,
    0x028100108A004100,
    0x0050800300102045,
    0x8208210040120882,
    0x8010600101183441,
    0x020B000910006045,
    0x0241001002480005,
    0x0081000400880241,
    0x0000009008024124,
    0x0048122980410402,
];
const BISHOP_MAGICS: [u64; 64] = [
    0x0848020822040013,
    0x8010A40085821200,
    0x0008008430840822,
    0x0808048108040000,
    0x1304042100008104,
    0x5001012010204023,
    0x81048801B8200420,
    0x200A008084012000,
    0x0040102001042084,
    0x840A505042428020,
    0x0000700102202920,
    0x44101C0C10800002,
    0x0040040422000000,
    0x0180020802090202,
    0x4020020811041202,
    0x000104308C042000,
    0x4140661002424400,
    0x0028012008010460,
    0x0188062102002A00,
    0x0014004840102008,
    0x0105000290400002,
    0x8001022200410400,
    0x104A041918013446,
    0x008A000082008238,
    0x04A0060008100430,
    0x0008220008820801,
    0x2508041208005010,
    0x4008080200202020,
    0x2441001013004000,
    0x0030008060407000,
    0x4008108000420800,
    0x0012021050290100,
    0x0210080482200500,
    0xCC01112048100480,
    0x0020402806500440,
    0x00048E0080580080,
    0x0040102020020080,
    0x0028010440080807,
    0x4601041108008800,
    0x8040810E04104200,
    0x901210110400088A,
    0xA003080212081050,
    0x00C1004048401004,
    0x900000A014400800,
    0x0008021040405401,
    0x4020008206002090,
    0x0004190424030100,
    0x0424008A02026250,
    0x8004088250900040,
    0x1C00430088A04200,
    0x0001020094040001,
    0x8040210020880061,
    0x2010040450442032,
    0x0800840850044001,
    0x0004040802140004,
    0x0004080A04222020,
    0x8088802110022000,
    0x1081A10416114400,
    0x0205010A24060820,
    0x0000000720411080,
    0x1008000208430400,
    0x580C026028810840,
    0x802020441020A110,
    0x12C0022401020018,
];

#[derive(Copy, Clone)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

const ROOK_TABLE_LEN: usize = 102_400;
const BISHOP_TABLE_LEN: usize = 5_248;
const SLIDER_TABLE_LEN: usize = ROOK_TABLE_LEN + BISHOP_TABLE_LEN;

const fn magic_entries(magics: &[u64; 64], dirs: &[(i32, i32); 4], start: usize) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = ray_walk(sq, 0, dirs, false);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: magics[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

static ROOK_MAGIC: [Magic; 64] = magic_entries(&ROOK_MAGICS, &ROOK_DIRS, 0);
static BISHOP_MAGIC: [Magic; 64] = magic_entries(&BISHOP_MAGICS, &BISHOP_DIRS, ROOK_TABLE_LEN);

const fn fill_slider_table(
    mut table: [u64; SLIDER_TABLE_LEN],
    entries: &[Magic; 64],
    dirs: &[(i32, i32); 4],
) -> [u64; SLIDER_TABLE_LEN] {
    let mut sq = 0;
    while sq < 64 {
        let m = entries[sq];
        // Carry-rippler enumeration of every subset of the mask.
        let mut sub = 0u64;
        loop {
            let attacks = ray_walk(sq, sub, dirs, true);
            let idx = m.offset + (sub.wrapping_mul(m.magic) >> m.shift) as usize;
            if table[idx] != 0 && table[idx] != attacks {
                panic!("a magic number maps two blocker sets with different attacks together");
            }
            table[idx] = attacks;
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

static SLIDER_TABLE: [u64; SLIDER_TABLE_LEN] = fill_slider_table(
    fill_slider_table([0; SLIDER_TABLE_LEN], &ROOK_MAGIC, &ROOK_DIRS),
    &BISHOP_MAGIC,
    &BISHOP_DIRS,
);

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let m = &ROOK_MAGIC[sq.index()];
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDER_TABLE[m.offset + idx])
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let m = &BISHOP_MAGIC[sq.index()];
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDER_TABLE[m.offset + idx])
}

/// Squares a queen on `sq` attacks.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

const fn step_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            let f = (sq % 8) as i32 + steps[i].0;
            let r = (sq / 8) as i32 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                out[sq] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

static KNIGHT: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (its diagonal captures).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares attacked by a piece of `role` and `color` on `sq`.
#[inline]
pub fn attacks(role: crate::Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    use crate::Role;
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// `(between, line)`: for two squares on a common row, column or diagonal, the
/// squares strictly between them, and the whole line through both from edge to
/// edge; both empty for squares not aligned.
const fn between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let dirs = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction (both ways).
            let mut full = 1u64 << a;
            let mut sign = -1;
            while sign <= 1 {
                let mut f = (a % 8) as i32;
                let mut r = (a / 8) as i32;
                loop {
                    f += sign * df;
                    r += sign * dr;
                    if f < 0 || f > 7 || r < 0 || r > 7 {
                        break;
                    }
                    full |= 1 << (r * 8 + f);
                }
                sign += 2;
            }
            let mut f = (a % 8) as i32;
            let mut r = (a / 8) as i32;
            let mut path = 0u64;
            loop {
                f += df;
                r += dr;
                if f < 0 || f > 7 || r < 0 || r > 7 {
                    break;
                }
                let b = (r * 8 + f) as usize;
                between[a][b] = path;
                line[a][b] = full;
                path |= 1 << b;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = between_and_line();

/// The squares strictly between `a` and `b` when they share a row, column or
/// diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.0[a.index()][b.index()])
}

/// The whole row, column or diagonal through `a` and `b` (edge to edge), or empty
/// when they are not aligned.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.1[a.index()][b.index()])
}

/// True if `a`, `b` and `c` lie on one row, column or diagonal.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn magic_lookup_equals_ray_walk() {
        let mut s = 0x1234_5678_9ABC_DEF1;
        for sq in Square::all() {
            for _ in 0..500 {
                let occ = Bitboard(xorshift(&mut s) & xorshift(&mut s));
                assert_eq!(rook_attacks(sq, occ), rook_attacks_slow(sq, occ));
                assert_eq!(bishop_attacks(sq, occ), bishop_attacks_slow(sq, occ));
            }
        }
    }

    #[test]
    fn step_tables() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::E4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from_square(Square::D5) | Bitboard::from_square(Square::F5)
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::A5),
            Bitboard::from_square(Square::B4)
        );
    }

    #[test]
    fn between_and_line_tables() {
        assert_eq!(between(Square::A1, Square::D4).count(), 2);
        assert!(between(Square::A1, Square::B3).is_empty());
        assert!(line(Square::A1, Square::B3).is_empty());
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert!(aligned(Square::E1, Square::E4, Square::E8));
    }
}
