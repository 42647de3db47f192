//! The scheduler (API.md §20): the one worker that makes what falls due — the occurrences
//! of recurring invoices, and the payment reminders of unpaid invoices — in every `crm
//! serve` and in `crm deliver`.
//!
//! Each round claims up to [`SchedulerOptions::batch`] due schedules with a lease
//! ([`crm_store_pg::Store::claim_due_schedules`], as the outbox claims its rows: any
//! number of workers share them, none waits on another, and a dead worker's schedules
//! are taken again once its lease has passed), makes each one's due occurrences (up to
//! [`SchedulerOptions::concurrency`] schedules at once), one
//! transaction each keyed by (schedule, date) so that nothing is ever made twice
//! ([`crm_store_pg::Store::run_schedule`]), and composes the email of each invoice issued,
//! as a publish's handler does. It runs a round at once, then every
//! [`SchedulerOptions::poll`] and whenever a round found a full batch.
//!
//! Then it sends the reminders due ([`crm_store_pg::Store::send_due_reminders`]: one
//! transaction per invoice, its row locked with `SKIP LOCKED`, each (invoice, step) once,
//! only in the company's sending hours) and composes their emails.
//!
//! The time comes from a [`Clock`]: the service's is the system clock, a test's its own.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use crm_core::bill::InvoiceKind;
use crm_store_pg::Store;
use futures_util::StreamExt;
use tokio::sync::watch;

use crate::documents::Documents;

/// What time it is, for the scheduler.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Now.
    fn now(&self) -> DateTime<Utc>;
}

/// The system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// Scheduler settings.
#[derive(Debug, Clone, Copy)]
pub struct SchedulerOptions {
    /// Longest wait between rounds.
    pub poll: Duration,
    /// How long a claimed schedule stays taken (a worker that dies holds it this long).
    pub lease: Duration,
    /// Schedules claimed per round.
    pub batch: i64,
    /// Schedules run at once within a round (each its own transactions and connection).
    pub concurrency: usize,
    /// One round until nothing is due, then return (`crm deliver --once`).
    pub once: bool,
}

impl Default for SchedulerOptions {
    fn default() -> Self {
        SchedulerOptions {
            poll: Duration::from_secs(10),
            lease: Duration::from_secs(60),
            batch: 50,
            concurrency: 4,
            once: false,
        }
    }
}

/// What a scheduler made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scheduled {
    /// Invoices made.
    pub made: u64,
    /// Missed occurrences passed over (`catch_up` = `latest`).
    pub skipped: u64,
    /// Reminders sent.
    pub reminded: u64,
}

/// Runs the scheduler on `store` until `stop` turns true (or, with `once`, until nothing is
/// due), composing the emails of the invoices it issues with `documents`.
pub async fn run(
    store: Store,
    documents: Arc<Documents>,
    clock: Arc<dyn Clock>,
    options: SchedulerOptions,
    mut stop: watch::Receiver<bool>,
) -> Scheduled {
    let mut total = Scheduled::default();
    loop {
        if *stop.borrow() {
            return total;
        }
        // Its writes' activity entries name the scheduler (API.md §21).
        let scheduler =
            crm_core::activity::Actor::System(crm_core::activity::SystemPart::Scheduler);
        let work = round(&store, &documents, clock.now(), options, &mut total);
        let full = match store.acting(scheduler, work).await {
            Ok(claimed) => claimed >= options.batch,
            Err(e) => {
                tracing::warn!(error = %e, "scheduler round failed; trying again");
                false
            }
        };
        if options.once && !full {
            return total;
        }
        if !full {
            tokio::select! {
                () = tokio::time::sleep(options.poll) => {}
                _ = stop.wait_for(|s| *s) => return total,
            }
        }
    }
}

/// Runs schedule `id` at `now` and composes the emails of the invoices it issued: (made,
/// skipped). A failure is logged: its lease runs out and another round tries again.
async fn run_one(
    store: &Store,
    documents: &Documents,
    id: crm_core::ids::RecurringInvoiceId,
    now: DateTime<Utc>,
) -> (u64, u64) {
    let run = match store.run_schedule(id, now, documents.letterhead()).await {
        Ok(run) => run,
        Err(e) => {
            tracing::warn!(schedule = %id, error = %e, "a recurring invoice could not be made");
            return (0, 0);
        }
    };
    let skipped = u64::try_from(run.skipped).unwrap_or(0);
    let mut made = 0;
    for emailed in run.made {
        made += 1;
        let invoice = emailed.record.id;
        if let Err(e) = documents.compose::<InvoiceKind>(store, emailed).await {
            // Left uncomposed: `crm serve`'s upkeep composes it.
            tracing::warn!(invoice = %invoice, error = %e, "an invoice's email was left to compose");
        }
    }
    (made, skipped)
}

/// One round at `now`: the due schedules claimed and run; how many were claimed.
async fn round(
    store: &Store,
    documents: &Documents,
    now: DateTime<Utc>,
    options: SchedulerOptions,
    total: &mut Scheduled,
) -> Result<i64, Box<dyn std::error::Error + Send + Sync>> {
    let claimed = store
        .claim_due_schedules(now, options.batch, options.lease)
        .await?;
    let count = i64::try_from(claimed.len()).unwrap_or(i64::MAX);
    let mut runs = futures_util::stream::iter(claimed)
        .map(|id| run_one(store, documents, id, now))
        .buffer_unordered(options.concurrency.max(1));
    while let Some((made, skipped)) = runs.next().await {
        total.made += made;
        total.skipped += skipped;
    }
    let batch = usize::try_from(options.batch).unwrap_or(1);
    let reminded = store
        .send_due_reminders(now, documents.letterhead(), batch)
        .await?;
    for sent in reminded.sent {
        total.reminded += 1;
        let invoice = sent.record.id;
        if let Err(e) = documents.compose::<InvoiceKind>(store, sent).await {
            tracing::warn!(invoice = %invoice, error = %e, "a reminder's email was left to compose");
        }
    }
    Ok(count)
}
