//! The `escaque perft` command, run as a user runs it.

use crate::common;

/// Runs `escaque ARGS` with nothing on standard input: whether it succeeded,
/// standard output and standard error.
fn escaque(args: &[&str]) -> (bool, String, String) {
    let (out, err, ok) = common::run_raw(args, "");
    (ok, out, err)
}

#[test]
fn perft_prints_total_time_and_speed() {
    let (ok, out, _) = escaque(&["perft", "4"]);
    assert!(ok);
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("nodos: 197281 "), "{last}");
    assert!(
        last.contains("tiempo:") && last.contains("nodos/s:"),
        "{last}"
    );
}

#[test]
fn divide_lists_root_moves_in_coordinates() {
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    let (ok, out, _) = escaque(&["perft", "3", "--divide", "--fen", fen]);
    assert!(ok);
    let moves: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("nodos"))
        .collect();
    assert_eq!(moves.len(), 14);
    assert!(moves.iter().any(|l| l.starts_with("e2e4: ")), "{out}");
    let sum: u64 = moves
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 2812);
    assert!(out.lines().last().unwrap().starts_with("nodos: 2812 "));
}

#[test]
fn bad_fen_is_an_error_in_spanish_or_english() {
    let (ok, _, err) = escaque(&["perft", "2", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert!(!ok);
    assert!(
        err.contains("FEN no válido") && err.contains("reyes"),
        "{err}"
    );
    let (ok, _, err) = escaque(&["--idioma", "en", "perft", "2", "--fen", "nonsense"]);
    assert!(!ok);
    assert!(err.contains("invalid FEN"), "{err}");
}

#[test]
fn perft_plays_from_an_unreachable_position_and_says_what_it_relaxed() {
    // Castling right `q` while Black's king is not on e8: dropped, and said.
    let (ok, _, err) = escaque(&[
        "perft",
        "2",
        "--fen",
        "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1",
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("derecho de enroque q"), "{err}");
    // The impossible double check: played, not refused.
    let (ok, out, err) = escaque(&[
        "perft",
        "1",
        "--fen",
        "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("nodos: 4"), "{out}");
}
