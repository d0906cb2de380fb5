//! The SQL of several processes on one database (issue 28): the registry of
//! processes (`nodes`) and the games' leases (`games.owner_node`,
//! `lease_until_ms`, `lease_epoch`). See `crate::cluster`.

use std::sync::Arc;

use sqlx::Row;

use super::{now_ms, Backend, Store, StoreError};

/// The right to write a game: the process and the epoch of its lease
/// (every write of a game's task carries it; storage refuses a write whose
/// epoch is no longer the game's: [`StoreError::Fenced`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The owner's name.
    pub node: Arc<str>,
    /// The lease's epoch when it was taken.
    pub epoch: i64,
}

/// A lease taken, with what the clocks need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    /// The right to write the game.
    pub fence: Fence,
    /// The last heartbeat (wall, ms) of the process that held the game
    /// without giving it up (it died, or was paused): the side to move is
    /// charged for its turn up to that moment only. `None`: the lease was
    /// free or given up (the clocks stored are current).
    pub heartbeat_ms: Option<i64>,
    /// When the side to move began its turn as stored (read once the
    /// lease is taken, so that no write of the old owner is missed).
    pub turn_started_ms: Option<i64>,
}

/// The PostgreSQL channel every process listens on (`crate::cluster::bus`;
/// a new seek is signalled on it in the transaction that stores it).
pub const CHANNEL: &str = "escaque";

/// Who holds a game's lease, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseRow {
    /// The owner's name (`None`: never owned, or released).
    pub owner: Option<String>,
    /// Until when (ms since the epoch; 0: released).
    pub until_ms: i64,
    /// The lease's epoch.
    pub epoch: i64,
    /// Where the owner listens (from `nodes`), if it is registered.
    pub addr: Option<String>,
    /// The owner's last heartbeat, if it is registered.
    pub seen_ms: Option<i64>,
    /// The owner's state (`up`, `stopping`, `down`), if it is registered.
    pub state: Option<String>,
    /// When the side to move began its turn, as last stored (wall, ms).
    pub turn_started_ms: Option<i64>,
}

/// The two int4 keys of process `name`'s session lock
/// (`pg_advisory_lock(k1, k2)`): a fixed first key for escaque's processes,
/// and the name's FNV-1a hash. Two names with one hash cannot run on one
/// database at once: the second refuses to start
/// (see `crate::cluster::session`).
pub fn session_lock_key(name: &str) -> (i32, i32) {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.as_bytes() {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    (0x6573_6371, h as i32)
}

impl Store {
    /// Registers this process (or registers it again after a restart): its
    /// address, `up`, seen now.
    pub async fn register_node(&self, name: &str, addr: &str) -> Result<(), StoreError> {
        let now = now_ms();
        sqlx::query(
            "INSERT INTO nodes (name, addr, started_ms, seen_ms, state) VALUES ($1, $2, $3, $4, 'up') \
             ON CONFLICT (name) DO UPDATE SET addr = excluded.addr, \
             started_ms = excluded.started_ms, seen_ms = excluded.seen_ms, state = 'up'",
        )
        .bind(name)
        .bind(addr)
        .bind(now)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Sets this process's state (`up`, `stopping`, `down`).
    pub async fn set_node_state(&self, name: &str, state: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE nodes SET state = $1, seen_ms = $2 WHERE name = $3")
            .bind(state)
            .bind(now_ms())
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The heartbeat: this process is seen now, and every lease it holds
    /// (not released) lasts `lease_ms` more. Returns the games it holds
    /// after the renewal, with their epochs.
    pub async fn renew_leases(
        &self,
        name: &str,
        lease_ms: i64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE nodes SET seen_ms = $1 WHERE name = $2")
            .bind(now)
            .bind(name)
            .execute(&mut *tx)
            .await?;
        // On PostgreSQL the rows are locked first, in the order of their ids,
        // as the group-commit writer locks them: the renewal and a batch of
        // moves never deadlock. (SQLite has one writer at a time.)
        let renew = match self.backend {
            Backend::Postgres => {
                "UPDATE games SET lease_until_ms = $1 WHERE id IN (SELECT id FROM games \
                 WHERE owner_node = $2 AND lease_until_ms > 0 ORDER BY id FOR UPDATE)"
            }
            Backend::Sqlite => {
                "UPDATE games SET lease_until_ms = $1 WHERE owner_node = $2 AND lease_until_ms > 0"
            }
        };
        sqlx::query(renew)
            .bind(now + lease_ms)
            .bind(name)
            .execute(&mut *tx)
            .await?;
        let rows = sqlx::query(
            "SELECT id, lease_epoch FROM games WHERE owner_node = $1 AND lease_until_ms > 0",
        )
        .bind(name)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::Db)
    }

    /// Takes game `game`'s lease for `name` when it is free (never taken,
    /// released or expired) or already `name`'s (a process starting again
    /// under its name takes its games back): the epoch grows by one. The new
    /// epoch, or `None` when another process holds a valid lease or there is
    /// no such game.
    pub async fn take_lease(
        &self,
        game: &str,
        name: &str,
        lease_ms: i64,
    ) -> Result<Option<i64>, StoreError> {
        let now = now_ms();
        let row = sqlx::query(
            "UPDATE games SET owner_node = $1, lease_until_ms = $2, lease_epoch = lease_epoch + 1 \
             WHERE id = $3 AND (owner_node IS NULL OR owner_node = $4 OR lease_until_ms < $5) \
             RETURNING lease_epoch",
        )
        .bind(name)
        .bind(now + lease_ms)
        .bind(game)
        .bind(name)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => Some(r.try_get(0)?),
            None => None,
        })
    }

    /// Takes game `game`'s lease for `name` from process `from`, whose
    /// session is gone (see `crate::cluster::session`), if `from` still
    /// holds it at `epoch`: the epoch grows by one, whatever the lease's
    /// time. The new epoch, or `None` when the lease changed meanwhile (a
    /// process took it, or `from` came back under its name and took it
    /// again).
    pub async fn take_lease_from(
        &self,
        game: &str,
        name: &str,
        lease_ms: i64,
        from: &str,
        epoch: i64,
    ) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "UPDATE games SET owner_node = $1, lease_until_ms = $2, lease_epoch = lease_epoch + 1 \
             WHERE id = $3 AND owner_node = $4 AND lease_epoch = $5 RETURNING lease_epoch",
        )
        .bind(name)
        .bind(now_ms() + lease_ms)
        .bind(game)
        .bind(from)
        .bind(epoch)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => Some(r.try_get(0)?),
            None => None,
        })
    }

    /// Whether process `name`'s database session is alive: whether its
    /// session lock ([`session_lock_key`]) is held now. `None` on SQLite
    /// (one process, no such lock).
    pub async fn node_session_alive(&self, name: &str) -> Result<Option<bool>, StoreError> {
        if self.backend != Backend::Postgres {
            return Ok(None);
        }
        let (k1, k2) = session_lock_key(name);
        // A lock on two int4 keys shows as classid = the first, objid =
        // the second (as an unsigned oid), objsubid = 2.
        let (held,): (bool,) = sqlx::query_as(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted \
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
             AND classid::text::bigint = $1 AND objid::text::bigint = $2 AND objsubid = 2)",
        )
        .bind(i64::from(k1 as u32))
        .bind(i64::from(k2 as u32))
        .fetch_one(&self.pool)
        .await?;
        Ok(Some(held))
    }

    /// Gives game `game`'s lease up (its task ended, or the process hands
    /// its games over), if `name` still holds it at `epoch`: any process
    /// may take it at once.
    pub async fn release_lease(
        &self,
        game: &str,
        name: &str,
        epoch: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE games SET lease_until_ms = 0 \
             WHERE id = $1 AND owner_node = $2 AND lease_epoch = $3",
        )
        .bind(game)
        .bind(name)
        .bind(epoch)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Who holds game `game`'s lease; `None` when there is no such game.
    pub async fn lease(&self, game: &str) -> Result<Option<LeaseRow>, StoreError> {
        let row = sqlx::query(
            "SELECT g.owner_node, g.lease_until_ms, g.lease_epoch, n.addr, n.seen_ms, n.state, \
             g.turn_started_ms FROM games g LEFT JOIN nodes n ON n.name = g.owner_node WHERE g.id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        Ok(Some(LeaseRow {
            owner: r.try_get(0)?,
            until_ms: r.try_get(1)?,
            epoch: r.try_get(2)?,
            addr: r.try_get(3)?,
            seen_ms: r.try_get(4)?,
            state: r.try_get(5)?,
            turn_started_ms: r.try_get(6)?,
        }))
    }

    /// A process's last heartbeat, as stored (`None`: never registered).
    /// Read at start before [`Store::register_node`] overwrites it: the
    /// last moment the previous run under this name owned its games.
    pub async fn node_seen(&self, name: &str) -> Result<Option<i64>, StoreError> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT seen_ms FROM nodes WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.0))
    }

    /// Games in progress whose lease has run out (or was released, or never
    /// taken) at `now`: nobody runs their clocks and engine turns; the
    /// sweeper of any process takes them.
    pub async fn orphan_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM games WHERE status = 'playing' AND lease_until_ms < $1 \
             ORDER BY created_ms",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }
}
