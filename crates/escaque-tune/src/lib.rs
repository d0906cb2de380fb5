//! Texel tuning: fit the evaluation weights so that a logistic curve of the
//! evaluation predicts game results.
//!
//! 1. `escaque-tune selfplay GAMES NODES OUT` plays the engine against itself
//!    (random first moves, then a fixed node budget per move) and writes one
//!    line per quiet position: `FEN;RESULT` with RESULT 1, 0.5 or 0 for White.
//! 2. `escaque-tune fit DATA EPOCHS` fits the weights (Adam on the mean squared
//!    error of `sigmoid(K · eval / 400)` against the result) and writes
//!    `crates/escaque-engine/src/weights.rs`.
//!
//! The tuner is a crate of its own so that the engine's library API holds
//! only what playing needs; it reads the engine's evaluation term by term
//! through [`escaque_engine::eval::trace`]. See the README for the exact
//! commands that made the shipped weights.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod handmade;
pub mod nnue;

use escaque::Position;
use escaque_engine::eval::{phase, trace, Accumulator, N_PARAMS, PHASE_MAX};

pub use handmade::handmade;

/// One training position: its evaluation terms (White positive), phase and result.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Non-zero (term, count) pairs.
    pub features: Vec<(u16, i16)>,
    /// Game phase, 0 to [`PHASE_MAX`].
    pub phase: i32,
    /// Result for White: 1, 0.5 or 0.
    pub result: f64,
}

#[derive(Default)]
struct Collect {
    dense: Vec<i32>,
}

impl Accumulator for Collect {
    fn add(&mut self, index: usize, count: i32) {
        self.dense[index] += count;
    }
}

impl Sample {
    /// Extracts the terms of `pos`.
    pub fn new(pos: &Position, result: f64) -> Sample {
        let mut c = Collect {
            dense: vec![0; N_PARAMS],
        };
        trace(pos, &mut c);
        let features = c
            .dense
            .iter()
            .enumerate()
            .filter(|(_, &v)| v != 0)
            .map(|(i, &v)| (i as u16, v as i16))
            .collect();
        Sample {
            features,
            phase: phase(pos),
            result,
        }
    }

    /// The linear evaluation (White's point of view) under `w`.
    pub fn eval(&self, w: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in &self.features {
            mg += w[i as usize][0] * c as f64;
            eg += w[i as usize][1] * c as f64;
        }
        let p = self.phase as f64 / PHASE_MAX as f64;
        mg * p + eg * (1.0 - p)
    }
}

/// Parses a `FEN;RESULT` line.
pub fn parse_line(line: &str) -> Option<Sample> {
    // `FEN;RESULT`, or `FEN;RESULT;SCORE` (the network's data: the score is
    // not used here).
    let mut fields = line.split(';');
    let (fen, res) = (fields.next()?, fields.next()?);
    let pos = Position::from_fen(fen.trim()).ok()?;
    let result: f64 = res.trim().parse().ok()?;
    Some(Sample::new(&pos, result))
}

fn sigmoid(x: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-k * x / 400.0).exp())
}

/// Mean squared error of the predictions.
pub fn error(samples: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    let s: f64 = samples
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(s.eval(w), k);
            d * d
        })
        .sum();
    s / samples.len().max(1) as f64
}

/// The scaling constant K that fits the current weights best.
pub fn fit_k(samples: &[Sample], w: &[[f64; 2]]) -> f64 {
    best_k(|k| error(samples, w, k))
}

/// The K in 0.1–3 where `err` (unimodal in K) is lowest: a ternary search.
fn best_k(err: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Parses the search's score of a `FEN;RESULT;SCORE` line (the network's
/// data): `(score, result)`, both White's point of view, the score in
/// centipawns. `None` for a line without a score.
pub fn parse_scored(line: &str) -> Option<(f64, f64)> {
    let mut fields = line.split(';');
    let (_fen, res, score) = (fields.next()?, fields.next()?, fields.next()?);
    Some((score.trim().parse().ok()?, res.trim().parse().ok()?))
}

/// Mean squared error of `sigmoid(K · score / 400)` against the results,
/// for `(score, result)` pairs; scores are clamped to ±`ceiling`
/// centipawns first, as the analysis clamps them before it turns them into
/// winning chances.
pub fn score_error(pairs: &[(f64, f64)], k: f64, ceiling: f64) -> f64 {
    let s: f64 = pairs
        .iter()
        .map(|&(score, result)| {
            let d = result - sigmoid(score.clamp(-ceiling, ceiling), k);
            d * d
        })
        .sum();
    s / pairs.len().max(1) as f64
}

/// The K that makes the search's own scores predict the results best
/// (as [`fit_k`] fits the weights' K): a winning-chance constant on the
/// scale of the scores the analysis reads (the search with the network),
/// not the hand-written evaluation's. BENCHMARKS.md says why the analysis
/// does not take it.
pub fn fit_k_scores(pairs: &[(f64, f64)], ceiling: f64) -> f64 {
    best_k(|k| score_error(pairs, k, ceiling))
}

/// Runs `epochs` full-batch Adam steps (learning rate `lr` centipawns) from
/// `start`, with an L2 pull of strength `lambda` back towards `start` so that
/// rarely seen terms (most piece-square entries) stay near their prior instead
/// of fitting noise; calls `progress(epoch, weights)` every 10 epochs.
pub fn fit(
    samples: &[Sample],
    start: &[[i16; 2]],
    k: f64,
    epochs: usize,
    lr: f64,
    lambda: f64,
    mut progress: impl FnMut(usize, &[[f64; 2]]),
) -> Vec<[f64; 2]> {
    let mut w: Vec<[f64; 2]> = start.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
    let mut m = vec![[0.0f64; 2]; w.len()];
    let mut v = vec![[0.0f64; 2]; w.len()];
    let prior: Vec<[f64; 2]> = w.clone();
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let n = samples.len().max(1) as f64;
    for epoch in 1..=epochs {
        let mut grad = vec![[0.0f64; 2]; w.len()];
        for s in samples {
            let p = sigmoid(s.eval(&w), k);
            // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) k/400 · dEval/dw
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * k / 400.0;
            let ph = s.phase as f64 / PHASE_MAX as f64;
            for &(i, c) in &s.features {
                grad[i as usize][0] += g * c as f64 * ph;
                grad[i as usize][1] += g * c as f64 * (1.0 - ph);
            }
        }
        for i in 0..w.len() {
            for j in 0..2 {
                let gr = grad[i][j] / n + lambda * (w[i][j] - prior[i][j]);
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * gr;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * gr * gr;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                w[i][j] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 10 == 0 || epoch == epochs {
            progress(epoch, &w);
        }
    }
    w
}

/// The Rust source of `weights.rs` for the weights `w`.
pub fn weights_source(w: &[[f64; 2]], note: &str) -> String {
    let mut s = String::new();
    s.push_str(
        "//! The evaluation weights, written by `escaque-tune fit` (do not edit by hand).\n",
    );
    for line in note.lines() {
        s.push_str("//! ");
        s.push_str(line);
        s.push('\n');
    }
    // The length is written as a number, so that the table imports nothing
    // from the evaluation that reads it (eval.rs checks it equals N_PARAMS).
    s.push_str(&format!(
        "\n/// `[middlegame, endgame]` weight of each evaluation term.\n#[rustfmt::skip]\npub static WEIGHTS: [[i16; 2]; {}] = [\n",
        w.len()
    ));
    for chunk in w.chunks(8) {
        s.push_str("   ");
        for p in chunk {
            s.push_str(&format!(
                " [{}, {}],",
                p[0].round() as i32,
                p[1].round() as i32
            ));
        }
        s.push('\n');
    }
    s.push_str("];\n");
    s
}
