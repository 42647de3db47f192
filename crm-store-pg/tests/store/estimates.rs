//! Estimates: reads and lists, header writes, line items and totals, the actions (publish,
//! email, clone, convert), concurrency, and the totals vectors through the database.

mod actions;
mod convert;
mod items;
mod lists;
mod parity;
mod writes;

use crm_core::bill::EstimateKind;
use crm_core::estimate::{Estimate, EstimateUpdate, NewEstimate};
use crm_core::ids::EstimateId;

use crate::common::{Seeded, bill_patch, ctx, invalid, messages, new_bill, queued_emails};
pub(crate) use crate::common::{item, items, rate_id};

/// A new estimate for the first seeded client (Acme Inc, with a contact email), dated
/// 2026-11-01, in the default estimate category; `extra` adds or overrides fields.
pub(crate) async fn create(s: &Seeded, extra: &[(&str, &str)]) -> Estimate {
    let cmd = NewEstimate::parse(&new_bill(s, "estimate", extra).await).unwrap();
    s.store
        .bills::<EstimateKind>()
        .create(ctx(), &cmd)
        .await
        .unwrap()
}

/// A PATCH with the required category and date (the estimate's own) plus `extra`.
pub(crate) fn patch(e: &Estimate, extra: &[(&str, &str)]) -> EstimateUpdate {
    EstimateUpdate::parse(&bill_patch(e.category.id.get(), e.dates.date, extra)).unwrap()
}

/// A contract's backing (document) estimate, made with SQL as the contracts area does.
pub(crate) async fn document_estimate(s: &Seeded) -> EstimateId {
    let sql = format!(
        "INSERT INTO estimates (is_document, client_id, date) VALUES (TRUE, {}, DATE '2026-11-01') RETURNING id",
        s.ids.clients[0].id
    );
    EstimateId::new(s.scalar(&sql).await).unwrap()
}

/// Pending (or other) queued emails of estimate `id`.
pub(crate) async fn emails(
    s: &Seeded,
    id: EstimateId,
    status: &str,
) -> Vec<(String, Option<String>, String)> {
    queued_emails(s, "estimate", id.get(), status).await
}
