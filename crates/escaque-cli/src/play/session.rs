//! One sitting at the board, whatever shows it: the game, the clock, who plays
//! each side, the engine thread, and what a typed line or a click means. Both
//! the full-screen interface and the plain-text mode drive a [`Session`] and
//! show the [`Event`]s it returns.

use std::sync::Arc;
use std::time::Duration;

use escaque::{Color, Lang, Move, Odds, Position};

use super::backend::{clock_from_text, position_from_fen, Claimed, Game, RuleChoice, TimeSource};
use super::engine_worker::{Budget, EngineWorker};
use crate::i18n::{parse_command, text, Command, Msg, PlayerKind};

/// How a game is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Who plays White and Black (index by colour).
    pub players: [PlayerKind; 2],
    /// Time control text (`5+3`), or none.
    pub clock: Option<String>,
    /// The rule set.
    pub rules: RuleChoice,
    /// The start position, when not the standard one.
    pub fen: Option<String>,
    /// An odds game (London 1846, art. ii): the preset's position, with the
    /// engine giving the odds when one person plays it (else the usual giver).
    pub odds: Option<Odds>,
}

impl Config {
    /// The colour that gives the odds.
    pub fn odds_giver(&self, odds: Odds) -> Color {
        match self.players {
            [PlayerKind::Engine(_), PlayerKind::Human] => Color::White,
            [PlayerKind::Human, PlayerKind::Engine(_)] => Color::Black,
            _ => odds.usual_giver(),
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            players: [PlayerKind::Human, PlayerKind::Engine(5)],
            clock: None,
            rules: RuleChoice::Fide2023,
            fen: None,
            odds: None,
        }
    }
}

/// Something the interface must show or do.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A line of text for the player.
    Say(String),
    /// The position changed: draw the board again.
    Board,
    /// Leave the program.
    Quit,
}

/// A game being played.
pub struct Session {
    /// The language of every message.
    pub lang: Lang,
    /// How this game was set up.
    pub config: Config,
    /// The game, with its clock.
    pub game: Game,
    /// The colour shown at the bottom of the board.
    pub orientation: Color,
    engine: EngineWorker,
    source: Arc<dyn TimeSource>,
    confirming_quit: bool,
    /// Which file `guardar` without a name writes to.
    pub default_save: String,
}

impl Session {
    /// A new game as `config` says, with time from `source`.
    pub fn new(config: Config, lang: Lang, source: Arc<dyn TimeSource>) -> Result<Session, String> {
        let game = Session::build(&config, lang, &source)?;
        let orientation = match config.players {
            [PlayerKind::Engine(_), PlayerKind::Human] => Color::Black,
            _ => Color::White,
        };
        Ok(Session {
            lang,
            config,
            game,
            orientation,
            engine: EngineWorker::start(),
            source,
            confirming_quit: false,
            default_save: "partida.pgn".into(),
        })
    }

    fn build(config: &Config, lang: Lang, source: &Arc<dyn TimeSource>) -> Result<Game, String> {
        let start = match (&config.fen, config.odds) {
            (_, Some(o)) => {
                position_from_fen(&o.fen_for(config.odds_giver(o)), lang).unwrap_or_default()
            }
            (Some(f), None) => {
                position_from_fen(f, lang).map_err(|e| text(lang, &Msg::InvalidFen(&e)))?
            }
            (None, None) => Position::new(),
        };
        let clock = match &config.clock {
            Some(c) => Some(
                clock_from_text(c, Arc::clone(source), lang)
                    .map_err(|e| text(lang, &Msg::InvalidClock(&e)))?,
            ),
            None => None,
        };
        Ok(Game::new(start, config.rules, clock))
    }

    /// Starts again with `config`.
    pub fn restart(&mut self, config: Config) -> Result<Vec<Event>, String> {
        let game = Session::build(&config, self.lang, &self.source)?;
        self.engine.cancel();
        self.game = game;
        self.config = config;
        self.orientation = match self.config.players {
            [PlayerKind::Engine(_), PlayerKind::Human] => Color::Black,
            _ => Color::White,
        };
        let [w, b] = self.config.players;
        Ok(vec![self.say(Msg::NewGame(w, b)), Event::Board])
    }

    fn say(&self, m: Msg) -> Event {
        Event::Say(text(self.lang, &m))
    }

    /// Who plays `color`.
    pub fn player(&self, color: Color) -> PlayerKind {
        self.config.players[color.index()]
    }

    /// True when a person has the move in a game in progress.
    pub fn human_to_move(&self) -> bool {
        self.game.ending().is_none()
            && self.player(self.game.position().turn()) == PlayerKind::Human
    }

    /// True when leaving now would abandon a game in progress.
    pub fn in_progress(&self) -> bool {
        self.game.ending().is_none() && self.game.ply() > 0
    }

    /// The human who acts on a command: the side to move when both are
    /// people, else the one person playing.
    fn acting_human(&self) -> Option<Color> {
        let turn = self.game.position().turn();
        if self.player(turn) == PlayerKind::Human {
            Some(turn)
        } else if self.player(!turn) == PlayerKind::Human {
            Some(!turn)
        } else {
            None
        }
    }

    /// What the status line says now, most important first.
    pub fn status(&self) -> Vec<String> {
        if let Some(e) = self.game.ending() {
            return vec![text(self.lang, &Msg::GameOver(e))];
        }
        let pos = self.game.position();
        let mut out = vec![text(self.lang, &Msg::ToMove(pos.turn()))];
        if pos.is_check() {
            out.push(text(self.lang, &Msg::Check));
        }
        if self.player(pos.turn()) == PlayerKind::Human {
            for c in self.game.claims() {
                out.push(text(self.lang, &Msg::CanClaim(c)));
            }
        }
        if let Some(c) = self.game.pending_offer() {
            out.push(text(self.lang, &Msg::DrawOffered(c)));
        }
        if self.engine.is_thinking() {
            out.push(text(self.lang, &Msg::Thinking));
        }
        out
    }

    /// Time left for White and Black, when the game has a clock.
    pub fn clock_times(&self) -> Option<[Duration; 2]> {
        self.game.clock_times()
    }

    /// Whatever happens without the player: a flag falls, the engine answers
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
            let turn = self.game.position().turn();
            if self.game.ending().is_some() || self.player(turn) == PlayerKind::Human {
                return out;
            }
            if !self.engine.is_thinking() {
                // The engine's thread is gone: say so rather than wait forever.
                out.push(self.say(Msg::EngineFailed));
                return out;
            }
        }
    }

    fn advance(&mut self, wait: Duration) -> Vec<Event> {
        let mut out = Vec::new();
        if self.game.ending().is_some() {
            self.engine.cancel();
            return out;
        }
        if let Some(c) = self.check_flag() {
            out.extend(c);
            return out;
        }
        let turn = self.game.position().turn();
        let PlayerKind::Engine(level) = self.player(turn) else {
            return out;
        };
        if !self.engine.is_thinking() {
            let budget = Budget {
                level,
                clock: self.clock_times(),
                increment: self.game.increment(),
                movetime: Duration::from_millis(300 + 120 * u64::from(level)),
            };
            let history = self.game.history_keys();
            self.engine.think(self.game.position(), history, budget);
        }
        if let Some(Some(m)) = self.engine.poll(wait) {
            out.extend(self.play_move(m));
        }
        out
    }

    fn check_flag(&mut self) -> Option<Vec<Event>> {
        if !self.game.poll_clock() {
            return None;
        }
        self.engine.cancel();
        let e = self.game.ending()?;
        Some(vec![self.say(Msg::GameOver(e)), Event::Board])
    }

    /// Plays `m` for the side to move (a person's click or the engine).
    pub fn play_move(&mut self, m: Move) -> Vec<Event> {
        if let Some(ev) = self.check_flag() {
            return ev;
        }
        let before = *self.game.position();
        let san = super::backend::display_move(&before, m, self.lang);
        if let Err(why) = self.game.play(m, self.lang) {
            if let Some(e) = self.game.ending() {
                // The flag fell before the move was completed.
                self.engine.cancel();
                return vec![self.say(Msg::GameOver(e)), Event::Board];
            }
            return vec![self.say(Msg::Refused(&why))];
        }
        let mut out = vec![
            self.say(Msg::Played {
                number: before.fullmove_number(),
                color: before.turn(),
                san: &san,
            }),
            Event::Board,
        ];
        if let Some(e) = self.game.ending() {
            self.engine.cancel();
            out.push(self.say(Msg::GameOver(e)));
        }
        out
    }

    /// Handles a line the player typed: a move or a command.
    pub fn handle_line(&mut self, line: &str) -> Vec<Event> {
        let line = line.trim();
        if self.confirming_quit {
            self.confirming_quit = false;
            let answer = line.to_lowercase();
            let (first, rest) = match answer.split_once(char::is_whitespace) {
                Some((a, b)) => (
                    a.to_string(),
                    line[line.len() - b.len()..].trim().to_string(),
                ),
                None => (answer.clone(), String::new()),
            };
            return match first.as_str() {
                "s" | "si" | "sí" | "y" | "yes" => {
                    let path = if rest.is_empty() {
                        self.default_save.clone()
                    } else {
                        rest
                    };
                    let mut out = self.save(&path);
                    out.push(self.say(Msg::Bye));
                    out.push(Event::Quit);
                    out
                }
                "n" | "no" => vec![self.say(Msg::Bye), Event::Quit],
                _ => vec![Event::Board],
            };
        }
        if line.is_empty() {
            return Vec::new();
        }
        if let Some((cmd, arg)) = parse_command(line) {
            return self.command(cmd, arg);
        }
        if self.game.ending().is_some() {
            return vec![self.say(Msg::GameAlreadyOver)];
        }
        if !self.human_to_move() {
            return vec![self.say(Msg::NotYourTurn)];
        }
        match self.game.parse_move(line, self.lang) {
            Ok(m) => self.play_move(m),
            Err(why) => vec![self.say(Msg::Refused(&why))],
        }
    }

    /// Carries out a command.
    pub fn command(&mut self, cmd: Command, arg: &str) -> Vec<Event> {
        let over = self.game.ending().is_some();
        let needs_game = matches!(
            cmd,
            Command::Resign
                | Command::OfferDraw
                | Command::Accept
                | Command::Decline
                | Command::Claim
        );
        if over && needs_game {
            return vec![self.say(Msg::GameAlreadyOver)];
        }
        match cmd {
            Command::Resign => {
                let Some(c) = self.acting_human() else {
                    return vec![self.say(Msg::NotYourTurn)];
                };
                self.engine.cancel();
                self.game.resign(c);
                self.ended()
            }
            Command::OfferDraw => {
                let Some(c) = self.acting_human() else {
                    return vec![self.say(Msg::NotYourTurn)];
                };
                self.game.offer_draw(c);
                let mut out = vec![self.say(Msg::OfferMade(c))];
                if let PlayerKind::Engine(_) = self.player(!c) {
                    // The engine plays on: it declines every offer.
                    self.game.decline_draw(!c);
                    out.push(self.say(Msg::OfferDeclined));
                }
                out
            }
            Command::Accept => {
                let turn = self.game.position().turn();
                let who = if self.game.pending_offer() == Some(!turn) {
                    turn
                } else {
                    !turn
                };
                if self.player(who) == PlayerKind::Human && self.game.accept_draw(who) {
                    self.engine.cancel();
                    self.ended()
                } else {
                    vec![self.say(Msg::NoOffer)]
                }
            }
            Command::Decline => {
                let turn = self.game.position().turn();
                if self.game.decline_draw(turn) || self.game.decline_draw(!turn) {
                    vec![self.say(Msg::OfferDeclined)]
                } else {
                    vec![self.say(Msg::NoOffer)]
                }
            }
            Command::Claim => {
                if !self.human_to_move() {
                    return vec![self.say(Msg::NotYourTurn)];
                }
                // "reclamar Cf3": the claim comes with the move that will
                // produce the repetition or complete the fifty moves.
                let declared = if arg.is_empty() {
                    if self.game.claims().is_empty() {
                        return vec![self.say(Msg::NothingToClaim)];
                    }
                    None
                } else {
                    match self.game.parse_move(arg, self.lang) {
                        Ok(m) => Some(m),
                        Err(why) => return vec![self.say(Msg::Refused(&why))],
                    }
                };
                let before = *self.game.position();
                let claimed = match self.game.claim(declared, self.lang) {
                    Ok(claimed) => claimed,
                    Err(why) => return vec![self.say(Msg::Refused(&why))],
                };
                if claimed != Claimed::Rejected {
                    self.engine.cancel();
                }
                let mut out = Vec::new();
                if let Some(m) = declared {
                    let san = super::backend::display_move(&before, m, self.lang);
                    out.push(self.say(Msg::Played {
                        number: before.fullmove_number(),
                        color: before.turn(),
                        san: &san,
                    }));
                }
                if claimed == Claimed::Rejected {
                    out.push(self.say(Msg::ClaimRejected));
                    out.push(Event::Board);
                } else {
                    out.extend(self.ended());
                }
                out
            }
            Command::Undo => self.undo(),
            Command::Flip => {
                self.orientation = !self.orientation;
                vec![self.say(Msg::Flipped(self.orientation)), Event::Board]
            }
            Command::Save => {
                let path = if arg.is_empty() {
                    self.default_save.clone()
                } else {
                    arg.to_string()
                };
                self.save(&path)
            }
            Command::Load => self.load(arg),
            Command::New => {
                let config = self.config.clone();
                self.restart(config).unwrap_or_else(|e| vec![Event::Say(e)])
            }
            Command::Quit => {
                if self.in_progress() {
                    self.confirming_quit = true;
                    vec![self.say(Msg::ConfirmQuit)]
                } else {
                    vec![self.say(Msg::Bye), Event::Quit]
                }
            }
            Command::Help => vec![self.say(Msg::Help)],
            Command::Board => vec![Event::Board],
        }
    }

    /// True while the answer to "save before leaving?" is awaited.
    pub fn confirming_quit(&self) -> bool {
        self.confirming_quit
    }

    fn ended(&self) -> Vec<Event> {
        match self.game.ending() {
            Some(e) => vec![self.say(Msg::GameOver(e)), Event::Board],
            None => Vec::new(),
        }
    }

    fn undo(&mut self) -> Vec<Event> {
        let humans: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|c| self.player(*c) == PlayerKind::Human)
            .collect();
        if self.game.clock_times().is_some() || humans.is_empty() || self.game.ply() == 0 {
            return vec![self.say(Msg::CannotUndo)];
        }
        // Take back moves until a person has the move again, and at least one
        // of that person's own moves has gone.
        let mut taken = Vec::new();
        let mut undone = 0;
        while let Some(m) = self.game.undo() {
            taken.push(m);
            undone += 1;
            let turn = self.game.position().turn();
            if self.player(turn) == PlayerKind::Human {
                break;
            }
        }
        if self.player(self.game.position().turn()) != PlayerKind::Human {
            // Nothing of a person's to take back: put the moves back.
            for m in taken.into_iter().rev() {
                let _ = self.game.play(m, self.lang);
            }
            return vec![self.say(Msg::CannotUndo)];
        }
        self.engine.cancel();
        vec![self.say(Msg::Undone(undone)), Event::Board]
    }

    fn player_name(&self, c: Color) -> String {
        match self.player(c) {
            PlayerKind::Human => text(self.lang, &Msg::Player(PlayerKind::Human)),
            PlayerKind::Engine(n) => format!("escaque {n}"),
        }
    }

    fn save(&mut self, path: &str) -> Vec<Event> {
        let (w, b) = (
            self.player_name(Color::White),
            self.player_name(Color::Black),
        );
        match std::fs::write(path, self.game.to_pgn(&w, &b)) {
            Ok(()) => vec![self.say(Msg::Saved(path))],
            Err(e) => vec![self.say(Msg::FileError(path, &e.to_string()))],
        }
    }

    fn load(&mut self, arg: &str) -> Vec<Event> {
        let arg = arg.trim();
        // A FEN typed in place.
        if arg.contains('/') && arg.split_whitespace().count() >= 2 {
            return match position_from_fen(arg, self.lang) {
                Ok(pos) => {
                    self.engine.cancel();
                    self.config.fen = Some(pos.to_fen());
                    self.config.odds = None;
                    self.game = Game::new(pos, self.config.rules, None);
                    self.config.clock = None;
                    vec![self.say(Msg::Loaded("FEN")), Event::Board]
                }
                Err(e) => vec![self.say(Msg::InvalidFen(&e))],
            };
        }
        let content = match std::fs::read_to_string(arg) {
            Ok(c) => c,
            Err(e) => return vec![self.say(Msg::FileError(arg, &e.to_string()))],
        };
        if let Ok(pos) = position_from_fen(content.trim(), self.lang) {
            self.engine.cancel();
            self.config.fen = Some(pos.to_fen());
            self.config.odds = None;
            self.game = Game::new(pos, self.config.rules, None);
            self.config.clock = None;
            return vec![self.say(Msg::Loaded(arg)), Event::Board];
        }
        match Game::from_pgn(
            &content,
            self.config.rules,
            Arc::clone(&self.source),
            self.lang,
        ) {
            Ok(game) => {
                self.engine.cancel();
                self.game = game;
                vec![self.say(Msg::Loaded(arg)), Event::Board]
            }
            Err(e) => vec![self.say(Msg::FileError(arg, &e))],
        }
    }
}
