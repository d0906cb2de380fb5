//! The engine as a player: `escaque-engine` at one of its levels, thinking on
//! its own thread so the interface stays responsive. Requests go in over a
//! channel; answers come back tagged with the request's number, so an answer to
//! a position that was since undone or replaced is recognised and dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use escaque::{Color, Move, Position};
use escaque_engine::{Engine, Level, Limits};

/// What the engine must respect for one move.
#[derive(Clone, Debug)]
pub struct Budget {
    /// The engine's level.
    pub level: Level,
    /// Remaining time of White and Black, when there is a clock.
    pub clock: Option<[Duration; 2]>,
    /// Increment per move, when there is a clock.
    pub increment: Duration,
    /// Time to spend when there is no clock.
    pub movetime: Duration,
}

impl Budget {
    /// The budget for `level` without a clock: a little longer the stronger
    /// the level (300 ms + 120 ms a level), so that a person sees it think.
    pub fn without_clock(level: Level) -> Budget {
        Budget {
            level,
            clock: None,
            increment: Duration::ZERO,
            movetime: Duration::from_millis(300 + 120 * u64::from(level.number())),
        }
    }
}

struct Request {
    id: u64,
    pos: Position,
    history: Vec<u64>,
    budget: Budget,
}

/// The engine thread's handle. Dropping it stops the search and the thread.
pub struct EnginePlayer {
    tx: Option<Sender<Request>>,
    rx: Receiver<(u64, Option<Move>)>,
    stop: Arc<AtomicBool>,
    next_id: u64,
    pending: Option<u64>,
    thread: Option<JoinHandle<()>>,
}

impl Default for EnginePlayer {
    fn default() -> EnginePlayer {
        EnginePlayer::start()
    }
}

impl EnginePlayer {
    /// Starts the engine thread.
    pub fn start() -> EnginePlayer {
        let (tx, req_rx) = channel::<Request>();
        let (ans_tx, rx) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("escaque-motor".into())
            .spawn(move || {
                let mut engine = Engine::new();
                let mut level = None;
                while let Ok(req) = req_rx.recv() {
                    stop2.store(false, Ordering::SeqCst);
                    if level != Some(req.budget.level) {
                        engine.set_level(req.budget.level);
                        level = Some(req.budget.level);
                    }
                    let m = best_move(&mut engine, &req, &stop2);
                    if ans_tx.send((req.id, m)).is_err() {
                        break;
                    }
                }
            })
            .ok();
        EnginePlayer {
            tx: Some(tx),
            rx,
            stop,
            next_id: 0,
            pending: None,
            thread,
        }
    }

    /// Asks for a move in `pos` (with the Zobrist keys of the positions before
    /// it, oldest first, for repetitions); any earlier request is abandoned.
    pub fn think(&mut self, pos: &Position, history: Vec<u64>, budget: Budget) {
        self.cancel();
        self.next_id += 1;
        let req = Request {
            id: self.next_id,
            pos: *pos,
            history,
            budget,
        };
        if let Some(tx) = &self.tx {
            if tx.send(req).is_ok() {
                self.pending = Some(self.next_id);
            }
        }
    }

    /// True while a request is unanswered.
    pub fn is_thinking(&self) -> bool {
        self.pending.is_some()
    }

    /// Abandons the current request (its answer will be dropped).
    pub fn cancel(&mut self) {
        if self.pending.take().is_some() {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The answer to the current request, waiting at most `wait`. `Some(None)`
    /// means the engine found no move (there was none to find) or its thread
    /// is gone.
    pub fn poll(&mut self, wait: Duration) -> Option<Option<Move>> {
        let want = self.pending?;
        loop {
            let got = if wait.is_zero() {
                self.rx.try_recv().ok()
            } else {
                match self.rx.recv_timeout(wait) {
                    Ok(a) => Some(a),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => {
                        self.pending = None;
                        return Some(None);
                    }
                }
            };
            match got {
                Some((id, m)) if id == want => {
                    self.pending = None;
                    return Some(m);
                }
                Some(_) => continue, // an abandoned request's answer
                None => return None,
            }
        }
    }
}

impl Drop for EnginePlayer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.tx.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The move to play within the request's budget; `stop` ends the search early.
fn best_move(engine: &mut Engine, req: &Request, stop: &AtomicBool) -> Option<Move> {
    let ms = |d: Duration| d.as_millis() as u64;
    let budget = &req.budget;
    let limits = match budget.clock {
        Some(t) => Limits {
            wtime: Some(ms(t[Color::White.index()])),
            btime: Some(ms(t[Color::Black.index()])),
            winc: Some(ms(budget.increment)),
            binc: Some(ms(budget.increment)),
            ..Limits::default()
        },
        None => Limits {
            movetime: Some(ms(budget.movetime)),
            ..Limits::default()
        },
    };
    let found = engine
        .search(&req.pos, &req.history, &limits, stop)
        .best_move;
    // Never stay silent with a legal move available.
    found.or_else(|| req.pos.legal_moves().iter().copied().next())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_with_a_legal_move_and_drops_stale_answers() {
        let mut e = EnginePlayer::start();
        let level = Level::from_number(1).unwrap();
        let pos = Position::new();
        e.think(&pos, Vec::new(), Budget::without_clock(level));
        // Replaced at once: only the second request's answer counts.
        let after = {
            let mut p = pos;
            p.play_unchecked(p.legal_moves()[0]);
            p
        };
        e.think(&after, vec![pos.zobrist()], Budget::without_clock(level));
        let m = loop {
            if let Some(m) = e.poll(Duration::from_millis(50)) {
                break m;
            }
        };
        let m = m.expect("a move");
        assert!(after.is_legal(m), "{m} in {}", after.to_fen());
        assert!(!e.is_thinking());
    }
}
