//! The engine on its own thread, so the interface stays responsive while it
//! thinks. Requests go in over a channel; answers come back tagged with the
//! request's number, so an answer to a position that was since undone or
//! replaced is recognised and dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use escaque::{Move, Position};

/// What the engine must respect for one move.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Engine level 1–10.
    pub level: u32,
    /// Remaining time of White and Black, when there is a clock.
    pub clock: Option<[Duration; 2]>,
    /// Increment per move, when there is a clock.
    pub increment: Duration,
    /// Time to spend when there is no clock.
    pub movetime: Duration,
}

struct Request {
    id: u64,
    pos: Position,
    history: Vec<u64>,
    budget: Budget,
}

/// The engine thread's handle.
pub struct EngineWorker {
    tx: Option<Sender<Request>>,
    rx: Receiver<(u64, Option<Move>)>,
    stop: Arc<AtomicBool>,
    next_id: u64,
    pending: Option<u64>,
    thread: Option<JoinHandle<()>>,
}

impl EngineWorker {
    /// Starts the engine thread.
    pub fn start() -> EngineWorker {
        let (tx, req_rx) = channel::<Request>();
        let (ans_tx, rx) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("escaque-motor".into())
            .spawn(move || {
                let mut engine = super::thinker::Thinker::new();
                while let Ok(req) = req_rx.recv() {
                    stop2.store(false, Ordering::SeqCst);
                    let m = engine.best_move(&req.pos, &req.history, &req.budget, &stop2);
                    if ans_tx.send((req.id, m)).is_err() {
                        break;
                    }
                }
            })
            .ok();
        EngineWorker {
            tx: Some(tx),
            rx,
            stop,
            next_id: 0,
            pending: None,
            thread,
        }
    }

    /// Asks for a move in `pos`; any earlier request is abandoned.
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
    /// means the engine found no move (there was none to find).
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

impl Drop for EngineWorker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.tx.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
