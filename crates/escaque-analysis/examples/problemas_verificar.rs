//! Looks again at every puzzle of a lichess-format CSV with
//! `problemas::generate::verify` (escaque's engine at NODES, 1,000,000 by
//! default, a fresh table for each puzzle, `Criteria::verification`'s
//! margin) and writes those that stand to OUT.csv; each one dropped is
//! named with the reason on standard error. Used on the shipped set's run
//! after the verifier was given a fresh table per puzzle (issue 56).
//!
//! ```text
//! cargo run --release -p escaque-analysis --example problemas_verificar -- IN.csv OUT.csv [NODES]
//! ```

use std::sync::atomic::AtomicBool;

use escaque_analysis::problemas::csv::{read_csv, write_csv};
use escaque_analysis::problemas::generate::{verify, Criteria};
use escaque_analysis::{EscaqueEvaluator, Settings};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 3 {
        eprintln!("uso: problemas_verificar IN.csv OUT.csv [NODES]");
        std::process::exit(2);
    }
    let nodes: u64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
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
        match verify(p, &[], &mut eval, &strict, &stop) {
            Ok(None) => kept.push(p.clone()),
            Ok(Some(why)) => eprintln!("descartado {} ({why})", p.id),
            Err(e) => eprintln!("{}: {e}", p.id),
        }
    }
    eprintln!("{} de {} quedan", kept.len(), report.puzzles.len());
    let out = std::fs::File::create(&a[2]).expect("create OUT.csv");
    write_csv(std::io::BufWriter::new(out), &kept).expect("write");
}
