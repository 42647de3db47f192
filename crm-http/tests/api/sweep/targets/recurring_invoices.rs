//! The recurring invoice writes (API.md §20): a schedule and its template, whose fields
//! are checked by the invoice's own rules and named in the template's words; an end before
//! the start, a count beside an end date and a status only the service sets are refused.

use serde_json::json;

use crate::sweep::body::{ALL, invalid};
use crate::sweep::document::Api;
use crate::sweep::msg;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// The recurring invoice targets.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let base = json!({
        "client_id": w.client.to_string(), "category_id": w.default_invoice_category.to_string(),
        "currency": "EUR", "tax_type": "summary", "discount_type": "percentage",
        "discount_percentage": "5", "discount_amount": "1.00", "notes": "Sweep notes", "terms": "Sweep terms",
        "frequency": "monthly", "interval": "1", "start_date": "2099-01-31", "count": "12",
        "due_days": "14", "auto_publish": "0", "catch_up": "latest", "status": "active",
        "timezone": "Europe/Berlin",
        "items": [{"description": "Retainer", "long_description": "Long", "unit": "hours", "quantity": "1", "rate": "100"}],
        "tax_rate_ids": [w.enabled_rate.to_string()]
    });
    let end_first = || invalid("end_date", msg::after_or_equal("end_date", "start_date"));
    let summary_only = [
        "items.0.tax_rate_id",
        "items.0.discount_type",
        "items.0.discount_value",
    ];
    let create = Target::new(
        api,
        "createRecurringInvoice",
        "/api/recurring-invoices".into(),
        base.clone(),
    )
    .unswept(&summary_only)
    .extra(
        "an end before the start",
        json!({"client_id": w.client, "category_id": w.default_invoice_category, "frequency": "weekly",
            "start_date": "2099-02-01", "end_date": "2099-01-31",
            "items": [{"description": "A", "quantity": "1", "rate": "1"}]}),
        ALL,
        end_first(),
    )
    .extra(
        "a category of another type",
        json!({"client_id": w.client, "category_id": w.default_estimate_category, "frequency": "weekly",
            "start_date": "2099-02-01", "items": [{"description": "A", "quantity": "1", "rate": "1"}]}),
        ALL,
        invalid("category_id", msg::invalid("category_id")),
    );
    let path = format!("/api/recurring-invoices/{}", w.recurring_invoice);
    let update = Target::new(api, "updateRecurringInvoice", path.clone(), base)
        .unswept(&summary_only)
        .extra(
            "an end before the start",
            json!({"end_date": "2099-01-30", "count": null}),
            ALL,
            end_first(),
        );
    let delete = Target::new(api, "deleteRecurringInvoice", path, json!({}));
    vec![create, update, delete]
}
