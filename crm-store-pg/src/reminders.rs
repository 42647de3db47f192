//! Payment reminders (API.md §20): the scheduler's second job. An issued, unpaid invoice
//! (Due or Part Paid: not a draft, not paid, credited or cancelled) gets one email per
//! step of the company's `reminders` (crm-core's [`due_step`]: the latest step passed is
//! sent, earlier ones are skipped), only between 09:00 and 18:00 in the company's time
//! zone, and `invoice.overdue` once when its due date has passed.
//!
//! Each invoice is one transaction that locks its row (`FOR UPDATE SKIP LOCKED`: workers
//! share the invoices without waiting on each other, as the outbox shares its rows; the
//! lock lasts the few statements of the transaction, nothing is sent in it), records each
//! (invoice, step) under its primary key — what makes a reminder exactly once — queues the
//! email with the invoice's link, and writes the events. Nothing reads a clock: the caller
//! says what time it is.

use chrono::{DateTime, NaiveDate, Utc};
use crm_core::ids::{InvoiceId, UserId};
use crm_core::invoice::Invoice;
use crm_core::reminder::{ReminderSteps, company_time, due_step, within_sending_hours};
use crm_core::webhook::EventType;

use crate::bills::header::EmailAction;
use crate::bills::kind::load;
use crate::db::Db;
use crate::messages::{Emailed, Letterhead, Queued};
use crate::store::{Ctx, Store};
use crate::{StoreError, rows};

/// The company's steps and time zone.
const COMPANY_SQL: &str = "SELECT reminders, timezone FROM company WHERE id = 1";

/// The next issued, unpaid invoice (`status_id` 2 Due or 4 Part Paid) with something to do
/// on `$1`: a step of `$2` whose day has come and that is not recorded, or a due date
/// passed and not reported; locked, skipping those another worker holds.
const NEXT_SQL: &str = "SELECT i.id, i.due_date FROM invoices i \
     WHERE i.number IS NOT NULL AND i.status_id IN (2, 4) AND i.due_date IS NOT NULL \
     AND (EXISTS (SELECT 1 FROM unnest($2::int[]) s WHERE i.due_date + s <= $1 \
                  AND NOT EXISTS (SELECT 1 FROM invoice_reminders r \
                                  WHERE r.invoice_id = i.id AND r.step = s)) \
          OR (i.due_date < $1 AND NOT EXISTS (SELECT 1 FROM invoice_overdue_reports o \
                                              WHERE o.invoice_id = i.id))) \
     ORDER BY i.due_date, i.id LIMIT 1 FOR UPDATE OF i SKIP LOCKED";

/// The steps of invoice `$1` sent or skipped before.
const RECORDED_SQL: &str = "SELECT step FROM invoice_reminders WHERE invoice_id = $1";

/// Records step `$2` of invoice `$1`, sent (`$3`) or skipped.
const RECORD_SQL: &str = "INSERT INTO invoice_reminders (invoice_id, step, sent) \
     VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

/// Reports invoice `$1` overdue (once).
const OVERDUE_SQL: &str = "INSERT INTO invoice_overdue_reports (invoice_id, due_date) \
     VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING invoice_id";

/// What one pass of reminders did.
#[derive(Debug, Default)]
pub struct Reminded {
    /// The invoices reminded, each with the message queued (to compose after the commit).
    pub sent: Vec<Emailed<Invoice>>,
    /// Steps passed over.
    pub skipped: usize,
    /// Invoices reported overdue.
    pub overdue: usize,
}

impl Store {
    /// Sends what reminders are due at `now` (up to `max` invoices, one transaction each)
    /// and reports the invoices that became overdue. Outside 09:00–18:00 in the company's
    /// time zone only overdue invoices are reported.
    pub async fn send_due_reminders(
        &self,
        now: DateTime<Utc>,
        letterhead: &Letterhead,
        max: usize,
    ) -> Result<Reminded, StoreError> {
        let company = self.reader().await?.row(COMPANY_SQL, &[]).await?;
        let steps = crate::company::reminder_steps(&company)?;
        let zone: Option<String> = rows::get(&company, "timezone")?;
        let zone = zone.unwrap_or_else(|| "UTC".to_owned());
        let local = company_time(now, &zone);
        let today = local.date();
        let steps = match within_sending_hours(local.time()) {
            true => steps,
            false => ReminderSteps::default(),
        };
        let mut done = Reminded::default();
        for _ in 0..max {
            if !self
                .remind_next(today, &steps, letterhead, &mut done)
                .await?
            {
                break;
            }
        }
        Ok(done)
    }

    /// One invoice's transaction of [`Store::send_due_reminders`]; false when none is left.
    async fn remind_next(
        &self,
        today: NaiveDate,
        steps: &ReminderSteps,
        letterhead: &Letterhead,
        done: &mut Reminded,
    ) -> Result<bool, StoreError> {
        let tx = self.begin().await?;
        let Some(row) = tx.row_opt(NEXT_SQL, &[&today, &steps.offsets()]).await? else {
            return Ok(false);
        };
        let raw: i64 = rows::get(&row, "id")?;
        let id = InvoiceId::new(raw).ok_or_else(|| crate::error::corrupt("invoice id", raw))?;
        let due_date: NaiveDate = rows::get(&row, "due_date")?;
        let ctx = Ctx {
            actor: UserId::new(1).ok_or_else(|| StoreError::Internal("user 1".into()))?,
            today,
        };
        if due_date < today && tx.row_opt(OVERDUE_SQL, &[&raw, &due_date]).await?.is_some() {
            let invoice = load(&tx, id, self.view(ctx)).await?;
            tx.emit(EventType::InvoiceOverdue, raw, &invoice)?;
            done.overdue += 1;
        }
        let recorded: Vec<i32> = tx
            .rows(RECORDED_SQL, &[&raw])
            .await?
            .iter()
            .map(|r| rows::get(r, "step"))
            .collect::<Result<_, _>>()?;
        if let Some(due) = due_step(steps, due_date, today, &recorded) {
            for step in &due.skip {
                tx.run(RECORD_SQL, &[&raw, step, &false]).await?;
            }
            done.skipped += due.skip.len();
            if let Some(step) = due.send {
                let (invoice, queued) = self
                    .link_and_email(&tx, ctx, id, EmailAction::SendEmail, letterhead)
                    .await?;
                let sent = !matches!(queued, Queued::NoRecipient);
                tx.run(RECORD_SQL, &[&raw, &step, &sent]).await?;
                if sent {
                    tx.emit(EventType::InvoiceReminded, raw, &invoice)?;
                    done.sent.push(queued.emailed(invoice));
                }
            }
        }
        tx.commit().await?;
        Ok(true)
    }
}
