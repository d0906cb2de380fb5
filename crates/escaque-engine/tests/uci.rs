//! The UCI loop driven in-process.

use std::sync::{Arc, Mutex};

use escaque::read::{read_move, Notation};
use escaque::Position;
use escaque_engine::uci::SharedBuf;

use crate::common::Session;

/// A move in UCI notation, read by the rules library.
fn uci_move(pos: &Position, text: &str) -> Result<escaque::Move, escaque::read::MoveError> {
    read_move(pos, text, Notation::Uci)
}

/// Whether `text` is a legal move in `pos`, read by the rules library.
fn is_legal_in(pos: &Position, text: &str) -> bool {
    uci_move(pos, text).is_ok()
}

fn bestmove(out: &str) -> Option<&str> {
    out.lines()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .map(|r| r.split_whitespace().next().unwrap())
}

#[test]
fn handshake_lists_every_option() {
    let mut s = Session::new();
    s.send("uci");
    let out = s.take();
    assert!(out.starts_with("id name escaque"));
    assert!(out.contains("id author"));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "UCI_LimitStrength",
        "UCI_Elo",
        "Skill Level",
        "UCI_ShowWDL",
        "Clear Hash",
        "Use NNUE",
    ] {
        assert!(out.contains(&format!("option name {name} type")), "{name}");
    }
    assert_eq!(out.lines().last(), Some("uciok"));
    s.send("isready");
    assert_eq!(s.take(), "readyok\n");
    assert!(!s.send("quit"));
}

#[test]
fn options_are_set_and_bad_ones_reported() {
    let mut s = Session::new();
    for line in [
        "setoption name Hash value 8",
        "setoption name Threads value 2",
        "setoption name MultiPV value 3",
        "setoption name Ponder value true",
        "setoption name Move Overhead value 50",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1500",
        "setoption name Skill Level value 10",
        "setoption name UCI_ShowWDL value true",
        "setoption name Clear Hash",
        "setoption name UCI_LimitStrength value false",
        "setoption name Skill Level value 20",
    ] {
        s.send(line);
    }
    assert_eq!(s.take(), "", "valid options print nothing");
    s.send("setoption name Hash value lots");
    s.send("setoption name Threads value 0");
    s.send("setoption name Nonsense value 3");
    s.send("setoption Hash 3");
    let out = s.take();
    assert_eq!(out.lines().count(), 4);
    assert!(out.lines().all(|l| l.starts_with("info string")));
    assert!(out.contains("unknown option: Nonsense"));
    // MultiPV 3 gives three lines per depth.
    s.send("go depth 4");
    let out = s.wait_for("bestmove");
    assert!(out.contains("multipv 3"));
    assert!(out.contains(" wdl "));
}

#[test]
fn position_with_moves() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    s.send("d");
    assert_eq!(
        s.take().trim(),
        "info string fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
    s.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8d7");
    s.send("d");
    assert_eq!(
        s.take().trim(),
        "info string fen 8/3k4/8/8/4P3/8/8/4K3 w - - 1 2"
    );
    // Castling and promotion in UCI form; upper case is accepted.
    s.send("position fen r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1 moves E1C1 e8g8 b7b8Q");
    s.send("d");
    assert_eq!(
        s.take().trim(),
        "info string fen rQ3rk1/8/8/8/8/8/8/2KR3R b - - 0 2"
    );
}

#[test]
fn go_depth_and_movetime_answer_a_legal_move() {
    let mut s = Session::new();
    s.send("position startpos moves d2d4 d7d5");
    s.send("go depth 6");
    let out = s.wait_for("bestmove");
    assert!(out.contains("info depth 6 "));
    assert!(out.contains(" pv "));
    let mut pos = Position::new();
    for t in ["d2d4", "d7d5"] {
        let m = uci_move(&pos, t).unwrap();
        pos.play_unchecked(m);
    }
    assert!(is_legal_in(&pos, bestmove(&out).unwrap()));
    s.take();
    s.send("go movetime 50");
    let out = s.wait_for("bestmove");
    assert!(is_legal_in(&pos, bestmove(&out).unwrap()));
    s.take();
    s.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let out = s.wait_for("bestmove");
    assert!(is_legal_in(&pos, bestmove(&out).unwrap()));
    s.take();
    s.send("go nodes 5000");
    let out = s.wait_for("bestmove");
    assert!(is_legal_in(&pos, bestmove(&out).unwrap()));
}

#[test]
fn stop_ends_go_infinite_with_a_bestmove() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go infinite");
    s.wait_for("info depth 5 ");
    assert!(!s.output().contains("bestmove"));
    s.send("stop");
    // `stop` returns once the search thread has printed its answer.
    let out = s.take();
    assert_eq!(out.matches("bestmove").count(), 1);
    assert!(is_legal_in(&Position::new(), bestmove(&out).unwrap()));
    // The engine is usable again.
    s.send("go depth 2");
    s.wait_for("bestmove");
}

#[test]
fn infinite_search_waits_for_stop_even_when_done() {
    let mut s = Session::new();
    // Mate in one is found at once; the answer still waits for `stop`.
    s.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    s.send("go infinite");
    s.wait_for("score mate 1");
    s.send("isready");
    s.wait_for("readyok");
    assert!(!s.output().contains("bestmove"));
    s.send("stop");
    assert_eq!(bestmove(&s.output()), Some("d1d8"));
}

#[test]
fn ponder_then_ponderhit() {
    let mut s = Session::new();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 2000 btime 2000 winc 10 binc 10");
    s.wait_for("info depth 3 ");
    assert!(!s.output().contains("bestmove"));
    s.send("ponderhit");
    s.wait_for("bestmove");
}

#[test]
fn go_mate_and_searchmoves() {
    let mut s = Session::new();
    s.send("position fen r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1");
    s.send("go mate 3");
    let out = s.wait_for("bestmove");
    assert!(out.contains("score mate 3"));
    assert_eq!(bestmove(&out), Some("f6a6"));
    s.take();
    s.send("position startpos");
    s.send("go depth 3 searchmoves a2a3 h2h3");
    let out = s.wait_for("bestmove");
    let b = bestmove(&out).unwrap();
    assert!(b == "a2a3" || b == "h2h3", "{b}");
}

#[test]
fn no_legal_move_answers_none() {
    let mut s = Session::new();
    s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    s.send("go depth 5");
    let out = s.wait_for("bestmove");
    assert!(out.contains("bestmove (none)"));
}

#[test]
fn malformed_input_is_explained_not_fatal() {
    let mut s = Session::new();
    for line in [
        "",
        "   ",
        "hello engine",
        "position",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e5",
        "go depth",
        "go depth x wtime -5 banana",
        "debug maybe",
        "setoption",
        "ponderhit",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "\u{0}\u{1}garbage",
    ] {
        assert!(s.send(line));
    }
    s.send("isready");
    let out = s.wait_for("readyok");
    let infos = out.lines().filter(|l| l.starts_with("info string")).count();
    assert!(infos >= 10, "{out}");
    // The illegal e2e5 left no position: both `go`s answer at once, without
    // a search and without a move.
    assert_eq!(bestmoves(&out), ["bestmove (none)"; 2], "{out}");
    assert!(!out.contains("info depth"), "{out}");
    assert!(out.lines().all(|l| l.is_ascii()), "{out}");
}

/// Every `bestmove` line in `out`.
fn bestmoves(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("bestmove")).collect()
}

#[test]
fn an_unsettable_fen_leaves_no_position_to_search() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4");
    // Refused by the FEN reader (two white kings): the previous position
    // must not be searched.
    s.send("position fen 4k3/8/8/8/8/8/8/3KK3 w - - 0 1");
    let out = s.take();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("info string invalid FEN: "), "{out}");
    assert!(out.contains("no position is set"), "{out}");
    s.send("go depth 6");
    // Answered at once: `go` returns with the answer already written.
    s.send("isready");
    let out = s.wait_for("readyok");
    assert_eq!(bestmoves(&out), ["bestmove (none)"], "{out}");
    let info = out.lines().next().unwrap();
    assert!(info.starts_with("info string no position to search: invalid FEN: "));
    assert!(!out.contains("info depth"), "{out}");
    assert!(out.is_ascii(), "English only: {out}");
    // `d` says the same instead of showing an old position.
    s.take();
    s.send("d");
    assert!(s.take().starts_with("info string no position: invalid FEN"));
}

#[test]
fn a_bad_move_in_the_list_leaves_no_position_to_search() {
    for (line, wanted) in [
        // Illegal: the pawn cannot go three squares.
        (
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d8d1",
            "move 8 of the list: \"d8d1\" is illegal",
        ),
        // Malformed.
        (
            "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8 d7",
            "move 2 of the list: \"e8\" is not a UCI move",
        ),
        // Legal in the previous position but not in this one.
        (
            "position startpos moves e7e5",
            "move 1 of the list: \"e7e5\"",
        ),
    ] {
        let mut s = Session::new();
        s.send("position startpos moves e2e4");
        s.send(line);
        s.send("go movetime 5000");
        s.send("isready");
        let out = s.wait_for("readyok");
        assert_eq!(bestmoves(&out), ["bestmove (none)"], "{line}: {out}");
        assert!(out.contains(wanted), "{line}: {out}");
        assert!(!out.contains("info depth"), "{line}: {out}");
        assert!(out.is_ascii(), "English only: {out}");
    }
}

#[test]
fn a_ponder_or_infinite_go_without_a_position_still_waits_for_stop() {
    let mut s = Session::new();
    s.send("position fen nonsense");
    s.send("go infinite");
    s.send("isready");
    let out = s.wait_for("readyok");
    assert!(out.contains("info string no position to search"), "{out}");
    assert!(
        bestmoves(&out).is_empty(),
        "UCI: no bestmove before stop: {out}"
    );
    s.send("stop");
    assert_eq!(bestmoves(&s.output()), ["bestmove (none)"]);
    s.take();
    s.send("go ponder wtime 1000 btime 1000");
    s.send("isready");
    assert!(bestmoves(&s.wait_for("readyok")).is_empty());
    s.send("ponderhit");
    s.wait_for("bestmove (none)");
}

#[test]
fn a_valid_position_after_a_bad_one_is_searched_again() {
    let mut s = Session::new();
    s.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    s.send("go depth 3");
    s.wait_for("bestmove (none)");
    s.take();
    s.send("position startpos moves e2e4 e7e5 g1f3");
    s.send("go depth 4");
    let out = s.wait_for("bestmove");
    assert!(out.contains("info depth 4 "), "{out}");
    let mut pos = Position::new();
    for t in ["e2e4", "e7e5", "g1f3"] {
        pos.play_unchecked(uci_move(&pos, t).unwrap());
    }
    assert!(is_legal_in(&pos, bestmove(&out).unwrap()), "{out}");
    // And `ucinewgame` also gives a position back after a bad one.
    s.send("position startpos moves e2e4 e2e4");
    s.send("ucinewgame");
    s.take();
    s.send("go depth 3");
    let out = s.wait_for("bestmove");
    assert!(
        is_legal_in(&Position::new(), bestmove(&out).unwrap()),
        "{out}"
    );
}

#[test]
fn searchmoves_are_read_by_the_library_and_bad_ones_reported() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go depth 3 searchmoves a2a3 e2e5 zz h2h3 nodes 100000");
    let out = s.wait_for("bestmove");
    let b = bestmove(&out).unwrap();
    assert!(b == "a2a3" || b == "h2h3", "{out}");
    assert!(
        out.contains("info string go searchmoves: \"e2e5\" is illegal"),
        "{out}"
    );
    assert!(
        out.contains("info string go searchmoves: \"zz\" is not a UCI move"),
        "{out}"
    );
    assert!(!out.contains("unknown parameter"), "{out}");
}

#[test]
fn run_over_a_reader() {
    let input = b"uci\nisready\nposition startpos moves e2e4\ngo depth 3\nquit\n";
    let buf = Arc::new(Mutex::new(Vec::new()));
    escaque_engine::uci::run(&input[..], SharedBuf(buf.clone()));
    let out = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
    assert!(out.contains("uciok"));
    assert!(out.contains("readyok"));
    // `quit` stops the search, which still answers.
    assert!(out.contains("bestmove"));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A game of legal moves picked by `choices`, as UCI texts, and the
    /// position it ends in.
    fn game(choices: &[usize]) -> (Vec<String>, Position) {
        let mut pos = Position::new();
        let mut texts = Vec::new();
        for &c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[c % moves.len()];
            texts.push(m.to_string());
            pos.play_unchecked(m);
        }
        (texts, pos)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A move list is taken whole or not at all: the position after the
        /// last move, or no position when any move is not legal where it
        /// stands (never the position before the bad move).
        #[test]
        fn a_move_list_is_set_whole_or_not_at_all(
            choices in proptest::collection::vec(any::<usize>(), 0..40),
            bad in proptest::option::of((any::<usize>(), "[a-h][1-8][a-h][1-8]|\\PC{1,6}")),
        ) {
            let (mut texts, end) = game(&choices);
            let mut expect_fen = Some(end.to_fen());
            if let Some((at, text)) = bad {
                let at = at % (texts.len() + 1);
                // Inserted only where it is not a legal move (a legal one
                // would make a different, valid game).
                let (_, pos) = game(&choices[..at]);
                let token = text.split_whitespace().next().unwrap_or("x").to_string();
                if uci_move(&pos, &token.to_ascii_lowercase()).is_err() && token != "moves" {
                    texts.insert(at, token);
                    expect_fen = None;
                }
            }
            let mut s = Session::new();
            s.send(&format!("position startpos moves {}", texts.join(" ")));
            s.take();
            s.send("d");
            let out = s.take();
            match expect_fen {
                Some(fen) => prop_assert_eq!(out.trim(), format!("info string fen {fen}")),
                None => prop_assert!(out.starts_with("info string no position: move "), "{}", out),
            }
        }

        /// Any `position` line is answered without a panic, and `go` then
        /// answers a legal move of the position `d` shows, or `(none)`.
        #[test]
        fn any_position_line_then_go_answers_for_that_position(line in "position( (startpos|fen|moves|[a-h][1-8][a-h][1-8]|[pnbrqkPNBRQK1-8/]{1,12}|[wb-]|\\PC{1,5}))*") {
            let mut s = Session::new();
            s.send(&line);
            s.send("d");
            let shown = s.take();
            let fen = shown.lines().last().and_then(|l| l.strip_prefix("info string fen ")).map(str::to_string);
            s.send("go depth 1");
            let out = s.wait_for("bestmove");
            let best = bestmove(&out).unwrap();
            match fen {
                Some(fen) => {
                    let pos = Position::from_fen(&fen).unwrap();
                    prop_assert!(best == "(none)" && pos.legal_moves().is_empty() || is_legal_in(&pos, best), "{}", out);
                }
                None => prop_assert_eq!(best, "(none)"),
            }
        }
    }
}

#[test]
fn unreachable_positions_from_perft_suites_are_searched() {
    // An impossible double check, and a castling right without its king at
    // home: GUIs and perft suites send them; the engine plays from them and
    // says in English what it relaxed.
    for (fen, note) in [
        (
            "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1",
            "no move could have given this check",
        ),
        (
            "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1",
            "castling right q dropped",
        ),
    ] {
        let mut s = Session::new();
        s.send(&format!("position fen {fen}"));
        let out = s.take();
        assert!(out.contains(&format!("info string {note}")), "{out}");
        s.send("go depth 3");
        let out = s.wait_for("bestmove");
        let pos = Position::from_fen_playable(fen).unwrap().0;
        let best = bestmove(&out).unwrap();
        assert!(is_legal_in(&pos, best), "{best} in {fen}: {out}");
    }
}

/// `Use NNUE`: on by default; off, the search evaluates with the
/// hand-written evaluation alone and searches another tree; a value that is
/// not a boolean is refused and changes nothing.
#[test]
fn use_nnue_switches_the_evaluation() {
    let nodes = |out: &str| -> u64 {
        let line = out
            .lines()
            .rev()
            .find(|l| l.starts_with("info") && l.contains(" nodes "))
            .unwrap();
        let mut it = line.split_whitespace();
        it.find(|&t| t == "nodes");
        it.next().unwrap().parse().unwrap()
    };
    let search = |setting: Option<&str>| {
        let mut s = Session::new();
        s.send("uci");
        s.take_when("uciok");
        if let Some(v) = setting {
            s.send(&format!("setoption name Use NNUE value {v}"));
        }
        s.send(
            "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        );
        let out = s.go("depth 8");
        (nodes(&out), out)
    };
    let (default, _) = search(None);
    let (on, _) = search(Some("true"));
    let (off, _) = search(Some("false"));
    let (bad, out) = search(Some("maybe"));
    assert_eq!(default, on);
    assert_ne!(on, off);
    assert_eq!(bad, on);
    assert!(
        out.contains("invalid value 'maybe' for option Use NNUE"),
        "{out}"
    );
}
