//! `escaque torneo modo-fide`, `salir-modo-fide` and `emparejar-manual`:
//! FIDE mode on the command line ([`escaque_torneo::fide`]). Every
//! tournament is in FIDE mode; leaving it takes `--confirmo` and the
//! tournament's name typed again (`--nombre`), is written in the file as a
//! `### FIDE mode left @ Round n` line and cannot be undone. A manual
//! pairing starts by showing the engine's pairing beside the proposed one
//! and its warnings (nothing saved) and ends with `--guardar` (saved only
//! when it breaks nothing or `--aceptar-avisos` is given; the comparison is
//! written as `### MPA @ Round n`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use escaque::Lang;
use escaque_torneo::fide::{self, Pairs};
use escaque_torneo::{TorneoError, Tournament};

use crate::error::CliError;
use crate::torneo_file;

/// `torneo modo-fide ARCHIVO`.
#[derive(Args)]
pub struct ModoFideArgs {
    /// Archivo del torneo.
    #[arg(value_name = "ARCHIVO")]
    file: PathBuf,
}

/// `torneo salir-modo-fide ARCHIVO --confirmo --nombre NOMBRE`.
#[derive(Args)]
pub struct SalirArgs {
    /// Archivo del torneo.
    #[arg(value_name = "ARCHIVO")]
    file: PathBuf,
    /// Primera confirmación: sé que salir del modo FIDE no se puede deshacer.
    #[arg(long = "confirmo", alias = "confirm")]
    confirm: bool,
    /// Segunda confirmación: el nombre del torneo, escrito otra vez.
    #[arg(long = "nombre", alias = "name", value_name = "NOMBRE")]
    name: Option<String>,
    /// Quién lo decide (queda escrito en el TRF).
    #[arg(long = "arbitro", alias = "arbiter", value_name = "QUIEN")]
    who: Option<String>,
}

/// `torneo emparejar-manual ARCHIVO PAREJAS... [--guardar [--aceptar-avisos]]`.
#[derive(Args)]
pub struct ManualArgs {
    /// Archivo del torneo.
    #[arg(value_name = "ARCHIVO")]
    file: PathBuf,
    /// Parejas BLANCAS-NEGRAS por mesa (1-4 2-3), y JUGADOR-0 para el descanso.
    #[arg(value_name = "PAREJAS", num_args = 1.., required = true)]
    pairs: Vec<String>,
    /// Termina el emparejamiento manual: guarda la ronda (sin esto solo se muestra).
    #[arg(long = "guardar", alias = "save")]
    save: bool,
    /// Guarda aunque incumpla reglas (repetición, prohibición, descanso, colores).
    #[arg(long = "aceptar-avisos", alias = "accept-warnings")]
    accept: bool,
}

fn io_err(e: std::io::Error) -> CliError {
    CliError::Write(e)
}

fn load(path: &Path) -> Result<Tournament, CliError> {
    Ok(torneo_file::load(path)?.0)
}

/// `modo-fide`: whether the tournament is in FIDE mode, and its log.
pub fn status(a: &ModoFideArgs, lang: Lang) -> Result<(), CliError> {
    let t = load(&a.file)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", fide::mark(&t, lang)).map_err(io_err)?;
    if fide::numbers_frozen(&t) {
        writeln!(
            out,
            "{}",
            lang.pick(
                "Números de emparejamiento congelados: la ronda 4 ya está emparejada (C.04.2 B.3)",
                "Pairing numbers frozen: round 4 is paired (C.04.2 B.3)"
            )
        )
        .map_err(io_err)?;
    }
    for line in &t.fide_log {
        writeln!(out, "{line}").map_err(io_err)?;
    }
    Ok(())
}

/// `salir-modo-fide`: both confirmations or nothing changes.
pub fn leave(a: &SalirArgs, lang: Lang) -> Result<(), CliError> {
    let mut t = load(&a.file)?;
    let line = fide::leave(
        &mut t,
        a.confirm,
        a.name.as_deref().unwrap_or(""),
        a.who.as_deref().unwrap_or(""),
    )
    .map_err(CliError::Tournament)?;
    torneo_file::save(&a.file, &t)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}",
        lang.pick(
            "El torneo ha salido del modo FIDE (no se puede deshacer). Queda escrito en el TRF:",
            "The tournament has left FIDE mode (this cannot be undone). Written in the TRF:"
        )
    )
    .map_err(io_err)?;
    writeln!(out, "{line}").map_err(io_err)
}

/// `emparejar-manual`: start (show) or end (`--guardar`).
pub fn manual(a: &ManualArgs, lang: Lang) -> Result<(), CliError> {
    let mut t = load(&a.file)?;
    let pairs =
        Pairs::parse(&a.pairs.join(" ")).map_err(|e| CliError::Tournament(TorneoError::Fide(e)))?;
    let preview = fide::preview_manual(&t, &pairs).map_err(CliError::Tournament)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", fide::mark(&t, lang)).map_err(io_err)?;
    writeln!(
        out,
        "{} {}: {}",
        lang.pick("Ronda", "Round"),
        preview.round,
        pairs.text()
    )
    .map_err(io_err)?;
    writeln!(
        out,
        "{}: {}",
        lang.pick("Emparejamiento del programa", "The engine's pairing"),
        preview
            .engine
            .as_ref()
            .map(Pairs::text)
            .unwrap_or_else(|| lang.pick("ninguno", "none").to_string())
    )
    .map_err(io_err)?;
    writeln!(
        out,
        "{}",
        lang.pick(
            format!("Mesas distintas del programa: {}", preview.differing),
            format!(
                "Boards that differ from the engine's: {}",
                preview.differing
            )
        )
    )
    .map_err(io_err)?;
    for w in &preview.warnings {
        writeln!(
            out,
            "{}: {}",
            lang.pick("Aviso", "Warning"),
            w.message(lang)
        )
        .map_err(io_err)?;
    }
    if !a.save {
        writeln!(
            out,
            "{}",
            lang.pick(
                "No se ha guardado nada: termine con --guardar (y --aceptar-avisos si hay avisos).",
                "Nothing saved: finish with --guardar (and --aceptar-avisos if there are warnings)."
            )
        )
        .map_err(io_err)?;
        return Ok(());
    }
    let (_, line) = fide::apply_manual(&mut t, &pairs, a.accept).map_err(CliError::Tournament)?;
    torneo_file::save(&a.file, &t)?;
    writeln!(out, "{line}").map_err(io_err)?;
    Ok(())
}
