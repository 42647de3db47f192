//! The payment writes: record and delete. A payment is taken only by an invoice that is
//! neither Draft nor Cancelled, and never for more than the invoice's amount due.

use serde_json::json;

use crate::sweep::body::{ALL, Expect, invalid};
use crate::sweep::document::Api;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// The 422 of an amount past the amount due.
fn more_than_due() -> Expect {
    invalid(
        "payment_amount",
        "The payment amount may not be greater than the amount due.".to_owned(),
    )
}

/// The payment targets.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let payable = w.payable_invoice.to_string();
    let draft = w.invoice.to_string();
    let base = json!({"payment_invoiceid": payable, "payment_amount": "1.00", "payment_date": "2026-01-21", "payment_method": "Card", "payment_transaction_id": "SWEEP-1", "payment_notes": "Sweep"});
    let record = Target::new(api, "recordPayment", "/api/payments".into(), base)
        .extra(
            "a draft invoice",
            json!({"payment_invoiceid": draft, "payment_amount": "1.00", "payment_date": "2026-01-21"}),
            ALL,
            invalid(
                "payment_invoiceid",
                "The invoice must be published before a payment is recorded.".to_owned(),
            ),
        )
        .extra(
            "more than the amount due",
            json!({"payment_invoiceid": payable, "payment_amount": "20.01", "payment_date": "2026-01-21"}),
            ALL,
            more_than_due(),
        )
        .extra(
            "the largest amount",
            json!({"payment_invoiceid": payable, "payment_amount": "9999999999999.99", "payment_date": "2026-01-21"}),
            ALL,
            more_than_due(),
        )
        .extra(
            "more than due, and no date",
            json!({"payment_invoiceid": payable, "payment_amount": "20.01"}),
            ALL,
            Expect::Invalid(vec![
                ("payment_amount".to_owned(), None),
                ("payment_date".to_owned(), None),
            ]),
        );
    let delete = Target::new(
        api,
        "deletePayment",
        format!("/api/payments/{}", w.payment),
        json!({}),
    );
    vec![record, delete]
}
