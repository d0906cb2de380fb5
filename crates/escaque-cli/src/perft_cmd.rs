//! `escaque perft DEPTH [--fen FEN] [--divide]`.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use escaque::{divide, perft, Lang, Position};

use crate::error::CliError;

#[derive(Args)]
pub struct PerftArgs {
    /// Profundidad (depth) en medias jugadas.
    pub depth: u32,
    /// Posición de partida en FEN (por defecto, la inicial).
    #[arg(long)]
    pub fen: Option<String>,
    /// Muestra cada jugada de la raíz con su cuenta (divide).
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: &PerftArgs, lang: Lang) -> Result<(), CliError> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(CliError::Fen)?,
        None => Position::new(),
    };
    let start = Instant::now();
    let mut out = std::io::stdout().lock();
    let total = if args.divide {
        let mut total = 0;
        for (m, n) in divide(&pos, args.depth) {
            writeln!(out, "{m}: {n}").map_err(CliError::Write)?;
            total += n;
        }
        writeln!(out).map_err(CliError::Write)?;
        total
    } else {
        perft(&pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    writeln!(
        out,
        "{}: {total}  {}: {secs:.3} s  {}: {:.0}",
        lang.pick("nodos", "nodes"),
        lang.pick("tiempo", "time"),
        lang.pick("nodos/s", "nodes/s"),
        nps
    )
    .map_err(CliError::Write)
}
