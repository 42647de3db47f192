//! `PUT /api/{estimates,invoices}/{id}/items`: the line items and the summary taxes. The
//! base is in summary mode, where a line's tax rate and discount are refused whatever their
//! value; those three fields are checked by the extras here rather than by the per-field
//! sweep.

use serde_json::json;

use super::Bill;
use crate::sweep::body::{ALL, Expect, invalid, with};
use crate::sweep::document::Api;
use crate::sweep::msg;
use crate::sweep::target::Target;

/// A line field refused in summary mode.
fn inline_only(f: &str) -> (String, Option<String>) {
    let message = msg::prohibited_if(f, "bill_tax_type", "summary");
    (f.to_owned(), Some(message))
}

impl Bill {
    /// `PUT /api/{area}/{id}/items`.
    pub(super) fn items(&self, api: &Api) -> Target {
        let r = &self.refs;
        let base = json!({
            "items": [{"description": "Design", "long_description": "Long", "unit": "hours", "quantity": "2", "rate": "10.50"}],
            "tax_rate_ids": [r.enabled_rate, r.other_rate]
        });
        let line_discount = with(&base, "items.0.discount_type", json!("fixed"));
        let (type_, value) = ("items.0.discount_type", "items.0.discount_value");
        let path = self.path(self.draft, "/items");
        Target::new(api, &self.set_op("Items"), path, base.clone())
            .unswept(&["items.0.tax_rate_id", type_, value])
            .appended(
                "items",
                "items[][description]=d",
                0,
                invalid("items", msg::max_items("items", 1000)),
            )
            .appended(
                "tax_rate_ids",
                "tax_rate_ids[]=2",
                0,
                invalid("tax_rate_ids", msg::max_items("tax_rate_ids", 100)),
            )
            .extra(
                "a disabled tax rate",
                with(&base, "tax_rate_ids", json!([r.disabled_rate])),
                ALL,
                invalid("tax_rate_ids.0", msg::invalid("tax_rate_ids.0")),
            )
            .extra(
                "a duplicated tax rate",
                with(
                    &base,
                    "tax_rate_ids",
                    json!([r.enabled_rate, r.enabled_rate]),
                ),
                ALL,
                invalid("tax_rate_ids.1", msg::distinct("tax_rate_ids.1")),
            )
            .extra(
                "a line tax rate in summary mode",
                with(&base, "items.0.tax_rate_id", json!(r.enabled_rate)),
                ALL,
                Expect::Invalid(vec![inline_only("items.0.tax_rate_id")]),
            )
            .extra(
                "a line discount type zzz",
                with(&base, type_, json!("zzz")),
                ALL,
                invalid(type_, msg::invalid(type_)),
            )
            .extra(
                "a fixed line discount without value",
                line_discount.clone(),
                ALL,
                Expect::Invalid(vec![
                    inline_only(type_),
                    (
                        value.to_owned(),
                        Some(msg::required_if(value, type_, "fixed")),
                    ),
                ]),
            )
            .extra(
                "a line discount in summary mode",
                with(&line_discount, value, json!("1")),
                ALL,
                Expect::Invalid(vec![inline_only(type_), inline_only(value)]),
            )
            .extra(
                "a line total past the columns",
                with(
                    &with(&base, "items.0.quantity", json!("99999999999")),
                    "items.0.rate",
                    json!("99999999999"),
                ),
                ALL,
                invalid("items", msg::at_most("items total", "9999999999999.99")),
            )
    }
}
