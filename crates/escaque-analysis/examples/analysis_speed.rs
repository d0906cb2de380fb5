//! How long escaque's engine takes to analyse a game: the first GAMES games
//! of a PGN file with at least PLIES plies, each cut to PLIES plies and
//! analysed from scratch (a fresh evaluator, no cache) at DEPTH, one thread.
//! Prints seconds per game and positions per second for each game and
//! their medians.
//!
//! ```text
//! cargo run --release -p escaque-analysis --example analysis_speed -- \
//!     [DEPTH [GAMES [PLIES [PGN]]]]
//! ```
//! Defaults: `Settings::DEFAULT_DEPTH`, 9 games, 80 plies,
//! `crates/escaque/benches/data/stockfish_1000.pgn`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use escaque::pgn::PgnReader;
use escaque_analysis::{analyse_game, EscaqueEvaluator, Settings};

/// CPU seconds this thread has used (Linux `/proc`; `None` elsewhere): on
/// a shared machine the wall clock also counts other processes' turns.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    // Linux reports clock ticks of 1/100 s (USER_HZ).
    Some((utime + stime) / 100.0)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(Settings::DEFAULT_DEPTH);
    let games: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(9);
    let plies: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(80);
    let path = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| "crates/escaque/benches/data/stockfish_1000.pgn".to_string());
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut reader = PgnReader::new(std::io::BufReader::new(file));
    let settings = Settings {
        depth: Some(depth),
        nodes: None,
    };
    println!("depth {depth}, {plies} plies a game, {path}");
    let (mut secs, mut walls, mut rates, mut marks) = (Vec::new(), Vec::new(), Vec::new(), 0u32);
    let mut n = 0;
    while n < games {
        let Some(game) = reader.next_game() else {
            break;
        };
        let Ok(game) = game else { continue };
        let moves: Vec<_> = game.mainline().collect();
        if moves.len() < plies {
            continue;
        }
        let moves = &moves[..plies];
        let mut ev = EscaqueEvaluator::new(settings);
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let c0 = cpu_seconds();
        let a = match analyse_game(&game.start, moves, &mut ev, None, &stop, &mut |_| {}) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("game {}: {e}", n + 1);
                continue;
            }
        };
        let s = t.elapsed().as_secs_f64();
        let cpu = match (c0, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => s,
        };
        let positions = (plies + 1) as f64;
        n += 1;
        for side in [&a.white, &a.black] {
            marks += side.blunders + side.mistakes + side.inaccuracies;
        }
        println!(
            "game {n}: {s:.2} s wall, {cpu:.2} s CPU, {:.1} positions per CPU second, accuracy {:.1} / {:.1}",
            positions / cpu,
            a.white.accuracy,
            a.black.accuracy
        );
        walls.push(s);
        secs.push(cpu);
        rates.push(positions / cpu);
    }
    println!(
        "{n} games: median {:.2} CPU s a game (max {:.2}; wall median {:.2}), median {:.1} positions per CPU second; {marks} marks",
        median(secs.clone()),
        secs.iter().copied().fold(0.0, f64::max),
        median(walls),
        median(rates)
    );
}
