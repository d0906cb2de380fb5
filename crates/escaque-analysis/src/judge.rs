//! The judgement of a move: winning chances from an evaluation, the marks
//! (`?!`, `?`, `??`) with lichess's published method, mate-aware, and the
//! accuracy of a move and of a game.

use escaque::Color;
use serde::{Deserialize, Serialize};

/// An evaluation from White's point of view, as JSON writes it:
/// `{"cp": 35}` or `{"mate": -3}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Eval {
    /// Centipawns, White positive.
    Cp(i32),
    /// Mate in this many moves: positive when White mates, negative when
    /// Black mates. Never 0 (a checkmate on the board is not an evaluation).
    Mate(i32),
}

/// A move's mark.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    /// `?!` imprecisión (lost ≥ 0.1 of the winning chances).
    Inaccuracy,
    /// `?` error (≥ 0.2).
    Mistake,
    /// `??` error grave (≥ 0.3, or walked into a forced mate).
    Blunder,
}

impl Judgement {
    /// The stable id: `inaccuracy`, `mistake`, `blunder`.
    pub fn id(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The PGN numeric annotation glyph: `$6` `?!`, `$2` `?`, `$4` `??`.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The symbol: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

// ------------------------------------------------------------ winning chances

/// The winning-chance constant per centipawn: White's winning chances are
/// `wc = 2 / (1 + exp(−WIN_CHANCE_K · cp)) − 1` (−1 to 1), a natural-log
/// logistic on escaque's own centipawns.
///
/// Fitted to escaque's evaluation scale, not taken from Stockfish: the
/// tuner's logistic `sigmoid(K · eval / 400)` fitted to game results with
/// the SHIPPED weights gives K = 1.5765 on 42,247 quiet positions of 400
/// self-play games (`escaque-tune selfplay 400 5000 k400.txt 27`, then
/// `escaque-tune k k400.txt`: "K = 1.5765 (error 0.092638)"), so
/// `WIN_CHANCE_K = K / 400 = 0.00394` per centipawn (another 400 games,
/// seed 28, give K = 1.5907). The tuner's K = 2.0774 is another figure: it
/// was measured with the hand-written weights the shipped ones started
/// from, on games those weights played. lichess uses 0.00368208 for Stockfish's
/// centipawns: escaque's pawn of advantage is worth a little more winning
/// chance (+1.00 gives wc 0.195 here, 0.182 on lichess), so a mark needs
/// about 7 % fewer centipawns lost than on lichess.
///
/// Checked again since the network corrects the evaluation (BENCHMARKS.md,
/// the same section): the constant that matches escaque's winning chances
/// to those lichess's constant gives Stockfish's evaluation of the same
/// positions lies between 0.00326 and 0.00503 (0.00355 by least squares
/// on 13,179 positions of the reference games), so this one stays. The
/// engine's own games fitted on the search's scores give 0.00572, but that
/// measures how decisive games between engines are, not a person's chances.
///
/// Since issue 54 escaque's evaluator does not hand its search's score over
/// as it is: [`crate::analyse::calibrated_cp`] maps it first, so that this
/// constant gives escaque's centipawns the winning chances lichess's
/// constant gives Stockfish's evaluation of the same positions (fitted on
/// games of club strength; escaque's raw scale runs far ahead of
/// Stockfish's past two pawns).
pub const WIN_CHANCE_K: f64 = 1.5765 / 400.0;

/// lichess's constant for Stockfish's centipawns (lila `WinPercent`), for
/// judging a Stockfish analysis by the same method ([`judge_with`]).
pub const LICHESS_WIN_CHANCE_K: f64 = 0.003_682_08;

/// Centipawns are clamped to ±`CP_CEILING` before they become winning
/// chances, and a mate counts as `CP_CEILING` for the side that mates
/// (lichess's `Cp.CEILING`).
pub const CP_CEILING: i32 = 1000;

/// Winning chances lost by a move from which it is an inaccuracy (`?!`).
pub const INACCURACY: f64 = 0.1;
/// … a mistake (`?`).
pub const MISTAKE: f64 = 0.2;
/// … a blunder (`??`).
pub const BLUNDER: f64 = 0.3;

impl Eval {
    /// The same evaluation from the other side's point of view.
    pub fn negate(self) -> Eval {
        match self {
            Eval::Cp(c) => Eval::Cp(c.saturating_neg()),
            Eval::Mate(m) => Eval::Mate(m.saturating_neg()),
        }
    }

    /// The evaluation from `side`'s point of view (White's is the stored one).
    pub fn for_side(self, side: Color) -> Eval {
        match side {
            Color::White => self,
            Color::Black => self.negate(),
        }
    }

    /// Centipawns clamped to ±[`CP_CEILING`], a mate as the ceiling with the
    /// mating side's sign (White's point of view, as the evaluation).
    pub fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(c) => c.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate(m) => CP_CEILING * m.signum(),
        }
    }

    /// The centipawns, if this is not a mate.
    pub fn cp(self) -> Option<i32> {
        match self {
            Eval::Cp(c) => Some(c),
            Eval::Mate(_) => None,
        }
    }

    /// The moves to mate, if this is a mate.
    pub fn mate(self) -> Option<i32> {
        match self {
            Eval::Cp(_) => None,
            Eval::Mate(m) => Some(m),
        }
    }
}

/// White's winning chances, −1 to 1, from centipawns (clamped to
/// ±[`CP_CEILING`]).
pub fn winning_chances_cp(cp: i32) -> f64 {
    winning_chances_cp_with(WIN_CHANCE_K, cp)
}

/// [`winning_chances_cp`] with another constant `k` per centipawn.
pub fn winning_chances_cp_with(k: f64, cp: i32) -> f64 {
    let cp = cp.clamp(-CP_CEILING, CP_CEILING) as f64;
    (2.0 / (1.0 + (-k * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// White's winning chances, −1 to 1 (a mate counts as ±[`CP_CEILING`]).
pub fn winning_chances(eval: Eval) -> f64 {
    winning_chances_cp(eval.ceiled_cp())
}

/// White's win percentage, 0 to 100: `50 + 50 · wc`.
pub fn win_percent(eval: Eval) -> f64 {
    50.0 + 50.0 * winning_chances(eval)
}

// ------------------------------------------------------------ the marks

/// How a move changed a forced mate (lichess's `MateSequence`), from the
/// mover's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MateSequence {
    /// The mover had no forced mate against them; now they have ("Checkmate
    /// is now unavoidable", "El mate es ya inevitable").
    Created,
    /// The mover had a forced mate and lost it ("Lost forced checkmate
    /// sequence", "Perdió un mate forzado").
    Lost,
}

/// Whether a move created or lost a forced mate (`after == None`: the move
/// mated, which is neither). A slower mate (mate in N → N+1 or more), or a
/// faster one against the mover, is neither.
pub fn mate_sequence(before: Eval, after: Option<Eval>, mover: Color) -> Option<MateSequence> {
    let after = after?;
    let prev = before.for_side(mover).mate();
    let next = after.for_side(mover).mate();
    match (prev, next) {
        (None, Some(n)) if n < 0 => Some(MateSequence::Created),
        (Some(p), None) if p > 0 => Some(MateSequence::Lost),
        (Some(p), Some(n)) if p > 0 && n < 0 => Some(MateSequence::Lost),
        _ => None,
    }
}

/// The mark of a move by `mover` from a position evaluated `before` to one
/// evaluated `after` (both White's point of view; `after == None`: the move
/// checkmated, never marked).
///
/// lichess's method (lila `Advice`): when both are centipawns, the mover's
/// loss of winning chances ([`winning_chances`]) marks an inaccuracy from
/// 0.1, a mistake from 0.2 and a blunder from 0.3. With mates:
///
/// * walking into a forced mate is a blunder, a mistake when the mover was
///   already below −7 pawns and an inaccuracy below −9.99 pawns;
/// * losing a forced mate is likewise a blunder, a mistake when the mover is
///   still above +7 pawns and an inaccuracy above +9.99 pawns; letting the
///   opponent mate instead is a blunder;
/// * a slower mate (mate in N → N+1 or more), a mate found, or a mate
///   against the mover that comes sooner are never marked.
pub fn judge(before: Eval, after: Option<Eval>, mover: Color) -> Option<Judgement> {
    judge_with(WIN_CHANCE_K, before, after, mover)
}

/// [`judge`] with another winning-chance constant `k` per centipawn (to
/// judge another engine's evaluations on its own scale, e.g.
/// [`LICHESS_WIN_CHANCE_K`] for Stockfish's).
pub fn judge_with(k: f64, before: Eval, after: Option<Eval>, mover: Color) -> Option<Judgement> {
    let after_eval = after?;
    if let (Some(b), Some(a)) = (before.cp(), after_eval.cp()) {
        let lost = winning_chances_cp_with(k, b) - winning_chances_cp_with(k, a);
        let lost = match mover {
            Color::White => lost,
            Color::Black => -lost,
        };
        return judgement_for_loss(lost);
    }
    let seq = mate_sequence(before, after, mover)?;
    let prev_cp = before.for_side(mover).cp().unwrap_or(0);
    let next_cp = after_eval.for_side(mover).cp().unwrap_or(0);
    Some(match seq {
        MateSequence::Created if prev_cp < -999 => Judgement::Inaccuracy,
        MateSequence::Created if prev_cp < -700 => Judgement::Mistake,
        MateSequence::Created => Judgement::Blunder,
        MateSequence::Lost if next_cp > 999 => Judgement::Inaccuracy,
        MateSequence::Lost if next_cp > 700 => Judgement::Mistake,
        MateSequence::Lost => Judgement::Blunder,
    })
}

/// The mark for a loss of winning chances (0.1 / 0.2 / 0.3; NaN is no mark).
pub fn judgement_for_loss(lost: f64) -> Option<Judgement> {
    if lost >= BLUNDER {
        Some(Judgement::Blunder)
    } else if lost >= MISTAKE {
        Some(Judgement::Mistake)
    } else if lost >= INACCURACY {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

// ------------------------------------------------------------ accuracy

/// The accuracy of a move, 0 to 100, from the mover's win percentage before
/// and after it (lichess's `AccuracyPercent.fromWinPercents`: 100 when the
/// move lost nothing, else `103.1668 · exp(−0.04354 · loss) − 3.1669`, plus
/// 1 for the uncertainty of the analysis, clamped to 0–100).
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    if win_after >= win_before || win_before.is_nan() || win_after.is_nan() {
        return 100.0;
    }
    let loss = win_before - win_after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * loss).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Each side's game accuracy (White, Black), lichess's `gameAccuracy`:
/// `win_percents` are White's win percentages of the start position and of
/// the position after each move; `first` is the side that made the first
/// move. Each move's accuracy is weighted by the volatility of the win
/// percentages around it (the population standard deviation over a window of
/// `moves / 10` positions, 2 to 8, clamped to 0.5–12); a side's accuracy is
/// the mean of that weighted mean and the harmonic mean of its moves'
/// accuracies. `None` for a side without moves.
pub fn game_accuracy(win_percents: &[f64], first: Color) -> (Option<f64>, Option<f64>) {
    let n = win_percents.len();
    if n < 2 {
        return (None, None);
    }
    let moves = n - 1;
    let window = (moves / 10).clamp(2, 8);
    let first_window = window.min(n);
    let mut weights: Vec<f64> = Vec::with_capacity(moves);
    for _ in 0..first_window.saturating_sub(2) {
        weights.push(std_dev(&win_percents[..first_window]));
    }
    if n <= window {
        weights.push(std_dev(win_percents));
    } else {
        for w in win_percents.windows(window) {
            weights.push(std_dev(w));
        }
    }
    let weights = weights.into_iter().map(|w| w.clamp(0.5, 12.0));
    // (accuracy, weight) of each side's moves
    let mut sides: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, weight)) in win_percents.windows(2).zip(weights).enumerate() {
        let color = if i % 2 == 0 { first } else { first.other() };
        let (before, after) = match color {
            Color::White => (pair[0], pair[1]),
            Color::Black => (100.0 - pair[0], 100.0 - pair[1]),
        };
        sides[color.index()].push((move_accuracy(before, after), weight));
    }
    let side = |moves: &[(f64, f64)]| -> Option<f64> {
        if moves.is_empty() {
            return None;
        }
        let (sum, total) = moves
            .iter()
            .fold((0.0, 0.0), |(s, t), &(a, w)| (s + a * w, t + w));
        if total == 0.0 {
            return None;
        }
        let weighted = sum / total;
        let harmonic =
            moves.len() as f64 / moves.iter().map(|&(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        Some((weighted + harmonic) / 2.0)
    };
    (
        side(&sides[Color::White.index()]),
        side(&sides[Color::Black.index()]),
    )
}

/// Population standard deviation.
fn std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// Centipawns a move by `mover` lost, ≥ 0, as lichess counts them for the
/// average centipawn loss: both evaluations clamped to ±1000, a mate as
/// ±1000; a mating move (`after == None`) lost nothing.
pub fn centipawn_loss(before: Eval, after: Option<Eval>, mover: Color) -> i32 {
    let Some(after) = after else { return 0 };
    let diff = after.ceiled_cp() - before.ceiled_cp();
    match mover {
        Color::White => (-diff).max(0),
        Color::Black => diff.max(0),
    }
}

/// The average centipawn loss of a side's moves (lichess rounds down).
pub fn average_centipawn_loss(losses: &[i32]) -> u32 {
    if losses.is_empty() {
        return 0;
    }
    (losses.iter().map(|&l| l.max(0) as i64).sum::<i64>() / losses.len() as i64) as u32
}
