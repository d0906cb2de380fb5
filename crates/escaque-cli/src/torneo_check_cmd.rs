//! `escaque torneo generar` (random tournaments, [`escaque_torneo::generate`])
//! and `escaque torneo comprobar` (a tournament's pairings and standings
//! checked, [`escaque_torneo::check`]).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use escaque::{Lang, Localized};
use escaque_torneo::generate::{generate, Config};
use escaque_torneo::{check, trf};

use crate::error::CliError;
use crate::torneo_file;

/// Genera torneos suizos al azar (TRF-2026), emparejados por el sistema
/// holandés de escaque.
#[derive(Args)]
pub struct GenerarArgs {
    /// Número de jugadores.
    #[arg(long = "jugadores", alias = "players", value_name = "N")]
    players: Option<u32>,
    /// Número de rondas.
    #[arg(long = "rondas", alias = "rounds", value_name = "R")]
    rounds: Option<u32>,
    /// Semilla (la misma semilla da el mismo archivo); al azar si se omite.
    #[arg(long = "semilla", alias = "seed", value_name = "S")]
    seed: Option<u64>,
    /// Un torneo real (TRF) del que tomar jugadores, rondas, desempates y
    /// frecuencias de tablas, incomparecencias, retiradas y descansos.
    #[arg(long = "modelo", alias = "model", value_name = "REAL.trf")]
    model: Option<PathBuf>,
    /// Archivo de configuración: líneas «clave = valor» (véase docs/torneos-generados.md).
    #[arg(long = "config", value_name = "ARCHIVO")]
    config: Option<PathBuf>,
    /// Con aceleración Baku (C.04.5.1).
    #[arg(long = "baku")]
    baku: bool,
    /// Dónde escribir el torneo (la salida estándar si se omite).
    #[arg(long = "salida", alias = "output", short = 'o', value_name = "ARCHIVO")]
    output: Option<PathBuf>,
    /// Genera CANTIDAD torneos, con las semillas S, S+1, …, en el
    /// directorio --directorio (t<semilla>.trf).
    #[arg(long = "cantidad", alias = "count", value_name = "CANTIDAD")]
    count: Option<u64>,
    /// Directorio de los torneos de --cantidad.
    #[arg(long = "directorio", alias = "dir", value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Comprueba los emparejamientos (sistema holandés, C.04.3) y la
/// clasificación (los desempates declarados) de uno o varios torneos.
#[derive(Args)]
pub struct ComprobarArgs {
    /// Archivos TRF (TRF-2026, TRF16, TRF(x) con XXR/XXC/XXA/XXP).
    #[arg(value_name = "ARCHIVO.trf", required = true)]
    files: Vec<PathBuf>,
    /// Informe en JSON, una línea por archivo.
    #[arg(long = "json")]
    json: bool,
}

fn read_text(path: &std::path::Path) -> Result<String, CliError> {
    let bytes = std::fs::read(path).map_err(|error| CliError::Open {
        path: path.display().to_string(),
        error,
    })?;
    Ok(trf::decode(&bytes).0)
}

fn config_for(
    args: &GenerarArgs,
) -> Result<(Config, Option<escaque_torneo::Tournament>), CliError> {
    let model = match &args.model {
        Some(p) => Some(trf::parse(&read_text(p)?).map_err(CliError::Trf)?),
        None => None,
    };
    let mut c = match &model {
        Some(m) => Config::from_model(m),
        None => Config::default(),
    };
    if let Some(p) = &args.config {
        c = c.read(&read_text(p)?).map_err(CliError::Generate)?;
    }
    if let Some(n) = args.players {
        if model.is_some() {
            return Err(CliError::Generate(
                escaque_torneo::generate::GenError::Invalid(
                    "--jugadores con --modelo: los jugadores son los del modelo / the model's players are used",
                ),
            ));
        }
        c.players = n;
    }
    if let Some(r) = args.rounds {
        c.rounds = r;
    }
    c.baku |= args.baku;
    Ok((c, model))
}

pub fn generar(args: &GenerarArgs, lang: Lang) -> Result<(), CliError> {
    let (config, model) = config_for(args)?;
    let seed = args.seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        eprintln!("{} {s}", lang.pick("semilla", "seed"));
        s
    });
    if let Some(count) = args.count {
        let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
        std::fs::create_dir_all(&dir).map_err(|error| CliError::Save {
            path: dir.display().to_string(),
            error,
        })?;
        let mut failed = 0;
        for s in seed..seed.saturating_add(count) {
            match generate(&config, s, model.as_ref()) {
                Ok(g) => torneo_file::write_atomic(&dir.join(format!("t{s}.trf")), &g.text)?,
                Err(e @ escaque_torneo::generate::GenError::NoPairing { .. }) => {
                    failed += 1;
                    eprintln!("{} {s}: {}", lang.pick("semilla", "seed"), e.message(lang));
                }
                Err(e) => return Err(CliError::Generate(e)),
            }
        }
        eprintln!(
            "{}",
            lang.pick(
                format!("{} torneos generados en {}", count - failed, dir.display()),
                format!(
                    "{} tournaments generated in {}",
                    count - failed,
                    dir.display()
                ),
            )
        );
        return Ok(());
    }
    let g = generate(&config, seed, model.as_ref()).map_err(CliError::Generate)?;
    match &args.output {
        Some(p) => torneo_file::write_atomic(p, &g.text),
        None => {
            std::io::stdout().write_all(g.text.as_bytes())?;
            Ok(())
        }
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Checks every file; exit status 0 when all is right, 1 when something is
/// wrong in a file, 2 when a file cannot be read (its line and column said).
pub fn comprobar(args: &ComprobarArgs, lang: Lang) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    let (mut wrong, mut unreadable) = (false, false);
    for path in &args.files {
        let name = path.display().to_string();
        let parsed = read_text(path)
            .and_then(|text| trf::parse(&text).map(|t| (t, text)).map_err(CliError::Trf));
        let (t, text) = match parsed {
            Ok(x) => x,
            Err(e) => {
                if args.json {
                    writeln!(
                        out,
                        r#"{{"file":{},"ok":false,"error":{}}}"#,
                        json_string(&name),
                        json_string(&e.message(lang))
                    )?;
                } else {
                    eprintln!("{name}: {}", e.message(lang));
                }
                unreadable = true;
                continue;
            }
        };
        let report = check::check(&t, &text);
        wrong |= !report.ok();
        if args.json {
            let body = report.json();
            writeln!(out, r#"{{"file":{},{}"#, json_string(&name), &body[1..])?;
        } else {
            write!(out, "{name}: {}", report.text(lang))?;
        }
    }
    out.flush()?;
    if unreadable {
        std::process::exit(2);
    }
    if wrong {
        std::process::exit(1);
    }
    Ok(())
}
