//! Reading invoices: one statement gives whole records (header, names, the estimate link,
//! lines, taxes, tags) for any number of ids, on the shared reader or inside a transaction.

use chrono::NaiveDate;
use crm_core::ids::{EstimateId, RecurringInvoiceId};
use crm_core::invoice::{Invoice, InvoiceDates, InvoiceTotals};
use tokio_postgres::Row;

use super::{new_id, stored_status};
use crate::bills::decode;
use crate::bills::kind::View;
use crate::bills::link::link_of;
use crate::error::StoreError;
use crate::error::corrupt;
use crate::rows;

pub(crate) use crate::bills::kind::load;

/// An invoice from a row of its records statement, its shown status derived for
/// `view.today`, its totals with what its payments add up to.
pub(super) fn decode(row: &Row, view: View<'_>) -> Result<Invoice, StoreError> {
    let due_date: Option<NaiveDate> = rows::get(row, "due_date")?;
    let c = decode::common(row)?;
    let totals = InvoiceTotals::new(
        c.totals,
        rows::money(row, "amount_paid")?,
        rows::money(row, "amount_credited")?,
        rows::money(row, "amount_applied")?,
    )
    .map_err(|e| corrupt("invoice balance", e))?;
    Ok(Invoice {
        id: new_id(c.id)?,
        number: rows::get(row, "number")?,
        status: stored_status(row, "status_id")?.shown(due_date, view.today),
        client: c.client,
        project_id: c.project_id,
        category: c.category,
        dates: InvoiceDates {
            date: c.date,
            due_date,
            created: c.created,
            issued: rows::opt_timestamp(row, "issued_at")?,
        },
        notes: c.notes,
        terms: c.terms,
        tax_type: c.tax_type,
        currency: c.currency,
        exchange_rate: c.exchange.map(|e| e.rate),
        totals,
        estimate_id: rows::opt_id(row, "estimate_id", EstimateId::new)?,
        recurring_invoice_id: rows::opt_id(row, "recurring_invoice_id", RecurringInvoiceId::new)?,
        line_items: c.line_items,
        taxes: c.taxes,
        tags: c.tags,
        client_link: link_of(row, view.public_url)?,
        parties: crate::issued::stored(row, "parties")?,
    })
}
