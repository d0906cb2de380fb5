//! Opening books in the Polyglot format, and the small book shipped with
//! escaque.
//!
//! A Polyglot book is a file of 16-byte entries, big-endian, sorted by key:
//! the position's key (`u64`, Polyglot's Zobrist hash, which is exactly
//! [`Position::zobrist`]: the same `Random64` table and the same en passant
//! rule), the move (`u16`), its weight (`u16`) and a learning field (`u32`,
//! unused by escaque). The move packs the destination square in bits 0–5, the
//! origin in bits 6–11 and a promotion piece in bits 12–14 (1 knight, 2
//! bishop, 3 rook, 4 queen); castling is written as the king taking its own
//! rook (`e1h1`, `e8a8`), in standard chess as in Chess960.
//!
//! ```
//! use escaque::Position;
//! use escaque_engine::book::Book;
//!
//! let book = Book::shipped();
//! let first: Vec<String> = book
//!     .moves(&Position::new())
//!     .iter()
//!     .map(|(m, _)| m.to_string())
//!     .collect();
//! assert!(first.contains(&"e2e4".to_string()));
//! ```
//!
//! The shipped book ([`Book::shipped`], `data/book.bin`) is built from the
//! named lines of lichess's CC0 chess-openings data by
//! `escaque_analysis::book::build` (a test there checks that the file equals
//! what it builds): one entry per position and move of a named line, weighted
//! by how many named lines go through that move from that position.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use escaque::{CastlingSide, Lang, Localized, Move, MoveKind, Position, Role, Square};

/// The bytes of the book shipped with escaque.
pub const SHIPPED: &[u8] = include_bytes!("../data/book.bin");

/// The size of one entry in bytes.
pub const ENTRY_SIZE: usize = 16;

/// The largest book file read (1 GiB, some 67 million entries: the largest
/// published Polyglot books are a few hundred MiB).
pub const MAX_FILE_SIZE: u64 = 1 << 30;

/// One entry of a Polyglot book.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The position's key ([`key`]).
    pub key: u64,
    /// The move as Polyglot packs it ([`encode_move`]).
    pub raw_move: u16,
    /// How often the move should be chosen, relative to the other moves of
    /// the position.
    pub weight: u16,
    /// The learning field (kept, not used).
    pub learn: u32,
}

impl Entry {
    fn read(bytes: &[u8; ENTRY_SIZE]) -> Entry {
        let mut key = [0u8; 8];
        key.copy_from_slice(&bytes[0..8]);
        Entry {
            key: u64::from_be_bytes(key),
            raw_move: u16::from_be_bytes([bytes[8], bytes[9]]),
            weight: u16::from_be_bytes([bytes[10], bytes[11]]),
            learn: u32::from_be_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]),
        }
    }

    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_be_bytes());
        out.extend_from_slice(&self.raw_move.to_be_bytes());
        out.extend_from_slice(&self.weight.to_be_bytes());
        out.extend_from_slice(&self.learn.to_be_bytes());
    }
}

/// Why a book could not be read.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The file holds no entry.
    Empty,
    /// The file is larger than [`MAX_FILE_SIZE`].
    TooLarge {
        /// Its size in bytes.
        len: u64,
    },
    /// The size is not a whole number of 16-byte entries: not a Polyglot
    /// book, or a truncated one.
    Truncated {
        /// The size in bytes.
        len: usize,
    },
    /// An entry's key is smaller than the one before it: a book must be
    /// sorted by key to be searched.
    Unsorted {
        /// The entry's number, from 0.
        index: usize,
    },
}

impl Localized for BookError {
    fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (BookError::Io { path, error }, Lang::Es) => format!(
                "no se puede leer el libro de aperturas {}: {error}",
                path.display()
            ),
            (BookError::Io { path, error }, Lang::En) => {
                format!("cannot read the opening book {}: {error}", path.display())
            }
            (BookError::Empty, Lang::Es) => {
                "el libro de aperturas está vacío: no tiene ninguna entrada".into()
            }
            (BookError::Empty, Lang::En) => "the opening book is empty: it has no entry".into(),
            (BookError::TooLarge { len }, Lang::Es) => format!(
                "el libro de aperturas es demasiado grande: {len} bytes (como mucho {MAX_FILE_SIZE})"
            ),
            (BookError::TooLarge { len }, Lang::En) => format!(
                "the opening book is too large: {len} bytes (at most {MAX_FILE_SIZE})"
            ),
            (BookError::Truncated { len }, Lang::Es) => format!(
                "no es un libro Polyglot: {len} bytes no son un número entero de entradas de 16 bytes (¿archivo cortado?)"
            ),
            (BookError::Truncated { len }, Lang::En) => format!(
                "not a Polyglot book: {len} bytes are not a whole number of 16-byte entries (a truncated file?)"
            ),
            (BookError::Unsorted { index }, Lang::Es) => format!(
                "no es un libro Polyglot válido: la entrada {index} no está ordenada por clave"
            ),
            (BookError::Unsorted { index }, Lang::En) => format!(
                "not a valid Polyglot book: entry {index} is not sorted by key"
            ),
        }
    }
}

/// The Spanish text ([`Localized::message`] for English).
impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::Es))
    }
}

impl std::error::Error for BookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BookError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A Polyglot opening book, read into memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Reads a book from its bytes. A size that is not a multiple of 16, an
    /// empty book or entries out of key order are refused.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(ENTRY_SIZE) {
            return Err(BookError::Truncated { len: bytes.len() });
        }
        if bytes.is_empty() {
            return Err(BookError::Empty);
        }
        let mut entries = Vec::with_capacity(bytes.len() / ENTRY_SIZE);
        for (index, chunk) in bytes.chunks_exact(ENTRY_SIZE).enumerate() {
            let mut raw = [0u8; ENTRY_SIZE];
            raw.copy_from_slice(chunk);
            let entry = Entry::read(&raw);
            if entries.last().is_some_and(|e: &Entry| e.key > entry.key) {
                return Err(BookError::Unsorted { index });
            }
            entries.push(entry);
        }
        Ok(Book { entries })
    }

    /// Reads the book file at `path` (at most [`MAX_FILE_SIZE`] bytes).
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        use std::io::Read;
        let path = path.as_ref();
        let io = |error| BookError::Io {
            path: path.to_path_buf(),
            error,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len > MAX_FILE_SIZE {
            return Err(BookError::TooLarge { len });
        }
        // Read at most one byte more than allowed (a file that grows, or a
        // special file whose size the metadata does not tell).
        let mut bytes = Vec::new();
        file.take(MAX_FILE_SIZE + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_FILE_SIZE {
            return Err(BookError::TooLarge {
                len: bytes.len() as u64,
            });
        }
        Book::from_bytes(&bytes)
    }

    /// The book shipped with escaque (read once, shared).
    pub fn shipped() -> Arc<Book> {
        static SHIPPED_BOOK: OnceLock<Arc<Book>> = OnceLock::new();
        SHIPPED_BOOK
            .get_or_init(|| Arc::new(Book::from_bytes(SHIPPED).expect("the shipped book reads")))
            .clone()
    }

    /// A position's key ([`key`]: escaque's Zobrist hash is Polyglot's).
    pub fn key(pos: &Position) -> u64 {
        key(pos)
    }

    /// Every entry, in the file's order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the book has no entry (never, for a book that was read).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries stored under `key`, in the file's order (binary search).
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..start + len]
    }

    /// The book's moves in `pos` with their weights, in the file's order.
    /// Entries whose move is not legal in `pos` (a key collision, a broken
    /// book) are left out; entries of weight 0 are kept (as Polyglot writes
    /// moves never to be played).
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u16)> {
        let entries = self.entries_for(key(pos));
        if entries.is_empty() {
            return Vec::new();
        }
        entries
            .iter()
            .filter_map(|e| decode_move(pos, e.raw_move).map(|m| (m, e.weight)))
            .collect()
    }

    /// Chooses a book move in `pos` at random, each move with a chance
    /// proportional to its weight raised to `sharpness` (1: as the book says;
    /// above 1: the main lines more often). `x` is a random number in
    /// `[0, 1)`. `None` when the book has no playable move there.
    pub fn pick(&self, pos: &Position, sharpness: f64, x: f64) -> Option<Move> {
        let moves = self.moves(pos);
        let weights: Vec<f64> = moves
            .iter()
            .map(|&(_, w)| {
                if w == 0 {
                    0.0
                } else {
                    (w as f64).powf(sharpness)
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            return None;
        }
        let mut x = x.clamp(0.0, 1.0) * total;
        let mut last = None;
        for (&(m, _), &w) in moves.iter().zip(&weights) {
            if w > 0.0 {
                if x < w {
                    return Some(m);
                }
                x -= w;
                last = Some(m);
            }
        }
        last
    }
}

/// A position's Polyglot key: escaque's Zobrist hash is Polyglot's (the same
/// `Random64` keys; the en passant file counts only when a pawn of the side
/// to move stands beside the pawn that made its double step, whether or not
/// the capture would be legal).
#[inline]
pub fn key(pos: &Position) -> u64 {
    pos.zobrist()
}

/// A legal move of `pos` packed as Polyglot packs it (castling as the king
/// taking its own rook).
pub fn encode_move(pos: &Position, m: Move) -> u16 {
    let to = match m.kind() {
        MoveKind::Castle => pos
            .castling_rights()
            .rook(pos.turn(), CastlingSide::from_king_to(m.to()))
            .unwrap_or(m.to()),
        _ => m.to(),
    };
    let promotion = m.promotion_role().map_or(0, |r| r.index() as u16);
    to.index() as u16 | (m.from().index() as u16) << 6 | promotion << 12
}

/// The legal move of `pos` that a Polyglot move stands for, if any. Bit 15
/// is ignored, as Polyglot and python-chess ignore it. Castling is read in
/// Polyglot's form (`e1h1`); the king's own move (`e1g1`), which some books
/// hold, is read as castling too when no other legal move has that form.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let raw = raw & 0x7fff;
    let legal = pos.legal_moves();
    if let Some(&m) = legal.iter().find(|&&m| encode_move(pos, m) == raw) {
        return Some(m);
    }
    let from = Square::new((raw >> 6 & 63) as u32)?;
    let to = Square::new((raw & 63) as u32)?;
    if raw >> 12 != 0 || pos.role_at(from) != Some(Role::King) {
        return None;
    }
    legal
        .iter()
        .copied()
        .find(|m| m.is_castle() && m.from() == from && m.to() == to)
}

/// Writes `entries` as a Polyglot book: sorted by key, then by weight (the
/// heaviest first, as Polyglot writes them), then by move.
pub fn write(entries: &[Entry]) -> Vec<u8> {
    let mut sorted = entries.to_vec();
    sorted.sort_by(|a, b| {
        a.key
            .cmp(&b.key)
            .then(b.weight.cmp(&a.weight))
            .then(a.raw_move.cmp(&b.raw_move))
            .then(a.learn.cmp(&b.learn))
    });
    let mut out = Vec::with_capacity(sorted.len() * ENTRY_SIZE);
    for e in &sorted {
        e.write_to(&mut out);
    }
    out
}

/// How many plies of a game the engine plays from its book at a strength of
/// `elo` (`None`: full strength, the whole book). People learn openings as
/// they get stronger: a beginner knows a first move (2 plies at 800), a club
/// player about five moves (10 plies at 1400), two more plies for every 150
/// points; at full strength the book is followed as far as it goes.
pub fn plies_for_elo(elo: Option<u32>) -> u32 {
    match elo {
        None => u32::MAX,
        Some(elo) => 2 + elo.saturating_sub(crate::level::MIN_ELO) * 2 / 150,
    }
}

/// How sharply the choice among book moves favours the main lines at a
/// strength of `elo` (the exponent of [`Book::pick`]): 1 at 800 (as often as
/// the named lines go through them, odd lines included), rising to 2 at full
/// strength (the main lines far more often than sidelines).
pub fn sharpness_for_elo(elo: Option<u32>) -> f64 {
    let (lo, hi) = (crate::level::MIN_ELO, crate::level::MAX_ELO);
    match elo {
        None => 2.0,
        Some(elo) => 1.0 + (elo.clamp(lo, hi) - lo) as f64 / (hi - lo) as f64,
    }
}

/// The ply of the game at `pos`, counted from the standard start (by the
/// move number: 0 for White's first move, 1 for Black's).
pub fn game_ply(pos: &Position) -> u32 {
    let moves = pos.fullmove_number().saturating_sub(1);
    moves
        .saturating_mul(2)
        .saturating_add((pos.turn() == escaque::Color::Black) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(pos: &Position, text: &str) -> Move {
        escaque::read::read_move(pos, text, escaque::read::Notation::Uci).unwrap()
    }

    #[test]
    fn castling_is_the_king_taking_its_rook_and_promotions_carry_the_piece() {
        let pos = Position::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let short = uci(&pos, "e1g1");
        assert_eq!(encode_move(&pos, short), 7 | 4 << 6);
        assert_eq!(decode_move(&pos, 7 | 4 << 6), Some(short));
        let long = uci(&pos, "e1c1");
        assert_eq!(encode_move(&pos, long), 4 << 6);
        // The king's own form of castling is read too.
        assert_eq!(decode_move(&pos, 2 | 4 << 6), Some(long));
        // b7xa8=N (1), b7b8=B (2), b7b8=R (3), b7b8=Q (4).
        for (text, code, to) in [
            ("b7a8n", 1, 56),
            ("b7b8b", 2, 57),
            ("b7b8r", 3, 57),
            ("b7b8q", 4, 57),
        ] {
            let m = uci(&pos, text);
            let raw = to | 49 << 6 | code << 12;
            assert_eq!(encode_move(&pos, m), raw, "{text}");
            assert_eq!(decode_move(&pos, raw), Some(m), "{text}");
            assert_eq!(decode_move(&pos, raw | 0x8000), Some(m), "bit 15 ignored");
        }
        // A king "promotion", a move from an empty square: nothing.
        assert_eq!(decode_move(&pos, 57 | 49 << 6 | 5 << 12), None);
        assert_eq!(decode_move(&pos, 20 | 12 << 6), None);
        let black = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
        assert_eq!(encode_move(&black, uci(&black, "e8g8")), 63 | 60 << 6);
        assert_eq!(encode_move(&black, uci(&black, "e8c8")), 56 | 60 << 6);
    }

    #[test]
    fn chess960_castling_names_the_rook() {
        let pos = Position::from_fen_with(
            "4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1",
            escaque::CastlingMode::Chess960,
        )
        .unwrap();
        let m = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.is_castle())
            .unwrap();
        assert_eq!(encode_move(&pos, m), 7 | 6 << 6);
        assert_eq!(decode_move(&pos, 7 | 6 << 6), Some(m));
    }

    #[test]
    fn written_books_read_back_sorted() {
        let pos = Position::new();
        let e4 = encode_move(&pos, uci(&pos, "e2e4"));
        let d4 = encode_move(&pos, uci(&pos, "d2d4"));
        let k = key(&pos);
        let entries = [
            Entry {
                key: k + 1,
                raw_move: 1,
                weight: 1,
                learn: 0,
            },
            Entry {
                key: k,
                raw_move: d4,
                weight: 3,
                learn: 0,
            },
            Entry {
                key: k,
                raw_move: e4,
                weight: 5,
                learn: 7,
            },
            Entry {
                key: 0,
                raw_move: 9,
                weight: 1,
                learn: 0,
            },
        ];
        let bytes = write(&entries);
        assert_eq!(bytes.len(), 64);
        let book = Book::from_bytes(&bytes).unwrap();
        assert_eq!(book.entries()[0].key, 0);
        let moves: Vec<(String, u16)> = book
            .moves(&pos)
            .iter()
            .map(|(m, w)| (m.to_string(), *w))
            .collect();
        assert_eq!(moves, [("e2e4".to_string(), 5), ("d2d4".to_string(), 3)]);
        assert_eq!(book.entries_for(k)[0].learn, 7);
        assert!(book.entries_for(k + 2).is_empty());
        // Weighted choice: e4 for x < 5/8, d4 above, with sharpness 1.
        assert_eq!(book.pick(&pos, 1.0, 0.0).unwrap().to_string(), "e2e4");
        assert_eq!(book.pick(&pos, 1.0, 0.62).unwrap().to_string(), "e2e4");
        assert_eq!(book.pick(&pos, 1.0, 0.63).unwrap().to_string(), "d2d4");
        assert_eq!(book.pick(&pos, 1.0, 0.999).unwrap().to_string(), "d2d4");
        // Squared weights 25:9.
        assert_eq!(book.pick(&pos, 2.0, 0.73).unwrap().to_string(), "e2e4");
        assert_eq!(book.pick(&pos, 2.0, 0.74).unwrap().to_string(), "d2d4");
        let mut after = pos;
        after.play_unchecked(uci(&pos, "e2e4"));
        assert_eq!(book.pick(&after, 1.0, 0.5), None);
    }

    #[test]
    fn bad_files_are_typed_errors() {
        assert!(matches!(Book::from_bytes(&[]), Err(BookError::Empty)));
        assert!(matches!(
            Book::from_bytes(&[0; 17]),
            Err(BookError::Truncated { len: 17 })
        ));
        let mut bytes = write(&[Entry {
            key: 5,
            raw_move: 1,
            weight: 1,
            learn: 0,
        }]);
        bytes.extend(write(&[Entry {
            key: 4,
            raw_move: 1,
            weight: 1,
            learn: 0,
        }]));
        let e = Book::from_bytes(&bytes).unwrap_err();
        assert!(matches!(e, BookError::Unsorted { index: 1 }));
        assert!(e.message(Lang::En).contains("entry 1"));
        assert!(e.to_string().contains("entrada 1"));
        let e = Book::open("/nonexistent/escaque/book.bin").unwrap_err();
        assert!(e
            .message(Lang::Es)
            .contains("/nonexistent/escaque/book.bin"));
    }

    #[test]
    fn book_depth_grows_with_strength() {
        assert_eq!(plies_for_elo(Some(800)), 2);
        assert_eq!(plies_for_elo(Some(1400)), 10);
        assert_eq!(plies_for_elo(None), u32::MAX);
        let mut last = 0;
        for elo in 800..2200 {
            let p = plies_for_elo(Some(elo));
            assert!(p >= last);
            last = p;
            assert!(sharpness_for_elo(Some(elo)) <= sharpness_for_elo(Some(elo + 1)));
        }
        assert_eq!(game_ply(&Position::new()), 0);
        let pos = Position::from_fen("8/8/8/8/8/8/8/K6k b - - 0 3").unwrap();
        assert_eq!(game_ply(&pos), 5);
    }
}
