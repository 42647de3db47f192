//! A recurring invoice's template: the invoice fields a schedule copies into every invoice
//! it makes (API.md §20), named as the schedule names them (`client_id`, `items`, …).
//!
//! A template is not parsed a second way: an occurrence's invoice is made by the invoice
//! commands themselves ([`invoice_input`] renames the template's fields to theirs and adds
//! the occurrence's dates), and what they refuse is named back in the template's words
//! ([`template_errors`]: `bill_clientid` → `client_id`, "The selected bill clientid is
//! invalid." → "The selected client id is invalid.").

use chrono::{Days, NaiveDate};

use crate::input::{RawMap, RawValue, read_integer};
use crate::validation::{FieldErrors, attribute};

/// Each template field with the invoice field it stands for. `items` and `tax_rate_ids`
/// are `PUT …/items`'s own names.
pub const TEMPLATE_FIELDS: [(&str, &str); 11] = [
    ("client_id", "bill_clientid"),
    ("category_id", "bill_categoryid"),
    ("currency", "bill_currency"),
    ("tax_type", "bill_tax_type"),
    ("items", "items"),
    ("tax_rate_ids", "tax_rate_ids"),
    ("discount_type", "bill_discount_type"),
    ("discount_percentage", "bill_discount_percentage"),
    ("discount_amount", "bill_discount_amount"),
    ("notes", "bill_notes"),
    ("terms", "bill_terms"),
];

/// The invoice fields an occurrence sets itself, with the schedule field they come from.
const DATE_FIELDS: [(&str, &str); 2] = [("start_date", "bill_date"), ("due_days", "bill_due_date")];

/// The template fields of `raw` (a create or a PATCH of a schedule), the others left out,
/// in the form they are kept in: ids as numbers, every other value as text.
pub fn template_of(raw: &RawMap) -> RawMap {
    TEMPLATE_FIELDS
        .iter()
        .filter_map(|(field, _)| {
            let value = raw.get(field)?;
            Some((*field, canonical(field, value)))
        })
        .collect()
}

/// `stored` with the template fields of a PATCH's `raw` replacing its own (a field sent
/// empty clears it).
pub fn merged(stored: &RawMap, raw: &RawMap) -> RawMap {
    let mut merged = stored.clone();
    for (field, value) in template_of(raw).iter() {
        merged.insert(field, value.clone());
    }
    merged
}

/// Whether a field of `raw` is a template field.
pub fn sends_template(raw: &RawMap) -> bool {
    TEMPLATE_FIELDS
        .iter()
        .any(|(field, _)| raw.get(field).is_some())
}

/// The value of template field `field` as kept: an id (`client_id`, `category_id`, each
/// of `tax_rate_ids`, a line's `tax_rate_id`) that reads as an integer as a number, so
/// that the template shows ids as numbers whichever encoding sent them; anything else as
/// sent (a value the invoice refuses is refused before it is kept).
fn canonical(field: &str, value: &RawValue) -> RawValue {
    let is_id = matches!(
        field,
        "client_id" | "category_id" | "tax_rate_ids" | "tax_rate_id"
    );
    match value {
        RawValue::Number(_) | RawValue::Text(_) if is_id => {
            let mut ignored = FieldErrors::new();
            match read_integer(field, value, &mut ignored) {
                Some(n) => RawValue::Number(n.to_string()),
                None => value.clone(),
            }
        }
        RawValue::List(values) => {
            RawValue::List(values.iter().map(|v| canonical(field, v)).collect())
        }
        RawValue::Indexed(values) => RawValue::Indexed(
            values
                .iter()
                .map(|(i, v)| (*i, canonical(field, v)))
                .collect(),
        ),
        RawValue::Map(map) => {
            RawValue::Map(map.iter().map(|(k, v)| (k, canonical(k, v))).collect())
        }
        RawValue::Null | RawValue::Bool(_) | RawValue::Number(_) | RawValue::Text(_) => {
            value.clone()
        }
    }
}

/// The input of the invoice that `template` makes for the occurrence on `date`: the
/// template's fields under the invoice's names, `bill_date` = `date` and `bill_due_date` =
/// `date` + `due_days` (what `POST /invoices`, `PATCH /invoices/{id}` and `PUT …/items`
/// each read of it). `None` past the calendar's end.
pub fn invoice_input(template: &RawMap, date: NaiveDate, due_days: u32) -> Option<RawMap> {
    let due = date.checked_add_days(Days::new(u64::from(due_days)))?;
    let mut raw: RawMap = TEMPLATE_FIELDS
        .iter()
        .filter_map(|(field, invoice)| Some((*invoice, template.get(field)?.clone())))
        .collect();
    raw.insert(
        "bill_date",
        RawValue::text(date.format("%Y-%m-%d").to_string()),
    );
    raw.insert(
        "bill_due_date",
        RawValue::text(due.format("%Y-%m-%d").to_string()),
    );
    Some(raw)
}

/// Whether the template sets a document discount (the invoice's PATCH applies it).
pub fn has_discount(template: &RawMap) -> bool {
    template.get("discount_type").is_some_and(|v| !v.is_empty())
}

/// What the invoice commands refused of an invoice made from a template, named as the
/// template names it: each field key renamed, and every attribute in every message.
pub fn template_errors(errors: FieldErrors) -> FieldErrors {
    // (invoice's, template's), the longest invoice names first: "bill due date" is
    // renamed before "bill date" could match inside it.
    let mut renames: Vec<(&str, &str)> = TEMPLATE_FIELDS
        .iter()
        .chain(&DATE_FIELDS)
        .filter(|(ours, theirs)| ours != theirs)
        .map(|(ours, theirs)| (*theirs, *ours))
        .collect();
    renames.sort_by_key(|(theirs, _)| std::cmp::Reverse(theirs.len()));
    let mut renamed = FieldErrors::new();
    for (field, messages) in errors.iter() {
        let key = renames
            .iter()
            .find_map(|(theirs, ours)| (*theirs == field).then_some(*ours))
            .unwrap_or(field);
        for message in messages {
            let text = renames
                .iter()
                .fold(message.clone(), |text, (theirs, ours)| {
                    text.replace(&attribute(theirs), &attribute(ours))
                });
            renamed.add(key, text);
        }
    }
    renamed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::raw;
    use crate::validation::message;

    #[test]
    fn an_occurrence_is_the_template_under_the_invoice_names_with_its_dates() {
        let template = template_of(&raw(&[
            ("client_id", "3"),
            ("category_id", "7"),
            ("notes", "Monthly retainer"),
            ("frequency", "monthly"),
        ]));
        assert_eq!(
            template.get("client_id"),
            Some(&RawValue::Number("3".into()))
        );
        assert_eq!(template.get("frequency"), None);
        let date = NaiveDate::from_ymd_opt(2026, 1, 31).unwrap();
        let input = invoice_input(&template, date, 14).unwrap();
        assert_eq!(
            input.get("bill_clientid"),
            Some(&RawValue::Number("3".into()))
        );
        assert_eq!(
            input.get("bill_notes"),
            Some(&RawValue::text("Monthly retainer"))
        );
        assert_eq!(input.get("bill_date"), Some(&RawValue::text("2026-01-31")));
        assert_eq!(
            input.get("bill_due_date"),
            Some(&RawValue::text("2026-02-14"))
        );
    }

    #[test]
    fn what_the_invoice_refuses_is_named_in_the_templates_words() {
        let mut errors = FieldErrors::new();
        errors.add("bill_clientid", message::invalid("bill_clientid"));
        errors.add(
            "tax_rate_ids",
            message::prohibited_if("tax_rate_ids", "bill_tax_type", "inline"),
        );
        errors.add(
            "bill_due_date",
            message::after_or_equal("bill_due_date", "bill_date"),
        );
        let renamed = template_errors(errors);
        assert_eq!(
            renamed.get("client_id").unwrap(),
            ["The selected client id is invalid."]
        );
        assert_eq!(
            renamed.get("tax_rate_ids").unwrap(),
            ["The tax rate ids field is prohibited when tax type is inline."]
        );
        assert_eq!(
            renamed.get("due_days").unwrap(),
            ["The due days must be a date after or equal to start date."]
        );
    }

    #[test]
    fn a_patch_replaces_the_template_fields_it_sends() {
        let stored = template_of(&raw(&[("client_id", "3"), ("notes", "a")]));
        let after = merged(&stored, &raw(&[("notes", "b"), ("interval", "2")]));
        assert_eq!(after.get("client_id"), Some(&RawValue::Number("3".into())));
        assert_eq!(after.get("notes"), Some(&RawValue::text("b")));
        assert!(sends_template(&raw(&[("items", "")])));
        assert!(!sends_template(&raw(&[("interval", "2")])));
    }
}
