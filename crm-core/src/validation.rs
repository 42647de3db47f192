//! Field errors with Laravel-style English messages, and references (ids that must exist,
//! names that must be free) still to be checked against the database.
//!
//! Messages follow Laravel's default English texts. The attribute name is made from the
//! field key by replacing `_` with spaces, array positions are written with dots:
//! `doc_client_id` → "doc client id", `items.0.tax_rate_id` → "items.0.tax rate id".
//! Every failing field is reported, in the order the fields were examined.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::currency::Currency;
use crate::money::MoneyInput;
pub use crate::references::{NameScope, RefKind};

/// The attribute name Laravel shows for a field key.
pub fn attribute(field: &str) -> String {
    field.replace('_', " ")
}

/// Every message of the API's validation vocabulary, rendered for one attribute.
///
/// Each constructor takes the field key (`"doc_title"`, `"items.0.rate"`).
pub mod message {
    use super::attribute;

    /// "The doc title field is required."
    pub fn required(field: &str) -> String {
        format!("The {} field is required.", attribute(field))
    }
    /// "The noteresource id field is required when noteresource type is present."
    pub fn required_with(field: &str, other: &str) -> String {
        format!(
            "The {} field is required when {} is present.",
            attribute(field),
            attribute(other)
        )
    }
    /// "The items.0.discount value field is required when items.0.discount type is fixed."
    pub fn required_if(field: &str, other: &str, value: &str) -> String {
        format!(
            "The {} field is required when {} is {value}.",
            attribute(field),
            attribute(other)
        )
    }
    /// "The tax rate ids field is prohibited when tax type is inline."
    pub fn prohibited_if(field: &str, other: &str, value: &str) -> String {
        format!(
            "The {} field is prohibited when {} is {value}.",
            attribute(field),
            attribute(other)
        )
    }
    /// "The selected doc client id is invalid." (unknown reference or value outside a list)
    pub fn invalid(field: &str) -> String {
        format!("The selected {} is invalid.", attribute(field))
    }
    /// "The bill date is not a valid date."
    pub fn date(field: &str) -> String {
        format!("The {} is not a valid date.", attribute(field))
    }
    /// "The doc date end must be a date after or equal to doc date start."
    pub fn after_or_equal(field: &str, other: &str) -> String {
        format!(
            "The {} must be a date after or equal to {}.",
            attribute(field),
            attribute(other)
        )
    }
    /// "The doc value must be a number."
    pub fn numeric(field: &str) -> String {
        format!("The {} must be a number.", attribute(field))
    }
    /// "The limit must be an integer."
    pub fn integer(field: &str) -> String {
        format!("The {} must be an integer.", attribute(field))
    }
    /// "The note title must be a string."
    pub fn string(field: &str) -> String {
        format!("The {} must be a string.", attribute(field))
    }
    /// "The tags must be an array."
    pub fn array(field: &str) -> String {
        format!("The {} must be an array.", attribute(field))
    }
    /// "The category name may not be greater than 150 characters."
    pub fn max_chars(field: &str, max: usize) -> String {
        format!(
            "The {} may not be greater than {max} characters.",
            attribute(field)
        )
    }
    /// "The items may not have more than 1000 items."
    pub fn max_items(field: &str, max: usize) -> String {
        format!(
            "The {} may not have more than {max} items.",
            attribute(field)
        )
    }
    /// "The items must have at least 1 items."
    pub fn min_items(field: &str, min: usize) -> String {
        format!("The {} must have at least {min} items.", attribute(field))
    }
    /// "The note title must not contain any HTML."
    pub fn no_html(field: &str) -> String {
        format!("The {} must not contain any HTML.", attribute(field))
    }
    /// "The note title format is invalid." (text with control characters such as NUL)
    pub fn format(field: &str) -> String {
        format!("The {} format is invalid.", attribute(field))
    }
    /// "The doc value may not have more than 2 decimal places."
    pub fn max_decimals(field: &str, max: u32) -> String {
        format!(
            "The {} may not have more than {max} decimal places.",
            attribute(field)
        )
    }
    /// "The items.0.quantity must be greater than 0."
    pub fn greater_than(field: &str, value: &str) -> String {
        format!("The {} must be greater than {value}.", attribute(field))
    }
    /// "The limit must be at least 1."
    pub fn at_least(field: &str, min: &str) -> String {
        format!("The {} must be at least {min}.", attribute(field))
    }
    /// "The page may not be greater than 2147483647."
    pub fn at_most(field: &str, max: &str) -> String {
        format!("The {} may not be greater than {max}.", attribute(field))
    }
    /// "The bill discount percentage must be between 0 and 100."
    pub fn between(field: &str, min: &str, max: &str) -> String {
        format!("The {} must be between {min} and {max}.", attribute(field))
    }
    /// "The tax rate ids.1 field has a duplicate value."
    pub fn distinct(field: &str) -> String {
        format!("The {} field has a duplicate value.", attribute(field))
    }
}

/// Every failing field with its messages. Serialises as the `errors` object of a 422.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FieldErrors(BTreeMap<String, Vec<String>>);

impl FieldErrors {
    /// No errors yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// One error for one field.
    pub fn single(field: &str, message: String) -> Self {
        let mut errors = Self::new();
        errors.add(field, message);
        errors
    }

    /// Records `message` for `field` (a field may collect several messages).
    pub fn add(&mut self, field: &str, message: String) {
        let messages = self.0.entry(field.to_owned()).or_default();
        if !messages.contains(&message) {
            messages.push(message);
        }
    }

    /// Adds every error of `other`.
    pub fn merge(&mut self, other: FieldErrors) {
        for (field, messages) in other.0 {
            for message in messages {
                self.add(&field, message);
            }
        }
    }

    /// True when no field failed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// True when `field` has at least one error.
    pub fn has(&self, field: &str) -> bool {
        self.0.contains_key(field)
    }

    /// The messages of one field.
    pub fn get(&self, field: &str) -> Option<&[String]> {
        self.0.get(field).map(Vec::as_slice)
    }

    /// Every field with its messages, ordered by field key.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }

    /// `Ok(())` when empty, else `Err(self)`.
    pub fn into_result(self) -> Result<(), FieldErrors> {
        if self.is_empty() { Ok(()) } else { Err(self) }
    }
}

impl fmt::Display for FieldErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (_, messages) in self.iter() {
            for m in messages {
                if !first {
                    f.write_str(" ")?;
                }
                f.write_str(m)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl std::error::Error for FieldErrors {}

/// An id taken from a request that must still be checked against the database. When the
/// check fails, `field` gets `"The selected <field> is invalid."`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reference {
    /// The field key the id came from (`doc_client_id`, `users.1`).
    pub field: String,
    /// What the id must be.
    pub kind: RefKind,
    /// The id.
    pub id: i64,
}

/// A category name a request asks for, to be reported as taken beside the request's other
/// failing fields. Writes do not rely on it: the unique index decides, also under
/// concurrency; the claim only lets a rejected request name every failing field at once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NameClaim {
    /// The field key the name came from (`category_name`).
    pub field: String,
    /// The name, as it would be stored.
    pub name: String,
    /// Where it must be free.
    pub scope: NameScope,
}

/// A payment a request asks for (API.md §14), to be reported beside the request's other
/// failing fields: its invoice must take payments, and its amount, when it parsed, must
/// not pass the invoice's amount due (the rules of `crate::invoice::Balance`). Writes do
/// not rely on it: the payment's own transaction decides, with the invoice row locked;
/// the claim only lets a rejected request name every failing field at once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PaymentClaim {
    /// The field key the invoice id came from (`payment_invoiceid`).
    pub invoice_field: String,
    /// The invoice id.
    pub invoice: i64,
    /// The field key of the amount (`payment_amount`).
    pub amount_field: String,
    /// The amount, if it parsed (its decimals are judged against the invoice's currency).
    pub amount: Option<MoneyInput>,
}

/// An amount of a bill a rejected request gives (API.md §18), to be judged beside the
/// request's other failing fields against the bill's currency: the one the request names,
/// else the stored one of the bill it writes (the request's target). Writes do not rely on
/// it: a valid request is judged in its own transaction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AmountClaim {
    /// The field key (`bill_adjustment_amount`).
    pub field: String,
    /// The amount as given.
    pub amount: MoneyInput,
    /// The currency the request names, if it named a valid one.
    pub currency: Option<Currency>,
}

/// Everything a command or a rejected request still needs the database to confirm: the
/// ids it references, the category names it claims, the payments it asks for, and the
/// bill amounts whose currency is stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct References {
    ids: Vec<Reference>,
    names: Vec<NameClaim>,
    payments: Vec<PaymentClaim>,
    amounts: Vec<AmountClaim>,
}

impl References {
    /// Records that `id` (from `field`) must be a `kind`.
    pub fn push(&mut self, field: &str, kind: RefKind, id: i64) {
        self.ids.push(Reference {
            field: field.to_owned(),
            kind,
            id,
        });
    }

    /// Records that `name` (from `field`) must not be taken in `scope`.
    pub fn claim_name(&mut self, field: &str, name: &str, scope: NameScope) {
        self.names.push(NameClaim {
            field: field.to_owned(),
            name: name.to_owned(),
            scope,
        });
    }

    /// Records that a payment of `amount` (from `amount_field`, when it parsed) is asked
    /// for on invoice `invoice` (from `invoice_field`).
    pub fn claim_payment(
        &mut self,
        invoice_field: &str,
        invoice: i64,
        amount_field: &str,
        amount: Option<MoneyInput>,
    ) {
        self.payments.push(PaymentClaim {
            invoice_field: invoice_field.to_owned(),
            invoice,
            amount_field: amount_field.to_owned(),
            amount,
        });
    }

    /// The payment claims, in the order they were found.
    pub fn payments(&self) -> &[PaymentClaim] {
        &self.payments
    }

    /// Records that `amount` (from `field`) must have at most the decimals of `currency`,
    /// or of the target bill's stored currency when `None`.
    pub fn claim_amount(&mut self, field: &str, amount: MoneyInput, currency: Option<Currency>) {
        self.amounts.push(AmountClaim {
            field: field.to_owned(),
            amount,
            currency,
        });
    }

    /// The amount claims, in the order they were found.
    pub fn amounts(&self) -> &[AmountClaim] {
        &self.amounts
    }

    /// The id references, in the order they were found.
    pub fn as_slice(&self) -> &[Reference] {
        &self.ids
    }

    /// The name claims, in the order they were found.
    pub fn names(&self) -> &[NameClaim] {
        &self.names
    }

    /// Takes in the references and claims of `other`.
    pub fn extend(&mut self, other: References) {
        self.ids.extend(other.ids);
        self.names.extend(other.names);
        self.payments.extend(other.payments);
        self.amounts.extend(other.amounts);
    }

    /// True when there is nothing to check.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
            && self.names.is_empty()
            && self.payments.is_empty()
            && self.amounts.is_empty()
    }

    /// The errors for the references found invalid (given by index into
    /// [`as_slice`](Self::as_slice)).
    pub fn errors_for(&self, invalid: impl IntoIterator<Item = usize>) -> FieldErrors {
        let mut errors = FieldErrors::new();
        for i in invalid {
            if let Some(r) = self.ids.get(i) {
                errors.add(&r.field, message::invalid(&r.field));
            }
        }
        errors
    }
}

/// A request that failed validation: the field errors, and the references that did parse,
/// so that the caller can check them too and report every failing field at once.
#[derive(Debug, Clone, Default, PartialEq, Eq, thiserror::Error)]
#[error("the given data was invalid: {errors}")]
pub struct Rejected {
    /// The fields that failed.
    pub errors: FieldErrors,
    /// References that parsed and still need a database check.
    pub references: References,
}

impl From<FieldErrors> for Rejected {
    fn from(errors: FieldErrors) -> Self {
        Rejected {
            errors,
            references: References::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_names_replace_underscores_and_keep_dots() {
        assert_eq!(attribute("doc_client_id"), "doc client id");
        assert_eq!(attribute("items.0.tax_rate_id"), "items.0.tax rate id");
    }

    #[test]
    fn messages_read_as_laravel_writes_them() {
        assert_eq!(
            message::required("doc_title"),
            "The doc title field is required."
        );
        assert_eq!(
            message::invalid("doc_client_id"),
            "The selected doc client id is invalid."
        );
        assert_eq!(
            message::date("bill_date"),
            "The bill date is not a valid date."
        );
        assert_eq!(
            message::numeric("doc_value"),
            "The doc value must be a number."
        );
        assert_eq!(message::integer("limit"), "The limit must be an integer.");
        assert_eq!(
            message::invalid("users.1"),
            "The selected users.1 is invalid."
        );
        assert_eq!(
            message::after_or_equal("doc_date_end", "doc_date_start"),
            "The doc date end must be a date after or equal to doc date start."
        );
        assert_eq!(
            message::required_with("noteresource_id", "noteresource_type"),
            "The noteresource id field is required when noteresource type is present."
        );
        assert_eq!(
            message::max_chars("category_name", 150),
            "The category name may not be greater than 150 characters."
        );
        assert_eq!(
            message::no_html("note_title"),
            "The note title must not contain any HTML."
        );
        assert_eq!(
            message::string("note_title"),
            "The note title must be a string."
        );
        assert_eq!(message::array("tags"), "The tags must be an array.");
        assert_eq!(
            message::max_decimals("doc_value", 2),
            "The doc value may not have more than 2 decimal places."
        );
        assert_eq!(
            message::greater_than("items.0.quantity", "0"),
            "The items.0.quantity must be greater than 0."
        );
        assert_eq!(
            message::at_least("limit", "1"),
            "The limit must be at least 1."
        );
        assert_eq!(
            message::distinct("tax_rate_ids.1"),
            "The tax rate ids.1 field has a duplicate value."
        );
        assert_eq!(
            message::required_if("items.0.discount_value", "items.0.discount_type", "fixed"),
            "The items.0.discount value field is required when items.0.discount type is fixed."
        );
        assert_eq!(
            message::prohibited_if("tax_rate_ids", "bill_tax_type", "inline"),
            "The tax rate ids field is prohibited when bill tax type is inline."
        );
        assert_eq!(
            message::format("note_title"),
            "The note title format is invalid."
        );
        assert_eq!(
            message::max_items("items", 1000),
            "The items may not have more than 1000 items."
        );
        assert_eq!(
            message::min_items("items", 1),
            "The items must have at least 1 items."
        );
        assert_eq!(
            message::at_most("page", "9"),
            "The page may not be greater than 9."
        );
        assert_eq!(
            message::between("bill_discount_percentage", "0", "100"),
            "The bill discount percentage must be between 0 and 100."
        );
    }

    #[test]
    fn field_errors_collect_every_field_without_repeating_a_message() {
        let mut errors = FieldErrors::new();
        errors.add("b", "two".into());
        errors.add("a", "one".into());
        errors.add("a", "one".into());
        errors.add("a", "three".into());
        assert_eq!(
            errors.get("a"),
            Some(&["one".to_owned(), "three".to_owned()][..])
        );
        assert!(errors.has("b"));
        let json = serde_json::to_string(&errors).unwrap();
        assert_eq!(json, r#"{"a":["one","three"],"b":["two"]}"#);
    }

    #[test]
    fn invalid_references_become_selected_is_invalid_messages() {
        let mut refs = References::default();
        refs.push("doc_client_id", RefKind::Client, 7);
        refs.push("users.1", RefKind::TeamUser, 9);
        let errors = refs.errors_for([1]);
        assert_eq!(
            errors.get("users.1"),
            Some(&["The selected users.1 is invalid.".to_owned()][..])
        );
        assert!(!errors.has("doc_client_id"));
    }
}
