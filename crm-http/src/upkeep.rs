//! The periodic work `crm serve` runs beside the server: folding the lists' count deltas
//! into their counts (every second, with a vacuum of the deltas table at the first fold and
//! after every 2,000 folded deltas) and deleting the idempotency records past their 24
//! hours (every 15 minutes). Neither is needed for correct answers: a list's total sums
//! the deltas not yet folded, and a request that meets an expired record deletes it.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crm_store_pg::counts::{FOLD_EVERY, VACUUM_AFTER_FOLDED};
use crm_store_pg::{Store, StoreError};
use tokio::task::JoinHandle;

/// How often the expired idempotency records are deleted.
pub const PURGE_KEYS_EVERY: Duration = Duration::from_secs(15 * 60);

/// The running periodic tasks; dropping it stops them.
#[derive(Debug)]
pub struct Upkeep {
    tasks: Vec<JoinHandle<()>>,
}

impl Upkeep {
    /// Starts the periodic tasks on `store`.
    pub fn start(store: &Store) -> Upkeep {
        let fold = store.clone();
        let purge = store.clone();
        // Deltas folded since the deltas table was last vacuumed; starting at the threshold,
        // the first fold vacuums (a table left large by writes while no server folded).
        let unvacuumed = Arc::new(AtomicU64::new(VACUUM_AFTER_FOLDED));
        Upkeep {
            tasks: vec![
                tokio::spawn(every(FOLD_EVERY, "fold list counts", move || {
                    let store = fold.clone();
                    let unvacuumed = Arc::clone(&unvacuumed);
                    async move {
                        let folded = store.fold_list_counts().await?.unsigned_abs();
                        let since = unvacuumed.fetch_add(folded, Ordering::Relaxed) + folded;
                        if since >= VACUUM_AFTER_FOLDED {
                            unvacuumed.store(0, Ordering::Relaxed);
                            store.vacuum_list_count_deltas().await?;
                            tracing::debug!(task = "vacuum list count deltas", since, "upkeep");
                        }
                        Ok(folded)
                    }
                })),
                tokio::spawn(every(
                    PURGE_KEYS_EVERY,
                    "delete expired idempotency keys",
                    move || {
                        let store = purge.clone();
                        async move { store.purge_expired_idempotency_keys().await }
                    },
                )),
            ],
        }
    }
}

impl Drop for Upkeep {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Runs `task` every `period` (the first time one period after the start, so that a
/// starting server's pool is its requests'), forever, logging what it did (how many rows)
/// and any error (the next tick tries again).
async fn every<F, Fut>(period: Duration, what: &'static str, mut task: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<u64, StoreError>>,
{
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match task().await {
            Ok(0) => {}
            Ok(rows) => tracing::debug!(task = what, rows, "upkeep"),
            Err(e) => tracing::warn!(task = what, error = %e, "upkeep failed"),
        }
    }
}
