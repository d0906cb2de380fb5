//! The engine as a player: `escaque-engine` at one of its levels, thinking on
//! its own thread so the interface stays responsive. Requests go in over a
//! channel; answers come back tagged with the request's number, so an answer to
//! a position that was since undone or replaced is recognised and dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use escaque::clock::{Bonus, Clock};
use escaque::{Color, Game, Move, Position};
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

    /// The budget for the side to move in `game` at `level`: the clock's
    /// remaining times and the side's increment ([`increment`]) when the game
    /// has a clock, `movetime` otherwise.
    pub fn for_game(game: &Game, level: Level, movetime: Duration) -> Budget {
        let turn = game.position().turn();
        let clock = game.clock().map(|c| {
            let r = c.peek();
            [r.white, r.black]
        });
        Budget {
            level,
            clock,
            increment: game.clock().map_or(Duration::ZERO, |c| increment(c, turn)),
            movetime,
        }
    }

    /// The engine's search limits for this budget: the remaining times and
    /// increments with a clock, the move time (at least 1 ms) without.
    pub fn limits(&self) -> Limits {
        let ms = |d: Duration| d.as_millis() as u64;
        match self.clock {
            Some(t) => Limits {
                wtime: Some(ms(t[Color::White.index()])),
                btime: Some(ms(t[Color::Black.index()])),
                winc: Some(ms(self.increment)),
                binc: Some(ms(self.increment)),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(ms(self.movetime).max(1)),
                ..Limits::default()
            },
        }
    }
}

/// The time `side` gets back per move in the period it is playing now, for
/// the engine's time planning: a Fischer increment, a Bronstein delay (given
/// back up to that much) or a simple delay (that much is never charged) all
/// count; a control without a bonus gives nothing.
pub fn increment(clock: &Clock, side: Color) -> Duration {
    let control = clock.control();
    let done = clock.moves_made(side);
    match control.periods().get(control.period_index(done)) {
        Some(p) => match p.bonus {
            Bonus::Increment(d) | Bonus::Bronstein(d) | Bonus::Delay(d) => d,
            Bonus::None => Duration::ZERO,
        },
        None => Duration::ZERO,
    }
}

/// The Zobrist keys of the positions of `game` before the current one,
/// oldest first: what the engine needs to see repetitions.
pub fn history_keys(game: &Game) -> Vec<u64> {
    let mut keys = vec![game.start_position().zobrist()];
    keys.extend(game.moves().iter().map(|r| r.hash));
    keys.pop();
    keys
}

/// A new engine as every front end's engine player uses it: with the book
/// shipped with escaque, which each level follows as far as people of its
/// strength know their openings ([`escaque_engine::book::plies_for_elo`]:
/// one move at level 1, five at level 5, the whole book at level 10), so
/// that games do not all open alike.
pub fn player_engine() -> Engine {
    let mut engine = Engine::new();
    engine.set_book(Some(escaque_engine::book::Book::shipped()));
    engine
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
                let mut engine = player_engine();
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
    search(engine, &req.pos, &req.history, &req.budget, stop)
}

/// One search: the move `engine` chooses in `pos` (after the positions
/// `history`) within `budget`; `stop` ends it early. Never `None` while a
/// legal move exists.
pub fn search(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    budget: &Budget,
    stop: &AtomicBool,
) -> Option<Move> {
    let found = engine
        .search(pos, history, &budget.limits(), stop)
        .best_move;
    // Never stay silent with a legal move available.
    found.or_else(|| pos.legal_moves().iter().copied().next())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use escaque::{FakeTime, TimeControl};

    use super::*;

    fn clocked(tc: &str) -> Game {
        let control = TimeControl::parse(tc).unwrap();
        let time = Arc::new(FakeTime::new());
        Game::new().with_clock(Clock::new(control, time))
    }

    #[test]
    fn the_engine_castles_in_chess960() {
        // Castling is the only mate in one, short and long, for each side;
        // the king starts on its castling square (g1, b1→c1, b8→c8, g8).
        use escaque::coord::to_uci_in;
        use escaque::CastlingMode;
        for (fen, want) in [
            ("4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1", "g1h1"),
            ("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", "b1a1"),
            ("rk6/8/8/8/8/8/2P1P3/2RKR3 b a - 0 1", "b8a8"),
            ("6kr/8/8/8/8/8/4P1P1/4RKR1 b h - 0 1", "g8h8"),
        ] {
            let pos = Position::from_fen_with(fen, CastlingMode::Chess960).unwrap();
            let mut engine = Engine::new();
            let budget = Budget {
                movetime: Duration::from_millis(100),
                ..Budget::without_clock(Level::from_number(10).unwrap())
            };
            let m = search(&mut engine, &pos, &[], &budget, &AtomicBool::new(false)).unwrap();
            assert!(m.is_castle(), "{fen}: {m}");
            assert_eq!(to_uci_in(&pos, m, true), want, "{fen}");
            let mut after = pos;
            after.play_unchecked(m);
            assert!(after.is_checkmate(), "{fen}");
        }
    }

    #[test]
    fn increment_for_every_clock_kind() {
        let level = Level::from_number(3).unwrap();
        for (tc, want) in [("5+3", 3), ("5+b3", 3), ("5+d3", 3), ("5+0", 0)] {
            let g = clocked(tc);
            let b = Budget::for_game(&g, level, Duration::from_millis(10));
            assert_eq!(b.increment, Duration::from_secs(want), "{tc}");
            assert_eq!(b.clock, Some([Duration::from_secs(300); 2]), "{tc}");
            assert_eq!(b.limits().winc, Some(want * 1000), "{tc}");
        }
        let free = Budget::for_game(&Game::new(), level, Duration::ZERO);
        assert_eq!((free.clock, free.limits().movetime), (None, Some(1)));
    }

    #[test]
    fn increment_of_the_current_period_not_the_last() {
        // 2 moves in 1 minute with a 5 s Bronstein delay, then 1 minute + 30 s.
        let mut g = clocked("2/1+b5, 1+30");
        let c = g.clock().unwrap();
        assert_eq!(increment(c, Color::White), Duration::from_secs(5));
        for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            let mv = escaque::read_move(g.position(), m, escaque::Notation::Uci).unwrap();
            g.play(mv).unwrap();
        }
        let c = g.clock().unwrap();
        assert_eq!(increment(c, Color::White), Duration::from_secs(30));
    }

    #[test]
    fn history_is_the_positions_before_the_current_one() {
        let mut g = Game::new();
        assert!(history_keys(&g).is_empty());
        let start = g.position().zobrist();
        let mv = escaque::read_move(g.position(), "e2e4", escaque::Notation::Uci).unwrap();
        g.play(mv).unwrap();
        let after = g.position().zobrist();
        let mv = escaque::read_move(g.position(), "e7e5", escaque::Notation::Uci).unwrap();
        g.play(mv).unwrap();
        assert_eq!(history_keys(&g), vec![start, after]);
    }

    #[test]
    fn the_engine_player_opens_from_its_book() {
        // Given 5 s a move, a search takes them all; a book move comes at
        // once, and it is one of the book's. Three first moves, then the
        // reply to 1.e4 e5.
        let mut e = EnginePlayer::start();
        let budget = Budget {
            movetime: Duration::from_secs(5),
            ..Budget::without_clock(Level::Master)
        };
        let mut pos = Position::new();
        for step in 0..4 {
            if step == 3 {
                for m in ["e2e4", "e7e5"] {
                    pos.play_unchecked(
                        escaque::read_move(&pos, m, escaque::Notation::Uci).unwrap(),
                    );
                }
            }
            let asked = std::time::Instant::now();
            e.think(&pos, Vec::new(), budget.clone());
            let m = loop {
                if let Some(m) = e.poll(Duration::from_millis(50)) {
                    break m.expect("a move");
                }
            };
            assert!(
                asked.elapsed() < Duration::from_millis(2500),
                "searched, not from the book"
            );
            let book = escaque_engine::book::Book::shipped().moves(&pos);
            assert!(book.iter().any(|&(b, _)| b == m), "{m}");
        }
    }

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
