//! What a GUI may send that is not what it meant (issue 63): a line that is
//! not UTF-8, a `go` whose limits cannot be read, numbers beyond range, and
//! the end of input in the middle of a search. The loop is run over a
//! reader, as `escaque uci` runs it over standard input; `run` returning is
//! the program ending.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use escaque_engine::uci::{run, SharedBuf};
use proptest::prelude::*;

/// The number of cases: the default here, `ESCAQUE_FUZZ_CASES` for a long run.
#[path = "../../../testing/fuzz_cases.rs"]
mod fuzz_cases;

/// Runs the loop over `input` on its own thread and returns its output,
/// failing (rather than hanging) when it has not ended after `limit`.
fn run_script(input: &[u8], limit: Duration) -> (String, Duration) {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let (input, out) = (input.to_vec(), buf.clone());
    let start = Instant::now();
    let handle = std::thread::spawn(move || run(&input[..], SharedBuf(out)));
    while !handle.is_finished() {
        assert!(
            start.elapsed() < limit,
            "the loop did not end after its input ended: {}",
            String::from_utf8_lossy(&buf.lock().unwrap())
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    handle.join().unwrap();
    let out = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
    (out, start.elapsed())
}

/// Generous: only to fail instead of hanging; the loop ends well within a
/// second (`escaque uci`'s test reports the time).
const LIMIT: Duration = Duration::from_secs(20);

#[test]
fn a_line_that_is_not_utf8_is_reported_and_reading_goes_on() {
    let (out, _) = run_script(b"uci\n\xff\nisready\nquit\n", LIMIT);
    assert!(out.contains("uciok"), "{out}");
    assert!(
        out.contains("info string line 2 is not UTF-8 (byte 1): skipped"),
        "{out}"
    );
    assert!(out.contains("readyok"), "{out}");
    // A name in Latin-1 in a setoption: that line only is lost.
    let (out, _) = run_script(
        b"setoption name BookFile value Jos\xe9.bin\nisready\n",
        LIMIT,
    );
    assert!(out.contains("line 1 is not UTF-8 (byte 34)"), "{out}");
    assert!(out.ends_with("readyok\n"), "{out}");
}

#[test]
fn stop_and_quit_after_a_bad_line_end_a_search() {
    let (out, _) = run_script(b"uci\ngo\n\xff\nstop\nquit\n", LIMIT);
    assert!(out.contains("not UTF-8"), "{out}");
    assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
}

#[test]
fn the_end_of_input_ends_any_search() {
    for script in [
        &b"uci\ngo\n"[..],
        b"go infinite\n",
        b"go ponder\n",
        b"position startpos\ngo depth 200\n",
        b"position startpos\ngo nodes 10000000000\n",
        b"go wtime 100000000 btime 100000000\n",
        b"go movestogo movetime\n",
        b"go nodes 18446744073709551616\n",
        b"go depth 99999999999999999999\n",
        b"uci\ngo\n\xff\n",
    ] {
        let (out, took) = run_script(script, LIMIT);
        // The search answered before the program ended.
        assert_eq!(
            out.matches("bestmove ").count(),
            1,
            "{}: {out}",
            String::from_utf8_lossy(script)
        );
        eprintln!(
            "{:?}: ended after {took:?}",
            String::from_utf8_lossy(script)
        );
    }
}

#[test]
fn a_go_whose_limits_cannot_be_read_names_them_and_is_no_endless_search() {
    for (line, named) in [
        ("go movestogo movetime", vec!["go movestogo", "go movetime"]),
        (
            "go nodes 18446744073709551616",
            vec!["go nodes: '18446744073709551616' is not a number from 0 to 18446744073709551615"],
        ),
        (
            "go depth 99999999999999999999",
            vec!["go depth: '99999999999999999999' is not a number from 0 to 4294967295"],
        ),
        ("go depth -3", vec!["go depth: '-3'"]),
        ("go movetime banana", vec!["go movetime: 'banana'"]),
    ] {
        let mut s = crate::common::Session::new();
        s.send("position startpos");
        s.send(line);
        // Answered by itself, without `stop`: a search of one ply.
        let out = s.wait_for("bestmove");
        for n in named {
            assert!(out.contains(&format!("info string {n}")), "{line}: {out}");
        }
        assert!(
            out.contains("no limit could be read; searching depth 1"),
            "{line}: {out}"
        );
    }
    // The readable parts are honoured: a depth beside a bad movetime.
    let mut s = crate::common::Session::new();
    s.send("position startpos");
    s.send("go movetime x depth 2");
    let out = s.wait_for("bestmove");
    assert!(out.contains("go movetime: 'x'"), "{out}");
    assert!(out.contains("info depth 2"), "{out}");
    assert!(!out.contains("info depth 3"), "{out}");
    // A negative clock is a clock that has run out: read as 0, no complaint.
    let mut s = crate::common::Session::new();
    s.send("position startpos");
    s.send("go wtime -50 btime 1000");
    let out = s.wait_for("bestmove");
    assert!(!out.contains("info string go"), "{out}");
}

/// A line of the UCI protocol's words and numbers, and of anything else.
fn uci_line() -> impl Strategy<Value = Vec<u8>> {
    let word = prop_oneof![
        prop::sample::select(vec![
            "uci",
            "isready",
            "ucinewgame",
            "position",
            "startpos",
            "fen",
            "moves",
            "e2e4",
            "e7e5",
            "go",
            "depth",
            "nodes",
            "movetime",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "mate",
            "searchmoves",
            "stop",
            "ponderhit",
            "setoption",
            "name",
            "value",
            "Hash",
            "Threads",
            "MultiPV",
            "debug",
            "on",
            "d",
            "1",
            "3",
            "-1",
            "18446744073709551616",
            "99999999999999999999",
        ])
        .prop_map(|w| w.as_bytes().to_vec()),
        // Any bytes but a line's end.
        prop::collection::vec(
            any::<u8>().prop_map(|b| if b == b'\n' || b == b'\r' { b' ' } else { b }),
            0..6
        ),
    ];
    prop::collection::vec(word, 0..8).prop_map(|ws| ws.join(&b' '))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: fuzz_cases::cases(48), ..ProptestConfig::default() })]

    /// The UCI command reader on any input: it ends when the input ends,
    /// every `go` is answered once, and what it writes is text. `go
    /// infinite` and `go` alone are left out: with no `stop` they search
    /// until the end of input, which the test above covers.
    #[test]
    fn any_input_is_read_to_its_end(lines in prop::collection::vec(uci_line(), 0..12)) {
        let mut input = Vec::new();
        let mut gos = 0;
        for l in &lines {
            // Searches kept short, so that a case takes milliseconds.
            let l = if l.starts_with(b"go") { [&b"go depth 2 "[..], &l[2..]].concat() } else { l.clone() };
            let first = std::str::from_utf8(&l).ok().and_then(|t| t.split_whitespace().next());
            gos += usize::from(first == Some("go"));
            input.extend_from_slice(&l);
            input.push(b'\n');
        }
        let (out, _) = run_script(&input, LIMIT);
        // Every `go` read is answered once (a new one stops the last).
        let bestmoves = out.lines().filter(|l| l.starts_with("bestmove")).count();
        prop_assert_eq!(bestmoves, gos, "{}", out);
    }
}
