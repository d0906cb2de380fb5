//! `escaque pgn convertir --notacion es|en [ARCHIVO]` and
//! `escaque pgn revisar [ARCHIVO] [--json]` (English aliases `convert`, `check`).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use escaque::game::{DrawClaim, Termination};
use escaque::pgn::{write_game, PgnGame, PgnReader, PgnStyle, ReaderOptions};
use escaque::{Lang, Localized, PgnErrorKind, SanLang};

use crate::error::CliError;

/// Writes `bytes`; false when the reader of the output has gone (`| head`):
/// then the command stops quietly, as `cat` does, with no error.
fn emit(out: &mut impl Write, bytes: &[u8]) -> Result<bool, CliError> {
    match out.write_all(bytes) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(CliError::Write(e)),
    }
}

/// Flushes `out`, quietly when its reader has gone.
fn finish(out: &mut impl Write) -> Result<bool, CliError> {
    match out.flush() {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(CliError::Write(e)),
    }
}

#[derive(Args)]
pub struct PgnArgs {
    #[command(subcommand)]
    command: PgnCommand,
}

#[derive(Subcommand)]
enum PgnCommand {
    /// Reescribe las partidas en otra notación (convert).
    #[command(name = "convertir", alias = "convert")]
    Convert {
        /// Notación de salida: es (española) o en (inglesa, formato de exportación PGN).
        #[arg(long = "notacion", alias = "notation", value_enum)]
        notation: Notation,
        /// Notación de las jugadas de entrada (por defecto, se detecta en cada partida).
        #[arg(long = "entrada", alias = "input", value_enum, default_value = "auto")]
        input: InputNotation,
        /// Archivo PGN (entrada estándar si falta).
        #[arg(value_name = "ARCHIVO")]
        file: Option<PathBuf>,
    },
    /// Reproduce y comprueba cada partida (check).
    #[command(name = "revisar", alias = "check")]
    Check {
        /// Archivo PGN (entrada estándar si falta).
        #[arg(value_name = "ARCHIVO")]
        file: Option<PathBuf>,
        /// Un objeto JSON por línea y partida.
        #[arg(long)]
        json: bool,
        /// Notación de las jugadas de entrada (por defecto, se detecta en cada partida).
        #[arg(long = "entrada", alias = "input", value_enum, default_value = "auto")]
        input: InputNotation,
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

fn open(path: &Option<PathBuf>) -> Result<Box<dyn Read>, CliError> {
    match path {
        Some(p) => File::open(p)
            .map(|f| Box::new(f) as Box<dyn Read>)
            .map_err(|error| CliError::Open {
                path: p.display().to_string(),
                error,
            }),
        None => Ok(Box::new(io::stdin().lock())),
    }
}

pub fn run(args: &PgnArgs, lang: Lang) -> Result<(), CliError> {
    match &args.command {
        PgnCommand::Convert {
            notation,
            input,
            file,
        } => convert(open(file)?, *notation, *input, lang),
        PgnCommand::Check { file, json, input } => check(open(file)?, *json, *input, lang),
    }
}

fn convert(
    input: Box<dyn Read>,
    notation: Notation,
    entrada: InputNotation,
    lang: Lang,
) -> Result<(), CliError> {
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
                for w in &game.warnings {
                    eprintln!(
                        "escaque: {}: {}",
                        lang.pick("aviso", "warning"),
                        w.message(lang)
                    );
                }
                buf.clear();
                write_game(&mut buf, &game, style);
                if !emit(&mut out, buf.as_bytes())? {
                    return Ok(());
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("escaque: {}", e.message(lang));
            }
        }
    }
    if !finish(&mut out)? {
        return Ok(());
    }
    if failed > 0 {
        return Err(CliError::NotConverted { failed });
    }
    Ok(())
}

/// How the game ended on the board and what could be claimed at its end,
/// from replaying its main line in an [`escaque::game::Game`] (FIDE rules).
/// Moves after an automatic ending (a fivefold repetition, say) do not change
/// that ending.
fn ending(game: &PgnGame) -> Ending {
    let mut g = escaque::game::Game::from_position(game.start);
    let mut null_move = None;
    for (ply, m) in game.mainline().enumerate() {
        if m.is_null() {
            // A pass is no move of a played game: judge up to it.
            null_move = Some(ply + 1);
            break;
        }
        if g.outcome().is_some() || g.play(m).is_err() {
            break;
        }
    }
    let claim_moves = g
        .claimable_moves()
        .into_iter()
        .map(|(m, c)| {
            let mut san = String::new();
            escaque::san::write_san(
                &mut san,
                g.position(),
                m,
                escaque::san::SanStyle {
                    lang: Lang::En,
                    check_marks: true,
                    en_passant_suffix: false,
                },
            );
            (san, c)
        })
        .collect();
    Ending {
        termination: g.termination(),
        insufficient_material: g.position().is_insufficient_material(),
        claims: g.claimable(),
        claim_moves,
        null_move,
    }
}

/// How a game ended on the board, by the library's arbiter.
struct Ending {
    termination: Option<Termination>,
    insufficient_material: bool,
    claims: Vec<DrawClaim>,
    /// Moves the side to move could declare with a draw claim (9.2.1 a,
    /// 9.3.1), in English SAN: the move that makes a threefold repetition.
    claim_moves: Vec<(String, DrawClaim)>,
    /// The half-move (from 1) of the first null move, if the game has one:
    /// it is then no played game, and the ending and claims are judged up to
    /// there.
    null_move: Option<usize>,
}

impl Ending {
    /// The identifier in the JSON output: the library's, with a dead position
    /// by insufficient material told apart (`insufficient_material`).
    fn id(&self) -> Option<&'static str> {
        self.termination.map(|t| match t {
            Termination::DeadPosition if self.insufficient_material => "insufficient_material",
            t => t.id(),
        })
    }

    /// The words for people, from the library's catalogue.
    fn words(&self, lang: Lang) -> String {
        match self.termination {
            Some(Termination::DeadPosition) if self.insufficient_material => lang
                .pick("material insuficiente", "insufficient material")
                .to_string(),
            Some(t) => t.message(lang),
            None => lang.pick("ninguno", "none").to_string(),
        }
    }
}

/// Who sealed the move of an adjourned game, as its envelope tag says
/// (`las blancas` / `White`), if it is one.
fn sealed_by(game: &PgnGame, lang: Lang) -> Option<&'static str> {
    match game.tag("EscaqueSealedBy")? {
        "White" => Some(lang.pick("las blancas", "White")),
        "Black" => Some(lang.pick("las negras", "Black")),
        _ => None,
    }
}

/// Appends `s` as a JSON string (quoted and escaped).
pub(crate) fn json_str(out: &mut String, s: &str) {
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
) -> Result<(), CliError> {
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
        let end = ending(&game);
        // The marker, or else the tag: none when the game records neither.
        let result =
            (game.result.is_some() || game.tag("Result").is_some()).then(|| game.result_text());
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
            json_opt(&mut line, end.id());
            line.push_str(",\"claimable\":[");
            for (i, c) in end.claims.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                json_str(&mut line, c.id());
            }
            line.push_str("],\"claim_moves\":[");
            for (i, (san, c)) in end.claim_moves.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                line.push_str("{\"move\":");
                json_str(&mut line, san);
                line.push_str(",\"claim\":");
                json_str(&mut line, c.id());
                line.push('}');
            }
            line.push_str("],\"null_move\":");
            match end.null_move {
                Some(ply) => line.push_str(&ply.to_string()),
                None => line.push_str("null"),
            }
            line.push_str(",\"sealed_by\":");
            json_opt(&mut line, sealed_by(&game, Lang::En));
            line.push_str(",\"result_check\":[");
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
            line.push_str("],\"warnings\":[");
            for (i, w) in game.warnings.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                line.push_str("{\"code\":");
                json_str(&mut line, w.kind.id());
                line.push_str(&format!(",\"line\":{},\"column\":{}", w.line, w.column));
                line.push_str(",\"reason\":");
                json_str(&mut line, &w.kind.message(lang));
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
                end.words(lang)
            ));
            let claim_text = if end.claims.is_empty() {
                lang.pick("nada", "nothing").to_string()
            } else {
                end.claims
                    .iter()
                    .map(|c| c.message(lang))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            line.push_str(&format!(
                "  {}: {claim_text}\n",
                lang.pick("se puede reclamar", "can be claimed"),
            ));
            if !end.claim_moves.is_empty() {
                let list = end
                    .claim_moves
                    .iter()
                    .map(|(san, c)| format!("{san} ({})", c.message(lang)))
                    .collect::<Vec<_>>()
                    .join(", ");
                line.push_str(&format!(
                    "  {}: {list}\n",
                    lang.pick(
                        "se puede reclamar anunciando la jugada (9.2.1 a)",
                        "can be claimed by declaring the move (9.2.1 a)"
                    ),
                ));
            }
            for w in &game.warnings {
                line.push_str(&format!(
                    "  {}: {}\n",
                    lang.pick("AVISO", "WARNING"),
                    w.message(lang)
                ));
            }
            if let Some(ply) = end.null_move {
                line.push_str(&format!(
                    "  {}\n",
                    lang.pick(
                        format!("jugada nula (--) en la media jugada {ply}: no es una partida jugada; el final y las reclamaciones se juzgan hasta ella"),
                        format!("null move (--) at half-move {ply}: not a played game; its ending and claims are judged up to it"),
                    )
                ));
            }
            if let Some(by) = sealed_by(&game, lang) {
                // The envelope stays closed: who sealed and the clocks, never
                // the move.
                let clocks = match (game.tag("WhiteClock"), game.tag("BlackClock")) {
                    (Some(w), Some(b)) => lang.pick(
                        format!("; relojes: blancas {w}, negras {b}"),
                        format!("; clocks: White {w}, Black {b}"),
                    ),
                    _ => String::new(),
                };
                line.push_str(&format!(
                    "  {}{clocks}\n",
                    lang.pick(
                        format!("aplazada: jugada secreta de {by} en sobre cerrado"),
                        format!("adjourned: {by}'s sealed move in a closed envelope"),
                    )
                ));
            }
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
        if !emit(&mut out, line.as_bytes())? {
            return Ok(());
        }
    }
    if !finish(&mut out)? {
        return Ok(());
    }
    if failed > 0 {
        return Err(CliError::GamesWithErrors {
            failed,
            total: number,
        });
    }
    Ok(())
}
