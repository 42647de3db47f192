//! Reading invoices: one statement gives whole records (header, names, the estimate link,
//! lines, taxes, tags) for any number of ids, on the shared reader or inside a transaction.

use chrono::NaiveDate;
use crm_core::conflict::Resource;
use crm_core::ids::{EstimateId, InvoiceId};
use crm_core::invoice::{Invoice, InvoiceDates};
use tokio_postgres::Row;

use super::{new_id, stored_status};
use crate::bills::decode;
use crate::db::Db;
use crate::{Ctx, Store, StoreError, rows};

/// Whole invoices for the ids in `$1` (in no particular order).
const INVOICES_SQL: &str = super::SQL.records;

/// The invoices among `ids`, whole, in no particular order; the shown status is derived
/// for `today`.
pub(super) async fn load_many(
    db: &impl Db,
    ids: &[i64],
    today: NaiveDate,
) -> Result<Vec<Invoice>, StoreError> {
    let found = db.rows(INVOICES_SQL, &[&ids]).await?;
    found.iter().map(|row| decode(row, today)).collect()
}

/// Invoice `id`, whole; `NotFound` when missing.
pub(crate) async fn load(
    db: &impl Db,
    id: InvoiceId,
    today: NaiveDate,
) -> Result<Invoice, StoreError> {
    load_many(db, &[id.get()], today)
        .await?
        .pop()
        .ok_or(StoreError::NotFound(Resource::Invoice))
}

pub(super) fn decode(row: &Row, today: NaiveDate) -> Result<Invoice, StoreError> {
    let due_date: Option<NaiveDate> = rows::get(row, "due_date")?;
    let c = decode::common(row)?;
    Ok(Invoice {
        id: new_id(c.id)?,
        status: stored_status(row, "status_id")?.shown(due_date, today),
        client: c.client,
        project_id: c.project_id,
        category: c.category,
        dates: InvoiceDates {
            date: c.date,
            due_date,
            created: c.created,
        },
        notes: c.notes,
        terms: c.terms,
        tax_type: c.tax_type,
        totals: c.totals,
        estimate_id: rows::opt_id(row, "estimate_id", EstimateId::new)?,
        line_items: c.line_items,
        taxes: c.taxes,
        tags: c.tags,
    })
}

impl Store {
    /// `GET /invoices/{id}`: the invoice, whole, in one statement.
    pub async fn invoice(&self, ctx: Ctx, id: InvoiceId) -> Result<Invoice, StoreError> {
        let reader = self.reader().await?;
        load(&*reader, id, ctx.today).await
    }
}
