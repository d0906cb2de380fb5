//! A game: its moves, its clock, its draw offers and claims, and how it ended.
//!
//! [`Game`] applies the endings of the FIDE Laws (2023) or of the London rules
//! of 1846 (see [`crate::rules`]):
//!
//! | ending | when | result |
//! |---|---|---|
//! | checkmate (5.1.1) | after the move | the mating side wins |
//! | resignation (5.1.2) | [`Game::resign`], at any moment, either side | the opponent wins; a draw if the opponent could not mate by any series of legal moves ([`could_not_mate`]) |
//! | stalemate (5.2.1) | after the move | draw (London "inglaterra": the stalemated side wins) |
//! | dead position (5.2.2) | after the move | draw; see [`proves_dead`] and [`crate::dead`] |
//! | fivefold repetition (9.6.1) | after the move, FIDE only | draw |
//! | seventy-five moves (9.6.2) | after the move, FIDE only; a mate on the last move stands | draw |
//! | threefold repetition (9.2) | [`Game::claim_draw`] / [`Game::claim_draw_with_move`] | draw |
//! | fifty moves (9.3) | the same, FIDE only | draw |
//! | agreed fifty moves (London xvii) | [`Game::agree_fifty_move_count`], then 50 moves each | draw |
//! | agreement (9.1) | [`Game::offer_draw`] then [`Game::accept_draw`] | draw |
//! | time (6.9) | the flag falls at a clock reading | the opponent wins; a draw if the opponent could not mate by any series of legal moves ([`could_not_mate`]) |
//! | illegal sealed move (Guidelines I) | an adjourned game resumes with a sealed move that is illegal, ambiguous or unreadable | the opponent wins; a draw if the opponent could not mate |
//! | recorded | a record (PGN, arbiter) gives the result without showing why | as recorded |
//! | aborted | a server calls the game off before both sides moved ([`Termination::Aborted`]) | none |
//! | abandoned | a player left (a server's disconnection grace ran out) and the opponent claimed ([`Termination::Abandoned`]) | the opponent wins, or a draw if the opponent asked for one |
//!
//! Every ending has one stable identifier, [`Termination::id`], read back by
//! [`Termination::from_id`] with the side a resignation, a flag, a sealed move
//! or an abandonment names ([`Termination::side`]).
//!
//! "The same position" (9.2.3) means the same side to move, the same pieces on
//! the same squares, the same castling rights and the same *possibility* of an
//! en passant capture. Repetitions are found by a hash with exactly that
//! meaning ([`repetition_key`]) over the stretch since the last capture or pawn
//! move, and confirmed by comparing the positions.
//!
//! A claim that turns out to be incorrect counts as a draw offer (9.1.2.3), the
//! opponent gets two more minutes (9.5.3), and a declared move is played.
//! A draw offer lapses when the opponent makes a move instead of answering it;
//! it cannot be withdrawn.
//!
//! [`could_not_mate`]: crate::dead::could_not_mate
//! [`proves_dead`]: crate::dead::proves_dead

use core::time::Duration;

use crate::attacks::pawn_attacks;
use crate::clock::{Clock, ClockReading, ClockSnapshot, FlagFell};
use crate::rules::{FiftyMoveRule, RuleSet, StalemateRule};
use crate::san::MoveError;
use crate::san::SanLang;
use crate::{zobrist, Color, FenError, IllegalMove, Lang, Move, Position, Role};

/// The score of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// ½-½.
    Draw,
}

impl GameResult {
    /// A win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        color.fold(GameResult::WhiteWins, GameResult::BlackWins)
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The PGN result text: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result as a person reads it: `1-0`, `0-1`, `½-½`.
    pub fn display(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "½-½",
        }
    }
}

/// A text that is not a game result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseResultError {
    /// The text as given.
    pub text: String,
}

impl core::str::FromStr for GameResult {
    type Err = ParseResultError;

    /// Reads `1-0`, `0-1`, `1/2-1/2`, `½-½` (spaces around the dash allowed).
    /// `*` (a game in progress) is not a result: see [`GameResult::from_pgn`].
    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        match t.as_str() {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Ok(GameResult::Draw),
            _ => Err(ParseResultError { text: s.into() }),
        }
    }
}

impl GameResult {
    /// A PGN result token or `Result` tag: `Some` result, or `None` for `*`
    /// and anything else (a game whose result is unknown or still open).
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        text.parse().ok()
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Jaque mate.
    Checkmate,
    /// A player resigned.
    Resignation {
        /// Who resigned.
        by: Color,
    },
    /// Rey ahogado.
    Stalemate,
    /// Neither side can mate by any series of legal moves.
    DeadPosition,
    /// The same position for the fifth time (automatic, FIDE 9.6.1).
    FivefoldRepetition,
    /// Seventy-five moves each without capture or pawn move (FIDE 9.6.2).
    SeventyFiveMoves,
    /// Threefold repetition, claimed (FIDE 9.2).
    ThreefoldRepetition,
    /// Fifty moves each without capture or pawn move, claimed (FIDE 9.3).
    FiftyMoves,
    /// Fifty moves each after the players agreed to count them (London xvii).
    AgreedFiftyMoves,
    /// Mutual agreement (FIDE 9.1).
    Agreement,
    /// A flag fell (FIDE 6.9).
    Time {
        /// Who ran out of time.
        flagged: Color,
    },
    /// The sealed move of an adjourned game was illegal, ambiguous or
    /// unreadable (FIDE Guidelines I): a loss for the sealer, a draw if the
    /// opponent could not mate (see [`crate::sealed`]).
    IllegalSealedMove {
        /// Who sealed it.
        by: Color,
    },
    /// The result as a record gives it (a PGN's `Result`, an arbiter's entry)
    /// when the moves do not show how it came about.
    Recorded,
    /// The game was called off before both sides had moved (a server's
    /// abort): no result, nobody wins or loses.
    Aborted,
    /// A player left the game (disconnected past the grace period) and the
    /// opponent claimed the win, or a draw (a server's ending).
    Abandoned {
        /// Who left.
        by: Color,
    },
}

impl Termination {
    /// Every ending once; the sided ones ([`Termination::side`]) with White.
    pub const ALL: [Termination; 15] = [
        Termination::Checkmate,
        Termination::Resignation { by: Color::White },
        Termination::Stalemate,
        Termination::DeadPosition,
        Termination::FivefoldRepetition,
        Termination::SeventyFiveMoves,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoves,
        Termination::AgreedFiftyMoves,
        Termination::Agreement,
        Termination::Time {
            flagged: Color::White,
        },
        Termination::IllegalSealedMove { by: Color::White },
        Termination::Recorded,
        Termination::Aborted,
        Termination::Abandoned { by: Color::White },
    ];

    /// The stable identifier, for files, databases and programs:
    /// `checkmate`, `resignation`, `stalemate`, `dead_position`,
    /// `fivefold_repetition`, `seventy_five_moves`, `threefold_repetition`,
    /// `fifty_moves`, `agreed_fifty_moves`, `agreement`, `time_forfeit`,
    /// `illegal_sealed_move`, `recorded`, `aborted`, `abandoned`. The player
    /// a sided ending names is not part of it: see [`Termination::side`].
    pub fn id(&self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Resignation { .. } => "resignation",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead_position",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventy_five_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::AgreedFiftyMoves => "agreed_fifty_moves",
            Termination::Agreement => "agreement",
            Termination::Time { .. } => "time_forfeit",
            Termination::IllegalSealedMove { .. } => "illegal_sealed_move",
            Termination::Recorded => "recorded",
            Termination::Aborted => "aborted",
            Termination::Abandoned { .. } => "abandoned",
        }
    }

    /// The player a sided ending names: who resigned, whose flag fell, whose
    /// sealed move failed, who left. `None` for the others.
    pub fn side(&self) -> Option<Color> {
        match *self {
            Termination::Resignation { by }
            | Termination::IllegalSealedMove { by }
            | Termination::Abandoned { by } => Some(by),
            Termination::Time { flagged } => Some(flagged),
            _ => None,
        }
    }

    /// The ending with identifier `id` ([`Termination::id`]); a sided ending
    /// needs its `side` ([`Termination::side`]), the others ignore it. `None`
    /// for an unknown identifier or a sided one without a side.
    ///
    /// ```
    /// use escaque::{Color, Termination};
    /// let t = Termination::Time { flagged: Color::Black };
    /// assert_eq!(Termination::from_id(t.id(), t.side()), Some(t));
    /// assert_eq!(Termination::from_id("time_forfeit", None), None);
    /// assert_eq!(Termination::from_id("checkmate", None), Some(Termination::Checkmate));
    /// ```
    pub fn from_id(id: &str, side: Option<Color>) -> Option<Termination> {
        let t = *Termination::ALL.iter().find(|t| t.id() == id)?;
        Some(match t {
            Termination::Resignation { .. } => Termination::Resignation { by: side? },
            Termination::Time { .. } => Termination::Time { flagged: side? },
            Termination::IllegalSealedMove { .. } => Termination::IllegalSealedMove { by: side? },
            Termination::Abandoned { .. } => Termination::Abandoned { by: side? },
            t => t,
        })
    }
}

/// How a game ended: the score and the reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The score.
    pub result: GameResult,
    /// The reason.
    pub termination: Termination,
}

/// A draw that may be claimed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DrawClaim {
    /// Threefold repetition (FIDE 9.2).
    Threefold,
    /// Fifty moves (FIDE 9.3).
    FiftyMoves,
}

impl DrawClaim {
    /// Every claim.
    pub const ALL: [DrawClaim; 2] = [DrawClaim::Threefold, DrawClaim::FiftyMoves];

    /// The stable identifier for files and programs: `threefold_repetition`,
    /// `fifty_moves` (as [`Termination::id`] names the draws they give).
    pub fn id(&self) -> &'static str {
        match self {
            DrawClaim::Threefold => "threefold_repetition",
            DrawClaim::FiftyMoves => "fifty_moves",
        }
    }

    /// The claim with identifier `id` ([`DrawClaim::id`]).
    pub fn from_id(id: &str) -> Option<DrawClaim> {
        DrawClaim::ALL.into_iter().find(|c| c.id() == id)
    }
}

/// What came of a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimResult {
    /// The claim was correct: the game is drawn.
    Granted(Outcome),
    /// The claim was incorrect: the game goes on, the claim stands as a draw
    /// offer (9.1.2.3), the opponent got two more minutes if there is a clock
    /// (9.5.3), and a declared move was played.
    Rejected,
    /// The declared move ended the game by itself (a mate, a stalemate, a dead
    /// position, a fivefold repetition…): that ending stands.
    Ended(Outcome),
}

/// Something the game refused to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game has already ended.
    GameOver(Outcome),
    /// The move is not legal.
    Illegal(IllegalMove),
    /// The SAN text could not be read as a legal move.
    San(MoveError),
    /// The flag of the player fell before the move was completed; the game has
    /// ended (see [`Game::outcome`]).
    FlagFell(Color),
    /// There is no draw offer from the opponent to answer.
    NoDrawOffer,
    /// There is no move to take back.
    NothingToUndo,
    /// The rule set has no agreed fifty-move count (only London 1846 has it).
    NoFiftyMoveAgreement,
}

impl From<IllegalMove> for GameError {
    fn from(e: IllegalMove) -> GameError {
        GameError::Illegal(e)
    }
}

/// One move of the game as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// The move in standard (English) algebraic notation.
    pub san: String,
    /// The Polyglot hash of the position after the move.
    pub hash: u64,
    /// The mover's remaining time after pressing the clock, if there is one.
    pub clock: Option<Duration>,
}

/// A pending draw offer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct DrawOffer {
    by: Color,
}

/// What a user interface shows about a game at a glance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStatus {
    /// The side to move.
    pub turn: Color,
    /// The number of the move about to be played.
    pub move_number: u32,
    /// True if the side to move is in check.
    pub in_check: bool,
    /// How the game ended, if it has.
    pub outcome: Option<Outcome>,
    /// Draws the side to move may claim now, without a move.
    pub claims: Vec<DrawClaim>,
    /// Moves the side to move may declare with a claim that would then be
    /// correct (9.2.1 a, 9.3.1).
    pub claim_moves: Vec<(Move, DrawClaim)>,
    /// The side whose draw offer awaits an answer.
    pub draw_offer: Option<Color>,
    /// The clock, if any.
    pub clock: Option<ClockReading>,
    /// How many times the current position has appeared (1 the first time).
    pub repetitions: u32,
    /// Half-moves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// With an agreed fifty-move count (London xvii), the half-moves left.
    pub agreed_count_left: Option<u32>,
}

/// A game of chess under a [`RuleSet`], with an optional [`Clock`].
///
/// ```
/// use escaque::{Game, Move, Square, GameResult, Termination};
///
/// let mut game = Game::new();
/// for (from, to) in [(Square::F2, Square::F3), (Square::E7, Square::E5),
///                    (Square::G2, Square::G4), (Square::D8, Square::H4)] {
///     game.play(Move::normal(from, to)).unwrap();
/// }
/// let outcome = game.outcome().unwrap();
/// assert_eq!(outcome.result, GameResult::BlackWins);
/// assert_eq!(outcome.termination, Termination::Checkmate);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: RuleSet,
    /// `positions[0]` is the start; `positions[i]` follows `records[i - 1]`.
    positions: Vec<Position>,
    /// The FIDE repetition key of each position.
    keys: Vec<u64>,
    records: Vec<MoveRecord>,
    clock: Option<Clock>,
    /// The clock before each move (for undo), parallel to `records`.
    clock_before: Vec<Option<ClockSnapshot>>,
    offer: Option<DrawOffer>,
    outcome: Option<Outcome>,
    /// Ply at which the players agreed to count fifty moves (London xvii).
    fifty_agreed_at: Option<usize>,
    /// The budget of the full dead-position decision for 6.9 and 5.1.2.
    dead_budget: crate::dead::Budget,
    /// A Chess960 game (FIDE Laws, Guidelines III): its castling is the
    /// Chess960 one, its PGN says `[Variant "Chess960"]`.
    chess960: bool,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the initial position under FIDE 2023 rules, without a clock.
    pub fn new() -> Game {
        Game::from_position(Position::new())
    }

    /// A game from a position (which may already be over: a mate, a stalemate,
    /// a dead position).
    pub fn from_position(pos: Position) -> Game {
        let mut g = Game {
            rules: RuleSet::default(),
            positions: vec![pos],
            keys: vec![repetition_key(&pos)],
            records: Vec::new(),
            clock: None,
            clock_before: Vec::new(),
            offer: None,
            outcome: None,
            fifty_agreed_at: None,
            dead_budget: crate::dead::Budget::DEFAULT,
            chess960: pos.has_chess960_castling(),
        };
        g.outcome = g.automatic_ending();
        g
    }

    /// A Chess960 game from starting position `n` (0–959, the standard
    /// numbering; see [`Position::chess960`]); `None` for a number out of
    /// range.
    ///
    /// ```
    /// use escaque::Game;
    ///
    /// let game = Game::chess960(0).unwrap();
    /// assert!(game.is_chess960());
    /// assert_eq!(game.chess960_number(), Some(0));
    /// assert_eq!(
    ///     game.position().to_fen(),
    ///     "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    /// );
    /// ```
    pub fn chess960(n: u16) -> Option<Game> {
        Some(Game::from_position(Position::chess960(n)?).with_chess960(true))
    }

    /// Marks the game as Chess960 or not. A game from a position whose
    /// castling rights standard chess cannot have is Chess960 already.
    pub fn with_chess960(mut self, on: bool) -> Game {
        self.chess960 = on || self.start_position().has_chess960_castling();
        self
    }

    /// True for a Chess960 game.
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The number of the Chess960 starting position the game began from, if
    /// it is a Chess960 game that began from one.
    pub fn chess960_number(&self) -> Option<u16> {
        if self.chess960 {
            self.start_position().chess960_number()
        } else {
            None
        }
    }

    /// A game from a FEN.
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Ok(Game::from_position(Position::from_fen(fen)?))
    }

    /// The same game under other rules (meant before the first move).
    pub fn with_rules(mut self, rules: RuleSet) -> Game {
        self.rules = rules;
        if self.records.is_empty() {
            self.outcome = self.automatic_ending();
        }
        self
    }

    /// The same game with a clock; the clock's turn is set to the side to move
    /// if the clock has not started.
    pub fn with_clock(mut self, mut clock: Clock) -> Game {
        clock.set_turn(self.position().turn());
        self.clock = Some(clock);
        self
    }

    /// The same game with another budget for the full dead-position decision
    /// made when a flag falls (6.9) or a player resigns (5.1.2); the default
    /// is [`crate::dead::Budget::DEFAULT`]. A smaller budget answers sooner and
    /// leaves more positions undecided (scored as a win, never as a draw on a
    /// guess).
    pub fn with_dead_position_budget(mut self, budget: crate::dead::Budget) -> Game {
        self.dead_budget = budget;
        self
    }

    /// The rules.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The starting position.
    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[MoveRecord] {
        &self.records
    }

    /// The clock, if any.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The clock, if any, for pausing, resuming or an arbiter's correction.
    pub fn clock_mut(&mut self) -> Option<&mut Clock> {
        self.clock.as_mut()
    }

    /// Puts a restored clock on a replayed game, with each move's saved clock
    /// reading (for resuming an adjourned game).
    pub(crate) fn restore_clock(&mut self, clock: Clock, readings: &[Option<Duration>]) {
        for (rec, r) in self.records.iter_mut().zip(readings) {
            rec.clock = *r;
        }
        self.clock = Some(clock);
    }

    /// Starts the clock of the side to move, or resumes it after a pause or
    /// an adjournment. Does nothing once the game has ended.
    pub fn start_clock(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        if let Some(c) = &mut self.clock {
            c.start();
            c.resume();
        }
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The score, if the game has ended.
    pub fn result(&self) -> Option<GameResult> {
        self.outcome.map(|o| o.result)
    }

    /// Why the game ended, if it has.
    pub fn termination(&self) -> Option<Termination> {
        self.outcome.map(|o| o.termination)
    }

    /// The side whose draw offer is pending.
    pub fn draw_offer(&self) -> Option<Color> {
        self.offer.map(|o| o.by)
    }

    /// Ends the game: records the outcome, drops any offer, stops the clock.
    fn finish(&mut self, o: Outcome) {
        self.outcome = Some(o);
        self.offer = None;
        if let Some(c) = &mut self.clock {
            c.pause();
        }
    }

    fn ensure_running(&self) -> Result<(), GameError> {
        match self.outcome {
            Some(o) => Err(GameError::GameOver(o)),
            None => Ok(()),
        }
    }

    // ---- moves ----

    /// Plays a legal move. Reads the clock first: if the mover's flag has
    /// fallen the move is refused and the game ends on time. Returns the outcome
    /// if the move ended the game.
    pub fn play(&mut self, m: Move) -> Result<Option<Outcome>, GameError> {
        self.ensure_running()?;
        let pos = *self.position();
        if !pos.is_legal(m) {
            return Err(GameError::Illegal(IllegalMove {
                mv: m,
                reason: pos.illegal_reason(m),
            }));
        }
        self.push_move(m)?;
        Ok(self.outcome)
    }

    /// Plays a move known to be legal: clock, record, offers, automatic endings.
    fn push_move(&mut self, m: Move) -> Result<(), GameError> {
        let pos = *self.position();
        let mover = pos.turn();
        let mut snapshot = None;
        let mut clock_after = None;
        if let Some(clock) = &mut self.clock {
            snapshot = Some(clock.snapshot());
            if let Err(FlagFell { color }) = clock.press() {
                self.outcome = Some(flag_outcome(&pos, color, self.dead_budget));
                self.offer = None;
                return Err(GameError::FlagFell(color));
            }
            clock_after = Some(clock.peek().remaining(mover));
        }
        let san = record_san(&pos, m);
        let mut next = pos;
        next.play_unchecked(m);
        self.records.push(MoveRecord {
            mv: m,
            san,
            hash: next.zobrist(),
            clock: clock_after,
        });
        self.clock_before.push(snapshot);
        self.positions.push(next);
        self.keys.push(repetition_key(&next));
        if self.offer.is_some_and(|o| o.by != mover) {
            // The opponent moved instead of answering: the offer lapses.
            self.offer = None;
        }
        if let Some(o) = self.automatic_ending() {
            self.finish(o);
        }
        Ok(())
    }

    /// Reads `text` as a move in SAN (Spanish, English or either, see
    /// [`crate::san::parse_san`]) and plays it.
    pub fn play_san(&mut self, text: &str, lang: SanLang) -> Result<Option<Outcome>, GameError> {
        self.ensure_running()?;
        let m = crate::san::parse_san(self.position(), text, lang).map_err(GameError::San)?;
        self.play(m)
    }

    /// The SAN of the move at `index` (0 for the first move) in `lang`, for
    /// display (Spanish adds ` a.p.` after an en passant capture).
    pub fn move_san(&self, index: usize, lang: Lang) -> Option<String> {
        let r = self.records.get(index)?;
        Some(crate::san::san_display(&self.positions[index], r.mv, lang))
    }

    /// Takes back the last move (casual games, analysis). Any ending, pending
    /// offer or fifty-move agreement made after it goes too, and the clock shows
    /// the times from before the move.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        let record = self.records.pop().ok_or(GameError::NothingToUndo)?;
        self.positions.pop();
        self.keys.pop();
        let snapshot = self.clock_before.pop().flatten();
        if let (Some(clock), Some(s)) = (&mut self.clock, snapshot) {
            clock.restore_from(&s);
        }
        self.offer = None;
        if self.fifty_agreed_at.is_some_and(|p| p > self.records.len()) {
            self.fifty_agreed_at = None;
        }
        self.outcome = self.automatic_ending();
        Ok(record.mv)
    }

    // ---- automatic endings ----

    /// The ending the current position brings about by itself, if any.
    fn automatic_ending(&self) -> Option<Outcome> {
        let pos = self.position();
        let turn = pos.turn();
        if !pos.has_legal_moves() {
            return Some(if pos.is_check() {
                Outcome {
                    result: GameResult::win_for(turn.other()),
                    termination: Termination::Checkmate,
                }
            } else {
                Outcome {
                    result: match self.rules.stalemate {
                        StalemateRule::Draw => GameResult::Draw,
                        StalemateRule::StalematedPlayerWins => GameResult::win_for(turn),
                    },
                    termination: Termination::Stalemate,
                }
            });
        }
        let draw = |termination| {
            Some(Outcome {
                result: GameResult::Draw,
                termination,
            })
        };
        if crate::dead::proves_dead(pos) {
            return draw(Termination::DeadPosition);
        }
        if self.rules.automatic_repetition_and_75 {
            if self.repetitions() >= 5 {
                return draw(Termination::FivefoldRepetition);
            }
            if pos.halfmove_clock() >= 150 {
                return draw(Termination::SeventyFiveMoves);
            }
        }
        if let Some(at) = self.fifty_agreed_at {
            if self.records.len() >= at + 100 {
                return draw(Termination::AgreedFiftyMoves);
            }
        }
        None
    }

    /// How many times the current position has appeared in the game, itself
    /// included (FIDE 9.2.3 "same position").
    pub fn repetitions(&self) -> u32 {
        self.repetitions_of(self.positions.len() - 1, None)
    }

    /// Occurrences of position `idx` among positions `..=idx`, or of `extra`
    /// (a position following `idx`) among positions `..=idx` plus itself.
    fn repetitions_of(&self, idx: usize, extra: Option<&Position>) -> u32 {
        let (target, key, mut j) = match extra {
            None => (&self.positions[idx], self.keys[idx], idx),
            Some(p) => (p, repetition_key(p), idx + 1),
        };
        let stretch = target.halfmove_clock() as usize;
        let mut count = 1;
        let earliest = j.saturating_sub(stretch);
        while j >= earliest + 2 {
            j -= 2;
            if self.keys[j] == key && same_position(&self.positions[j], target) {
                count += 1;
            }
        }
        count
    }

    // ---- claims ----

    fn claim_now(&self) -> Option<DrawClaim> {
        if self.repetitions() >= 3 {
            Some(DrawClaim::Threefold)
        } else if self.rules.fifty_moves == FiftyMoveRule::Claim
            && self.position().halfmove_clock() >= 100
        {
            Some(DrawClaim::FiftyMoves)
        } else {
            None
        }
    }

    fn claim_after(&self, m: Move) -> Option<DrawClaim> {
        let mut next = *self.position();
        next.play_unchecked(m);
        if self.repetitions_of(self.positions.len() - 1, Some(&next)) >= 3 {
            Some(DrawClaim::Threefold)
        } else if self.rules.fifty_moves == FiftyMoveRule::Claim && next.halfmove_clock() >= 100 {
            Some(DrawClaim::FiftyMoves)
        } else {
            None
        }
    }

    /// Draws the side to move could claim now without a move.
    pub fn claimable(&self) -> Vec<DrawClaim> {
        let mut v = Vec::new();
        if self.outcome.is_some() {
            return v;
        }
        if self.repetitions() >= 3 {
            v.push(DrawClaim::Threefold);
        }
        if self.rules.fifty_moves == FiftyMoveRule::Claim && self.position().halfmove_clock() >= 100
        {
            v.push(DrawClaim::FiftyMoves);
        }
        v
    }

    /// Moves the side to move could declare with a correct claim.
    pub fn claimable_moves(&self) -> Vec<(Move, DrawClaim)> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.position()
            .legal_moves()
            .into_iter()
            .filter_map(|m| self.claim_after(m).map(|c| (m, c)))
            .collect()
    }

    /// True if the side to move may claim a draw now, with or without
    /// declaring a move (python-chess's `can_claim_draw`).
    pub fn can_claim_draw(&self) -> bool {
        !self.claimable().is_empty() || !self.claimable_moves().is_empty()
    }

    fn reject_claim(&mut self, claimer: Color) {
        if let Some(c) = &mut self.clock {
            c.add_time(claimer.other(), Duration::from_secs(120));
        }
        if self.outcome.is_none() {
            self.offer_from(claimer);
        }
    }

    fn grant(&mut self, claim: DrawClaim) -> ClaimResult {
        let o = Outcome {
            result: GameResult::Draw,
            termination: match claim {
                DrawClaim::Threefold => Termination::ThreefoldRepetition,
                DrawClaim::FiftyMoves => Termination::FiftyMoves,
            },
        };
        self.finish(o);
        ClaimResult::Granted(o)
    }

    /// The side to move claims a draw by threefold repetition or fifty moves
    /// (9.2.1 b, 9.3.2) on the position on the board.
    pub fn claim_draw(&mut self) -> Result<ClaimResult, GameError> {
        self.poll_clock();
        self.ensure_running()?;
        let claimer = self.position().turn();
        match self.claim_now() {
            Some(c) => Ok(self.grant(c)),
            None => {
                self.reject_claim(claimer);
                Ok(ClaimResult::Rejected)
            }
        }
    }

    /// The side to move declares `m` and claims that it will produce a
    /// threefold repetition or complete fifty moves (9.2.1 a, 9.3.1). The move is
    /// recorded either way; if it mates or ends the game by itself, that ending
    /// stands.
    pub fn claim_draw_with_move(&mut self, m: Move) -> Result<ClaimResult, GameError> {
        self.ensure_running()?;
        let pos = *self.position();
        let claimer = pos.turn();
        if !pos.is_legal(m) {
            return Err(GameError::Illegal(IllegalMove {
                mv: m,
                reason: pos.illegal_reason(m),
            }));
        }
        self.push_move(m)?;
        if let Some(o) = self.outcome {
            return Ok(ClaimResult::Ended(o));
        }
        match self.claim_now() {
            Some(c) => Ok(self.grant(c)),
            None => {
                self.reject_claim(claimer);
                Ok(ClaimResult::Rejected)
            }
        }
    }

    /// London 1846, art. xvii: the players agree that the game is drawn if no
    /// mate comes within fifty moves by each side from now.
    pub fn agree_fifty_move_count(&mut self) -> Result<(), GameError> {
        self.ensure_running()?;
        if self.rules.fifty_moves != FiftyMoveRule::WhenAgreed {
            return Err(GameError::NoFiftyMoveAgreement);
        }
        if self.fifty_agreed_at.is_none() {
            self.fifty_agreed_at = Some(self.records.len());
        }
        Ok(())
    }

    // ---- agreement, resignation, time ----

    fn offer_from(&mut self, by: Color) {
        if self.offer.is_none() {
            self.offer = Some(DrawOffer { by });
        }
    }

    /// `by` offers a draw (9.1.2). If the opponent's offer is pending, this
    /// accepts it. An offer stands until answered or until the opponent moves.
    pub fn offer_draw(&mut self, by: Color) -> Result<Option<Outcome>, GameError> {
        self.ensure_running()?;
        if self.offer.is_some_and(|o| o.by != by) {
            return self.accept_draw(by).map(Some);
        }
        self.offer_from(by);
        Ok(None)
    }

    /// `by` accepts the opponent's pending offer: the game is drawn.
    pub fn accept_draw(&mut self, by: Color) -> Result<Outcome, GameError> {
        self.ensure_running()?;
        if self.offer.is_none_or(|o| o.by == by) {
            return Err(GameError::NoDrawOffer);
        }
        self.poll_flag();
        self.ensure_running()?;
        let o = Outcome {
            result: GameResult::Draw,
            termination: Termination::Agreement,
        };
        self.finish(o);
        Ok(o)
    }

    /// `by` declines the opponent's pending offer.
    pub fn decline_draw(&mut self, by: Color) -> Result<(), GameError> {
        self.ensure_running()?;
        if self.offer.is_none_or(|o| o.by == by) {
            return Err(GameError::NoDrawOffer);
        }
        self.offer = None;
        Ok(())
    }

    /// `by` resigns (5.1.2). The opponent wins, unless the opponent could not
    /// mate by any series of legal moves: then the game is drawn.
    pub fn resign(&mut self, by: Color) -> Result<Outcome, GameError> {
        self.ensure_running()?;
        let pos = self.position();
        let o = Outcome {
            result: if crate::dead::could_not_mate_with(pos, by.other(), self.dead_budget) {
                GameResult::Draw
            } else {
                GameResult::win_for(by.other())
            },
            termination: Termination::Resignation { by },
        };
        self.finish(o);
        Ok(o)
    }

    /// Ends a game in progress with a result that a record gives (a PGN's
    /// `Result` tag, an arbiter's entry) when the moves do not show how it
    /// came about: [`Termination::Recorded`].
    pub fn record_result(&mut self, result: GameResult) -> Result<Outcome, GameError> {
        self.ensure_running()?;
        let o = Outcome {
            result,
            termination: Termination::Recorded,
        };
        self.finish(o);
        Ok(o)
    }

    /// Ends the game on an illegal sealed move by `by` (Guidelines I): the
    /// opponent wins, or a draw if the opponent could not mate.
    pub(crate) fn forfeit_sealed(&mut self, by: Color) -> Outcome {
        let o = Outcome {
            result: if crate::dead::could_not_mate_with(
                self.position(),
                by.other(),
                self.dead_budget,
            ) {
                GameResult::Draw
            } else {
                GameResult::win_for(by.other())
            },
            termination: Termination::IllegalSealedMove { by },
        };
        self.finish(o);
        o
    }

    fn poll_flag(&mut self) -> Option<Color> {
        if self.outcome.is_some() {
            return None;
        }
        let flagged = self.clock.as_mut()?.read().flagged?;
        self.outcome = Some(flag_outcome(self.position(), flagged, self.dead_budget));
        self.offer = None;
        Some(flagged)
    }

    /// Reads the clock; if a flag has fallen, the game ends on time (6.9) and
    /// the outcome is returned.
    pub fn poll_clock(&mut self) -> Option<Outcome> {
        self.poll_flag().and(self.outcome)
    }

    /// What a user interface shows (reads the clock first).
    pub fn status(&mut self) -> GameStatus {
        self.poll_clock();
        let pos = *self.position();
        GameStatus {
            turn: pos.turn(),
            move_number: pos.fullmove_number(),
            in_check: pos.is_check(),
            outcome: self.outcome,
            claims: self.claimable(),
            claim_moves: self.claimable_moves(),
            draw_offer: self.draw_offer(),
            clock: self.clock.as_ref().map(Clock::peek),
            repetitions: self.repetitions(),
            halfmove_clock: pos.halfmove_clock(),
            agreed_count_left: self
                .fifty_agreed_at
                .map(|at| (at + 100).saturating_sub(self.records.len()) as u32),
        }
    }
}

/// The SAN of `m` in `pos`, for the record: standard English SAN, as PGN
/// export wants it.
fn record_san(pos: &Position, m: Move) -> String {
    crate::san::san(pos, m, crate::Lang::En)
}

/// The result when `flagged` runs out of time in `pos` (6.9).
fn flag_outcome(pos: &Position, flagged: Color, budget: crate::dead::Budget) -> Outcome {
    Outcome {
        result: if crate::dead::could_not_mate_with(pos, flagged.other(), budget) {
            GameResult::Draw
        } else {
            GameResult::win_for(flagged.other())
        },
        termination: Termination::Time { flagged },
    }
}

/// The hash of a position with FIDE 9.2.3's meaning: pieces, side to move,
/// castling rights, and the en passant file only when an en passant capture is
/// legal. (The Polyglot hash counts the file as soon as a pawn stands beside.)
pub fn repetition_key(pos: &Position) -> u64 {
    let mut h = pos.zobrist();
    if let Some(ep) = pos.ep_square() {
        let adjacent =
            (pawn_attacks(pos.turn().other(), ep) & pos.pieces(pos.turn(), Role::Pawn)).any();
        if adjacent && pos.legal_ep_square().is_none() {
            h ^= zobrist::en_passant_key(ep);
        }
    }
    h
}

/// FIDE 9.2.3: the same position.
fn same_position(a: &Position, b: &Position) -> bool {
    a.turn() == b.turn()
        && a.castling_rights() == b.castling_rights()
        && Color::ALL.iter().all(|&c| a.by_color(c) == b.by_color(c))
        && Role::ALL.iter().all(|&r| a.by_role(r) == b.by_role(r))
        && a.legal_ep_square() == b.legal_ep_square()
}

#[cfg(test)]
mod vocabulary_tests {
    use super::*;
    use crate::{Localized, Odds};

    #[test]
    fn every_termination_reads_back_from_its_id_and_side() {
        let mut ids = std::collections::BTreeSet::new();
        for t in Termination::ALL {
            assert!(ids.insert(t.id()), "two endings share {}", t.id());
            for side in [Color::White, Color::Black] {
                let t = match t {
                    Termination::Resignation { .. } => Termination::Resignation { by: side },
                    Termination::Time { .. } => Termination::Time { flagged: side },
                    Termination::IllegalSealedMove { .. } => {
                        Termination::IllegalSealedMove { by: side }
                    }
                    Termination::Abandoned { .. } => Termination::Abandoned { by: side },
                    t => t,
                };
                assert_eq!(Termination::from_id(t.id(), t.side()), Some(t));
                // A sided ending needs its side; the others ignore one.
                let without = Termination::from_id(t.id(), None);
                assert_eq!(without.is_none(), t.side().is_some(), "{t:?}");
                for lang in [Lang::Es, Lang::En] {
                    assert!(!t.message(lang).is_empty());
                    for result in [
                        GameResult::WhiteWins,
                        GameResult::BlackWins,
                        GameResult::Draw,
                    ] {
                        let o = Outcome {
                            result,
                            termination: t,
                        };
                        assert!(o.message(lang).contains(result.display()), "{o:?}");
                    }
                }
            }
            let id = t.id();
            assert!(
                id.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{id} is not snake_case"
            );
        }
        assert_eq!(Termination::from_id("time", Some(Color::White)), None);
        assert_eq!(Termination::from_id("", None), None);
    }

    #[test]
    fn every_claim_odds_and_rule_set_reads_back_from_its_id() {
        for c in DrawClaim::ALL {
            assert_eq!(DrawClaim::from_id(c.id()), Some(c));
        }
        // A claim is named as the draw it gives.
        assert_eq!(
            DrawClaim::Threefold.id(),
            Termination::ThreefoldRepetition.id()
        );
        assert_eq!(DrawClaim::FiftyMoves.id(), Termination::FiftyMoves.id());
        assert_eq!(DrawClaim::from_id("threefold"), None);
        for o in Odds::ALL {
            assert_eq!(Odds::from_id(o.id()), Some(o));
        }
        for r in RuleSet::PRESETS {
            assert_eq!(RuleSet::from_id(r.id()), Some(r));
            assert!(r
                .id()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'));
        }
        // A display name is not an identifier.
        assert_eq!(RuleSet::from_id(RuleSet::londres_1846().name()), None);
    }
}
