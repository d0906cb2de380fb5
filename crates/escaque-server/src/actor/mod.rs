//! One game, one task: the actor owns the [`Game`], its clock and its seats.
//! Every action goes through its queue, so a game is never touched by two
//! requests at once; a change is stored in the database (one transaction)
//! before anybody hears of it.
//!
//! This file is the switchboard (model: lila's `RoundAsyncActor.scala`): one
//! line per command and per client message, each handled in its own file —
//! `presence` (who is connected, seats, abandonment), `moves` (a move),
//! `draw` (offers and claims), `takeback`, `rematch`, `finish` (endings:
//! resignation, abort, flag, abandonment, and how they are stored),
//! `engine_turn` (the engine's moves), `lag` (the game's time and network
//! credit), `state` (what every message carries) and `record` (the PGN of a
//! stored game).

mod adjourn;
mod draw;
mod engine_turn;
mod finish;
mod lag;
mod moves;
mod presence;
mod rating;
mod record;
mod rematch;
pub mod resuming;
mod state;
mod takeback;
mod tournament;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use escaque::{Color, Game, GameError, Move};
use escaque_play::Player;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio::time::sleep_until;

use crate::proto::{ClientMsg, ErrorCode, LiveGame, ServerMsg};
use crate::store::{self, GameRow, MoveRow, StoreError};
use crate::Hub;

use finish::End;
pub use lag::GameTime;
pub use record::{stored_pgn, stored_pgn_of_event, EventTags};
pub use tournament::tournament_outcome;

/// What goes to a connection: a serialized JSON message.
pub use crate::proto::Out;

/// The first character of an [`Out`] that is no message but the order to
/// close the connection (a JSON message starts with `{`).
const CLOSE_MARK: char = '\u{1}';

/// The close code of a connection whose game changed hands or whose
/// process stops: 1012, "service restart" (the client reconnects).
pub const RESTART_CLOSE_CODE: u16 = 1012;

/// The [`Out`] that closes a connection with [`RESTART_CLOSE_CODE`] and a
/// reason in Spanish and English.
pub fn restart_close() -> Out {
    Arc::from(format!(
        "{CLOSE_MARK}la partida sigue en otro proceso: vuelve a conectar / \
         the game goes on in another process: reconnect"
    ))
}

/// The close reason an [`Out`] carries, if it is the order to close.
pub fn close_reason(out: &Out) -> Option<&str> {
    out.strip_prefix(CLOSE_MARK)
}

/// The engine's answers: (ply asked for, move).
pub type EngineAnswers = mpsc::Receiver<(usize, Option<Move>)>;

/// Why a game's task stops before its game lets it (see
/// `crate::cluster::lease`). Every stop closes the task's connections with
/// code 1012 (service restart) and a reason, and the hub forgets the task:
/// the next connection finds the game wherever it runs now.
#[derive(Debug)]
pub enum Stop {
    /// A write was refused: another process owns the game now.
    Fenced,
    /// The renewal no longer lists the lease (another process took the game
    /// while this one was paused).
    Lost,
    /// This process hands its games over: the clocks stored as they stand,
    /// the lease given up; `done` is answered once it is.
    Handover(oneshot::Sender<()>),
}

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
    /// The seat's secret was renewed: connections holding it with the old
    /// secret are told so and become spectators.
    SeatReclaimed {
        /// Which seat.
        seat: Color,
    },
    /// The current state as JSON (HTTP).
    Snapshot {
        /// Where to send it.
        reply: oneshot::Sender<Value>,
    },
    /// The game as the list of games in progress shows it; `None` unless
    /// it is being played.
    Live {
        /// Where to send it.
        reply: oneshot::Sender<Option<LiveGame>>,
    },
    /// The tournament's organiser gives `color` more time (rights checked
    /// by the caller).
    AddTime {
        /// Whose clock.
        color: Color,
        /// How much.
        time: Duration,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), ErrorCode>>,
    },
    /// The tournament's organiser sets the result: the game ends with it
    /// (rights checked by the caller).
    SetResult {
        /// The board's result.
        outcome: escaque_torneo::Outcome,
        /// Done, or why not (`game_over` when the game had already ended).
        reply: oneshot::Sender<Result<(), ErrorCode>>,
    },
}

impl Cmd {
    /// Answers a command that will not be run here (its task or stand-in
    /// stops, or the game is changing hands): a change (`AddTime`,
    /// `SetResult`) is refused with [`ErrorCode::Retry`]; a read's or a
    /// join's caller sees its reply channel close (and asks again, or
    /// answers that the game is not here); `Seated` and `SeatReclaimed`
    /// are already stored, and the game's next owner loads them. A
    /// connection's message is answered by whoever holds its connection
    /// (`Actor::halt`, `cluster::relay`).
    pub fn refuse(self) {
        match self {
            Cmd::AddTime { reply, .. } | Cmd::SetResult { reply, .. } => {
                let _ = reply.send(Err(ErrorCode::Retry));
            }
            Cmd::Join { .. }
            | Cmd::Leave { .. }
            | Cmd::Msg { .. }
            | Cmd::Seated { .. }
            | Cmd::SeatReclaimed { .. }
            | Cmd::Snapshot { .. }
            | Cmd::Live { .. } => {}
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    Waiting,
    Playing,
    /// Adjourned with a sealed move (see `adjourn`).
    Adjourned,
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
    kinds: [Player; 2],
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
    /// Whether the seat's player has connected since the actor started: a
    /// seat never yet connected is not "disconnected".
    seen: [bool; 2],
    gone_since: [Option<Instant>; 2],
    rtt: [Duration; 2],
    takeback_offer: Option<Color>,
    rematch_offer: Option<Color>,
    rematch_game: Option<String>,
    engine_job: Option<(usize, Arc<AtomicBool>)>,
    /// When the current turn began, on `time`.
    turn_start: Duration,
    engine_tx: mpsc::Sender<(usize, Option<Move>)>,
    /// The tournament board this game is, if any.
    link: Option<crate::store::TournamentLink>,
    /// When the side to move began to wait for its first move (tournament
    /// games, until both sides have moved).
    no_show_since: Option<Instant>,
    /// The result the organiser set, as the tournament records it.
    organiser_outcome: Option<escaque_torneo::Outcome>,
    /// Whether each side's rating in a rated game is provisional.
    provisional: [bool; 2],
    /// Adjournment and the sealed move.
    adj: adjourn::Adjournment,
    /// This process's right to write the game (its lease).
    fence: crate::store::Fence,
    /// A write was refused with [`StoreError::Fenced`]: the task stops
    /// after the command at hand.
    fenced: bool,
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
        taken: crate::store::cluster::Taken,
    ) -> Result<(Actor, EngineAnswers), LoadError> {
        let corrupt = |what: String| LoadError::Corrupt {
            id: row.id.clone(),
            what,
        };
        let time = Arc::new(GameTime::new());
        let mut game = record::replay_row(&row, &moves, time.clone())?;
        let clk: Vec<Option<i64>> = moves.iter().map(|m| m.clock_ms).collect();
        let phase = match row.status.as_str() {
            "waiting" => Phase::Waiting,
            "over" => Phase::Over,
            "adjourned" => Phase::Adjourned,
            _ => Phase::Playing,
        };
        let end = row.end.filter(|_| phase == Phase::Over).map(End::new);
        if phase == Phase::Playing && moves.len() >= 2 {
            // Both sides have moved: the clock of the side to move runs again,
            // from the time it had when its turn began, less the time its
            // turn lasted while the old owner still ran the game (up to that
            // owner's last heartbeat); time while no process owned the game
            // is charged to nobody.
            game.start_clock();
            if let (Some(beat), Some(started)) = (taken.heartbeat_ms, taken.turn_started_ms) {
                let owned = Duration::from_millis((beat - started).max(0) as u64);
                time.advance(owned);
            }
        }
        let (engine_tx, engine_rx) = mpsc::channel(4);
        let kind = |k: &str| Player::from_id(k).ok_or_else(|| corrupt(k.to_string()));
        let kinds = [kind(&row.white_kind)?, kind(&row.black_kind)?];
        let now = Instant::now();
        let adj = adjourn::Adjournment::loaded(&row);
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
            // Seen (shown as gone until they come back) only in a game
            // that was under way before this task: one with moves, or
            // adjourned. A game just started with both seats (a simul's
            // board, an accepted seek) does not call its players gone
            // before they first arrive (docs/protocol.md, `connected`).
            seen: [phase == Phase::Adjourned || (phase == Phase::Playing && !moves.is_empty()); 2],
            gone_since: [Some(now), Some(now)],
            rtt: [Duration::ZERO; 2],
            takeback_offer: None,
            rematch_offer: None,
            rematch_game: None,
            engine_job: None,
            turn_start: Duration::ZERO,
            engine_tx,
            link: None,
            no_show_since: None,
            organiser_outcome: None,
            provisional: [false; 2],
            adj,
            fence: taken.fence,
            fenced: false,
        };
        Ok((actor, engine_rx))
    }

    /// Runs until every handle is gone, or the game is over and nobody
    /// watches.
    pub async fn run(
        mut self,
        mut rx: mpsc::Receiver<Cmd>,
        mut engine_rx: EngineAnswers,
        mut stop_rx: mpsc::Receiver<Stop>,
    ) {
        self.load_link().await;
        self.load_ratings().await;
        self.maybe_think();
        loop {
            let deadline = match (self.flag_deadline(), self.no_show_deadline()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let idle = matches!(self.phase, Phase::Over | Phase::Adjourned) && self.subs.is_empty();
            let idle_at = tokio::time::Instant::now() + self.hub.config.idle_actor;
            if self.fenced {
                return self.halt(Stop::Fenced, rx).await;
            }
            tokio::select! {
                biased;
                Some(why) = stop_rx.recv() => return self.halt(why, rx).await,
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                Some((ply, m)) = engine_rx.recv() => self.engine_answer(ply, m).await,
                _ = sleep_until(deadline.unwrap_or(idle_at)), if deadline.is_some() => {
                    self.check_flag().await;
                    self.check_no_show().await;
                }
                _ = sleep_until(idle_at), if idle && deadline.is_none() => {
                    if matches!(self.phase, Phase::Over | Phase::Adjourned) && self.subs.is_empty() {
                        self.hub.forget(&self.row.id);
                        break;
                    }
                }
            }
        }
        if let Some((_, stop)) = &self.engine_job {
            stop.store(true, Ordering::SeqCst);
        }
        self.hub.release_lease(&self.row.id, &self.fence).await;
        self.hub.local.unregister(&self.row.id, self.fence.epoch);
    }

    /// Stops the task before its game lets it (see [`Stop`]): after the
    /// command at hand (its write done or refused), a handover stores the
    /// clocks as they stand and gives the lease up; then every connection
    /// is closed with 1012 and the hub forgets the task.
    async fn halt(mut self, why: Stop, mut rx: mpsc::Receiver<Cmd>) {
        rx.close();
        if let Some((_, stop)) = self.engine_job.take() {
            stop.store(true, Ordering::SeqCst);
        }
        let done = match why {
            Stop::Handover(done) => {
                if self.phase == Phase::Playing && self.game.clock().is_some() {
                    // The clocks as they stand: the next owner goes on from
                    // them (the turn counted from now).
                    let clocks = self.clocks_now();
                    let r = self
                        .hub
                        .store
                        .update_game(Some(&self.fence), &self.row.id, clocks, None)
                        .await;
                    if let Err(e) = r {
                        store::log_failure_in(&format!("partida {}", self.row.id), &e);
                    }
                }
                self.hub.release_lease(&self.row.id, &self.fence).await;
                Some(done)
            }
            Stop::Fenced | Stop::Lost => None,
        };
        // Every command still queued is answered, not dropped: a message is
        // refused with `retry` (nothing of it was done; the client reads the
        // state where the game goes on and sends it again), before its
        // connection is closed.
        while let Ok(cmd) = rx.try_recv() {
            match cmd {
                Cmd::Msg { sub, msg, .. } if !matches!(msg, ClientMsg::Pong { .. }) => {
                    self.send_to(sub, &ServerMsg::error(&ErrorCode::Retry, msg.id()));
                }
                other => other.refuse(),
            }
        }
        // The hub forgets the task before any connection hears the close: a
        // client that reconnects at once (or a test that looks) never finds
        // the stopped task still listed.
        self.hub.forget_closed(&self.row.id);
        self.hub.local.unregister(&self.row.id, self.fence.epoch);
        let bye = restart_close();
        for s in self.subs.drain(..) {
            let _ = s.tx.try_send(Arc::clone(&bye));
        }
        if let Some(done) = done {
            let _ = done.send(());
        }
    }

    // ---------------------------------------------------------------- switchboard

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join { seat, tx, reply } => self.join(seat, tx, reply),
            Cmd::Leave { sub } => self.drop_sub(sub),
            Cmd::Msg {
                sub,
                msg,
                received,
                rtt,
            } => self.message(sub, msg, received, rtt).await,
            Cmd::Seated { seat, name, owner } => {
                self.seat_rating(seat, &owner).await;
                self.seated(seat, name, owner);
            }
            Cmd::SeatReclaimed { seat } => self.evict(seat),
            Cmd::Snapshot { reply } => drop(reply.send(self.snapshot())),
            Cmd::Live { reply } => drop(reply.send(self.live())),
            Cmd::AddTime { color, time, reply } => {
                let r = self.add_time(color, time).await;
                drop(reply.send(r));
            }
            Cmd::SetResult { outcome, reply } => {
                let r = self.set_result(outcome).await;
                drop(reply.send(r));
            }
        }
    }

    /// A client's message: done, and answered with an `ack`, or refused with
    /// an `error`; both echo its `id`.
    async fn message(&mut self, sub: u64, msg: ClientMsg, received: Instant, rtt: Duration) {
        let Some(seat) = self.subs.iter().find(|s| s.id == sub).map(|s| s.seat) else {
            return;
        };
        if let Some(c) = seat {
            self.rtt[c.index()] = rtt;
        }
        let id = msg.id();
        let answer = match self.act(seat, msg, received, rtt).await {
            Ok(None) => return,
            Ok(Some(answer)) => answer,
            Err(e) => ServerMsg::error(&e, id),
        };
        self.send_to(sub, &answer);
    }

    async fn act(
        &mut self,
        seat: Option<Color>,
        msg: ClientMsg,
        received: Instant,
        rtt: Duration,
    ) -> Result<Option<ServerMsg>, ErrorCode> {
        let id = msg.id();
        match msg {
            ClientMsg::State { .. } => return Ok(Some(self.state_msg(seat, id))),
            ClientMsg::Pong { .. } => return Ok(None),
            _ => {}
        }
        let me = seat.ok_or(ErrorCode::NotAPlayer)?;
        if self.link.is_some()
            && matches!(
                msg,
                ClientMsg::Abort { .. } | ClientMsg::Rematch { .. } | ClientMsg::Takeback { .. }
            )
        {
            return Err(ErrorCode::TournamentGame);
        }
        if !matches!(msg, ClientMsg::Rematch { .. } | ClientMsg::Resume { .. }) {
            self.playing().await?;
        }
        self.sealing_gate(&msg)?;
        match msg {
            ClientMsg::Rematch { .. } => self.rematch(me).await?,
            ClientMsg::Move { mv, .. } => self.move_by(me, &mv, received, rtt).await?,
            ClientMsg::ClaimDraw { mv, .. } => self.claim_draw(me, mv, received, rtt).await?,
            ClientMsg::OfferDraw { .. } => self.offer_draw(me).await?,
            ClientMsg::AcceptDraw { .. } => self.accept_draw(me).await?,
            ClientMsg::DeclineDraw { .. } => self.decline_draw(me).await?,
            ClientMsg::Resign { .. } => self.resign(me).await?,
            ClientMsg::Abort { .. } => self.abort().await?,
            ClientMsg::Takeback { .. } => self.ask_takeback(me).await?,
            ClientMsg::TakebackAnswer { accept, .. } => self.answer_takeback(me, accept).await?,
            ClientMsg::ClaimAbandoned { result, .. } => self.claim_abandoned(me, &result).await?,
            ClientMsg::OfferAdjourn { .. } => self.offer_adjourn(me).await?,
            ClientMsg::AcceptAdjourn { .. } => self.accept_adjourn(me).await?,
            ClientMsg::DeclineAdjourn { .. } => self.decline_adjourn(me).await?,
            ClientMsg::Seal { mv, .. } => self.seal(me, &mv).await?,
            ClientMsg::Resume { .. } => self.resume(me).await?,
            ClientMsg::State { .. } | ClientMsg::Pong { .. } => {}
        }
        // A write refused because another process owns the game now (an
        // ending's write swallows the refusal and marks the task fenced):
        // nothing happened, so nothing is acknowledged; the task stops next.
        if self.fenced {
            return Err(ErrorCode::Storage);
        }
        Ok(Some(ServerMsg::Ack { id }))
    }

    // ---------------------------------------------------------------- shared

    /// Refuses an action unless the game is being played, noticing first a
    /// flag that fell before the message arrived.
    async fn playing(&mut self) -> Result<(), ErrorCode> {
        match self.phase {
            Phase::Waiting => return Err(ErrorCode::NotStarted),
            Phase::Over => return Err(ErrorCode::GameOver),
            Phase::Adjourned => return Err(ErrorCode::Adjourned),
            Phase::Playing => {}
        }
        if let Some(o) = self.game.poll_clock() {
            self.finish(End::from_outcome(o)).await;
            return Err(ErrorCode::GameOver);
        }
        Ok(())
    }

    /// A game write's result as a client is answered: a refused write
    /// (another process owns the game) stops the task after this command.
    fn stored<T>(&mut self, r: Result<T, StoreError>) -> Result<T, ErrorCode> {
        r.map_err(|e| {
            if matches!(e, StoreError::Fenced) {
                self.fenced = true;
            } else {
                store::log_failure_in(&format!("partida {}", self.row.id), &e);
            }
            ErrorCode::Storage
        })
    }

    fn lib_err(&self, e: GameError) -> ErrorCode {
        match e {
            GameError::GameOver(_) => ErrorCode::GameOver,
            e => ErrorCode::refused(&e),
        }
    }

    fn clocks_now(&self) -> Option<[i64; 2]> {
        self.game.clock().map(|c| {
            let r = c.peek();
            [r.white.as_millis() as i64, r.black.as_millis() as i64]
        })
    }

    fn send_to(&mut self, sub: u64, msg: &ServerMsg) {
        let text: Out = Arc::from(msg.to_text());
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
    fn broadcast(&mut self, event: crate::proto::GameEvent) {
        let msg = ServerMsg::Event(crate::proto::EventMsg {
            event,
            state: self.state(false),
        });
        let text: Out = Arc::from(msg.to_text());
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
}

#[cfg(test)]
mod tests {
    use escaque::RuleSet;
    use escaque_play::{Config, Level, Session};

    use super::*;
    use escaque::pgn::PgnStyle;
    use escaque::{FakeTime, Lang};

    fn row(white_kind: &str, black_kind: &str, names: [&str; 2]) -> GameRow {
        GameRow {
            id: "abc".into(),
            rules: RuleSet::default(),
            start_fen: escaque::STARTING_FEN.into(),
            time_control: None,
            white_kind: white_kind.into(),
            black_kind: black_kind.into(),
            white_owner: None,
            black_owner: None,
            white_secret: None,
            black_secret: None,
            white_name: names[0].into(),
            black_name: names[1].into(),
            status: "playing".into(),
            end: None,
            clock_white_ms: None,
            clock_black_ms: None,
            created_ms: 0,
            chess960: false,
            rated: false,
            perf: None,
            ratings: [None, None],
            rating_diffs: [None, None],
            rating_applied: false,
            sealed: None,
            class_id: None,
        }
    }

    /// The record without the tags only the server knows (where and when,
    /// and the opening's name).
    fn without_site_and_date(pgn: &str) -> String {
        pgn.lines()
            .filter(|l| {
                !["[Site ", "[Date ", "[ECO ", "[Opening "]
                    .iter()
                    .any(|t| l.starts_with(t))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_same_pgn_from_the_terminal_and_the_server() {
        // A finished game between two people.
        let config = Config {
            players: [Player::Human, Player::Human],
            ..Config::default()
        };
        let mut session = Session::new(config, Lang::Es, Arc::new(FakeTime::new()));
        let line = ["f2f3", "e7e5", "g2g4", "d8h4"];
        for m in line {
            session.play_text(m);
        }
        assert!(session.outcome().is_some());
        let mut r = row("human", "human", ["persona", "persona"]);
        r.status = "over".into();
        r.end = Some(crate::store::Ending {
            result: Some(escaque::GameResult::BlackWins),
            termination: session.outcome().unwrap().termination,
        });
        let moves: Vec<MoveRow> = line
            .iter()
            .enumerate()
            .map(|(i, m)| MoveRow {
                ply: i as i64,
                uci: m.to_string(),
                clock_ms: None,
            })
            .collect();
        let server = stored_pgn(&r, &moves, "2026.01.02", PgnStyle::export()).unwrap();
        assert!(server.contains("[Date \"2026.01.02\"]"), "{server}");
        assert!(server.contains("[Termination \"normal\"]"), "{server}");
        assert!(server.contains("[ECO \"A00\"]"), "{server}");
        assert!(
            server.contains("[Opening \"Barnes Opening: Fool's Mate\"]"),
            "{server}"
        );
        assert_eq!(
            without_site_and_date(&session.to_pgn("persona")),
            without_site_and_date(&server)
        );
        // A game in progress against the engine: one engine name.
        let level = Level::from_number(3).unwrap();
        let config = Config {
            players: [Player::Engine(level), Player::Human],
            ..Config::default()
        };
        let session = Session::new(config, Lang::Es, Arc::new(FakeTime::new()));
        let r = row("engine:3", "human", ["escaque (nivel 3)", "persona"]);
        let server = stored_pgn(&r, &[], "2026.01.02", PgnStyle::export()).unwrap();
        assert!(server.contains("[White \"escaque 3\"]"), "{server}");
        assert_eq!(
            without_site_and_date(&session.to_pgn("persona")),
            without_site_and_date(&server)
        );
    }
}
