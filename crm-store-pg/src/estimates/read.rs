//! Reading estimates: one statement gives whole records (header, names, conversion, lines,
//! taxes, tags) for any number of ids, on the shared reader or inside a transaction.

use chrono::NaiveDate;
use crm_core::conflict::Resource;
use crm_core::estimate::{Converted, Estimate, EstimateDates, ShownStatus};
use crm_core::ids::{CategoryId, ClientId, EstimateId, InvoiceId, Named, ProjectId};
use tokio_postgres::Row;

use super::bill;
use crate::db::Db;
use crate::{Ctx, Store, StoreError, rows};

/// Whole listed estimates for the ids in `$1` (in no particular order).
const ESTIMATES_SQL: &str = concat!(
    "SELECT e.id, e.status, e.client_id, c.company_name AS client_name, e.project_id, e.category_id, ",
    "g.name AS category_name, e.date, e.expiry_date, e.created_at, e.notes, e.terms, e.tax_type, ",
    totals_columns!("e"),
    ", (SELECT i.id FROM invoices i WHERE i.estimate_id = e.id) AS invoice_id, ",
    lines_json!("estimate_lines", "estimate_id", "e.id"),
    " AS lines, ",
    taxes_json!("estimate_taxes", "estimate_id", "e.id"),
    " AS taxes, ARRAY(SELECT t.title FROM tags t WHERE t.estimate_id = e.id ORDER BY t.position) AS tags ",
    "FROM estimates e JOIN clients c ON c.id = e.client_id JOIN categories g ON g.id = e.category_id ",
    "WHERE e.id = ANY($1) AND NOT e.is_document"
);

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

fn decode(row: &Row, today: NaiveDate) -> Result<Estimate, StoreError> {
    let expiry_date: Option<NaiveDate> = rows::get(row, "expiry_date")?;
    let invoice_id = rows::opt_id(row, "invoice_id", InvoiceId::new)?;
    Ok(Estimate {
        id: rows::id(row, "id", EstimateId::new)?,
        status: ShownStatus::derive(rows::choice(row, "status")?, expiry_date, today),
        client: Named {
            id: rows::id(row, "client_id", ClientId::new)?,
            name: rows::get(row, "client_name")?,
        },
        project_id: rows::opt_id(row, "project_id", ProjectId::new)?,
        category: Named {
            id: rows::id(row, "category_id", CategoryId::new)?,
            name: rows::get(row, "category_name")?,
        },
        dates: EstimateDates {
            date: rows::get(row, "date")?,
            expiry_date,
            created: rows::timestamp(row, "created_at")?,
        },
        notes: rows::get(row, "notes")?,
        terms: rows::get(row, "terms")?,
        tax_type: rows::choice(row, "tax_type")?,
        totals: bill::totals(row)?,
        converted: Converted {
            is_converted: invoice_id.is_some(),
            invoice_id,
        },
        line_items: bill::line_items(row, "lines")?,
        taxes: bill::taxes(row, "taxes")?,
        tags: rows::get(row, "tags")?,
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
