//! `escaque servir` (alias `serve`): the online server — HTTP + WebSocket,
//! games between people and against the engine, server clocks, storage in
//! SQLite (a file in `--datos`) or PostgreSQL (`--db`).

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use clap::Args;
use escaque::Lang;
use escaque_server::{Config, Database};

use crate::error::CliError;

#[derive(Args)]
pub struct ServirArgs {
    /// Puerto en el que escuchar (0: cualquiera libre).
    #[arg(long = "puerto", alias = "port", default_value_t = 8080)]
    pub port: u16,
    /// Dirección en la que escuchar.
    #[arg(long = "direccion", alias = "address", default_value = "127.0.0.1")]
    pub address: IpAddr,
    /// Directorio de datos (la base SQLite vive ahí; se crea si falta).
    #[arg(long = "datos", alias = "data", default_value = "escaque-datos")]
    pub data: PathBuf,
    /// Base de datos PostgreSQL (postgres://usuario@host/base) en vez de SQLite.
    #[arg(long = "db")]
    pub db: Option<String>,
    /// Búsquedas del motor a la vez (por omisión, tantas como núcleos).
    #[arg(long = "hilos-motor", alias = "engine-threads")]
    pub engine_threads: Option<usize>,
    /// Marca como docente la cuenta NOMBRE (puede crear clases); se repite.
    #[arg(long = "docente", alias = "teacher", value_name = "NOMBRE")]
    pub teachers: Vec<String>,
    /// Cualquier cuenta (que no sea de un alumno) puede crear clases.
    #[arg(long = "docentes-libres", alias = "any-teacher")]
    pub any_teacher: bool,
    /// Motor UCI que analiza las partidas en vez del de escaque (ruta).
    #[arg(
        long = "motor-analisis",
        alias = "analysis-engine",
        value_name = "RUTA"
    )]
    pub analysis_engine: Option<PathBuf>,
    /// Profundidad de los análisis, en medias jugadas (por omisión, la de escaque).
    #[arg(long = "profundidad-analisis", alias = "analysis-depth", value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=99))]
    pub analysis_depth: Option<u32>,
    /// Análisis a la vez, un hilo cada uno (por omisión, los núcleos menos uno; al menos 1).
    #[arg(long = "hilos-analisis", alias = "analysis-workers", value_name = "N")]
    pub analysis_workers: Option<usize>,
    /// Nombre único de este proceso entre los de una misma base PostgreSQL (por omisión, el del equipo).
    #[arg(long = "nodo", alias = "node", value_name = "NOMBRE")]
    pub node: Option<String>,
    /// Dónde lo alcanzan los otros procesos, EQUIPO:PUERTO (por omisión, la dirección en que escucha).
    #[arg(long = "anunciar", alias = "advertise", value_name = "EQUIPO:PUERTO")]
    pub advertise: Option<String>,
    /// Cuánto dura el arriendo de una partida si su dueño no lo renueva, en ms (por omisión 10000).
    #[arg(long = "arriendo-ms", alias = "lease-ms", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(200..=600_000))]
    pub lease_ms: Option<u64>,
}

pub fn run(args: &ServirArgs, lang: Lang) -> Result<(), CliError> {
    let mut config = Config {
        addr: SocketAddr::new(args.address, args.port),
        database: match &args.db {
            Some(url) => Database::Url(url.clone()),
            None => Database::Dir(args.data.clone()),
        },
        any_teacher: args.any_teacher,
        teachers: args.teachers.clone(),
        ..Config::default()
    };
    if let Some(n) = args.engine_threads {
        config.engine_threads = n.max(1);
    }
    config.analysis_engine = args.analysis_engine.clone();
    config.node = args.node.clone();
    config.advertise = args.advertise.clone();
    if let Some(ms) = args.lease_ms {
        config.lease = std::time::Duration::from_millis(ms);
    }
    if let Some(d) = args.analysis_depth {
        config.analysis_settings = escaque_analysis::Settings {
            depth: Some(d),
            nodes: None,
        };
    }
    if let Some(n) = args.analysis_workers {
        config.analysis_workers = n.max(1);
    }
    let where_data = match &args.db {
        Some(_) => "PostgreSQL".to_string(),
        None => args.data.display().to_string(),
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(CliError::Write)?;
    rt.block_on(async move {
        let server = escaque_server::start(config)
            .await
            .map_err(CliError::Serve)?;
        println!(
            "{}",
            lang.pick(
                format!(
                    "escaque sirve en http://{} (datos: {where_data})",
                    server.addr
                ),
                format!(
                    "escaque serving on http://{} (data: {where_data})",
                    server.addr
                ),
            )
        );
        let _ = std::io::stdout().flush();
        // SIGTERM (a supervisor, a rolling restart) or SIGINT (Ctrl-C):
        // the games are handed over to the other processes, then it exits.
        server.serve_until(stop_signal()).await;
        Ok(())
    })
}

/// SIGTERM or SIGINT.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
