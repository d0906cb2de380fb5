//! The engine alone behind UCI, for SPRT and gauntlet runs: the same
//! protocol as `escaque uci`, built from this crate only, so a changed
//! engine is ready to test in a minute instead of the whole program's
//! release build.
//!
//! ```sh
//! cargo build --release -p escaque-engine --example uci
//! cp target/release/examples/uci /tmp/new
//! ```

fn main() {
    let stdin = std::io::stdin();
    escaque_engine::uci::run(stdin.lock(), std::io::stdout());
}
