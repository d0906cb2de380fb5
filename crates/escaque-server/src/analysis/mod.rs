//! Analysis of games (issue 27): a bounded queue of whole-game analyses run
//! by `analysis_workers` workers, and the analysis board's searches.
//!
//! * The queue is the database's `analyses` table behind [`queue::Queue`]
//!   (enqueue, claim, progress, finish), shared by every process on one
//!   PostgreSQL database. A claim records the process (`analyses.node`).
//!   A process that starts queues again the analyses it was running before
//!   it stopped and those of processes that are gone (no heartbeat in
//!   `nodes.seen_ms` for two leases), never those another live process
//!   runs; while it runs, a sweeper does the same every lease for the
//!   processes that die later. The progress of a running analysis is kept
//!   by the process running it and stored in the row once a second: a
//!   client asking another process sees it at most a second (plus a
//!   request) late.
//! * Each worker is a task that claims the next analysis and runs it on a
//!   blocking thread of its own with an evaluator of its own (escaque's
//!   engine, or the UCI engine the administrator named), kept from one
//!   analysis to the next. The workers do not use the games' engine pool
//!   ([`crate::engine::EnginePool`]): an analysis takes seconds to minutes
//!   and would hold a game's engine move back. Their number (by default one
//!   less than the cores) is what leaves the games a core.
//! * One position cache (keyed by Zobrist) is shared by every worker, so
//!   the openings many games share are evaluated once.
//! * The analysis board and "Aprende de tus errores" search single
//!   positions ([`Analyses::lines`]) on at most `analysis_workers`
//!   evaluators at once (others wait), each search cut off after
//!   [`BOARD_SEARCH_LIMIT`].

pub mod puzzles;
pub mod queue;
mod refusal;

pub use refusal::Refusal;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use escaque::{CastlingMode, Move, Position};
use escaque_analysis::{
    analyse_game, AnalysisError, Cache, EscaqueEvaluator, Evaluator, GameAnalysis, Line, Settings,
};
use tokio::sync::{Notify, Semaphore};

use crate::store::analysis::AnalysisRow;
use crate::store::Store;
use crate::Config;
use queue::{Queue, StoreQueue};

/// Makes an evaluator (each worker and each board search has its own).
pub type EvaluatorFactory = dyn Fn() -> Result<Box<dyn Evaluator>, AnalysisError> + Send + Sync;

/// Positions the shared cache holds.
pub const CACHE_POSITIONS: usize = 200_000;

/// The longest a single board search runs before it is stopped.
pub const BOARD_SEARCH_LIMIT: Duration = Duration::from_secs(10);

/// The analysis service of a server.
pub struct Analyses {
    queue: Arc<dyn Queue>,
    /// Where the puzzles found in analysed games go (issue 56).
    store: Store,
    factory: Arc<EvaluatorFactory>,
    cache: Arc<Cache>,
    workers: usize,
    wake: Notify,
    stop: Arc<AtomicBool>,
    /// Makes the check of the per-asker limit and the insert one step in
    /// this process.
    pub(crate) admit: tokio::sync::Mutex<()>,
    board_permits: Arc<Semaphore>,
    board_idle: Arc<Mutex<Vec<Box<dyn Evaluator>>>>,
    engine_name: String,
    /// The processes' lease: one with no heartbeat for two is gone.
    lease: Duration,
}

/// The evaluator `config` names: the UCI engine at `analysis_engine`, or
/// escaque's own, with `analysis_settings`.
pub fn evaluator_factory(config: &Config) -> Arc<EvaluatorFactory> {
    let settings: Settings = config.analysis_settings;
    match &config.analysis_engine {
        Some(path) => {
            let path = path.clone();
            Arc::new(move || {
                let e = escaque_analysis::uci_engine::UciEvaluator::spawn(&path, settings)?;
                Ok(Box::new(e) as Box<dyn Evaluator>)
            })
        }
        None => {
            Arc::new(move || Ok(Box::new(EscaqueEvaluator::new(settings)) as Box<dyn Evaluator>))
        }
    }
}

/// Why a position or a game cannot be replayed.
#[derive(Debug)]
pub enum ReplayError {
    /// The start position.
    Fen(escaque::FenError),
    /// Move `index` (from 0).
    Move {
        /// The index.
        index: usize,
        /// The move as given.
        text: String,
        /// Spanish text.
        es: String,
        /// English text.
        en: String,
    },
}

/// The start position and the moves of a game given as FEN and move texts
/// (UCI, or anything the library's reader takes).
pub fn replay(
    start_fen: &str,
    chess960: bool,
    moves: &[String],
) -> Result<(Position, Vec<Move>), ReplayError> {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let start = Position::from_fen_with(start_fen, mode).map_err(ReplayError::Fen)?;
    let mut pos = start;
    let mut out = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let m = crate::proto::read_move(&pos, text).map_err(|e| ReplayError::Move {
            index,
            text: text.clone(),
            es: e.text(escaque::Lang::Es),
            en: e.text(escaque::Lang::En),
        })?;
        pos.play_unchecked(m);
        out.push(m);
    }
    Ok((start, out))
}

impl Analyses {
    /// The service for `config` on `store`, in process `node` (its
    /// `--nodo` name), with the evaluators `config` names. No worker runs
    /// until [`Analyses::start`].
    pub fn new(config: &Config, store: Store, node: Arc<str>) -> Analyses {
        Analyses::with_factory(config, store, node, evaluator_factory(config))
    }

    /// As [`Analyses::new`], evaluators made by `factory`.
    pub fn with_factory(
        config: &Config,
        store: Store,
        node: Arc<str>,
        factory: Arc<EvaluatorFactory>,
    ) -> Analyses {
        let engine_name = match &config.analysis_engine {
            Some(p) => p
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.display().to_string()),
            None => "escaque".to_string(),
        };
        Analyses {
            queue: Arc::new(StoreQueue::new(store.clone(), node)),
            store,
            factory,
            cache: Arc::new(Cache::new(CACHE_POSITIONS)),
            workers: config.analysis_workers,
            wake: Notify::new(),
            stop: Arc::new(AtomicBool::new(false)),
            admit: tokio::sync::Mutex::new(()),
            board_permits: Arc::new(Semaphore::new(config.analysis_workers.max(1))),
            board_idle: Arc::new(Mutex::new(Vec::new())),
            engine_name,
            lease: config.lease,
        }
    }

    /// The queue.
    pub fn queue(&self) -> &dyn Queue {
        &*self.queue
    }

    /// The name of the configured evaluator (`escaque`, or the UCI
    /// engine's file name), before any analysis has told its own.
    pub fn engine_name(&self) -> &str {
        &self.engine_name
    }

    /// How long a process may go without a heartbeat before its running
    /// analyses are queued again: two leases.
    pub fn stale_after(&self) -> Duration {
        self.lease * 2
    }

    /// Queues again what this process ran before it stopped and what
    /// processes that are gone were running, then starts the workers and
    /// the keeper (progress stored, processes that die later swept).
    pub async fn start(self: &Arc<Analyses>) -> Result<(), crate::store::StoreError> {
        self.queue.requeue_orphans(true, self.stale_after()).await?;
        for _ in 0..self.workers {
            tokio::spawn(worker(Arc::clone(self)));
        }
        tokio::spawn(keeper(Arc::clone(self)));
        Ok(())
    }

    /// Something was queued: a waiting worker looks.
    pub fn wake(&self) {
        self.wake.notify_waiters();
        self.wake.notify_one();
    }

    /// Stops the workers: a running analysis is stopped and left for the
    /// next start.
    pub fn shutdown(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wake.notify_waiters();
    }

    /// The best `lines` lines of `pos` (after the earlier positions
    /// `history`, Zobrist keys), searched on one of the board's
    /// evaluators; stopped after [`BOARD_SEARCH_LIMIT`].
    pub async fn lines(
        &self,
        pos: Position,
        history: Vec<u64>,
        lines: usize,
    ) -> Result<Vec<Line>, AnalysisError> {
        let permit = Arc::clone(&self.board_permits)
            .acquire_owned()
            .await
            .map_err(|_| AnalysisError::Stopped)?;
        let idle = Arc::clone(&self.board_idle);
        let factory = Arc::clone(&self.factory);
        let stop = Arc::new(AtomicBool::new(false));
        let timer = {
            let stop = Arc::clone(&stop);
            tokio::spawn(async move {
                tokio::time::sleep(BOARD_SEARCH_LIMIT).await;
                stop.store(true, Ordering::SeqCst);
            })
        };
        let server_stop = Arc::clone(&self.stop);
        let r = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            if server_stop.load(Ordering::SeqCst) {
                return Err(AnalysisError::Stopped);
            }
            let taken = idle.lock().map(|mut v| v.pop()).unwrap_or(None);
            let mut ev = match taken {
                Some(e) => e,
                None => factory()?,
            };
            let r = ev.evaluate(&pos, &history, lines, &stop);
            // An evaluator that failed is dropped (a UCI engine that died
            // is started again next time).
            if !matches!(r, Err(AnalysisError::Engine(_))) {
                if let Ok(mut v) = idle.lock() {
                    v.push(ev);
                }
            }
            r
        })
        .await
        .unwrap_or_else(|e| Err(AnalysisError::Engine(format!("search task: {e}"))));
        timer.abort();
        r
    }
}

/// Until the server stops: stores the progress of the analyses running
/// here every [`queue::PROGRESS_EVERY`], and every lease queues again the
/// analyses of processes that went without a heartbeat for two.
async fn keeper(service: Arc<Analyses>) {
    let mut tick = tokio::time::interval(queue::PROGRESS_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut swept = tokio::time::Instant::now();
    while !service.stop.load(Ordering::SeqCst) {
        tick.tick().await;
        if let Err(e) = service.queue.store_progress().await {
            crate::error::log_storage(&e);
        }
        if swept.elapsed() >= service.lease {
            swept = tokio::time::Instant::now();
            match service
                .queue
                .requeue_orphans(false, service.stale_after())
                .await
            {
                Ok(0) => {}
                Ok(_) => service.wake(),
                Err(e) => crate::error::log_storage(&e),
            }
        }
    }
}

/// One worker: claims, analyses, stores, until the server stops.
async fn worker(service: Arc<Analyses>) {
    let mut evaluator: Option<Box<dyn Evaluator>> = None;
    while !service.stop.load(Ordering::SeqCst) {
        let job = match service.queue.claim().await {
            Ok(Some(job)) => job,
            Ok(None) => {
                // Nothing queued: wait to be woken, or look again in a
                // while (another process may have queued something).
                let _ = tokio::time::timeout(Duration::from_secs(2), service.wake.notified()).await;
                continue;
            }
            Err(e) => {
                crate::error::log_storage(&e);
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let id = job.id.clone();
        let ev = evaluator.take();
        let s = Arc::clone(&service);
        let game = job.game_id.clone();
        let ran = tokio::task::spawn_blocking(move || run(&s, job, ev)).await;
        let (ev, outcome, found) = match ran {
            Ok(r) => r,
            Err(e) => (
                None,
                Err(AnalysisError::Engine(format!("analysis task: {e}"))),
                Vec::new(),
            ),
        };
        evaluator = ev;
        let stored = match outcome {
            Err(AnalysisError::Stopped) => service.queue.release(&id).await.map(|_| true),
            Ok(analysis) => match serde_json::to_string(&analysis) {
                Ok(json) => {
                    service
                        .queue
                        .finish(&id, Ok((analysis.engine.clone(), json)))
                        .await
                }
                Err(e) => service.queue.finish(&id, Err(e.to_string())).await,
            },
            Err(e) => service.queue.finish(&id, Err(e.to_string())).await,
        };
        match stored {
            Ok(true) => {
                // "Problemas de tus partidas": the puzzles found join the
                // players' queues (issue 56).
                if let (Some(game), false) = (game, found.is_empty()) {
                    if let Err(e) = puzzles::queue(&service.store, &game, &found).await {
                        crate::error::log_storage(&e);
                    }
                }
            }
            // Queued again while it ran here (this process went without a
            // heartbeat for two leases): another process runs it.
            Ok(false) => eprintln!(
                "escaque-server: analysis {id} was taken over by another process; its result here is dropped"
            ),
            Err(e) => crate::error::log_storage(&e),
        }
    }
}

/// What one analysis gives back: the evaluator for the next one (unless it
/// failed), the analysis, and the puzzles found in a server's game (issue
/// 56), each with the side that solves it.
type Ran = (
    Option<Box<dyn Evaluator>>,
    Result<GameAnalysis, AnalysisError>,
    Vec<(escaque::Color, crate::store::problemas::PuzzleRow)>,
);

/// Runs one analysis on this (blocking) thread; then, for a server's game
/// of standard chess, looks for its puzzles.
fn run(service: &Analyses, job: AnalysisRow, evaluator: Option<Box<dyn Evaluator>>) -> Ran {
    let (start, moves) = match replay(&job.start_fen, job.chess960, &job.moves) {
        Ok(r) => r,
        Err(ReplayError::Fen(e)) => {
            return (
                evaluator,
                Err(AnalysisError::Engine(format!("FEN: {e}"))),
                Vec::new(),
            );
        }
        Err(ReplayError::Move { index, en, .. }) => {
            return (
                evaluator,
                Err(AnalysisError::Engine(format!("move {}: {en}", index + 1))),
                Vec::new(),
            );
        }
    };
    let mut ev = match evaluator {
        Some(e) => e,
        None => match (service.factory)() {
            Ok(e) => e,
            Err(e) => return (None, Err(e), Vec::new()),
        },
    };
    let queue = Arc::clone(&service.queue);
    let id = job.id.clone();
    let r = analyse_game(
        &start,
        &moves,
        &mut *ev,
        Some(&service.cache),
        &service.stop,
        &mut |p| queue.report(&id, p),
    );
    let keep = !matches!(r, Err(AnalysisError::Engine(_)));
    let mut found = Vec::new();
    if let (Ok(_), Some(game), false) = (&r, &job.game_id, job.chess960) {
        let probe = (service.factory)();
        let searched = probe.and_then(|mut probe| {
            puzzles::find(game, &start, &moves, &mut *ev, &mut *probe, &service.stop)
        });
        match searched {
            Ok(f) => found = f,
            Err(e) => eprintln!("escaque-server: puzzles of game {game}: {e}"),
        }
    }
    (keep.then_some(ev), r, found)
}
