//! Engine opponents: a small trait for "something that picks a move", the
//! escaque engine behind it, and a bounded pool so that no more searches run
//! at once than the machine has cores (excess requests wait their turn).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use escaque::{Move, Position};
use escaque_engine::{Engine, Level};
use escaque_play::Budget;
use tokio::sync::Semaphore;

/// What an engine player is asked for one move: the position, the game's
/// earlier positions and the budget, as `escaque-play` makes them for every
/// front end ([`Budget::for_game`], [`escaque_play::history_keys`]).
#[derive(Clone, Debug)]
pub struct ThinkRequest {
    /// The position.
    pub pos: Position,
    /// Zobrist keys of the earlier positions of the game (for repetitions).
    pub history: Vec<u64>,
    /// The level, the clock's times and increment, or the move time.
    pub budget: Budget,
}

/// Something that chooses moves: the escaque engine, or a test double.
pub trait MovePicker: Send {
    /// The move to play, or `None` when there is none.
    fn pick(&mut self, req: &ThinkRequest, stop: &AtomicBool) -> Option<Move>;
}

/// The escaque engine as a [`MovePicker`].
pub struct EscaqueEngine {
    engine: Engine,
    level: Option<Level>,
}

impl EscaqueEngine {
    /// A new engine with a small table (several run at once) and the shipped
    /// opening book, followed as far as its level knows
    /// ([`escaque_play::player_engine`]).
    pub fn new() -> EscaqueEngine {
        let mut engine = escaque_play::player_engine();
        engine.set_hash(8);
        EscaqueEngine {
            engine,
            level: None,
        }
    }
}

impl Default for EscaqueEngine {
    fn default() -> EscaqueEngine {
        EscaqueEngine::new()
    }
}

impl MovePicker for EscaqueEngine {
    fn pick(&mut self, req: &ThinkRequest, stop: &AtomicBool) -> Option<Move> {
        if self.level != Some(req.budget.level) {
            self.engine.set_level(req.budget.level);
            self.level = Some(req.budget.level);
        }
        self.engine.clear_hash();
        escaque_play::search(&mut self.engine, &req.pos, &req.history, &req.budget, stop)
    }
}

type Factory = dyn Fn() -> Box<dyn MovePicker> + Send + Sync;

/// At most `size` searches at once; engines are kept and reused.
pub struct EnginePool {
    permits: Arc<Semaphore>,
    idle: Arc<Mutex<Vec<Box<dyn MovePicker>>>>,
    factory: Arc<Factory>,
    size: usize,
}

impl EnginePool {
    /// A pool of `size` (at least 1) escaque engines.
    pub fn new(size: usize) -> EnginePool {
        EnginePool::with_factory(size, Arc::new(|| Box::new(EscaqueEngine::new())))
    }

    /// A pool whose engines `factory` makes.
    pub fn with_factory(size: usize, factory: Arc<Factory>) -> EnginePool {
        let size = size.max(1);
        EnginePool {
            permits: Arc::new(Semaphore::new(size)),
            idle: Arc::new(Mutex::new(Vec::new())),
            factory,
            size,
        }
    }

    /// How many searches may run at once.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Searches on a blocking thread once a permit is free; `stop` cancels.
    pub async fn think(&self, req: ThinkRequest, stop: Arc<AtomicBool>) -> Option<Move> {
        let permit = Arc::clone(&self.permits).acquire_owned().await.ok()?;
        let idle = Arc::clone(&self.idle);
        let factory = Arc::clone(&self.factory);
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let taken = idle.lock().map(|mut v| v.pop()).unwrap_or(None);
            let mut engine = taken.unwrap_or_else(|| factory());
            let m = engine.pick(&req, &stop);
            if let Ok(mut v) = idle.lock() {
                v.push(engine);
            }
            m
        })
        .await
        .ok()
        .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_engines_open_from_the_book() {
        // Given 5 s a move, a search takes them all; a book move comes at
        // once, and it is one of the book's.
        let mut engine = EscaqueEngine::new();
        let pos = Position::new();
        let book = escaque_engine::book::Book::shipped().moves(&pos);
        let req = ThinkRequest {
            pos,
            history: Vec::new(),
            budget: Budget {
                movetime: std::time::Duration::from_secs(5),
                ..Budget::without_clock(Level::Master)
            },
        };
        for _ in 0..3 {
            let asked = std::time::Instant::now();
            let m = engine.pick(&req, &AtomicBool::new(false)).unwrap();
            assert!(
                asked.elapsed() < std::time::Duration::from_millis(2500),
                "searched, not from the book"
            );
            assert!(book.iter().any(|&(b, _)| b == m), "{m}");
        }
    }
}
