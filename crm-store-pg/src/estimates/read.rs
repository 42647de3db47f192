//! Reading estimates: one statement gives whole records (header, names, conversion, lines,
//! taxes, tags) for any number of ids, on the shared reader or inside a transaction.

use chrono::NaiveDate;
use crm_core::estimate::{ClientResponse, Converted, Estimate, EstimateDates, ShownStatus};
use crm_core::ids::{EstimateId, InvoiceId};
use tokio_postgres::Row;

use crate::bills::decode;
use crate::bills::kind::View;
use crate::bills::link::link_of;
use crate::error::StoreError;
use crate::error::corrupt;
use crate::rows;

/// An estimate from a row of its records statement, its shown status derived for
/// `view.today`.
pub(super) fn decode(row: &Row, view: View<'_>) -> Result<Estimate, StoreError> {
    let expiry_date: Option<NaiveDate> = rows::get(row, "expiry_date")?;
    let invoice_id = rows::opt_id(row, "invoice_id", InvoiceId::new)?;
    let c = decode::common(row)?;
    Ok(Estimate {
        id: EstimateId::new(c.id).ok_or_else(|| corrupt("estimate id", c.id))?,
        number: rows::get(row, "number")?,
        status: ShownStatus::derive(rows::choice(row, "status")?, expiry_date, view.today),
        client: c.client,
        project_id: c.project_id,
        category: c.category,
        dates: EstimateDates {
            date: c.date,
            expiry_date,
            created: c.created,
            revised: rows::opt_timestamp(row, "revised_at")?,
        },
        notes: c.notes,
        terms: c.terms,
        tax_type: c.tax_type,
        currency: c.currency,
        exchange_rate: c.exchange.map(|e| e.rate),
        totals: c.totals,
        converted: Converted {
            is_converted: invoice_id.is_some(),
            invoice_id,
        },
        line_items: c.line_items,
        taxes: c.taxes,
        tags: c.tags,
        client_link: link_of(row, view.public_url)?,
        client_response: response_of(row)?,
    })
}

/// An estimate's `client_response` from its row.
fn response_of(row: &Row) -> Result<Option<ClientResponse>, StoreError> {
    let decision: Option<String> = rows::get(row, "client_decision")?;
    if decision.is_none() {
        return Ok(None);
    }
    Ok(Some(ClientResponse {
        decision: rows::choice(row, "client_decision")?,
        reason: rows::get(row, "client_reason")?,
        at: rows::timestamp(row, "client_decided_at")?,
    }))
}
