//! `escaque pgn revisar` reports recorded results that the dead-position rules
//! contradict (issue 13).

use crate::common;

use common::run_raw;

const PGN: &str = r#"[Event "Dead, then on"]
[White "A"]
[Black "B"]
[Result "1-0"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/3Kr3/8 w - - 0 1"]

1. Kxe2 Kd5 2. Kd3 1-0

[Event "Won on time by a side that could not mate"]
[White "C"]
[Black "D"]
[Result "0-1"]
[SetUp "1"]
[FEN "8/8/4k3/2b5/8/8/4K3/R7 w - - 0 1"]
[Termination "time forfeit"]

1. Ra2 Kd5 0-1

[Event "A fair resignation"]
[White "E"]
[Black "F"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 1-0
"#;

#[test]
fn json_has_result_check_per_game() {
    let (out, err, ok) = run_raw(&["pgn", "revisar", "--json"], PGN);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].contains("\"code\":\"decisive_after_dead_position\""),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains("\"code\":\"continued_after_dead_position\""),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("2 media(s) jugada(s)"), "{}", lines[0]);
    assert!(
        lines[1].contains("\"code\":\"winner_could_not_mate\"") && lines[1].contains("por tiempo"),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains("\"result_check\":[]"), "{}", lines[2]);
}

#[test]
fn text_gives_the_reason_in_english() {
    let (out, err, ok) = run_raw(&["--idioma", "en", "pgn", "check"], PGN);
    assert!(ok, "{err}");
    assert_eq!(out.matches("RESULT CONTRADICTED").count(), 3, "{out}");
    assert!(out.contains("could not mate by any series of legal moves: it is a draw"));
    assert!(
        out.contains("the game ended drawn (5.2.2), not 1-0"),
        "{out}"
    );
}

// ---------------------------------------------------------------- issue 30

const REPEATED: &str = "[Event \"Knights out and back\"]\n[Result \"*\"]\n\n\
    1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n\n\
    [Event \"Fivefold, then on\"]\n[Result \"1-0\"]\n\n\
    1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
    7. Nf3 Nf6 8. Ng1 Ng8 9. e4 e5 1-0\n";

#[test]
fn claims_by_declaring_the_move_and_fivefold_before_the_end() {
    let (out, err, ok) = run_raw(&["pgn", "revisar", "--json"], REPEATED);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    // Black may declare 4... Ng8, the third time of the initial position.
    assert!(
        lines[0].contains(
            "\"claimable\":[],\"claim_moves\":[{\"move\":\"Ng8\",\"claim\":\"threefold_repetition\"}]"
        ),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("\"result_check\":[]"), "{}", lines[0]);
    assert!(
        lines[1].contains("\"code\":\"continued_after_fivefold_repetition\""),
        "{}",
        lines[1]
    );
    assert!(
        lines[1].contains("\"code\":\"decisive_after_fivefold_repetition\""),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("tras la jugada 8"), "{}", lines[1]);
    let (out, _, _) = run_raw(&["--idioma", "en", "pgn", "check"], REPEATED);
    assert!(
        out.contains("can be claimed by declaring the move (9.2.1 a): Ng8 (threefold repetition)")
            || out.contains("can be claimed by declaring the move (9.2.1 a): Ng8"),
        "{out}"
    );
    assert!(
        out.contains("the game ended drawn (9.6.1), but it went on for 2 half-move(s)"),
        "{out}"
    );
    assert!(out.contains("made it a draw (9.6.1), not 1-0"), "{out}");
}
