//! The group-commit writer: every game write (a move, clocks, an ending, a
//! takeback) is a [`Job`]; the writer runs all the jobs waiting in one
//! transaction, each in a savepoint, with one commit (one sync) for all.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::{now_ms, Ending, Fence, MoveRow, Store, StoreError};

impl Store {
    /// Runs a game write through the group-commit writer (many games' writes
    /// share one transaction and one sync); it returns after the commit.
    pub(super) async fn write(&self, job: Job) -> Result<(), StoreError> {
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
}

/// One game's write, as one unit.
#[derive(Debug)]
pub(super) struct Job {
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
    pub(super) fn new(
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
pub(super) enum JobError {
    /// [`StoreError::Fenced`].
    Fenced,
    /// Anything else, with the database's text.
    Failed(String),
}

pub(super) type JobReply = oneshot::Sender<Result<(), JobError>>;

/// The fencing check of a game write: touches game `game`'s row (setting
/// `updated_ms`, and `turn_started_ms` when given) only while `fence`'s
/// process holds its lease at the fence's epoch; otherwise
/// [`StoreError::Fenced`]. On PostgreSQL the row stays locked until the
/// transaction ends, so a process taking the game over waits for this
/// write, then loads it.
pub(super) async fn check_fence(
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
    pub(super) async fn run(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    ) -> Result<(), StoreError> {
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
pub(super) async fn writer_task(pool: AnyPool, mut rx: mpsc::Receiver<(Job, JobReply)>) {
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
