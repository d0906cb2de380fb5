//! The network evaluation (NNUE): 768 inputs → [`HIDDEN`] × 2 perspectives →
//! SCReLU → 1 output, trained on escaque's own games (see `escaque-tune
//! nnue-train` and `scripts/nnue.sh`) and embedded in the binary.
//!
//! **Inputs.** From each side's point of view (its *perspective*), one input
//! per (own or enemy piece) × role × square, the board flipped vertically for
//! Black: `relative_colour · 384 + role · 64 + square`. A position has as many
//! active inputs as pieces.
//!
//! **Accumulator.** The first layer's output for each perspective is the bias
//! plus the columns of the active inputs. Between a position and one reached
//! from it only a few pieces change, so [`Accumulator::update`] adds and
//! removes just those columns: it compares the twelve piece bitboards, which
//! makes it right for every kind of move (castling, en passant, promotion,
//! the null move) without being told which move was played.
//!
//! **Output.** `SCReLU(x) = clamp(x, 0, 1)²` of the side to move's half then
//! the other side's, times the output weights, plus a bias; the result is in
//! the hand-written evaluation's centipawns (the trainer fits it through the
//! same winning-chance curve).
//!
//! **Quantisation.** First-layer weights are stored as `round(w · QA)` in
//! `i16`, output weights as `round(w · QB)`, the output bias as
//! `round(b · QA · QB)` in `i32`; the sums run in `i32`/`i64` so nothing
//! overflows (weights are clipped to ±1.98 in training). The file format is
//! little-endian: `ESQNNUE1`, the hidden size (`u32`), the kind (`u32`: 0
//! the whole evaluation, 1 a correction added to the hand-written one), the
//! first layer's
//! weights input by input, its biases, the output weights (side to move's
//! half first) and the output bias.

use std::sync::OnceLock;

use escaque::{Color, Position, Role};

/// Neurons per perspective.
pub const HIDDEN: usize = 128;
/// Inputs per perspective.
pub const INPUTS: usize = 768;
/// Scale of the first layer's quantisation.
pub const QA: i32 = 255;
/// Scale of the output layer's quantisation.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// Largest output weight a file may hold (1.98 · QB, the trainer's clip):
/// it keeps the output's sums inside `i32`.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"ESQNNUE1";

/// The network shipped with escaque.
static EMBEDDED: &[u8] = include_bytes!("nnue.bin");

/// A quantised network.
pub struct Network {
    /// First layer: one column of [`HIDDEN`] weights per input.
    pub w1: Box<[[i16; HIDDEN]; INPUTS]>,
    /// First layer's biases.
    pub b1: [i16; HIDDEN],
    /// Output weights: the side to move's half, then the other side's.
    pub w2: [[i16; HIDDEN]; 2],
    /// Output bias, scaled by `QA · QB`.
    pub b2: i32,
    /// The output is a correction added to the hand-written evaluation
    /// (else it is the whole evaluation).
    pub residual: bool,
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "red neuronal no válida: {}", self.0)
    }
}

impl std::error::Error for NetworkError {}

/// The expected length of a network file in bytes.
pub const FILE_LEN: usize = 8 + 4 + 4 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

impl Network {
    /// Reads a network from its file format.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(NetworkError(
                "no empieza por ESQNNUE1 (not a network file)".into(),
            ));
        }
        let hidden = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
        if hidden != HIDDEN {
            return Err(NetworkError(format!(
                "capa oculta de {hidden}, este motor espera {HIDDEN} (hidden size)"
            )));
        }
        if bytes.len() < 16 {
            return Err(NetworkError(format!(
                "{} bytes, se esperaban {FILE_LEN} (length)",
                bytes.len()
            )));
        }
        let residual = match u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) {
            0 => false,
            1 => true,
            k => {
                return Err(NetworkError(format!(
                    "tipo de red {k} desconocido (kind: 0 whole, 1 correction)"
                )))
            }
        };
        if bytes.len() != FILE_LEN {
            return Err(NetworkError(format!(
                "{} bytes, se esperaban {FILE_LEN} (length)",
                bytes.len()
            )));
        }
        let mut words = bytes[16..FILE_LEN - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut w1 = Box::new([[0i16; HIDDEN]; INPUTS]);
        for col in w1.iter_mut() {
            for w in col.iter_mut() {
                *w = words.next().unwrap_or(0);
            }
        }
        let mut b1 = [0i16; HIDDEN];
        for b in b1.iter_mut() {
            *b = words.next().unwrap_or(0);
        }
        let mut w2 = [[0i16; HIDDEN]; 2];
        for half in w2.iter_mut() {
            for w in half.iter_mut() {
                *w = words.next().unwrap_or(0);
            }
        }
        if let Some(w) = w2.iter().flatten().find(|w| w.abs() > MAX_OUTPUT_WEIGHT) {
            return Err(NetworkError(format!(
                "peso de salida {w} fuera de ±{MAX_OUTPUT_WEIGHT} (output weight out of range)"
            )));
        }
        let t = &bytes[FILE_LEN - 4..];
        let b2 = i32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        Ok(Network {
            w1,
            b1,
            w2,
            b2,
            residual,
        })
    }

    /// The network in its file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&(self.residual as u32).to_le_bytes());
        let words = self
            .w1
            .iter()
            .flatten()
            .chain(self.b1.iter())
            .chain(self.w2.iter().flatten());
        for w in words {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// The network embedded in the binary.
    pub fn embedded() -> &'static Network {
        static NET: OnceLock<Network> = OnceLock::new();
        NET.get_or_init(|| {
            Network::from_bytes(EMBEDDED).expect("the embedded network is checked by a test")
        })
    }

    /// The output for `stm` (its half first) in centipawns.
    pub fn output(&self, acc: &Accumulator, stm: Color) -> i32 {
        let us = &acc.v[stm.index()];
        let them = &acc.v[stm.other().index()];
        let sum = half_sum(us, &self.w2[0]) as i64 + half_sum(them, &self.w2[1]) as i64;
        let out = sum / QA as i64 + self.b2 as i64;
        (out * SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The network's output for `pos` computed from nothing, from the side
    /// to move's point of view (the scalar reference for the incremental
    /// updates).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&Accumulator::new(self, pos), pos.turn())
    }
}

/// `Σ clamp(a, 0, QA)² · w` over one half. Each term is at most
/// `255² · 127` and a half has 128 of them, so the sum stays far inside
/// `i32` (the reader refuses output weights beyond ±[`MAX_OUTPUT_WEIGHT`]);
/// `c · w` fits `i16`'s range, which lets the compiler use its
/// multiply-and-add instructions.
#[inline]
fn half_sum(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in acc.iter().zip(w) {
        let c = x.clamp(0, QA as i16);
        // Exact in i16 (|c · w| ≤ 255 · 127), then widened: the shape of
        // SSE2's multiply-low and multiply-add on 16-bit lanes.
        let cw = c.wrapping_mul(w);
        sum += cw as i32 * c as i32;
    }
    sum
}

/// The input of a piece seen from `perspective`.
#[inline]
pub fn feature(perspective: Color, color: Color, role: Role, square: usize) -> usize {
    let rel_color = (color != perspective) as usize;
    let sq = if perspective == Color::White {
        square
    } else {
        square ^ 56
    };
    rel_color * 384 + role.index() * 64 + sq
}

/// The active inputs of `pos` from `perspective`.
pub fn features(pos: &Position, perspective: Color) -> Vec<usize> {
    let mut out = Vec::with_capacity(32);
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                out.push(feature(perspective, color, role, sq.index()));
            }
        }
    }
    out
}

fn piece_boards(pos: &Position) -> [u64; 12] {
    let mut b = [0u64; 12];
    for color in Color::ALL {
        for role in Role::ALL {
            b[color.index() * 6 + role.index()] = pos.pieces(color, role).0;
        }
    }
    b
}

/// The first layer's output for both perspectives (White's first) and the
/// pieces it was computed for.
#[derive(Clone)]
pub struct Accumulator {
    /// One half per perspective, indexed by colour.
    pub v: [[i16; HIDDEN]; 2],
    pieces: [u64; 12],
}

impl Accumulator {
    /// The accumulator of the empty board: the biases alone.
    fn empty(net: &Network) -> Accumulator {
        Accumulator {
            v: [net.b1; 2],
            pieces: [0; 12],
        }
    }

    /// Computes the accumulator of `pos` from nothing.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::empty(net);
        acc.set_from(&Accumulator::empty(net), net, pos);
        acc
    }

    /// Brings the accumulator to `pos` by adding the columns of the pieces
    /// that appeared and removing those of the pieces that went.
    pub fn update(&mut self, net: &Network, pos: &Position) {
        let from = self.clone();
        self.set_from(&from, net, pos);
    }

    /// Makes this accumulator `from`'s brought to `pos`, in one pass over
    /// each half for the usual moves (a quiet move, a capture, castling or
    /// a promotion change at most four pieces): the copy, the additions and
    /// the removals are fused, so each half is read and written once.
    pub fn set_from(&mut self, from: &Accumulator, net: &Network, pos: &Position) {
        let now = piece_boards(pos);
        // The pieces that went and came, as (board, square); a position
        // holds at most 64 pieces, so neither list can overflow.
        let mut gone = [(0u8, 0u8); 64];
        let mut came = [(0u8, 0u8); 64];
        let (mut ng, mut nc) = (0, 0);
        for (i, (&old, &new)) in from.pieces.iter().zip(now.iter()).enumerate() {
            let mut g = old & !new;
            while g != 0 {
                gone[ng] = (i as u8, g.trailing_zeros() as u8);
                ng += 1;
                g &= g - 1;
            }
            let mut c = new & !old;
            while c != 0 {
                came[nc] = (i as u8, c.trailing_zeros() as u8);
                nc += 1;
                c &= c - 1;
            }
        }
        for p in Color::ALL {
            let column = |&(board, sq): &(u8, u8)| {
                let (color, role) = (
                    Color::ALL[board as usize / 6],
                    Role::ALL[board as usize % 6],
                );
                &net.w1[feature(p, color, role, sq as usize)]
            };
            let src = &from.v[p.index()];
            let dst = &mut self.v[p.index()];
            match (&came[..nc], &gone[..ng]) {
                ([a], [r]) => add_sub(dst, src, column(a), column(r)),
                ([a], [r1, r2]) => add_sub2(dst, src, column(a), column(r1), column(r2)),
                ([a1, a2], [r1, r2]) => {
                    add_sub(dst, src, column(a1), column(r1));
                    add_sub_in_place(dst, column(a2), column(r2));
                }
                (adds, removes) => {
                    *dst = *src;
                    for a in adds {
                        add(dst, column(a));
                    }
                    for r in removes {
                        sub(dst, column(r));
                    }
                }
            }
        }
        self.pieces = now;
    }
}

/// `dst = src + a − r`.
#[inline]
fn add_sub(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], a: &[i16; HIDDEN], r: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        dst[i] = src[i].wrapping_add(a[i]).wrapping_sub(r[i]);
    }
}

/// `dst = src + a − r1 − r2`.
#[inline]
fn add_sub2(
    dst: &mut [i16; HIDDEN],
    src: &[i16; HIDDEN],
    a: &[i16; HIDDEN],
    r1: &[i16; HIDDEN],
    r2: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        dst[i] = src[i]
            .wrapping_add(a[i])
            .wrapping_sub(r1[i])
            .wrapping_sub(r2[i]);
    }
}

/// `acc += a − r`.
#[inline]
fn add_sub_in_place(acc: &mut [i16; HIDDEN], a: &[i16; HIDDEN], r: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_add(a[i]).wrapping_sub(r[i]);
    }
}

#[inline]
fn add(acc: &mut [i16; HIDDEN], col: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(col) {
        *a = a.wrapping_add(w);
    }
}

#[inline]
fn sub(acc: &mut [i16; HIDDEN], col: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(col) {
        *a = a.wrapping_sub(w);
    }
}

/// One accumulator per ply of a search, each brought up to date only when
/// its position is evaluated, from the nearest ply above it that was.
pub struct Stack {
    net: &'static Network,
    accs: Vec<Accumulator>,
    valid: Vec<bool>,
}

impl Stack {
    /// A stack of `plies` accumulators for `net`.
    pub fn new(net: &'static Network, plies: usize) -> Stack {
        Stack {
            net,
            accs: vec![Accumulator::empty(net); plies],
            valid: vec![false; plies],
        }
    }

    /// The network corrects the hand-written evaluation.
    pub fn residual(&self) -> bool {
        self.net.residual
    }

    /// A new position entered at `ply`: its accumulator is stale.
    #[inline]
    pub fn enter(&mut self, ply: usize) {
        self.valid[ply] = false;
    }

    /// The evaluation of `pos`, the position at `ply`, from the side to
    /// move's point of view.
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if !self.valid[ply] {
            match (0..ply).rev().find(|&q| self.valid[q]) {
                Some(q) => {
                    let (above, below) = self.accs.split_at_mut(ply);
                    below[0].set_from(&above[q], self.net, pos);
                }
                // Nothing above: start from the empty board.
                None => self.accs[ply] = Accumulator::new(self.net, pos),
            }
            self.valid[ply] = true;
        }
        self.net.output(&self.accs[ply], pos.turn())
    }
}
