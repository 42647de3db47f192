//! The scheduler's side of recurring invoices (API.md §20): claiming due schedules with a
//! lease, as the outbox claims its rows, and making each due occurrence exactly once.
//!
//! **Claiming.** One statement takes up to N active schedules whose next date has come in
//! their time zone and that no worker holds (`FOR UPDATE SKIP LOCKED` for the statement's
//! instant only), and leases them (`leased_until`): any number of workers and instances
//! share the due schedules without waiting on each other, and a worker that dies leaves
//! its schedules to another once the lease has passed.
//!
//! **Exactly once.** Each occurrence is made in its own transaction, which locks the
//! schedule's row, reads where it stands under the lock, claims the occurrence's key
//! (schedule, date: the primary key of `recurring_occurrences`), makes the invoice (its
//! number, its email and its events with it) and moves the schedule on, and commits all
//! of it or none. A second worker whose lease overlapped, a retry after a crash, a
//! restart or a clock that jumps back finds the occurrence made (the row lock makes it
//! wait for the first; the key makes a duplicate impossible even without it).
//!
//! Nothing reads a clock here: the caller says what time it is.

use chrono::{DateTime, Utc};
use crm_core::ids::{RecurringInvoiceId, UserId};
use crm_core::invoice::Invoice;
use crm_core::recurring::{RecurringStatus, local_date};
use crm_core::webhook::EventType;

use super::from_row;
use super::generate::{Made, Occurrence, make_invoice};
use crate::conditions::Tx;
use crate::db::Db;
use crate::messages::{Emailed, Letterhead};
use crate::store::{Ctx, Store};
use crate::{StoreError, rows};

/// Leases up to `$2` due active schedules no one holds, for `$3` seconds, at time `$1`.
/// A schedule is due when its next date is today or earlier in its own time zone; the
/// first comparison (any zone is within a day of UTC) lets the partial index answer.
const CLAIM_SQL: &str = "WITH due AS (SELECT id FROM recurring_invoices \
     WHERE status = 'active' AND next_date <= ($1::timestamptz AT TIME ZONE 'UTC')::date + 1 \
     AND next_date <= ($1::timestamptz AT TIME ZONE timezone)::date \
     AND (leased_until IS NULL OR leased_until <= $1) \
     ORDER BY next_date, id LIMIT $2 FOR UPDATE SKIP LOCKED) \
     UPDATE recurring_invoices r SET leased_until = $1::timestamptz + make_interval(secs => $3) \
     FROM due WHERE r.id = due.id RETURNING r.id";

/// Ends a schedule's lease.
const RELEASE_SQL: &str = "UPDATE recurring_invoices SET leased_until = NULL WHERE id = $1";

/// Claims occurrence (`$1`, `$2`) with index `$3`: no row back when it was dealt with
/// before.
const CLAIM_OCCURRENCE_SQL: &str = "INSERT INTO recurring_occurrences \
     (recurring_invoice_id, date, index, skipped) VALUES ($1, $2, $3, $4) \
     ON CONFLICT DO NOTHING RETURNING date";

/// Records the invoice an occurrence made.
const MADE_SQL: &str = "UPDATE recurring_occurrences SET invoice_id = $3 \
     WHERE recurring_invoice_id = $1 AND date = $2";

/// Moves a schedule on to occurrence `$2` on `$3` (NULL: finished).
const MOVE_ON_SQL: &str = "UPDATE recurring_invoices SET next_index = $2, next_date = $3, \
     status = CASE WHEN $3::date IS NULL THEN 'finished' ELSE status END, updated_at = now() \
     WHERE id = $1";

/// What one run of a schedule did.
#[derive(Debug, Default)]
pub struct Run {
    /// The invoices made, each with the message its publish queued (to compose after the
    /// commit, as a publish's handler does).
    pub made: Vec<Emailed<Invoice>>,
    /// Missed occurrences passed over (`catch_up` = `latest`).
    pub skipped: usize,
}

/// The invoice of the user a schedule's invoices are created by: its creator, else the
/// administrator (user 1).
fn actor(creator: Option<UserId>) -> Result<UserId, StoreError> {
    creator
        .or_else(|| UserId::new(1))
        .ok_or_else(|| StoreError::Internal("user 1".into()))
}

impl Store {
    /// Leases up to `max` schedules due at `now` that no worker holds, each for `lease`.
    pub async fn claim_due_schedules(
        &self,
        now: DateTime<Utc>,
        max: i64,
        lease: std::time::Duration,
    ) -> Result<Vec<RecurringInvoiceId>, StoreError> {
        let writer = self.writer().await?;
        let rows = writer
            .query(CLAIM_SQL, &[&now, &max, &lease.as_secs_f64()])
            .await?;
        rows.iter()
            .map(|row| rows::id(row, "id", RecurringInvoiceId::new))
            .collect()
    }

    /// Makes what schedule `id` has due at `now`, one occurrence per transaction (with
    /// `catch_up` = `latest`, the missed ones are marked skipped in the latest's), then
    /// ends its lease. A schedule deleted, paused or finished meanwhile makes nothing.
    pub async fn run_schedule(
        &self,
        id: RecurringInvoiceId,
        now: DateTime<Utc>,
        letterhead: &Letterhead,
    ) -> Result<Run, StoreError> {
        let mut run = Run::default();
        loop {
            match self.next_occurrence(id, now, letterhead).await? {
                Step::Nothing => return Ok(run),
                Step::Passed => {}
                Step::Made { made, skipped } => {
                    run.skipped += skipped;
                    run.made.push(*made);
                }
            }
        }
    }

    /// One transaction of [`Store::run_schedule`]: the next due occurrence made (or
    /// found made before), or nothing due (and the lease ended).
    async fn next_occurrence(
        &self,
        id: RecurringInvoiceId,
        now: DateTime<Utc>,
        letterhead: &Letterhead,
    ) -> Result<Step, StoreError> {
        let tx = self.begin().await?;
        let Some(locked) = tx.row_opt(LOCK_SQL, &[&id.get()]).await? else {
            return Ok(Step::Nothing);
        };
        let next_index: i32 = rows::get(&locked, "next_index")?;
        let current = from_row(&tx.row(super::READ_SQL, &[&id.get()]).await?)?;
        let from = u32::try_from(next_index).unwrap_or(0);
        let today = local_date(now, &current.timezone);
        let schedule = current
            .fields()
            .schedule()
            .map_err(|e| StoreError::Internal(format!("a stored schedule: {e}")))?;
        let due = match current.status {
            RecurringStatus::Active => schedule.due(from, today, current.catch_up),
            RecurringStatus::Paused | RecurringStatus::Finished => Default::default(),
        };
        let Some(&(index, date)) = due.make.first() else {
            tx.run(RELEASE_SQL, &[&id.get()]).await?;
            tx.commit().await?;
            return Ok(Step::Nothing);
        };
        for (n, skipped) in &due.skipped {
            claim(&tx, id, *skipped, *n, true).await?;
        }
        let mut made = None;
        if claim(&tx, id, date, index, false).await? {
            let occurrence = Occurrence {
                schedule: Some(id),
                template: &current.template,
                date,
                due_days: current.due_days,
                publish: current.auto_publish,
                ctx: Ctx {
                    actor: actor(current.creator_id)?,
                    today,
                },
            };
            let Made { invoice, queued } = make_invoice(self, &tx, &occurrence, letterhead).await?;
            tx.run(MADE_SQL, &[&id.get(), &date, &invoice.id.get()])
                .await?;
            tx.emit(
                EventType::RecurringInvoiceGenerated,
                invoice.id.get(),
                &invoice,
            )?;
            made = Some(match queued {
                Some(queued) => queued.emailed(invoice),
                None => Emailed {
                    record: invoice,
                    compose: None,
                },
            });
        }
        let next = index.checked_add(1).and_then(|n| schedule.next(n));
        let (next_index, next_date) = next.map_or((0, None), |(n, d)| (n, Some(d)));
        tx.run(
            MOVE_ON_SQL,
            &[
                &id.get(),
                &i32::try_from(next_index).unwrap_or(i32::MAX),
                &next_date,
            ],
        )
        .await?;
        tx.commit().await?;
        Ok(match made {
            Some(made) => Step::Made {
                made: Box::new(made),
                skipped: due.skipped.len(),
            },
            // Made before (its key was taken): moved on, nothing new.
            None => Step::Passed,
        })
    }
}

/// Locks a schedule's row and reads where it stands.
const LOCK_SQL: &str = "SELECT next_index FROM recurring_invoices WHERE id = $1 FOR UPDATE";

/// What one transaction of [`Store::run_schedule`] did.
enum Step {
    /// Nothing was due (the lease is ended).
    Nothing,
    /// The due occurrence had been made before; the schedule moved on.
    Passed,
    /// An occurrence was made, after `skipped` missed ones were passed over.
    Made {
        made: Box<Emailed<Invoice>>,
        skipped: usize,
    },
}

/// Claims occurrence (`id`, `date`): false when it was dealt with before.
async fn claim(
    tx: &Tx,
    id: RecurringInvoiceId,
    date: chrono::NaiveDate,
    index: u32,
    skipped: bool,
) -> Result<bool, StoreError> {
    let index = i32::try_from(index).unwrap_or(i32::MAX);
    Ok(tx
        .row_opt(CLAIM_OCCURRENCE_SQL, &[&id.get(), &date, &index, &skipped])
        .await?
        .is_some())
}
