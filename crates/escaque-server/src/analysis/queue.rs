//! The queue of analyses behind one small interface, [`Queue`]: enqueue,
//! claim, progress, finish. [`StoreQueue`] keeps the queue in the database
//! (the `analyses` table: any process on the same PostgreSQL database may
//! claim from it) and the progress of the analyses this process runs in
//! memory, written to the row at most once a [`PROGRESS_EVERY`] so that
//! a client asking another process sees it too.
//!
//! Several processes (issue 28): a claim records this process's name in the
//! row (`analyses.node`). Only this process stores the row's progress,
//! finishes it or gives it back; a process taken for gone (no heartbeat for
//! two leases) has its running analyses queued again by the others
//! ([`Queue::requeue_orphans`]), and what it writes afterwards is refused.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use escaque_analysis::Progress;

use crate::store::analysis::AnalysisRow;
use crate::store::{Store, StoreError};

/// A boxed future (the trait is used as `dyn Queue`).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How often the progress of the analyses running here is stored.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// What the analysis workers and the routes need of a queue.
pub trait Queue: Send + Sync {
    /// Stores new requests, queued; a game's analysis that exists already
    /// is returned in place of the new one.
    fn enqueue<'a>(
        &'a self,
        rows: &'a [AnalysisRow],
    ) -> BoxFuture<'a, Result<Vec<AnalysisRow>, StoreError>>;
    /// The next queued analysis, now running here; `None` when none waits.
    fn claim(&self) -> BoxFuture<'_, Result<Option<AnalysisRow>, StoreError>>;
    /// How far a running analysis has come.
    fn report(&self, id: &str, progress: Progress);
    /// The progress reported for `id`, if it runs here.
    fn progress(&self, id: &str) -> Option<Progress>;
    /// Stores the progress reported since the last time (for clients of
    /// other processes).
    fn store_progress(&self) -> BoxFuture<'_, Result<(), StoreError>>;
    /// A claimed analysis ended: `Ok((engine, json))` done, `Err(text)`
    /// failed. False when it was no longer this process's (it was queued
    /// again as this process was taken for gone): nothing was stored.
    fn finish<'a>(
        &'a self,
        id: &'a str,
        outcome: Result<(String, String), String>,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// A claimed analysis was stopped before its end (the server stops):
    /// it waits for the next worker.
    fn release<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Queues again the running analyses of processes that are gone (no
    /// heartbeat for `stale`), and this process's own when `starting`
    /// (it ran them before it stopped). How many.
    fn requeue_orphans(
        &self,
        starting: bool,
        stale: Duration,
    ) -> BoxFuture<'_, Result<u64, StoreError>>;
}

/// The progress of one analysis running here; `stored`: as written to its
/// row.
#[derive(Clone, Copy)]
struct Running {
    now: Progress,
    stored: usize,
}

/// The queue in the database; progress in this process's memory, and in
/// the rows once a [`PROGRESS_EVERY`].
pub struct StoreQueue {
    store: Store,
    node: Arc<str>,
    progress: Mutex<HashMap<String, Running>>,
}

impl StoreQueue {
    /// A queue on `store` for process `node` (its `--nodo` name).
    pub fn new(store: Store, node: Arc<str>) -> StoreQueue {
        StoreQueue {
            store,
            node,
            progress: Mutex::new(HashMap::new()),
        }
    }

    fn forget(&self, id: &str) {
        self.progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }
}

impl Queue for StoreQueue {
    fn enqueue<'a>(
        &'a self,
        rows: &'a [AnalysisRow],
    ) -> BoxFuture<'a, Result<Vec<AnalysisRow>, StoreError>> {
        Box::pin(self.store.insert_analyses(rows))
    }

    fn claim(&self) -> BoxFuture<'_, Result<Option<AnalysisRow>, StoreError>> {
        Box::pin(async move {
            let row = self.store.claim_analysis(&self.node).await?;
            if let Some(r) = &row {
                self.progress
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(
                        r.id.clone(),
                        Running {
                            now: Progress {
                                done: 0,
                                total: r.moves.len() + 1,
                            },
                            stored: 0,
                        },
                    );
            }
            Ok(row)
        })
    }

    fn report(&self, id: &str, progress: Progress) {
        let mut map = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = map.get_mut(id) {
            r.now = progress;
        }
    }

    fn progress(&self, id: &str) -> Option<Progress> {
        self.progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .map(|r| r.now)
    }

    fn store_progress(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let changed: Vec<(String, usize)> = self
                .progress
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .filter(|(_, r)| r.now.done != r.stored)
                .map(|(id, r)| (id.clone(), r.now.done))
                .collect();
            for (id, done) in changed {
                self.store
                    .store_analysis_progress(&id, &self.node, done as i64)
                    .await?;
                if let Some(r) = self
                    .progress
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_mut(&id)
                {
                    r.stored = done;
                }
            }
            Ok(())
        })
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        outcome: Result<(String, String), String>,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let r = self.store.finish_analysis(id, &self.node, outcome).await;
            self.forget(id);
            r
        })
    }

    fn release<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.forget(id);
            self.store
                .release_analysis(id, &self.node)
                .await
                .map(|_| ())
        })
    }

    fn requeue_orphans(
        &self,
        starting: bool,
        stale: Duration,
    ) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            let me = starting.then_some(&*self.node);
            self.store
                .requeue_orphan_analyses(me, stale.as_millis() as i64)
                .await
        })
    }
}
