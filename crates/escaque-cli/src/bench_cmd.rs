//! `escaque bench [DEPTH]`: searches fixed positions to a fixed depth with one
//! thread and a cleared table, and prints the total node count (a signature
//! of the build: it changes only when the search or evaluation changes) and
//! the speed.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;
use escaque::{Lang, Position};
use escaque_engine::{Engine, Limits};

use crate::error::CliError;

/// Positions from openings, middlegames and endgames.
const BENCH_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "2r2rk1/pp1bqpp1/2n1p2p/3pP3/3P4/P1PB1N2/2Q2PPP/R3R1K1 w - - 0 18",
    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/3PK3/8/8/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/1r3PPP/3R2K1 w - - 0 30",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/1p1k4/p1p5/P1P5/1P1K4/8/8 w - - 0 40",
    "3r2k1/pp3pp1/2p4p/8/2P5/1P3qP1/P4P1P/3RQ1K1 b - - 0 25",
];

#[derive(Args)]
pub struct BenchArgs {
    /// Profundidad (depth) de cada búsqueda.
    #[arg(default_value_t = 11)]
    pub depth: u32,
}

pub fn run(args: &BenchArgs, lang: Lang) -> Result<(), CliError> {
    let mut engine = Engine::new();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(args.depth.clamp(1, 60)),
        ..Limits::default()
    };
    let mut out = std::io::stdout().lock();
    let mut total = 0u64;
    let start = Instant::now();
    for (i, fen) in BENCH_FENS.iter().enumerate() {
        let pos = Position::from_fen(fen).map_err(CliError::Fen)?;
        engine.clear_hash();
        let r = engine.search(&pos, &[], &limits, &stop);
        total += r.nodes;
        let best = r.best_move.map_or("(none)".to_string(), |m| m.to_string());
        writeln!(out, "{:>2} {:>10} {best:<6} {fen}", i + 1, r.nodes).map_err(CliError::Write)?;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    writeln!(
        out,
        "\n{} {total}\n{} {ms}\nnps {}",
        lang.pick("nodos", "nodes"),
        lang.pick("tiempo (ms)", "time (ms)"),
        total * 1000 / ms
    )
    .map_err(CliError::Write)?;
    Ok(())
}
