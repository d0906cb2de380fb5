//! Backups of a SQLite database while the server runs (`escaque respaldo`).
//!
//! SQLite's `VACUUM INTO` writes a consistent snapshot of the database (one
//! read transaction: every commit before it, none after) to a new file,
//! without stopping the writers (in WAL mode a reader blocks nobody). The
//! snapshot is written beside the destination under a temporary name,
//! synced, and renamed into place, so a destination that exists is always a
//! whole backup. Restoring is putting that file, with the server stopped, as
//! the data directory's `escaque.sqlite3` (docs/despliegue.md).
//!
//! PostgreSQL is backed up with its own tools (`pg_dump -Fc`,
//! `pg_restore`): [`Store::backup_to`] refuses it with a text that says so.

use std::path::{Path, PathBuf};
use std::time::Duration;

use escaque::{Lang, Localized};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

use super::{Backend, Store};

/// Why a backup was not made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database is PostgreSQL: `pg_dump` backs it up.
    #[error("PostgreSQL se respalda con pg_dump / PostgreSQL is backed up with pg_dump")]
    Postgres,
    /// There is no SQLite database at this path.
    #[error("no hay base de datos en / no database at {0}")]
    NoDatabase(String),
    /// The destination exists already; a backup never overwrites.
    #[error("{0} ya existe / already exists")]
    Exists(String),
    /// A file could not be written, synced or renamed.
    #[error("{path}: {err}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        err: std::io::Error,
    },
    /// SQLite refused or failed.
    #[error("base de datos / database: {0}")]
    Db(#[from] sqlx::Error),
}

impl Localized for BackupError {
    fn message(&self, lang: Lang) -> String {
        match self {
            BackupError::Postgres => lang
                .pick(
                    "una base PostgreSQL se respalda con sus propias herramientas: pg_dump -Fc (y pg_restore para restaurarla)",
                    "a PostgreSQL database is backed up with its own tools: pg_dump -Fc (and pg_restore to restore it)",
                )
                .to_string(),
            BackupError::NoDatabase(path) => lang.pick(
                format!("no hay base de datos de escaque en {path}"),
                format!("there is no escaque database at {path}"),
            ),
            BackupError::Exists(path) => lang.pick(
                format!("{path} ya existe: una copia nunca sobrescribe"),
                format!("{path} already exists: a backup never overwrites"),
            ),
            BackupError::Io { path, err } => lang.pick(
                format!("no se pudo escribir {path}: {err}"),
                format!("could not write {path}: {err}"),
            ),
            BackupError::Db(e) => lang.pick(
                format!("la base de datos falló durante la copia: {e}"),
                format!("the database failed during the backup: {e}"),
            ),
        }
    }
}

impl Store {
    /// Writes a consistent copy of this SQLite database to `dest` (a new
    /// file), while the server goes on writing. PostgreSQL: refused
    /// ([`BackupError::Postgres`]).
    pub async fn backup_to(&self, dest: &Path) -> Result<(), BackupError> {
        if self.backend != Backend::Sqlite {
            return Err(BackupError::Postgres);
        }
        let mut conn = self.pool.acquire().await?;
        snapshot(dest, |tmp| async move {
            sqlx::query("VACUUM INTO $1")
                .bind(tmp)
                .execute(&mut *conn)
                .await
                .map(|_| ())
        })
        .await
    }
}

/// Writes a consistent copy of the SQLite database in the file `src` (the
/// data directory's `escaque.sqlite3`, perhaps in use by a running server)
/// to `dest`, a new file. The database is opened as it is: neither created
/// nor migrated.
pub async fn backup_sqlite_file(src: &Path, dest: &Path) -> Result<(), BackupError> {
    if !src.is_file() {
        return Err(BackupError::NoDatabase(src.display().to_string()));
    }
    let mut conn = SqliteConnectOptions::new()
        .filename(src)
        .create_if_missing(false)
        .busy_timeout(Duration::from_secs(10))
        .connect()
        .await?;
    // A file that is not a SQLite database, or not escaque's, is refused
    // before anything is written.
    let ours: Option<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
    )
    .fetch_optional(&mut conn)
    .await
    .map_err(|_| BackupError::NoDatabase(src.display().to_string()))?;
    if ours.is_none() {
        return Err(BackupError::NoDatabase(src.display().to_string()));
    }
    let result = snapshot(dest, |tmp| async {
        sqlx::query("VACUUM INTO $1")
            .bind(tmp)
            .execute(&mut conn)
            .await
            .map(|_| ())
    })
    .await;
    let _ = conn.close().await;
    result
}

/// Runs `write` (which makes a new file at the path it is given) on a
/// temporary name beside `dest`, syncs the file and renames it to `dest`.
async fn snapshot<F, Fut>(dest: &Path, write: F) -> Result<(), BackupError>
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = Result<(), sqlx::Error>>,
{
    let io = |path: &Path, err| BackupError::Io {
        path: path.display().to_string(),
        err,
    };
    if dest.exists() {
        return Err(BackupError::Exists(dest.display().to_string()));
    }
    let tmp = temporary_beside(dest);
    // A temporary left by a backup that was killed half-way.
    let _ = std::fs::remove_file(&tmp);
    let written = write(tmp.to_string_lossy().into_owned()).await;
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.into());
    }
    let synced = std::fs::File::open(&tmp).and_then(|f| f.sync_all());
    if let Err(err) = synced {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(&tmp, err));
    }
    // `rename` would replace a file made meanwhile: the check is made again
    // as close to it as can be.
    if dest.exists() {
        let _ = std::fs::remove_file(&tmp);
        return Err(BackupError::Exists(dest.display().to_string()));
    }
    std::fs::rename(&tmp, dest).map_err(|err| io(dest, err))?;
    // The rename itself reaches the disk with its directory.
    if let Some(dir) = dest.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// `DIR/.NAME.parcial` for `DIR/NAME`.
fn temporary_beside(dest: &Path) -> PathBuf {
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "respaldo".into());
    dest.with_file_name(format!(".{name}.parcial"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_store_is_copied_whole_and_never_over_a_file() {
        let dir = std::env::temp_dir().join(format!("escaque-backup-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open_dir(&dir.join("datos"), true).await.unwrap();
        let secret = store.cluster_secret().await.unwrap();

        // From the running store.
        let dest = dir.join("copia.sqlite3");
        store.backup_to(&dest).await.unwrap();
        assert!(!dir.join(".copia.sqlite3.parcial").exists());
        assert!(matches!(
            store.backup_to(&dest).await,
            Err(BackupError::Exists(_))
        ));
        let copy = Store::open(&format!("sqlite://{}", dest.display()))
            .await
            .unwrap();
        assert_eq!(copy.cluster_secret().await.unwrap(), secret);
        assert_eq!(
            copy.schema_versions().await.unwrap(),
            store.schema_versions().await.unwrap()
        );

        // From the file, as `escaque respaldo` does, while the store is open.
        let dest = dir.join("copia2.sqlite3");
        backup_sqlite_file(&dir.join("datos/escaque.sqlite3"), &dest)
            .await
            .unwrap();
        let copy = Store::open(&format!("sqlite://{}", dest.display()))
            .await
            .unwrap();
        assert_eq!(copy.cluster_secret().await.unwrap(), secret);

        // Not a database, or none: nothing written.
        std::fs::write(dir.join("no.sqlite3"), b"hola").unwrap();
        for src in ["no.sqlite3", "falta.sqlite3"] {
            let out = dir.join("nada.sqlite3");
            assert!(matches!(
                backup_sqlite_file(&dir.join(src), &out).await,
                Err(BackupError::NoDatabase(_))
            ));
            assert!(!out.exists());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
