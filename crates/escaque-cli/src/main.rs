//! `escaque`: the command-line program. Each subcommand wires the library
//! crates to a terminal: the game (`jugar`, also the default action, on the
//! shared session of `escaque-play`), `uci`, `pgn`, `perft`, `bench` and
//! `analizar`.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod analizar_cmd;
mod aprender_cmd;
mod bench_cmd;
mod dead_cmd;
mod error;
mod help;
mod i18n;
mod pdf;
mod perft_cmd;
mod pgn_cmd;
mod play;
mod problemas_cmd;
mod problemas_trainer;
mod respaldo_cmd;
mod result_check;
mod servir_cmd;
mod session_io;
mod torneo_check_cmd;
mod torneo_cmd;
mod torneo_equipos_cmd;
mod torneo_fide_cmd;
mod torneo_file;
mod tui;
mod uci_cmd;

/// escaque: ajedrez en español (chess in Spanish and English).
#[derive(Parser)]
#[command(name = "escaque", version, about)]
pub(crate) struct Cli {
    /// Idioma de los mensajes: es | en (por defecto, LANG; español si no se sabe).
    #[arg(long = "idioma", alias = "lang", global = true)]
    lang: Option<String>,

    /// Without a subcommand, `escaque` opens a game: these are `jugar`'s options.
    #[command(flatten)]
    play: play::PlayArgs,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Cuenta los nodos del árbol de jugadas legales (perft) hasta DEPTH.
    Perft(perft_cmd::PerftArgs),
    /// Habla el protocolo UCI por la entrada y salida estándar (para interfaces gráficas).
    Uci(uci_cmd::UciArgs),
    /// Busca posiciones fijas a profundidad fija: nodos totales y velocidad.
    Bench(bench_cmd::BenchArgs),
    /// Lee, convierte y revisa partidas PGN (convertir/convert, revisar/check).
    Pgn(pgn_cmd::PgnArgs),
    /// Dice si cada bando puede aún dar mate (posición muerta), con una línea de mate.
    #[command(name = "muerta", visible_alias = "dead")]
    Dead(dead_cmd::DeadArgs),
    /// Torneos: suizo holandés FIDE, round robin, resultados, clasificación, TRF, impresos.
    #[command(name = "torneo", visible_alias = "tournament")]
    Tournament(torneo_cmd::TorneoArgs),
    /// Juega una partida en la terminal (contra el motor o entre dos personas).
    #[command(name = "jugar", visible_alias = "play")]
    Play(play::PlayArgs),
    /// Sirve partidas en línea por HTTP y WebSocket (SQLite o PostgreSQL).
    #[command(name = "servir", visible_alias = "serve")]
    Serve(servir_cmd::ServirArgs),
    /// Analiza partidas PGN con el motor: evaluación, errores marcados y PGN anotado.
    #[command(name = "analizar", visible_alias = "analyse", alias = "analyze")]
    Analyse(analizar_cmd::AnalizarArgs),
    /// Problemas de partidas reales: buscar, importar (CSV de lichess) y jugar
    /// (pantalla completa en un terminal, --texto para líneas sencillas; tu
    /// puntuación se guarda en ~/.local/share/escaque).
    #[command(name = "problemas", visible_alias = "puzzles")]
    Puzzles(problemas_cmd::ProblemasArgs),
    /// Aprende a jugar: el curso de las reglas, etapa a etapa (--texto).
    #[command(name = "aprender", visible_alias = "learn")]
    Learn(aprender_cmd::AprenderArgs),
    /// Copia de seguridad de la base SQLite de un servidor, mientras sirve.
    #[command(name = "respaldo", visible_alias = "backup")]
    Backup(respaldo_cmd::RespaldoArgs),
}

fn main() -> ExitCode {
    // The language is needed before clap reads the line: its help and
    // usage are shown in it.
    // As the operating system gives them: a file name need not be UTF-8
    // (paths are `PathBuf`); any other value that is not is clap's usual
    // argument error (exit 2), never a panic as `std::env::args` would.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let lang = help::lang_from_args(&args);
    let parsed = help::localize(Cli::command(), lang)
        .try_get_matches_from(&args)
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => match help::error_text(&e, lang) {
            Some(text) => {
                eprint!("{text}");
                return ExitCode::from(2);
            }
            // Help, version, and what clap says best itself.
            None => e.exit(),
        },
    };
    let result = match cli.command {
        Some(Command::Perft(args)) => perft_cmd::run(&args, lang),
        Some(Command::Uci(args)) => uci_cmd::run(&args),
        Some(Command::Bench(args)) => bench_cmd::run(&args, lang),
        Some(Command::Pgn(args)) => pgn_cmd::run(&args, lang),
        Some(Command::Dead(args)) => dead_cmd::run(&args, lang),
        Some(Command::Play(args)) => play::run(&args, lang),
        Some(Command::Serve(args)) => servir_cmd::run(&args, lang),
        Some(Command::Tournament(args)) => torneo_cmd::run(&args, lang),
        Some(Command::Analyse(args)) => analizar_cmd::run(&args, lang),
        Some(Command::Backup(args)) => respaldo_cmd::run(&args, lang),
        Some(Command::Learn(args)) => aprender_cmd::run(&args, lang),
        Some(Command::Puzzles(args)) => problemas_cmd::run(&args, lang),
        None => play::run(&cli.play, lang),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("escaque: {}", escaque::Localized::message(&e, lang));
            ExitCode::from(2)
        }
    }
}
