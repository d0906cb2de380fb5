//! `escaque pgn convertir --notacion es|en [ARCHIVO]` and
//! `escaque pgn revisar [ARCHIVO] [--json]` (English aliases `convert`, `check`).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use escaque::game::{DrawClaim, Termination};
use escaque::pgn::{write_game, Game, PgnReader, PgnStyle, ReaderOptions};
use escaque::{Lang, Localized, PgnErrorKind, SanLang};

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

/// How the game ended on the board and what could be claimed at its end,
/// from replaying its main line in an [`escaque::game::Game`] (FIDE rules).
/// Moves after an automatic ending (a fivefold repetition, say) do not change
/// that ending.
fn ending(game: &Game) -> (Option<&'static str>, Vec<&'static str>) {
    let mut g = escaque::game::Game::from_position(game.start);
    for m in game.mainline() {
        if g.outcome().is_some() || g.play(m).is_err() {
            break;
        }
    }
    let term = g.termination().map(|t| match t {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::DeadPosition if g.position().is_insufficient_material() => {
            "insufficient_material"
        }
        Termination::DeadPosition => "dead_position",
        Termination::FivefoldRepetition => "fivefold_repetition",
        Termination::SeventyFiveMoves => "seventy_five_moves",
        _ => "other",
    });
    let claims = g
        .claimable()
        .into_iter()
        .map(|c| match c {
            DrawClaim::Threefold => "threefold_repetition",
            DrawClaim::FiftyMoves => "fifty_moves",
        })
        .collect();
    (term, claims)
}

fn claim_words(c: &str, lang: Lang) -> &'static str {
    match c {
        "threefold_repetition" => lang.pick("triple repetición", "threefold repetition"),
        _ => lang.pick("cincuenta jugadas", "fifty moves"),
    }
}

fn termination_words(t: Option<&str>, lang: Lang) -> &'static str {
    match t {
        Some("checkmate") => lang.pick("jaque mate", "checkmate"),
        Some("stalemate") => lang.pick("rey ahogado", "stalemate"),
        Some("insufficient_material") => {
            lang.pick("material insuficiente", "insufficient material")
        }
        Some("dead_position") => lang.pick("posición muerta", "dead position"),
        Some("fivefold_repetition") => lang.pick("quíntuple repetición", "fivefold repetition"),
        Some("seventy_five_moves") => lang.pick("setenta y cinco jugadas", "seventy-five moves"),
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
        let (game, error, bad_start) = match r {
            Ok(g) => (g, None, false),
            Err((e, partial)) => {
                failed += 1;
                let bad_start = matches!(e.kind, PgnErrorKind::BadFen(_));
                (partial, Some(e.message(lang)), bad_start)
            }
        };
        // Without a valid starting position there is no final position either.
        let fen = (!bad_start).then(|| game.final_position().to_fen());
        let moves = game.moves.len();
        // A game that failed is judged on what was read of it.
        let (term, claims) = ending(&game);
        let result = game.result.as_deref().or(game.tag("Result"));
        let findings = crate::result_check::check(&game, lang);
        let mut line = String::new();
        if json {
            line.push_str(&format!("{{\"game\":{number},\"white\":"));
            json_opt(&mut line, game.tag("White"));
            line.push_str(",\"black\":");
            json_opt(&mut line, game.tag("Black"));
            line.push_str(&format!(",\"moves\":{moves},\"final_fen\":"));
            json_opt(&mut line, fen.as_deref());
            line.push_str(",\"result\":");
            json_opt(&mut line, result);
            line.push_str(",\"termination\":");
            json_opt(&mut line, term);
            line.push_str(",\"claimable\":[");
            for (i, c) in claims.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                json_str(&mut line, c);
            }
            line.push_str("],\"result_check\":[");
            for (i, f) in findings.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                line.push_str("{\"code\":");
                json_str(&mut line, f.code);
                line.push_str(",\"reason\":");
                json_str(&mut line, &f.reason);
                line.push('}');
            }
            line.push_str("],\"error\":");
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
                "  {}: {}\n",
                lang.pick("FEN final", "final FEN"),
                fen.as_deref().unwrap_or("-")
            ));
            line.push_str(&format!(
                "  {}: {}\n",
                lang.pick("final en el tablero", "ended on the board by"),
                termination_words(term, lang)
            ));
            let claim_text = if claims.is_empty() {
                lang.pick("nada", "nothing").to_string()
            } else {
                claims
                    .iter()
                    .map(|c| claim_words(c, lang))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            line.push_str(&format!(
                "  {}: {claim_text}\n",
                lang.pick("se puede reclamar", "can be claimed"),
            ));
            for f in &findings {
                line.push_str(&format!(
                    "  {}: {}\n",
                    lang.pick("RESULTADO CONTRADICHO", "RESULT CONTRADICTED"),
                    f.reason
                ));
            }
            if let Some(e) = &error {
                line.push_str(&format!("  ERROR: {e}\n"));
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
