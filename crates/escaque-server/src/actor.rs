//! One game, one task: the actor owns the [`Game`], its clock and its seats.
//! Every action goes through its queue, so a game is never touched by two
//! requests at once; a change is stored in the database (one transaction)
//! before anybody hears of it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use escaque::{
    coord, ClaimResult, Clock, Color, DrawClaim, Game, GameError, GameResult, Lang, Localized,
    Move, Outcome, Termination, TimeControl, TimeSource,
};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use tokio::time::sleep_until;

use crate::engine::ThinkRequest;
use crate::proto::{read_move, ClientMsg, ErrorCode};
use crate::store::{Ending, GameRow, MoveRow};
use crate::Hub;

/// What goes to a connection: a serialized JSON message.
pub type Out = Arc<str>;

/// The engine's answers: (ply asked for, move).
pub type EngineAnswers = mpsc::Receiver<(usize, Option<Move>)>;

/// A request to a game's actor.
#[derive(Debug)]
pub enum Cmd {
    /// A connection subscribes; the actor sends the full state first.
    Join {
        /// The seat it holds, if any (a spectator holds none).
        seat: Option<Color>,
        /// Where its messages go.
        tx: mpsc::Sender<Out>,
        /// The subscription number, for `Leave` and `Msg`.
        reply: oneshot::Sender<u64>,
    },
    /// A connection closed.
    Leave {
        /// Its subscription number.
        sub: u64,
    },
    /// A message from a connection.
    Msg {
        /// Its subscription number.
        sub: u64,
        /// The message.
        msg: ClientMsg,
        /// When the frame arrived.
        received: Instant,
        /// The connection's measured round trip (server pings).
        rtt: Duration,
    },
    /// The second player took the free seat (HTTP join): the game starts.
    Seated {
        /// Which seat.
        seat: Color,
        /// The player's name.
        name: String,
        /// The player's identity.
        owner: String,
    },
    /// The current state as JSON (HTTP).
    Snapshot {
        /// Where to send it.
        reply: oneshot::Sender<Value>,
    },
}

/// The game's own time: the system's monotonic clock, minus the network
/// time credited to players (see `docs/protocol.md`, "Lag").
#[derive(Debug)]
pub struct GameTime {
    origin: Instant,
    credit: Mutex<Duration>,
}

impl GameTime {
    fn new() -> GameTime {
        GameTime {
            origin: Instant::now(),
            credit: Mutex::new(Duration::ZERO),
        }
    }

    fn credit(&self, d: Duration) {
        let mut c = self.credit.lock().unwrap_or_else(|e| e.into_inner());
        *c += d;
    }

    /// Takes back a credit given to a move that was then not made.
    fn uncredit(&self, d: Duration) {
        let mut c = self.credit.lock().unwrap_or_else(|e| e.into_inner());
        *c = c.saturating_sub(d);
    }
}

impl TimeSource for GameTime {
    fn now(&self) -> Duration {
        let c = *self.credit.lock().unwrap_or_else(|e| e.into_inner());
        self.origin.elapsed().saturating_sub(c)
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// A person.
    Human,
    /// The engine at a level 1–10.
    Engine(u32),
}

impl PlayerKind {
    /// Stored form: `human`, `engine:N`.
    pub fn to_db(&self) -> String {
        match self {
            PlayerKind::Human => "human".into(),
            PlayerKind::Engine(n) => format!("engine:{n}"),
        }
    }

    /// From the stored form.
    pub fn from_db(s: &str) -> PlayerKind {
        match s.strip_prefix("engine:").and_then(|n| n.parse().ok()) {
            Some(n) => PlayerKind::Engine(n),
            None => PlayerKind::Human,
        }
    }
}

fn color_str(c: Color) -> &'static str {
    crate::store::color_id(c)
}

/// How a game ended, as stored ([`Ending`]) and worded for people.
#[derive(Clone, Debug)]
struct End {
    ending: Ending,
    es: String,
    en: String,
}

impl End {
    fn new(ending: Ending) -> End {
        // The library's wording: an outcome with its score, or (an aborted
        // game, without one) the ending itself.
        let words = |lang: Lang| match ending.result {
            Some(result) => Outcome {
                result,
                termination: ending.termination,
            }
            .message(lang),
            None => {
                let t = ending.termination.message(lang);
                let mut c = t.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or(t)
            }
        };
        End {
            es: words(Lang::Es),
            en: words(Lang::En),
            ending,
        }
    }

    fn from_outcome(o: Outcome) -> End {
        End::new(Ending {
            result: Some(o.result),
            termination: o.termination,
        })
    }

    fn aborted() -> End {
        End::new(Ending {
            result: None,
            termination: Termination::Aborted,
        })
    }

    /// `gone` left; its opponent claimed the win (`winner`) or a draw.
    fn abandoned(winner: Option<Color>, gone: Color) -> End {
        End::new(Ending {
            result: Some(winner.map_or(GameResult::Draw, GameResult::win_for)),
            termination: Termination::Abandoned { by: gone },
        })
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    Waiting,
    Playing,
    Over,
}

struct Sub {
    id: u64,
    seat: Option<Color>,
    tx: mpsc::Sender<Out>,
}

/// The game actor.
pub struct Actor {
    hub: Arc<Hub>,
    row: GameRow,
    kinds: [PlayerKind; 2],
    names: [String; 2],
    game: Game,
    time: Arc<GameTime>,
    phase: Phase,
    end: Option<End>,
    /// The mover's remaining time after each move, ms.
    clk: Vec<Option<i64>>,
    subs: Vec<Sub>,
    next_sub: u64,
    connected: [u32; 2],
    gone_since: [Option<Instant>; 2],
    rtt: [Duration; 2],
    takeback_offer: Option<Color>,
    rematch_offer: Option<Color>,
    rematch_game: Option<String>,
    engine_job: Option<(usize, Arc<AtomicBool>)>,
    /// When the current turn began, on `time`.
    turn_start: Duration,
    engine_tx: mpsc::Sender<(usize, Option<Move>)>,
}

/// Why a stored game could not be brought back.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A stored field is not readable.
    #[error("partida {id}: dato guardado ilegible / unreadable stored data: {what}")]
    Corrupt {
        /// The game.
        id: String,
        /// What.
        what: String,
    },
}

impl Actor {
    /// Builds the actor of a stored game, replaying its moves.
    pub fn load(
        hub: Arc<Hub>,
        row: GameRow,
        moves: Vec<MoveRow>,
    ) -> Result<(Actor, EngineAnswers), LoadError> {
        let corrupt = |what: String| LoadError::Corrupt {
            id: row.id.clone(),
            what,
        };
        let rules = row.rules;
        let mut game = Game::from_fen(&row.start_fen)
            .map_err(|e| corrupt(e.message(Lang::En)))?
            .with_rules(rules);
        let start_turn = game.position().turn();
        let mut clk = Vec::with_capacity(moves.len());
        for m in &moves {
            let mv = escaque::read_move(game.position(), &m.uci, escaque::Notation::Uci)
                .map_err(|e| corrupt(format!("{} {}", m.uci, e.message(Lang::En))))?;
            game.play(mv)
                .map_err(|e| corrupt(format!("{} {}", m.uci, e.message(Lang::En))))?;
            clk.push(m.clock_ms);
        }
        let time = Arc::new(GameTime::new());
        if let Some(tc) = &row.time_control {
            let control = TimeControl::parse(tc).map_err(|e| corrupt(e.message(Lang::En)))?;
            let init = control.initial_time().as_millis() as i64;
            let ms = |v: Option<i64>| Duration::from_millis(v.unwrap_or(init).max(0) as u64);
            let mut counts = [0u32; 2];
            let mut mover = start_turn;
            for _ in &moves {
                counts[mover.index()] += 1;
                mover = mover.other();
            }
            let clock = Clock::restored(
                control,
                time.clone(),
                [ms(row.clock_white_ms), ms(row.clock_black_ms)],
                counts,
                game.position().turn(),
            );
            game = game.with_clock(clock);
        }
        let phase = match row.status.as_str() {
            "waiting" => Phase::Waiting,
            "over" => Phase::Over,
            _ => Phase::Playing,
        };
        let end = row.end.filter(|_| phase == Phase::Over).map(End::new);
        if phase == Phase::Playing && moves.len() >= 2 {
            // Both sides have moved: the clock of the side to move runs again,
            // from the time it had when its turn began (time while the server
            // was down is charged to nobody).
            game.start_clock();
        }
        let (engine_tx, engine_rx) = mpsc::channel(4);
        let kinds = [
            PlayerKind::from_db(&row.white_kind),
            PlayerKind::from_db(&row.black_kind),
        ];
        let now = Instant::now();
        let actor = Actor {
            hub,
            names: [row.white_name.clone(), row.black_name.clone()],
            kinds,
            row,
            game,
            time,
            phase,
            end,
            clk,
            subs: Vec::new(),
            next_sub: 1,
            connected: [0, 0],
            gone_since: [Some(now), Some(now)],
            rtt: [Duration::ZERO; 2],
            takeback_offer: None,
            rematch_offer: None,
            rematch_game: None,
            engine_job: None,
            turn_start: Duration::ZERO,
            engine_tx,
        };
        Ok((actor, engine_rx))
    }

    /// Runs until every handle is gone, or the game is over and nobody
    /// watches.
    pub async fn run(mut self, mut rx: mpsc::Receiver<Cmd>, mut engine_rx: EngineAnswers) {
        self.maybe_think();
        loop {
            let deadline = self.flag_deadline();
            let idle = self.phase == Phase::Over && self.subs.is_empty();
            let idle_at = tokio::time::Instant::now() + self.hub.config.idle_actor;
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                Some((ply, m)) = engine_rx.recv() => self.engine_answer(ply, m).await,
                _ = sleep_until(deadline.unwrap_or(idle_at)), if deadline.is_some() => {
                    self.check_flag().await;
                }
                _ = sleep_until(idle_at), if idle && deadline.is_none() => {
                    if self.phase == Phase::Over && self.subs.is_empty() {
                        self.hub.forget(&self.row.id);
                        break;
                    }
                }
            }
        }
        if let Some((_, stop)) = &self.engine_job {
            stop.store(true, Ordering::SeqCst);
        }
    }

    fn flag_deadline(&self) -> Option<tokio::time::Instant> {
        if self.phase != Phase::Playing {
            return None;
        }
        let r = self.game.clock()?.peek();
        let turn = r.running?;
        let allowance = match self.kinds[turn.index()] {
            PlayerKind::Human => self.rtt[turn.index()].min(self.hub.config.lag_cap),
            PlayerKind::Engine(_) => Duration::ZERO,
        };
        Some(tokio::time::Instant::now() + r.remaining(turn) + r.delay_left + allowance)
    }

    async fn check_flag(&mut self) {
        if self.phase != Phase::Playing {
            return;
        }
        if let Some(o) = self.game.poll_clock() {
            let end = End::from_outcome(o);
            self.finish(end, "flag").await;
        }
    }

    // ---------------------------------------------------------------- commands

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join { seat, tx, reply } => {
                let id = self.next_sub;
                self.next_sub += 1;
                let mut st = self.state(true);
                st["t"] = json!("state");
                st["you"] = json!(seat.map(color_str));
                let _ = tx.try_send(Arc::from(st.to_string()));
                self.subs.push(Sub { id, seat, tx });
                let _ = reply.send(id);
                if let Some(c) = seat {
                    self.connected[c.index()] += 1;
                    if self.connected[c.index()] == 1 {
                        self.gone_since[c.index()] = None;
                        self.presence(c, true);
                    }
                }
            }
            Cmd::Leave { sub } => self.drop_sub(sub),
            Cmd::Msg {
                sub,
                msg,
                received,
                rtt,
            } => {
                let Some(seat) = self.subs.iter().find(|s| s.id == sub).map(|s| s.seat) else {
                    return;
                };
                if let Some(c) = seat {
                    self.rtt[c.index()] = rtt;
                }
                let id = msg.id();
                let answer = self.act(seat, msg, received, rtt).await;
                let reply = match answer {
                    Ok(None) => return,
                    Ok(Some(v)) => v,
                    Err(e) => e.to_json(id),
                };
                self.send_to(sub, &reply);
            }
            Cmd::Seated { seat, name, owner } => {
                if self.phase == Phase::Waiting {
                    match seat {
                        Color::White => {
                            self.row.white_owner = Some(owner);
                            self.row.white_name = name.clone();
                        }
                        Color::Black => {
                            self.row.black_owner = Some(owner);
                            self.row.black_name = name.clone();
                        }
                    }
                    self.names[seat.index()] = name;
                    self.phase = Phase::Playing;
                    self.gone_since[seat.index()] = Some(Instant::now());
                    self.broadcast("start", json!({}));
                    self.maybe_think();
                }
            }
            Cmd::Snapshot { reply } => {
                let _ = reply.send(self.state(true));
            }
        }
    }

    fn drop_sub(&mut self, sub: u64) {
        if let Some(i) = self.subs.iter().position(|s| s.id == sub) {
            let s = self.subs.swap_remove(i);
            if let Some(c) = s.seat {
                self.connected[c.index()] = self.connected[c.index()].saturating_sub(1);
                if self.connected[c.index()] == 0 {
                    self.gone_since[c.index()] = Some(Instant::now());
                    self.presence(c, false);
                }
            }
        }
    }

    fn presence(&mut self, c: Color, connected: bool) {
        let (es, en) = match (c, connected) {
            (Color::White, true) => ("blancas: conectado", "White: connected"),
            (Color::Black, true) => ("negras: conectado", "Black: connected"),
            (Color::White, false) => ("blancas: desconectado", "White: disconnected"),
            (Color::Black, false) => ("negras: desconectado", "Black: disconnected"),
        };
        self.broadcast(
            "presence",
            json!({"seat": color_str(c), "connected": connected, "es": es, "en": en}),
        );
    }

    fn send_to(&mut self, sub: u64, v: &Value) {
        let text: Out = Arc::from(v.to_string());
        let mut dead = None;
        if let Some(s) = self.subs.iter().find(|s| s.id == sub) {
            if s.tx.try_send(text).is_err() {
                dead = Some(sub);
            }
        }
        if let Some(d) = dead {
            self.drop_sub(d);
        }
    }

    /// Sends an event with the state (without the move list) to everybody.
    fn broadcast(&mut self, kind: &str, data: Value) {
        let mut v = self.state(false);
        v["t"] = json!("event");
        v["event"] = json!(kind);
        v["data"] = data;
        let text: Out = Arc::from(v.to_string());
        let mut dead = Vec::new();
        for s in &self.subs {
            if s.tx.try_send(Arc::clone(&text)).is_err() {
                dead.push(s.id);
            }
        }
        // A connection too slow to keep up is dropped; it reconnects and
        // gets the full state.
        for d in dead {
            self.drop_sub(d);
        }
    }

    fn grace(&self) -> Duration {
        let cfg = &self.hub.config;
        let base = cfg.grace_base;
        let extra = match self.game.clock() {
            Some(c) => c.control().initial_time() / cfg.grace_divisor.max(1),
            None => cfg.grace_max,
        };
        (base + extra).min(cfg.grace_max)
    }

    fn abandon_claimable_by(&self) -> Option<Color> {
        if self.phase != Phase::Playing {
            return None;
        }
        for c in [Color::White, Color::Black] {
            let o = c.other();
            if self.kinds[o.index()] == PlayerKind::Human
                && self.kinds[c.index()] == PlayerKind::Human
                && self.connected[o.index()] == 0
                && self.connected[c.index()] > 0
                && self.gone_since[o.index()].is_some_and(|t| t.elapsed() >= self.grace())
            {
                return Some(c);
            }
        }
        None
    }

    // ---------------------------------------------------------------- state

    fn state(&self, with_moves: bool) -> Value {
        let pos = *self.game.position();
        let playing = self.phase == Phase::Playing;
        let mut legal = serde_json::Map::new();
        let mut legal_uci = Vec::new();
        if playing {
            for m in pos.legal_moves().iter() {
                let u = coord::to_uci(*m);
                let (from, to) = (u[0..2].to_string(), u[2..4].to_string());
                let e = legal.entry(from).or_insert_with(|| json!([]));
                if let Some(a) = e.as_array_mut() {
                    if !a.iter().any(|x| x == &json!(to)) {
                        a.push(json!(to));
                    }
                }
                legal_uci.push(u);
            }
        }
        let clock = self.game.clock().map(|c| {
            let r = c.peek();
            json!({
                "white_ms": r.white.as_millis() as u64,
                "black_ms": r.black.as_millis() as u64,
                "running": r.running.filter(|_| playing).map(color_str),
                "delay_ms": r.delay_left.as_millis() as u64,
                "control": c.control().to_string(),
            })
        });
        let claim_name = |c: DrawClaim| c.id();
        let (claimable, claim_moves) = if playing {
            (
                self.game
                    .claimable()
                    .into_iter()
                    .map(claim_name)
                    .collect::<Vec<_>>(),
                self.game
                    .claimable_moves()
                    .into_iter()
                    .map(|(m, c)| {
                        json!({"uci": coord::to_uci(m),
                               "san": escaque::san::san(&pos, m, Lang::En),
                               "san_es": escaque::san::san(&pos, m, Lang::Es),
                               "claim": claim_name(c)})
                    })
                    .collect::<Vec<_>>(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let player = |c: Color| {
            let i = c.index();
            json!({
                "name": self.names[i],
                "kind": match self.kinds[i] { PlayerKind::Human => "human", PlayerKind::Engine(_) => "engine" },
                "level": match self.kinds[i] { PlayerKind::Engine(n) => Some(n), PlayerKind::Human => None },
                "connected": self.connected[i] > 0 || self.kinds[i] != PlayerKind::Human,
            })
        };
        let mut v = json!({
            "game": self.row.id,
            "rules": self.game.rules().id(),
            "start_fen": self.row.start_fen,
            "fen": pos.to_fen(),
            "plies": self.game.moves().len(),
            "white": player(Color::White),
            "black": player(Color::Black),
            "status": match self.phase { Phase::Waiting => "waiting", Phase::Playing => "playing", Phase::Over => "over" },
            "turn": color_str(pos.turn()),
            "move_number": pos.fullmove_number(),
            "in_check": pos.is_check(),
            "legal": legal,
            "legal_uci": legal_uci,
            "clock": clock,
            "draw_offer": self.game.draw_offer().filter(|_| playing).map(color_str),
            "takeback_offer": self.takeback_offer.map(color_str),
            "rematch_offer": self.rematch_offer.map(color_str),
            "rematch_game": self.rematch_game,
            "claimable": claimable,
            "claim_moves": claim_moves,
            "can_abort": playing && self.game.moves().len() < 2,
            "grace_ms": self.grace().as_millis() as u64,
            "abandon_claimable_by": self.abandon_claimable_by().map(color_str),
            "result": self.end.as_ref().map(|e| e.ending.result_pgn()),
            "termination": self.end.as_ref().map(|e| e.ending.termination.id()),
            "termination_side": self.end.as_ref().and_then(|e| e.ending.side_id()),
            "end_text": self.end.as_ref().map(|e| json!({"es": e.es, "en": e.en})),
        });
        if let Some(last) = self.game.moves().len().checked_sub(1) {
            v["last_move"] = self.move_json(last);
        }
        if with_moves {
            v["moves"] = json!((0..self.game.moves().len())
                .map(|i| self.move_json(i))
                .collect::<Vec<_>>());
        }
        v
    }

    fn move_json(&self, i: usize) -> Value {
        let rec = &self.game.moves()[i];
        json!({
            "ply": i,
            "uci": coord::to_uci(rec.mv),
            "san": rec.san,
            "san_es": self.game.move_san(i, Lang::Es),
            "clock_ms": self.clk.get(i).copied().flatten(),
        })
    }

    // ---------------------------------------------------------------- actions

    async fn act(
        &mut self,
        seat: Option<Color>,
        msg: ClientMsg,
        received: Instant,
        rtt: Duration,
    ) -> Result<Option<Value>, ErrorCode> {
        let id = msg.id();
        let ack = |extra: Value| {
            let mut v = json!({"t": "ack", "id": id});
            if let (Some(o), Value::Object(e)) = (v.as_object_mut(), extra) {
                o.extend(e);
            }
            Ok(Some(v))
        };
        if let ClientMsg::State { .. } = msg {
            let mut st = self.state(true);
            st["t"] = json!("state");
            st["you"] = json!(seat.map(color_str));
            st["id"] = json!(id);
            return Ok(Some(st));
        }
        if let ClientMsg::Pong { .. } = msg {
            return Ok(None);
        }
        let me = seat.ok_or(ErrorCode::NotAPlayer)?;
        if let ClientMsg::Rematch { .. } = msg {
            return self.rematch(me).await.and_then(|_| ack(json!({})));
        }
        match self.phase {
            Phase::Waiting => return Err(ErrorCode::NotStarted),
            Phase::Over => return Err(ErrorCode::GameOver),
            Phase::Playing => {}
        }
        // A flag that fell before this message is noticed first.
        if let Some(o) = self.game.poll_clock() {
            self.finish(End::from_outcome(o), "flag").await;
            return Err(ErrorCode::GameOver);
        }
        let turn = self.game.position().turn();
        match msg {
            ClientMsg::Move { mv, .. } => {
                if me != turn {
                    return Err(ErrorCode::NotYourTurn);
                }
                let m = read_move(self.game.position(), &mv)?;
                let credited = self.credit_lag(received, rtt);
                if let Err(e) = self.play(m, None).await {
                    self.time.uncredit(credited);
                    return Err(e);
                }
                ack(json!({}))
            }
            ClientMsg::ClaimDraw { mv, .. } => {
                if me != turn {
                    return Err(ErrorCode::NotYourTurn);
                }
                let declared = match mv {
                    Some(t) => Some(read_move(self.game.position(), &t)?),
                    None => None,
                };
                match declared {
                    Some(m) => {
                        let credited = self.credit_lag(received, rtt);
                        if let Err(e) = self.play(m, Some(me)).await {
                            self.time.uncredit(credited);
                            return Err(e);
                        }
                    }
                    None => self.claim_without_move(me).await?,
                }
                ack(json!({}))
            }
            ClientMsg::OfferDraw { .. } => {
                let before = self.game.clone();
                let r = self
                    .game
                    .offer_draw(me)
                    .map_err(|e| ErrorCode::refused(&e))?;
                match r {
                    Some(o) => self.finish(End::from_outcome(o), "agreement").await,
                    None => {
                        if before.draw_offer() != self.game.draw_offer() {
                            self.broadcast("draw_offer", json!({"by": color_str(me)}));
                        }
                    }
                }
                ack(json!({}))
            }
            ClientMsg::AcceptDraw { .. } => {
                let o = self.game.accept_draw(me).map_err(|e| self.lib_err(e))?;
                self.finish(End::from_outcome(o), "agreement").await;
                ack(json!({}))
            }
            ClientMsg::DeclineDraw { .. } => {
                self.game
                    .decline_draw(me)
                    .map_err(|e| ErrorCode::refused(&e))?;
                self.broadcast("draw_declined", json!({"by": color_str(me)}));
                ack(json!({}))
            }
            ClientMsg::Resign { .. } => {
                let o = self.game.resign(me).map_err(|e| self.lib_err(e))?;
                self.finish(End::from_outcome(o), "resign").await;
                ack(json!({}))
            }
            ClientMsg::Abort { .. } => {
                if self.game.moves().len() >= 2 {
                    return Err(ErrorCode::TooLateToAbort);
                }
                if let Some(c) = self.game.clock_mut() {
                    c.pause();
                }
                self.finish(End::aborted(), "abort").await;
                ack(json!({}))
            }
            ClientMsg::Takeback { .. } => {
                if self.game.clock().is_some() {
                    return Err(ErrorCode::NoTakebackWithClock);
                }
                let n = self.takeback_plies(me);
                if n == 0 {
                    return Err(ErrorCode::refused(&GameError::NothingToUndo));
                }
                if matches!(self.kinds[me.other().index()], PlayerKind::Engine(_)) {
                    // The engine always agrees.
                    self.do_takeback(me).await?;
                } else {
                    self.takeback_offer = Some(me);
                    self.broadcast("takeback_offer", json!({"by": color_str(me)}));
                }
                ack(json!({}))
            }
            ClientMsg::TakebackAnswer { accept, .. } => {
                let by = self
                    .takeback_offer
                    .filter(|&c| c != me)
                    .ok_or(ErrorCode::NothingPending)?;
                self.takeback_offer = None;
                if accept {
                    self.do_takeback(by).await?;
                } else {
                    self.broadcast("takeback_declined", json!({"by": color_str(me)}));
                }
                ack(json!({}))
            }
            ClientMsg::ClaimAbandoned { result, .. } => {
                if self.abandon_claimable_by() != Some(me) {
                    return Err(ErrorCode::CannotClaimAbandon);
                }
                let winner = match result.as_str() {
                    "win" => Some(me),
                    "draw" => None,
                    other => {
                        return Err(ErrorCode::Malformed(format!(
                            "«result» debe ser «win» o «draw» / \"result\" must be \"win\" or \"draw\", not {other:?}"
                        )))
                    }
                };
                if let Some(c) = self.game.clock_mut() {
                    c.pause();
                }
                self.finish(End::abandoned(winner, me.other()), "abandoned")
                    .await;
                ack(json!({}))
            }
            ClientMsg::State { .. } | ClientMsg::Pong { .. } | ClientMsg::Rematch { .. } => {
                Ok(None)
            }
        }
    }

    fn lib_err(&self, e: GameError) -> ErrorCode {
        match e {
            GameError::GameOver(_) => ErrorCode::GameOver,
            e => ErrorCode::refused(&e),
        }
    }

    /// Gives the mover back the network time of this move: the measured
    /// round trip, at most the configured cap, plus the time the message
    /// waited in the server's own queue; never more than this turn has lasted.
    fn credit_lag(&mut self, received: Instant, rtt: Duration) -> Duration {
        let Some(clock) = self.game.clock() else {
            return Duration::ZERO;
        };
        let r = clock.peek();
        if r.running.is_none() {
            return Duration::ZERO;
        }
        let want = rtt.min(self.hub.config.lag_cap) + received.elapsed();
        let credit = want.min(self.turn_elapsed());
        self.time.credit(credit);
        credit
    }

    /// Time the side to move has been thinking, on the game's time source.
    fn turn_elapsed(&self) -> Duration {
        self.time.now().saturating_sub(self.turn_start)
    }

    fn clocks_now(&self) -> Option<[i64; 2]> {
        self.game.clock().map(|c| {
            let r = c.peek();
            [r.white.as_millis() as i64, r.black.as_millis() as i64]
        })
    }

    /// Plays `m` (a declared move with a claim when `claim_by` is set),
    /// stores it, then tells everybody.
    async fn play(&mut self, m: Move, claim_by: Option<Color>) -> Result<(), ErrorCode> {
        let before = self.game.clone();
        let ply = self.game.moves().len();
        let res = match claim_by {
            None => self.game.play(m).map(|_| None),
            Some(_) => self.game.claim_draw_with_move(m).map(Some),
        };
        let claim = match res {
            Ok(c) => c,
            Err(GameError::FlagFell(_)) => {
                if let Some(o) = self.game.outcome() {
                    self.finish(End::from_outcome(o), "flag").await;
                }
                return Err(ErrorCode::GameOver);
            }
            Err(e) => return Err(self.lib_err(e)),
        };
        if ply == 0 && self.game.outcome().is_none() {
            // The first move of each side is free: White's clock did not run
            // (the press started it) and Black's waits until Black moves.
            if let Some(c) = self.game.clock_mut() {
                c.pause();
            }
        }
        let rec = &self.game.moves()[ply];
        let clock_ms = rec.clock.map(|d| d.as_millis() as i64);
        let uci = coord::to_uci(rec.mv);
        let end = self.game.outcome().map(End::from_outcome);
        let stored = self
            .hub
            .store
            .append_move(
                &self.row.id,
                &MoveRow {
                    ply: ply as i64,
                    uci,
                    clock_ms,
                },
                self.clocks_now(),
                end.as_ref().map(|e| e.ending),
            )
            .await;
        if stored.is_err() {
            self.game = before;
            return Err(ErrorCode::Storage);
        }
        self.clk.truncate(ply);
        self.clk.push(clock_ms);
        self.turn_start = self.time.now();
        self.takeback_offer = None;
        if let Some([w, b]) = self.clocks_now() {
            self.row.clock_white_ms = Some(w);
            self.row.clock_black_ms = Some(b);
        }
        if let (Some(by), Some(ClaimResult::Rejected)) = (claim_by, &claim) {
            self.broadcast("claim_rejected", json!({"by": color_str(by),
                "es": ClaimResult::Rejected.message(Lang::Es), "en": ClaimResult::Rejected.message(Lang::En)}));
        }
        let data = self.move_json(ply);
        if let Some(e) = end {
            self.set_over(e);
            self.broadcast("move", data);
            self.broadcast("end", json!({}));
        } else if let Some(ClaimResult::Granted(o)) = claim {
            // The declared move made the claim correct.
            self.broadcast("move", data);
            self.finish(End::from_outcome(o), "claim").await;
        } else {
            self.broadcast("move", data);
            self.maybe_think();
        }
        Ok(())
    }

    async fn claim_without_move(&mut self, me: Color) -> Result<(), ErrorCode> {
        let before = self.game.clone();
        let r = self.game.claim_draw().map_err(|e| self.lib_err(e))?;
        match r {
            ClaimResult::Granted(o) | ClaimResult::Ended(o) => {
                self.finish(End::from_outcome(o), "claim").await;
            }
            ClaimResult::Rejected => {
                // Two minutes for the opponent (9.5.3): stored before told.
                if self
                    .hub
                    .store
                    .update_game(&self.row.id, self.clocks_now(), None)
                    .await
                    .is_err()
                {
                    self.game = before;
                    return Err(ErrorCode::Storage);
                }
                self.broadcast("claim_rejected", json!({"by": color_str(me),
                    "es": ClaimResult::Rejected.message(Lang::Es), "en": ClaimResult::Rejected.message(Lang::En)}));
            }
        }
        Ok(())
    }

    fn set_over(&mut self, end: End) {
        self.phase = Phase::Over;
        self.end = Some(end);
        self.takeback_offer = None;
        if let Some((_, stop)) = self.engine_job.take() {
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// Stores the ending, then tells everybody. If storage fails the game is
    /// still over in memory (an ending cannot be taken back) and the store
    /// is retried on the next change.
    async fn finish(&mut self, end: End, _why: &str) {
        if self.phase == Phase::Over {
            return;
        }
        for _ in 0..3 {
            if self
                .hub
                .store
                .update_game(&self.row.id, self.clocks_now(), Some(end.ending))
                .await
                .is_ok()
            {
                break;
            }
        }
        self.set_over(end);
        self.broadcast("end", json!({}));
    }

    fn takeback_plies(&self, me: Color) -> usize {
        let n = self.game.moves().len();
        let turn = self.game.position().turn();
        let want = if turn == me { 2 } else { 1 };
        if n >= want {
            want
        } else {
            0
        }
    }

    async fn do_takeback(&mut self, by: Color) -> Result<(), ErrorCode> {
        let n = self.takeback_plies(by);
        if n == 0 {
            return Err(ErrorCode::refused(&GameError::NothingToUndo));
        }
        if let Some((_, stop)) = self.engine_job.take() {
            stop.store(true, Ordering::SeqCst);
        }
        let before = self.game.clone();
        for _ in 0..n {
            self.game.undo().map_err(|e| ErrorCode::refused(&e))?;
        }
        let from = self.game.moves().len();
        if self
            .hub
            .store
            .take_back(&self.row.id, from as i64, self.clocks_now())
            .await
            .is_err()
        {
            self.game = before;
            return Err(ErrorCode::Storage);
        }
        self.clk.truncate(from);
        self.turn_start = self.time.now();
        self.broadcast("takeback", json!({"by": color_str(by), "plies": from}));
        self.maybe_think();
        Ok(())
    }

    async fn rematch(&mut self, me: Color) -> Result<(), ErrorCode> {
        if self.phase != Phase::Over {
            return Err(ErrorCode::refused(&RematchNotYet));
        }
        if self.rematch_game.is_some() {
            return Ok(());
        }
        let opponent_engine = matches!(self.kinds[me.other().index()], PlayerKind::Engine(_));
        if !opponent_engine && self.rematch_offer != Some(me.other()) {
            self.rematch_offer = Some(me);
            self.broadcast("rematch_offer", json!({"by": color_str(me)}));
            return Ok(());
        }
        // Colours swap.
        let created = self
            .hub
            .create_rematch(&self.row)
            .await
            .map_err(|_| ErrorCode::Storage)?;
        self.rematch_offer = None;
        self.rematch_game = Some(created.game.clone());
        self.broadcast("rematch", json!({"game": created.game}));
        // Each player gets the secret of their new seat, privately.
        for s in &self.subs {
            if let Some(c) = s.seat {
                let new_seat = c.other();
                let secret = new_seat.fold(&created.white_secret, &created.black_secret);
                if let Some(secret) = secret {
                    let v = json!({"t": "rematch_seat", "game": created.game,
                        "seat": color_str(new_seat), "secret": secret});
                    let _ = s.tx.try_send(Arc::from(v.to_string()));
                }
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------- engine

    fn maybe_think(&mut self) {
        if self.phase != Phase::Playing || self.engine_job.is_some() {
            return;
        }
        let turn = self.game.position().turn();
        let PlayerKind::Engine(level) = self.kinds[turn.index()] else {
            return;
        };
        let ply = self.game.moves().len();
        let mut history: Vec<u64> = Vec::with_capacity(ply + 1);
        {
            let mut g = Game::from_position(*self.game.start_position());
            history.push(g.position().zobrist());
            for rec in self.game.moves().iter().take(ply.saturating_sub(1)) {
                let _ = g.play(rec.mv);
                history.push(g.position().zobrist());
            }
            if ply == 0 {
                history.clear();
            }
        }
        let clock = self.game.clock().map(|c| {
            let r = c.peek();
            let inc = match c.control().periods().last().map(|p| p.bonus) {
                Some(escaque::clock::Bonus::Increment(d)) => d,
                _ => Duration::ZERO,
            };
            ([r.white, r.black], inc)
        });
        let req = ThinkRequest {
            pos: *self.game.position(),
            history,
            level,
            clock,
            movetime: self.hub.config.engine_movetime,
        };
        let stop = Arc::new(AtomicBool::new(false));
        self.engine_job = Some((ply, Arc::clone(&stop)));
        let hub = Arc::clone(&self.hub);
        let tx = self.engine_tx.clone();
        tokio::spawn(async move {
            let m = hub.engines.think(req, stop).await;
            let _ = tx.send((ply, m)).await;
        });
    }

    async fn engine_answer(&mut self, ply: usize, m: Option<Move>) {
        match &self.engine_job {
            Some((p, _)) if *p == ply => {}
            _ => return, // an abandoned search
        }
        self.engine_job = None;
        if self.phase != Phase::Playing || self.game.moves().len() != ply {
            self.maybe_think();
            return;
        }
        let Some(m) = m else {
            return;
        };
        if self.play(m, None).await.is_err() {
            // Storage failed: try again.
            self.maybe_think();
        }
    }
}

/// A rematch asked for before the game ended.
struct RematchNotYet;

impl Localized for RematchNotYet {
    fn message(&self, lang: Lang) -> String {
        lang.pick(
            "la revancha se pide cuando la partida terminó",
            "a rematch is asked for once the game is over",
        )
        .into()
    }
}
