//! One sitting at the board, whatever shows it: the game and its clock, who
//! plays each side, the engine thread, and what a typed move or an action
//! means. Every call answers with typed [`Event`]s; the front end words them.

use std::sync::Arc;
use std::time::Duration;

use escaque::pgn::{PgnReader, PgnStyle};
use escaque::read::{move_between, read_move, Notation};
use escaque::sealed::{resume_sealed, Opening};
use escaque::{
    ClaimResult, Clock, Color, DrawClaim, FenError, FenWarning, Game, GameError, Lang, Move,
    MoveError, Odds, Outcome, Position, Role, RuleSet, Square, TimeControl, TimeSource,
};

use crate::engine::{history_keys, Budget, EnginePlayer};
use crate::player::{default_level, Player};
use crate::record::{export_pgn, player_name, takeback_allowed, takeback_plies, PgnHeader};

/// How a game is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Who plays White and Black (index by colour).
    pub players: [Player; 2],
    /// The time control, or none.
    pub clock: Option<TimeControl>,
    /// The rule set.
    pub rules: RuleSet,
    /// The start position, when not the standard one.
    pub start: Option<Position>,
    /// An odds game (London 1846, art. ii): the preset's position, with the
    /// engine giving the odds when one person plays it (else the usual giver).
    pub odds: Option<Odds>,
    /// A Chess960 game (FIDE Laws, Guidelines III) from this starting
    /// position number (0–959; see [`Position::chess960`]).
    pub chess960: Option<u16>,
}

impl Config {
    /// The colour that gives the odds.
    pub fn odds_giver(&self, odds: Odds) -> Color {
        match self.players {
            [Player::Engine(_), Player::Human] => Color::White,
            [Player::Human, Player::Engine(_)] => Color::Black,
            _ => odds.usual_giver(),
        }
    }

    /// The colour shown at the bottom of the board: the person's, or White.
    pub fn orientation(&self) -> Color {
        match self.players {
            [Player::Engine(_), Player::Human] => Color::Black,
            _ => Color::White,
        }
    }

    /// The position the game starts from.
    pub fn start_position(&self) -> Position {
        if let Some(pos) = self.chess960.and_then(Position::chess960) {
            return pos;
        }
        match (self.start, self.odds) {
            (_, Some(o)) => o.position_for(self.odds_giver(o)),
            (Some(p), None) => p,
            (None, None) => Position::new(),
        }
    }
}

impl Default for Config {
    /// A person with White against the engine at the default level, FIDE
    /// rules, no clock.
    fn default() -> Config {
        Config {
            players: [Player::Human, Player::Engine(default_level())],
            clock: None,
            rules: RuleSet::fide_2023(),
            start: None,
            odds: None,
            chess960: None,
        }
    }
}

/// Something a player asks for, whatever words or keys they used.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Resign the game.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Accept the opponent's draw offer.
    Accept,
    /// Decline the opponent's draw offer.
    Decline,
    /// Claim a draw (with a declared move as the argument, or none).
    Claim,
    /// Take back the last move(s) of the person who asks.
    Undo,
    /// Turn the board round.
    Flip,
    /// Save the game (the argument is the file name, or none).
    Save,
    /// Load a game or a position (a file name, or a FEN typed in place).
    Load,
    /// Start a new game with the same set-up.
    New,
    /// Leave (asks to save a game in progress first).
    Quit,
    /// Show the help.
    Help,
    /// Show the board again.
    Board,
    /// Adjourn the game: the player to move seals a move (typed next, not
    /// shown) and the game is saved with the envelope (to the file given as
    /// the argument, or the default one).
    Adjourn,
}

/// Why a move or an action was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The text or the squares are not a legal move.
    Move(MoveError),
    /// The game refused it (over, no offer to answer, …).
    Game(GameError),
}

/// Something the session tells the players.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// A new game starts between these players.
    NewGame([Player; 2]),
    /// The game is Chess960, from this starting position number.
    Chess960(u16),
    /// A move was played: `number. san` or `number... san`, the SAN written
    /// from `before`.
    Played {
        /// The move number.
        number: u32,
        /// Who played it.
        color: Color,
        /// The position before the move.
        before: Position,
        /// The move.
        mv: Move,
    },
    /// The game is over.
    GameOver(Outcome),
    /// A move or action was refused.
    Refused(Refusal),
    /// An action that needs a game in progress.
    GameAlreadyOver,
    /// The engine stopped answering.
    EngineFailed,
    /// A move typed while the engine has the move.
    NotYourTurn,
    /// Nothing to claim.
    NothingToClaim,
    /// A claim was wrong: it stands as a draw offer.
    ClaimRejected,
    /// A draw offer was made by this side.
    OfferMade(Color),
    /// The offer was declined.
    OfferDeclined,
    /// No offer to answer.
    NoOffer,
    /// Undo is not allowed (a clocked game) or there is nothing to undo.
    CannotUndo,
    /// This many half-moves were taken back.
    Undone(usize),
    /// The board was turned: this colour is now at the bottom.
    Flipped(Color),
    /// A game or position was loaded from this source (a file name, or
    /// `FEN`).
    Loaded(String),
    /// The text to load is neither a FEN nor a PGN game.
    CannotLoad {
        /// Where it came from.
        source: String,
        /// Why the PGN reading failed.
        why: String,
    },
    /// A FEN typed in place is not valid.
    InvalidFen(FenError),
    /// A position no game can reach was loaded: what was relaxed in it.
    FenRelaxed(Vec<FenWarning>),
    /// The front end saved the game to this file.
    Saved(String),
    /// The front end could not use this file.
    FileError {
        /// The file.
        path: String,
        /// What the system said.
        error: String,
    },
    /// Leaving a game in progress: ask to save first.
    ConfirmQuit,
    /// Adjournment: this side must now write its sealed move (not shown).
    AskSealedMove(Color),
    /// The game was adjourned with this side's sealed move in the envelope.
    Adjourned(Color),
    /// A game was loaded with a sealed envelope of this side's, opened now
    /// that play resumes: the move was played, or the Guidelines' verdict.
    EnvelopeOpened {
        /// Who sealed.
        by: Color,
        /// The position before the sealed move.
        before: Position,
        /// What the opening brought.
        opening: Opening,
    },
    /// Goodbye.
    Bye,
    /// The help was asked for.
    Help,
}

/// What the session asks its front end to show or do.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A message for the players.
    Notice(Notice),
    /// The position changed: draw the board again.
    Board,
    /// Write this PGN text to the file `path`, then tell the player.
    Save {
        /// The file.
        path: String,
        /// The game as PGN.
        pgn: String,
    },
    /// Read the file `path` and hand its text to [`Session::load_text`].
    Load {
        /// The file.
        path: String,
    },
    /// Leave the program.
    Quit,
}

/// One line of the status: what the players should know now, most important
/// first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game is over.
    Over(Outcome),
    /// This side has the move.
    ToMove(Color),
    /// The side to move is in check.
    Check,
    /// The person to move may claim this draw.
    CanClaim(DrawClaim),
    /// This side offered a draw that still stands.
    DrawOffered(Color),
    /// The engine is looking for a move.
    Thinking,
}

/// A game being played.
pub struct Session {
    /// The language a typed move is read in first (the other one is tried
    /// when the text is not a legal move in it).
    pub lang: Lang,
    /// How this game was set up.
    pub config: Config,
    /// The colour shown at the bottom of the board.
    pub orientation: Color,
    game: Game,
    engine: EnginePlayer,
    source: Arc<dyn TimeSource>,
    confirming_quit: bool,
    /// While a sealed move is awaited: the file the adjourned game goes to.
    sealing: Option<String>,
    /// Which file `guardar` without a name writes to.
    pub default_save: String,
}

fn notice(n: Notice) -> Event {
    Event::Notice(n)
}

fn refused_move(e: MoveError) -> Vec<Event> {
    vec![notice(Notice::Refused(Refusal::Move(e)))]
}

impl Session {
    /// A new game as `config` says, with time from `source`; typed moves are
    /// read in `lang` first.
    pub fn new(config: Config, lang: Lang, source: Arc<dyn TimeSource>) -> Session {
        let game = Session::build(&config, &source);
        Session {
            lang,
            orientation: config.orientation(),
            config,
            game,
            engine: EnginePlayer::start(),
            source,
            confirming_quit: false,
            sealing: None,
            default_save: "partida.pgn".into(),
        }
    }

    fn build(config: &Config, source: &Arc<dyn TimeSource>) -> Game {
        let mut game = Game::from_position(config.start_position())
            .with_rules(config.rules)
            .with_chess960(config.chess960.is_some());
        if let Some(tc) = &config.clock {
            game = game.with_clock(Clock::new(tc.clone(), Arc::clone(source)));
            // The side to move is thinking from the start.
            game.start_clock();
        }
        game
    }

    /// Starts again with `config`.
    pub fn restart(&mut self, config: Config) -> Vec<Event> {
        self.engine.cancel();
        self.game = Session::build(&config, &self.source);
        self.orientation = config.orientation();
        self.config = config;
        let mut out = vec![notice(Notice::NewGame(self.config.players))];
        if let Some(n) = self.game.chess960_number() {
            out.push(notice(Notice::Chess960(n)));
        }
        out.push(Event::Board);
        out
    }

    /// The game, with its clock.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Who plays `color`.
    pub fn player(&self, color: Color) -> Player {
        self.config.players[color.index()]
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// True when a person has the move in a game in progress.
    pub fn human_to_move(&self) -> bool {
        self.outcome().is_none() && self.player(self.position().turn()) == Player::Human
    }

    /// True when leaving now would abandon a game in progress.
    pub fn in_progress(&self) -> bool {
        self.outcome().is_none() && !self.game.moves().is_empty()
    }

    /// True while the answer to "save before leaving?" is awaited.
    pub fn confirming_quit(&self) -> bool {
        self.confirming_quit
    }

    /// True while the sealed move of an adjournment is awaited: the front
    /// end must not show what is typed.
    pub fn sealing(&self) -> bool {
        self.sealing.is_some()
    }

    /// The player to move seals `text` (kept as written, validated only
    /// when the envelope is opened): the clock stops, the game is saved with
    /// the envelope to the file `aplazar` named (or the default one), and the
    /// sitting ends.
    pub fn seal(&mut self, text: &str) -> Vec<Event> {
        let path = self
            .sealing
            .take()
            .unwrap_or_else(|| self.default_save.clone());
        let by = self.position().turn();
        self.engine.cancel();
        match self.game.adjourn_sealed(text.trim()) {
            Ok(pgn) => vec![
                Event::Save { path, pgn },
                notice(Notice::Adjourned(by)),
                Event::Quit,
            ],
            Err(e) => vec![notice(Notice::Refused(Refusal::Game(e)))],
        }
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        self.game.moves().last().map(|r| r.mv)
    }

    /// The moves for display: move number, colour, and the SAN in `lang`
    /// (with `a.p.` after an en passant capture in Spanish).
    pub fn move_list(&self, lang: Lang) -> Vec<(u32, Color, String)> {
        let mut pos = *self.game.start_position();
        let mut out = Vec::with_capacity(self.game.moves().len());
        for r in self.game.moves() {
            out.push((
                pos.fullmove_number(),
                pos.turn(),
                escaque::san::san_display(&pos, r.mv, lang),
            ));
            pos.play_unchecked(r.mv);
        }
        out
    }

    /// The legal moves from `from` (none once the game is over).
    pub fn moves_from(&self, from: Square) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.position()
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| m.from() == from)
            .collect()
    }

    /// The draws the side to move may claim now.
    pub fn claims(&self) -> Vec<DrawClaim> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.game.claimable()
    }

    /// The status, most important first.
    pub fn status(&self) -> Vec<Status> {
        if let Some(o) = self.outcome() {
            return vec![Status::Over(o)];
        }
        let pos = self.position();
        let mut out = vec![Status::ToMove(pos.turn())];
        if pos.is_check() {
            out.push(Status::Check);
        }
        if self.player(pos.turn()) == Player::Human {
            out.extend(self.claims().into_iter().map(Status::CanClaim));
        }
        if let Some(c) = self.game.draw_offer() {
            out.push(Status::DrawOffered(c));
        }
        if self.engine.is_thinking() {
            out.push(Status::Thinking);
        }
        out
    }

    /// Time left for White and Black, when the game has a clock.
    pub fn clock_times(&self) -> Option<[Duration; 2]> {
        let r = self.game.clock()?.peek();
        Some([r.white, r.black])
    }

    /// The time control, when the game has one.
    pub fn time_control(&self) -> Option<&TimeControl> {
        self.game.clock().map(|c| c.control())
    }

    /// Whatever happens without the players: a flag falls, the engine answers
    /// or starts thinking.
    pub fn tick(&mut self) -> Vec<Event> {
        self.advance(Duration::ZERO)
    }

    /// Like [`Session::tick`], waiting for the engine's move when it has the
    /// move (the plain-text mode reads no input meanwhile).
    pub fn wait_for_engine(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        loop {
            out.extend(self.advance(Duration::from_millis(50)));
            let turn = self.position().turn();
            if self.outcome().is_some() || self.player(turn) == Player::Human {
                return out;
            }
            if !self.engine.is_thinking() {
                // The engine's thread is gone: say so rather than wait forever.
                out.push(notice(Notice::EngineFailed));
                return out;
            }
        }
    }

    fn advance(&mut self, wait: Duration) -> Vec<Event> {
        let mut out = Vec::new();
        if self.outcome().is_some() {
            self.engine.cancel();
            return out;
        }
        if let Some(c) = self.check_flag() {
            out.extend(c);
            return out;
        }
        let turn = self.position().turn();
        let Player::Engine(level) = self.player(turn) else {
            return out;
        };
        if !self.engine.is_thinking() {
            let movetime = Budget::without_clock(level).movetime;
            let budget = Budget::for_game(&self.game, level, movetime);
            let history = history_keys(&self.game);
            self.engine.think(self.game.position(), history, budget);
        }
        if let Some(Some(m)) = self.engine.poll(wait) {
            out.extend(self.play_move(m));
        }
        out
    }

    fn check_flag(&mut self) -> Option<Vec<Event>> {
        let o = self.game.poll_clock()?;
        self.engine.cancel();
        Some(vec![notice(Notice::GameOver(o)), Event::Board])
    }

    /// Plays `m` for the side to move (a person's click or the engine).
    pub fn play_move(&mut self, m: Move) -> Vec<Event> {
        if let Some(ev) = self.check_flag() {
            return ev;
        }
        let before = *self.position();
        if let Err(e) = self.game.play(m) {
            if let Some(o) = self.outcome() {
                // The flag fell before the move was completed.
                self.engine.cancel();
                return vec![notice(Notice::GameOver(o)), Event::Board];
            }
            return vec![notice(Notice::Refused(match e {
                GameError::Illegal(i) => Refusal::Move(MoveError::Illegal {
                    text: m.to_string(),
                    mv: Some(m),
                    reason: i.reason,
                }),
                other => Refusal::Game(other),
            }))];
        }
        let mut out = vec![
            notice(Notice::Played {
                number: before.fullmove_number(),
                color: before.turn(),
                before,
                mv: m,
            }),
            Event::Board,
        ];
        if let Some(o) = self.outcome() {
            self.engine.cancel();
            out.push(notice(Notice::GameOver(o)));
        }
        out
    }

    /// A person moves the piece on `from` to `to` (by mouse, touch or keys),
    /// with the piece a pawn becomes; the refusal says why when it is not
    /// a legal move.
    pub fn play_squares(
        &mut self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Vec<Event> {
        if let Some(e) = self.not_a_persons_move() {
            return e;
        }
        match move_between(self.position(), from, to, promotion) {
            Ok(m) => self.play_move(m),
            Err(e) => refused_move(e),
        }
    }

    fn not_a_persons_move(&self) -> Option<Vec<Event>> {
        if self.outcome().is_some() {
            return Some(vec![notice(Notice::GameAlreadyOver)]);
        }
        if !self.human_to_move() {
            return Some(vec![notice(Notice::NotYourTurn)]);
        }
        None
    }

    /// A person typed a move: SAN in either language or coordinates, read by
    /// the library's one reader with this session's language first.
    pub fn play_text(&mut self, text: &str) -> Vec<Event> {
        if let Some(e) = self.not_a_persons_move() {
            return e;
        }
        match self.read(text) {
            Ok(m) => self.play_move(m),
            Err(e) => refused_move(e),
        }
    }

    fn read(&self, text: &str) -> Result<Move, MoveError> {
        read_move(self.position(), text, Notation::Any(self.lang.into()))
    }

    /// The human who acts on an action: the side to move when both are
    /// people, else the one person playing.
    fn acting_human(&self) -> Option<Color> {
        let turn = self.position().turn();
        if self.player(turn) == Player::Human {
            Some(turn)
        } else if self.player(!turn) == Player::Human {
            Some(!turn)
        } else {
            None
        }
    }

    /// The answer to "save before leaving?": yes (with a file name, or the
    /// default one), no, or anything else to stay.
    pub fn answer_quit(&mut self, answer: &str) -> Vec<Event> {
        self.confirming_quit = false;
        let answer = answer.trim();
        let (first, rest) = match answer.split_once(char::is_whitespace) {
            Some((a, b)) => (a.to_lowercase(), b.trim().to_string()),
            None => (answer.to_lowercase(), String::new()),
        };
        match first.as_str() {
            "s" | "si" | "sí" | "y" | "yes" => {
                let path = if rest.is_empty() {
                    self.default_save.clone()
                } else {
                    rest
                };
                vec![self.save(path), notice(Notice::Bye), Event::Quit]
            }
            "n" | "no" => vec![notice(Notice::Bye), Event::Quit],
            _ => vec![Event::Board],
        }
    }

    /// Carries out an action; `arg` is what followed its word (a declared
    /// move, a file name, a FEN).
    pub fn act(&mut self, action: Action, arg: &str) -> Vec<Event> {
        let over = self.outcome().is_some();
        let needs_game = matches!(
            action,
            Action::Resign | Action::OfferDraw | Action::Accept | Action::Decline | Action::Claim
        );
        if over && needs_game {
            return vec![notice(Notice::GameAlreadyOver)];
        }
        match action {
            Action::Resign => {
                let Some(c) = self.acting_human() else {
                    return vec![notice(Notice::NotYourTurn)];
                };
                self.engine.cancel();
                let _ = self.game.resign(c);
                self.ended()
            }
            Action::OfferDraw => {
                let Some(c) = self.acting_human() else {
                    return vec![notice(Notice::NotYourTurn)];
                };
                if let Err(e) = self.game.offer_draw(c) {
                    return vec![notice(Notice::Refused(Refusal::Game(e)))];
                }
                let mut out = vec![notice(Notice::OfferMade(c))];
                if self.outcome().is_some() {
                    // The offer met the opponent's standing one.
                    self.engine.cancel();
                    out.extend(self.ended());
                } else if let Player::Engine(_) = self.player(!c) {
                    // The engine plays on: it declines every offer.
                    let _ = self.game.decline_draw(!c);
                    out.push(notice(Notice::OfferDeclined));
                }
                out
            }
            Action::Accept => {
                let turn = self.position().turn();
                let who = if self.game.draw_offer() == Some(!turn) {
                    turn
                } else {
                    !turn
                };
                if self.player(who) == Player::Human && self.game.accept_draw(who).is_ok() {
                    self.engine.cancel();
                    self.ended()
                } else {
                    vec![notice(Notice::NoOffer)]
                }
            }
            Action::Decline => {
                let turn = self.position().turn();
                if self.game.decline_draw(turn).is_ok() || self.game.decline_draw(!turn).is_ok() {
                    vec![notice(Notice::OfferDeclined)]
                } else {
                    vec![notice(Notice::NoOffer)]
                }
            }
            Action::Claim => self.claim(arg),
            Action::Undo => self.undo(),
            Action::Flip => {
                self.orientation = !self.orientation;
                vec![notice(Notice::Flipped(self.orientation)), Event::Board]
            }
            Action::Save => {
                let path = if arg.is_empty() {
                    self.default_save.clone()
                } else {
                    arg.to_string()
                };
                vec![self.save(path)]
            }
            Action::Load => self.load(arg),
            Action::New => {
                let config = self.config.clone();
                self.restart(config)
            }
            Action::Quit => {
                if self.in_progress() {
                    self.confirming_quit = true;
                    vec![notice(Notice::ConfirmQuit)]
                } else {
                    vec![notice(Notice::Bye), Event::Quit]
                }
            }
            Action::Help => vec![notice(Notice::Help)],
            Action::Board => vec![Event::Board],
            Action::Adjourn => {
                if over {
                    return vec![notice(Notice::GameAlreadyOver)];
                }
                if !self.human_to_move() {
                    return vec![notice(Notice::NotYourTurn)];
                }
                self.sealing = Some(if arg.is_empty() {
                    self.default_save.clone()
                } else {
                    arg.to_string()
                });
                vec![notice(Notice::AskSealedMove(self.position().turn()))]
            }
        }
    }

    /// "reclamar" alone claims on the position on the board; "reclamar Cf3"
    /// comes with the move that will produce the repetition or complete the
    /// fifty moves.
    fn claim(&mut self, arg: &str) -> Vec<Event> {
        if !self.human_to_move() {
            return vec![notice(Notice::NotYourTurn)];
        }
        let declared = if arg.is_empty() {
            if self.claims().is_empty() {
                return vec![notice(Notice::NothingToClaim)];
            }
            None
        } else {
            match self.read(arg) {
                Ok(m) => Some(m),
                Err(e) => return refused_move(e),
            }
        };
        let before = *self.position();
        let r = match declared {
            Some(m) => self.game.claim_draw_with_move(m),
            None => self.game.claim_draw(),
        };
        let claimed = match r {
            Ok(c) => c,
            Err(GameError::Illegal(i)) => {
                return refused_move(MoveError::Illegal {
                    text: arg.into(),
                    mv: declared,
                    reason: i.reason,
                })
            }
            Err(e) => return vec![notice(Notice::Refused(Refusal::Game(e)))],
        };
        let rejected = claimed == ClaimResult::Rejected;
        if !rejected {
            self.engine.cancel();
        }
        let mut out = Vec::new();
        if let Some(m) = declared {
            out.push(notice(Notice::Played {
                number: before.fullmove_number(),
                color: before.turn(),
                before,
                mv: m,
            }));
        }
        if rejected {
            out.push(notice(Notice::ClaimRejected));
            out.push(Event::Board);
        } else {
            out.extend(self.ended());
        }
        out
    }

    fn ended(&self) -> Vec<Event> {
        match self.outcome() {
            Some(o) => vec![notice(Notice::GameOver(o)), Event::Board],
            None => Vec::new(),
        }
    }

    fn undo(&mut self) -> Vec<Event> {
        let humans: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|c| self.player(*c) == Player::Human)
            .collect();
        // Against the engine the person asks; between two people at one
        // board, the one who has just moved.
        let by = match humans.as_slice() {
            [one] => *one,
            [_, _] => !self.position().turn(),
            _ => return vec![notice(Notice::CannotUndo)],
        };
        let n = takeback_plies(&self.game, by);
        if !takeback_allowed(&self.game) || n == 0 {
            return vec![notice(Notice::CannotUndo)];
        }
        for _ in 0..n {
            if self.game.undo().is_err() {
                break;
            }
        }
        self.engine.cancel();
        vec![notice(Notice::Undone(n)), Event::Board]
    }

    /// The game as PGN (export format: English SAN) with the players' names
    /// (`person` for each person, `escaque N` for the engine), and, as the
    /// library writes it, the start position if it is not the usual one, the
    /// rule set and the clock times so that a game in progress can be resumed.
    /// The same record as the server's ([`export_pgn`]).
    pub fn to_pgn(&self, person: &str) -> String {
        let header = PgnHeader::new(
            player_name(self.player(Color::White), person),
            player_name(self.player(Color::Black), person),
        );
        export_pgn(&self.game, &header, None, None, PgnStyle::export())
    }

    fn save(&self, path: String) -> Event {
        let person = match self.lang {
            Lang::Es => "persona",
            Lang::En => "person",
        };
        Event::Save {
            pgn: self.to_pgn(person),
            path,
        }
    }

    fn load(&mut self, arg: &str) -> Vec<Event> {
        let arg = arg.trim();
        // A FEN typed in place.
        if arg.contains('/') && arg.split_whitespace().count() >= 2 {
            // Standard FEN, or a Chess960 one whose castling field names
            // the rooks' files (Shredder-FEN).
            let read = match Position::from_fen_playable(arg) {
                Err(escaque::FenError::BadCastling { .. }) => {
                    Position::from_fen_playable_with(arg, escaque::CastlingMode::Chess960)
                }
                other => other,
            };
            return match read {
                Ok((pos, warnings)) => {
                    let mut out = self.load_position(pos, "FEN");
                    if !warnings.is_empty() {
                        out.insert(1, notice(Notice::FenRelaxed(warnings)));
                    }
                    out
                }
                Err(e) => vec![notice(Notice::InvalidFen(e))],
            };
        }
        vec![Event::Load { path: arg.into() }]
    }

    fn load_position(&mut self, pos: Position, source: &str) -> Vec<Event> {
        self.engine.cancel();
        self.config.start = Some(pos);
        self.config.odds = None;
        self.config.clock = None;
        // A loaded position replaces a numbered Chess960 start; the game is
        // Chess960 again if the position's castling says so.
        self.config.chess960 = None;
        self.game = Session::build(&self.config, &self.source);
        vec![notice(Notice::Loaded(source.into())), Event::Board]
    }

    /// Loads what the file `source` holds: a FEN, or a PGN game resumed as
    /// the library does it (the rule set from its `Rules` tag, or this
    /// session's; clock times restored and running). A result that the moves
    /// do not show (a resignation) ends the game as recorded.
    pub fn load_text(&mut self, text: &str, source: &str) -> Vec<Event> {
        if let Ok((pos, warnings)) = Position::from_fen_playable(text.trim()) {
            let mut out = self.load_position(pos, source);
            if !warnings.is_empty() {
                out.insert(1, notice(Notice::FenRelaxed(warnings)));
            }
            return out;
        }
        // An adjourned game with its envelope: opened now that play resumes.
        if let Ok(adjourned) = resume_sealed(text, Arc::clone(&self.source)) {
            if let Some(sealed) = adjourned.sealed.clone() {
                let before = *adjourned.game.position();
                let (mut game, opening) = adjourned.open();
                game.start_clock();
                self.engine.cancel();
                self.config.rules = *game.rules();
                self.game = game;
                return vec![
                    notice(Notice::Loaded(source.into())),
                    notice(Notice::EnvelopeOpened {
                        by: sealed.by(),
                        before,
                        opening,
                    }),
                    Event::Board,
                ];
            }
        }
        let mut game = match Game::resume_from_pgn(text, Arc::clone(&self.source)) {
            Ok(g) => g,
            Err(e) => {
                return vec![notice(Notice::CannotLoad {
                    source: source.into(),
                    why: escaque::Localized::message(&e, self.lang),
                })]
            }
        };
        let pgn = PgnReader::new(text.as_bytes())
            .next_game()
            .and_then(Result::ok)
            .unwrap_or_default();
        if pgn.tag("Rules").is_none() {
            game = game.with_rules(self.config.rules);
        }
        game.start_clock();
        if game.outcome().is_none() {
            if let Some(r) = pgn.recorded_result() {
                let _ = game.record_result(r);
            }
        }
        self.engine.cancel();
        self.config.rules = *game.rules();
        self.game = game;
        vec![notice(Notice::Loaded(source.into())), Event::Board]
    }
}
