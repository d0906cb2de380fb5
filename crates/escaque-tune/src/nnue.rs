//! The network's trainer: a CPU trainer for the engine's 768 → 128 × 2 →
//! SCReLU → 1 network ([`escaque_engine::nnue`]), on sparse inputs, in plain
//! Rust (no GPU here).
//!
//! Each position's target blends the search's score and the game's result
//! through the winning-chance curve the hand-written evaluation was tuned
//! with (`sigmoid(K_CP · centipawns)`), so that the network's output is in
//! the same centipawns as the evaluation it replaces and the search's margins
//! keep their meaning:
//!
//! `target = λ · sigmoid(K_CP · score) + (1 − λ) · result`, and the loss is
//! the mean squared error of `sigmoid(K_CP · 400 · output)` against it.
//!
//! Mini-batch Adam, the batch split between threads (each sums its own
//! gradients, the sums are added in a fixed order, so a seed gives the same
//! network again), weights clipped to ±1.98 for the quantisation, and the
//! epoch with the lowest error on held-out positions kept.

use escaque::{Color, Position};
use escaque_engine::nnue::{self, Network, HIDDEN, INPUTS, QA, QB, SCALE};

/// Winning chance per centipawn of the hand-written evaluation (the K/400 of
/// `escaque-tune k` on the engine's own games, see the README).
pub const K_CP: f32 = 0.003_941_32;
/// Largest weight magnitude (keeps the quantised sums inside their types).
const CLIP: f32 = 1.98;

/// Training positions, their inputs flattened.
#[derive(Default)]
pub struct Data {
    /// White's inputs then Black's, for each position.
    feats: Vec<u16>,
    /// Where each position's inputs start in `feats`.
    start: Vec<u32>,
    /// Inputs per perspective of each position.
    count: Vec<u8>,
    /// White to move.
    white: Vec<bool>,
    /// Target winning chance for the side to move.
    target: Vec<f32>,
    /// The hand-written evaluation, side to move's view, in the network's
    /// output units (centipawns / 400): what a correcting network adds to.
    base: Vec<f32>,
}

impl Data {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// No positions.
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Adds a position with its search score and game result (both for
    /// White), blended with weight `lambda` on the score.
    pub fn push(&mut self, pos: &Position, result: f32, white_score: i32, lambda: f32) {
        self.push_inner(pos, result, white_score, lambda, 0);
    }

    /// [`Data::push`], and the position mirrored left to right as a second
    /// one (files a↔h). The network's inputs hold no castling rights, so the
    /// mirrored board is one it can be asked about and should value alike:
    /// twice the positions from the same games.
    pub fn push_mirrored(&mut self, pos: &Position, result: f32, white_score: i32, lambda: f32) {
        self.push_inner(pos, result, white_score, lambda, 0);
        self.push_inner(pos, result, white_score, lambda, 7);
    }

    fn push_inner(
        &mut self,
        pos: &Position,
        result: f32,
        white_score: i32,
        lambda: f32,
        flip: u16,
    ) {
        let hand = if flip == 0 {
            escaque_engine::eval::evaluate(pos)
        } else {
            mirrored(pos).map_or(0, |p| escaque_engine::eval::evaluate(&p))
        };
        self.base.push(hand as f32 / SCALE as f32);
        let w = nnue::features(pos, Color::White);
        let b = nnue::features(pos, Color::Black);
        self.start.push(self.feats.len() as u32);
        self.count.push(w.len() as u8);
        // `^ 7` turns the file of an input's square round.
        self.feats.extend(w.iter().map(|&f| f as u16 ^ flip));
        self.feats.extend(b.iter().map(|&f| f as u16 ^ flip));
        let t_white = lambda * sigmoid(K_CP * white_score as f32) + (1.0 - lambda) * result;
        let white = pos.turn() == Color::White;
        self.white.push(white);
        self.target
            .push(if white { t_white } else { 1.0 - t_white });
    }

    /// Parses a line `FEN;RESULT;SCORE` (result and score for White) and
    /// adds it (and its mirror image with `mirror`); false for a line that
    /// is not one.
    pub fn push_line(&mut self, line: &str, lambda: f32, mirror: bool) -> bool {
        let mut f = line.split(';');
        let (Some(fen), Some(res), Some(score)) = (f.next(), f.next(), f.next()) else {
            return false;
        };
        let (Ok(pos), Ok(res), Ok(score)) = (
            Position::from_fen(fen.trim()),
            res.trim().parse::<f32>(),
            score.trim().parse::<i32>(),
        ) else {
            return false;
        };
        if !(0.0..=1.0).contains(&res) {
            return false;
        }
        if mirror {
            self.push_mirrored(&pos, res, score, lambda);
        } else {
            self.push(&pos, res, score, lambda);
        }
        true
    }

    /// Mean squared error of the hand-written evaluation alone on these
    /// targets (the figure a network has to beat).
    pub fn hand_written_error(&self) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let k = K_CP * SCALE as f32;
        let total: f64 = self
            .base
            .iter()
            .zip(&self.target)
            .map(|(&b, &t)| ((sigmoid(k * b) - t) as f64).powi(2))
            .sum();
        total / self.len() as f64
    }

    fn inputs(&self, i: usize) -> (&[u16], &[u16]) {
        let s = self.start[i] as usize;
        let n = self.count[i] as usize;
        (&self.feats[s..s + n], &self.feats[s + n..s + 2 * n])
    }
}

/// `pos` mirrored left to right (files a↔h), without castling rights.
pub fn mirrored(pos: &Position) -> Option<Position> {
    let fen = pos.to_fen();
    let mut fields = fen.split(' ');
    let board: Vec<String> = fields
        .next()?
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    let turn = fields.next()?;
    let _castling = fields.next()?;
    let ep = fields.next()?;
    let ep = match ep.as_bytes() {
        [f, r] => format!("{}{}", (b'a' + b'h' - f) as char, *r as char),
        _ => "-".to_string(),
    };
    let rest: Vec<&str> = fields.collect();
    Position::from_fen(&format!(
        "{} {turn} - {ep} {}",
        board.join("/"),
        rest.join(" ")
    ))
    .ok()
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network in floating point, as it is trained.
#[derive(Clone, Debug)]
pub struct FloatNet {
    /// First layer, input by input (`INPUTS × HIDDEN`).
    pub w1: Vec<f32>,
    /// First layer's biases.
    pub b1: Vec<f32>,
    /// Output weights (side to move's half, then the other's).
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
    /// The output corrects the hand-written evaluation.
    pub residual: bool,
}

/// Marsaglia's xorshift64 (13, 7, 17): the tuner's one generator (self-play
/// openings, first weights, the order of the positions).
pub struct Rng(pub u64);
impl Rng {
    /// The self-play generator for `seed`. An odd seed is the state itself
    /// (the data of the engine's README was made so); an even seed is mixed
    /// first (SplitMix64's finaliser), because the state used to be
    /// `seed | 1`, which gave the seeds 2k and 2k + 1 the same games: the
    /// third generation's jobs 1002 and 1003, 1004 and 1005, … played the
    /// same games twice.
    pub fn for_self_play(seed: u64) -> Rng {
        if seed % 2 == 1 {
            return Rng(seed);
        }
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next value; the state must not be 0.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn uniform(&mut self, a: f32) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a
    }
}

#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// Random weights from `seed`; `residual`: a network that corrects the
    /// hand-written evaluation.
    pub fn random(seed: u64, residual: bool) -> FloatNet {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let a1 = 1.0 / (INPUTS as f32).sqrt();
        let a2 = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        FloatNet {
            w1: (0..INPUTS * HIDDEN).map(|_| rng.uniform(a1)).collect(),
            b1: (0..HIDDEN).map(|_| rng.uniform(a1)).collect(),
            w2: (0..2 * HIDDEN).map(|_| rng.uniform(a2)).collect(),
            b2: 0.0,
            residual,
        }
    }

    fn accumulate(&self, inputs: &[u16], acc: &mut [f32; HIDDEN]) {
        acc.copy_from_slice(&self.b1);
        for &f in inputs {
            let col = &self.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
            for (a, w) in acc.iter_mut().zip(col) {
                *a += w;
            }
        }
    }

    fn out(&self, us: &[f32; HIDDEN], them: &[f32; HIDDEN]) -> f32 {
        let mut o = self.b2;
        for j in 0..HIDDEN {
            o += self.w2[j] * screlu(us[j]) + self.w2[HIDDEN + j] * screlu(them[j]);
        }
        o
    }

    /// The output for `pos` in centipawns from the side to move's point of
    /// view (the reference the quantised network is tested against).
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let to16 = |v: Vec<usize>| v.into_iter().map(|f| f as u16).collect::<Vec<u16>>();
        let us = to16(nnue::features(pos, pos.turn()));
        let them = to16(nnue::features(pos, pos.turn().other()));
        let (mut a, mut b) = ([0f32; HIDDEN], [0f32; HIDDEN]);
        self.accumulate(&us, &mut a);
        self.accumulate(&them, &mut b);
        self.out(&a, &b) * SCALE as f32
    }

    /// The floating-point network a quantised one stands for: each weight
    /// divided by its scale, so that [`FloatNet::quantise`] gives `net`
    /// back exactly. Training can start from it (`NNUE_INIT`: a network
    /// trained further on new games, as engines fine-tune theirs).
    pub fn from_network(net: &Network) -> FloatNet {
        let (qa, qb) = (QA as f32, QB as f32);
        FloatNet {
            w1: net.w1.iter().flatten().map(|&w| w as f32 / qa).collect(),
            b1: net.b1.iter().map(|&b| b as f32 / qa).collect(),
            w2: net.w2.iter().flatten().map(|&w| w as f32 / qb).collect(),
            b2: net.b2 as f32 / (qa * qb),
            residual: net.residual,
        }
    }

    /// The quantised network the engine reads.
    pub fn quantise(&self) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut w1 = Box::new([[0i16; HIDDEN]; INPUTS]);
        for (i, col) in w1.iter_mut().enumerate() {
            for (j, w) in col.iter_mut().enumerate() {
                *w = q(self.w1[i * HIDDEN + j], QA);
            }
        }
        let mut b1 = [0i16; HIDDEN];
        for (j, b) in b1.iter_mut().enumerate() {
            *b = q(self.b1[j], QA);
        }
        let mut w2 = [[0i16; HIDDEN]; 2];
        for (h, half) in w2.iter_mut().enumerate() {
            for (j, w) in half.iter_mut().enumerate() {
                *w = q(self.w2[h * HIDDEN + j], QB);
            }
        }
        Network {
            w1,
            b1,
            w2,
            b2: (self.b2 * (QA * QB) as f32).round() as i32,
            residual: self.residual,
        }
    }

    /// Squared error and its gradient for position `i`, added to `grad`.
    fn backprop(&self, data: &Data, i: usize, grad: &mut FloatNet) -> f32 {
        let (wf, bf) = data.inputs(i);
        let (mut aw, mut ab) = ([0f32; HIDDEN], [0f32; HIDDEN]);
        self.accumulate(wf, &mut aw);
        self.accumulate(bf, &mut ab);
        let white = data.white[i];
        let (us, them) = if white { (&aw, &ab) } else { (&ab, &aw) };
        let k = K_CP * SCALE as f32;
        let pred = sigmoid(k * (self.out(us, them) + self.base(data, i)));
        let diff = pred - data.target[i];
        let g = 2.0 * diff * pred * (1.0 - pred) * k;
        grad.b2 += g;
        let mut dus = [0f32; HIDDEN];
        let mut dthem = [0f32; HIDDEN];
        for j in 0..HIDDEN {
            grad.w2[j] += g * screlu(us[j]);
            grad.w2[HIDDEN + j] += g * screlu(them[j]);
            if us[j] > 0.0 && us[j] < 1.0 {
                dus[j] = g * self.w2[j] * 2.0 * us[j];
            }
            if them[j] > 0.0 && them[j] < 1.0 {
                dthem[j] = g * self.w2[HIDDEN + j] * 2.0 * them[j];
            }
        }
        let (dw, db) = if white {
            (&dus, &dthem)
        } else {
            (&dthem, &dus)
        };
        for j in 0..HIDDEN {
            grad.b1[j] += dw[j] + db[j];
        }
        for (inputs, d) in [(wf, dw), (bf, db)] {
            for &f in inputs {
                let col = &mut grad.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
                for (c, x) in col.iter_mut().zip(d.iter()) {
                    *c += x;
                }
            }
        }
        diff * diff
    }

    fn base(&self, data: &Data, i: usize) -> f32 {
        if self.residual {
            data.base[i]
        } else {
            0.0
        }
    }

    fn zeroed() -> FloatNet {
        FloatNet {
            w1: vec![0.0; INPUTS * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: 0.0,
            residual: false,
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(std::iter::once(&mut self.b2))
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
        self.w1
            .iter()
            .chain(self.b1.iter())
            .chain(self.w2.iter())
            .chain(std::iter::once(&self.b2))
    }

    /// Mean squared error on `data` (the loss, without gradients).
    pub fn error(&self, data: &Data) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let mut total = 0.0f64;
        for i in 0..data.len() {
            let (wf, bf) = data.inputs(i);
            let (mut aw, mut ab) = ([0f32; HIDDEN], [0f32; HIDDEN]);
            self.accumulate(wf, &mut aw);
            self.accumulate(bf, &mut ab);
            let (us, them) = if data.white[i] {
                (&aw, &ab)
            } else {
                (&ab, &aw)
            };
            let pred = sigmoid(K_CP * SCALE as f32 * (self.out(us, them) + self.base(data, i)));
            let d = (pred - data.target[i]) as f64;
            total += d * d;
        }
        total / data.len() as f64
    }
}

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Passes over the data.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size at the start.
    pub lr: f32,
    /// Decoupled weight decay (AdamW) per unit of step size.
    pub weight_decay: f32,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Seed of the first weights and of the order of the positions.
    pub seed: u64,
    /// Train a correction of the hand-written evaluation.
    pub residual: bool,
    /// Start from these weights instead of random ones (its kind wins over
    /// `residual`); epoch 0, the error before any step, is then its own.
    pub init: Option<FloatNet>,
}

/// Trains a network on `train`, keeping the epoch with the lowest error on
/// `valid` (epoch 0: the first weights, kept if no epoch beats them); `log`
/// hears `(epoch, train error, held-out error)`. The step size falls to a
/// third at 60 % and again at 85 % of the epochs.
pub fn train(
    train: &Data,
    valid: &Data,
    s: &Settings,
    mut log: impl FnMut(usize, f64, f64),
) -> (FloatNet, usize) {
    let mut net = s
        .init
        .clone()
        .unwrap_or_else(|| FloatNet::random(s.seed, s.residual));
    let n_params = INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1;
    let mut m = vec![0f32; n_params];
    let mut v = vec![0f32; n_params];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = Rng(s.seed.wrapping_add(0xD1B5_4A32_D192_ED03) | 1);
    let threads = s.threads.max(1);
    let mut grads: Vec<FloatNet> = (0..threads).map(|_| FloatNet::zeroed()).collect();
    let mut best = (net.error(valid), 0usize, net.clone());
    for epoch in 1..=s.epochs {
        let lr = if epoch as f32 > 0.85 * s.epochs as f32 {
            s.lr / 9.0
        } else if epoch as f32 > 0.6 * s.epochs as f32 {
            s.lr / 3.0
        } else {
            s.lr
        };
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut train_err = 0.0f64;
        for batch in order.chunks(s.batch) {
            let per = batch.len().div_ceil(threads);
            let net_ref = &net;
            let errs: Vec<f64> = std::thread::scope(|sc| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(per))
                    .map(|(g, part)| {
                        sc.spawn(move || {
                            for x in g.params_mut() {
                                *x = 0.0;
                            }
                            let mut e = 0.0f64;
                            for &i in part {
                                e += net_ref.backprop(train, i as usize, g) as f64;
                            }
                            e
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            train_err += errs.iter().sum::<f64>();
            let used = batch.len().div_ceil(per);
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter().take(used - 1) {
                for (a, b) in first[0].params_mut().zip(g.params()) {
                    *a += b;
                }
            }
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            for (((p, g), m), v) in net
                .params_mut()
                .zip(first[0].params())
                .zip(m.iter_mut())
                .zip(v.iter_mut())
            {
                let g = g * scale;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *p -= lr * ((*m / c1) / ((*v / c2).sqrt() + eps) + s.weight_decay * *p);
                *p = p.clamp(-CLIP, CLIP);
            }
        }
        let verr = net.error(valid);
        log(epoch, train_err / train.len().max(1) as f64, verr);
        if verr < best.0 {
            best = (verr, epoch, net.clone());
        }
    }
    (best.2, best.1)
}
