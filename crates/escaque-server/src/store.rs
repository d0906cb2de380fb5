//! Storage: one schema for SQLite and PostgreSQL through sqlx's `Any` driver.
//! Every statement uses bound parameters (`$1`, `$2`…, which both databases
//! accept).
//!
//! The schema is built by versioned migrations (`migrations/NNNN_name.sql`,
//! plain SQL both databases read, compiled into the binary), applied in order
//! on start, each recorded in `schema_migrations`; a database written by an
//! earlier release is brought up to date, its games, accounts and finished
//! games kept. The stored vocabulary is the library's identifiers
//! ([`RuleSet::id`], [`Termination::id`] with the side it names in its own
//! column); [`GameRow`] holds them typed, and this module is the one place
//! that turns them into columns and back.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use escaque::{Color, GameResult, RuleSet, Termination};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};
use tokio::sync::{mpsc, oneshot};

pub use cluster::Fence;

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
        /// What it holds.
        value: String,
    },
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

/// A game as stored.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// Public id (in links).
    pub id: String,
    /// The rule set (stored as [`RuleSet::id`]).
    pub rules: RuleSet,
    /// FEN of the start position.
    pub start_fen: String,
    /// Time control in escaque's text form, if any.
    pub time_control: Option<String>,
    /// `human` or `engine:N` (N = level 1–10).
    pub white_kind: String,
    /// As `white_kind`.
    pub black_kind: String,
    /// Owner identity (`u:ID` for an account, `g:ID` for a guest).
    pub white_owner: Option<String>,
    /// As `white_owner`.
    pub black_owner: Option<String>,
    /// SHA-256 of the seat secret (hex).
    pub white_secret: Option<String>,
    /// As `white_secret`.
    pub black_secret: Option<String>,
    /// Display name.
    pub white_name: String,
    /// Display name.
    pub black_name: String,
    /// `waiting`, `playing`, `adjourned`, `over`.
    pub status: String,
    /// How the game ended, when over.
    pub end: Option<Ending>,
    /// White's remaining time after the last stored event, ms.
    pub clock_white_ms: Option<i64>,
    /// Black's remaining time after the last stored event, ms.
    pub clock_black_ms: Option<i64>,
    /// Creation time (wall, ms).
    pub created_ms: i64,
    /// A Chess960 game (column `variant`: `chess960`; `standard` otherwise).
    pub chess960: bool,
    /// A rated game.
    pub rated: bool,
    /// The rating pool a rated game counts in: a time class id (`bullet`,
    /// `blitz`, `rapid`, `classical`) or `chess960`; `None` when casual.
    pub perf: Option<String>,
    /// White's and Black's ratings when the game began (rounded), rated
    /// games only.
    pub ratings: [Option<i64>; 2],
    /// What the game changed White's and Black's ratings by, once applied.
    pub rating_diffs: [Option<i64>; 2],
    /// The game's result has changed its players' ratings.
    pub rating_applied: bool,
    /// The sealed move of an adjourned game (status `adjourned`).
    pub sealed: Option<Sealed>,
    /// The class the game was started in (by a teacher, a simul or a class
    /// tournament); `None` for any other game.
    pub class_id: Option<String>,
}

/// A sealed move as stored: who sealed and the text as written (hidden
/// from everybody until the envelope is opened).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sealed {
    /// Who sealed.
    pub by: Color,
    /// The text as the player wrote it.
    pub text: String,
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// Half-move index from 0.
    pub ply: i64,
    /// The move in UCI.
    pub uci: String,
    /// The mover's remaining time after the move, ms.
    pub clock_ms: Option<i64>,
}

/// An account.
#[derive(Clone, Debug)]
pub struct UserRow {
    /// Id.
    pub id: String,
    /// Name as typed at sign-up.
    pub name: String,
    /// Argon2id PHC string.
    pub pass_hash: String,
}

/// How a game ended, as stored: the score (none for an aborted game) and the
/// library's ending.
///
/// Columns: `result` (the PGN result, `*` without one), `termination`
/// ([`Termination::id`]) and `termination_side` (`white`/`black`, the player
/// a sided ending names: [`Termination::side`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The score; `None` for an aborted game.
    pub result: Option<GameResult>,
    /// Why the game ended.
    pub termination: Termination,
}

impl Ending {
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, or `*` without one.
    pub fn result_pgn(&self) -> &'static str {
        self.result.map_or("*", GameResult::pgn)
    }

    /// The stored side of the ending (`white`, `black`), if it names one.
    pub fn side_id(&self) -> Option<&'static str> {
        self.termination.side().map(color_id)
    }

    /// Reads the three columns back.
    fn from_columns(
        result: &str,
        termination: &str,
        side: Option<&str>,
    ) -> Result<Ending, StoreError> {
        let side = match side {
            None => None,
            Some(s) => Some(color_from_id(s).ok_or_else(|| StoreError::Corrupt {
                what: "games.termination_side",
                value: s.into(),
            })?),
        };
        let termination =
            Termination::from_id(termination, side).ok_or_else(|| StoreError::Corrupt {
                what: "games.termination",
                value: termination.into(),
            })?;
        let result = match result {
            "*" => None,
            r => Some(GameResult::from_pgn(r).ok_or_else(|| StoreError::Corrupt {
                what: "games.result",
                value: r.into(),
            })?),
        };
        Ok(Ending {
            result,
            termination,
        })
    }
}

/// A colour as stored and sent: `white`, `black`.
pub fn color_id(c: Color) -> &'static str {
    c.fold("white", "black")
}

/// A colour from `white` / `black`.
pub fn color_from_id(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// One versioned change of the schema (and of the data it holds).
struct Migration {
    version: i64,
    name: &'static str,
    sql: &'static str,
}

/// Every migration, in order. A new one is a new file and a new line here;
/// an applied one is never edited.
const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "initial",
        sql: include_str!("../migrations/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "vocabulary_ids",
        sql: include_str!("../migrations/0002_vocabulary_ids.sql"),
    },
    Migration {
        version: 3,
        name: "tournaments",
        sql: include_str!("../migrations/0003_tournaments.sql"),
    },
    Migration {
        version: 4,
        name: "tournament_games",
        sql: include_str!("../migrations/0004_tournament_games.sql"),
    },
    Migration {
        version: 5,
        name: "rated_play",
        sql: include_str!("../migrations/0005_rated_play.sql"),
    },
    Migration {
        version: 6,
        name: "classes",
        sql: include_str!("../migrations/0006_classes.sql"),
    },
    Migration {
        version: 7,
        name: "analysis",
        sql: include_str!("../migrations/0007_analysis.sql"),
    },
    Migration {
        version: 8,
        name: "cluster",
        sql: include_str!("../migrations/0008_cluster.sql"),
    },
    Migration {
        version: 9,
        name: "aprender",
        sql: include_str!("../migrations/0009_aprender.sql"),
    },
    Migration {
        version: 10,
        name: "problemas",
        sql: include_str!("../migrations/0010_problemas.sql"),
    },
    Migration {
        version: 11,
        name: "tareas",
        sql: include_str!("../migrations/0011_tareas.sql"),
    },
    Migration {
        version: 12,
        name: "resultados",
        sql: include_str!("../migrations/0012_resultados.sql"),
    },
    Migration {
        version: 13,
        name: "equipos",
        sql: include_str!("../migrations/0013_equipos.sql"),
    },
    Migration {
        version: 14,
        name: "juego_tras_tarea",
        sql: include_str!("../migrations/0014_juego_tras_tarea.sql"),
    },
    Migration {
        version: 15,
        name: "equipos_online",
        sql: include_str!("../migrations/0015_equipos_online.sql"),
    },
];

/// The versions of every migration this release knows, in order (what a
/// database it opened reports as applied).
pub fn migration_versions() -> Vec<i64> {
    MIGRATIONS.iter().map(|m| m.version).collect()
}

/// The statements of a migration file: split at a `;` that ends a line,
/// comment lines dropped.
fn statements(sql: &str) -> Vec<String> {
    let text: String = sql
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .map(|l| format!("{l}\n"))
        .collect();
    text.split(";\n")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

const GAME_COLUMNS: &str = "id, rules, start_fen, time_control, white_kind, black_kind, \
    white_owner, black_owner, white_secret, black_secret, white_name, black_name, status, \
    result, termination, termination_side, clock_white_ms, clock_black_ms, created_ms, \
    variant, rated, perf, white_rating, black_rating, white_rating_diff, black_rating_diff, \
    rating_applied, sealed_by, sealed_move, class_id";

fn game_from_row(r: &AnyRow) -> Result<GameRow, StoreError> {
    let rules: String = r.try_get(1)?;
    let result: Option<String> = r.try_get(13)?;
    let termination: Option<String> = r.try_get(14)?;
    let side: Option<String> = r.try_get(15)?;
    let end = match (result, termination) {
        (Some(res), Some(t)) => Some(Ending::from_columns(&res, &t, side.as_deref())?),
        _ => None,
    };
    Ok(GameRow {
        id: r.try_get(0)?,
        rules: RuleSet::from_id(&rules).ok_or(StoreError::Corrupt {
            what: "games.rules",
            value: rules,
        })?,
        start_fen: r.try_get(2)?,
        time_control: r.try_get(3)?,
        white_kind: r.try_get(4)?,
        black_kind: r.try_get(5)?,
        white_owner: r.try_get(6)?,
        black_owner: r.try_get(7)?,
        white_secret: r.try_get(8)?,
        black_secret: r.try_get(9)?,
        white_name: r.try_get(10)?,
        black_name: r.try_get(11)?,
        status: r.try_get(12)?,
        end,
        clock_white_ms: r.try_get(16)?,
        clock_black_ms: r.try_get(17)?,
        created_ms: r.try_get(18)?,
        chess960: match r.try_get::<String, _>(19)?.as_str() {
            "standard" => false,
            "chess960" => true,
            other => {
                return Err(StoreError::Corrupt {
                    what: "games.variant",
                    value: other.to_string(),
                })
            }
        },
        rated: r.try_get::<i64, _>(20)? != 0,
        perf: r.try_get(21)?,
        ratings: [r.try_get(22)?, r.try_get(23)?],
        rating_diffs: [r.try_get(24)?, r.try_get(25)?],
        rating_applied: r.try_get::<i64, _>(26)? != 0,
        sealed: match (
            r.try_get::<Option<String>, _>(27)?,
            r.try_get::<Option<String>, _>(28)?,
        ) {
            (Some(by), Some(text)) => Some(Sealed {
                by: match by.as_str() {
                    "white" => Color::White,
                    "black" => Color::Black,
                    _ => {
                        return Err(StoreError::Corrupt {
                            what: "games.sealed_by",
                            value: by,
                        })
                    }
                },
                text,
            }),
            _ => None,
        },
        class_id: r.try_get(29)?,
    })
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

    /// Applies the migrations this database lacks, in order, in one
    /// transaction (on PostgreSQL under a lock, so that processes starting
    /// together migrate once).
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_advisory_xact_lock(7312001)")
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                applied_ms BIGINT NOT NULL)",
        )
        .execute(&mut *tx)
        .await?;
        let applied: Vec<(i64,)> = sqlx::query_as("SELECT version FROM schema_migrations")
            .fetch_all(&mut *tx)
            .await?;
        let known = MIGRATIONS.last().map_or(0, |m| m.version);
        if let Some(found) = applied.iter().map(|v| v.0).max().filter(|v| *v > known) {
            return Err(StoreError::TooNew { found, known });
        }
        for m in MIGRATIONS {
            if applied.iter().any(|v| v.0 == m.version) {
                continue;
            }
            for stmt in statements(m.sql) {
                sqlx::query(&stmt).execute(&mut *tx).await?;
            }
            sqlx::query(
                "INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)",
            )
            .bind(m.version)
            .bind(m.name)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        }
        // `meta.schema_version`, as the first release kept it.
        sqlx::query("DELETE FROM meta WHERE key = $1")
            .bind("schema_version")
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO meta (key, value) VALUES ($1, $2)")
            .bind("schema_version")
            .bind(known.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
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

    /// The versions of the migrations applied, in order.
    pub async fn schema_versions(&self) -> Result<Vec<i64>, StoreError> {
        let rows: Vec<(i64,)> =
            sqlx::query_as("SELECT version FROM schema_migrations ORDER BY version")
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// Stores a new game.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        insert_game_in(&self.pool, g).await
    }

    /// A game by id.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(game_from_row).transpose()
    }

    /// The moves of a game, in order.
    pub async fn moves(&self, id: &str) -> Result<Vec<MoveRow>, StoreError> {
        let rows =
            sqlx::query("SELECT ply, uci, clock_ms FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveRow {
                    ply: r.try_get(0)?,
                    uci: r.try_get(1)?,
                    clock_ms: r.try_get(2)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::Db)
    }

    /// Stores one move and the clocks after it, in one transaction. When this
    /// returns `Ok`, the move is durable. With a `fence` (every write of a
    /// game's task) the write is refused with [`StoreError::Fenced`] unless
    /// the fence's process still holds the game's lease at its epoch.
    pub async fn append_move(
        &self,
        fence: Option<&Fence>,
        game: &str,
        mv: &MoveRow,
        clocks: Option<[i64; 2]>,
        end: Option<Ending>,
    ) -> Result<(), StoreError> {
        self.write(Job::new(game, fence, Some(mv.clone()), None, clocks, end))
            .await
    }

    /// Updates clocks and/or the ending without a move (a claim, a flag, a
    /// resignation…); fenced as [`Store::append_move`].
    pub async fn update_game(
        &self,
        fence: Option<&Fence>,
        game: &str,
        clocks: Option<[i64; 2]>,
        end: Option<Ending>,
    ) -> Result<(), StoreError> {
        self.write(Job::new(game, fence, None, None, clocks, end))
            .await
    }

    /// Removes the moves from `from_ply` on (an accepted takeback) and sets
    /// the clocks; fenced as [`Store::append_move`].
    pub async fn take_back(
        &self,
        fence: Option<&Fence>,
        game: &str,
        from_ply: i64,
        clocks: Option<[i64; 2]>,
    ) -> Result<(), StoreError> {
        self.write(Job::new(game, fence, None, Some(from_ply), clocks, None))
            .await
    }

    /// Runs a game write through the group-commit writer (many games' writes
    /// share one transaction and one sync); it returns after the commit.
    async fn write(&self, job: Job) -> Result<(), StoreError> {
        match &self.writer {
            Some(w) => {
                let (tx, rx) = oneshot::channel();
                w.send((job, tx))
                    .await
                    .map_err(|_| StoreError::Writer("writer stopped".into()))?;
                match rx.await {
                    Ok(Ok(())) => Ok(()),
                    Ok(Err(JobError::Fenced)) => Err(StoreError::Fenced),
                    Ok(Err(JobError::Failed(e))) => Err(StoreError::Writer(e)),
                    Err(_) => Err(StoreError::Writer("writer stopped".into())),
                }
            }
            None => {
                let mut tx = self.pool.begin().await?;
                job.run(&mut tx).await?;
                tx.commit().await?;
                Ok(())
            }
        }
    }

    /// Stores a new game (a rematch) only if `fence` still holds game
    /// `old`'s lease, in one transaction: a process that lost the old game
    /// creates no rematch.
    pub async fn insert_game_fenced(
        &self,
        g: &GameRow,
        old: &str,
        fence: &Fence,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        check_fence(&mut tx, old, fence, None).await?;
        insert_game_in(&mut *tx, g).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Seats the second player of a waiting game; false if the seat was taken
    /// meanwhile (by another process or request).
    pub async fn take_seat(
        &self,
        game: &str,
        white: bool,
        owner: &str,
        secret_hash: &str,
        name: &str,
    ) -> Result<bool, StoreError> {
        let (o, s, n) = if white {
            ("white_owner", "white_secret", "white_name")
        } else {
            ("black_owner", "black_secret", "black_name")
        };
        let done = sqlx::query(&format!(
            "UPDATE games SET {o} = $1, {s} = $2, {n} = $3, status = 'playing', updated_ms = $4 \
             WHERE id = $5 AND status = 'waiting' AND {s} IS NULL"
        ))
        .bind(owner)
        .bind(secret_hash)
        .bind(name)
        .bind(now_ms())
        .bind(game)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Replaces the secret of a seat (a player who lost it).
    pub async fn set_secret(
        &self,
        game: &str,
        white: bool,
        secret_hash: &str,
    ) -> Result<(), StoreError> {
        let col = if white {
            "white_secret"
        } else {
            "black_secret"
        };
        sqlx::query(&format!("UPDATE games SET {col} = $1 WHERE id = $2"))
            .bind(secret_hash)
            .bind(game)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Games with status `playing` or `adjourned` (to restart their actors
    /// after a restart).
    pub async fn unfinished_games(&self) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM games WHERE status IN ('playing', 'adjourned') ORDER BY created_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// The games of an owner identity, newest first.
    pub async fn games_of(&self, owner: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE white_owner = $1 OR black_owner = $2 \
             ORDER BY created_ms DESC LIMIT $3"
        ))
        .bind(owner)
        .bind(owner)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_from_row).collect()
    }

    /// An account by name (case-insensitive: the key accounts made before
    /// the names rule were stored under).
    pub async fn user_by_name(&self, name: &str) -> Result<Option<UserRow>, StoreError> {
        self.user_by_name_key(&name.to_lowercase()).await
    }

    /// Stores a login session (the hash of its token).
    pub async fn insert_session(&self, token_hash: &str, user: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO sessions (token_hash, user_id, created_ms) VALUES ($1,$2,$3)")
            .bind(token_hash)
            .bind(user)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The account behind a session token hash: (id, name, managed).
    pub async fn session_user(
        &self,
        token_hash: &str,
    ) -> Result<Option<(String, String, bool)>, StoreError> {
        let row: Option<(String, String, i64)> = sqlx::query_as(
            "SELECT users.id, users.name, users.managed FROM sessions \
             JOIN users ON users.id = sessions.user_id WHERE sessions.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(id, name, managed)| (id, name, managed != 0)))
    }

    /// Ends a session.
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// One game's write, as one unit.
#[derive(Debug)]
struct Job {
    game: String,
    /// The lease the write is made under (a game's task); `None`: a write
    /// outside any task (tests, tools), not fenced.
    fence: Option<Fence>,
    insert: Option<MoveRow>,
    delete_from: Option<i64>,
    clocks: Option<[i64; 2]>,
    end: Option<Ending>,
    /// When the job was made (wall, ms): the clocks stored are those of
    /// this instant, and the side to move's turn counts from it
    /// (`games.turn_started_ms`).
    at_ms: i64,
}

impl Job {
    fn new(
        game: &str,
        fence: Option<&Fence>,
        insert: Option<MoveRow>,
        delete_from: Option<i64>,
        clocks: Option<[i64; 2]>,
        end: Option<Ending>,
    ) -> Job {
        Job {
            game: game.to_string(),
            fence: fence.cloned(),
            insert,
            delete_from,
            clocks,
            end,
            at_ms: now_ms(),
        }
    }
}

/// Why a job failed, as the writer answers it.
#[derive(Clone, Debug)]
enum JobError {
    /// [`StoreError::Fenced`].
    Fenced,
    /// Anything else, with the database's text.
    Failed(String),
}

type JobReply = oneshot::Sender<Result<(), JobError>>;

/// The fencing check of a game write: touches game `game`'s row (setting
/// `updated_ms`, and `turn_started_ms` when given) only while `fence`'s
/// process holds its lease at the fence's epoch; otherwise
/// [`StoreError::Fenced`]. On PostgreSQL the row stays locked until the
/// transaction ends, so a process taking the game over waits for this
/// write, then loads it.
async fn check_fence(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &str,
    fence: &Fence,
    turn_started_ms: Option<i64>,
) -> Result<(), StoreError> {
    let done = sqlx::query(
        "UPDATE games SET updated_ms = $1, turn_started_ms = COALESCE($2, turn_started_ms) \
         WHERE id = $3 AND owner_node = $4 AND lease_epoch = $5",
    )
    .bind(now_ms())
    .bind(turn_started_ms)
    .bind(game)
    .bind(&*fence.node)
    .bind(fence.epoch)
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() == 1 {
        Ok(())
    } else {
        Err(StoreError::Fenced)
    }
}

impl Job {
    async fn run(&self, tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(), StoreError> {
        let turn_started = self.clocks.map(|_| self.at_ms);
        match &self.fence {
            Some(f) => check_fence(tx, &self.game, f, turn_started).await?,
            None => {
                if let Some(t) = turn_started {
                    sqlx::query("UPDATE games SET turn_started_ms = $1 WHERE id = $2")
                        .bind(t)
                        .bind(&self.game)
                        .execute(&mut **tx)
                        .await?;
                }
            }
        }
        if let Some(from) = self.delete_from {
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(&self.game)
                .bind(from)
                .execute(&mut **tx)
                .await?;
        }
        if let Some(mv) = &self.insert {
            sqlx::query(
                "INSERT INTO moves (game_id, ply, uci, clock_ms, at_ms) VALUES ($1,$2,$3,$4,$5)",
            )
            .bind(&self.game)
            .bind(mv.ply)
            .bind(&mv.uci)
            .bind(mv.clock_ms)
            .bind(now_ms())
            .execute(&mut **tx)
            .await?;
        }
        update_game(tx, &self.game, self.clocks, self.end).await
    }
}

/// The group-commit writer: takes every job waiting, runs each in a
/// savepoint (one job's failure does not undo the others), commits once,
/// then answers them all.
async fn writer_task(pool: AnyPool, mut rx: mpsc::Receiver<(Job, JobReply)>) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        // The games' rows are locked in the order of their ids, as the lease
        // renewal locks them (`Store::renew_leases`): two transactions of
        // this process never wait for each other in a circle (a deadlock
        // PostgreSQL would break by failing one of them). The sort is stable:
        // one game's writes keep their order.
        batch.sort_by(|a, b| a.0.game.cmp(&b.0.game));
        let mut results: Vec<Result<(), JobError>> = Vec::with_capacity(batch.len());
        let outcome: Result<(), sqlx::Error> = async {
            let mut tx = pool.begin().await?;
            for (job, _) in &batch {
                sqlx::query("SAVEPOINT job").execute(&mut *tx).await?;
                match job.run(&mut tx).await {
                    Ok(()) => {
                        sqlx::query("RELEASE SAVEPOINT job")
                            .execute(&mut *tx)
                            .await?;
                        results.push(Ok(()));
                    }
                    Err(e) => {
                        sqlx::query("ROLLBACK TO SAVEPOINT job")
                            .execute(&mut *tx)
                            .await?;
                        sqlx::query("RELEASE SAVEPOINT job")
                            .execute(&mut *tx)
                            .await?;
                        results.push(Err(match e {
                            StoreError::Fenced => JobError::Fenced,
                            e => JobError::Failed(e.to_string()),
                        }));
                    }
                }
            }
            tx.commit().await
        }
        .await;
        for (i, (_, reply)) in batch.into_iter().enumerate() {
            let r = match &outcome {
                Ok(()) => results
                    .get(i)
                    .cloned()
                    .unwrap_or(Err(JobError::Failed("not run".into()))),
                Err(e) => Err(JobError::Failed(e.to_string())),
            };
            let _ = reply.send(r);
        }
    }
}

async fn update_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &str,
    clocks: Option<[i64; 2]>,
    end: Option<Ending>,
) -> Result<(), StoreError> {
    let now = now_ms();
    if let Some([w, b]) = clocks {
        sqlx::query("UPDATE games SET clock_white_ms = $1, clock_black_ms = $2, updated_ms = $3 WHERE id = $4")
            .bind(w)
            .bind(b)
            .bind(now)
            .bind(game)
            .execute(&mut **tx)
            .await?;
    }
    if let Some(end) = end {
        sqlx::query(
            "UPDATE games SET status = 'over', result = $1, termination = $2, \
             termination_side = $3, updated_ms = $4 WHERE id = $5",
        )
        .bind(end.result_pgn())
        .bind(end.termination.id())
        .bind(end.side_id())
        .bind(now)
        .bind(game)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

// Accounts keyed by a name's skeleton (crate::http's names rule): the key
// comes from the caller, so the rule lives in one place.
impl Store {
    /// Creates an account whose unique key is `name_key`; false if taken.
    pub async fn create_user_keyed(&self, u: &UserRow, name_key: &str) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "INSERT INTO users (id, name, name_key, pass_hash, created_ms) VALUES ($1,$2,$3,$4,$5)",
        )
        .bind(&u.id)
        .bind(&u.name)
        .bind(name_key)
        .bind(&u.pass_hash)
        .bind(now_ms())
        .execute(&self.pool)
        .await;
        match r {
            Ok(_) => Ok(true),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// An account by its unique key.
    pub async fn user_by_name_key(&self, name_key: &str) -> Result<Option<UserRow>, StoreError> {
        let row: Option<(String, String, String)> =
            sqlx::query_as("SELECT id, name, pass_hash FROM users WHERE name_key = $1")
                .bind(name_key)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(id, name, pass_hash)| UserRow {
            id,
            name,
            pass_hash,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_numbered_in_order_and_split_into_statements() {
        // In order; a number taken by a feature still being built may be
        // missing for a while (issue 59 results is 12 while 9–11 are not in).
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert!(
                i == 0 && m.version == 1 || i > 0 && m.version > MIGRATIONS[i - 1].version,
                "{}",
                m.name
            );
            let stmts = statements(m.sql);
            assert!(!stmts.is_empty(), "{}", m.name);
            for s in &stmts {
                assert!(!s.ends_with(';') && !s.contains(";\n"), "{s}");
                assert!(!s.trim_start().starts_with("--"), "{s}");
            }
        }
        assert_eq!(statements(MIGRATIONS[0].sql).len(), 8);
    }

    #[test]
    fn every_ending_reads_back_from_its_columns() {
        for t in Termination::ALL {
            for side in [Color::White, Color::Black] {
                let termination = Termination::from_id(t.id(), Some(side)).unwrap();
                for result in [
                    None,
                    Some(GameResult::WhiteWins),
                    Some(GameResult::BlackWins),
                    Some(GameResult::Draw),
                ] {
                    let e = Ending {
                        result,
                        termination,
                    };
                    let back =
                        Ending::from_columns(e.result_pgn(), e.termination.id(), e.side_id())
                            .unwrap();
                    assert_eq!(back, e);
                }
            }
        }
        // The first release's glued names are not read (migration 2
        // rewrites them).
        assert!(Ending::from_columns("0-1", "time:white", None).is_err());
        assert!(Ending::from_columns("0-1", "time_forfeit", None).is_err());
        assert!(Ending::from_columns("0-1", "time_forfeit", Some("blanco")).is_err());
        assert!(Ending::from_columns("2-0", "checkmate", None).is_err());
    }
}

// ------------------------------------------------------------ tournaments

/// A tournament as stored: its TRF text and the server's settings.
#[derive(Clone, Debug)]
pub struct TournamentRow {
    /// Public id (in links).
    pub id: String,
    /// Name (also in the TRF; kept here for the list).
    pub name: String,
    /// Identity key of the creator.
    pub owner: String,
    /// `otb` or `online`.
    pub mode: String,
    /// `registration`, `running` or `finished`.
    pub status: String,
    /// The tournament as TRF-2026 text.
    pub trf: String,
    /// The server's settings as JSON (`tournament::Settings`).
    pub settings: String,
    /// Bumped by every change (the optimistic guard).
    pub version: i64,
    /// Creation time (wall, ms).
    pub created_ms: i64,
    /// Last change (wall, ms).
    pub updated_ms: i64,
    /// The class the tournament belongs to (only its members may enter);
    /// `None` for any other tournament.
    pub class_id: Option<String>,
}

/// The server's side of one TRF start number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerLink {
    /// TRF start number (1-based).
    pub number: u32,
    /// Identity key of an online player (none: entered by the organiser).
    pub owner: Option<String>,
    /// Answered the roll call.
    pub present: bool,
}

/// A game created with a tournament round, stored in the same transaction.
#[derive(Clone, Debug)]
pub struct RoundGame {
    /// Round number.
    pub round: u32,
    /// Board number.
    pub board: u32,
    /// The game.
    pub row: GameRow,
}

const TOURNAMENT_COLUMNS: &str =
    "id, name, owner, mode, status, trf, settings, version, created_ms, updated_ms, class_id";

fn tournament_from_row(r: &AnyRow) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        owner: r.try_get(2)?,
        mode: r.try_get(3)?,
        status: r.try_get(4)?,
        trf: r.try_get(5)?,
        settings: r.try_get(6)?,
        version: r.try_get(7)?,
        created_ms: r.try_get(8)?,
        updated_ms: r.try_get(9)?,
        class_id: r.try_get(10)?,
    })
}

impl Store {
    /// Stores a new tournament (its players, if any, and no co-organisers).
    pub async fn insert_tournament(
        &self,
        t: &TournamentRow,
        players: &[PlayerLink],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(&format!(
            "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)"
        ))
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.owner)
        .bind(&t.mode)
        .bind(&t.status)
        .bind(&t.trf)
        .bind(&t.settings)
        .bind(t.version)
        .bind(t.created_ms)
        .bind(t.updated_ms)
        .bind(&t.class_id)
        .execute(&mut *tx)
        .await?;
        write_players(&mut tx, &t.id, players).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A tournament by id.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(tournament_from_row).transpose()
    }

    /// Every tournament, newest first (at most `limit`).
    pub async fn tournaments(&self, limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments ORDER BY created_ms DESC LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_from_row).collect()
    }

    /// The player links of a tournament, by number.
    pub async fn tournament_players(&self, id: &str) -> Result<Vec<PlayerLink>, StoreError> {
        let rows: Vec<(i64, Option<String>, i64)> = sqlx::query_as(
            "SELECT number, owner, present FROM tournament_players WHERE tournament = $1 \
             ORDER BY number",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(number, owner, present)| {
                Ok(PlayerLink {
                    number: u32::try_from(number).map_err(|_| StoreError::Corrupt {
                        what: "tournament_players.number",
                        value: number.to_string(),
                    })?,
                    owner,
                    present: present != 0,
                })
            })
            .collect()
    }

    /// The co-organisers of a tournament (identity keys).
    pub async fn tournament_organisers(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT identity FROM tournament_organisers WHERE tournament = $1 ORDER BY identity",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// Stores a changed tournament if nobody changed it since `old_version`
    /// was read: the row (its `version` is the new one), its player links
    /// and co-organisers (replaced when given: `None` leaves them as they
    /// are, the common case of a result typed), and the games of a round just paired
    /// (inserted, with their `tournament_games` rows), all in one
    /// transaction. False: somebody else changed it first; nothing stored.
    pub async fn save_tournament(
        &self,
        t: &TournamentRow,
        old_version: i64,
        players: Option<&[PlayerLink]>,
        organisers: Option<&[String]>,
        games: &[RoundGame],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE tournaments SET name = $1, status = $2, trf = $3, settings = $4, \
             version = $5, updated_ms = $6 WHERE id = $7 AND version = $8",
        )
        .bind(&t.name)
        .bind(&t.status)
        .bind(&t.trf)
        .bind(&t.settings)
        .bind(t.version)
        .bind(t.updated_ms)
        .bind(&t.id)
        .bind(old_version)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        if let Some(players) = players {
            sqlx::query("DELETE FROM tournament_players WHERE tournament = $1")
                .bind(&t.id)
                .execute(&mut *tx)
                .await?;
            write_players(&mut tx, &t.id, players).await?;
        }
        if let Some(organisers) = organisers {
            sqlx::query("DELETE FROM tournament_organisers WHERE tournament = $1")
                .bind(&t.id)
                .execute(&mut *tx)
                .await?;
            for o in organisers {
                sqlx::query(
                    "INSERT INTO tournament_organisers (tournament, identity) VALUES ($1, $2)",
                )
                .bind(&t.id)
                .bind(o)
                .execute(&mut *tx)
                .await?;
            }
        }
        for g in games {
            insert_game_in(&mut *tx, &g.row).await?;
            sqlx::query(
                "INSERT INTO tournament_games (tournament, round, board, game) VALUES ($1,$2,$3,$4)",
            )
            .bind(&t.id)
            .bind(i64::from(g.round))
            .bind(i64::from(g.board))
            .bind(&g.row.id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}

async fn write_players(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    tournament: &str,
    players: &[PlayerLink],
) -> Result<(), StoreError> {
    for p in players {
        sqlx::query(
            "INSERT INTO tournament_players (tournament, number, owner, present) \
             VALUES ($1,$2,$3,$4)",
        )
        .bind(tournament)
        .bind(i64::from(p.number))
        .bind(&p.owner)
        .bind(i64::from(p.present))
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Inserts a game row inside a transaction.
async fn insert_game_in<'e, E>(ex: E, g: &GameRow) -> Result<(), StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let now = now_ms();
    sqlx::query(&format!(
        "INSERT INTO games ({GAME_COLUMNS}, updated_ms) VALUES \
             ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,\
              $20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31)"
    ))
    .bind(&g.id)
    .bind(g.rules.id())
    .bind(&g.start_fen)
    .bind(&g.time_control)
    .bind(&g.white_kind)
    .bind(&g.black_kind)
    .bind(&g.white_owner)
    .bind(&g.black_owner)
    .bind(&g.white_secret)
    .bind(&g.black_secret)
    .bind(&g.white_name)
    .bind(&g.black_name)
    .bind(&g.status)
    .bind(g.end.map(|e| e.result_pgn()))
    .bind(g.end.map(|e| e.termination.id()))
    .bind(g.end.and_then(|e| e.side_id()))
    .bind(g.clock_white_ms)
    .bind(g.clock_black_ms)
    .bind(g.created_ms)
    .bind(if g.chess960 { "chess960" } else { "standard" })
    .bind(i64::from(g.rated))
    .bind(&g.perf)
    .bind(g.ratings[0])
    .bind(g.ratings[1])
    .bind(g.rating_diffs[0])
    .bind(g.rating_diffs[1])
    .bind(i64::from(g.rating_applied))
    .bind(g.sealed.as_ref().map(|s| s.by.fold("white", "black")))
    .bind(g.sealed.as_ref().map(|s| s.text.clone()))
    .bind(&g.class_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}
