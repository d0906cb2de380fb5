//! The queue of analyses behind one small interface, [`Queue`]: enqueue,
//! claim, progress, finish. [`StoreQueue`] keeps the queue in the database
//! (the `analyses` table: any process on the same PostgreSQL database may
//! claim from it) and the progress of the analyses this process runs in
//! memory.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

use escaque_analysis::Progress;

use crate::store::analysis::AnalysisRow;
use crate::store::{Store, StoreError};

/// A boxed future (the trait is used as `dyn Queue`).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

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
    /// The progress reported for `id`, if it runs.
    fn progress(&self, id: &str) -> Option<Progress>;
    /// A claimed analysis ended: `Ok((engine, json))` done, `Err(text)`
    /// failed.
    fn finish<'a>(
        &'a self,
        id: &'a str,
        outcome: Result<(String, String), String>,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// A claimed analysis was stopped before its end (the server stops):
    /// it waits for the next worker.
    fn release<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
}

/// The queue in the database; progress in this process's memory.
pub struct StoreQueue {
    store: Store,
    progress: Mutex<HashMap<String, Progress>>,
}

impl StoreQueue {
    /// A queue on `store`.
    pub fn new(store: Store) -> StoreQueue {
        StoreQueue {
            store,
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
            let row = self.store.claim_analysis().await?;
            if let Some(r) = &row {
                self.report(
                    &r.id,
                    Progress {
                        done: 0,
                        total: r.moves.len() + 1,
                    },
                );
            }
            Ok(row)
        })
    }

    fn report(&self, id: &str, progress: Progress) {
        self.progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string(), progress);
    }

    fn progress(&self, id: &str) -> Option<Progress> {
        self.progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .copied()
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        outcome: Result<(String, String), String>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let r = self.store.finish_analysis(id, outcome).await;
            self.forget(id);
            r
        })
    }

    fn release<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.forget(id);
            self.store.requeue_analysis(id).await.map(|_| ())
        })
    }
}
