//! The sealed move (FIDE Laws, Guidelines I, adjourned games).
//!
//! When play stops, the player to move writes a *sealed move* that the
//! opponent does not see; the clocks stop. When play resumes, the arbiter
//! opens the envelope, the sealed move is played and the clock of the player
//! to reply starts. A sealed move that is illegal, ambiguous or unreadable
//! loses the game for the player who sealed it, unless the opponent could not
//! mate by any series of legal moves: then it is a draw.
//!
//! * [`Game::adjourn_sealed`] takes the text as the player wrote it (Spanish
//!   or English SAN, or coordinates), **not validated**: validation happens at
//!   the opening, as over the board. The time used to seal is the sealer's:
//!   the sealer's clock runs until the adjournment and that time is charged
//!   when the envelope is opened.
//! * The envelope in the saved PGN: two tags, `EscaqueSealedBy` (`White` or
//!   `Black`) and `EscaqueSealedMove`, the text's UTF-8 bytes in hexadecimal.
//!   The movetext ends before the sealed move, so a reader of the moves (or a
//!   program replaying them) does not see it, and the tag does not show it at
//!   a glance. It is an envelope, not encryption: whoever holds the file and
//!   decodes the tag can read it, as whoever holds the paper envelope can open
//!   it.
//! * [`resume_sealed`] reads the file back: the game with its clock (as
//!   [`Game::resume_from_pgn`]) and the envelope, still closed.
//! * [`Adjourned::open`] opens it: the text is read with the library's move
//!   reader ([`read_move`]: SAN in either language, then coordinates), played
//!   if legal and unambiguous; otherwise the game ends with the Guidelines'
//!   verdict, [`Termination::IllegalSealedMove`](crate::Termination::IllegalSealedMove), a loss for the sealer or a
//!   draw if the opponent could not mate ([`crate::dead::could_not_mate`], the
//!   dead-position decision of [`crate::dead`]).
//!
//! ```
//! use std::sync::Arc;
//! use escaque::sealed::{resume_sealed, Opening};
//! use escaque::{Clock, FakeTime, Game, SanLang, TimeControl};
//!
//! let t = FakeTime::new();
//! let clock = Clock::new(TimeControl::parse("90").unwrap(), Arc::new(t.clone()));
//! let mut game = Game::new().with_clock(clock);
//! game.start_clock();
//! game.play_san("e4", SanLang::Auto).unwrap();
//! t.advance_secs(30); // Black thinks, then seals
//! let pgn = game.adjourn_sealed("c5").unwrap();
//! assert!(!pgn.contains("c5"));
//! let adjourned = resume_sealed(&pgn, Arc::new(FakeTime::new())).unwrap();
//! let (game, opening) = adjourned.open();
//! assert!(matches!(opening, Opening::Played { .. }));
//! assert_eq!(game.moves().len(), 2);
//! ```

use std::sync::Arc;

use crate::adjourn::ResumeError;
use crate::game::{Game, GameError, Outcome};
use crate::read::{MoveError, Notation};
use crate::{Color, Move, Position, SanLang, TimeSource};

const SEALED_BY_TAG: &str = "EscaqueSealedBy";
const SEALED_MOVE_TAG: &str = "EscaqueSealedMove";

/// A closed envelope: who sealed and the text as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SealedMove {
    by: Color,
    text: String,
}

impl SealedMove {
    /// An envelope kept elsewhere (a server's database): `by` sealed `text`,
    /// as written. Opened with [`Adjourned::open`], as a file's envelope is.
    pub fn new(by: Color, text: impl Into<String>) -> SealedMove {
        SealedMove {
            by,
            text: text.into(),
        }
    }

    /// Who sealed the move.
    pub fn by(&self) -> Color {
        self.by
    }

    /// The text as the player wrote it (this opens the envelope for reading;
    /// [`Adjourned::open`] also plays it).
    pub fn reveal(&self) -> &str {
        &self.text
    }
}

/// A game resumed from a file, with its envelope if it has one.
#[derive(Clone, Debug)]
pub struct Adjourned {
    /// The game as adjourned (its clock paused).
    pub game: Game,
    /// The sealed move, still closed.
    pub sealed: Option<SealedMove>,
}

/// What the opening of the envelope brought.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// No sealed move: the game goes on with the player to move.
    NoEnvelope,
    /// The sealed move was legal and unambiguous and has been played; the
    /// clock of the player to reply runs.
    Played {
        /// The move.
        mv: Move,
        /// What it ended, if anything (a mate, a dead position…).
        outcome: Option<Outcome>,
    },
    /// The sealed move was illegal, ambiguous or unreadable: the game is over
    /// (a loss for the sealer, or a draw if the opponent could not mate).
    Forfeit {
        /// Why the text was not a move here.
        error: MoveError,
        /// The verdict.
        outcome: Outcome,
    },
}

/// How a sealed move is read: the library's one reader
/// ([`crate::read::read_move`]) with no preferred language, so that a text
/// that means two different legal moves in Spanish and in English is
/// ambiguous, as the arbiter would rule it.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    crate::read::read_move(pos, text, Notation::Any(SanLang::Auto))
}

impl Game {
    /// Adjourns with a sealed move: the player to move's `text`, kept as
    /// written. Pauses the clock (the time used so far, sealing included, is
    /// the sealer's) and returns the PGN with the envelope (see the module
    /// documentation).
    pub fn adjourn_sealed(&mut self, text: &str) -> Result<String, GameError> {
        self.poll_clock();
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        let by = self.position().turn();
        if let Some(c) = self.clock_mut() {
            c.pause();
        }
        let mut pg = self.to_pgn_game();
        pg.set_tag(SEALED_BY_TAG, by.fold("White", "Black"));
        pg.set_tag(SEALED_MOVE_TAG, &to_hex(text));
        Ok(crate::pgn::write_game_string(
            &pg,
            crate::pgn::PgnStyle::export(),
        ))
    }
}

/// Resumes a game adjourned with [`Game::adjourn_sealed`] (or
/// [`Game::adjourn`]: then without an envelope). The envelope stays closed
/// until [`Adjourned::open`].
pub fn resume_sealed(text: &str, source: Arc<dyn TimeSource>) -> Result<Adjourned, ResumeError> {
    let game = Game::resume_from_pgn(text, source)?;
    let pg = crate::pgn::PgnReader::new(text.as_bytes())
        .next_game()
        .ok_or(ResumeError::NoGame)?
        .map_err(ResumeError::Pgn)?;
    let sealed = match (pg.tag(SEALED_BY_TAG), pg.tag(SEALED_MOVE_TAG)) {
        (None, None) => None,
        (Some(by), Some(hex)) => {
            let by = match by {
                "White" => Color::White,
                "Black" => Color::Black,
                _ => return Err(bad_envelope(SEALED_BY_TAG, by)),
            };
            if by != game.position().turn() {
                return Err(bad_envelope(
                    SEALED_BY_TAG,
                    pg.tag(SEALED_BY_TAG).unwrap_or(""),
                ));
            }
            let text = from_hex(hex).ok_or_else(|| bad_envelope(SEALED_MOVE_TAG, hex))?;
            Some(SealedMove { by, text })
        }
        (Some(v), None) => return Err(bad_envelope(SEALED_MOVE_TAG, v)),
        (None, Some(v)) => return Err(bad_envelope(SEALED_BY_TAG, v)),
    };
    Ok(Adjourned { game, sealed })
}

fn bad_envelope(tag: &'static str, value: &str) -> ResumeError {
    ResumeError::BadEnvelope {
        tag,
        value: value.to_string(),
    }
}

impl Adjourned {
    /// Opens the envelope when play resumes: plays the sealed move if legal
    /// and unambiguous (the sealer's clock is charged with its thinking time,
    /// the opponent's starts); otherwise ends the game with the Guidelines'
    /// verdict.
    pub fn open(self) -> (Game, Opening) {
        let mut game = self.game;
        let Some(sealed) = self.sealed else {
            return (game, Opening::NoEnvelope);
        };
        let pos = *game.position();
        match read_move(&pos, &sealed.text) {
            Ok(mv) => match game.play(mv) {
                Ok(outcome) => (game, Opening::Played { mv, outcome }),
                Err(e) => {
                    // A flag that fell before the adjournment: that ending stands.
                    let outcome = game.outcome().unwrap_or_else(|| {
                        debug_assert!(false, "legal move refused: {e:?}");
                        game.forfeit_sealed(sealed.by)
                    });
                    (
                        game,
                        Opening::Played {
                            mv,
                            outcome: Some(outcome),
                        },
                    )
                }
            },
            Err(error) => {
                let outcome = game.forfeit_sealed(sealed.by);
                (game, Opening::Forfeit { error, outcome })
            }
        }
    }
}

fn to_hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(hex: &str) -> Option<String> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect();
    String::from_utf8(bytes?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_envelope_kept_elsewhere_opens_as_a_files() {
        use crate::{Clock, FakeTime, TimeControl};
        let t = FakeTime::new();
        let clock = Clock::new(TimeControl::parse("90").unwrap(), Arc::new(t.clone()));
        let mut game = Game::new().with_clock(clock);
        game.start_clock();
        game.play_san("e4", SanLang::Auto).unwrap();
        t.advance_secs(30);
        let pgn = game.adjourn_sealed("Cc6").unwrap();
        let from_file = resume_sealed(&pgn, Arc::new(FakeTime::new())).unwrap();
        let kept = SealedMove::new(Color::Black, "Cc6");
        assert_eq!(from_file.sealed.as_ref(), Some(&kept));
        let in_memory = Adjourned {
            game: game.clone(),
            sealed: Some(kept),
        };
        let (a, oa) = from_file.open();
        let (b, ob) = in_memory.open();
        assert_eq!(oa, ob);
        assert!(matches!(ob, Opening::Played { .. }));
        assert_eq!(a.position(), b.position());
        // The 30 s of thinking and sealing are Black's, in both.
        let (ca, cb) = (a.clock().unwrap().peek(), b.clock().unwrap().peek());
        assert_eq!(cb.black.as_secs(), 90 * 60 - 30);
        assert_eq!(ca.black, cb.black);
        assert_eq!(ca.running, Some(Color::White));
        assert_eq!(cb.running, Some(Color::White));
    }

    #[test]
    fn hex_round_trip() {
        for t in ["Cd2", "e2e4", "O-O", "ñ á", ""] {
            assert_eq!(from_hex(&to_hex(t)).as_deref(), Some(t));
        }
        assert_eq!(from_hex("zz"), None);
        assert_eq!(from_hex("abc"), None);
    }
}
