//! Invoices (`/api/invoices`, API.md §9): the invoice's side of the shared bill machinery
//! ([`crate::bills`]); line items, taxes, totals, PATCH, clone's copies, tags, delete and
//! the email are the estimates' code, run on the invoice tables.
//!
//! **Reads are one statement** ([`read`]), as for estimates. **Writes are one transaction
//! each**, which first locks the invoice row (`FOR UPDATE` to change it, `FOR SHARE` to
//! clone or email it); setting the status locks it by its `UPDATE`.
//!
//! What an invoice was paid is read with it (the sum of its payments, `amount_paid`), and
//! every write that changes its final amount or its status goes through its balance
//! ([`crate::payments`]): a PATCH or new items may not bring the total below what was
//! paid, and the status follows the payments.
//!
//! "One live invoice per estimate" is the unique index `invoices_estimate_key`: deleting an
//! invoice frees its estimate (the estimate's `converted` is read from `invoices`), and
//! a clone carries no estimate link.

use chrono::NaiveDate;
use crm_core::bill::{InvoiceKind, Lock};
use crm_core::conflict::Resource;
use crm_core::ids::InvoiceId;
use crm_core::invoice::{self, Invoice, InvoiceSort, InvoiceStatus, InvoiceStatusChange};
use crm_core::numbering::Series;
use crm_core::webhook::EventType;
use tokio_postgres::Row;

use crate::bills::kind::StoredBill;
use crate::bills::list::CountedStatus;
use crate::bills::{self, BillSql, Locked};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::StoreError;
use crate::error::corrupt;
use crate::rows;
use crate::sql::{SortKey, Sql};
use crate::tags::TagOwner;

mod list;
mod read;

pub(crate) use read::load;

/// The invoice's statements of the shared bill machinery.
const SQL: BillSql = bill_sql! {
    resource: Resource::Invoice,
    table: "invoices",
    lines: "invoice_lines",
    taxes: "invoice_taxes",
    owner: "invoice_id",
    end: "due_date",
    status: "status_id",
    draft: "1",
    listed: "",
    listed_b: "TRUE",
    extra: "b.status_id, b.due_date, b.estimate_id, b.recurring_invoice_id, b.number, b.issued_at, \
        (SELECT COALESCE(sum(p.amount), 0) FROM payments p WHERE p.invoice_id = b.id) AS amount_paid, \
        (SELECT COALESCE(sum(c.final_amount), 0) FROM credit_notes c WHERE c.invoice_id = b.id) AS amount_credited, \
        (SELECT COALESCE(sum(c.applied_amount), 0) FROM credit_notes c WHERE c.invoice_id = b.id) AS amount_applied, \
        b.parties::text AS parties",
    tag_owner: TagOwner::Invoice,
    queue_email: "INSERT INTO email_queue (recipient, subject, template, resource_type, resource_id, \
        body_id, queued_by) VALUES ($1, $2, $3, 'invoice', $4, $5, $6)",
    delete_pending_emails: "DELETE FROM email_queue WHERE resource_type = 'invoice' AND resource_id = $1 \
        AND status = 'pending'",
    publish: SET_STATUS_SQL,
};

/// Stores an invoice's status (publishing: Due).
const SET_STATUS_SQL: &str = "UPDATE invoices SET status_id = $2, updated_at = now() WHERE id = $1";

/// Issues invoice `$1` with number `$2` (API.md §18).
const ISSUE_SQL: &str =
    "UPDATE invoices SET number = $2, issued_at = now() WHERE id = $1 AND number IS NULL";

/// Gives invoice `id`, which is being issued on `day` in the caller's transaction, the
/// next number of the invoices' series.
async fn issue(db: &impl Db, id: i64, day: NaiveDate) -> Result<(), StoreError> {
    let number = crate::numbers::next(db, Series::Invoice, day).await?;
    db.run(ISSUE_SQL, &[&id, &number]).await?;
    Ok(())
}

/// The stored status in `column` of `row`.
fn stored_status(row: &tokio_postgres::Row, column: &str) -> Result<InvoiceStatus, StoreError> {
    let id: i16 = rows::get(row, column)?;
    InvoiceStatus::from_id(id).ok_or_else(|| corrupt("invoice status", id))
}

/// Creates an invoice inside the caller's transaction, as the API would (the header
/// command, then the items through the shared bill machinery), and stores `status` (an
/// open one issues it, numbered on its date): the demo seed's invoices. Returns its id.
pub(crate) async fn create_in(
    db: &impl Db,
    policy: crm_core::totals::Policy,
    header: &crm_core::input::RawMap,
    items: &crm_core::input::RawMap,
    status: InvoiceStatus,
) -> Result<i64, StoreError> {
    let cmd = crm_core::invoice::NewInvoice::parse(header)
        .map_err(|r| StoreError::Internal(format!("seed invoice header: {:?}", r.errors)))?;
    let items = crm_core::bill::ItemsRequest::parse(items)
        .map_err(|r| StoreError::Internal(format!("seed invoice items: {:?}", r.errors)))?;
    let actor =
        crm_core::ids::UserId::new(1).ok_or_else(|| StoreError::Internal("user 1".into()))?;
    let id: i64 = rows::get(
        &bills::header::create(db, &SQL, &cmd, actor, policy).await?,
        "id",
    )?;
    bills::items::replace_items::<InvoiceKind>(db, id, items).await?;
    db.run(SET_STATUS_SQL, &[&id, &status.id()]).await?;
    if invoice::issues(false, InvoiceStatus::Draft, status) {
        // Issued on its date: the demo data is the same whatever the day it is made.
        issue(db, id, cmd.date).await?;
    }
    Ok(id)
}

/// The invoice id of a row just inserted.
fn new_id(id: i64) -> Result<InvoiceId, StoreError> {
    InvoiceId::new(id).ok_or_else(|| corrupt("new invoice id", id))
}

impl StoredBill for InvoiceKind {
    fn sql() -> &'static BillSql {
        &SQL
    }

    fn decode(row: &Row, view: crate::bills::kind::View<'_>) -> Result<Invoice, StoreError> {
        read::decode(row, view)
    }

    fn sort_key(sort: Option<InvoiceSort>) -> SortKey {
        list::sort_key(sort)
    }

    fn push_status(select: &mut Sql, status: InvoiceStatus, today: NaiveDate) {
        list::push_status(select, status, today);
    }

    fn counted_status(status: InvoiceStatus) -> CountedStatus {
        let c = status.conditions();
        CountedStatus {
            stored: c.stored.iter().map(|s| s.id().to_string()).collect(),
            before_today: c.overdue,
        }
    }

    fn totals_changed<'a>(
        db: &'a Tx,
        id: i64,
        field: &'static str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'a {
        crate::payments::retotal(db, id, field)
    }

    async fn publish(db: &Tx, id: i64, locked: &Locked, day: NaiveDate) -> Result<(), StoreError> {
        let published = invoice::publish(stored_status(&locked.row, "status")?)?;
        db.run(SQL.publish, &[&id, &published.id()]).await?;
        if invoice::issues(locked.number.is_some(), InvoiceStatus::Draft, published) {
            issue(db, id, day).await?;
        }
        Ok(())
    }

    fn keep_parties<'a>(
        db: &'a Tx,
        fallback: &'a str,
        id: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'a {
        crate::issued::freeze_invoice(db, fallback, id)
    }

    fn lock_state(locked: &Locked) -> Result<Lock, StoreError> {
        Ok(invoice::lock(locked.number.is_some()))
    }

    fn check_send_email(locked: &Locked) -> Result<(), StoreError> {
        Ok(invoice::check_send_email(stored_status(
            &locked.row,
            "status",
        )?)?)
    }

    /// Stores 1, 2, 4, 5 or 20 as far as the invoice's payments allow
    /// ([`crm_core::invoice::Balance::set_status`]: an invoice with payments is not set
    /// back to Draft or Cancelled, and Due, Part Paid and Paid must agree with what was
    /// paid) and its issue allows ([`crm_core::invoice::check_status_change`]: an issued
    /// one is never Draft again, nor Cancelled by hand). An open status issues an invoice
    /// not yet issued: it takes its number.
    async fn set_status(
        db: &Tx,
        id: i64,
        cmd: &InvoiceStatusChange,
        day: NaiveDate,
    ) -> Result<EventType, StoreError> {
        let locked = crate::payments::lock_invoice(db, id)
            .await?
            .ok_or(StoreError::NotFound(Resource::Invoice))?;
        let issued = locked.issued;
        invoice::check_status_change(issued, cmd.status)?;
        let before = locked.balance.status;
        let after = locked.balance.set_status(cmd.status)?;
        db.run(SET_STATUS_SQL, &[&id, &after.status.id()]).await?;
        if invoice::issues(issued, before, after.status) {
            issue(db, id, day).await?;
        }
        Ok(EventType::InvoiceUpdated)
    }
}
