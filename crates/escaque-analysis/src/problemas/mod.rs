//! # Problemas — puzzles found in real games
//!
//! A puzzle is a position from a game just before the opponent's move, the
//! opponent's move (usually a mistake) and the only good answer to it, move
//! after move, until the solver has a clear winning advantage or mates. The
//! module holds:
//!
//! * [`Puzzle`], checked against the rules when it is made or read;
//! * [`csv`]: lichess's puzzle CSV (`PuzzleId,FEN,Moves,Rating,…`), read and
//!   written exactly, so that escaque reads lichess's puzzles and other tools
//!   read escaque's;
//! * [`generate`]: the generator, with lichess-puzzler's published criteria
//!   (a winning-chance margin between the best and the second move at every
//!   solver move, multipv 2), on any [`crate::Evaluator`];
//! * [`themes`]: the tagger, lichess's theme definitions (English keys as
//!   lichess writes them, Spanish names for people);
//! * [`prove`]: mates in one and two proved by the rules library alone
//!   (every defence refuted), for the children's sets;
//! * [`rating`]: a first rating for a new puzzle from its difficulty, read
//!   as the weakest calibrated strength of escaque's engine that solves it
//!   half the time.
//!
//! It lives in `escaque-analysis` because the generator needs the
//! evaluators this crate already has (escaque's engine and any UCI engine,
//! [`crate::analyse::Evaluator`]) and the opening names ([`crate::openings`]),
//! and the crates above it (the command line, the server) both need the
//! puzzles: none of it does I/O beyond `std::io::Read`/`Write`.

use escaque::{Color, Lang, Move, Position};

pub mod csv;
pub mod generate;
pub mod prove;
pub mod rating;
pub mod themes;

pub use csv::{read_csv, write_csv, CsvError, CsvReport};
pub use themes::Theme;

/// A puzzle, as lichess's CSV holds it: the position before the opponent's
/// last move, that move, then the solution (solver, opponent, …, solver).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The identifier (`PuzzleId`): letters, digits, `_` and `-`.
    pub id: String,
    /// The position before the opponent's move (`FEN`).
    pub start: Position,
    /// The opponent's move, then the solution (`Moves`, UCI). At least two.
    pub moves: Vec<Move>,
    /// `Rating`.
    pub rating: i32,
    /// `RatingDeviation`.
    pub rating_deviation: i32,
    /// `Popularity`, −100 to 100.
    pub popularity: i32,
    /// `NbPlays`.
    pub plays: u64,
    /// `Themes`: lichess's keys (`fork`, `mateIn2`), in the order written.
    pub themes: Vec<String>,
    /// `GameUrl`: where the game is, with `#ply` of the opponent's move.
    pub game_url: String,
    /// `OpeningTags`: lichess's opening keys (`Sicilian_Defense`).
    pub opening_tags: Vec<String>,
}

/// Why a puzzle cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleError {
    /// The FEN does not describe a legal position.
    Fen(String),
    /// Fewer than two moves (the opponent's and one of the solver's).
    TooShort,
    /// The move at this index (from 0) is not legal where it is played.
    IllegalMove(usize, String),
    /// The identifier is empty or has characters other than letters,
    /// digits, `_` and `-`.
    BadId(String),
}

impl escaque::Localized for PuzzleError {
    fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (PuzzleError::Fen(e), Lang::Es) => format!("FEN no válido: {e}"),
            (PuzzleError::Fen(e), Lang::En) => format!("invalid FEN: {e}"),
            (PuzzleError::TooShort, Lang::Es) => {
                "hacen falta al menos dos jugadas (la del rival y la respuesta)".into()
            }
            (PuzzleError::TooShort, Lang::En) => {
                "at least two moves are needed (the opponent's and the answer)".into()
            }
            (PuzzleError::IllegalMove(i, m), Lang::Es) => {
                format!("la jugada {} («{m}») no es legal", i + 1)
            }
            (PuzzleError::IllegalMove(i, m), Lang::En) => {
                format!("move {} (\"{m}\") is not legal", i + 1)
            }
            (PuzzleError::BadId(id), Lang::Es) => format!("identificador no válido: «{id}»"),
            (PuzzleError::BadId(id), Lang::En) => format!("invalid identifier: \"{id}\""),
        }
    }
}

/// The shipped puzzle set (`data/problemas/problemas.csv`): puzzles the
/// generator found in games escaque's engine played against itself at
/// human strengths (`data/problemas/README.md` says how it was made).
pub fn shipped() -> Vec<Puzzle> {
    read_csv(SHIPPED_CSV.as_bytes()).puzzles
}

/// The shipped children's sets (`data/problemas/mates.csv`): mates in one
/// and two from the same games, each proved by [`prove::prove`].
pub fn shipped_mates() -> Vec<Puzzle> {
    read_csv(SHIPPED_MATES_CSV.as_bytes()).puzzles
}

const SHIPPED_CSV: &str = include_str!("../../data/problemas/problemas.csv");
const SHIPPED_MATES_CSV: &str = include_str!("../../data/problemas/mates.csv");

/// A fingerprint of both shipped sets as embedded (64-bit FNV-1a of
/// `problemas.csv`, a zero byte, `mates.csv`, as 16 hex digits): the same
/// in every build of the same files, so that a server can tell on start
/// that the sets it stored last time are these and skip reading them.
pub fn shipped_fingerprint() -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = SHIPPED_CSV
        .bytes()
        .chain(std::iter::once(0))
        .chain(SHIPPED_MATES_CSV.bytes());
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Whether `id` is a puzzle identifier: 1–64 letters, digits, `_`, `-`.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Plays `moves` (UCI text) from `start`, checking each; the moves read.
pub fn read_line(start: &Position, moves: &[&str]) -> Result<Vec<Move>, PuzzleError> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = escaque::read_move(&pos, text, escaque::Notation::Uci)
            .map_err(|_| PuzzleError::IllegalMove(i, text.to_string()))?;
        pos.play_unchecked(m);
        out.push(m);
    }
    Ok(out)
}

impl Puzzle {
    /// A puzzle with no plays yet, checked: `start` plus at least two legal
    /// moves.
    pub fn new(
        id: String,
        start: Position,
        moves: Vec<Move>,
        rating: i32,
    ) -> Result<Puzzle, PuzzleError> {
        if !valid_id(&id) {
            return Err(PuzzleError::BadId(id));
        }
        if moves.len() < 2 {
            return Err(PuzzleError::TooShort);
        }
        let mut pos = start;
        for (i, &m) in moves.iter().enumerate() {
            if !pos.is_legal(m) {
                return Err(PuzzleError::IllegalMove(i, m.to_string()));
            }
            pos.play_unchecked(m);
        }
        Ok(Puzzle {
            id,
            start,
            moves,
            rating,
            rating_deviation: 300,
            popularity: 0,
            plays: 0,
            themes: Vec::new(),
            game_url: String::new(),
            opening_tags: Vec::new(),
        })
    }

    /// The side that solves it (the one that answers the opponent's move).
    pub fn solver(&self) -> Color {
        self.start.turn().other()
    }

    /// The position the solver sees first: after the opponent's move.
    pub fn shown_position(&self) -> Position {
        let mut pos = self.start;
        pos.play_unchecked(self.moves[0]);
        pos
    }

    /// The positions before each move: `positions()[i]` is where
    /// `moves[i]` is played; the last one is after the last move.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for &m in &self.moves {
            pos.play_unchecked(m);
            out.push(pos);
        }
        out
    }

    /// The solver's moves (every other move from the second).
    pub fn solution(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().skip(1).step_by(2).copied()
    }

    /// Whether `mv`, played by the solver as move `index` of
    /// [`Puzzle::moves`] (an odd index), is right: the move of the solution,
    /// or, as lichess accepts, any move that mates.
    pub fn accepts(&self, index: usize, mv: Move) -> bool {
        let Some(&expected) = self.moves.get(index) else {
            return false;
        };
        if index.is_multiple_of(2) {
            return false;
        }
        if mv == expected {
            return true;
        }
        let mut pos = self.start;
        for &m in &self.moves[..index] {
            pos.play_unchecked(m);
        }
        if !pos.is_legal(mv) {
            return false;
        }
        pos.play_unchecked(mv);
        pos.is_checkmate()
    }

    /// The moves in UCI, space-separated, as the CSV writes them.
    pub fn moves_uci(&self) -> String {
        self.moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A stable identifier from the position and the moves: five letters
    /// and digits (base 62, as lichess's), from a 64-bit FNV-1a hash.
    pub fn id_for(start: &Position, moves: &[Move]) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for b in start.to_fen().bytes() {
            eat(b);
        }
        for m in moves {
            for b in m.to_u16().to_le_bytes() {
                eat(b);
            }
        }
        const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let mut s = String::new();
        let mut x = h;
        for _ in 0..5 {
            s.push(DIGITS[(x % 62) as usize] as char);
            x /= 62;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_checks_its_moves() {
        let start = Position::new();
        let moves = read_line(&start, &["e2e4", "e7e5"]).unwrap();
        let p = Puzzle::new("abc".into(), start, moves, 1500).unwrap();
        assert_eq!(p.solver(), Color::Black);
        assert_eq!(p.moves_uci(), "e2e4 e7e5");
        assert!(read_line(&start, &["e2e5"]).is_err());
        let one = read_line(&start, &["e2e4"]).unwrap();
        assert_eq!(
            Puzzle::new("abc".into(), start, one, 1500),
            Err(PuzzleError::TooShort)
        );
        let moves = read_line(&start, &["e2e4", "e7e5"]).unwrap();
        assert!(matches!(
            Puzzle::new("a,b".into(), start, moves, 1500),
            Err(PuzzleError::BadId(_))
        ));
    }

    #[test]
    fn any_mate_is_accepted_on_the_mating_move() {
        // Black has just moved: White (the solver) mates with either rook.
        let start = Position::from_fen("6k1/5ppp/8/8/8/8/r7/1RR3K1 b - - 0 1").unwrap();
        let moves = read_line(&start, &["a2a3", "b1b8"]).unwrap();
        let p = Puzzle::new("m1".into(), start, moves, 800).unwrap();
        let shown = p.shown_position();
        let other = escaque::read_move(&shown, "c1c8", escaque::Notation::Uci).unwrap();
        assert!(p.accepts(1, other));
        let wrong = escaque::read_move(&shown, "c1c2", escaque::Notation::Uci).unwrap();
        assert!(!p.accepts(1, wrong));
        assert!(!p.accepts(0, p.moves[0]));
    }
}
