//! Invoices: the shared bill machinery on the invoice tables (header writes, line items and
//! totals equal to an estimate's), the status rules, the actions (publish, email, clone),
//! deletion and the estimate's conversion, lists, and concurrency.

mod actions;
mod concurrency;
mod lists;
mod writes;

use crm_core::bill::InvoiceKind;
use crm_core::ids::InvoiceId;
use crm_core::invoice::{Invoice, InvoiceUpdate, NewInvoice};

use crate::common::{Seeded, bill_patch, ctx, new_bill, queued_emails};

/// A new invoice for the first seeded client (Acme Inc, with a contact email), dated
/// 2026-11-01, in the default invoice category; `extra` adds or overrides fields.
pub(crate) async fn create(s: &Seeded, extra: &[(&str, &str)]) -> Invoice {
    let cmd = NewInvoice::parse(&new_bill(s, "invoice", extra).await).unwrap();
    s.store
        .bills::<InvoiceKind>()
        .create(ctx(), &cmd)
        .await
        .unwrap()
}

/// A PATCH with the required category and date (the invoice's own) plus `extra`.
pub(crate) fn patch(i: &Invoice, extra: &[(&str, &str)]) -> InvoiceUpdate {
    InvoiceUpdate::parse(&bill_patch(i.category.id.get(), i.dates.date, extra)).unwrap()
}

/// Queued emails of invoice `id` with `status`: (recipient, subject, template).
pub(crate) async fn emails(
    s: &Seeded,
    id: InvoiceId,
    status: &str,
) -> Vec<(String, Option<String>, String)> {
    queued_emails(s, "invoice", id.get(), status).await
}
