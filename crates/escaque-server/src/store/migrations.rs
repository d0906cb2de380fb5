//! The schema's versioned migrations (`migrations/NNNN_name.sql`, compiled
//! into the binary), applied in order when a database is opened.

use super::{now_ms, Backend, Store, StoreError};

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
        sql: include_str!("../../migrations/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "vocabulary_ids",
        sql: include_str!("../../migrations/0002_vocabulary_ids.sql"),
    },
    Migration {
        version: 3,
        name: "tournaments",
        sql: include_str!("../../migrations/0003_tournaments.sql"),
    },
    Migration {
        version: 4,
        name: "tournament_games",
        sql: include_str!("../../migrations/0004_tournament_games.sql"),
    },
    Migration {
        version: 5,
        name: "rated_play",
        sql: include_str!("../../migrations/0005_rated_play.sql"),
    },
    Migration {
        version: 6,
        name: "classes",
        sql: include_str!("../../migrations/0006_classes.sql"),
    },
    Migration {
        version: 7,
        name: "analysis",
        sql: include_str!("../../migrations/0007_analysis.sql"),
    },
    Migration {
        version: 8,
        name: "cluster",
        sql: include_str!("../../migrations/0008_cluster.sql"),
    },
    Migration {
        version: 9,
        name: "aprender",
        sql: include_str!("../../migrations/0009_aprender.sql"),
    },
    Migration {
        version: 10,
        name: "problemas",
        sql: include_str!("../../migrations/0010_problemas.sql"),
    },
    Migration {
        version: 11,
        name: "tareas",
        sql: include_str!("../../migrations/0011_tareas.sql"),
    },
    Migration {
        version: 12,
        name: "resultados",
        sql: include_str!("../../migrations/0012_resultados.sql"),
    },
    Migration {
        version: 13,
        name: "equipos",
        sql: include_str!("../../migrations/0013_equipos.sql"),
    },
    Migration {
        version: 14,
        name: "juego_tras_tarea",
        sql: include_str!("../../migrations/0014_juego_tras_tarea.sql"),
    },
    Migration {
        version: 15,
        name: "equipos_online",
        sql: include_str!("../../migrations/0015_equipos_online.sql"),
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

impl Store {
    /// Applies the migrations this database lacks, in order, in one
    /// transaction (on PostgreSQL under a lock, so that processes starting
    /// together migrate once).
    pub(super) async fn migrate(&self) -> Result<(), StoreError> {
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
    /// The versions of the migrations applied, in order.
    pub async fn schema_versions(&self) -> Result<Vec<i64>, StoreError> {
        let rows: Vec<(i64,)> =
            sqlx::query_as("SELECT version FROM schema_migrations ORDER BY version")
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
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
}
