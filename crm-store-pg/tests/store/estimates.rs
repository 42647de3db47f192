//! Estimates: reads and lists, header writes, line items and totals, the actions (publish,
//! email, clone, convert), concurrency, and the totals vectors through the database.

mod actions;
mod convert;
mod items;
mod lists;
mod parity;
mod writes;

use crm_core::estimate::{Estimate, EstimateUpdate, ItemsRequest, NewEstimate};
use crm_core::ids::EstimateId;
use crm_core::input::{RawMap, RawValue};

use crate::common::{Seeded, ctx, invalid, messages, raw};

/// A new estimate for the first seeded client (Acme Inc, with a contact email), dated
/// 2026-11-01, in the default estimate category; `extra` adds or overrides fields.
pub(crate) async fn create(s: &Seeded, extra: &[(&str, &str)]) -> Estimate {
    let client = s.ids.clients[0].id.to_string();
    let category = s.default_category("estimate").await.to_string();
    let mut pairs = vec![
        ("bill_clientid", client.as_str()),
        ("bill_categoryid", category.as_str()),
        ("bill_date", "2026-11-01"),
    ];
    pairs.retain(|(k, _)| !extra.iter().any(|(e, _)| e == k));
    pairs.extend_from_slice(extra);
    let cmd = NewEstimate::parse(&raw(&pairs)).unwrap();
    s.store.create_estimate(ctx(), &cmd).await.unwrap()
}

/// A PATCH with the required category and date (the estimate's own) plus `extra`.
pub(crate) fn patch(e: &Estimate, extra: &[(&str, &str)]) -> EstimateUpdate {
    let category = e.category.id.to_string();
    let date = e.dates.date.to_string();
    let mut pairs = vec![
        ("bill_categoryid", category.as_str()),
        ("bill_date", date.as_str()),
    ];
    pairs.retain(|(k, _)| !extra.iter().any(|(e, _)| e == k));
    pairs.extend_from_slice(extra);
    EstimateUpdate::parse(&raw(&pairs)).unwrap()
}

/// One request item from pairs of text.
pub(crate) fn item(pairs: &[(&str, &str)]) -> RawValue {
    RawValue::Map(raw(pairs))
}

/// An items request: `items` and, when given, `tax_rate_ids`.
pub(crate) fn items(lines: Vec<RawValue>, tax_rate_ids: Option<&[String]>) -> ItemsRequest {
    let mut map = RawMap::new();
    map.insert("items", RawValue::List(lines));
    if let Some(ids) = tax_rate_ids {
        map.insert(
            "tax_rate_ids",
            RawValue::List(ids.iter().map(|i| RawValue::text(i.as_str())).collect()),
        );
    }
    ItemsRequest::parse(&map).unwrap()
}

/// The id of the seeded tax rate with `rate` and `status` (as text).
pub(crate) fn rate_id(s: &Seeded, rate: &str, status: &str) -> String {
    s.ids
        .tax_rates
        .iter()
        .find(|t| t.rate == rate && t.status == status)
        .unwrap()
        .id
        .to_string()
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
) -> Vec<(String, String, String)> {
    let client = s.db.client().await.unwrap();
    let rows = client
        .query(
            "SELECT recipient, subject, template FROM email_queue WHERE resource_type = 'estimate' AND resource_id = $1 AND status = $2 ORDER BY id",
            &[&id.get(), &status],
        )
        .await
        .unwrap();
    rows.iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}
