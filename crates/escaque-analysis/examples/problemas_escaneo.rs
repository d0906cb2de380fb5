//! The generator's scan alone (issue 56), for measuring cheaper scans: every
//! position of every game of a PGN file evaluated with one line at NODES
//! nodes, as `generate::find_in_game` scans them (one engine for the whole
//! file, its table kept from position to position), written as TSV on
//! standard output: game, ply, FEN, and the evaluation from White's side
//! (`cp N` or `mate N`; `-` for a position without a legal move). The CPU
//! seconds of the process tree (the UCI engine's included) go to standard
//! error at the end.
//!
//! ```text
//! ESCAQUE_MOTOR_ANALISIS=/usr/games/stockfish \
//! cargo run --profile test -p escaque-analysis --example problemas_escaneo -- PGN NODES > scan.tsv
//! ```

use std::io::{BufReader, Write};
use std::sync::atomic::AtomicBool;

use escaque::pgn::PgnReader;
use escaque::Move;
use escaque_analysis::judge::Eval;
use escaque_analysis::uci_engine::{Timeouts, UciEvaluator};
use escaque_analysis::{EscaqueEvaluator, Evaluator, Settings};

fn stat_cpu(pid: &str) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    let Some(close) = stat.rfind(')') else {
        return 0.0;
    };
    let f: Vec<f64> = stat[close + 2..]
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    f.get(11..15).map(|v| v.iter().sum::<f64>()).unwrap_or(0.0) / 100.0
}

fn tree_cpu() -> f64 {
    let mut cpu = stat_cpu("self");
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for t in tasks.flatten() {
            let kids = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            for pid in kids.split_whitespace() {
                cpu += stat_cpu(pid);
            }
        }
    }
    cpu
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (Some(path), Some(nodes)) = (a.get(1), a.get(2).and_then(|s| s.parse::<u64>().ok())) else {
        eprintln!("uso: problemas_escaneo PGN NODES > scan.tsv");
        std::process::exit(2);
    };
    let settings = Settings {
        depth: None,
        nodes: Some(nodes),
    };
    let t0 = tree_cpu();
    let mut scan: Box<dyn Evaluator> = match std::env::var("ESCAQUE_MOTOR_ANALISIS") {
        Ok(p) if !p.is_empty() => Box::new(
            UciEvaluator::start(std::path::Path::new(&p), &[], settings, Timeouts::default())
                .expect("start the UCI engine"),
        ),
        _ => Box::new(EscaqueEvaluator::new(settings)),
    };
    let stop = AtomicBool::new(false);
    let file = std::fs::File::open(path).expect("open PGN");
    let mut reader = PgnReader::new(BufReader::new(file));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (mut g, mut n) = (0usize, 0usize);
    while let Some(game) = reader.next_game() {
        let Ok(game) = game else { continue };
        let moves: Vec<Move> = game.mainline().collect();
        let mut pos = game.start;
        let mut keys = Vec::new();
        for ply in 0..=moves.len() {
            let e = if pos.has_legal_moves() {
                n += 1;
                match scan.evaluate(&pos, &keys, 1, &stop).expect("scan").first() {
                    Some(l) => match l.eval {
                        Eval::Cp(c) => format!("cp {c}"),
                        Eval::Mate(m) => format!("mate {m}"),
                    },
                    None => "-".to_string(),
                }
            } else {
                "-".to_string()
            };
            writeln!(out, "{g}\t{ply}\t{}\t{e}", pos.to_fen()).expect("write");
            keys.push(pos.zobrist());
            if let Some(&m) = moves.get(ply) {
                if !pos.is_legal(m) {
                    break;
                }
                pos.play_unchecked(m);
            }
        }
        g += 1;
    }
    let cpu = tree_cpu() - t0;
    eprintln!(
        "{g} games, {n} positions at {nodes} nodes: {cpu:.1} s CPU, {:.2} ms a position",
        1000.0 * cpu / n.max(1) as f64
    );
}
