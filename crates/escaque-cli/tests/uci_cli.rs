//! `escaque uci` with its strength flags, run as a match script runs it.

use escaque::Position;

use crate::common;

/// Sends `input` to `escaque uci ARGS` and returns what it printed.
fn uci(args: &[&str], input: &str) -> String {
    let mut all = vec!["uci"];
    all.extend_from_slice(args);
    common::run_with_input(&all, input)
}

fn best_move(out: &str) -> &str {
    let line = out
        .lines()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {out}"));
    line.split_whitespace().nth(1).unwrap()
}

#[test]
fn every_strength_flag_answers_with_a_legal_move() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let pos = Position::from_fen(fen).unwrap();
    for args in [
        &[][..],
        &["--ajuste", "200"],
        &["--ajuste", "2600"],
        &["--setting", "1400"],
        &["--nivel", "1"],
        &["--level", "9"],
        &["--elo", "1500"],
        &["--hilos", "2"],
    ] {
        let out = uci(args, &format!("position fen {fen}\ngo depth 6\n"));
        let mv = best_move(&out);
        assert!(
            escaque::read_move(&pos, mv, escaque::Notation::Uci).is_ok(),
            "{args:?}: {mv} is not legal"
        );
    }
}

#[test]
fn the_options_advertise_the_elo_range() {
    let out = uci(&[], "uci\nquit\n");
    assert!(
        out.contains("option name UCI_Elo type spin default 2380 min 800 max 2380"),
        "{out}"
    );
    assert!(out.contains("uciok"));
}

#[test]
fn out_of_range_strength_flags_are_refused_with_the_range() {
    for (flag, value, range) in [
        ("--elo", "2600", "800..=2380"),
        ("--nivel", "11", "1..=10"),
        ("--ajuste", "5000", "200..=2850"),
        ("--hilos", "0", "1..=256"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_escaque"))
            .args(["uci", flag, value])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(value) && err.contains(range), "{err}");
    }
}

#[test]
fn the_book_flag_opens_from_a_book() {
    // `--libro`: escaque's own book (OwnBook on from the start).
    let out = uci(
        &["--libro"],
        "uci\nposition startpos moves e2e4 e7e5\ngo depth 4\n",
    );
    assert!(
        out.contains("option name OwnBook type check default true"),
        "{out}"
    );
    assert!(out.contains("info string book move"), "{out}");
    let mut pos = Position::new();
    for m in ["e2e4", "e7e5"] {
        pos.play_unchecked(escaque::read_move(&pos, m, escaque::Notation::Uci).unwrap());
    }
    let mv = escaque::read_move(&pos, best_move(&out), escaque::Notation::Uci).unwrap();
    let book = escaque_engine::book::Book::shipped();
    assert!(book.moves(&pos).iter().any(|&(m, _)| m == mv));
    // Without it, a search.
    let out = uci(&[], "position startpos moves e2e4 e7e5\ngo depth 4\n");
    assert!(
        !out.contains("book move") && out.contains("info depth"),
        "{out}"
    );
    // A file that is not there: refused before the loop starts, with the path.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(["uci", "--libro", "/nonexistent/libro.bin"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/libro.bin"), "{err}");
}
