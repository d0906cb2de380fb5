//! The analyses (issue 27): table `analyses` (migration 0007), which is also
//! the queue the analysis workers claim from (see `crate::analysis`).
//!
//! A row is `queued`, `running`, `done` or `failed`. Claiming turns the
//! oldest queued row `running` in one statement that only succeeds while
//! the row is still queued, so that several processes on one PostgreSQL
//! database never claim the same row twice.
//!
//! Several processes (issue 28): a claim records the process (`node`, its
//! `--nodo` name). Only that process writes the row's progress, finishes it
//! or gives it back; once the row was queued again because the process was
//! taken for gone ([`Store::requeue_orphan_analyses`]: no heartbeat in
//! `nodes.seen_ms` for two leases), what it still writes is refused.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{now_ms, Store, StoreError};

/// One analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRow {
    /// Public id (in links).
    pub id: String,
    /// The server's game analysed, if it is one (at most one row per game).
    pub game_id: Option<String>,
    /// Who asked (`u:ID` or `g:ID`).
    pub owner: String,
    /// The request the row came from (an upload of several games is one).
    pub batch: String,
    /// Order within the request.
    pub seq: i64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The PGN result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
    /// FEN of the start position.
    pub start_fen: String,
    /// A Chess960 game (castling read as the king taking its rook).
    pub chess960: bool,
    /// The moves in UCI.
    pub moves: Vec<String>,
    /// `queued`, `running`, `done`, `failed`.
    pub status: String,
    /// The evaluator's name, once done.
    pub engine: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// The result (JSON of `escaque_analysis::GameAnalysis`), once done.
    pub analysis: Option<String>,
    /// When it was asked for (wall, ms).
    pub created_ms: i64,
    /// When it last changed (wall, ms).
    pub updated_ms: i64,
    /// The process running it (while `running`).
    pub node: Option<String>,
    /// How far it has come, as last stored by the process running it
    /// (positions analysed, of `moves.len() + 1`).
    pub progress: i64,
}

impl AnalysisRow {
    /// Not finished: queued or running.
    pub fn unfinished(&self) -> bool {
        matches!(self.status.as_str(), "queued" | "running")
    }
}

const COLUMNS: &str = "id, game_id, owner, batch, seq, white, black, result, start_fen, \
    chess960, moves, status, engine, error, analysis, created_ms, updated_ms, node, progress";

fn from_row(r: &AnyRow) -> Result<AnalysisRow, StoreError> {
    let moves: String = r.try_get(10)?;
    Ok(AnalysisRow {
        id: r.try_get(0)?,
        game_id: r.try_get(1)?,
        owner: r.try_get(2)?,
        batch: r.try_get(3)?,
        seq: r.try_get(4)?,
        white: r.try_get(5)?,
        black: r.try_get(6)?,
        result: r.try_get(7)?,
        start_fen: r.try_get(8)?,
        chess960: r.try_get::<i64, _>(9)? != 0,
        moves: moves.split_whitespace().map(str::to_string).collect(),
        status: r.try_get(11)?,
        engine: r.try_get(12)?,
        error: r.try_get(13)?,
        analysis: r.try_get(14)?,
        created_ms: r.try_get(15)?,
        updated_ms: r.try_get(16)?,
        node: r.try_get(17)?,
        progress: r.try_get(18)?,
    })
}

impl Store {
    /// Stores new analyses (queued) in one transaction. A row for a game
    /// that already has one is not stored: the one stored is returned in
    /// its place. Returns the rows as stored, in order.
    pub async fn insert_analyses(
        &self,
        rows: &[AnalysisRow],
    ) -> Result<Vec<AnalysisRow>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let mut out = Vec::with_capacity(rows.len());
        for a in rows {
            let inserted = sqlx::query(&format!(
                "INSERT INTO analyses ({COLUMNS}) \
                 VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19) \
                 ON CONFLICT DO NOTHING"
            ))
            .bind(&a.id)
            .bind(&a.game_id)
            .bind(&a.owner)
            .bind(&a.batch)
            .bind(a.seq)
            .bind(&a.white)
            .bind(&a.black)
            .bind(&a.result)
            .bind(&a.start_fen)
            .bind(a.chess960 as i64)
            .bind(a.moves.join(" "))
            .bind(&a.status)
            .bind(&a.engine)
            .bind(&a.error)
            .bind(&a.analysis)
            .bind(a.created_ms)
            .bind(a.updated_ms)
            .bind(&a.node)
            .bind(a.progress)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if inserted == 1 {
                out.push(a.clone());
                continue;
            }
            // The game's analysis exists already (or, by a chance of 80
            // bits, the id): the stored one.
            let stored = match &a.game_id {
                Some(g) => {
                    sqlx::query(&format!(
                        "SELECT {COLUMNS} FROM analyses WHERE game_id = $1"
                    ))
                    .bind(g)
                    .fetch_optional(&mut *tx)
                    .await?
                }
                None => None,
            };
            match stored {
                Some(r) => out.push(from_row(&r)?),
                None => {
                    return Err(StoreError::Corrupt {
                        what: "analyses.id",
                        value: a.id.clone(),
                    })
                }
            }
        }
        tx.commit().await?;
        Ok(out)
    }

    /// An analysis by id.
    pub async fn analysis(&self, id: &str) -> Result<Option<AnalysisRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM analyses WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The analysis of the server's game `game`, if one was asked for.
    pub async fn analysis_of_game(&self, game: &str) -> Result<Option<AnalysisRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM analyses WHERE game_id = $1"
        ))
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// How many requests (an upload of several games counts once) of
    /// `owner` are queued or running.
    pub async fn unfinished_analysis_requests(&self, owner: &str) -> Result<i64, StoreError> {
        let (n,): (i64,) = sqlx::query_as(
            "SELECT COUNT(DISTINCT batch) FROM analyses \
             WHERE owner = $1 AND status IN ('queued', 'running')",
        )
        .bind(owner)
        .fetch_one(&self.pool)
        .await?;
        Ok(n)
    }

    /// How many queued analyses were asked for before `row` (0: it is next).
    pub async fn analyses_ahead(&self, row: &AnalysisRow) -> Result<i64, StoreError> {
        let (n,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM analyses WHERE status = 'queued' \
             AND (created_ms < $1 OR (created_ms = $2 AND (seq < $3 OR (seq = $4 AND id < $5))))",
        )
        .bind(row.created_ms)
        .bind(row.created_ms)
        .bind(row.seq)
        .bind(row.seq)
        .bind(&row.id)
        .fetch_one(&self.pool)
        .await?;
        Ok(n)
    }

    /// Claims the next queued analysis for process `node` (it becomes
    /// `running` there): first the askers with no analysis running, then
    /// the oldest request, in its order. `None` when nothing is queued.
    pub async fn claim_analysis(&self, node: &str) -> Result<Option<AnalysisRow>, StoreError> {
        // Another process may claim the row chosen between the choice and
        // the update: the update then changes nothing and the next one is
        // chosen.
        for _ in 0..8 {
            let next: Option<(String,)> = sqlx::query_as(
                "SELECT a.id FROM analyses a WHERE a.status = 'queued' ORDER BY \
                 (SELECT COUNT(*) FROM analyses b WHERE b.owner = a.owner AND b.status = 'running'), \
                 a.created_ms, a.seq, a.id LIMIT 1",
            )
            .fetch_optional(&self.pool)
            .await?;
            let Some((id,)) = next else {
                return Ok(None);
            };
            let done = sqlx::query(
                "UPDATE analyses SET status = 'running', node = $1, progress = 0, updated_ms = $2 \
                 WHERE id = $3 AND status = 'queued'",
            )
            .bind(node)
            .bind(now_ms())
            .bind(&id)
            .execute(&self.pool)
            .await?
            .rows_affected();
            if done == 1 {
                return self.analysis(&id).await;
            }
        }
        Ok(None)
    }

    /// Stores how far analysis `id`, running in process `node`, has come.
    /// False when it no longer runs there.
    pub async fn store_analysis_progress(
        &self,
        id: &str,
        node: &str,
        done: i64,
    ) -> Result<bool, StoreError> {
        let n = sqlx::query(
            "UPDATE analyses SET progress = $1 \
             WHERE id = $2 AND node = $3 AND status = 'running'",
        )
        .bind(done)
        .bind(id)
        .bind(node)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Analysis `id`, running in process `node`, finished: `Ok((engine,
    /// json))` done, `Err(text)` failed. False (nothing stored) when it no
    /// longer runs there: it was queued again, as its process was taken for
    /// gone, and another process runs it or will.
    pub async fn finish_analysis(
        &self,
        id: &str,
        node: &str,
        outcome: Result<(String, String), String>,
    ) -> Result<bool, StoreError> {
        let (status, engine, analysis, error) = match outcome {
            Ok((engine, json)) => ("done", Some(engine), Some(json), None),
            Err(e) => ("failed", None, None, Some(e)),
        };
        let n = sqlx::query(
            "UPDATE analyses SET status = $1, engine = $2, analysis = $3, error = $4, \
             updated_ms = $5 WHERE id = $6 AND node = $7 AND status = 'running'",
        )
        .bind(status)
        .bind(engine)
        .bind(analysis)
        .bind(error)
        .bind(now_ms())
        .bind(id)
        .bind(node)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Queues a failed analysis again (asked for again). True if it
    /// changed.
    pub async fn requeue_analysis(&self, id: &str) -> Result<bool, StoreError> {
        let n = sqlx::query(
            "UPDATE analyses SET status = 'queued', error = NULL, node = NULL, progress = 0, \
             updated_ms = $1 WHERE id = $2 AND status = 'failed'",
        )
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Process `node` gives analysis `id` back unfinished (it stops): it
    /// waits for the next worker. True if it changed (false: it no longer
    /// ran there).
    pub async fn release_analysis(&self, id: &str, node: &str) -> Result<bool, StoreError> {
        let n = sqlx::query(
            "UPDATE analyses SET status = 'queued', node = NULL, progress = 0, updated_ms = $1 \
             WHERE id = $2 AND node = $3 AND status = 'running'",
        )
        .bind(now_ms())
        .bind(id)
        .bind(node)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Queues again the running analyses of the processes that are gone:
    /// those whose heartbeat (`nodes.seen_ms`) is older than `stale_ms`
    /// ago, those that stopped (`down`), those that never registered or
    /// that no row names (claimed before several processes existed), and,
    /// when `me` is given (this process starting), this process's own (it
    /// ran them before it stopped). How many.
    pub async fn requeue_orphan_analyses(
        &self,
        me: Option<&str>,
        stale_ms: i64,
    ) -> Result<u64, StoreError> {
        let now = now_ms();
        let gone = "node IS NULL OR node NOT IN \
                    (SELECT name FROM nodes WHERE seen_ms >= $2 AND state <> 'down')";
        let sql = match me {
            Some(_) => format!(
                "UPDATE analyses SET status = 'queued', node = NULL, progress = 0, \
                 updated_ms = $1 WHERE status = 'running' AND ({gone} OR node = $3)"
            ),
            None => format!(
                "UPDATE analyses SET status = 'queued', node = NULL, progress = 0, \
                 updated_ms = $1 WHERE status = 'running' AND ({gone})"
            ),
        };
        let mut q = sqlx::query(&sql).bind(now).bind(now - stale_ms);
        if let Some(me) = me {
            q = q.bind(me);
        }
        let n = q.execute(&self.pool).await?.rows_affected();
        Ok(n)
    }
}

/// The time an analysis is queued at, in ms: the wall clock, but never the
/// same value twice in one process, so that two requests of the same
/// millisecond keep the order they came in (the queue orders by this, then
/// by the place in a batch, then by the random id).
pub fn queue_stamp() -> i64 {
    use std::sync::atomic::{AtomicI64, Ordering};
    static LAST: AtomicI64 = AtomicI64::new(0);
    let mut prev = LAST.load(Ordering::Relaxed);
    loop {
        let next = super::now_ms().max(prev + 1);
        match LAST.compare_exchange(prev, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(seen) => prev = seen,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, created_ms: i64) -> AnalysisRow {
        AnalysisRow {
            id: id.into(),
            game_id: None,
            owner: format!("g:{id}"),
            batch: id.into(),
            seq: 0,
            white: "?".into(),
            black: "?".into(),
            result: "*".into(),
            start_fen: escaque::Position::new().to_fen(),
            chess960: false,
            moves: vec!["e2e4".into()],
            status: "queued".into(),
            engine: None,
            error: None,
            analysis: None,
            created_ms,
            updated_ms: created_ms,
            node: None,
            progress: 0,
        }
    }

    async fn state(store: &Store, id: &str) -> (String, Option<String>) {
        let r = store.analysis(id).await.unwrap().unwrap();
        (r.status, r.node)
    }

    /// The queue per process on SQLite (the same SQL as on PostgreSQL):
    /// claims record the process; the sweeper queues again only the
    /// analyses of processes gone; a process starting also its own; a
    /// process whose analysis was taken stores nothing more.
    #[tokio::test]
    async fn running_analyses_are_queued_again_only_for_processes_gone() {
        let dir = std::env::temp_dir().join(format!(
            "escaque-analysis-nodes-{}-{}",
            std::process::id(),
            now_ms()
        ));
        let store = Store::open_dir(&dir, false).await.unwrap();
        store.register_node("a", "127.0.0.1:1").await.unwrap();
        store.register_node("b", "127.0.0.1:2").await.unwrap();
        store
            .insert_analyses(&[row("x1", 1), row("x2", 2), row("x3", 3)])
            .await
            .unwrap();
        let x1 = store.claim_analysis("a").await.unwrap().unwrap();
        let x2 = store.claim_analysis("b").await.unwrap().unwrap();
        assert_eq!((x1.id.as_str(), x1.node.as_deref()), ("x1", Some("a")));
        assert_eq!((x2.id.as_str(), x2.node.as_deref()), ("x2", Some("b")));
        assert!(store.store_analysis_progress("x1", "a", 1).await.unwrap());
        assert!(!store.store_analysis_progress("x1", "b", 1).await.unwrap());
        assert_eq!(store.analysis("x1").await.unwrap().unwrap().progress, 1);

        // Both alive: neither the sweeper nor b starting again touches a's.
        assert_eq!(
            store.requeue_orphan_analyses(None, 60_000).await.unwrap(),
            0
        );
        assert_eq!(
            store
                .requeue_orphan_analyses(Some("b"), 60_000)
                .await
                .unwrap(),
            1
        );
        assert_eq!(
            state(&store, "x1").await,
            ("running".into(), Some("a".into()))
        );
        assert_eq!(state(&store, "x2").await, ("queued".into(), None));

        // b takes x2 again; a's heartbeat is two leases old: the sweeper
        // queues a's, not b's.
        let x2 = store.claim_analysis("b").await.unwrap().unwrap();
        assert_eq!(x2.id, "x2");
        sqlx::query("UPDATE nodes SET seen_ms = $1 WHERE name = 'a'")
            .bind(now_ms() - 5_000)
            .execute(&store.pool)
            .await
            .unwrap();
        assert_eq!(store.requeue_orphan_analyses(None, 2_000).await.unwrap(), 1);
        assert_eq!(state(&store, "x1").await, ("queued".into(), None));
        assert_eq!(store.analysis("x1").await.unwrap().unwrap().progress, 0);
        assert_eq!(
            state(&store, "x2").await,
            ("running".into(), Some("b".into()))
        );

        // b runs x1 now; a comes back: its result and its release are
        // refused, b's stored.
        let again = store.claim_analysis("b").await.unwrap().unwrap();
        assert_eq!(again.id, "x1");
        let done = Ok(("escaque".to_string(), "{}".to_string()));
        assert!(!store
            .finish_analysis("x1", "a", done.clone())
            .await
            .unwrap());
        assert!(!store.release_analysis("x1", "a").await.unwrap());
        assert_eq!(
            state(&store, "x1").await,
            ("running".into(), Some("b".into()))
        );
        assert!(store.finish_analysis("x1", "b", done).await.unwrap());
        assert_eq!(state(&store, "x1").await.0, "done");
        // A process that stopped cleanly is gone too.
        store.set_node_state("b", "down").await.unwrap();
        assert_eq!(
            store.requeue_orphan_analyses(None, 60_000).await.unwrap(),
            1
        );
        assert_eq!(state(&store, "x2").await, ("queued".into(), None));
        let _ = std::fs::remove_dir_all(dir);
    }
}
