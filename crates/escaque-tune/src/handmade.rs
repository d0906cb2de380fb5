//! The hand-written starting weights, before any tuning. `escaque-tune fit`
//! starts from these and writes its result to the engine's `weights.rs`.

use escaque_engine::eval::*;

const fn center(sq: usize) -> i32 {
    // 0 on the rim … 3 in the centre.
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    if df < dr {
        df
    } else {
        dr
    }
}

/// Hand-written weights: `[middlegame, endgame]` for each term.
pub const fn handmade() -> [[i16; 2]; N_PARAMS] {
    let mut w = [[0i16; 2]; N_PARAMS];
    let mat = [
        [80, 100],
        [320, 300],
        [330, 310],
        [470, 520],
        [950, 960],
        [0, 0],
    ];
    let mut i = 0;
    while i < 6 {
        w[MATERIAL + i] = mat[i];
        i += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let c = center(sq);
        let r = (sq / 8) as i32;
        let f = (sq % 8) as i32;
        // pawns
        let mut pm = (r - 1) * 4;
        if (f == 3 || f == 4) && r >= 2 {
            pm += 12;
        }
        if r == 0 || r == 7 {
            pm = 0;
        }
        let pe = if r == 0 || r == 7 { 0 } else { (r - 1) * 8 };
        w[PST + sq] = [pm as i16, pe as i16];
        // knights, bishops, queens: centralisation
        w[PST + 64 + sq] = [(c * 10 - 15) as i16, (c * 8 - 12) as i16];
        w[PST + 128 + sq] = [(c * 5 - 5) as i16, (c * 5 - 7) as i16];
        w[PST + 256 + sq] = [(c * 3 - 4) as i16, (c * 6 - 9) as i16];
        // rooks: seventh rank
        w[PST + 192 + sq] = [if r == 6 { 20 } else { 0 }, if r == 6 { 10 } else { 0 }];
        // king: sheltered on the back rank in the middlegame, central in the end
        let km = if r == 0 {
            if f == 1 || f == 2 || f == 6 {
                25
            } else if f == 4 || f == 3 {
                0
            } else {
                10
            }
        } else if r == 1 {
            -10
        } else {
            -30 - 5 * r
        };
        w[PST + 320 + sq] = [km as i16, (c * 12 - 20) as i16];
        sq += 1;
    }
    let mut k = 0;
    while k < 28 {
        let k32 = k as i32;
        if k < 9 {
            w[MOB_N + k] = [((k32 - 4) * 4) as i16, ((k32 - 4) * 4) as i16];
        }
        if k < 14 {
            w[MOB_B + k] = [((k32 - 6) * 5) as i16, ((k32 - 6) * 5) as i16];
        }
        if k < 15 {
            w[MOB_R + k] = [((k32 - 6) * 2) as i16, ((k32 - 6) * 4) as i16];
        }
        w[MOB_Q + k] = [(k32 - 12) as i16, ((k32 - 12) * 2) as i16];
        k += 1;
    }
    let passed = [
        [0, 0],
        [5, 10],
        [8, 15],
        [15, 25],
        [30, 45],
        [50, 75],
        [80, 120],
        [0, 0],
    ];
    let mut r = 0;
    while r < 8 {
        w[PASSED + r] = passed[r];
        w[PASSED_FREE + r] = [(passed[r][0] / 4), (passed[r][1] / 3)];
        r += 1;
    }
    w[ISOLATED] = [-10, -10];
    w[DOUBLED] = [-10, -20];
    w[BACKWARD] = [-8, -5];
    let mut u = 0;
    while u < 16 {
        let u32_ = u as i32;
        let d = u32_ * u32_ * 3;
        w[KING_DANGER + u] = [(if d > 500 { 500 } else { d }) as i16, (u32_ * 2) as i16];
        u += 1;
    }
    w[SHIELD] = [-30, 0];
    w[SHIELD + 1] = [-10, 0];
    w[SHIELD + 2] = [5, 0];
    w[SHIELD + 3] = [15, 0];
    w[KING_OPEN] = [-20, 0];
    w[BISHOP_PAIR] = [30, 50];
    w[ROOK_OPEN] = [25, 10];
    w[ROOK_SEMI] = [12, 8];
    w[TEMPO] = [15, 5];
    w
}
