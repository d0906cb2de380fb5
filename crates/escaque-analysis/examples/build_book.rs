//! Writes the opening book built from the named opening lines
//! (`escaque_analysis::book::build`) to the path given, by default
//! `crates/escaque-engine/data/book.bin` (run from the workspace root).

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "crates/escaque-engine/data/book.bin".into());
    let bytes = escaque_analysis::book::build();
    if let Err(e) = std::fs::write(&path, &bytes) {
        eprintln!("no se puede escribir {path}: {e} / cannot write {path}: {e}");
        std::process::exit(1);
    }
    eprintln!(
        "{path}: {} entradas / entries, {} bytes",
        bytes.len() / escaque_engine::book::ENTRY_SIZE,
        bytes.len()
    );
}
