//! The periodic work `crm serve` runs beside the server: folding the lists' count deltas
//! into their counts (every second; beside it, a vacuum of the deltas table at the first
//! tick and after every 2,000 folded deltas, which gives the table's empty tail back in a
//! quiet second), deleting the idempotency records past their 24
//! hours (every 15 minutes), composing the messages a stopped process left uncomposed
//! (every [`COMPOSE_LEFT_EVERY`]), and writing the minutes API keys were last used (every
//! [`RECORD_USE_EVERY`], one statement for every key whose minute changed; see
//! [`crate::auth::LastUse`]). None is needed for correct answers: a list's total sums the
//! deltas not yet folded, a request that meets an expired record deletes it, and the last
//! use is what `crm keys list` shows, nothing more.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crm_store_pg::StoreError;
use crm_store_pg::counts::{FOLD_EVERY, VACUUM_AFTER_FOLDED};
use tokio::task::JoinHandle;

use crate::App;
use crate::auth::RECORD_USE_EVERY;

/// How often the expired idempotency records are deleted.
pub const PURGE_KEYS_EVERY: Duration = Duration::from_secs(15 * 60);
/// How often messages left uncomposed (a process stopped between a write's commit and
/// its composing) are looked for: see [`crate::documents::Documents::compose_left`].
pub const COMPOSE_LEFT_EVERY: Duration = Duration::from_secs(10);
/// How many such messages one look composes at most.
const COMPOSE_LEFT_BATCH: i64 = 50;
/// How long delivered and failed webhook deliveries are kept (then pruned, with their events).
pub const WEBHOOK_RETENTION_DAYS: u32 = 30;

/// The running periodic tasks; dropping it stops them.
#[derive(Debug)]
pub struct Upkeep {
    tasks: Vec<JoinHandle<()>>,
}

impl Upkeep {
    /// Starts the periodic tasks of `app` (on its store, and its keys' last use).
    pub fn start(app: &Arc<App>) -> Upkeep {
        let store = &app.store;
        let fold = store.clone();
        let vacuum = store.clone();
        let purge = store.clone();
        let prune = store.clone();
        let keys = Arc::clone(app);
        let compose = Arc::clone(app);
        // The vacuum is a task of its own: one that waits for the table's lock to give back
        // its empty tail must not hold up the fold.
        let folds = Arc::new(Folds::default());
        let seen = Arc::clone(&folds);
        Upkeep {
            tasks: vec![
                tokio::spawn(every(FOLD_EVERY, "fold list counts", move || {
                    let store = fold.clone();
                    let folds = Arc::clone(&folds);
                    async move {
                        let n = store.fold_list_counts().await?.unsigned_abs();
                        folds.since_vacuum.fetch_add(n, Ordering::Relaxed);
                        folds.last.store(n, Ordering::Relaxed);
                        Ok(n)
                    }
                })),
                tokio::spawn(every(FOLD_EVERY, "vacuum list count deltas", move || {
                    let store = vacuum.clone();
                    let folds = Arc::clone(&seen);
                    async move {
                        let since = folds.since_vacuum.load(Ordering::Relaxed);
                        let untrimmed = folds.untrimmed.load(Ordering::Relaxed);
                        let step =
                            vacuum_step(since, folds.last.load(Ordering::Relaxed), untrimmed);
                        let give_back = match step {
                            VacuumStep::Wait => return Ok(0),
                            VacuumStep::Reuse => false,
                            VacuumStep::GiveBack => true,
                        };
                        folds.since_vacuum.fetch_sub(since, Ordering::Relaxed);
                        folds.untrimmed.store(!give_back, Ordering::Relaxed);
                        store.vacuum_list_count_deltas(give_back).await?;
                        Ok(since)
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
                tokio::spawn(every(
                    PURGE_KEYS_EVERY,
                    "delete old webhook deliveries",
                    move || {
                        let store = prune.clone();
                        async move { store.prune_webhook_deliveries(WEBHOOK_RETENTION_DAYS).await }
                    },
                )),
                tokio::spawn(every(
                    COMPOSE_LEFT_EVERY,
                    "compose messages left",
                    move || {
                        let app = Arc::clone(&compose);
                        async move {
                            app.documents
                                .compose_left(
                                    &app.store,
                                    crate::app::today(),
                                    crate::documents::COMPOSE_LEFT_AFTER,
                                    COMPOSE_LEFT_BATCH,
                                )
                                .await
                                .map_err(|e| StoreError::Internal(e.to_string()))
                        }
                    },
                )),
                tokio::spawn(every(
                    RECORD_USE_EVERY,
                    "record when keys were last used",
                    move || {
                        let app = Arc::clone(&keys);
                        async move { app.record_key_use().await }
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

/// What the fold task tells the vacuum task.
#[derive(Debug)]
struct Folds {
    /// Deltas folded since the deltas table was last vacuumed.
    since_vacuum: AtomicU64,
    /// Deltas the latest fold moved.
    last: AtomicU64,
    /// Whether a vacuum has run since the table's empty tail was last given back.
    untrimmed: AtomicBool,
}

impl Default for Folds {
    /// As if nothing had been given back: the first quiet tick gives back what writes made
    /// while no server folded.
    fn default() -> Folds {
        Folds {
            since_vacuum: AtomicU64::new(0),
            last: AtomicU64::new(0),
            untrimmed: AtomicBool::new(true),
        }
    }
}

/// One tick's vacuum of the deltas table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VacuumStep {
    /// Too few deltas folded since the last vacuum to be worth one.
    Wait,
    /// Make the dead rows' space reusable (writes are busy: the table's lock is rarely free).
    Reuse,
    /// Also give back the table's empty tail (writes are quiet).
    GiveBack,
}

/// The vacuum a tick runs, from the deltas folded since the last vacuum, those of the
/// latest fold, and whether the tail was left after the last vacuum: a quiet second (a fold
/// of fewer than [`VACUUM_AFTER_FOLDED`]) gives back what busy ones only made reusable.
fn vacuum_step(since_vacuum: u64, last_fold: u64, untrimmed: bool) -> VacuumStep {
    let quiet = last_fold < VACUUM_AFTER_FOLDED;
    let due = since_vacuum >= VACUUM_AFTER_FOLDED;
    if quiet && (due || untrimmed) {
        VacuumStep::GiveBack
    } else if due {
        VacuumStep::Reuse
    } else {
        VacuumStep::Wait
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_tick_gives_back_what_writes_left_before_the_server() {
        let first = Folds::default();
        assert_eq!(
            vacuum_step(
                first.since_vacuum.into_inner(),
                first.last.into_inner(),
                first.untrimmed.into_inner()
            ),
            VacuumStep::GiveBack
        );
    }

    #[test]
    fn busy_seconds_only_reuse_and_the_next_quiet_one_gives_back() {
        let busy = 5 * VACUUM_AFTER_FOLDED;
        assert_eq!(vacuum_step(busy, busy, false), VacuumStep::Reuse);
        assert_eq!(vacuum_step(busy, busy, true), VacuumStep::Reuse);
        // Quiet after busy ones: given back even with few folded since.
        assert_eq!(vacuum_step(10, 10, true), VacuumStep::GiveBack);
        assert_eq!(vacuum_step(0, 0, true), VacuumStep::GiveBack);
    }

    #[test]
    fn quiet_seconds_vacuum_only_after_enough_folds() {
        assert_eq!(vacuum_step(0, 0, false), VacuumStep::Wait);
        assert_eq!(
            vacuum_step(VACUUM_AFTER_FOLDED - 1, 300, false),
            VacuumStep::Wait
        );
        assert_eq!(
            vacuum_step(VACUUM_AFTER_FOLDED, 300, false),
            VacuumStep::GiveBack
        );
    }
}
