//! Chess960 and tricky positions against published and independent perft
//! counts (see `tests/data/perft/README.md`):
//!
//! - python-chess's `tricky.perft` (standard, X-FEN and unreachable positions)
//!   and `chess960.perft` (960 Chess960 positions from games);
//! - the 960 Chess960 starting positions by number, with Stockfish's counts.
//!
//! The normal run checks the counts up to a few hundred thousand nodes; set
//! `ESCAQUE_PERFT_FULL=1` to check every count (chess960.perft to depth 6,
//! 5 × 10¹¹ nodes: minutes on many cores, in release), and
//! `ESCAQUE_PERFT_MAX_NODES=N` with it to stop at counts of N nodes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use escaque::{perft, CastlingMode, CastlingStyle, Position};

const TRICKY: &str = include_str!("data/perft/tricky.perft");
const CHESS960: &str = include_str!("data/perft/chess960.perft");
const STARTS: &str = include_str!("data/perft/chess960_starts.txt");

/// A position of a `.perft` file with its counts.
struct Entry {
    id: String,
    epd: String,
    counts: Vec<(u32, u64)>,
}

fn parse_perft_file(text: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let (cmd, arg) = line.split_once(' ').expect("command and argument");
        match cmd {
            "id" => out.push(Entry {
                id: arg.into(),
                epd: String::new(),
                counts: Vec::new(),
            }),
            "epd" => out.last_mut().expect("id first").epd = arg.into(),
            "perft" => {
                let (d, n) = arg.split_once(' ').expect("depth and nodes");
                out.last_mut()
                    .expect("id first")
                    .counts
                    .push((d.parse().unwrap(), n.trim().parse().unwrap()));
            }
            other => panic!("unknown command {other}"),
        }
    }
    out
}

fn full() -> bool {
    std::env::var("ESCAQUE_PERFT_FULL").is_ok_and(|v| v == "1")
}

/// The largest count checked in the normal run.
const NORMAL_MAX_NODES: u64 = 200_000;

/// The largest count checked: every count with `ESCAQUE_PERFT_FULL=1`, at
/// most `ESCAQUE_PERFT_MAX_NODES` when that is set too (a full run of
/// `chess960.perft` at depth 6 is 5 × 10¹¹ nodes), else the normal run's.
fn max_nodes() -> u64 {
    if !full() {
        return NORMAL_MAX_NODES;
    }
    std::env::var("ESCAQUE_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX)
}

/// Reads an EPD as python-chess's perft script does: a Chess960 board,
/// impossible castling rights dropped.
fn read_epd(epd: &str) -> Position {
    Position::from_fen_playable_with(&format!("{epd} 0 1"), CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("{epd}: {e:?}"))
        .0
}

/// Runs every job (name, position, depth, expected) on all cores; returns the
/// mismatches and the nodes counted.
fn run_jobs(jobs: Vec<(String, Position, u32, u64)>) -> (Vec<String>, u64) {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let nodes = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((name, pos, depth, expected)) = jobs.get(i) else {
                    break;
                };
                let got = perft(pos, *depth);
                nodes.fetch_add(got as usize, Ordering::Relaxed);
                if got != *expected {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{name} depth {depth}: {got}, expected {expected}"));
                }
            });
        }
    });
    (failures.into_inner().unwrap(), nodes.into_inner() as u64)
}

fn check_file(text: &str, max_nodes: u64) -> usize {
    let entries = parse_perft_file(text);
    let mut jobs = Vec::new();
    for e in &entries {
        let pos = read_epd(&e.epd);
        for &(depth, n) in &e.counts {
            if n <= max_nodes {
                jobs.push((e.id.clone(), pos, depth, n));
            }
        }
    }
    let count = jobs.len();
    let start = std::time::Instant::now();
    let (failures, nodes) = run_jobs(jobs);
    eprintln!(
        "{count} counts of {} positions, {nodes} nodes, {:.1} s",
        entries.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    count
}

#[test]
fn tricky_suite_in_full() {
    let entries = parse_perft_file(TRICKY);
    assert_eq!(entries.len(), 19);
    // Every position is read, those without counts too (python-chess's
    // "impossible checker alignment" positions must be accepted).
    for e in &entries {
        read_epd(&e.epd);
    }
    // The suite's counts are small: all of them run in the normal run.
    assert_eq!(check_file(TRICKY, u64::MAX), 67);
}

#[test]
fn tricky_suite_castling_rights_by_mode() {
    // Black's king on h8: no right in standard chess, the a8 rook's long
    // right in Chess960 (as python-chess reads it in its perft script).
    let fen = "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1";
    let (standard, _) = Position::from_fen_playable(fen).unwrap();
    assert_eq!(standard.castling_fen(CastlingStyle::XFen), "KQ");
    let c960 = read_epd("r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq -");
    assert_eq!(c960.castling_fen(CastlingStyle::XFen), "KQq");
    assert_eq!(c960.castling_fen(CastlingStyle::Shredder), "HAa");
}

#[test]
fn chess960_suite() {
    let entries = parse_perft_file(CHESS960);
    assert_eq!(entries.len(), 960);
    let checked = check_file(CHESS960, max_nodes());
    assert!(checked >= 3 * 960, "{checked}");
}

#[test]
fn chess960_suite_fens_round_trip_in_both_styles() {
    for e in parse_perft_file(CHESS960) {
        let pos = read_epd(&e.epd);
        for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
            let fen = pos.to_fen_with(style);
            let again = Position::from_fen_with(&fen, CastlingMode::Chess960)
                .unwrap_or_else(|err| panic!("{}: {fen}: {err:?}", e.id));
            assert_eq!(again, pos, "{}: {fen}", e.id);
        }
        // The suite writes Shredder-FEN; reading it back gives the same field.
        let field = e.epd.split(' ').nth(2).unwrap();
        assert_eq!(pos.castling_fen(CastlingStyle::Shredder), field, "{}", e.id);
    }
}

#[test]
fn chess960_starting_positions() {
    let max_depth = if full() && max_nodes() >= 10_000_000 {
        5
    } else {
        4
    };
    let mut jobs = Vec::new();
    let mut numbers = 0;
    for line in STARTS.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(';').collect();
        let n: u16 = fields[0].parse().unwrap();
        let pos = Position::chess960(n).unwrap();
        // The numbering is python-chess's (Scharnagl's).
        assert_eq!(pos.to_fen_with(CastlingStyle::Shredder), fields[1], "{n}");
        assert_eq!(
            Position::from_fen_with(fields[1], CastlingMode::Chess960),
            Ok(pos)
        );
        assert_eq!(pos.chess960_number(), Some(n));
        for (i, count) in fields[2..].iter().enumerate() {
            let depth = i as u32 + 1;
            if depth <= max_depth {
                jobs.push((format!("start {n}"), pos, depth, count.parse().unwrap()));
            }
        }
        numbers += 1;
    }
    assert_eq!(numbers, 960);
    let (failures, nodes) = run_jobs(jobs);
    eprintln!("960 starting positions to depth {max_depth}: {nodes} nodes");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
