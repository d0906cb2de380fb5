//! Tags every puzzle of a lichess-format CSV with escaque's tagger (the
//! themes of `cook.py`, without the phase and zugzwang, `cp` taken as a
//! mate or a crushing advantage) and writes the CSV back with those themes:
//! what `scripts/problemas-tags.py` compares with lichess's own tagger.
//!
//! ```text
//! cargo run --release -p escaque-analysis --example problemas_etiquetar -- IN.csv > OUT.csv
//! ```

use std::io::BufReader;

use escaque_analysis::problemas::csv::{read_csv, write_csv};
use escaque_analysis::problemas::themes::tag;

fn main() {
    let path = std::env::args().nth(1).expect("IN.csv");
    let file = std::fs::File::open(&path).expect("open");
    let report = read_csv(BufReader::new(file));
    for e in &report.errors {
        eprintln!(
            "{path}: {}",
            escaque::Localized::message(e, escaque::Lang::En)
        );
    }
    let mut puzzles = report.puzzles;
    for p in &mut puzzles {
        let mut t: Vec<String> = tag(p, Some(1000)).into_iter().map(str::to_string).collect();
        t.sort();
        p.themes = t;
    }
    write_csv(std::io::stdout().lock(), &puzzles).expect("write");
}
