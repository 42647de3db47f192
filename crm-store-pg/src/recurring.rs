//! Recurring invoices (`/api/recurring-invoices`, API.md §20): the schedules, their
//! template, the invoices they made, and the scheduler's side ([`scheduler`]).
//!
//! A schedule keeps its template as given (crm-core's `recurring::template`), and its
//! template is checked by making its first invoice in a savepoint that is rolled back
//! ([`generate::check_template`]): whatever would refuse that invoice refuses the
//! schedule, with the same messages in the template's field names. Each write is one
//! transaction that locks the schedule's row first and compares `If-Match` under the lock.

use chrono::NaiveDate;
use crm_core::bill::InvoiceKind;
use crm_core::conflict::Resource;
use crm_core::ids::{ClientId, RecurringInvoiceId, UserId};
use crm_core::input::{RawMap, RawValue};
use crm_core::invoice::{Invoice, InvoiceListQuery};
use crm_core::recurring::{
    RecurringInput, RecurringInvoice, RecurringListQuery, RecurringSort, RecurringStatus, Schedule,
    ScheduleFields,
};
use crm_core::webhook::EventType;
use tokio_postgres::Row;

use crate::bills::kind::{StoredBill, load_many};
use crate::bills::list::{filtered, page};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::corrupt;
use crate::sql::{self, PageRequest, SortKey, Sql, micros_key};
use crate::{Ctx, Listed, Store, StoreError, rows};

mod generate;
pub(crate) mod scheduler;

/// A schedule's columns over `recurring_invoices r` (without `invoices_made`, which a page
/// adds after paging).
macro_rules! recurring_columns {
    () => {
        "r.id, r.client_id, r.template::text AS template, r.frequency, r.interval, \
         r.start_date, r.end_date, r.count, r.due_days, r.auto_publish, r.catch_up, r.status, \
         r.timezone, r.next_index, r.next_date, r.creator_id, r.created_at, r.updated_at"
    };
}

/// One schedule by id, with how many invoices it made.
const READ_SQL: &str = concat!(
    "SELECT ",
    recurring_columns!(),
    ", (SELECT count(*) FROM recurring_occurrences o WHERE o.recurring_invoice_id = r.id \
     AND NOT o.skipped)::int AS invoices_made FROM recurring_invoices r WHERE r.id = $1"
);

/// `invoices_made` of a page's rows (`p`).
const PAGE_EXTRA_COLUMNS: &str = ", (SELECT count(*) FROM recurring_occurrences o \
     WHERE o.recurring_invoice_id = p.id AND NOT o.skipped)::int AS invoices_made";

const LOCK_SQL: &str = "SELECT id FROM recurring_invoices WHERE id = $1 FOR UPDATE";

/// The company's time zone (NULL: never set).
const COMPANY_ZONE_SQL: &str = "SELECT timezone FROM company";

const INSERT_SQL: &str = "INSERT INTO recurring_invoices (client_id, template, frequency, \
     interval, start_date, end_date, count, due_days, auto_publish, catch_up, status, timezone, \
     next_index, next_date, creator_id) \
     VALUES ($1, $2::text::jsonb, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
     RETURNING id";

const UPDATE_SQL: &str = "UPDATE recurring_invoices SET client_id = $2, template = $3::text::jsonb, \
     frequency = $4, interval = $5, start_date = $6, end_date = $7, count = $8, due_days = $9, \
     auto_publish = $10, catch_up = $11, status = $12, timezone = $13, next_index = $14, \
     next_date = $15, updated_at = now() WHERE id = $1";

/// The last occurrence a schedule dealt with (made or skipped).
const LAST_OCCURRENCE_SQL: &str =
    "SELECT max(date) AS last FROM recurring_occurrences WHERE recurring_invoice_id = $1";

const DELETE_SQL: &str = "DELETE FROM recurring_invoices WHERE id = $1";

/// The zone of a schedule that names none: the company's, else UTC (the store's days are
/// UTC days when nothing else is said: [`Ctx::today`]).
async fn company_zone(db: &impl Db) -> Result<String, StoreError> {
    let zone: Option<String> = match db.row_opt(COMPANY_ZONE_SQL, &[]).await? {
        Some(row) => rows::get(&row, "timezone")?,
        None => None,
    };
    Ok(zone.unwrap_or_else(|| "UTC".to_owned()))
}

/// Where a schedule with `fields` stands after the occurrences up to `last` (none: it
/// starts from its first): the next occurrence's index and date, and its status.
fn standing(
    fields: &ScheduleFields,
    schedule: &Schedule,
    last: Option<NaiveDate>,
) -> (u32, Option<NaiveDate>, RecurringStatus) {
    let next = match last {
        Some(last) => schedule.first_after(last),
        None => schedule.next(0),
    };
    match next {
        Some((index, date)) => (index, Some(date), fields.status),
        None => (0, None, RecurringStatus::Finished),
    }
}

impl Store {
    /// `GET /recurring-invoices/{id}`.
    pub async fn recurring_invoice(
        &self,
        id: RecurringInvoiceId,
    ) -> Result<RecurringInvoice, StoreError> {
        read(&*self.reader().await?, id.get()).await
    }

    /// `GET /recurring-invoices`: one page with the exact total (counted row by row).
    pub async fn list_recurring_invoices(
        &self,
        q: &RecurringListQuery,
    ) -> Result<Listed<RecurringInvoice>, StoreError> {
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(RecurringSort::NextDate) => {
                SortKey::new("next_date", "next_date::text", "{}::date").nullable()
            }
            Some(RecurringSort::StartDate) => {
                SortKey::new("start_date", "start_date::text", "{}::date")
            }
            Some(RecurringSort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let mut s = Sql::new(concat!(
            "SELECT ",
            recurring_columns!(),
            " FROM recurring_invoices r WHERE TRUE"
        ));
        if let Some(status) = q.filters.status {
            s.push_with(" AND r.status = {}", status.as_str());
        }
        if let Some(client) = q.filters.client_id {
            s.push_with(" AND r.client_id = {}", client.get());
        }
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page(
            &*self.reader().await?,
            s,
            None,
            sort,
            &request,
            PAGE_EXTRA_COLUMNS,
        )
        .await?;
        Listed::decoded(&found, from_row)
    }

    /// `GET /recurring-invoices/{id}/invoices`: the invoices the schedule made, as
    /// `GET /invoices` lists them (its filters, sorts and pages), counted row by row.
    pub async fn recurring_invoices_made(
        &self,
        ctx: Ctx,
        id: RecurringInvoiceId,
        q: &InvoiceListQuery,
    ) -> Result<Listed<Invoice>, StoreError> {
        let reader = self.reader().await?;
        let db = &*reader;
        read(db, id.get()).await?;
        let sql = InvoiceKind::sql();
        let mut select = filtered(sql, q, |s, status| {
            InvoiceKind::push_status(s, *status, ctx.today)
        });
        select.push_with(" AND b.recurring_invoice_id = {}", id.get());
        let view = self.view(ctx);
        let load = |ids: Vec<i64>| async move { load_many::<InvoiceKind>(db, &ids, view).await };
        page(
            db,
            sql.list_bytes,
            select,
            None,
            InvoiceKind::sort_key(q.params.sort),
            q,
            load,
            |invoice: &Invoice| invoice.id.get(),
        )
        .await
    }

    /// `POST /recurring-invoices`: the schedule, its template checked by making its first
    /// invoice (rolled back), every failing field at once; its next date is its start.
    pub async fn create_recurring_invoice(
        &self,
        ctx: Ctx,
        input: &RecurringInput,
    ) -> Result<RecurringInvoice, StoreError> {
        let tx = self.begin().await?;
        let mut errors = input.errors().clone();
        let zone = company_zone(&tx).await?;
        let fields = input.apply(None, &zone, &mut errors);
        let template = input.template(None);
        self.check(&tx, ctx, &template, fields.as_ref(), &mut errors)
            .await?;
        errors.into_result().map_err(StoreError::Invalid)?;
        let (fields, schedule) = checked(fields)?;
        let (index, next, status) = standing(&fields, &schedule, None);
        let row = tx
            .row(
                INSERT_SQL,
                &[
                    &client_of(&template)?,
                    &template_text(&template)?,
                    &fields.frequency.as_str(),
                    &to_i32(fields.interval),
                    &fields.start_date,
                    &fields.end_date,
                    &fields.count.map(to_i32),
                    &to_i32(fields.due_days),
                    &fields.auto_publish,
                    &fields.catch_up.as_str(),
                    &status.as_str(),
                    &fields.timezone,
                    &to_i32(index),
                    &next,
                    &ctx.actor.get(),
                ],
            )
            .await?;
        let id: i64 = rows::get(&row, "id")?;
        let record = read(&tx, id).await?;
        tx.emit(EventType::RecurringInvoiceCreated, id, &record)?;
        tx.commit().await?;
        Ok(record)
    }

    /// `PATCH /recurring-invoices/{id}`: the fields sent, checked with the stored ones (a
    /// template field sent checks the whole template again). A changed rule goes on after
    /// the last occurrence made: nothing is made twice, nothing before it is made.
    pub async fn update_recurring_invoice(
        &self,
        ctx: Ctx,
        id: RecurringInvoiceId,
        input: &RecurringInput,
    ) -> Result<RecurringInvoice, StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id.get()).await?;
        let current = read(&tx, id.get()).await?;
        tx.if_match(async { Ok(current.clone()) }).await?;
        let mut errors = input.errors().clone();
        let zone = company_zone(&tx).await?;
        let fields = input.apply(Some(&current.fields()), &zone, &mut errors);
        let template = input.template(Some(&current.template));
        if input.sends_template() {
            self.check(&tx, ctx, &template, fields.as_ref(), &mut errors)
                .await?;
        }
        errors.into_result().map_err(StoreError::Invalid)?;
        let (fields, schedule) = checked(fields)?;
        let last: Option<NaiveDate> =
            rows::get(&tx.row(LAST_OCCURRENCE_SQL, &[&id.get()]).await?, "last")?;
        let (index, next, status) = standing(&fields, &schedule, last);
        tx.run(
            UPDATE_SQL,
            &[
                &id.get(),
                &client_of(&template)?,
                &template_text(&template)?,
                &fields.frequency.as_str(),
                &to_i32(fields.interval),
                &fields.start_date,
                &fields.end_date,
                &fields.count.map(to_i32),
                &to_i32(fields.due_days),
                &fields.auto_publish,
                &fields.catch_up.as_str(),
                &status.as_str(),
                &fields.timezone,
                &to_i32(index),
                &next,
            ],
        )
        .await?;
        let record = read(&tx, id.get()).await?;
        tx.emit(EventType::RecurringInvoiceUpdated, id.get(), &record)?;
        tx.commit().await?;
        Ok(record)
    }

    /// `DELETE /recurring-invoices/{id}`: the schedule and its occurrences; the invoices it
    /// made stay (their `recurring_invoice_id` becomes null).
    pub async fn delete_recurring_invoice(
        &self,
        _ctx: Ctx,
        id: RecurringInvoiceId,
    ) -> Result<(), StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id.get()).await?;
        let current = read(&tx, id.get()).await?;
        tx.if_match(async { Ok(current) }).await?;
        tx.run(DELETE_SQL, &[&id.get()]).await?;
        tx.emit_deleted(EventType::RecurringInvoiceDeleted, id.get())?;
        tx.commit().await
    }

    /// Adds to `errors` what the invoice `template` makes on the schedule's start date
    /// (today when the schedule's own fields failed) would be refused for.
    async fn check(
        &self,
        tx: &Tx,
        ctx: Ctx,
        template: &RawMap,
        fields: Option<&ScheduleFields>,
        errors: &mut crm_core::validation::FieldErrors,
    ) -> Result<(), StoreError> {
        let (date, due_days) = fields
            .map_or((ctx.today, crm_core::recurring::DEFAULT_DUE_DAYS), |f| {
                (f.start_date, f.due_days)
            });
        errors
            .merge(generate::check_template(self, tx, template, date, due_days, ctx.actor).await?);
        Ok(())
    }
}

/// The fields of a request that passed, with their date rule.
fn checked(fields: Option<ScheduleFields>) -> Result<(ScheduleFields, Schedule), StoreError> {
    let fields = fields
        .ok_or_else(|| StoreError::Internal("schedule fields refused without errors".into()))?;
    let schedule = fields
        .schedule()
        .map_err(|e| StoreError::Internal(format!("a checked schedule: {e}")))?;
    Ok((fields, schedule))
}

/// A count or a number of days as its column's type (crm-core bounds them far below).
fn to_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The client a checked template names.
fn client_of(template: &RawMap) -> Result<i64, StoreError> {
    match template.get("client_id") {
        Some(RawValue::Number(n) | RawValue::Text(n)) => n
            .trim()
            .parse::<i64>()
            .ok()
            .and_then(ClientId::new)
            .map(ClientId::get)
            .ok_or_else(|| corrupt("template client id", n)),
        _ => Err(StoreError::Internal("a template without its client".into())),
    }
}

/// The template as its JSON column's text.
fn template_text(template: &RawMap) -> Result<String, StoreError> {
    serde_json::to_string(template).map_err(|e| StoreError::Internal(e.to_string()))
}

/// A kept template's JSON as raw input again.
fn template_of_json(text: &str) -> Result<RawMap, StoreError> {
    fn value(v: serde_json::Value) -> RawValue {
        match v {
            serde_json::Value::Null => RawValue::Null,
            serde_json::Value::Bool(b) => RawValue::Bool(b),
            serde_json::Value::Number(n) => RawValue::Number(n.to_string()),
            serde_json::Value::String(s) => RawValue::Text(s),
            serde_json::Value::Array(values) => {
                RawValue::List(values.into_iter().map(value).collect())
            }
            serde_json::Value::Object(map) => {
                RawValue::Map(map.into_iter().map(|(k, v)| (k, value(v))).collect())
            }
        }
    }
    match serde_json::from_str(text) {
        Ok(serde_json::Value::Object(map)) => {
            Ok(map.into_iter().map(|(k, v)| (k, value(v))).collect())
        }
        _ => Err(corrupt("recurring invoice template", text)),
    }
}

/// Locks a schedule's row; an unknown one is `NotFound(RecurringInvoice)`.
async fn lock(db: &impl Db, id: i64) -> Result<(), StoreError> {
    db.row_opt(LOCK_SQL, &[&id])
        .await?
        .map(drop)
        .ok_or(StoreError::NotFound(Resource::RecurringInvoice))
}

/// Reads one schedule (in or out of a transaction).
async fn read(db: &impl Db, id: i64) -> Result<RecurringInvoice, StoreError> {
    let row = db
        .row_opt(READ_SQL, &[&id])
        .await?
        .ok_or(StoreError::NotFound(Resource::RecurringInvoice))?;
    from_row(&row)
}

/// A non-negative integer column.
fn unsigned(row: &Row, column: &str) -> Result<u32, StoreError> {
    let n: i32 = rows::get(row, column)?;
    u32::try_from(n).map_err(|_| corrupt(column, n))
}

/// Decodes a row of [`READ_SQL`] (or of the list).
fn from_row(row: &Row) -> Result<RecurringInvoice, StoreError> {
    let template: String = rows::get(row, "template")?;
    let count: Option<i32> = rows::get(row, "count")?;
    Ok(RecurringInvoice {
        id: rows::id(row, "id", RecurringInvoiceId::new)?,
        template: template_of_json(&template)?,
        frequency: rows::choice(row, "frequency")?,
        interval: unsigned(row, "interval")?,
        start_date: rows::get(row, "start_date")?,
        end_date: rows::get(row, "end_date")?,
        count: count
            .map(|c| u32::try_from(c).map_err(|_| corrupt("count", c)))
            .transpose()?,
        due_days: unsigned(row, "due_days")?,
        auto_publish: rows::get(row, "auto_publish")?,
        catch_up: rows::choice(row, "catch_up")?,
        status: rows::choice(row, "status")?,
        next_date: rows::get(row, "next_date")?,
        timezone: rows::get(row, "timezone")?,
        invoices_made: unsigned(row, "invoices_made")?,
        creator_id: rows::opt_id(row, "creator_id", UserId::new)?,
        dates: rows::record_dates(row)?,
    })
}
