//! `POST /estimates/{id}/convert-to-invoice`: the invoice converting an estimate creates.
//!
//! The estimate row is locked `FOR UPDATE`; whether it was converted is read by a separate
//! statement after the lock is held (in READ COMMITTED a new statement sees the invoice a
//! conversion that held the lock before us committed; the locking statement itself would
//! not). The unique index `invoices_estimate_key` is the backstop: a second invoice for the
//! same estimate is a unique violation, mapped to the same 409.

use crm_core::bill;
use crm_core::estimate::status;
use crm_core::ids::{EstimateId, InvoiceId};
use crm_core::invoice::{Invoice, InvoiceStatus};
use crm_core::webhook::EventType;

use super::lock;
use crate::bills::LockMode;
use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::store::{Ctx, Store};

const CONVERTED_SQL: &str =
    "SELECT EXISTS (SELECT 1 FROM invoices WHERE estimate_id = $1) AS converted";

const DEFAULT_CATEGORY_SQL: &str =
    "SELECT id FROM categories WHERE type = 'invoice' AND system_default ORDER BY id LIMIT 1";

/// The invoice header: dates, status and category given, the rest copied from estimate `$1`
/// (its totals policy, currency and exchange rate too: the invoice's figures are the
/// estimate's).
const INSERT_INVOICE_SQL: &str = "INSERT INTO invoices (estimate_id, client_id, project_id, category_id, date, \
     due_date, status_id, tax_type, discount_type, discount_percentage, discount_amount, subtotal, \
     subtotal_before_discount, amount_before_tax, tax_total_percentage, tax_total_amount, adjustment_description, \
     adjustment_amount, final_amount, notes, terms, creator_id, totals_policy, currency, exchange_rate, \
     exchange_currency) \
     SELECT e.id, e.client_id, e.project_id, $2, $3, $4, $5, e.tax_type, e.discount_type, e.discount_percentage, \
     e.discount_amount, e.subtotal, e.subtotal_before_discount, e.amount_before_tax, e.tax_total_percentage, \
     e.tax_total_amount, e.adjustment_description, e.adjustment_amount, e.final_amount, e.notes, e.terms, $6, \
     e.totals_policy, e.currency, e.exchange_rate, e.exchange_currency \
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

impl Store {
    /// `POST /estimates/{id}/convert-to-invoice`: creates the invoice (Draft, the
    /// system-default invoice category, dated `ctx.today`, due [`bill::due_date`]) with
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
            &bill::due_date(ctx.today),
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
        let invoice_id = invoice;
        let invoice = crate::invoices::load(&tx, invoice, self.view(ctx)).await?;
        tx.emit(EventType::InvoiceCreated, invoice_id.get(), &invoice)?;
        tx.emit(EventType::EstimateConverted, id.get(), &invoice)?;
        tx.commit().await?;
        Ok(invoice)
    }
}
