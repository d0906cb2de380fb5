//! The generator's speed (issue 56's benchmark): the first GAMES games of a
//! PGN file with at least PLIES plies, each cut to PLIES plies, through the
//! generator with escaque's engine on one thread (scan and probe node
//! counts as `escaque problemas buscar` uses them), each puzzle checked
//! again by `generate::verify` at 1,000,000 nodes, tagged and rated as
//! shipped. Prints the CPU seconds of the thread (the machine is
//! shared: the wall clock also counts other processes' turns), the wall
//! seconds and what was found.
//!
//! ```text
//! cargo run --release -p escaque-analysis --example problemas_velocidad -- PGN [GAMES [PLIES [SCAN [PROBE]]]]
//! ```

use std::io::BufReader;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use escaque::pgn::PgnReader;
use escaque::Move;
use escaque_analysis::problemas::generate::{complete, find_in_game, verify, Counts, Criteria};
use escaque_analysis::{EscaqueEvaluator, Settings};

fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let path = a.get(1).expect("PGN");
    let games: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let plies: usize = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(80);
    let scan_nodes: u64 = a.get(4).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let probe_nodes: u64 = a.get(5).and_then(|s| s.parse().ok()).unwrap_or(150_000);
    let mut reader = PgnReader::new(BufReader::new(std::fs::File::open(path).expect("open")));
    let mut scan = EscaqueEvaluator::new(Settings {
        depth: None,
        nodes: Some(scan_nodes),
    });
    let mut probe = EscaqueEvaluator::new(Settings {
        depth: None,
        nodes: Some(probe_nodes),
    });
    let verifier = || {
        EscaqueEvaluator::new(Settings {
            depth: None,
            nodes: Some(1_000_000),
        })
    };
    let strict = Criteria::verification();
    let criteria = Criteria::default();
    let stop = AtomicBool::new(false);
    let mut counts = Counts::default();
    let (cpu0, wall0) = (cpu_seconds().unwrap_or(0.0), Instant::now());
    let mut done = 0;
    let mut puzzles = 0;
    while let Some(g) = reader.next_game() {
        if done == games {
            break;
        }
        let Ok(g) = g else { continue };
        let moves: Vec<Move> = g.mainline().collect();
        if moves.len() < plies {
            continue;
        }
        let moves = &moves[..plies];
        let found = find_in_game(
            &g.start,
            moves,
            &mut scan,
            &mut probe,
            &criteria,
            &stop,
            &mut counts,
        )
        .expect("generator");
        for f in &found {
            let why = verify(&f.puzzle, &mut verifier(), &strict, &stop);
            if !matches!(why, Ok(None)) {
                continue;
            }
            let _ = complete(f, "", &g.start, moves, true, Some((&mut probe, &criteria)));
            puzzles += 1;
        }
        done += 1;
    }
    let cpu = cpu_seconds().unwrap_or(0.0) - cpu0;
    println!(
        "{done} games of {plies} plies: {puzzles} puzzles ({} candidates probed, {} positions scanned), \
         {cpu:.1} s CPU ({:.2} s a game), {:.1} s wall; scan {scan_nodes} nodes, probe {probe_nodes}",
        counts.probed,
        counts.scanned,
        cpu / done.max(1) as f64,
        wall0.elapsed().as_secs_f64()
    );
}
