//! Rates every puzzle of a lichess-format CSV again with
//! [`rating::by_depth`] (issue 56: the first rating from how deep escaque's
//! engine must search and how many moves the solver finds) and writes the
//! file again; prints the ratings' spread.
//!
//! ```text
//! cargo run --profile test -p escaque-analysis --example problemas_puntuar -- IN.csv OUT.csv
//! ```

use std::io::BufReader;

use escaque_analysis::problemas::csv::{read_csv, write_csv};
use escaque_analysis::problemas::rating;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 3 {
        eprintln!("uso: problemas_puntuar IN.csv OUT.csv");
        std::process::exit(2);
    }
    let file = std::fs::File::open(&a[1]).expect("open IN");
    let report = read_csv(BufReader::new(file));
    for e in &report.errors {
        eprintln!("{}: {e:?}", a[1]);
    }
    let mut puzzles = report.puzzles;
    let mut buckets = [0usize; 9];
    for p in &mut puzzles {
        let before = p.rating;
        p.rating = rating::by_depth(p);
        buckets[((p.rating - 600) / 200).clamp(0, 8) as usize] += 1;
        eprintln!("{} {} -> {}", p.id, before, p.rating);
    }
    let out = std::fs::File::create(&a[2]).expect("create OUT");
    write_csv(std::io::BufWriter::new(out), &puzzles).expect("write");
    for (i, n) in buckets.iter().enumerate() {
        eprintln!("{}-{}: {n}", 600 + 200 * i, 799 + 200 * i);
    }
}
