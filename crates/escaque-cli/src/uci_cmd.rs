//! `escaque uci [--elo N | --nivel N | --ajuste N] [--hilos N]`: the engine
//! speaking UCI on standard input and output, optionally weakened or given
//! threads from the start (for matches and GUIs that cannot set options, and
//! for calibrating the levels).

use clap::Args;
use escaque_engine::uci::Uci;
use escaque_engine::{Engine, Level};

use crate::error::CliError;

#[derive(Args)]
pub struct UciArgs {
    /// Juega con esta fuerza (UCI_LimitStrength + UCI_Elo, 800–2200).
    #[arg(long, value_parser = clap::value_parser!(u32).range(800..=2200))]
    pub elo: Option<u32>,
    /// Juega a este nivel del juego en la terminal (1 principiante … 10 maestro).
    #[arg(long = "nivel", alias = "level", value_parser = clap::value_parser!(u32).range(1..=10))]
    pub level: Option<u32>,
    /// Juega con este ajuste crudo del debilitamiento (200–2600), sin pasar por
    /// la tabla de calibración: sirve para medir los niveles.
    #[arg(long = "ajuste", alias = "setting", value_parser = clap::value_parser!(u32).range(200..=2600))]
    pub setting: Option<u32>,
    /// Hilos de búsqueda (la opción Threads, 1–256).
    #[arg(long = "hilos", alias = "threads", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

pub fn run(args: &UciArgs) -> Result<(), CliError> {
    let mut engine = Engine::new();
    match (args.elo, args.level) {
        (Some(elo), _) => engine.set_limit_strength(true, elo),
        (None, Some(n)) => engine.set_level(Level::from_number(n).ok_or(CliError::Level(n))?),
        (None, None) => {}
    }
    engine.set_strength_setting(args.setting);
    if let Some(n) = args.threads {
        engine.set_threads(n as usize);
    }
    let stdin = std::io::stdin();
    Uci::with_engine(engine, std::io::stdout()).run(stdin.lock());
    Ok(())
}
