//! The playable reading of FEN (`Position::from_fen_playable`) against the
//! strict one and against shakmaty's relaxed validation (a dev-dependency
//! oracle): arbitrary text never panics, a position is accepted exactly when
//! shakmaty accepts it after ignoring the same relaxable faults, and then both
//! generate the same legal moves to depth 2.

use std::collections::BTreeSet;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _, PositionError};

use escaque::{FenWarning, Position};

fn their(fen: &str) -> Option<Chess> {
    let setup: Fen = fen.parse().ok()?;
    setup
        .into_position::<Chess>(CastlingMode::Standard)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_too_much_material)
        .ok()
}

fn moves_ours(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn moves_theirs(pos: &Chess) -> BTreeSet<String> {
    pos.legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect()
}

/// Legal moves here and after each of them.
fn agree(ours: &Position, theirs: &Chess, fen: &str) {
    assert_eq!(moves_ours(ours), moves_theirs(theirs), "{fen}");
    for m in ours.legal_moves() {
        let mut a = *ours;
        a.play_unchecked(m);
        let uci: shakmaty::uci::UciMove = m.to_string().parse().unwrap();
        let tm = uci.to_move(theirs).unwrap();
        let mut b = theirs.clone();
        b.play_unchecked(tm);
        assert_eq!(moves_ours(&a), moves_theirs(&b), "{fen} then {m}");
    }
}

fn more_than_16(fen: &str) -> bool {
    let board = fen.split(' ').next().unwrap_or("");
    let white = board.chars().filter(|c| c.is_ascii_uppercase()).count();
    let black = board.chars().filter(|c| c.is_ascii_lowercase()).count();
    white > 16 || black > 16
}

/// A random board from `rng`: kings somewhere (now and then missing, doubled
/// or at home with rooks), pieces and pawns anywhere at about a quarter of
/// the squares, any castling field and en passant square.
fn board(rng: &mut ChaCha8Rng) -> String {
    const PIECES: &[u8] = b"PpNnBbRrQq";
    let mut sq = [b'.'; 64];
    for s in sq.iter_mut() {
        if rng.random_range(0..4) == 0 {
            *s = PIECES[rng.random_range(0..PIECES.len())];
        }
    }
    // Pawns mostly off the back ranks, so that more boards are playable.
    for s in (0..8).chain(56..64) {
        if matches!(sq[s], b'P' | b'p') && rng.random_range(0..4) != 0 {
            sq[s] = b'.';
        }
    }
    if rng.random_range(0..50) != 0 {
        sq[rng.random_range(0..64)] = b'K';
    }
    if rng.random_range(0..50) != 0 {
        sq[rng.random_range(0..64)] = b'k';
    }
    let castling = ["-", "KQkq", "K", "Qk", "kq", "KQ", "q"][rng.random_range(0..7)];
    if castling != "-" && rng.random_range(0..2) == 0 {
        sq[4] = b'K';
        sq[0] = b'R';
        sq[7] = b'R';
        sq[60] = b'k';
        sq[56] = b'r';
        sq[63] = b'r';
    }
    let ep = ["-", "-", "-", "a3", "d3", "e6", "h6", "c6", "f3", "e4"][rng.random_range(0..10)];
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match sq[rank * 8 + file] {
                b'.' => empty += 1,
                c => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c as char);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let turn = if rng.random_range(0..2) == 0 {
        'w'
    } else {
        'b'
    };
    format!("{fen} {turn} {castling} {ep} 0 1")
}

#[test]
fn playable_reading_agrees_with_shakmaty_relaxed() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let (mut accepted, mut strict_ok) = (0, 0);
    let mut seen = [false; 4];
    for _ in 0..30_000 {
        let fen = board(&mut rng);
        let ours = Position::from_fen_playable(&fen);
        if let Ok(s) = Position::from_fen(&fen) {
            // What the strict reading accepts, the playable one accepts as is.
            strict_ok += 1;
            let (p, warnings) = ours.clone().unwrap();
            assert_eq!(p, s, "{fen}");
            assert!(warnings.is_empty(), "{fen}: {warnings:?}");
        }
        match (ours, their(&fen)) {
            (Ok((pos, warnings)), Some(theirs)) => {
                accepted += 1;
                for w in &warnings {
                    seen[match w {
                        FenWarning::ImpossibleCheck => 0,
                        FenWarning::ImpossibleMaterial { .. } => 1,
                        FenWarning::CastlingDropped { .. } => 2,
                        FenWarning::EnPassantDropped { .. } => 3,
                    }] = true;
                }
                agree(&pos, &theirs, &fen);
            }
            (Err(_), None) => {}
            (Err(e), Some(_)) => assert!(
                more_than_16(&fen),
                "{fen}: refused ({e}) but shakmaty plays it"
            ),
            (Ok((pos, w)), None) => panic!(
                "{fen}: accepted as {} ({w:?}) but shakmaty refuses it",
                pos.to_fen()
            ),
        }
    }
    // The boards were varied enough to mean something.
    assert!(accepted > 3_000, "{accepted} accepted");
    assert!(accepted > strict_ok, "{accepted} vs {strict_ok}");
    assert_eq!(seen, [true; 4], "every kind of warning was met");
}

proptest! {
    #[test]
    fn playable_reading_never_panics(text in "\\PC{0,90}") {
        let _ = Position::from_fen_playable(&text);
    }
}

#[test]
fn the_published_unreachable_positions() {
    // From the perft suites that Stockfish and python-chess play: an
    // impossible double check, and a castling right without its rook.
    let (pos, w) = Position::from_fen_playable("3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1").unwrap();
    assert_eq!(w, vec![FenWarning::ImpossibleCheck]);
    assert!(pos.is_check());
    let (pos, w) = Position::from_fen_playable("r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1").unwrap();
    assert_eq!(w, vec![FenWarning::CastlingDropped { right: 'q' }]);
    assert_eq!(pos.castling_rights().to_fen(), "KQ");
    // What cannot be played stays an error.
    for bad in [
        "8/8/8/8/8/8/8/K7 w - - 0 1",    // no black king
        "k7/8/8/8/8/8/8/KK6 w - - 0 1",  // two white kings
        "k7/8/8/8/8/8/1q6/K7 b - - 0 1", // White, not to move, in check
        "k6P/8/8/8/8/8/8/K7 w - - 0 1",  // pawn on the last rank
    ] {
        assert!(Position::from_fen_playable(bad).is_err(), "{bad}");
    }
}
