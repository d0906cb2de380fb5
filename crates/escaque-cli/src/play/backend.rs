//! The seam between the terminal game and the library: every rule, notation
//! and result the interface shows comes through here from the `escaque` crate.
//! The interface never looks at a rule itself.

use std::sync::Arc;
use std::time::Duration;

use escaque::game::{ClaimResult, DrawClaim, GameResult, Termination};
use escaque::pgn::{PgnReader, PgnStyle};
use escaque::{Clock, Color, Lang, Localized, Move, Position, RuleSet, Square, TimeControl};

pub use escaque::{MonotonicTime, TimeSource};

use crate::i18n::{ClaimKind, EndReason, Ending, Outcome};

/// The rule set of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RuleChoice {
    /// FIDE Laws of Chess 2023.
    Fide2023,
    /// The London Chess Club rules of 1846.
    London1846,
    /// London 1846 with the English custom of art. xvi: stalemate wins.
    London1846English,
}

impl RuleChoice {
    /// Every choice, in the menu's order.
    pub const ALL: [RuleChoice; 3] = [
        RuleChoice::Fide2023,
        RuleChoice::London1846,
        RuleChoice::London1846English,
    ];

    /// The name shown to the player, from the library's rule set.
    pub fn name_in(self, lang: escaque::Lang) -> &'static str {
        self.rule_set().name_in(lang)
    }

    /// The library's rule set.
    pub fn rule_set(self) -> RuleSet {
        match self {
            RuleChoice::Fide2023 => RuleSet::fide_2023(),
            RuleChoice::London1846 => RuleSet::londres_1846(),
            RuleChoice::London1846English => RuleSet::londres_1846_inglaterra(),
        }
    }

    /// Reads `fide` / `londres1846` (and English `london1846`).
    pub fn parse(s: &str) -> Option<RuleChoice> {
        match s.to_lowercase().replace([' ', '-', '_'], "").as_str() {
            "fide" | "fide2023" => Some(RuleChoice::Fide2023),
            "londres" | "londres1846" | "london" | "london1846" => Some(RuleChoice::London1846),
            "londres1846inglaterra" | "london1846english" => Some(RuleChoice::London1846English),
            _ => None,
        }
    }
}

/// What came of a claim.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Claimed {
    /// The game is drawn.
    Granted,
    /// The claim was wrong: the game goes on and the claim stands as a draw
    /// offer (a declared move was played).
    Rejected,
    /// The declared move ended the game by itself.
    Ended,
}

/// A game in progress: the library's [`escaque::Game`] with its clock, and a
/// result read from a PGN that the moves alone do not show (a resignation).
pub struct Game {
    inner: escaque::Game,
    rules: RuleChoice,
    recorded: Option<Ending>,
}

impl Game {
    /// A new game from `start`, with a clock when `clock` is given (started
    /// at once: the side to move is thinking).
    pub fn new(start: Position, rules: RuleChoice, clock: Option<Clock>) -> Game {
        let mut inner = escaque::Game::from_position(start).with_rules(rules.rule_set());
        if let Some(c) = clock {
            inner = inner.with_clock(c);
            inner.start_clock();
        }
        Game {
            inner,
            rules,
            recorded: None,
        }
    }

    /// The rule set.
    pub fn rules(&self) -> RuleChoice {
        self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.inner.position()
    }

    /// The number of half-moves played.
    pub fn ply(&self) -> usize {
        self.inner.moves().len()
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        self.inner.moves().last().map(|r| r.mv)
    }

    /// Zobrist keys of the positions before the current one, oldest first.
    pub fn history_keys(&self) -> Vec<u64> {
        let mut keys = vec![self.inner.start_position().zobrist()];
        keys.extend(self.inner.moves().iter().map(|r| r.hash));
        keys.pop();
        keys
    }

    /// The moves for display, each with its move number and colour.
    pub fn move_list(&self, lang: Lang) -> Vec<(u32, Color, String)> {
        let mut pos = *self.inner.start_position();
        let mut out = Vec::with_capacity(self.ply());
        for r in self.inner.moves() {
            out.push((
                pos.fullmove_number(),
                pos.turn(),
                display_move(&pos, r.mv, lang),
            ));
            pos.play_unchecked(r.mv);
        }
        out
    }

    /// The legal moves from `from` (none once the game is over).
    pub fn moves_from(&self, from: Square) -> Vec<Move> {
        if self.ending().is_some() {
            return Vec::new();
        }
        self.position()
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| m.from() == from)
            .collect()
    }

    /// Reads what a player typed as a move: SAN in the player's language or
    /// the other one, or coordinates. The error is a reason for the player.
    pub fn parse_move(&self, text: &str, lang: Lang) -> Result<Move, String> {
        parse_move(self.position(), text, lang)
    }

    /// Plays `m`; the error tells why it was refused. A flag that fell before
    /// the move ends the game (see [`Game::ending`]).
    pub fn play(&mut self, m: Move, lang: Lang) -> Result<(), String> {
        match self.inner.play(m) {
            Ok(_) => Ok(()),
            Err(escaque::GameError::Illegal(e)) => Err(e.reason.message(lang)),
            Err(e) => Err(e.message(lang)),
        }
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        self.recorded = None;
        self.inner.undo().ok()
    }

    /// How the game ended, if it did.
    pub fn ending(&self) -> Option<Ending> {
        self.inner.outcome().map(ending_of).or(self.recorded)
    }

    /// The draws the side to move may claim now.
    pub fn claims(&self) -> Vec<ClaimKind> {
        if self.ending().is_some() {
            return Vec::new();
        }
        self.inner
            .claimable()
            .into_iter()
            .map(|c| match c {
                DrawClaim::Threefold => ClaimKind::Threefold,
                DrawClaim::FiftyMoves => ClaimKind::FiftyMoves,
            })
            .collect()
    }

    /// The side to move claims a draw on the position on the board, or with
    /// the move `declared` that will produce it.
    pub fn claim(&mut self, declared: Option<Move>, lang: Lang) -> Result<Claimed, String> {
        let r = match declared {
            Some(m) => self.inner.claim_draw_with_move(m),
            None => self.inner.claim_draw(),
        };
        match r {
            Ok(ClaimResult::Granted(_)) => Ok(Claimed::Granted),
            Ok(ClaimResult::Rejected) => Ok(Claimed::Rejected),
            Ok(ClaimResult::Ended(_)) => Ok(Claimed::Ended),
            Err(escaque::GameError::Illegal(e)) => Err(e.reason.message(lang)),
            Err(e) => Err(e.message(lang)),
        }
    }

    /// `color` resigns.
    pub fn resign(&mut self, color: Color) {
        let _ = self.inner.resign(color);
    }

    /// Reads the clock: true if a flag fell now (the game is then over).
    pub fn poll_clock(&mut self) -> bool {
        self.inner.poll_clock().is_some()
    }

    /// Time left for White and Black, when the game has a clock.
    pub fn clock_times(&self) -> Option<[Duration; 2]> {
        let r = self.inner.clock()?.peek();
        Some([r.white, r.black])
    }

    /// The time control, as text (`5+3`).
    pub fn clock_label(&self) -> Option<String> {
        self.inner.clock().map(|c| c.control().to_string())
    }

    /// The increment the side to move gets, for the engine's time planning.
    pub fn increment(&self) -> Duration {
        let Some(c) = self.inner.clock() else {
            return Duration::ZERO;
        };
        let control = c.control();
        let done = c.moves_made(self.position().turn());
        match control.periods()[control.period_index(done)].bonus {
            escaque::clock::Bonus::Increment(d) | escaque::clock::Bonus::Bronstein(d) => d,
            _ => Duration::ZERO,
        }
    }

    /// The side that offered a draw still standing.
    pub fn pending_offer(&self) -> Option<Color> {
        self.inner.draw_offer()
    }

    /// `color` offers a draw (accepting the opponent's, if there is one).
    pub fn offer_draw(&mut self, color: Color) {
        let _ = self.inner.offer_draw(color);
    }

    /// `color` accepts the opponent's offer; false when there is none.
    pub fn accept_draw(&mut self, color: Color) -> bool {
        self.inner.accept_draw(color).is_ok()
    }

    /// `color` declines the opponent's offer; false when there is none.
    pub fn decline_draw(&mut self, color: Color) -> bool {
        self.inner.decline_draw(color).is_ok()
    }

    /// The game as PGN (export format: English SAN) with the players' names,
    /// and, as the library writes it, the start position if it is not the
    /// usual one, the rule set and the clock times (`[%clk]`, `TimeControl`,
    /// both remaining times) so that a game in progress can be resumed.
    pub fn to_pgn(&self, white: &str, black: &str) -> String {
        let mut g = self.inner.to_pgn_game();
        g.set_tag("Event", "escaque");
        g.set_tag("White", white);
        g.set_tag("Black", black);
        let result = self.ending().map(|e| e.outcome.pgn()).unwrap_or("*");
        g.set_tag("Result", result);
        g.result = Some(result.to_string());
        if let Some(e) = self.ending() {
            g.set_tag("Termination", termination_tag(e.reason));
        }
        escaque::pgn::write_game_string(&g, PgnStyle::export())
    }

    /// The first game of a PGN text, resumed as the library does it (rule set
    /// from the `Rules` tag, or `rules`; clock times restored and running). A
    /// decisive `Result` that the moves do not show (a resignation) is kept.
    pub fn from_pgn(
        text: &str,
        rules: RuleChoice,
        source: Arc<dyn TimeSource>,
        lang: Lang,
    ) -> Result<Game, String> {
        let mut inner =
            escaque::Game::resume_from_pgn(text, source).map_err(|e| e.message(lang))?;
        let pgn = PgnReader::new(text.as_bytes())
            .next_game()
            .and_then(Result::ok)
            .unwrap_or_default();
        let rules = if pgn.tag("Rules").is_some() {
            RuleChoice::ALL
                .into_iter()
                .find(|r| r.rule_set() == *inner.rules())
                .unwrap_or(rules)
        } else {
            inner = inner.with_rules(rules.rule_set());
            rules
        };
        inner.start_clock();
        let mut game = Game {
            inner,
            rules,
            recorded: None,
        };
        if game.ending().is_none() {
            let outcome = match pgn.result.as_deref().or(pgn.tag("Result")) {
                Some("1-0") => Some(Outcome::WhiteWins),
                Some("0-1") => Some(Outcome::BlackWins),
                Some("1/2-1/2") => Some(Outcome::Draw),
                _ => None,
            };
            game.recorded = outcome.map(|outcome| Ending {
                outcome,
                reason: EndReason::Other,
            });
        }
        Ok(game)
    }
}

fn ending_of(o: escaque::Outcome) -> Ending {
    let outcome = match o.result {
        GameResult::WhiteWins => Outcome::WhiteWins,
        GameResult::BlackWins => Outcome::BlackWins,
        GameResult::Draw => Outcome::Draw,
    };
    let reason = match o.termination {
        Termination::Checkmate => EndReason::Checkmate,
        Termination::Resignation { by } => EndReason::Resignation(by),
        Termination::Stalemate => EndReason::Stalemate,
        Termination::DeadPosition => EndReason::DeadPosition,
        Termination::FivefoldRepetition => EndReason::Fivefold,
        Termination::SeventyFiveMoves => EndReason::SeventyFiveMoves,
        Termination::ThreefoldRepetition => EndReason::Threefold,
        Termination::FiftyMoves | Termination::AgreedFiftyMoves => EndReason::FiftyMoves,
        Termination::Agreement => EndReason::Agreement,
        Termination::Time { flagged } => EndReason::Time(flagged),
        // The terminal has no sealed moves yet (issue 16, the lead's part):
        // shown as the sealer's defeat until it has its own wording.
        Termination::IllegalSealedMove { by } => EndReason::Resignation(by),
    };
    Ending { outcome, reason }
}

fn termination_tag(r: EndReason) -> &'static str {
    match r {
        EndReason::Time(_) => "time forfeit",
        _ => "normal",
    }
}

/// A clock for the time control written as `text` (`5+3`, `90+30`,
/// `40/90+30, 30+30`), reading time from `source`.
pub fn clock_from_text(
    text: &str,
    source: Arc<dyn TimeSource>,
    lang: Lang,
) -> Result<Clock, String> {
    let tc = TimeControl::parse(text).map_err(|e| e.message(lang))?;
    Ok(Clock::new(tc, source))
}

/// `m` (legal in `pos`) as a player reads it: SAN in `lang`, with `a.p.`
/// after an en passant capture in Spanish.
pub fn display_move(pos: &Position, m: Move, lang: Lang) -> String {
    escaque::san::san_display(pos, m, lang)
}

/// Reads a typed move in `pos`: coordinates (`g1f3`, `e7e8d`), or SAN in the
/// player's language, or else in the other one (`Cf3` and `Nf3` both work; a
/// text that is legal in the player's language is read in it). The error, in
/// `lang`, says why the text is not a legal move.
pub fn parse_move(pos: &Position, text: &str, lang: Lang) -> Result<Move, String> {
    use escaque::coord::parse_coord;
    use escaque::san::parse_san;
    use escaque::{CoordError, SanError, SanLang};

    match parse_coord(pos, text) {
        Ok(m) => return Ok(m),
        Err(e @ CoordError::Illegal { .. }) => return Err(e.message(lang)),
        Err(CoordError::Unknown { .. }) => {}
    }
    let other = match lang {
        Lang::Es => Lang::En,
        Lang::En => Lang::Es,
    };
    let first = match parse_san(pos, text, SanLang::from(lang)) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    match parse_san(pos, text, SanLang::from(other)) {
        Ok(m) => Ok(m),
        Err(second) => match (&first, &second) {
            (SanError::Unknown { .. }, SanError::Unknown { .. }) => Err(lang.pick(
                format!(
                    "«{}» no es una jugada: escribe por ejemplo Cf3, exd5, 0-0, e8=D o g1f3",
                    text.trim()
                ),
                format!(
                    "\"{}\" is not a move: write for example Nf3, exd5, O-O, e8=Q or g1f3",
                    text.trim()
                ),
            )),
            (SanError::Unknown { .. }, _) => Err(second.message(lang)),
            _ => Err(first.message(lang)),
        },
    }
}

/// A position from a FEN, with the error in the player's language.
pub fn position_from_fen(fen: &str, lang: Lang) -> Result<Position, String> {
    Position::from_fen(fen.trim()).map_err(|e| e.message(lang))
}
