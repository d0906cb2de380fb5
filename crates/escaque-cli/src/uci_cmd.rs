//! `escaque uci [--elo N | --nivel N | --ajuste N] [--hilos N] [--libro [RUTA]]`:
//! the engine speaking UCI on standard input and output, optionally weakened,
//! given threads or its opening book from the start (for matches and GUIs
//! that cannot set options, and for calibrating the levels).

use clap::Args;
use std::sync::Arc;

use escaque_engine::book::Book;
use escaque_engine::uci::Uci;
use escaque_engine::{level, Engine, Level};

use crate::error::CliError;

#[derive(Args)]
pub struct UciArgs {
    /// Juega con esta fuerza (UCI_LimitStrength + UCI_Elo, 800–2380).
    #[arg(long, value_parser = clap::value_parser!(u32).range(level::MIN_ELO as i64..=level::MAX_ELO as i64))]
    pub elo: Option<u32>,
    /// Juega a este nivel del juego en la terminal (1 principiante … 10 maestro).
    #[arg(long = "nivel", alias = "level", value_parser = clap::value_parser!(u32).range(1..=10))]
    pub level: Option<u32>,
    /// Juega con este ajuste crudo del debilitamiento (200–2850), sin pasar por
    /// la tabla de calibración: sirve para medir los niveles.
    #[arg(long = "ajuste", alias = "setting", value_parser = clap::value_parser!(u32).range(level::MIN_SETTING as i64..=level::MAX_SETTING as i64))]
    pub setting: Option<u32>,
    /// Hilos de búsqueda (la opción Threads, 1–256).
    #[arg(long = "hilos", alias = "threads", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Abre con el libro de aperturas (la opción OwnBook): el de escaque, o el
    /// archivo Polyglot RUTA (la opción BookFile).
    #[arg(long = "libro", alias = "book", value_name = "RUTA", num_args = 0..=1, default_missing_value = "")]
    pub book: Option<String>,
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
    match args.book.as_deref() {
        None => {}
        Some("") => engine.set_book(Some(Book::shipped())),
        Some(path) => engine.set_book(Some(Arc::new(Book::open(path).map_err(CliError::Book)?))),
    }
    let stdin = std::io::stdin();
    Uci::with_engine(engine, std::io::stdout()).run(stdin.lock());
    Ok(())
}
