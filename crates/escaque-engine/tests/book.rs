//! The Polyglot book reader against python-chess on Debian's public-domain
//! gnuchess book, bad files, the shipped book, and the book in play (levels,
//! UCI `OwnBook`/`BookFile`).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use escaque::read::{read_move, Notation};
use escaque::{Lang, Localized, Position};
use escaque_engine::book::{self, Book, BookError, Entry};
use escaque_engine::uci::{SharedBuf, Uci};

use crate::common::Session;
use escaque_engine::{Engine, Level, Limits};
use proptest::prelude::*;

/// Where Debian's gnuchess-book package puts the book
/// (`ESCAQUE_GNUCHESS_BOOK` to read another copy).
const GNUCHESS_BOOK: &str = "/usr/share/games/gnuchess/book.bin";

/// What python-chess 1.11.2 reads in that book at 3,659 positions
/// (scripts/polyglot_reference.py made it; see its header).
const REFERENCE: &str = include_str!("data/gnuchess_book_reference.tsv");

fn uci(pos: &Position, text: &str) -> escaque::Move {
    read_move(pos, text, Notation::Uci).unwrap()
}

/// The gnuchess book, or `None` (with a note) when it is not installed;
/// `ESCAQUE_REQUIRE_GNUCHESS_BOOK=1` (scripts/test sets it) makes a missing
/// book a failure.
fn gnuchess_book() -> Option<Book> {
    let path = std::env::var("ESCAQUE_GNUCHESS_BOOK").unwrap_or_else(|_| GNUCHESS_BOOK.into());
    match Book::open(&path) {
        Ok(book) => Some(book),
        Err(e) => {
            assert!(
                std::env::var("ESCAQUE_REQUIRE_GNUCHESS_BOOK").as_deref() != Ok("1"),
                "ESCAQUE_REQUIRE_GNUCHESS_BOOK=1 but the gnuchess book cannot be read \
                 (install it with scripts/gnuchess-book.sh): {}",
                e.message(Lang::En)
            );
            eprintln!(
                "SKIPPED: {}; install Debian's gnuchess-book (scripts/gnuchess-book.sh)",
                e.message(Lang::En)
            );
            None
        }
    }
}

#[test]
fn keys_and_moves_equal_python_chess_on_the_gnuchess_book() {
    // The keys need no book: every position's key is python-chess's.
    let rows: Vec<(&str, &str, &str)> = REFERENCE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split('\t');
            (f.next().unwrap(), f.next().unwrap(), f.next().unwrap_or(""))
        })
        .collect();
    assert_eq!(rows.len(), 3659);
    for &(fen, key, _) in &rows {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(format!("{:016x}", Book::key(&pos)), key, "{fen}");
    }
    let Some(book) = gnuchess_book() else { return };
    let mut entries_seen = 0;
    let mut castles = 0;
    for &(fen, _, want) in &rows {
        let pos = Position::from_fen(fen).unwrap();
        let got: Vec<String> = book
            .entries_for(book::key(&pos))
            .iter()
            .map(|e| {
                let mv = book::decode_move(&pos, e.raw_move);
                castles += mv.is_some_and(|m| m.is_castle()) as usize;
                let mv = mv.map_or("-".to_string(), |m| m.to_string());
                format!("{:04x}:{}:{}:{mv}", e.raw_move, e.weight, e.learn)
            })
            .collect();
        assert_eq!(got.join(" "), want, "{fen}");
        entries_seen += got.len();
        // `moves` is the same list without the illegal ones.
        let legal: Vec<String> = want
            .split_whitespace()
            .filter_map(|e| {
                let f: Vec<&str> = e.split(':').collect();
                (f[3] != "-").then(|| format!("{}:{}", f[3], f[1]))
            })
            .collect();
        let moves: Vec<String> = book
            .moves(&pos)
            .iter()
            .map(|(m, w)| format!("{m}:{w}"))
            .collect();
        assert_eq!(moves, legal, "{fen}");
    }
    assert!(entries_seen > 2000, "{entries_seen}");
    assert!(castles > 50, "{castles}");
}

#[test]
fn bad_books_are_refused_with_a_reason() {
    for (bytes, want) in [
        (vec![], "empty"),
        (vec![0u8; 15], "15 bytes"),
        (vec![0u8; 33], "33 bytes"),
    ] {
        let e = Book::from_bytes(&bytes).unwrap_err();
        assert!(
            e.message(Lang::En).contains(want),
            "{}",
            e.message(Lang::En)
        );
        assert!(!e.message(Lang::Es).is_empty());
    }
    let mut unsorted = book::write(&[Entry {
        key: 9,
        raw_move: 0,
        weight: 1,
        learn: 0,
    }]);
    unsorted.extend_from_slice(&[0u8; 16]);
    assert!(matches!(
        Book::from_bytes(&unsorted),
        Err(BookError::Unsorted { index: 1 })
    ));
    let dir = std::env::temp_dir();
    // A (sparse) file over the limit is refused before it is read.
    let big = dir.join(format!("escaque-big-book-{}.bin", std::process::id()));
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(book::MAX_FILE_SIZE + 16).unwrap();
    let e = Book::open(&big).unwrap_err();
    std::fs::remove_file(&big).unwrap();
    assert!(matches!(e, BookError::TooLarge { len } if len == book::MAX_FILE_SIZE + 16));
    assert!(e.message(Lang::En).contains("too large"));
    let e = Book::open(dir.join("escaque-no-such-book.bin")).unwrap_err();
    assert!(matches!(e, BookError::Io { .. }));
    assert!(e.to_string().starts_with("no se puede leer el libro"));
}

fn positions() -> Vec<Position> {
    let mut out = vec![Position::new()];
    let mut pos = Position::new();
    for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"] {
        pos.play_unchecked(uci(&pos, m));
        out.push(pos);
    }
    out.push(Position::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap());
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any bytes: a book or a typed error, and any book answers any position.
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(b) = Book::from_bytes(&bytes) {
            for pos in positions() {
                let _ = b.moves(&pos);
                let _ = b.pick(&pos, 1.5, 0.5);
            }
        }
    }

    /// Random moves and weights under real keys: only legal moves come out.
    #[test]
    fn random_entries_give_only_legal_moves(
        raw in proptest::collection::vec((0usize..8, any::<u16>(), any::<u16>(), any::<u32>()), 1..40),
        x in 0.0f64..1.0,
        sharpness in 0.5f64..3.0,
    ) {
        let ps = positions();
        let entries: Vec<Entry> = raw
            .iter()
            .map(|&(i, raw_move, weight, learn)| Entry { key: book::key(&ps[i]), raw_move, weight, learn })
            .collect();
        let b = Book::from_bytes(&book::write(&entries)).unwrap();
        prop_assert_eq!(b.len(), entries.len());
        for pos in &ps {
            for (m, _) in b.moves(pos) {
                prop_assert!(pos.is_legal(m));
            }
            if let Some(m) = b.pick(pos, sharpness, x) {
                prop_assert!(b.moves(pos).iter().any(|&(bm, w)| bm == m && w > 0));
            }
        }
    }
}

#[test]
fn the_shipped_book_holds_the_main_lines() {
    let b = Book::shipped();
    assert!(b.len() > 5000, "{}", b.len());
    let first = b.moves(&Position::new());
    let top: Vec<String> = first.iter().take(2).map(|(m, _)| m.to_string()).collect();
    assert_eq!(top, ["e2e4", "d2d4"]);
    // After 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6, castling is the main line.
    let mut pos = Position::new();
    for m in [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
    ] {
        pos.play_unchecked(uci(&pos, m));
    }
    let (m, _) = b.moves(&pos)[0];
    assert!(m.is_castle(), "{m}");
}

fn search(engine: &mut Engine, pos: &Position) -> escaque_engine::SearchResult {
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    engine.search(pos, &[], &limits, &AtomicBool::new(false))
}

#[test]
fn the_engine_plays_from_its_book_as_far_as_its_level_knows() {
    let mut engine = Engine::new();
    engine.set_seed(27);
    // No book by default (analysis searches every position).
    assert!(!search(&mut engine, &Position::new()).book);
    engine.set_book(Some(Book::shipped()));
    // Master follows the book as far as it goes: the Ruy Lopez to move 4.
    let mut pos = Position::new();
    for m in [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
    ] {
        pos.play_unchecked(uci(&pos, m));
    }
    let r = search(&mut engine, &pos);
    assert!(
        r.book
            && Book::shipped()
                .moves(&pos)
                .iter()
                .any(|&(m, _)| Some(m) == r.best_move)
    );
    assert_eq!((r.nodes, r.pv.len()), (0, 1));
    // A beginner knows a first move only (2 plies), a club player five (10).
    engine.set_level(Level::Beginner);
    assert_eq!(engine.book_plies(), 2);
    assert!(search(&mut engine, &Position::new()).book);
    let mut after = Position::new();
    after.play_unchecked(uci(&after, "e2e4"));
    assert!(search(&mut engine, &after).book);
    after.play_unchecked(uci(&after, "e7e5"));
    assert!(
        !search(&mut engine, &after).book,
        "ply 2 is beyond a beginner's book"
    );
    engine.set_level(Level::ClubPlayer);
    assert_eq!(engine.book_plies(), 10);
    assert!(search(&mut engine, &after).book);
    let depths: Vec<u32> = Level::ALL
        .iter()
        .map(|&l| {
            engine.set_level(l);
            engine.book_plies()
        })
        .collect();
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    // Out of book: a search. Several lines or `go infinite`: no book.
    engine.set_level(Level::Master);
    let mut odd = Position::new();
    odd.play_unchecked(uci(&odd, "h2h3"));
    odd.play_unchecked(uci(&odd, "h7h6"));
    assert!(!search(&mut engine, &odd).book);
    engine.set_multipv(3);
    assert!(!search(&mut engine, &Position::new()).book);
    engine.set_multipv(1);
    let infinite = Limits {
        infinite: true,
        depth: Some(2),
        ..Limits::default()
    };
    let r = engine.search(&Position::new(), &[], &infinite, &AtomicBool::new(false));
    assert!(!r.book);
    engine.set_book(None);
    assert!(!search(&mut engine, &Position::new()).book);
}

#[test]
fn weak_levels_choose_more_widely_than_strong_ones() {
    // The same book, 400 first moves each: the beginner (weights as they
    // are) plays 1.e4 less often than the master (weights squared).
    let share = |level: Level| {
        let mut engine = Engine::new();
        engine.set_seed(5);
        engine.set_book(Some(Book::shipped()));
        engine.set_level(level);
        let n = (0..400)
            .filter(|_| {
                search(&mut engine, &Position::new())
                    .best_move
                    .unwrap()
                    .to_string()
                    == "e2e4"
            })
            .count();
        n as f64 / 400.0
    };
    let (weak, strong) = (share(Level::Beginner), share(Level::Master));
    // Expected: 2020/3807 ≈ 0.53 and 2020²/Σw² ≈ 0.70.
    assert!((0.45..0.62).contains(&weak), "{weak}");
    assert!((0.62..0.78).contains(&strong), "{strong}");
}

#[test]
fn uci_own_book_and_book_file() {
    let mut s = Session::new();
    s.uci.handle_line("uci");
    let out = s.take();
    assert!(out.contains("option name OwnBook type check default false"));
    assert!(out.contains("option name BookFile type string default <empty>"));
    // Off by default: a search.
    s.uci.handle_line("position startpos");
    s.uci.handle_line("go depth 3");
    let out = s.take_when("bestmove");
    assert!(
        !out.contains("book move") && out.contains("info depth"),
        "{out}"
    );
    s.uci.handle_line("setoption name OwnBook value true");
    s.uci.handle_line("position startpos moves e2e4 e7e5");
    s.uci.handle_line("go depth 3");
    let out = s.take_when("bestmove");
    assert!(out.contains("info string book move"), "{out}");
    let pos = {
        let mut p = Position::new();
        p.play_unchecked(uci(&p, "e2e4"));
        p.play_unchecked(uci(&p, "e7e5"));
        p
    };
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    let best = uci(&pos, best.split_whitespace().next().unwrap());
    assert!(Book::shipped().moves(&pos).iter().any(|&(m, _)| m == best));
    // A file that cannot be read: said, and the book in use is kept.
    s.uci
        .handle_line("setoption name BookFile value /nonexistent/libro.bin");
    let out = s.take();
    assert!(
        out.contains("info string BookFile: cannot read the opening book /nonexistent/libro.bin"),
        "{out}"
    );
    s.uci.handle_line("go depth 3");
    assert!(s.take_when("bestmove").contains("book move"));
    // A file that is not a book.
    let path = std::env::temp_dir().join(format!("escaque-not-a-book-{}.bin", std::process::id()));
    std::fs::write(&path, b"not a polyglot book").unwrap();
    s.uci
        .handle_line(&format!("setoption name BookFile value {}", path.display()));
    assert!(s.take().contains("not a Polyglot book: 19 bytes"));
    // A book of one move.
    let one = book::write(&[Entry {
        key: book::key(&pos),
        raw_move: book::encode_move(&pos, uci(&pos, "b1c3")),
        weight: 1,
        learn: 0,
    }]);
    std::fs::write(&path, one).unwrap();
    s.uci
        .handle_line(&format!("setoption name BookFile value {}", path.display()));
    assert!(s.take().contains("1 entries"));
    s.uci.handle_line("go depth 3");
    let out = s.take_when("bestmove");
    assert!(out.contains("bestmove b1c3"), "{out}");
    std::fs::remove_file(&path).unwrap();
    // Back to the shipped book; then off.
    s.uci.handle_line("setoption name BookFile value <empty>");
    s.uci.handle_line("setoption name OwnBook value false");
    s.uci.handle_line("go depth 3");
    assert!(!s.take_when("bestmove").contains("book move"));
    s.uci.handle_line("setoption name OwnBook value maybe");
    assert!(s
        .take()
        .contains("invalid value 'maybe' for option OwnBook"));
    s.uci.handle_line("quit");
}

#[test]
fn an_engine_given_a_book_starts_with_own_book_on() {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let mut engine = Engine::new();
    engine.set_book(Some(Book::shipped()));
    let mut u = Uci::with_engine(engine, SharedBuf(buf.clone()));
    u.handle_line("uci");
    let out = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
    assert!(out.contains("option name OwnBook type check default true"));
    u.handle_line("quit");
}
