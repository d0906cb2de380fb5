//! `escaque pgn convertir --notacion es|en [ARCHIVO]` and
//! `escaque pgn revisar [ARCHIVO] [--json]` (English aliases `convert`, `check`).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use escaque::pgn::{write_game, Game, PgnReader, PgnStyle, ReaderOptions};
use escaque::{Lang, Localized, SanLang};

#[derive(Args)]
pub struct PgnArgs {
    #[command(subcommand)]
    command: PgnCommand,
}

#[derive(Subcommand)]
enum PgnCommand {
    /// Reescribe las partidas en otra notación (convert).
    #[command(alias = "convert")]
    Convertir {
        /// Notación de salida: es (española) o en (inglesa, formato de exportación PGN).
        #[arg(long = "notacion", alias = "notation", value_enum)]
        notacion: Notation,
        /// Notación de las jugadas de entrada (por defecto, se detecta en cada partida).
        #[arg(long = "entrada", alias = "input", value_enum, default_value = "auto")]
        entrada: InputNotation,
        /// Archivo PGN (entrada estándar si falta).
        archivo: Option<PathBuf>,
    },
    /// Reproduce y comprueba cada partida (check).
    #[command(alias = "check")]
    Revisar {
        /// Archivo PGN (entrada estándar si falta).
        archivo: Option<PathBuf>,
        /// Un objeto JSON por línea y partida.
        #[arg(long)]
        json: bool,
        /// Notación de las jugadas de entrada (por defecto, se detecta en cada partida).
        #[arg(long = "entrada", alias = "input", value_enum, default_value = "auto")]
        entrada: InputNotation,
    },
}

#[derive(Copy, Clone, ValueEnum)]
enum Notation {
    Es,
    En,
}

#[derive(Copy, Clone, ValueEnum)]
enum InputNotation {
    Es,
    En,
    Auto,
}

impl InputNotation {
    fn san_lang(self) -> SanLang {
        match self {
            InputNotation::Es => SanLang::Es,
            InputNotation::En => SanLang::En,
            InputNotation::Auto => SanLang::Auto,
        }
    }
}

fn open(path: &Option<PathBuf>, lang: Lang) -> Result<Box<dyn Read>, String> {
    match path {
        Some(p) => File::open(p)
            .map(|f| Box::new(f) as Box<dyn Read>)
            .map_err(|e| {
                format!(
                    "{} {}: {e}",
                    lang.pick("no se puede abrir", "cannot open"),
                    p.display()
                )
            }),
        None => Ok(Box::new(io::stdin().lock())),
    }
}

pub fn run(args: &PgnArgs, lang: Lang) -> Result<(), String> {
    match &args.command {
        PgnCommand::Convertir {
            notacion,
            entrada,
            archivo,
        } => convert(open(archivo, lang)?, *notacion, *entrada, lang),
        PgnCommand::Revisar {
            archivo,
            json,
            entrada,
        } => check(open(archivo, lang)?, *json, *entrada, lang),
    }
}

fn write_err(e: io::Error, lang: Lang) -> String {
    format!(
        "{}: {e}",
        lang.pick("no se pudo escribir", "could not write")
    )
}

fn convert(
    input: Box<dyn Read>,
    notation: Notation,
    entrada: InputNotation,
    lang: Lang,
) -> Result<(), String> {
    let style = match notation {
        Notation::Es => PgnStyle::spanish(),
        Notation::En => PgnStyle::export(),
    };
    let opts = ReaderOptions {
        notation: entrada.san_lang(),
    };
    let mut reader = PgnReader::with_options(input, opts);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut buf = String::new();
    let mut failed = 0usize;
    while let Some(r) = reader.next_game() {
        match r {
            Ok(game) => {
                buf.clear();
                write_game(&mut buf, &game, style);
                out.write_all(buf.as_bytes())
                    .map_err(|e| write_err(e, lang))?;
            }
            Err(e) => {
                failed += 1;
                eprintln!("escaque: {}", e.message(lang));
            }
        }
    }
    out.flush().map_err(|e| write_err(e, lang))?;
    if failed > 0 {
        return Err(lang.pick(
            format!("{failed} partida(s) con errores no se convirtieron"),
            format!("{failed} game(s) with errors were not converted"),
        ));
    }
    Ok(())
}

/// How the game ended on the board, from what the final position shows.
fn termination(game: &Game) -> Option<&'static str> {
    let pos = game.final_position();
    if pos.is_checkmate() {
        Some("checkmate")
    } else if pos.is_stalemate() {
        Some("stalemate")
    } else if pos.is_insufficient_material() {
        Some("insufficient_material")
    } else {
        None
    }
}

fn termination_words(t: Option<&str>, lang: Lang) -> &'static str {
    match t {
        Some("checkmate") => lang.pick("jaque mate", "checkmate"),
        Some("stalemate") => lang.pick("rey ahogado", "stalemate"),
        Some("insufficient_material") => {
            lang.pick("material insuficiente", "insufficient material")
        }
        _ => lang.pick("ninguno", "none"),
    }
}

fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_opt(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => json_str(out, s),
        None => out.push_str("null"),
    }
}

fn check(
    input: Box<dyn Read>,
    json: bool,
    entrada: InputNotation,
    lang: Lang,
) -> Result<(), String> {
    let opts = ReaderOptions {
        notation: entrada.san_lang(),
    };
    let mut reader = PgnReader::with_options(input, opts);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut number = 0usize;
    let mut failed = 0usize;
    while let Some(r) = reader.next_game_partial() {
        number += 1;
        let (game, error) = match r {
            Ok(g) => (g, None),
            Err((e, partial)) => {
                failed += 1;
                (partial, Some(e.message(lang)))
            }
        };
        let fen = game.final_position().to_fen();
        let moves = game.moves.len();
        // Without a finished game the position on the board says nothing.
        let term = if error.is_none() {
            termination(&game)
        } else {
            None
        };
        let result = game.result.as_deref().or(game.tag("Result"));
        let mut line = String::new();
        if json {
            line.push_str(&format!("{{\"game\":{number},\"white\":"));
            json_opt(&mut line, game.tag("White"));
            line.push_str(",\"black\":");
            json_opt(&mut line, game.tag("Black"));
            line.push_str(&format!(",\"moves\":{moves},\"final_fen\":"));
            json_str(&mut line, &fen);
            line.push_str(",\"result\":");
            json_opt(&mut line, result);
            line.push_str(",\"termination\":");
            json_opt(&mut line, term);
            line.push_str(",\"claimable\":[],\"error\":");
            json_opt(&mut line, error.as_deref());
            line.push_str("}\n");
        } else {
            let q = |s: Option<&str>| s.unwrap_or("?").to_string();
            line.push_str(&format!(
                "{} {number}: {} - {}, {} {}, {moves} {}\n",
                lang.pick("Partida", "Game"),
                q(game.tag("White")),
                q(game.tag("Black")),
                lang.pick("resultado", "result"),
                q(result),
                lang.pick("medias jugadas", "half-moves"),
            ));
            line.push_str(&format!(
                "  {}: {fen}\n",
                lang.pick("FEN final", "final FEN")
            ));
            match &error {
                Some(e) => line.push_str(&format!("  {}: {e}\n", lang.pick("ERROR", "ERROR"))),
                None => {
                    line.push_str(&format!(
                        "  {}: {}\n",
                        lang.pick("final en el tablero", "ended on the board by"),
                        termination_words(term, lang)
                    ));
                    line.push_str(&format!(
                        "  {}: {}\n",
                        lang.pick("se puede reclamar", "can be claimed"),
                        lang.pick("nada", "nothing")
                    ));
                }
            }
        }
        out.write_all(line.as_bytes())
            .map_err(|e| write_err(e, lang))?;
    }
    out.flush().map_err(|e| write_err(e, lang))?;
    if failed > 0 {
        return Err(lang.pick(
            format!("{failed} de {number} partida(s) con errores"),
            format!("{failed} of {number} game(s) have errors"),
        ));
    }
    Ok(())
}
