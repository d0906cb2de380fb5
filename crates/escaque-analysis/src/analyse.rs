//! The analysis of a whole game: every position evaluated by an
//! [`Evaluator`], each move judged, each side's accuracy.

use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use escaque::{Color, Lang, Move, Position};
use escaque_engine::{Engine, Limits, Report, Score};
use serde::{Deserialize, Serialize};

use crate::judge::{self, Eval, Judgement};

/// One line of an evaluator: its evaluation (White's point of view) and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The evaluation at the end of the line, White's point of view.
    pub eval: Eval,
    /// The moves, from the position evaluated.
    pub moves: Vec<Move>,
    /// The depth the evaluator reached.
    pub depth: u32,
}

/// How deep an evaluator looks at each position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Settings {
    /// Depth in plies (escaque's default for analysis when both are `None`).
    pub depth: Option<u32>,
    /// Nodes per position.
    pub nodes: Option<u64>,
}

impl Settings {
    /// escaque's default analysis depth in plies: an 80-ply game in well
    /// under 30 s on one core of the reference machine (BENCHMARKS.md,
    /// *Analysis*).
    pub const DEFAULT_DEPTH: u32 = 14;

    /// The depth to search when neither a depth nor a node count is set.
    pub fn effective_depth(&self) -> Option<u32> {
        match (self.depth, self.nodes) {
            (None, None) => Some(Settings::DEFAULT_DEPTH),
            (d, _) => d,
        }
    }
}

impl Default for Settings {
    /// [`Settings::DEFAULT_DEPTH`], no node limit.
    fn default() -> Settings {
        Settings {
            depth: Some(Settings::DEFAULT_DEPTH),
            nodes: None,
        }
    }
}

/// Something that evaluates positions: escaque's engine, a UCI engine, a
/// test double.
pub trait Evaluator: Send {
    /// A short name for reports (`escaque`, `Stockfish 15.1`).
    fn name(&self) -> String;
    /// The settings it evaluates with (part of the [`Cache`]'s key, written
    /// into [`GameAnalysis::settings`]). Override it: the default says
    /// [`Settings::default`].
    fn settings(&self) -> Settings {
        Settings::default()
    }
    /// The best `lines` lines of `pos` (at least one when `pos` has a legal
    /// move), best first. `history`: Zobrist keys of the earlier positions
    /// of the game (for repetitions). `stop` ends the search early.
    fn evaluate(
        &mut self,
        pos: &Position,
        history: &[u64],
        lines: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError>;

    /// The settings of a second, deeper look at a position around a move
    /// whose mark is in doubt ([`analyse_game`]); `None` (the default): this
    /// evaluator takes no second look.
    fn deeper_settings(&self) -> Option<Settings> {
        None
    }

    /// The best line of `pos` searched with [`Evaluator::deeper_settings`]
    /// (called only when those are `Some`). The default searches as
    /// [`Evaluator::evaluate`] does.
    fn evaluate_deeper(
        &mut self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.evaluate(pos, history, 1, stop)
    }

    /// The third look ([`analyse_game`]): at the two positions of every
    /// move whose loss of winning chances, after the second look, lies in
    /// the [`Verdict`]'s band around a mark's threshold, a search with the
    /// verdict's settings; each such position is then valued at the mean of
    /// that search's evaluation and the one it had. `None` (the default):
    /// none.
    fn verdict(&self) -> Option<Verdict> {
        None
    }

    /// The best line of `pos` searched with the [`Evaluator::verdict`]'s
    /// settings (called only when it is `Some`). The default searches as
    /// [`Evaluator::evaluate_deeper`] does.
    fn evaluate_verdict(
        &mut self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.evaluate_deeper(pos, history, stop)
    }
}

/// The third look at a move whose mark hangs on a threshold: the band of
/// losses of winning chances (from the mover's side, −1 to 1 scale as
/// [`judge::winning_chances`]) that call for it, and how deep it looks.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The search of the third look.
    pub settings: Settings,
    /// The smallest loss that calls for it.
    pub low: f64,
    /// The largest loss that calls for it.
    pub high: f64,
}

/// What went wrong in an analysis.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The external engine could not be started or stopped answering.
    #[error("engine: {0}")]
    Engine(String),
    /// The analysis was stopped.
    #[error("stopped")]
    Stopped,
    /// The move at this index (from 0) is not legal in its position.
    #[error("illegal move at ply {0}")]
    IllegalMove(usize),
}

impl AnalysisError {
    /// The error for a person, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (AnalysisError::Engine(e), Lang::Es) => format!("el motor de análisis falló: {e}"),
            (AnalysisError::Engine(e), Lang::En) => format!("the analysis engine failed: {e}"),
            (AnalysisError::Stopped, Lang::Es) => "el análisis se detuvo".to_string(),
            (AnalysisError::Stopped, Lang::En) => "the analysis was stopped".to_string(),
            (AnalysisError::IllegalMove(i), Lang::Es) => {
                format!("la jugada {} no es legal", i / 2 + 1)
            }
            (AnalysisError::IllegalMove(i), Lang::En) => {
                format!("move {} is not legal", i / 2 + 1)
            }
        }
    }
}

/// How far an analysis has come: positions evaluated of the total.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Positions evaluated.
    pub done: usize,
    /// Positions in the game.
    pub total: usize,
}

/// One move of an analysed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// Index of the move, from 0.
    pub ply: usize,
    /// The move in coordinates (`e2e4`, castling as the king's move).
    pub uci: String,
    /// SAN, English letters.
    pub san: String,
    /// SAN, Spanish letters.
    pub san_es: String,
    /// FEN after the move.
    pub fen: String,
    /// Evaluation after the move, White's point of view; `None` when the move
    /// checkmates.
    pub eval: Option<Eval>,
    /// White's winning chances after the move, −1 to 1.
    pub wc: f64,
    /// The mark, if the move lost enough.
    pub judgement: Option<Judgement>,
    /// The engine's best move in the position before, when it is not the
    /// move played: coordinates, English SAN, Spanish SAN.
    pub best: Option<String>,
    /// As `best`, English SAN.
    pub best_san: Option<String>,
    /// As `best`, Spanish SAN.
    pub best_san_es: Option<String>,
    /// The engine's line from the position before (starting with `best`),
    /// in coordinates; empty when the move played was the best.
    pub line: Vec<String>,
    /// As `line`, English SAN.
    pub line_san: Vec<String>,
    /// As `line_san`, Spanish SAN.
    pub line_san_es: Vec<String>,
    /// Move accuracy, 0 to 100.
    pub accuracy: f64,
    /// Centipawns lost by the move (for the average), ≥ 0.
    pub loss_cp: i32,
}

/// One side's summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// Game accuracy, 0 to 100.
    pub accuracy: f64,
    /// Average centipawn loss.
    pub acpl: u32,
    /// `?!` marks.
    pub inaccuracies: u32,
    /// `?` marks.
    pub mistakes: u32,
    /// `??` marks.
    pub blunders: u32,
    #[serde(default)]
    /// The side's moves in the game (accuracy and ACPL mean nothing when 0:
    /// then accuracy is 100 and ACPL 0).
    pub moves: u32,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameAnalysis {
    /// The evaluator's name.
    pub engine: String,
    /// The settings it ran with.
    pub settings: Settings,
    /// FEN of the start position.
    pub start_fen: String,
    /// Evaluation of the start position.
    pub start_eval: Option<Eval>,
    /// White's winning chances at the start.
    pub start_wc: f64,
    /// Every move.
    pub plies: Vec<PlyAnalysis>,
    /// White's summary.
    pub white: SideSummary,
    /// Black's summary.
    pub black: SideSummary,
}

// ------------------------------------------------------------ the cache

/// What a cached evaluation is filed under: the position, how many lines,
/// which evaluator with which settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct CacheKey {
    zobrist: u64,
    lines: usize,
    settings: Settings,
    engine: u64,
}

impl CacheKey {
    fn new(
        pos: &Position,
        lines: usize,
        evaluator: &dyn Evaluator,
        settings: Settings,
    ) -> CacheKey {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        evaluator.name().hash(&mut h);
        CacheKey {
            zobrist: pos.zobrist(),
            lines,
            settings,
            engine: h.finish(),
        }
    }
}

struct CacheInner {
    map: HashMap<CacheKey, Vec<Line>>,
    /// Keys oldest first, for eviction.
    order: VecDeque<CacheKey>,
}

/// Evaluations already made, keyed by the position's Zobrist key, the
/// number of lines and the evaluator (name and settings); shared between
/// analyses (thread-safe, bounded: past its capacity the oldest entries
/// go first).
///
/// The key leaves out the game's history: a position reached again is
/// given the evaluation it had the first time, repetitions aside.
pub struct Cache {
    capacity: usize,
    inner: Mutex<CacheInner>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl Cache {
    /// A cache of at most `capacity_positions` evaluations (at least 1).
    pub fn new(capacity_positions: usize) -> Cache {
        Cache {
            capacity: capacity_positions.max(1),
            inner: Mutex::new(CacheInner {
                map: HashMap::new(),
                order: VecDeque::new(),
            }),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// Evaluations held.
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many look-ups found an evaluation.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// How many look-ups found none.
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheInner> {
        // A panic elsewhere while holding the lock leaves a usable map.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, key: &CacheKey) -> Option<Vec<Line>> {
        let found = self.lock().map.get(key).cloned();
        match found {
            Some(_) => self.hits.fetch_add(1, Ordering::Relaxed),
            None => self.misses.fetch_add(1, Ordering::Relaxed),
        };
        found
    }

    fn put(&self, key: CacheKey, lines: Vec<Line>) {
        let mut inner = self.lock();
        if inner.map.insert(key, lines).is_none() {
            inner.order.push_back(key);
        }
        while inner.map.len() > self.capacity {
            match inner.order.pop_front() {
                Some(old) => {
                    inner.map.remove(&old);
                }
                None => break,
            }
        }
    }
}

/// How deep [`evaluate_cached`] looks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Look {
    /// The evaluator's own settings, this many lines.
    Lines(usize),
    /// One line with [`Evaluator::deeper_settings`].
    Deeper,
    /// One line with the [`Evaluator::verdict`]'s settings.
    Verdict,
}

/// Evaluates `pos` through the cache when there is one.
fn evaluate_cached(
    evaluator: &mut dyn Evaluator,
    cache: Option<&Cache>,
    pos: &Position,
    history: &[u64],
    look: Look,
    stop: &AtomicBool,
) -> Result<Vec<Line>, AnalysisError> {
    let (lines, settings) = match look {
        Look::Lines(n) => (n, evaluator.settings()),
        Look::Deeper => match evaluator.deeper_settings() {
            Some(s) => (1, s),
            None => (1, evaluator.settings()),
        },
        Look::Verdict => match evaluator.verdict() {
            Some(v) => (1, v.settings),
            None => (1, evaluator.settings()),
        },
    };
    let key = cache.map(|_| CacheKey::new(pos, lines, evaluator, settings));
    if let (Some(c), Some(k)) = (cache, key.as_ref()) {
        // A position already looked at again deeper (in an earlier game of
        // the same file) keeps its deepest verdict: one position, one
        // evaluation, whichever game reaches it.
        if matches!(look, Look::Lines(1) | Look::Deeper) {
            if let Some(v) = evaluator.verdict() {
                if let Some(found) = c.get(&CacheKey::new(pos, 1, evaluator, v.settings)) {
                    return Ok(found);
                }
            }
        }
        if let (Look::Lines(1), Some(deep)) = (look, evaluator.deeper_settings()) {
            if let Some(found) = c.get(&CacheKey::new(pos, 1, evaluator, deep)) {
                return Ok(found);
            }
        }
        if let Some(found) = c.get(k) {
            return Ok(found);
        }
    }
    if stop.load(Ordering::Relaxed) {
        return Err(AnalysisError::Stopped);
    }
    let found = match look {
        Look::Deeper if evaluator.deeper_settings().is_some() => {
            evaluator.evaluate_deeper(pos, history, stop)?
        }
        Look::Verdict if evaluator.verdict().is_some() => {
            evaluator.evaluate_verdict(pos, history, stop)?
        }
        _ => evaluator.evaluate(pos, history, lines, stop)?,
    };
    if stop.load(Ordering::Relaxed) {
        // A search cut short is not worth keeping.
        return Err(AnalysisError::Stopped);
    }
    let found: Vec<Line> = found
        .into_iter()
        .filter(|l| l.moves.first().is_some_and(|&m| pos.is_legal(m)))
        .collect();
    if found.is_empty() {
        return Err(AnalysisError::Engine(format!(
            "no legal line for {}",
            pos.to_fen()
        )));
    }
    if let (Some(c), Some(k)) = (cache, key) {
        c.put(k, found.clone());
    }
    Ok(found)
}

// ------------------------------------------------------------ escaque's engine

/// escaque's own engine as an [`Evaluator`]: its own 16 MiB table, one
/// thread, full strength, searching each position to the settings' depth
/// or node count.
pub struct EscaqueEvaluator {
    engine: Engine,
    settings: Settings,
    deeper: Option<Settings>,
    verdict: Option<Verdict>,
    /// The best line's exact evaluation at each depth of the last search.
    depth_evals: Vec<(u32, Eval)>,
}

impl EscaqueEvaluator {
    /// The plies a second look adds to the depth ([`Evaluator::deeper_settings`]).
    pub const DEEPER_PLIES: u32 = 2;
    /// How many times the nodes a second look has when the settings count nodes.
    pub const DEEPER_NODES: u64 = 4;

    /// The engine with these settings; its second look at a position
    /// around a move in doubt goes [`EscaqueEvaluator::DEEPER_PLIES`] deeper
    /// (or [`EscaqueEvaluator::DEEPER_NODES`] times the nodes).
    pub fn new(settings: Settings) -> EscaqueEvaluator {
        let deeper = match (settings.effective_depth(), settings.nodes) {
            (Some(d), n) => Settings {
                depth: Some((d + Self::DEEPER_PLIES).min(64)),
                nodes: n.map(|n| n.saturating_mul(Self::DEEPER_NODES)),
            },
            (None, n) => Settings {
                depth: None,
                nodes: n.map(|n| n.saturating_mul(Self::DEEPER_NODES)),
            },
        };
        EscaqueEvaluator {
            engine: Engine::new(),
            settings,
            deeper: Some(deeper),
            verdict: None,
            depth_evals: Vec::new(),
        }
    }

    /// The best line's exact evaluation (White's point of view, calibrated)
    /// at each depth the last search completed, shallowest first.
    pub fn depth_evals(&self) -> &[(u32, Eval)] {
        &self.depth_evals
    }

    /// The same with another second look (`None`: none).
    pub fn with_deeper(mut self, deeper: Option<Settings>) -> EscaqueEvaluator {
        self.deeper = deeper;
        self
    }

    /// The same with a third look at moves whose mark hangs on a
    /// threshold (`None`: none).
    pub fn with_verdict(mut self, verdict: Option<Verdict>) -> EscaqueEvaluator {
        self.verdict = verdict;
        self
    }

    fn search(
        &mut self,
        settings: Settings,
        pos: &Position,
        history: &[u64],
        lines: usize,
        stop: &AtomicBool,
    ) -> Vec<Line> {
        let lines = lines.clamp(1, 256);
        self.engine.set_multipv(lines);
        let limits = Limits {
            depth: settings.effective_depth(),
            nodes: settings.nodes,
            ..Limits::default()
        };
        // The latest exact line reported for each multipv index.
        let mut found: Vec<Option<Line>> = vec![None; lines];
        let turn = pos.turn();
        let depth_evals = &mut self.depth_evals;
        depth_evals.clear();
        let result = self
            .engine
            .search_with(pos, history, &limits, stop, None, &mut |r| {
                if let Report::Line(info) = r {
                    let i = info.multipv as usize;
                    if i == 1 && info.bound.is_none() {
                        depth_evals.retain(|&(d, _)| d != info.depth);
                        depth_evals.push((info.depth, eval_from_internal(info.score, turn)));
                    }
                    if info.bound.is_none() && (1..=lines).contains(&i) && !info.pv.is_empty() {
                        found[i - 1] = Some(Line {
                            eval: eval_from_internal(info.score, turn),
                            moves: info.pv.clone(),
                            depth: info.depth,
                        });
                    }
                }
            });
        let Some(best) = result.best_move else {
            return Vec::new();
        };
        // The best line is the search's own answer.
        let mut pv = result.pv.clone();
        if pv.first() != Some(&best) {
            pv = vec![best];
        }
        let mut out = vec![Line {
            eval: eval_from_internal(result.score, turn),
            moves: pv,
            depth: result.depth,
        }];
        for l in found.into_iter().skip(1).flatten() {
            if out.iter().all(|o| o.moves[0] != l.moves[0]) {
                out.push(l);
            }
        }
        out
    }
}

/// escaque's centipawns → the analysis' centipawns: (escaque's search score,
/// the centipawns that give the same winning chances with
/// [`judge::WIN_CHANCE_K`] as Stockfish's evaluation of the same positions
/// gives with lichess's constant), joined by straight lines, the same for
/// both signs; past the last point 1 for 2.
///
/// Fitted on the TUNING games of issue 54 (testing/judged-set/README.md:
/// never the held-out sets): the median of Stockfish 15.1's evaluation at
/// 100,000 nodes for each band of escaque's depth-14 score, over 1,384
/// positions without a mate score, then times 0.00368208 / 0.00394 (lichess's
/// constant over escaque's). escaque's scale is close to Stockfish's up to
/// about two pawns (a little under it), then grows much faster: +9 for
/// escaque is about +6.3 for Stockfish, so a move from +5 to +9 that lichess
/// would leave unmarked was a `??` here.
const CALIBRATION: [(i32, i32); 10] = [
    (0, 0),
    (100, 103),
    (200, 220),
    (300, 327),
    (450, 439),
    (600, 477),
    (800, 542),
    (1000, 589),
    (1300, 654),
    (1800, 935),
];

/// escaque's centipawns (its search's score) as the analysis shows and
/// judges them: [`CALIBRATION`].
pub fn calibrated_cp(cp: i32) -> i32 {
    let x = i64::from(cp).abs();
    let sign = if cp < 0 { -1 } else { 1 };
    let mut y = None;
    for w in CALIBRATION.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        let (x0, y0, x1, y1) = (x0 as i64, y0 as i64, x1 as i64, y1 as i64);
        if x <= x1 {
            y = Some(y0 + ((y1 - y0) * (x - x0) + (x1 - x0) / 2) / (x1 - x0));
            break;
        }
    }
    let (xl, yl) = CALIBRATION[CALIBRATION.len() - 1];
    let y = y.unwrap_or(yl as i64 + (x - xl as i64) / 2);
    (sign * y).clamp(i32::MIN as i64 + 1, i32::MAX as i64) as i32
}

/// An engine score (side to move's point of view) as White's evaluation,
/// centipawns [`calibrated_cp`].
fn eval_from_internal(score: i32, turn: Color) -> Eval {
    let e = match Score::from_internal(score) {
        Score::Cp(c) => Eval::Cp(calibrated_cp(c)),
        Score::Mate(m) => Eval::Mate(m),
    };
    e.for_side(turn)
}

impl Evaluator for EscaqueEvaluator {
    fn name(&self) -> String {
        "escaque".to_string()
    }

    fn settings(&self) -> Settings {
        self.settings
    }

    fn evaluate(
        &mut self,
        pos: &Position,
        history: &[u64],
        lines: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        Ok(self.search(self.settings, pos, history, lines, stop))
    }

    fn deeper_settings(&self) -> Option<Settings> {
        self.deeper
    }

    fn evaluate_deeper(
        &mut self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        let settings = self.deeper.unwrap_or(self.settings);
        Ok(self.search(settings, pos, history, 1, stop))
    }

    fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    fn evaluate_verdict(
        &mut self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        let settings = self.verdict.map_or(self.settings, |v| v.settings);
        Ok(self.search(settings, pos, history, 1, stop))
    }
}

// ------------------------------------------------------------ lines for people

/// One engine line as the server sends it for the analysis board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineView {
    /// The evaluation, White's point of view.
    pub eval: Eval,
    /// White's winning chances, −1 to 1.
    pub wc: f64,
    /// The moves in coordinates (`e2e4`, castling as the king's move).
    pub uci: Vec<String>,
    /// The moves in SAN, English letters.
    pub san: Vec<String>,
    /// The moves in SAN, Spanish letters.
    pub san_es: Vec<String>,
}

/// The moves of `moves` from `pos` in coordinates, English SAN and Spanish
/// SAN, up to the first that is not legal.
fn notate(pos: &Position, moves: &[Move]) -> (Vec<String>, Vec<String>, Vec<String>) {
    let mut p = *pos;
    let (mut uci, mut san, mut san_es) = (Vec::new(), Vec::new(), Vec::new());
    for &m in moves {
        if !p.is_legal(m) {
            break;
        }
        uci.push(m.to_string());
        san.push(escaque::san::san(&p, m, Lang::En));
        san_es.push(escaque::san::san(&p, m, Lang::Es));
        p.play_unchecked(m);
    }
    (uci, san, san_es)
}

/// The lines of an evaluation of `pos` as people read them (moves that are
/// not legal end a line; a line with no legal move is left out).
pub fn view_lines(pos: &Position, lines: &[Line]) -> Vec<LineView> {
    lines
        .iter()
        .filter_map(|l| {
            let (uci, san, san_es) = notate(pos, &l.moves);
            (!uci.is_empty()).then(|| LineView {
                eval: l.eval,
                wc: judge::winning_chances(l.eval),
                uci,
                san,
                san_es,
            })
        })
        .collect()
}

// ------------------------------------------------------------ a whole game

/// What is known of one position of the game.
#[derive(Clone, Debug)]
struct Node {
    pos: Position,
    /// `None` when the side to move is checkmated.
    eval: Option<Eval>,
    /// The evaluator's lines; empty when the game is over on the board.
    lines: Vec<Line>,
}

/// The evaluation of a position that the rules end (checkmate: `None`;
/// stalemate, insufficient material, the seventy-five-move rule: a draw),
/// or `Err(())` when the game goes on.
fn board_verdict(pos: &Position) -> Result<Option<Eval>, ()> {
    if !pos.has_legal_moves() {
        return Ok(if pos.is_check() {
            None
        } else {
            Some(Eval::Cp(0))
        });
    }
    if pos.is_insufficient_material() || pos.halfmove_clock() >= 150 {
        return Ok(Some(Eval::Cp(0)));
    }
    Err(())
}

/// The evaluation of `pos` once `mv` is played in it, from the evaluation
/// `after` of the position reached: a mate is one move longer when the side
/// that mates is the one that moved.
fn mate_back(after: Eval, mover: Color) -> Eval {
    match after {
        Eval::Mate(m) if (m > 0) == (mover == Color::White) => Eval::Mate(m + m.signum()),
        e => e,
    }
}

/// Analyses a game: evaluates the start and every position after each move
/// (from the cache when it has them), judges every move and sums up each
/// side. `progress` is called after each position.
///
/// Accuracy and ACPL are lichess's ([`judge::game_accuracy`],
/// [`judge::centipawn_loss`]) with one difference: the first move is judged
/// from the start position's own evaluation, where lichess always assumes
/// +0.15 (which is wrong for a game from a set-up position). A side with no
/// move gets accuracy 100 and ACPL 0 (`moves` says 0).
///
/// The evaluator's own best move is never marked: when it would be (on
/// centipawns), the position before it takes the evaluation after it (the
/// graph too), and the move before is judged against that.
///
/// A move marked only because the forced mate seen on one side of it is not
/// seen on the other (a search horizon: lila issues #15616 and #18262) gets
/// a second look one move deeper along the evaluator's best line; a mate
/// found there replaces the shallower evaluation.
pub fn analyse_game(
    start: &Position,
    moves: &[Move],
    evaluator: &mut dyn Evaluator,
    cache: Option<&Cache>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<GameAnalysis, AnalysisError> {
    // The positions, checked first so that an illegal game costs no search.
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut pos = *start;
    positions.push(pos);
    for (i, &m) in moves.iter().enumerate() {
        if pos.play(m).is_err() {
            return Err(AnalysisError::IllegalMove(i));
        }
        positions.push(pos);
    }
    let keys: Vec<u64> = positions.iter().map(Position::zobrist).collect();
    let total = positions.len();
    // From the last position back to the first: the evaluator keeps what it
    // learnt of the later positions (escaque's engine its transposition
    // table), so the search before a move already knows how the game went
    // on after it, the opponent's reply included, and sees further along
    // the line that was played.
    let mut nodes: Vec<Node> = Vec::with_capacity(total);
    for (j, p) in positions.into_iter().enumerate().rev() {
        if stop.load(Ordering::Relaxed) {
            return Err(AnalysisError::Stopped);
        }
        let node = match board_verdict(&p) {
            Ok(eval) => Node {
                pos: p,
                eval,
                lines: Vec::new(),
            },
            Err(()) => {
                let history = engine_history(&keys, j);
                let lines = evaluate_cached(evaluator, cache, &p, &history, Look::Lines(1), stop)?;
                Node {
                    eval: Some(lines[0].eval),
                    pos: p,
                    lines,
                }
            }
        };
        nodes.push(node);
        progress(Progress {
            done: nodes.len(),
            total,
        });
    }
    nodes.reverse();

    // A second, deeper look where a mark is in doubt: both positions of
    // every move that loses enough winning chances to come near a mark
    // (or that creates or loses a forced mate) are searched again deeper,
    // from the last back to the first, until no move in doubt has a
    // position left that was not looked at again. One position misjudged
    // by the first search would otherwise mark two moves: the one before
    // it and the one after.
    if evaluator.deeper_settings().is_some() {
        let mut deeper = vec![false; total];
        loop {
            let mut todo: Vec<usize> = Vec::new();
            for i in 1..total {
                let mover = nodes[i - 1].pos.turn();
                let (Some(before), Some(after)) = (nodes[i - 1].eval, nodes[i].eval) else {
                    continue;
                };
                if !in_doubt(before, after, mover) {
                    continue;
                }
                for j in [i - 1, i] {
                    if !deeper[j] && !nodes[j].lines.is_empty() {
                        todo.push(j);
                    }
                }
            }
            if todo.is_empty() {
                break;
            }
            todo.sort_unstable();
            todo.dedup();
            for &j in todo.iter().rev() {
                if stop.load(Ordering::Relaxed) {
                    return Err(AnalysisError::Stopped);
                }
                let history = engine_history(&keys, j);
                let lines = evaluate_cached(
                    evaluator,
                    cache,
                    &nodes[j].pos,
                    &history,
                    Look::Deeper,
                    stop,
                )?;
                nodes[j].eval = Some(lines[0].eval);
                nodes[j].lines = lines;
                deeper[j] = true;
            }
        }
    }

    // The evaluator's own best move is never marked. When the move played
    // was its first choice and still loses centipawns enough for a mark,
    // the evaluator saw one ply later what it had not seen before (a draw,
    // a defence: a search horizon), so the position before takes the
    // evaluation after. Backwards, so that the move before is judged
    // against what was found.
    // The third look: a move whose loss (after the second look) lies in
    // the verdict's band, no mate on either side, has both its positions
    // searched once more with the verdict's settings, so that the search
    // goes where a mark hangs on a threshold.
    if let Some(verdict) = evaluator.verdict() {
        let mut todo: Vec<usize> = Vec::new();
        for i in 1..total {
            let mover = nodes[i - 1].pos.turn();
            let (Some(before), Some(after)) = (nodes[i - 1].eval, nodes[i].eval) else {
                continue;
            };
            if before.cp().is_none() || after.cp().is_none() {
                continue;
            }
            let lost = judge::winning_chances(before) - judge::winning_chances(after);
            let lost = match mover {
                Color::White => lost,
                Color::Black => -lost,
            };
            if lost < verdict.low || lost > verdict.high {
                continue;
            }
            for j in [i - 1, i] {
                if !nodes[j].lines.is_empty() {
                    todo.push(j);
                }
            }
        }
        todo.sort_unstable();
        todo.dedup();
        for &j in todo.iter().rev() {
            if stop.load(Ordering::Relaxed) {
                return Err(AnalysisError::Stopped);
            }
            let history = engine_history(&keys, j);
            let mut lines = evaluate_cached(
                evaluator,
                cache,
                &nodes[j].pos,
                &history,
                Look::Verdict,
                stop,
            )?;
            // The position's value is the mean of the third look's
            // evaluation and the one it had (the second look's, two plies
            // shallower): a search's score swings from one depth to the
            // next, and the mean agreed with Stockfish's marks more often
            // than either alone on the tuning set (BENCHMARKS.md). Filed in
            // the cache as the third look's, so that a later game reaching
            // the position gets the same value.
            if let (Some(Eval::Cp(had)), Eval::Cp(now)) = (nodes[j].eval, lines[0].eval) {
                if had != now {
                    lines[0].eval = Eval::Cp((had + now) / 2);
                    if let Some(c) = cache {
                        let key = CacheKey::new(&nodes[j].pos, 1, evaluator, verdict.settings);
                        c.put(key, lines.clone());
                    }
                }
            }
            nodes[j].eval = Some(lines[0].eval);
            nodes[j].lines = lines;
        }
    }

    for i in (1..total).rev() {
        let mover = nodes[i - 1].pos.turn();
        let best = nodes[i - 1].lines.first().map(|l| l.moves[0]);
        let (Some(before), Some(after)) = (nodes[i - 1].eval, nodes[i].eval) else {
            continue;
        };
        if best != Some(moves[i - 1]) || before.cp().is_none() || after.cp().is_none() {
            continue;
        }
        if judge::judge(before, Some(after), mover).is_some() {
            nodes[i - 1].eval = Some(after);
        }
    }

    // Judge each move, with a second look at mate transitions.
    for i in 1..total {
        let mover = nodes[i - 1].pos.turn();
        let (Some(before), after) = (nodes[i - 1].eval, nodes[i].eval) else {
            continue;
        };
        let Some(seq) = judge::mate_sequence(before, after, mover) else {
            continue;
        };
        match seq {
            judge::MateSequence::Created => {
                // Was the mover already lost? Look along their best move.
                let deeper = deeper_eval(evaluator, cache, &nodes, &keys, i - 1, moves, stop)?;
                if let Some(e) = deeper {
                    if e.for_side(mover).mate().is_some_and(|m| m < 0) {
                        nodes[i - 1].eval = Some(e);
                    }
                }
            }
            judge::MateSequence::Lost => {
                // Is the mate still there? Look along the opponent's best reply.
                if nodes[i].lines.is_empty() {
                    continue;
                }
                let deeper = deeper_eval(evaluator, cache, &nodes, &keys, i, moves, stop)?;
                if let Some(e) = deeper {
                    if e.for_side(mover).mate().is_some_and(|m| m > 0) {
                        nodes[i].eval = Some(e);
                    }
                }
            }
        }
    }

    let mut plies = Vec::with_capacity(moves.len());
    let mut win_percents = Vec::with_capacity(total);
    let start_eval = nodes[0].eval;
    win_percents.push(win_percent_of(start_eval, start.turn()));
    let mut white = SideSummary::default();
    let mut black = SideSummary::default();
    let mut losses: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
    for (i, &m) in moves.iter().enumerate() {
        let before_node = &nodes[i];
        let after_node = &nodes[i + 1];
        let p = &before_node.pos;
        let mover = p.turn();
        let after = after_node.eval;
        let judgement = before_node.eval.and_then(|b| judge::judge(b, after, mover));
        let wp_before = win_percent_of(before_node.eval, mover);
        let wp_after = win_percent_of(after, mover.other());
        win_percents.push(wp_after);
        let (mover_before, mover_after) = match mover {
            Color::White => (wp_before, wp_after),
            Color::Black => (100.0 - wp_before, 100.0 - wp_after),
        };
        let loss_cp = before_node
            .eval
            .map_or(0, |b| judge::centipawn_loss(b, after, mover));
        losses[mover.index()].push(loss_cp);
        let best_line = before_node.lines.first().filter(|l| l.moves[0] != m);
        let (line, line_san, line_san_es) = match best_line {
            Some(l) => notate(p, &l.moves),
            None => (Vec::new(), Vec::new(), Vec::new()),
        };
        let side = match mover {
            Color::White => &mut white,
            Color::Black => &mut black,
        };
        side.moves += 1;
        match judgement {
            Some(Judgement::Inaccuracy) => side.inaccuracies += 1,
            Some(Judgement::Mistake) => side.mistakes += 1,
            Some(Judgement::Blunder) => side.blunders += 1,
            None => {}
        }
        plies.push(PlyAnalysis {
            ply: i,
            uci: m.to_string(),
            san: escaque::san::san(p, m, Lang::En),
            san_es: escaque::san::san(p, m, Lang::Es),
            fen: after_node.pos.to_fen(),
            eval: after,
            wc: (wp_after - 50.0) / 50.0,
            judgement,
            best: line.first().cloned(),
            best_san: line_san.first().cloned(),
            best_san_es: line_san_es.first().cloned(),
            line,
            line_san,
            line_san_es,
            accuracy: judge::move_accuracy(mover_before, mover_after),
            loss_cp,
        });
    }
    let (acc_white, acc_black) = judge::game_accuracy(&win_percents, start.turn());
    white.accuracy = acc_white.unwrap_or(100.0);
    black.accuracy = acc_black.unwrap_or(100.0);
    white.acpl = judge::average_centipawn_loss(&losses[Color::White.index()]);
    black.acpl = judge::average_centipawn_loss(&losses[Color::Black.index()]);
    Ok(GameAnalysis {
        engine: evaluator.name(),
        settings: evaluator.settings(),
        start_fen: start.to_fen(),
        start_eval,
        start_wc: (win_percents[0] - 50.0) / 50.0,
        plies,
        white,
        black,
    })
}

/// Winning chances lost by a move from which the analysis takes a second,
/// deeper look at the positions before and after it: a little under the
/// inaccuracy's 0.1, so that a move the first search put just below a mark
/// is looked at again too.
pub const DOUBT: f64 = 0.07;

/// Whether the mark of a move by `mover` from `before` to `after` is in
/// doubt: it loses at least [`DOUBT`] winning chances, or it creates or loses
/// a forced mate.
fn in_doubt(before: Eval, after: Eval, mover: Color) -> bool {
    if judge::mate_sequence(before, Some(after), mover).is_some() {
        return true;
    }
    let lost = judge::winning_chances(before) - judge::winning_chances(after);
    let lost = match mover {
        Color::White => lost,
        Color::Black => -lost,
    };
    lost >= DOUBT
}

/// What a key is changed by to be no position's ([`engine_history`]).
const UNSEEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// The earlier positions of the game as the engine is told them before it
/// searches position `j`: the key of a position that has stood on the board
/// only once so far (`j` counted) is replaced by one no position has. A
/// position seen once before is no draw when it comes back (it would be only
/// its second time); escaque's search, like most, takes any repetition of
/// an earlier position for a draw, and would call a won game drawn because
/// the winner can go back to where it stood a few moves before. A position
/// seen twice is still there: its third time is a draw.
fn engine_history(keys: &[u64], j: usize) -> Vec<u64> {
    let mut count: HashMap<u64, u32> = HashMap::with_capacity(j + 1);
    for &k in &keys[..=j] {
        *count.entry(k).or_insert(0) += 1;
    }
    keys[..j]
        .iter()
        .map(|&k| if count[&k] >= 2 { k } else { k ^ UNSEEN })
        .collect()
}

/// White's win percentage of a position; `None` (the side to move,
/// `to_move`, is checkmated) is a certain loss for them.
fn win_percent_of(eval: Option<Eval>, to_move: Color) -> f64 {
    match eval {
        Some(e) => judge::win_percent(e),
        None => match to_move {
            Color::White => 0.0,
            Color::Black => 100.0,
        },
    }
}

/// The evaluation of position `j` one move deeper: the evaluation after the
/// evaluator's best move there (the game's next position when that move was
/// played), a mate made one move longer when the side to move mates.
#[allow(clippy::too_many_arguments)]
fn deeper_eval(
    evaluator: &mut dyn Evaluator,
    cache: Option<&Cache>,
    nodes: &[Node],
    keys: &[u64],
    j: usize,
    moves: &[Move],
    stop: &AtomicBool,
) -> Result<Option<Eval>, AnalysisError> {
    let node = &nodes[j];
    let Some(best) = node.lines.first().map(|l| l.moves[0]) else {
        return Ok(None);
    };
    let mover = node.pos.turn();
    let after = if moves.get(j) == Some(&best) {
        nodes[j + 1].eval
    } else {
        let mut next = node.pos;
        next.play_unchecked(best);
        match board_verdict(&next) {
            Ok(e) => e,
            Err(()) => {
                // Position j goes into the history as the others do.
                let mut history = engine_history(keys, j);
                history.push(if keys[..j].contains(&keys[j]) {
                    keys[j]
                } else {
                    keys[j] ^ UNSEEN
                });
                let lines =
                    evaluate_cached(evaluator, cache, &next, &history, Look::Lines(1), stop)?;
                Some(lines[0].eval)
            }
        }
    };
    Ok(Some(match after {
        Some(e) => mate_back(e, mover),
        // The best move mates at once.
        None => Eval::Mate(match mover {
            Color::White => 1,
            Color::Black => -1,
        }),
    }))
}
