//! Property tests: no input makes the SAN, coordinate or PGN readers panic.

use proptest::prelude::*;

use escaque::pgn::{PgnReader, ReaderOptions};
use escaque::read::{read_move, Notation};
use escaque::san::{parse_san, SanLang};
use escaque::{Lang, Position};

// The number of cases: the default here, `ESCAQUE_FUZZ_CASES` for a long run.
use crate::fuzz_cases;

/// Positions with many kinds of moves available (castling, en passant,
/// promotion, pins, checks).
const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/1P6/8/3pP3/8/8/6p1/R3K2R w KQ d6 0 1",
    "4k3/4r3/8/8/8/5N2/4N3/4K3 w - - 0 1",
];

/// Text built from the characters moves are made of, so the fuzzing reaches
/// deep into the parsers rather than stopping at the first byte.
fn movelike() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            proptest::sample::select(vec![
                'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '1', '2', '3', '4', '5', '6', '7', '8',
                'K', 'Q', 'R', 'B', 'N', 'D', 'T', 'A', 'C', 'P', 'x', ':', '-', '=', '(', ')',
                '+', '#', '!', '?', 'O', 'o', '0', '.', ' ', '♘', '♕', 'p',
            ]),
            any::<char>(),
        ],
        0..12,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn pgnlike() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            proptest::sample::select(vec![
                "[Event \"x\"]\n",
                "[FEN \"",
                "\"]",
                "\n",
                " ",
                "1.",
                "1...",
                "e4",
                "e5",
                "Nf3",
                "Cc6",
                "O-O",
                "0-0",
                "{",
                "}",
                ";",
                "(",
                ")",
                "$1",
                "$",
                "1-0",
                "0-1",
                "½-½",
                "1/2-1/2",
                "*",
                "%",
                "--",
                "exd6",
                "a.p.",
                "\u{feff}",
                "[%clk 0:01:02]",
                "!?",
                "Rf1",
                "e8=D",
                "\\",
                "\"",
            ])
            .prop_map(|s| s.as_bytes().to_vec()),
            proptest::collection::vec(any::<u8>(), 0..4),
        ],
        0..60,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases::cases(3000)))]

    #[test]
    fn san_parser_never_panics(text in movelike(), raw in ".{0,16}", fen in 0usize..4) {
        let pos = Position::from_fen(FENS[fen]).unwrap();
        for t in [&text, &raw] {
            for lang in [SanLang::Es, SanLang::En, SanLang::Auto] {
                let _ = parse_san(&pos, t, lang);
            }
            for lang in [SanLang::Es, SanLang::En, SanLang::Auto] {
                let _ = read_move(&pos, t, Notation::Any(lang));
                if let Ok(san) = escaque::San::parse(t, Lang::Es) {
                    let _ = san.to_move(&pos);
                }
            }
            let _ = read_move(&pos, t, Notation::Uci);
        }
    }

    #[test]
    fn pgn_reader_never_panics_and_always_ends(bytes in pgnlike(), raw in proptest::collection::vec(any::<u8>(), 0..400)) {
        for input in [&bytes, &raw] {
            let mut games = 0usize;
            for r in PgnReader::with_options(input.as_slice(), ReaderOptions::default()) {
                games += 1;
                if let Err(e) = r {
                    // Every error says where: a real line and column.
                    prop_assert!(e.line >= 1 && e.column >= 1);
                    prop_assert!(!e.to_string().is_empty());
                }
                // Each game consumes input: never more games than bytes.
                prop_assert!(games <= input.len() + 1);
            }
        }
    }
}
