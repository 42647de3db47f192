//! The credit note writes (API.md §18): issuing one against an issued invoice (its lines
//! as `PUT …/items` takes them, in the invoice's summary mode), and its email and link. A
//! credit note is never more than what is not yet credited, and a draft is not credited.

use serde_json::json;

use crate::sweep::body::{ALL, Expect, invalid, status, with};
use crate::sweep::document::Api;
use crate::sweep::msg;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// The credit note targets.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let base = json!({
        "reason": "Sweep credit", "date": "2026-01-21",
        "items": [{"description": "Credited", "long_description": "Long", "unit": "hours", "quantity": "1", "rate": "0.01"}],
        "tax_rate_ids": [w.enabled_rate.to_string()]
    });
    let path = |id: i64| format!("/api/invoices/{id}/credit-notes");
    let (type_, value) = ("items.0.discount_type", "items.0.discount_value");
    let summary_only = |f: &str| {
        (
            f.to_owned(),
            Some(msg::prohibited_if(f, "bill_tax_type", "summary")),
        )
    };
    let issue = Target::new(
        api,
        "issueCreditNote",
        path(w.creditable_invoice),
        base.clone(),
    )
    .unswept(&["items.0.tax_rate_id", type_, value])
    .extra(
        "more than the invoice",
        with(&base, "items.0.rate", json!("2000000")),
        ALL,
        invalid(
            "items",
            "The credit note may not be greater than the amount not yet credited.".to_owned(),
        ),
    )
    .extra(
        "dated before the invoice",
        with(&base, "date", json!("2026-01-09")),
        ALL,
        invalid("date", msg::after_or_equal("date", "invoice date")),
    )
    .extra(
        "a line tax rate in summary mode",
        with(
            &base,
            "items.0.tax_rate_id",
            json!(w.enabled_rate.to_string()),
        ),
        ALL,
        Expect::Invalid(vec![summary_only("items.0.tax_rate_id")]),
    )
    .extra(
        "a disabled tax rate",
        with(&base, "tax_rate_ids", json!([w.disabled_rate.to_string()])),
        ALL,
        invalid("tax_rate_ids.0", msg::invalid("tax_rate_ids.0")),
    )
    .extra_at(
        "a draft invoice",
        path(w.invoice),
        base.clone(),
        status(
            409,
            "Only an issued invoice can be credited; change a draft instead.",
        ),
    );
    let note = |tail: &str| format!("/api/credit-notes/{}{tail}", w.credit_note);
    vec![
        issue,
        Target::new(api, "sendCreditNoteEmail", note("/send-email"), json!({})),
        Target::new(api, "makeCreditNoteLink", note("/link"), json!({})),
        Target::new(api, "revokeCreditNoteLink", note("/link"), json!({})),
    ]
}
