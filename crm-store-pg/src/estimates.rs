//! Estimates (`/api/estimates`, API.md §5), and the invoice that converting one creates.
//!
//! Document estimates (`is_document`: the backing estimates of contracts) are invisible
//! here: every statement of this module filters them out, so for every operation their ids
//! are "Estimate not found.".
//!
//! **Reads are one statement** ([`read`]): the header with its client and category names,
//! the converted invoice's id, and the lines, taxes and tags aggregated per estimate (lines
//! and taxes as JSON whose numbers are text, so no precision is lost). One statement means
//! one round trip and one snapshot: a response never mixes the lines of one item
//! replacement with the totals of another. A list is two statements: the page of ids with
//! the total ([`crate::sql::page`]), then that same full-record statement for the page's
//! ids (`= ANY($1)`).
//!
//! **Writes are one transaction each**, which first locks the estimate row:
//!
//! | operation | locks |
//! |---|---|
//! | create | nothing (a new row) |
//! | update, replace items, delete, set tags, publish, send email, convert, make or revoke the link | the estimate row, `FOR UPDATE` |
//! | set status | the estimate row, `FOR UPDATE` |
//! | clone | the source estimate row, `FOR SHARE`: waits for its writers and holds them off until commit, readers are not blocked |
//!
//! Locking first serialises every change of one estimate, so concurrent item replacements
//! leave one request's lines with the totals computed from exactly those lines. Totals are
//! computed by crm-core ([`crm_core::totals::compute`], the store's policy) whenever the
//! header or the lines change, and stored with the lines in the same transaction.

use chrono::NaiveDate;
use crm_core::bill::{EstimateKind, Lock};
use crm_core::conflict::Resource;
use crm_core::estimate::{Estimate, EstimateSort, ShownStatus, StatusChange, StoredStatus, status};
use crm_core::ids::EstimateId;
use crm_core::numbering::Series;
use crm_core::webhook::EventType;
use tokio_postgres::Row;

use crate::bills::kind::StoredBill;
use crate::bills::list::CountedStatus;
use crate::bills::{self, BillSql, LockMode, Locked};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::sql::{SortKey, Sql};
use crate::tags::TagOwner;

mod convert;
mod list;
mod read;

/// The estimate's statements of the shared bill machinery. Document estimates (contracts'
/// backing estimates) are not listed: every statement leaves them out.
const SQL: BillSql = bill_sql! {
    resource: Resource::Estimate,
    table: "estimates",
    lines: "estimate_lines",
    taxes: "estimate_taxes",
    owner: "estimate_id",
    end: "expiry_date",
    status: "status",
    draft: "'draft'",
    listed: " AND NOT is_document",
    listed_b: "NOT b.is_document",
    extra: "b.status, b.expiry_date, (SELECT i.id FROM invoices i WHERE i.estimate_id = b.id) AS invoice_id, \
        b.client_decision, b.client_reason, b.client_decided_at, b.number, b.revised_at",
    tag_owner: TagOwner::Estimate,
    queue_email: "INSERT INTO email_queue (recipient, subject, template, resource_type, resource_id, \
        estimate_id, body_id, queued_by) VALUES ($1, $2, $3, 'estimate', $4, $4, $5, $6)",
    delete_pending_emails: "DELETE FROM email_queue WHERE estimate_id = $1 AND status = 'pending'",
    publish: "UPDATE estimates SET status = $2, published_at = now(), updated_at = now(), \
        agreed_digest = estimate_agreed_digest(id) WHERE id = $1",
};

/// `PUT /estimates/{id}/status`: any of the five statuses, from any status.
const SET_STATUS_SQL: &str =
    "UPDATE estimates SET status = $2, updated_at = now() WHERE id = $1 AND NOT is_document";

/// Numbers estimate `$1` with `$2` unless it has a number (published before, set back to
/// draft and published again: it keeps its first number).
const NUMBER_SQL: &str = "UPDATE estimates SET number = $2 WHERE id = $1 AND number IS NULL";

/// After a write of estimate `$1`'s offer (its header or items): its digest is brought up
/// to date, and when a published estimate still open for a decision (stored `new`,
/// `declined` or `revised`) now offers something else, it is revised (`revised_at`) and a
/// decline made on the earlier offer is withdrawn (status `new` again, the response
/// cleared; the decision stays in `estimate_decisions`, marked withdrawn). Returns the
/// stored status before and whether the offer changed.
const REVISE_SQL: &str = "\
WITH d AS (SELECT estimate_agreed_digest($1) AS digest), \
old AS (SELECT e.status, e.agreed_digest IS NOT NULL AND e.agreed_digest <> d.digest AS changed \
          FROM estimates e, d WHERE e.id = $1), \
upd AS (UPDATE estimates e SET agreed_digest = d.digest, \
    revised_at = CASE WHEN old.changed AND old.status IN ('new', 'declined', 'revised') \
                      THEN now() ELSE e.revised_at END, \
    status = CASE WHEN old.changed AND old.status = 'declined' THEN 'new' ELSE e.status END, \
    client_decision = CASE WHEN old.changed AND old.status = 'declined' THEN NULL ELSE e.client_decision END, \
    client_reason = CASE WHEN old.changed AND old.status = 'declined' THEN NULL ELSE e.client_reason END, \
    client_decided_at = CASE WHEN old.changed AND old.status = 'declined' THEN NULL ELSE e.client_decided_at END \
  FROM d, old WHERE e.id = $1 RETURNING old.status, old.changed) \
UPDATE estimate_decisions SET withdrawn_at = now() \
 WHERE estimate_id = $1 AND withdrawn_at IS NULL \
   AND EXISTS (SELECT 1 FROM upd WHERE upd.changed AND upd.status = 'declined')";

/// Locks estimate `id` (see [`bills::lock`]) and gives its stored status with the header.
async fn lock(
    db: &impl Db,
    id: EstimateId,
    mode: LockMode,
) -> Result<(StoredStatus, Locked), StoreError> {
    let locked = bills::lock(db, &SQL, id.get(), mode).await?;
    Ok((rows::choice(&locked.row, "status")?, locked))
}

impl StoredBill for EstimateKind {
    fn sql() -> &'static BillSql {
        &SQL
    }

    fn decode(row: &Row, view: crate::bills::kind::View<'_>) -> Result<Estimate, StoreError> {
        read::decode(row, view)
    }

    fn sort_key(sort: Option<EstimateSort>) -> SortKey {
        list::sort_key(sort)
    }

    fn push_status(select: &mut Sql, status: ShownStatus, today: NaiveDate) {
        list::push_status(select, status, today);
    }

    fn counted_status(status: ShownStatus) -> CountedStatus {
        let c = status.conditions();
        CountedStatus {
            stored: vec![c.stored.as_str().to_owned()],
            before_today: c.expired,
        }
    }

    /// The offer may have changed: the estimate is revised where it was published, and a
    /// decline of the earlier offer withdrawn ([`REVISE_SQL`]).
    async fn totals_changed(db: &Tx, id: i64, _field: &'static str) -> Result<(), StoreError> {
        db.run(REVISE_SQL, &[&id]).await?;
        Ok(())
    }

    async fn publish(db: &Tx, id: i64, locked: &Locked, day: NaiveDate) -> Result<(), StoreError> {
        let published = status::publish(rows::choice(&locked.row, "status")?)?;
        db.run(SQL.publish, &[&id, &published.as_str()]).await?;
        if locked.number.is_none() {
            let number = crate::numbers::next(db, Series::Estimate, day).await?;
            db.run(NUMBER_SQL, &[&id, &number]).await?;
        }
        Ok(())
    }

    async fn keep_parties(_: &Tx, _: &str, _: i64) -> Result<(), StoreError> {
        Ok(())
    }

    fn lock_state(locked: &Locked) -> Result<Lock, StoreError> {
        Ok(status::lock(rows::choice(&locked.row, "status")?))
    }

    fn check_send_email(locked: &Locked) -> Result<(), StoreError> {
        Ok(status::check_send_email(rows::choice(
            &locked.row,
            "status",
        )?)?)
    }

    /// Any of the five statuses, but an accepted estimate keeps its own
    /// ([`status::check_status_change`]).
    async fn set_status(
        db: &Tx,
        id: i64,
        cmd: &StatusChange,
        _day: NaiveDate,
    ) -> Result<EventType, StoreError> {
        // The lock answers NotFound for no such (listed) estimate.
        let locked = bills::lock(db, &SQL, id, LockMode::Update).await?;
        status::check_status_change(rows::choice(&locked.row, "status")?, cmd.status)?;
        db.run(SET_STATUS_SQL, &[&id, &cmd.status.as_str()]).await?;
        Ok(match cmd.status {
            StoredStatus::Accepted => EventType::EstimateAccepted,
            StoredStatus::Declined => EventType::EstimateDeclined,
            _ => EventType::EstimateUpdated,
        })
    }
}
