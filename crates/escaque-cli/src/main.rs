//! `escaque`: the command-line program — the terminal game (`jugar`, also the
//! default action) and `perft`; `uci`, `pgn` and `bench` join it as they are built.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use escaque::Lang;

mod bench_cmd;
mod i18n;
mod perft_cmd;
mod pgn_cmd;
mod play;
mod torneo_cmd;
mod tui;
mod uci_cmd;

/// escaque: ajedrez en español (chess in Spanish and English).
#[derive(Parser)]
#[command(name = "escaque", version, about)]
struct Cli {
    /// Idioma de los mensajes: es | en (por defecto, LANG; español si no se sabe).
    #[arg(long = "idioma", alias = "lang", global = true)]
    idioma: Option<String>,

    /// Without a subcommand, `escaque` opens a game: these are `jugar`'s options.
    #[command(flatten)]
    jugar: play::PlayArgs,

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
    /// Torneos: suizo holandés FIDE, round robin, resultados, clasificación, TRF, impresos.
    #[command(visible_alias = "tournament")]
    Torneo(torneo_cmd::TorneoArgs),
    /// Juega una partida en la terminal (contra el motor o entre dos personas).
    #[command(visible_alias = "play")]
    Jugar(play::PlayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let lang = match cli.idioma.as_deref() {
        Some(l) => Lang::from_locale(Some(l)),
        None => Lang::from_locale(std::env::var("LANG").ok().as_deref()),
    };
    let result = match cli.command {
        Some(Command::Perft(args)) => perft_cmd::run(&args, lang),
        Some(Command::Uci(args)) => uci_cmd::run(&args),
        Some(Command::Bench(args)) => bench_cmd::run(&args, lang),
        Some(Command::Pgn(args)) => pgn_cmd::run(&args, lang),
        Some(Command::Torneo(args)) => torneo_cmd::run(&args, lang),
        Some(Command::Jugar(args)) => play::run(&args, lang),
        None => play::run(&cli.jugar, lang),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("escaque: {msg}");
            ExitCode::from(2)
        }
    }
}
