//! Reading estimates: one statement gives whole records (header, names, conversion, lines,
//! taxes, tags) for any number of ids, on the shared reader or inside a transaction.

use chrono::NaiveDate;
use crm_core::conflict::Resource;
use crm_core::estimate::{Converted, Estimate, EstimateDates, ShownStatus};
use crm_core::ids::{EstimateId, InvoiceId};
use tokio_postgres::Row;

use crate::bills::decode;
use crate::db::Db;
use crate::error::corrupt;
use crate::{Ctx, Store, StoreError, rows};

/// Whole listed estimates for the ids in `$1` (in no particular order).
const ESTIMATES_SQL: &str = super::SQL.records;

/// The listed estimates among `ids`, whole, in no particular order; the shown status is
/// derived for `today`.
pub(super) async fn load_many(
    db: &impl Db,
    ids: &[i64],
    today: NaiveDate,
) -> Result<Vec<Estimate>, StoreError> {
    let found = db.rows(ESTIMATES_SQL, &[&ids]).await?;
    found.iter().map(|row| decode(row, today)).collect()
}

/// Listed estimate `id`, whole; `NotFound` when missing or a document estimate.
pub(super) async fn load(
    db: &impl Db,
    id: EstimateId,
    today: NaiveDate,
) -> Result<Estimate, StoreError> {
    load_many(db, &[id.get()], today)
        .await?
        .pop()
        .ok_or(StoreError::NotFound(Resource::Estimate))
}

pub(super) fn decode(row: &Row, today: NaiveDate) -> Result<Estimate, StoreError> {
    let expiry_date: Option<NaiveDate> = rows::get(row, "expiry_date")?;
    let invoice_id = rows::opt_id(row, "invoice_id", InvoiceId::new)?;
    let c = decode::common(row)?;
    Ok(Estimate {
        id: EstimateId::new(c.id).ok_or_else(|| corrupt("estimate id", c.id))?,
        status: ShownStatus::derive(rows::choice(row, "status")?, expiry_date, today),
        client: c.client,
        project_id: c.project_id,
        category: c.category,
        dates: EstimateDates {
            date: c.date,
            expiry_date,
            created: c.created,
        },
        notes: c.notes,
        terms: c.terms,
        tax_type: c.tax_type,
        totals: c.totals,
        converted: Converted {
            is_converted: invoice_id.is_some(),
            invoice_id,
        },
        line_items: c.line_items,
        taxes: c.taxes,
        tags: c.tags,
    })
}

impl Store {
    /// `GET /estimates/{id}`: the estimate, whole, in one statement. `NotFound` for an
    /// unknown id and for a contract's backing (document) estimate.
    pub async fn estimate(&self, ctx: Ctx, id: EstimateId) -> Result<Estimate, StoreError> {
        let reader = self.reader().await?;
        load(&*reader, id, ctx.today).await
    }
}
