//! The UCI evaluator against Debian's Stockfish (a real engine: `stockfish`,
//! which `scripts/stockfish.sh` installs; `ESCAQUE_STOCKFISH` names another
//! path) and against fake engines written as shell scripts that die, hang or
//! talk nonsense: each gives an error in time, never a hang or a panic.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use escaque::{CastlingMode, Position};
use escaque_analysis::uci_engine::{parse_info, Timeouts, UciError, UciEvaluator};
use escaque_analysis::{AnalysisError, Eval, Evaluator, Settings};

fn stockfish() -> PathBuf {
    let path = PathBuf::from(
        std::env::var("ESCAQUE_STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".into()),
    );
    assert!(
        path.exists(),
        "{} is missing: install Stockfish with scripts/stockfish.sh",
        path.display()
    );
    path
}

fn depth(d: u32) -> Settings {
    Settings {
        depth: Some(d),
        nodes: None,
    }
}

fn fen(f: &str) -> Position {
    Position::from_fen(f).unwrap()
}

/// A fake engine: a shell script in a fresh folder.
fn fake(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "escaque-uci-fake-{}-{name}-{}",
        std::process::id(),
        Instant::now().elapsed().as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("engine.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A fake that reads commands a line at a time: it answers `isready` and
/// leaves at `quit`; `cases` (shell `case` arms) answer the rest.
fn fake_engine(name: &str, cases: &str) -> PathBuf {
    fake(
        name,
        &format!(
            r#"while read -r line; do
  case "$line" in
    isready) echo "readyok" ;;
{cases}
    quit) exit 0 ;;
  esac
done"#
        ),
    )
}

/// A fake that completes the handshake and answers `go` with `on_go`.
fn fake_with_go(name: &str, on_go: &str) -> PathBuf {
    fake_engine(
        name,
        &format!(
            r#"    uci) echo "id name Fake $0"; echo "uciok" ;;
    go*) {on_go} ;;"#
        ),
    )
}

/// Evaluates the start position, which fails with an engine error.
fn fails_on_the_start(ev: &mut UciEvaluator) {
    let e = ev
        .evaluate(&Position::new(), &[], 1, &no_stop())
        .unwrap_err();
    assert!(matches!(e, AnalysisError::Engine(_)), "{e:?}");
}

fn short() -> Timeouts {
    Timeouts {
        handshake: Duration::from_secs(2),
        search: Duration::from_secs(2),
    }
}

fn no_stop() -> AtomicBool {
    AtomicBool::new(false)
}

#[test]
fn stockfish_gives_several_legal_lines_from_whites_view() {
    let mut sf = UciEvaluator::spawn(&stockfish(), depth(10)).unwrap();
    assert!(sf.name().starts_with("Stockfish"), "{}", sf.name());
    let start = Position::new();
    let lines = sf.evaluate(&start, &[], 3, &no_stop()).unwrap();
    assert_eq!(lines.len(), 3);
    let mut firsts: Vec<_> = lines.iter().map(|l| l.moves[0]).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different first moves");
    for l in &lines {
        assert!(l.depth >= 10, "{l:?}");
        assert!(matches!(l.eval, Eval::Cp(c) if c.abs() < 150), "{l:?}");
        let mut p = start;
        for &m in &l.moves {
            p.play(m).expect("every move of the line is legal");
        }
    }
    // The same engine, one line again, Black to move without a queen: the
    // score is turned to White's point of view.
    let p = fen("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
    let l = sf.evaluate(&p, &[], 1, &no_stop()).unwrap();
    assert_eq!(l.len(), 1);
    assert!(matches!(l[0].eval, Eval::Cp(c) if c > 500), "{:?}", l[0]);
}

#[test]
fn stockfish_mates_are_white_positive_black_negative() {
    let mut sf = UciEvaluator::spawn(&stockfish(), depth(8)).unwrap();
    let white_mates = fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let l = sf.evaluate(&white_mates, &[], 1, &no_stop()).unwrap();
    assert_eq!(l[0].eval, Eval::Mate(1));
    assert_eq!(l[0].moves[0].to_string(), "a1a8");
    let black_mates = fen("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1");
    let l = sf.evaluate(&black_mates, &[], 1, &no_stop()).unwrap();
    assert_eq!(l[0].eval, Eval::Mate(-1));
    // A position with no legal move: no line, and the engine is not asked.
    let mated = fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1");
    assert!(sf.evaluate(&mated, &[], 1, &no_stop()).unwrap().is_empty());
    // Nodes instead of depth.
    let mut sf = UciEvaluator::spawn(
        &stockfish(),
        Settings {
            depth: None,
            nodes: Some(20_000),
        },
    )
    .unwrap();
    assert!(!sf
        .evaluate(&Position::new(), &[], 1, &no_stop())
        .unwrap()
        .is_empty());
}

#[test]
fn stockfish_in_chess960_castles_as_escaque_reads_it() {
    let mut sf = UciEvaluator::spawn(&stockfish(), depth(6)).unwrap();
    // White may castle king-side with the king on f1 and the rook on g1
    // (Chess960): castling is written as the king taking its rook.
    let p = Position::from_fen_with(
        "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1",
        CastlingMode::Chess960,
    )
    .unwrap();
    assert!(p.has_chess960_castling());
    for l in sf.evaluate(&p, &[], 5, &no_stop()).unwrap() {
        let mut q = p;
        for &m in &l.moves {
            q.play(m).expect("legal");
        }
    }
    // Back to a standard position: the option is switched off again.
    let l = sf.evaluate(&Position::new(), &[], 1, &no_stop()).unwrap();
    assert_eq!(l.len(), 1);
}

#[test]
fn an_engine_that_cannot_start_or_dies_is_an_error() {
    let missing = PathBuf::from("/nonexistent/engine");
    assert!(matches!(
        UciEvaluator::start(&missing, &[], depth(1), short()),
        Err(UciError::Spawn { .. })
    ));
    assert!(matches!(
        UciEvaluator::spawn(&missing, depth(1)),
        Err(AnalysisError::Engine(_))
    ));
    let dies = fake("dies", "exit 3");
    assert!(matches!(
        UciEvaluator::start(&dies, &[], depth(1), short()),
        Err(UciError::Died { .. }) | Err(UciError::Write(_))
    ));
    let dies_at_go = fake_with_go("dies-at-go", "exit 1");
    let mut ev = UciEvaluator::start(&dies_at_go, &[], depth(1), short()).unwrap();
    fails_on_the_start(&mut ev);
    assert!(matches!(
        ev.error(),
        Some(UciError::Died { .. }) | Some(UciError::Write(_))
    ));
    // Once broken, it answers at once with the same error.
    let t = Instant::now();
    assert!(ev.evaluate(&Position::new(), &[], 1, &no_stop()).is_err());
    assert!(t.elapsed() < Duration::from_secs(1));
}

#[test]
fn a_silent_or_chattering_engine_times_out() {
    let chatters = fake(
        "chatters",
        "while true; do echo 'garbage ÿ info score'; done",
    );
    let t = Instant::now();
    let e = UciEvaluator::start(&chatters, &[], depth(1), short()).err();
    assert!(
        matches!(
            e,
            Some(UciError::Timeout {
                waiting_for: "uciok",
                ..
            })
        ),
        "{e:?}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));

    let silent = fake_with_go("silent", ":");
    let mut ev = UciEvaluator::start(&silent, &[], depth(1), short()).unwrap();
    assert!(ev.name().starts_with("Fake"));
    let t = Instant::now();
    fails_on_the_start(&mut ev);
    assert!(matches!(
        ev.error(),
        Some(UciError::Timeout {
            waiting_for: "bestmove",
            seconds: 2
        })
    ));
    assert!(t.elapsed() < Duration::from_secs(5));
    let msg = escaque::Localized::message(ev.error().unwrap(), escaque::Lang::Es);
    assert!(msg.contains("no respondió"), "{msg}");
}

#[test]
fn garbage_and_illegal_lines_are_an_error_not_a_panic() {
    let garbage = fake_with_go(
        "garbage",
        r#"echo "info depth x score cp 10 pv e2e4"; echo "info depth 1 score cp abc pv e2e4"; echo "info depth 1 score mate 0 pv e2e4"; echo "info depth 2 score cp 30 pv e7e5 e2e4"; echo "info depth 2 multipv 99999999999 score cp 1 pv e2e4"; echo "info depth 2 score"; echo "bestmove zzzz""#,
    );
    let mut ev = UciEvaluator::start(&garbage, &[], depth(1), short()).unwrap();
    fails_on_the_start(&mut ev);
    assert!(matches!(ev.error(), Some(UciError::NoLine { .. })));

    // A legal start, then nonsense: the line is cut where it stops being legal.
    let cut = fake_with_go(
        "cut",
        r#"echo "info depth 3 seldepth 4 multipv 1 score cp 20 upperbound pv d2d4"; echo "info depth 3 multipv 1 score cp 25 nodes 10 pv e2e4 e7e5 e1e8 g1f3"; echo "bestmove e2e4""#,
    );
    let mut ev = UciEvaluator::start(&cut, &[], depth(1), short()).unwrap();
    let l = ev.evaluate(&Position::new(), &[], 1, &no_stop()).unwrap();
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].eval, Eval::Cp(25));
    assert_eq!(l[0].depth, 3);
    let moves: Vec<String> = l[0].moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["e2e4", "e7e5"]);
}

#[test]
fn a_bestmove_without_lines_is_evaluated_one_move_deeper() {
    // This fake answers the start position at once with `bestmove e2e4` and
    // no `info`; any other position with a score for Black to move.
    let quick = fake_engine(
        "quick",
        r#"    uci) echo "uciok" ;;
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") start=1 ;;
    position*) start=0 ;;
    go*) if [ "$start" = 1 ]; then echo "bestmove e2e4"; else echo "info depth 4 score cp -30 pv e7e5"; echo "bestmove e7e5"; fi ;;"#,
    );
    let mut ev = UciEvaluator::start(&quick, &[], depth(4), short()).unwrap();
    let l = ev.evaluate(&Position::new(), &[], 1, &no_stop()).unwrap();
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].moves[0].to_string(), "e2e4");
    // -30 for Black to move is +30 for White.
    assert_eq!(l[0].eval, Eval::Cp(30));
    // A mate in one played at once: no second search is needed.
    let mates = fake_with_go("mates", r#"echo "bestmove a1a8""#);
    let mut ev = UciEvaluator::start(&mates, &[], depth(4), short()).unwrap();
    let p = fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let l = ev.evaluate(&p, &[], 1, &no_stop()).unwrap();
    assert_eq!(l[0].eval, Eval::Mate(1));
}

#[test]
fn the_stop_flag_stops_a_search() {
    // This fake searches until told to stop.
    let waits = fake_engine(
        "waits",
        r#"    uci) echo "uciok" ;;
    stop) echo "info depth 1 score cp 5 pv e2e4"; echo "bestmove e2e4" ;;"#,
    );
    let mut ev = UciEvaluator::start(&waits, &[], depth(1), short()).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        s.store(true, Ordering::Relaxed);
    });
    let e = ev.evaluate(&Position::new(), &[], 1, &stop);
    raiser.join().unwrap();
    assert!(matches!(e, Err(AnalysisError::Stopped)), "{e:?}");
    // Not broken: it evaluates again once the flag is down.
    assert!(ev.error().is_none());
}

#[test]
fn info_lines_are_read_from_whites_point_of_view() {
    let black = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let (k, l) = parse_info(&black, "info depth 7 multipv 2 score cp 31 pv e7e5 g1f3").unwrap();
    assert_eq!(
        (k, l.eval, l.depth, l.moves.len()),
        (2, Eval::Cp(-31), 7, 2)
    );
    let (_, l) = parse_info(&black, "info depth 9 score mate -4 pv e7e5").unwrap();
    assert_eq!(l.eval, Eval::Mate(4));
    for bad in [
        "info depth 7 score cp 31 lowerbound pv e7e5",
        "info depth 7 score cp 31",
        "info depth 7 score cp 31 pv e2e4",
        "info string score cp 1 pv e7e5",
        "info depth 7 multipv 0 score cp 31 pv e7e5",
        "bestmove e7e5",
        "",
    ] {
        assert!(parse_info(&black, bad).is_none(), "{bad}");
    }
}
