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
    /// Archivos TRF (TRF-2026, TRF16, TRF(x) con XXR/XXC/XXA/XXP) o
    /// directorios (sus archivos .trf, por orden de nombre).
    #[arg(value_name = "ARCHIVO.trf", required = true)]
    files: Vec<PathBuf>,
    /// Informe en JSON, una línea por archivo.
    #[arg(long = "json")]
    json: bool,
    /// Cuántos archivos comprobar a la vez (hilos); 0: tantos como núcleos.
    #[arg(
        short = 'j',
        long = "trabajos",
        alias = "jobs",
        value_name = "N",
        default_value_t = 1
    )]
    jobs: usize,
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

/// One file's outcome: what to print and how it went.
enum Checked {
    Right(String),
    Wrong(String),
    /// The message (with line and column) of a file that cannot be read.
    Unreadable(String),
}

/// The files to check: each path given, a directory's `.trf` files by name.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|error| CliError::Open {
                    path: p.display().to_string(),
                    error,
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.is_file() && f.extension().is_some_and(|x| x.eq_ignore_ascii_case("trf"))
                })
                .collect();
            inside.sort();
            out.extend(inside);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Checks one file: the full report (one file), one line (several) or the
/// JSON line.
fn check_one(path: &std::path::Path, json: bool, one: bool, lang: Lang) -> Checked {
    let name = path.display().to_string();
    let parsed = read_text(path)
        .and_then(|text| trf::parse(&text).map(|t| (t, text)).map_err(CliError::Trf));
    let (t, text) = match parsed {
        Ok(x) => x,
        Err(e) => {
            return Checked::Unreadable(if json {
                format!(
                    r#"{{"file":{},"ok":false,"error":{}}}"#,
                    json_string(&name),
                    json_string(&e.message(lang))
                )
            } else if one {
                format!("{name}: {}", e.message(lang))
            } else {
                format!(
                    "{name}: {} {}",
                    lang.pick("no se puede leer:", "cannot be read:"),
                    e.message(lang)
                )
            });
        }
    };
    let report = check::check(&t, &text);
    let shown = if json {
        let body = report.json();
        format!(r#"{{"file":{},{}"#, json_string(&name), &body[1..])
    } else if one {
        format!("{name}: {}", report.text(lang))
    } else {
        format!("{name}: {}", report.summary(lang))
    };
    if report.ok() {
        Checked::Right(shown)
    } else {
        Checked::Wrong(shown)
    }
}

/// Checks every file (`-j N`: N at a time, printed in the order given);
/// exit status 0 when all is right, 1 when something is wrong in a file,
/// 2 when a file cannot be read (its line and column said). Several files
/// in text: one line each and the totals.
pub fn comprobar(args: &ComprobarArgs, lang: Lang) -> Result<(), CliError> {
    let files = expand(&args.files)?;
    let one = files.len() == 1;
    let jobs = match args.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        j => j,
    }
    .clamp(1, files.len().max(1));
    let (mut right, mut wrong, mut unreadable) = (0usize, 0usize, 0usize);
    let mut show = |c: Checked| -> std::io::Result<()> {
        let mut out = std::io::stdout().lock();
        match c {
            Checked::Right(s) => {
                right += 1;
                writeln!(out, "{}", s.trim_end())
            }
            Checked::Wrong(s) => {
                wrong += 1;
                writeln!(out, "{}", s.trim_end())
            }
            Checked::Unreadable(s) => {
                unreadable += 1;
                if args.json || !one {
                    writeln!(out, "{s}")
                } else {
                    eprintln!("{s}");
                    Ok(())
                }
            }
        }
    };
    if jobs == 1 {
        for f in &files {
            show(check_one(f, args.json, one, lang))?;
        }
    } else {
        // Workers take the next file; what they find is printed in the
        // files' order as soon as the files before it are done.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let (send, receive) = std::sync::mpsc::channel::<(usize, Checked)>();
        std::thread::scope(|scope| -> Result<(), CliError> {
            for _ in 0..jobs {
                let send = send.clone();
                let (next, files) = (&next, &files);
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(f) = files.get(i) else { break };
                    if send.send((i, check_one(f, args.json, one, lang))).is_err() {
                        break;
                    }
                });
            }
            drop(send);
            let mut waiting: std::collections::BTreeMap<usize, Checked> = Default::default();
            let mut printed = 0;
            for (i, c) in receive {
                waiting.insert(i, c);
                while let Some(c) = waiting.remove(&printed) {
                    show(c)?;
                    printed += 1;
                }
            }
            Ok(())
        })?;
    }
    if !one && !args.json {
        println!(
            "{}",
            lang.pick(
                format!(
                    "{} archivos: {right} correctos, {wrong} con problemas, {unreadable} ilegibles",
                    files.len()
                ),
                format!(
                    "{} files: {right} right, {wrong} with problems, {unreadable} unreadable",
                    files.len()
                ),
            )
        );
    }
    std::io::stdout().flush()?;
    if unreadable > 0 {
        std::process::exit(2);
    }
    if wrong > 0 {
        std::process::exit(1);
    }
    Ok(())
}
