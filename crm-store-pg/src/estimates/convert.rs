//! `POST /estimates/{id}/convert-to-invoice`: the invoice converting an estimate creates,
//! and reading it back.
//!
//! The estimate row is locked `FOR UPDATE`; whether it was converted is read by a separate
//! statement after the lock is held (in READ COMMITTED a new statement sees the invoice a
//! conversion that held the lock before us committed; the locking statement itself would
//! not). The unique index `invoices_estimate_key` is the backstop: a second invoice for the
//! same estimate is a unique violation, mapped to the same 409.

use chrono::NaiveDate;
use crm_core::estimate::status;
use crm_core::ids::{CategoryId, ClientId, EstimateId, InvoiceId, Named, ProjectId};
use crm_core::invoice::{self, Invoice, InvoiceDates, InvoiceStatus};
use tokio_postgres::Row;

use super::{LockMode, bill, lock};
use crate::db::Db;
use crate::{Ctx, Store, StoreError, rows};

const CONVERTED_SQL: &str =
    "SELECT EXISTS (SELECT 1 FROM invoices WHERE estimate_id = $1) AS converted";

const DEFAULT_CATEGORY_SQL: &str =
    "SELECT id FROM categories WHERE type = 'invoice' AND system_default ORDER BY id LIMIT 1";

/// The invoice header: dates, status and category given, the rest copied from estimate `$1`.
const INSERT_INVOICE_SQL: &str = "INSERT INTO invoices (estimate_id, client_id, project_id, category_id, date, \
     due_date, status_id, tax_type, discount_type, discount_percentage, discount_amount, subtotal, \
     subtotal_before_discount, amount_before_tax, tax_total_percentage, tax_total_amount, adjustment_description, \
     adjustment_amount, final_amount, notes, terms, creator_id) \
     SELECT e.id, e.client_id, e.project_id, $2, $3, $4, $5, e.tax_type, e.discount_type, e.discount_percentage, \
     e.discount_amount, e.subtotal, e.subtotal_before_discount, e.amount_before_tax, e.tax_total_percentage, \
     e.tax_total_amount, e.adjustment_description, e.adjustment_amount, e.final_amount, e.notes, e.terms, $6 \
     FROM estimates e WHERE e.id = $1 RETURNING id";

const COPY_LINES_SQL: &str = "INSERT INTO invoice_lines (invoice_id, position, description, long_description, \
     unit, quantity, rate, total, type, tax_status, discount_type, discount_value, discount_amount, tax_rate_id) \
     SELECT $2, position, description, long_description, unit, quantity, rate, total, type, tax_status, \
     discount_type, discount_value, discount_amount, tax_rate_id \
     FROM estimate_lines WHERE estimate_id = $1 ORDER BY position";

/// Tax records copied in order, a line's record pointing at the invoice line at the same
/// position.
const COPY_TAXES_SQL: &str = "INSERT INTO invoice_taxes (invoice_id, line_id, tax_rate_id, name, rate) \
     SELECT $2, n.id, t.tax_rate_id, t.name, t.rate FROM estimate_taxes t \
     LEFT JOIN estimate_lines o ON o.id = t.line_id \
     LEFT JOIN invoice_lines n ON n.invoice_id = $2 AND n.position = o.position \
     WHERE t.estimate_id = $1 ORDER BY t.id";

/// The whole invoice `$1`.
const INVOICE_SQL: &str = concat!(
    "SELECT i.id, i.status_id, i.client_id, c.company_name AS client_name, i.project_id, i.category_id, ",
    "g.name AS category_name, i.date, i.due_date, i.created_at, i.notes, i.terms, i.tax_type, i.estimate_id, ",
    totals_columns!("i"),
    ", ",
    lines_json!("invoice_lines", "invoice_id", "i.id"),
    " AS lines, ",
    taxes_json!("invoice_taxes", "invoice_id", "i.id"),
    " AS taxes, ARRAY(SELECT t.title FROM tags t WHERE t.invoice_id = i.id ORDER BY t.position) AS tags ",
    "FROM invoices i JOIN clients c ON c.id = i.client_id JOIN categories g ON g.id = i.category_id ",
    "WHERE i.id = $1"
);

impl Store {
    /// `POST /estimates/{id}/convert-to-invoice`: creates the invoice (Draft, the
    /// system-default invoice category, dated `ctx.today`, due [`invoice::due_date`]) with
    /// copies of the estimate's client, project, tax type, discount, totals, adjustment,
    /// notes, terms, line items and tax records, linked to the estimate. The estimate's
    /// status is unchanged. Converting twice → 409.
    pub async fn convert_estimate(&self, ctx: Ctx, id: EstimateId) -> Result<Invoice, StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id, LockMode::Update).await?;
        let converted: bool = rows::get(&tx.row(CONVERTED_SQL, &[&id.get()]).await?, "converted")?;
        status::check_convert(converted)?;
        let category = tx
            .row_opt(DEFAULT_CATEGORY_SQL, &[])
            .await?
            .ok_or_else(|| StoreError::Internal("no system-default invoice category".into()))?;
        let category: i64 = rows::get(&category, "id")?;
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 6] = [
            &id.get(),
            &category,
            &ctx.today,
            &invoice::due_date(ctx.today),
            &InvoiceStatus::Draft.id(),
            &ctx.actor.get(),
        ];
        let invoice = rows::id(
            &tx.row(INSERT_INVOICE_SQL, &params).await?,
            "id",
            InvoiceId::new,
        )?;
        tx.run(COPY_LINES_SQL, &[&id.get(), &invoice.get()]).await?;
        tx.run(COPY_TAXES_SQL, &[&id.get(), &invoice.get()]).await?;
        let invoice = load_invoice(&tx, invoice).await?;
        tx.commit().await?;
        Ok(invoice)
    }
}

/// Invoice `id`, whole.
async fn load_invoice(db: &impl Db, id: InvoiceId) -> Result<Invoice, StoreError> {
    let row = db.row(INVOICE_SQL, &[&id.get()]).await?;
    decode_invoice(&row)
}

fn decode_invoice(row: &Row) -> Result<Invoice, StoreError> {
    let status_id: i16 = rows::get(row, "status_id")?;
    Ok(Invoice {
        id: rows::id(row, "id", InvoiceId::new)?,
        status: InvoiceStatus::from_id(status_id)
            .ok_or_else(|| crate::error::corrupt("invoice status", status_id))?,
        client: Named {
            id: rows::id(row, "client_id", ClientId::new)?,
            name: rows::get(row, "client_name")?,
        },
        project_id: rows::opt_id(row, "project_id", ProjectId::new)?,
        category: Named {
            id: rows::id(row, "category_id", CategoryId::new)?,
            name: rows::get(row, "category_name")?,
        },
        dates: InvoiceDates {
            date: rows::get::<NaiveDate>(row, "date")?,
            due_date: rows::get(row, "due_date")?,
            created: rows::timestamp(row, "created_at")?,
        },
        notes: rows::get(row, "notes")?,
        terms: rows::get(row, "terms")?,
        tax_type: rows::choice(row, "tax_type")?,
        totals: bill::totals(row)?,
        estimate_id: rows::opt_id(row, "estimate_id", EstimateId::new)?,
        line_items: bill::line_items(row, "lines")?,
        taxes: bill::taxes(row, "taxes")?,
        tags: rows::get(row, "tags")?,
    })
}
