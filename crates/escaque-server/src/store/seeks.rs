//! The SQL of the lobby shared by every process (issue 28): the open seeks
//! (`seeks`), the bus's notifications and spilled signals (`bus_spill`),
//! and each process's part of the games in progress (`live_parts`). See
//! `crate::lobby` and `crate::cluster::bus`.
//!
//! A change to the seeks may carry `notify`: the payload of a
//! `NOTIFY escaque` sent inside the change's own transaction (PostgreSQL
//! only), so that it is delivered if and only if the change commits.

use sqlx::AnyConnection;
use sqlx::Row;

use super::{now_ms, Backend, Store, StoreError};

/// An open seek as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRow {
    /// Its id.
    pub id: String,
    /// The poster's identity key.
    pub owner: String,
    /// The process of the poster's connection.
    pub node: String,
    /// The seek as JSON (`crate::lobby::Seek`, private fields included).
    pub seek: String,
    /// When it was posted (ms).
    pub created_ms: i64,
}

/// `NOTIFY channel, payload` on connection `c` (nothing on SQLite).
async fn notify_on(
    c: &mut AnyConnection,
    backend: Backend,
    payload: Option<&str>,
) -> Result<(), StoreError> {
    if let (Backend::Postgres, Some(p)) = (backend, payload) {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(super::cluster::CHANNEL)
            .bind(p)
            .execute(&mut *c)
            .await?;
    }
    Ok(())
}

impl Store {
    /// `NOTIFY channel, payload` (PostgreSQL; nothing on SQLite).
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(channel)
                .bind(payload)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Keeps a signal too big for a notification; its id.
    pub async fn spill_signal(&self, signal: &str) -> Result<String, StoreError> {
        let id = crate::new_id();
        sqlx::query("INSERT INTO bus_spill (id, signal, created_ms) VALUES ($1, $2, $3)")
            .bind(&id)
            .bind(signal)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(id)
    }

    /// A spilled signal, while it is kept.
    pub async fn spilled_signal(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row: Option<(String,)> = sqlx::query_as("SELECT signal FROM bus_spill WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.0))
    }

    /// Forgets the spilled signals kept since before `before_ms`.
    pub async fn sweep_spill(&self, before_ms: i64) -> Result<u64, StoreError> {
        let r = sqlx::query("DELETE FROM bus_spill WHERE created_ms < $1")
            .bind(before_ms)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// Posts a seek: the poster's earlier seek (one per identity) goes.
    pub async fn post_seek(&self, s: &SeekRow, notify: Option<&str>) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM seeks WHERE owner = $1")
            .bind(&s.owner)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO seeks (id, owner, node, seek, created_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&s.id)
        .bind(&s.owner)
        .bind(&s.node)
        .bind(&s.seek)
        .bind(s.created_ms)
        .execute(&mut *tx)
        .await?;
        notify_on(&mut tx, self.backend, notify).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Withdraws `owner`'s seek `id`; false when there is none.
    pub async fn withdraw_seek(
        &self,
        id: &str,
        owner: &str,
        notify: Option<&str>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let r = sqlx::query("DELETE FROM seeks WHERE id = $1 AND owner = $2")
            .bind(id)
            .bind(owner)
            .execute(&mut *tx)
            .await?;
        let gone = r.rows_affected() > 0;
        if gone {
            notify_on(&mut tx, self.backend, notify).await?;
        }
        tx.commit().await?;
        Ok(gone)
    }

    /// Takes seek `id` away to accept it: of any number of processes
    /// taking it at once, one gets it (`DELETE … RETURNING`), the others
    /// `None`.
    pub async fn take_seek(
        &self,
        id: &str,
        notify: Option<&str>,
    ) -> Result<Option<SeekRow>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "DELETE FROM seeks WHERE id = $1 RETURNING id, owner, node, seek, created_ms",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let taken = row.map(|r| seek_from_row(&r)).transpose()?;
        if taken.is_some() {
            notify_on(&mut tx, self.backend, notify).await?;
        }
        tx.commit().await?;
        Ok(taken)
    }

    /// The open seeks, oldest first.
    pub async fn seeks(&self) -> Result<Vec<SeekRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, owner, node, seek, created_ms FROM seeks ORDER BY created_ms, id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(seek_from_row).collect()
    }

    /// Removes the seeks of process `node` (it starts again: its posters'
    /// connections are gone); how many.
    pub async fn remove_node_seeks(
        &self,
        node: &str,
        notify: Option<&str>,
    ) -> Result<u64, StoreError> {
        let mut tx = self.pool.begin().await?;
        let r = sqlx::query("DELETE FROM seeks WHERE node = $1")
            .bind(node)
            .execute(&mut *tx)
            .await?;
        if r.rows_affected() > 0 {
            notify_on(&mut tx, self.backend, notify).await?;
        }
        tx.commit().await?;
        Ok(r.rows_affected())
    }

    /// Removes the seeks of every process other than `me` that is gone: not
    /// registered, stopped, or not seen since `stale_ms`; how many.
    pub async fn remove_dead_seeks(
        &self,
        me: &str,
        stale_ms: i64,
        notify: Option<&str>,
    ) -> Result<u64, StoreError> {
        let mut tx = self.pool.begin().await?;
        let r = sqlx::query(
            "DELETE FROM seeks WHERE node <> $1 AND node NOT IN \
             (SELECT name FROM nodes WHERE state <> 'down' AND seen_ms >= $2)",
        )
        .bind(me)
        .bind(stale_ms)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() > 0 {
            notify_on(&mut tx, self.backend, notify).await?;
        }
        tx.commit().await?;
        Ok(r.rows_affected())
    }

    /// Keeps process `node`'s part of the games in progress (JSON).
    pub async fn put_live_part(&self, node: &str, games: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO live_parts (node, games, at_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (node) DO UPDATE SET games = excluded.games, at_ms = excluded.at_ms",
        )
        .bind(node)
        .bind(games)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The parts of the games in progress of the processes other than
    /// `me` that have not stopped and were seen since `fresh_ms` (JSON
    /// each).
    pub async fn live_parts(&self, me: &str, fresh_ms: i64) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT p.games FROM live_parts p JOIN nodes n ON n.name = p.node \
             WHERE p.node <> $1 AND n.state <> 'down' AND n.seen_ms >= $2 ORDER BY p.node",
        )
        .bind(me)
        .bind(fresh_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }
}

fn seek_from_row(r: &sqlx::any::AnyRow) -> Result<SeekRow, StoreError> {
    Ok(SeekRow {
        id: r.try_get(0)?,
        owner: r.try_get(1)?,
        node: r.try_get(2)?,
        seek: r.try_get(3)?,
        created_ms: r.try_get(4)?,
    })
}
