//! Property tests: FEN reading never panics, FEN round-trips, and the
//! incrementally updated hash always equals the hash computed from scratch.

use escaque::{Position, STARTING_FEN};
use proptest::prelude::*;

// The number of cases: the default here, `ESCAQUE_FUZZ_CASES` for a long run.
use crate::fuzz_cases;

/// A position reached by playing the given move choices from the start (each
/// choice picks one legal move by index, modulo the number of moves).
fn play_choices(choices: &[u16]) -> Vec<Position> {
    let mut pos = Position::new();
    let mut seen = vec![pos];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[c as usize % moves.len()]);
        seen.push(pos);
    }
    seen
}

/// FEN-like strings: fields built from the characters FEN uses, so that the
/// validation steps past the syntax are reached often.
fn fen_like() -> impl Strategy<Value = String> {
    let row = "[pnbrqkPNBRQK1-8]{1,9}";
    (
        prop::collection::vec(row, 1..10),
        "[wbx-]{1,2}",
        "[KQkq-]{1,5}",
        "(-|[a-i][1-9])",
        "[0-9]{1,3}",
        "[0-9]{1,3}",
    )
        .prop_map(|(rows, t, c, ep, h, f)| format!("{} {t} {c} {ep} {h} {f}", rows.join("/")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases::cases(3000)))]

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC*") {
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn fen_like_text_never_panics_and_valid_ones_round_trip(s in fen_like()) {
        if let Ok(pos) = Position::from_fen(&s) {
            let again = Position::from_fen(&pos.to_fen()).unwrap();
            prop_assert_eq!(again, pos);
        }
    }

    #[test]
    fn mutated_start_fen_never_panics(idx in 0usize..56, ch in any::<char>()) {
        let mut chars: Vec<char> = STARTING_FEN.chars().collect();
        chars[idx] = ch;
        let s: String = chars.into_iter().collect();
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn written_fen_reads_back_identical(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for pos in play_choices(&choices) {
            let fen = pos.to_fen();
            prop_assert_eq!(Position::from_fen(&fen), Ok(pos));
        }
    }

    #[test]
    fn incremental_hash_equals_fresh_hash(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for pos in play_choices(&choices) {
            prop_assert_eq!(pos.zobrist(), pos.compute_hash());
            if let Some(null) = pos.null_move() {
                prop_assert_eq!(null.zobrist(), null.compute_hash());
            }
        }
    }
}

#[test]
fn move_counters_saturate_instead_of_overflowing() {
    // Tests run in debug too, where an overflow would panic.
    let fen = "4k3/8/8/8/8/8/8/4K2R b K - 4294967295 4294967295";
    let mut pos = Position::from_fen(fen).unwrap();
    let m = pos.legal_moves()[0];
    pos.play(m).unwrap();
    assert_eq!(pos.halfmove_clock(), u32::MAX);
    assert_eq!(pos.fullmove_number(), u32::MAX);
    let null = pos.null_move().unwrap();
    assert_eq!(null.halfmove_clock(), u32::MAX);
}

proptest! {
    #[test]
    fn has_legal_moves_agrees_with_the_count(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for pos in play_choices(&choices) {
            prop_assert_eq!(pos.has_legal_moves(), pos.count_legal_moves() > 0);
        }
    }
}
