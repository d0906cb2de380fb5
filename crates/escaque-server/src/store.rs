//! Storage: one schema for SQLite and PostgreSQL through sqlx's `Any` driver.
//! Every statement uses bound parameters (`$1`, `$2`…, which both databases
//! accept).
//!
//! The schema is built by versioned migrations (`migrations/NNNN_name.sql`,
//! plain SQL both databases read, compiled into the binary), applied in order
//! on start, each recorded in `schema_migrations`; a database written by an
//! earlier release is brought up to date, its games, accounts and finished
//! games kept. The stored vocabulary is the library's identifiers
//! ([`escaque::RuleSet::id`], [`escaque::Termination::id`] with the side it names in its own
//! column); [`GameRow`] holds them typed, and this module is the one place
//! that turns them into columns and back.
//!
//! One file a resource under `store/`; this file holds the error, the pool
//! and its opening, and the one helper that logs a storage failure.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::any::AnyPoolOptions;
use sqlx::AnyPool;
use tokio::sync::mpsc;

pub use cluster::Fence;

mod accounts;
mod games;
mod migrations;
mod tournaments;
mod writer;
pub use accounts::UserRow;
pub use games::{color_from_id, color_id, Ending, GameRow, MoveRow, Sealed};
use games::{game_from_row, insert_game_in, GAME_COLUMNS};
pub use migrations::migration_versions;
use tournaments::{tournament_from_row, TOURNAMENT_COLUMNS};
pub use tournaments::{PlayerLink, RoundGame, TournamentRow};
use writer::{check_fence, writer_task, Job, JobReply};

mod adjourn;
pub mod aprender;
// Backups of a SQLite database while it runs (issue 28).
pub mod backup;
pub mod cluster;
// Analysis of games (issue 27): the analyses and their queue.
pub mod analysis;
mod kid_mode;
mod openings;
mod ratings;
pub mod seeks;
mod tournament_games;
pub use ratings::{account_of, HistoryPoint, PendingGame, RatingRow, RatingUpdate};
pub use tournament_games::{BoardRow, TournamentLink};
pub mod class_admin;
pub mod classes;
// Classes (issue 26): a class's progress and tournaments; simuls.
mod players;
pub mod progress;
// The puzzle trainer (issue 56).
pub mod problemas;
pub mod simuls;
// Homework (issue 57).
pub mod tareas;
// Results entered by the players from a QR code (issue 59).
pub mod resultados;
// Team tournaments on the server (issue 59, teams).
pub mod equipos;
// Online team play (issue 59): the games of a team round.
pub mod equipos_online;
// A player's page (issue 25).
pub use players::{PlayerRow, Score};

/// A storage error, with the database's own text.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("base de datos / database: {0}")]
    Db(#[from] sqlx::Error),
    /// The data directory could not be created.
    #[error("directorio de datos / data directory {path}: {err}")]
    DataDir {
        /// The directory.
        path: String,
        /// What went wrong.
        err: std::io::Error,
    },
    /// The group-commit writer failed.
    #[error("escritura / write: {0}")]
    Writer(String),
    /// The URL is neither `sqlite:` nor `postgres:`.
    #[error("URL de base de datos no reconocida / unknown database URL: {0}")]
    BadUrl(String),
    /// The database has migrations this binary does not know: a newer
    /// release wrote it.
    #[error(
        "la base de datos es de una versión más nueva (esquema {found}, este programa conoce hasta {known}) / \
         the database is from a newer release (schema {found}, this program knows up to {known})"
    )]
    TooNew {
        /// The highest version applied.
        found: i64,
        /// The highest version this binary has.
        known: i64,
    },
    /// A game write from a process that no longer holds the game's lease
    /// (another process took the game over): refused, nothing written.
    #[error(
        "la partida la lleva ahora otro proceso; escritura rechazada / \
         another process runs the game now; write refused"
    )]
    Fenced,
    /// A stored field holds no value this release can read.
    #[error("dato guardado ilegible / unreadable stored data: {what} = «{value}»")]
    Corrupt {
        /// The column.
        what: &'static str,
        /// What it holds; for a long text (a TRF, a JSON document), why its
        /// reader refused it ([`log_unreadable`]).
        value: String,
    },
}

/// Logs a storage failure's cause: the one place it is written (the
/// refusals built from a [`StoreError`], through `crate::error`, and the
/// background tasks that have nobody to answer: the lobby, the bus, a
/// game's task, the online events, through [`log_failure_in`]). The client
/// is told only that storing failed.
pub fn log_failure(e: &StoreError) {
    log_failure_in("almacenamiento / storage", e);
}

/// [`log_failure`] naming what failed to store (`partida ID`, `lobby`,
/// `bus`, `bus: NOTIFY`…): `escaque-server: {what}: {e}`.
pub fn log_failure_in(what: &str, e: &StoreError) {
    eprintln!("escaque-server: {what}: {e}");
}

/// Logs a stored value its reader refused (a tournament's TRF or settings,
/// a seek, an analysis, a puzzle, a spilled bus signal) as
/// [`StoreError::Corrupt`] through [`log_failure_in`]: `whose` names the
/// row (`torneo ID`), `what` the column, `why` the reader's complaint.
pub fn log_unreadable(whose: &str, what: &'static str, why: impl std::fmt::Display) {
    log_failure_in(
        whose,
        &StoreError::Corrupt {
            what,
            value: why.to_string(),
        },
    );
}

/// Milliseconds since the Unix epoch (wall time, for records only; clocks use
/// a monotonic source).
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Which database is behind the pool.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Embedded SQLite (a file).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// The pool and what it talks to.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The group-commit writer.
    writer: Option<mpsc::Sender<(Job, JobReply)>>,
}

impl Store {
    /// Opens `url` (`sqlite:…` or `postgres://…`) and creates the schema.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, true).await
    }

    /// As [`Store::open`]; `full_sync` false sets SQLite's
    /// `synchronous=NORMAL` (a commit survives a killed process but not a
    /// power cut; for measuring only).
    pub async fn open_with(url: &str, full_sync: bool) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(StoreError::BadUrl(url.to_string()));
        };
        let opts = AnyPoolOptions::new();
        let pool = match backend {
            Backend::Sqlite => {
                opts.max_connections(4)
                    .after_connect(move |conn, _| {
                        let sync = if full_sync {
                            "PRAGMA synchronous=FULL"
                        } else {
                            "PRAGMA synchronous=NORMAL"
                        };
                        Box::pin(async move {
                            // WAL with FULL sync: a committed move survives a
                            // killed process and a power cut.
                            sqlx::query("PRAGMA journal_mode=WAL")
                                .execute(&mut *conn)
                                .await?;
                            sqlx::query(sync).execute(&mut *conn).await?;
                            sqlx::query("PRAGMA busy_timeout=10000")
                                .execute(&mut *conn)
                                .await?;
                            Ok(())
                        })
                    })
                    .connect(url)
                    .await?
            }
            Backend::Postgres => opts.max_connections(16).connect(url).await?,
        };
        // Both databases get the group-commit writer: one commit (one sync)
        // for every game write waiting, instead of one each.
        let writer = {
            let (tx, rx) = mpsc::channel(4096);
            tokio::spawn(writer_task(pool.clone(), rx));
            Some(tx)
        };
        let store = Store {
            pool,
            backend,
            writer,
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Opens (creating if needed) `DIR/escaque.sqlite3`.
    pub async fn open_dir(dir: &Path, full_sync: bool) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|err| StoreError::DataDir {
            path: dir.display().to_string(),
            err,
        })?;
        let file = dir.join("escaque.sqlite3");
        Store::open_with(&format!("sqlite://{}?mode=rwc", file.display()), full_sync).await
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The secret the processes of this database share (created by the
    /// first process that asks).
    pub async fn cluster_secret(&self) -> Result<String, StoreError> {
        sqlx::query("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING")
            .bind("cluster_secret")
            .bind(crate::new_secret())
            .execute(&self.pool)
            .await?;
        let (v,): (String,) = sqlx::query_as("SELECT value FROM meta WHERE key = $1")
            .bind("cluster_secret")
            .fetch_one(&self.pool)
            .await?;
        Ok(v)
    }
}
