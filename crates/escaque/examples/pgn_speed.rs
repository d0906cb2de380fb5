//! Games per second reading one PGN file into game trees (every move checked
//! and played, comments, NAGs, clocks and variations kept), best of several
//! runs. `scripts/pgn_speed.sh` runs it beside python-chess on the same file:
//!
//! ```text
//! cargo run --release -p escaque --example pgn_speed -- FILE [RUNS]
//! ```
//!
//! Prints one line: `escaque GAMES games READ read ERRORS errors SECONDS s
//! GAMES_PER_SECOND games/s`.

use std::time::Instant;

use escaque::pgn::PgnReader;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("uso / usage: pgn_speed FICHERO.pgn [VECES]");
        std::process::exit(2);
    };
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let mut best = f64::INFINITY;
    let (mut games, mut read) = (0, 0);
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        games = 0;
        read = 0;
        for g in PgnReader::new(bytes.as_slice()) {
            games += 1;
            if let Ok(g) = g {
                read += 1;
                std::hint::black_box(g);
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "escaque {games} games {read} read {} errors {best:.4} s {:.0} games/s",
        games - read,
        games as f64 / best
    );
}
