//! `escaque uci`: the engine speaking UCI on standard input and output.

pub fn run() -> Result<(), String> {
    let stdin = std::io::stdin();
    escaque_engine::uci::run(stdin.lock(), std::io::stdout());
    Ok(())
}
