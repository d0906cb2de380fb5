//! The UCI loop driven in-process.

use std::sync::{Arc, Mutex};

use escaque::Position;
use escaque_engine::uci::{parse_move, SharedBuf, Uci};

struct Session {
    buf: Arc<Mutex<Vec<u8>>>,
    uci: Uci,
}

impl Session {
    fn new() -> Session {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let uci = Uci::new(SharedBuf(buf.clone()));
        Session { buf, uci }
    }
    fn send(&mut self, line: &str) -> bool {
        self.uci.handle_line(line)
    }
    fn output(&self) -> String {
        String::from_utf8(self.buf.lock().unwrap().clone()).unwrap()
    }
    fn take(&self) -> String {
        let mut b = self.buf.lock().unwrap();
        let s = String::from_utf8(b.clone()).unwrap();
        b.clear();
        s
    }
    /// Waits (polling, no time limit) until the output contains `needle`.
    fn wait_for(&self, needle: &str) -> String {
        loop {
            let out = self.output();
            if out.contains(needle) {
                return out;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
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
        let m = parse_move(&pos, t).unwrap();
        pos.play_unchecked(m);
    }
    assert!(parse_move(&pos, bestmove(&out).unwrap()).is_some());
    s.take();
    s.send("go movetime 50");
    let out = s.wait_for("bestmove");
    assert!(parse_move(&pos, bestmove(&out).unwrap()).is_some());
    s.take();
    s.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let out = s.wait_for("bestmove");
    assert!(parse_move(&pos, bestmove(&out).unwrap()).is_some());
    s.take();
    s.send("go nodes 5000");
    let out = s.wait_for("bestmove");
    assert!(parse_move(&pos, bestmove(&out).unwrap()).is_some());
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
    assert!(parse_move(&Position::new(), bestmove(&out).unwrap()).is_some());
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
    let out = s.wait_for("bestmove");
    let infos = out.lines().filter(|l| l.starts_with("info string")).count();
    assert!(infos >= 10, "{out}");
    // The illegal e2e5 left the start position in place; the answer is legal there.
    assert!(parse_move(&Position::new(), bestmove(&out).unwrap()).is_some());
    s.send("isready");
    s.wait_for("readyok");
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
