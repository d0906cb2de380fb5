//! `escaque perft DEPTH [--fen FEN | --960 [N]] [--divide]`.
//!
//! A FEN is read as standard chess unless its castling field names rooks by
//! their files (Shredder-FEN `HAha`, X-FEN's inner rooks) or `--960` is
//! given: then with Chess960's castling. `--960 N` starts from Chess960
//! starting position N (0–959). In Chess960, `--divide` writes castling as
//! the king taking its own rook (`e1h1`), as UCI_Chess960 does.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use escaque::coord::to_uci_in;
use escaque::{divide, perft, CastlingMode, FenError, Lang, Position};

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
    /// Ajedrez 960: la posición inicial número N (0-959); sin N, lee el FEN
    /// con el enroque de Chess960.
    #[arg(long = "960", value_name = "N", num_args = 0..=1, id = "chess960")]
    pub chess960: Option<Option<u16>>,
}

pub fn run(args: &PerftArgs, lang: Lang) -> Result<(), CliError> {
    let (pos, chess960) = match (&args.fen, args.chess960) {
        (_, Some(Some(n))) => {
            if args.fen.is_some() {
                return Err(CliError::FenAnd960);
            }
            let pos = Position::chess960(n).ok_or(CliError::Chess960Number(n))?;
            (pos, true)
        }
        (Some(fen), c960) => {
            // Any playable position, as other programs send them; what was
            // relaxed is said on standard error.
            let forced = c960.is_some();
            let (pos, warnings, chess960) = read_fen(fen, forced).map_err(CliError::Fen)?;
            for w in warnings {
                eprintln!("escaque: {}", escaque::Localized::message(&w, lang));
            }
            (pos, chess960)
        }
        (None, Some(None)) => (Position::new(), true),
        (None, None) => (Position::new(), false),
    };
    let start = Instant::now();
    let mut out = std::io::stdout().lock();
    let total = if args.divide {
        let mut total = 0;
        for (m, n) in divide(&pos, args.depth) {
            let m = to_uci_in(&pos, m, chess960);
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

/// Reads a FEN as a playable position: as standard chess, or with Chess960's
/// castling when `chess960` is asked for or the castling field names a rook
/// by its file (which standard FEN never does). The flag says which.
pub(crate) fn read_fen(
    fen: &str,
    chess960: bool,
) -> Result<(Position, Vec<escaque::FenWarning>, bool), FenError> {
    if !chess960 {
        match Position::from_fen_playable(fen) {
            Err(FenError::BadCastling { .. }) => {}
            other => return other.map(|(p, w)| (p, w, false)),
        }
    }
    Position::from_fen_playable_with(fen, CastlingMode::Chess960).map(|(p, w)| (p, w, true))
}
