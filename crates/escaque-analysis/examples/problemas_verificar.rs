//! Looks again at every puzzle of a lichess-format CSV with
//! `problemas::generate::verify` (escaque's engine at NODES, 1,000,000 by
//! default, a fresh table for each puzzle, `Criteria::verification`'s
//! margin) and writes those that stand to OUT.csv; each one dropped is
//! named with the reason on standard error. Used on the shipped set's run
//! after the verifier was given a fresh table per puzzle (issue 56).
//!
//! With RIVAL_NODES (0, off, by default) each puzzle that stands is also
//! put through `generate::verify_rivals` (every other solver move searched
//! on its own at RIVAL_NODES; no tablebase-sized endings that are not
//! mates), with the time each puzzle took.
//!
//! With `ESCAQUE_MOTOR_ANALISIS=/usr/games/stockfish` (any UCI engine) the
//! searches are that engine's (a fresh process per puzzle, lichess's
//! constant for its centipawns), as in `problemas_lote`; there too
//! `PROBLEMAS_VERIFY_MARGIN` and `PROBLEMAS_VERIFY_MATE1_RIVAL` set the
//! margins (0.85 and 0.45 by default).
//!
//! ```text
//! cargo run --release -p escaque-analysis --example problemas_verificar -- IN.csv OUT.csv [NODES [RIVAL_NODES]]
//! ```

use std::sync::atomic::AtomicBool;

use escaque_analysis::problemas::csv::{read_csv, write_csv};
use escaque_analysis::problemas::generate::{verify, verify_rivals, Criteria};
use escaque_analysis::uci_engine::evaluator_at_nodes;
use escaque_analysis::Evaluator;

/// An evaluator at `nodes`: escaque's engine, or the UCI engine at `uci`.
fn evaluator(uci: Option<&str>, nodes: u64) -> Box<dyn Evaluator> {
    evaluator_at_nodes(uci.map(std::path::Path::new), nodes).expect("start the UCI engine")
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 3 {
        eprintln!("uso: problemas_verificar IN.csv OUT.csv [NODES [RIVAL_NODES]]");
        std::process::exit(2);
    }
    let nodes: u64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let rival_nodes: u64 = a.get(4).and_then(|s| s.parse().ok()).unwrap_or(0);
    let text = std::fs::read(&a[1]).expect("read IN.csv");
    let report = read_csv(text.as_slice());
    for e in &report.errors {
        eprintln!("{}: {e:?}", a[1]);
    }
    let uci = std::env::var("ESCAQUE_MOTOR_ANALISIS").ok();
    let uci = uci.as_deref().filter(|s| !s.is_empty());
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f64>().ok());
    let mut strict = match uci {
        Some(_) => Criteria {
            k: Criteria::for_stockfish().k,
            ..Criteria::verification()
        },
        None => Criteria::verification(),
    };
    strict.margin = env("PROBLEMAS_VERIFY_MARGIN").unwrap_or(strict.margin);
    strict.mate_in_one_rival =
        env("PROBLEMAS_VERIFY_MATE1_RIVAL").unwrap_or(strict.mate_in_one_rival);
    let stop = AtomicBool::new(false);
    let mut kept = Vec::new();
    for p in &report.puzzles {
        let mut eval = evaluator(uci, nodes);
        let started = std::time::Instant::now();
        let mut verdict = verify(p, eval.as_mut(), &strict, &stop);
        if rival_nodes > 0 && matches!(verdict, Ok(None)) {
            let mut rivals = evaluator(uci, rival_nodes);
            verdict = verify_rivals(p, rivals.as_mut(), &strict, &stop);
        }
        eprintln!("{}: {:.1} s", p.id, started.elapsed().as_secs_f64());
        match verdict {
            Ok(None) => kept.push(p.clone()),
            Ok(Some(why)) => eprintln!("descartado {} ({why})", p.id),
            Err(e) => eprintln!("{}: {e}", p.id),
        }
    }
    eprintln!("{} de {} quedan", kept.len(), report.puzzles.len());
    let out = std::fs::File::create(&a[2]).expect("create OUT.csv");
    write_csv(std::io::BufWriter::new(out), &kept).expect("write");
}
