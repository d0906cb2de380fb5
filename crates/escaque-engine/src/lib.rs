//! # escaque-engine — el motor
//!
//! The engine of escaque: iterative-deepening alpha-beta search with a shared
//! transposition table and Lazy SMP, a tapered evaluation with tuned weights
//! corrected by a small network trained on the engine's own games
//! ([`nnue`]), strength levels for people, and the UCI protocol as a library.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use escaque::Position;
//! use escaque_engine::{Engine, Level, Limits};
//!
//! let mut engine = Engine::new();
//! engine.set_level(Level::Master);
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let stop = AtomicBool::new(false);
//! let result = engine.search(&Position::new(), &[], &limits, &stop);
//! assert!(Position::new().is_legal(result.best_move.unwrap()));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod book;
mod correction;
pub mod eval;
pub mod level;
mod limits;
mod movepick;
pub mod nnue;
mod rng;
pub mod search;
pub mod see;
pub mod timeman;
pub mod tt;
pub mod uci;
mod weights;

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use escaque::{Move, Position};

use book::Book;

pub use level::{Level, Weakening};
pub use search::{Info, Limits, Report, Score, MATE, MATE_BOUND};
pub use timeman::TimeBudget;
pub use tt::TranspositionTable;
pub use weights::WEIGHTS;

use search::{Memory, Shared, Worker, MAX_PLY};
use timeman::TimeManager;

/// Settings of the engine (the UCI options).
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve for communication per move.
    pub move_overhead: u64,
    /// `UCI_LimitStrength`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `Skill Level` 0–20.
    pub skill_level: u32,
    /// A raw setting of the weakening schedule that overrides the two above
    /// (for calibration: `escaque uci --ajuste N`).
    pub strength_setting: Option<u32>,
    /// Evaluate with the embedded network (`Use NNUE`, default true) at
    /// full strength; false: the hand-written, Texel-tuned evaluation alone.
    /// Weakened play (levels, `UCI_Elo`, `Skill Level`) always uses the
    /// hand-written evaluation, with which its levels were calibrated.
    pub nnue: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 30,
            limit_strength: false,
            elo: level::MAX_ELO,
            skill_level: 20,
            strength_setting: None,
            nnue: true,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the chosen line (internal units: centipawns or mate scores).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Principal variation of the chosen move.
    pub pv: Vec<Move>,
    /// The move came from the opening book (nothing was searched).
    pub book: bool,
}

/// The engine: options, the transposition table and a random source for
/// weakened play. Use it from any thread; one search at a time.
pub struct Engine {
    options: Options,
    tt: Arc<TranspositionTable>,
    rng: rng::Rng,
    book: Option<Arc<Book>>,
    /// What each search thread learnt (histories, correction history), kept
    /// from one search to the next like the table, and cleared with it.
    memories: Mutex<Vec<Memory>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// A full-strength engine with a 16 MiB table and one thread.
    pub fn new() -> Engine {
        let options = Options::default();
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            options,
            rng: rng::Rng::from_time(),
            book: None,
            memories: Mutex::new(Vec::new()),
        }
    }

    /// Evaluates with the embedded network (true) or the hand-written
    /// evaluation (false).
    pub fn set_nnue(&mut self, on: bool) {
        self.options.nnue = on;
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, mb: usize) {
        self.options.hash_mb = mb.clamp(1, 65536);
        self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb));
    }

    /// Number of search threads (1–256).
    pub fn set_threads(&mut self, n: usize) {
        self.options.threads = n.clamp(1, 256);
    }

    /// Number of lines reported (1–256).
    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.clamp(1, 256);
    }

    /// Milliseconds reserved per move for the GUI and the pipe.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.options.move_overhead = ms.min(5000);
    }

    /// `UCI_LimitStrength` and `UCI_Elo`.
    pub fn set_limit_strength(&mut self, on: bool, elo: u32) {
        self.options.limit_strength = on;
        self.options.elo = elo.clamp(level::MIN_ELO, level::MAX_ELO);
    }

    /// `Skill Level` 0–20 (20: full strength).
    pub fn set_skill_level(&mut self, skill: u32) {
        self.options.skill_level = skill.min(20);
    }

    /// Plays at one of the ten named levels (sets `UCI_LimitStrength` and `UCI_Elo`).
    pub fn set_level(&mut self, level: Level) {
        self.options.skill_level = 20;
        self.set_limit_strength(level != Level::Master, level.elo());
    }

    /// Seeds the random choice of weakened play (for reproducible tests).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = rng::Rng::new(seed);
    }

    /// Forgets every stored position (`Clear Hash`, `ucinewgame`).
    pub fn clear_hash(&self) {
        self.tt.clear();
        self.memories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Plays at a raw setting of the weakening schedule
    /// ([`Weakening::for_setting`], [`level::MIN_SETTING`]–[`level::MAX_SETTING`])
    /// whatever the Elo and skill options say; `None` gives them back control.
    /// This is the knob the level calibration measures.
    pub fn set_strength_setting(&mut self, setting: Option<u32>) {
        self.options.strength_setting =
            setting.map(|s| s.clamp(level::MIN_SETTING, level::MAX_SETTING));
    }

    /// Plays from `book` in the opening (`None`: no book, the default, which
    /// is what analysis wants). How far depends on the strength: see
    /// [`Engine::book_plies`].
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book in use, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The Elo the engine plays at: `None` at full strength. A raw setting
    /// ([`Engine::set_strength_setting`]) is read through the calibration.
    pub fn playing_elo(&self) -> Option<u32> {
        if let Some(s) = self.options.strength_setting {
            return Some(Weakening::elo_for_setting(s));
        }
        let elo = self.target_elo();
        (elo < level::MAX_ELO).then_some(elo)
    }

    /// How many plies of a game (counted from the standard start, see
    /// [`book::game_ply`]) the engine takes from its book at its strength:
    /// [`book::plies_for_elo`].
    pub fn book_plies(&self) -> u32 {
        book::plies_for_elo(self.playing_elo())
    }

    /// A move from the book for a search of `pos` with `limits`, if the book
    /// is set, the game is still within [`Engine::book_plies`] and the search
    /// is one that plays a move (not analysis: no `go infinite`, `go mate`,
    /// `searchmoves` or several lines).
    fn book_move(&mut self, pos: &Position, limits: &Limits) -> Option<Move> {
        let book = self.book.clone()?;
        if limits.infinite
            || limits.mate.is_some()
            || !limits.searchmoves.is_empty()
            || self.options.multipv > 1
            || book::game_ply(pos) >= self.book_plies()
        {
            return None;
        }
        let sharpness = book::sharpness_for_elo(self.playing_elo());
        let x = self.rng.next_f64();
        book.pick(pos, sharpness, x)
    }

    /// The Elo asked for by `UCI_LimitStrength`/`UCI_Elo` and `Skill Level`
    /// ([`level::MAX_ELO`] or more: full strength).
    fn target_elo(&self) -> u32 {
        let elo = if self.options.limit_strength {
            self.options.elo
        } else {
            Weakening::skill_to_elo(self.options.skill_level)
        };
        if self.options.limit_strength && self.options.skill_level < 20 {
            elo.min(Weakening::skill_to_elo(self.options.skill_level))
        } else {
            elo
        }
    }

    /// How the engine is weakened, if it is.
    pub fn weakening(&self) -> Option<Weakening> {
        if let Some(s) = self.options.strength_setting {
            return Some(Weakening::for_setting(s));
        }
        Weakening::for_elo(self.target_elo())
    }

    /// Searches `pos` and returns the move to play. `history` holds the Zobrist
    /// keys of the positions before `pos` in the game, oldest first (for
    /// repetitions); `stop` ends the search early when set from another thread.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
    ) -> SearchResult {
        self.search_with(pos, history, limits, stop, None, &mut |_| {})
    }

    /// [`Engine::search`] with pondering (while `ponder` is set, the clock does
    /// not run) and progress reports.
    pub fn search_with(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        ponder: Option<&AtomicBool>,
        report: &mut dyn FnMut(Report),
    ) -> SearchResult {
        let start = Instant::now();
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return SearchResult::default();
        }
        if let Some(m) = self.book_move(pos, limits) {
            return SearchResult {
                best_move: Some(m),
                pv: vec![m],
                book: true,
                ..SearchResult::default()
            };
        }
        let mut root: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if root.is_empty() {
            root = legal.to_vec();
        }
        let weak = self.weakening();
        let user_multipv = self.options.multipv.min(root.len());
        let multipv = weak.map_or(user_multipv, |w| w.candidates.max(user_multipv));
        let mut depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).max(1);
        let mut node_limit = limits.nodes;
        if let Some(w) = weak {
            depth = depth.min(w.depth);
            node_limit = Some(node_limit.map_or(w.nodes, |n| n.min(w.nodes)));
        }
        let threads = if weak.is_some() {
            1
        } else {
            self.options.threads
        };
        self.tt.new_search();
        // The levels were calibrated with each search starting afresh and
        // without the correction history: a weakened search neither uses
        // nor keeps what earlier ones learnt.
        let persist = weak.is_none();
        let budget = TimeBudget::compute(limits, pos.turn(), self.options.move_overhead);
        let shared = Shared {
            tt: &self.tt,
            stop,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            time: TimeManager::new(start, ponder, budget),
            node_limit,
            multipv,
            // The levels up to the hand-written schedule's top were
            // calibrated with the hand-written evaluation and keep it.
            nnue: self.options.nnue && weak.is_none_or(|w| w.network),
            correct: persist,
        };
        let mut memories = if persist {
            std::mem::take(&mut *self.memories.lock().unwrap_or_else(|e| e.into_inner()))
        } else {
            Vec::new()
        };
        memories.resize_with(threads, Memory::new);
        let mut memories = memories.into_iter();
        let main_memory = memories.next().unwrap_or_else(Memory::new);
        let mut filtered = |r: Report| match r {
            Report::Line(info) if info.multipv as usize > user_multipv => {}
            r => report(r),
        };
        let (root_moves, completed, kept) = std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads)
                .zip(memories)
                .map(|(id, memory)| {
                    let shared = &shared;
                    let root = &root;
                    s.spawn(move || {
                        let mut noop = |_: Report| {};
                        let mut w = Worker::new(id, shared, history, root, memory, &mut noop);
                        w.iterate(pos, depth, None);
                        w.into_memory()
                    })
                })
                .collect();
            let mut w = Worker::new(0, &shared, history, &root, main_memory, &mut filtered);
            w.iterate(pos, depth, limits.mate);
            shared
                .abort
                .store(true, std::sync::atomic::Ordering::Relaxed);
            let (root_moves, completed) = (w.root_moves.clone(), w.completed_depth);
            let mut kept = vec![w.into_memory()];
            // A helper's panic goes on to the caller, as the scope would
            // carry it.
            kept.extend(helpers.into_iter().map(|h| match h.join() {
                Ok(memory) => memory,
                Err(panic) => std::panic::resume_unwind(panic),
            }));
            (root_moves, completed, kept)
        });
        if persist {
            *self.memories.lock().unwrap_or_else(|e| e.into_inner()) = kept;
        }
        let nodes = shared.total_nodes();
        drop(shared);
        let mut chosen = 0;
        if let Some(w) = weak {
            chosen = self.pick_weak(&root_moves, &w);
        }
        let rm = &root_moves[chosen];
        SearchResult {
            best_move: Some(rm.mv),
            ponder: rm.pv.get(1).copied(),
            score: rm.score,
            depth: completed,
            nodes,
            pv: rm.pv.clone(),
            book: false,
        }
    }

    /// Chooses among the searched candidates: near moves often, worse ones
    /// rarely, and never one that loses more than the level allows.
    fn pick_weak(&mut self, moves: &[search::RootMove], w: &Weakening) -> usize {
        let best = moves[0].score;
        if best.abs() >= MATE_BOUND {
            return 0;
        }
        let mut weights = [0f64; 16];
        let mut total = 0.0;
        for (i, rm) in moves.iter().take(16).take(w.candidates).enumerate() {
            let loss = best - rm.score;
            if rm.score == -search::INF || loss > w.max_loss {
                continue;
            }
            weights[i] = (-(loss as f64) / w.temperature).exp();
            total += weights[i];
        }
        let mut x = self.rng.next_f64() * total;
        for (i, wt) in weights.iter().enumerate() {
            if *wt > 0.0 {
                if x < *wt {
                    return i;
                }
                x -= wt;
            }
        }
        0
    }
}

/// The Zobrist keys of the positions a game went through, for
/// [`Engine::search`]'s `history`: the start and every position after each
/// move except the last one, which is the position searched.
pub fn history_keys(positions: &[Position]) -> Vec<u64> {
    positions.iter().map(|p| p.zobrist()).collect()
}
