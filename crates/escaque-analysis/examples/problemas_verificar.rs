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
//! ```text
//! cargo run --release -p escaque-analysis --example problemas_verificar -- IN.csv OUT.csv [NODES [RIVAL_NODES]]
//! ```

use std::sync::atomic::AtomicBool;

use escaque_analysis::problemas::csv::{read_csv, write_csv};
use escaque_analysis::problemas::generate::{verify, verify_rivals, Criteria};
use escaque_analysis::{EscaqueEvaluator, Settings};

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
    let strict = Criteria::verification();
    let stop = AtomicBool::new(false);
    let mut kept = Vec::new();
    for p in &report.puzzles {
        let mut eval = EscaqueEvaluator::new(Settings {
            depth: None,
            nodes: Some(nodes),
        });
        let started = std::time::Instant::now();
        let mut verdict = verify(p, &mut eval, &strict, &stop);
        if rival_nodes > 0 && matches!(verdict, Ok(None)) {
            let mut rivals = EscaqueEvaluator::new(Settings {
                depth: None,
                nodes: Some(rival_nodes),
            });
            verdict = verify_rivals(p, &mut rivals, &strict, &stop);
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
