//! `escaque muerta [FEN...] [--json]` (alias `dead`): for each position,
//! whether White and whether Black can still mate by any series of legal
//! moves (FIDE 5.2.2, 6.9), with a helpmate line in SAN as proof.
//!
//! FENs come as arguments or, without arguments, one per line on standard
//! input (empty lines and lines starting with `#` are skipped). A FEN that
//! cannot be read is reported on its line and the others go on; the exit
//! status is then non-zero.

use std::io::{self, BufRead, BufWriter, Write};

use clap::Args;
use escaque::dead::{winnability, Winnability};
use escaque::{Color, Lang, Localized, Move, Position};

use crate::error::CliError;
use crate::pgn_cmd::json_str;

#[derive(Args)]
pub struct DeadArgs {
    /// Posiciones en FEN (sin ellas, una por línea en la entrada estándar).
    pub fens: Vec<String>,
    /// Un objeto JSON por línea: fen, white, black (winnable/unwinnable/undecided) y las líneas.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &DeadArgs, lang: Lang) -> Result<(), CliError> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    let mut total = 0usize;
    let mut one = |fen: &str, out: &mut BufWriter<io::StdoutLock>| -> Result<(), CliError> {
        total += 1;
        // Any playable position, as other programs write them.
        let line = match Position::from_fen_playable(fen) {
            Ok((pos, _)) => report(&pos, fen, args.json, lang),
            Err(e) => {
                failed += 1;
                let msg = e.message(lang);
                if args.json {
                    let mut s = String::from("{\"fen\":");
                    json_str(&mut s, fen);
                    s.push_str(",\"error\":");
                    json_str(&mut s, &msg);
                    s.push_str("}\n");
                    s
                } else {
                    format!(
                        "{fen}\n  {}: {msg}\n",
                        lang.pick("FEN no válido", "invalid FEN")
                    )
                }
            }
        };
        out.write_all(line.as_bytes()).map_err(CliError::Write)
    };
    if args.fens.is_empty() {
        for line in io::stdin().lock().lines() {
            let line = line.map_err(CliError::Read)?;
            let fen = line.trim();
            if fen.is_empty() || fen.starts_with('#') {
                continue;
            }
            one(fen, &mut out)?;
            out.flush().map_err(CliError::Write)?;
        }
    } else {
        for fen in &args.fens {
            one(fen.trim(), &mut out)?;
        }
    }
    out.flush().map_err(CliError::Write)?;
    if failed > 0 {
        return Err(CliError::InvalidFens { failed, total });
    }
    Ok(())
}

/// A helpmate line in SAN with move numbers, in `lang`.
fn line_san(pos: &Position, line: &[Move], lang: Lang) -> String {
    let mut p = *pos;
    let mut s = String::new();
    for (i, &m) in line.iter().enumerate() {
        if p.turn() == Color::White {
            s.push_str(&format!("{}. ", p.fullmove_number()));
        } else if i == 0 {
            s.push_str(&format!("{}... ", p.fullmove_number()));
        }
        s.push_str(&escaque::san::san(&p, m, lang));
        s.push(' ');
        if p.play(m).is_err() {
            break;
        }
    }
    s.trim_end().to_string()
}

fn report(pos: &Position, fen: &str, json: bool, lang: Lang) -> String {
    let verdicts = [
        (Color::White, winnability(pos, Color::White)),
        (Color::Black, winnability(pos, Color::Black)),
    ];
    let mut s = String::new();
    if json {
        s.push_str("{\"fen\":");
        json_str(&mut s, fen);
        for (c, w) in &verdicts {
            let key = c.fold("white", "black");
            s.push_str(&format!(",\"{key}\":\"{}\"", w.id()));
        }
        for (c, w) in &verdicts {
            let key = c.fold("white_line", "black_line");
            s.push_str(&format!(",\"{key}\":"));
            match w {
                Winnability::Winnable(line) => json_str(&mut s, &line_san(pos, line, lang)),
                _ => s.push_str("null"),
            }
        }
        let dead = verdicts.iter().all(|(_, w)| w.is_unwinnable());
        let undecided = verdicts
            .iter()
            .any(|(_, w)| matches!(w, Winnability::Undecided));
        let alive = verdicts.iter().any(|(_, w)| w.is_winnable());
        let state = if dead {
            "dead"
        } else if alive {
            "alive"
        } else if undecided {
            "undecided"
        } else {
            "alive"
        };
        s.push_str(&format!(",\"position\":\"{state}\"}}\n"));
        return s;
    }
    s.push_str(fen);
    s.push('\n');
    for (c, w) in &verdicts {
        let side = match (c, lang) {
            (Color::White, Lang::Es) => "Blancas",
            (Color::White, Lang::En) => "White",
            (Color::Black, Lang::Es) => "Negras",
            (Color::Black, Lang::En) => "Black",
        };
        let text = match w {
            Winnability::Winnable(line) => format!(
                "{}: {}",
                lang.pick("pueden dar mate", "can mate"),
                line_san(pos, line, lang)
            ),
            Winnability::Unwinnable => lang
                .pick(
                    "no pueden dar mate con ninguna serie de jugadas legales",
                    "cannot mate by any series of legal moves",
                )
                .to_string(),
            Winnability::Undecided => lang
                .pick(
                    "sin decidir (se agotó el presupuesto de búsqueda)",
                    "undecided (the search budget ran out)",
                )
                .to_string(),
        };
        s.push_str(&format!("  {side}: {text}\n"));
    }
    if verdicts.iter().all(|(_, w)| w.is_unwinnable()) {
        s.push_str(&format!(
            "  {}\n",
            lang.pick(
                "posición muerta: tablas (5.2.2)",
                "dead position: drawn (5.2.2)"
            )
        ));
    }
    s
}
