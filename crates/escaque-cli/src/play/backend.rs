//! The seam between the terminal game and the library: every rule, notation
//! and result the interface shows comes through here from the `escaque` crate.
//! The interface never looks at a rule itself.

use escaque::{Color, Lang, Localized, Move, Position, Square};

use crate::i18n::{ClaimKind, EndReason, Ending, Outcome};

/// The rule set of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RuleChoice {
    /// FIDE Laws of Chess 2023.
    Fide2023,
    /// The London Chess Club rules of 1846.
    London1846,
}

impl RuleChoice {
    /// The name shown to the player.
    pub fn name(self) -> &'static str {
        match self {
            RuleChoice::Fide2023 => "FIDE 2023",
            RuleChoice::London1846 => "Londres 1846",
        }
    }

    /// Reads `fide` / `londres1846` (and English `london1846`).
    pub fn parse(s: &str) -> Option<RuleChoice> {
        match s.to_lowercase().replace([' ', '-', '_'], "").as_str() {
            "fide" | "fide2023" => Some(RuleChoice::Fide2023),
            "londres" | "londres1846" | "london" | "london1846" => Some(RuleChoice::London1846),
            _ => None,
        }
    }
}

/// A game in progress: the position, its history and how it ended.
pub struct Game {
    rules: RuleChoice,
    moves: Vec<Move>,
    /// positions[0] is the start; positions[i + 1] follows moves[i].
    positions: Vec<Position>,
    ending: Option<Ending>,
    offer: Option<Color>,
}

impl Game {
    /// A new game from `start`.
    pub fn new(start: Position, rules: RuleChoice) -> Game {
        let mut g = Game {
            rules,
            moves: Vec::new(),
            positions: vec![start],
            ending: None,
            offer: None,
        };
        g.ending = g.automatic_ending();
        g
    }

    /// The rule set.
    pub fn rules(&self) -> RuleChoice {
        self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("never empty")
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// Zobrist keys of the positions before the current one, oldest first.
    pub fn history_keys(&self) -> Vec<u64> {
        let n = self.positions.len();
        self.positions[..n - 1]
            .iter()
            .map(|p| p.zobrist())
            .collect()
    }

    /// The moves for display, each with its move number and colour.
    pub fn move_list(&self, lang: Lang) -> Vec<(u32, Color, String)> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(m, p)| (p.fullmove_number(), p.turn(), display_move(p, *m, lang)))
            .collect()
    }

    /// The legal moves from `from`.
    pub fn moves_from(&self, from: Square) -> Vec<Move> {
        if self.ending.is_some() {
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

    /// Plays `m`; the error tells why it is not legal.
    pub fn play(&mut self, m: Move, lang: Lang) -> Result<(), String> {
        let mut next = *self.position();
        next.play(m).map_err(|e| e.reason.message(lang))?;
        self.moves.push(m);
        self.positions.push(next);
        // An offer lapses when the opponent moves instead of answering.
        if self.offer.is_some_and(|c| c != !self.position().turn()) {
            self.offer = None;
        }
        self.ending = self.automatic_ending();
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.ending = None;
        self.offer = None;
        Some(m)
    }

    /// How the game ended, if it did.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The draws the side to move may claim now.
    pub fn claims(&self) -> Vec<ClaimKind> {
        // Repetition and fifty-move claims come from the arbiter's Game.
        Vec::new()
    }

    /// Claims a draw for the side to move.
    pub fn claim(&mut self) -> Option<Ending> {
        let kind = *self.claims().first()?;
        let reason = match kind {
            ClaimKind::Threefold => EndReason::Threefold,
            ClaimKind::FiftyMoves => EndReason::FiftyMoves,
        };
        self.ending = Some(Ending {
            outcome: Outcome::Draw,
            reason,
        });
        self.ending
    }

    /// `color` resigns.
    pub fn resign(&mut self, color: Color) {
        let outcome = if self.position().has_insufficient_material(!color) {
            Outcome::Draw
        } else {
            win_for(!color)
        };
        self.ending = Some(Ending {
            outcome,
            reason: EndReason::Resignation(color),
        });
    }

    /// `color`'s flag fell.
    pub fn flag(&mut self, color: Color) {
        let outcome = if self.position().has_insufficient_material(!color) {
            Outcome::Draw
        } else {
            win_for(!color)
        };
        self.ending = Some(Ending {
            outcome,
            reason: EndReason::Time(color),
        });
    }

    /// The side that offered a draw still standing.
    pub fn pending_offer(&self) -> Option<Color> {
        self.offer
    }

    /// `color` offers a draw.
    pub fn offer_draw(&mut self, color: Color) {
        self.offer = Some(color);
    }

    /// `color` accepts the opponent's offer; false when there is none.
    pub fn accept_draw(&mut self, color: Color) -> bool {
        if self.offer == Some(!color) {
            self.ending = Some(Ending {
                outcome: Outcome::Draw,
                reason: EndReason::Agreement,
            });
            self.offer = None;
            true
        } else {
            false
        }
    }

    /// `color` declines the opponent's offer; false when there is none.
    pub fn decline_draw(&mut self, color: Color) -> bool {
        if self.offer == Some(!color) {
            self.offer = None;
            true
        } else {
            false
        }
    }

    /// The game as PGN text.
    pub fn to_pgn(&self, _white: &str, _black: &str) -> Result<String, ()> {
        Err(())
    }

    /// A game read from PGN text.
    pub fn from_pgn(_text: &str, _rules: RuleChoice, _lang: Lang) -> Result<Game, Option<String>> {
        Err(None)
    }

    fn automatic_ending(&self) -> Option<Ending> {
        let pos = self.position();
        if pos.is_checkmate() {
            Some(Ending {
                outcome: win_for(!pos.turn()),
                reason: EndReason::Checkmate,
            })
        } else if pos.is_stalemate() {
            Some(Ending {
                outcome: Outcome::Draw,
                reason: EndReason::Stalemate,
            })
        } else if pos.is_insufficient_material() {
            Some(Ending {
                outcome: Outcome::Draw,
                reason: EndReason::DeadPosition,
            })
        } else {
            None
        }
    }
}

fn win_for(c: Color) -> Outcome {
    match c {
        Color::White => Outcome::WhiteWins,
        Color::Black => Outcome::BlackWins,
    }
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

#[allow(dead_code)] // until the library clock is wired in
/// Where clocks read the time (the library's time source once it lands).
pub trait TimeSource: Send + Sync {
    /// Time since a fixed origin; never goes backwards.
    fn now(&self) -> std::time::Duration;
}

/// The system's monotonic clock.
#[allow(dead_code)]
pub struct MonotonicTime(std::time::Instant);

impl MonotonicTime {
    /// A source whose origin is now.
    pub fn new() -> MonotonicTime {
        MonotonicTime(std::time::Instant::now())
    }
}

impl TimeSource for MonotonicTime {
    fn now(&self) -> std::time::Duration {
        self.0.elapsed()
    }
}

/// The chess clock of a game.
pub struct GameClock {
    text: String,
}

impl GameClock {
    /// A clock for the time control written as `text` (`5+3`).
    pub fn parse(
        text: &str,
        _source: std::sync::Arc<dyn TimeSource>,
        lang: Lang,
    ) -> Result<GameClock, String> {
        let _ = GameClock {
            text: text.to_string(),
        };
        Err(lang
            .pick(
                "el reloj todavía no está disponible",
                "the clock is not available yet",
            )
            .to_string())
    }

    /// The time control as text.
    pub fn label(&self) -> &str {
        &self.text
    }

    /// Time left for each side, and whose flag fell.
    pub fn read(&mut self) -> ([std::time::Duration; 2], Option<Color>) {
        ([std::time::Duration::ZERO; 2], None)
    }

    /// The side that moved presses its clock.
    pub fn press(&mut self) -> Result<(), Color> {
        Ok(())
    }
}
