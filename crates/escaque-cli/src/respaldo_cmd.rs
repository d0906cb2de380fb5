//! `escaque respaldo` (alias `backup`): a consistent copy of a server's
//! SQLite database, made while the server runs (SQLite's `VACUUM INTO`).
//! Restoring is putting the copy, with the server stopped, as the data
//! directory's `escaque.sqlite3`. PostgreSQL is backed up with `pg_dump`
//! (docs/despliegue.md).

use std::path::PathBuf;

use clap::Args;
use escaque::Lang;
use escaque_server::store::backup::backup_sqlite_file;

use crate::error::CliError;

#[derive(Args)]
pub struct RespaldoArgs {
    /// Directorio de datos del servidor (el de `escaque servir --datos`).
    #[arg(long = "datos", alias = "data", default_value = "escaque-datos")]
    pub data: PathBuf,
    /// Archivo nuevo donde escribir la copia (nunca se sobrescribe uno que exista).
    #[arg(value_name = "ARCHIVO")]
    pub file: PathBuf,
}

pub fn run(args: &RespaldoArgs, lang: Lang) -> Result<(), CliError> {
    let src = args.data.join("escaque.sqlite3");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CliError::Write)?;
    rt.block_on(backup_sqlite_file(&src, &args.file))
        .map_err(CliError::Backup)?;
    let size = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    let file = args.file.display();
    println!(
        "{}",
        lang.pick(
            format!("copia de seguridad escrita en {file} ({size} bytes)"),
            format!("backup written to {file} ({size} bytes)"),
        )
    );
    Ok(())
}
