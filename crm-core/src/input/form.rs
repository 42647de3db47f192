//! The [`Form`] collector: reads the fields of one input map once each, recording every
//! failure with its message and the references still to check in the database.

use crate::references::{NameScope, RefKind};
use crate::validation::{FieldErrors, References, Rejected, message};

use super::patch::Patch;
use super::raw::{RawMap, RawValue};
use super::read::read_id;

/// Reads the fields of one input map (or of one array element, with a key prefix such as
/// `items.0.`), collecting errors and references.
#[derive(Debug)]
pub struct Form<'a> {
    raw: &'a RawMap,
    prefix: String,
    errors: FieldErrors,
    references: References,
}

/// A field's presence in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence<'a> {
    /// Not sent.
    Absent,
    /// Sent as `null` or as text that is empty once trimmed.
    Empty,
    /// Sent with a value.
    Value(&'a RawValue),
}

impl<'a> Form<'a> {
    /// A reader over a top-level input.
    pub fn new(raw: &'a RawMap) -> Self {
        Self::with_prefix(raw, "")
    }

    /// A reader over a nested map whose field keys are reported as `prefix` + key.
    pub fn with_prefix(raw: &'a RawMap, prefix: &str) -> Self {
        Form {
            raw,
            prefix: prefix.to_owned(),
            errors: FieldErrors::new(),
            references: References::default(),
        }
    }

    /// The full field key (with prefix) of `key`.
    pub fn field(&self, key: &str) -> String {
        format!("{}{}", self.prefix, key)
    }

    /// Whether and how `key` was sent.
    pub fn presence(&self, key: &str) -> Presence<'a> {
        match self.raw.get(key) {
            None => Presence::Absent,
            Some(v) if v.is_empty() => Presence::Empty,
            Some(v) => Presence::Value(v),
        }
    }

    /// True when `key` was sent with a non-empty value.
    pub fn is_filled(&self, key: &str) -> bool {
        matches!(self.presence(key), Presence::Value(_))
    }

    /// Records an error for `key` (prefixed).
    pub fn error(&mut self, key: &str, message: String) {
        let field = self.field(key);
        self.errors.add(&field, message);
    }

    /// Records an error for an already complete field key (no prefix added).
    pub fn error_at(&mut self, field: &str, message: String) {
        self.errors.add(field, message);
    }

    /// True when `key` (prefixed) already failed.
    pub fn failed(&self, key: &str) -> bool {
        self.errors.has(&self.field(key))
    }

    /// True when any field failed so far.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// Records that `id` (read from `key`) must be a `kind` in the database.
    pub fn reference(&mut self, key: &str, kind: RefKind, id: i64) {
        let field = self.field(key);
        self.references.push(&field, kind, id);
    }

    /// Reads a required field with `read`; absent or empty → "field is required".
    pub fn required<T>(
        &mut self,
        key: &str,
        read: impl FnOnce(&str, &RawValue, &mut FieldErrors) -> Option<T>,
    ) -> Option<T> {
        match self.presence(key) {
            Presence::Value(v) => {
                let field = self.field(key);
                read(&field, v, &mut self.errors)
            }
            Presence::Absent | Presence::Empty => {
                let field = self.field(key);
                self.errors.add(&field, message::required(&field));
                None
            }
        }
    }

    /// Reads an optional field with `read`; absent or empty → `None` without error.
    pub fn optional<T>(
        &mut self,
        key: &str,
        read: impl FnOnce(&str, &RawValue, &mut FieldErrors) -> Option<T>,
    ) -> Option<T> {
        match self.presence(key) {
            Presence::Value(v) => {
                let field = self.field(key);
                read(&field, v, &mut self.errors)
            }
            Presence::Absent | Presence::Empty => None,
        }
    }

    /// Reads a PATCH field: absent → [`Patch::Keep`], empty → [`Patch::Clear`], a value →
    /// [`Patch::Set`] (an invalid value records its error and gives `Keep`).
    pub fn patch<T>(
        &mut self,
        key: &str,
        read: impl FnOnce(&str, &RawValue, &mut FieldErrors) -> Option<T>,
    ) -> Patch<T> {
        match self.presence(key) {
            Presence::Absent => Patch::Keep,
            Presence::Empty => Patch::Clear,
            Presence::Value(v) => {
                let field = self.field(key);
                read(&field, v, &mut self.errors).map_or(Patch::Keep, Patch::Set)
            }
        }
    }

    /// Reads a required id field that must exist as `kind` (checked later in the database).
    pub fn required_ref(&mut self, key: &str, kind: RefKind) -> Option<i64> {
        let id = self.required(key, read_id)?;
        self.reference(key, kind, id);
        Some(id)
    }

    /// Reads an optional id field that must exist as `kind` when given.
    pub fn optional_ref(&mut self, key: &str, kind: RefKind) -> Option<i64> {
        let id = self.optional(key, read_id)?;
        self.reference(key, kind, id);
        Some(id)
    }

    /// Reads a PATCH id field that must exist as `kind` when set.
    pub fn patch_ref(&mut self, key: &str, kind: RefKind) -> Patch<i64> {
        let patch = self.patch(key, read_id);
        if let Patch::Set(id) = patch {
            self.reference(key, kind, id);
        }
        patch
    }

    /// Reads an array field. `None` when absent (with "field is required" if `required`),
    /// not an array, or longer than `max_items`; otherwise the non-empty elements with
    /// their original positions.
    ///
    /// The bound counts the elements as sent, empty ones included (as the OpenAPI
    /// document's `maxItems` and Laravel's `max` on an array do): counted after the empty
    /// elements were skipped, a list of 1,001 elements with one blank passed a bound of
    /// 1,000 (issue 47).
    pub fn list(
        &mut self,
        key: &str,
        required: bool,
        max_items: usize,
    ) -> Option<Vec<(usize, &'a RawValue)>> {
        let field = self.field(key);
        let (sent, items): (usize, Vec<(usize, &'a RawValue)>) = match self.raw.get(key) {
            None => {
                if required {
                    self.errors.add(&field, message::required(&field));
                }
                return None;
            }
            Some(v) if v.is_empty() => (0, Vec::new()),
            Some(RawValue::List(items)) => (
                items.len(),
                items
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| !v.is_empty())
                    .collect(),
            ),
            Some(RawValue::Indexed(items)) => (
                items.len(),
                items
                    .iter()
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(i, v)| (usize::try_from(*i).unwrap_or(usize::MAX), v))
                    .collect(),
            ),
            Some(_) => {
                self.errors.add(&field, message::array(&field));
                return None;
            }
        };
        if sent > max_items {
            self.errors
                .add(&field, message::max_items(&field, max_items));
            return None;
        }
        Some(items)
    }

    /// Reads one array element (or any value) under an explicit, complete field key such as
    /// `users.2`, recording its errors in this form.
    pub fn element<T>(
        &mut self,
        field: &str,
        value: &RawValue,
        read: impl FnOnce(&str, &RawValue, &mut FieldErrors) -> Option<T>,
    ) -> Option<T> {
        read(field, value, &mut self.errors)
    }

    /// Records that the category name `name` (read from `key`) must be free in `scope`.
    pub fn claim_name(&mut self, key: &str, name: &str, scope: NameScope) {
        let field = self.field(key);
        self.references.claim_name(&field, name, scope);
    }

    /// Records that the bill amount `amount` of field `key` is to be judged against
    /// `currency` (the request's), or the target bill's stored one when `None`: a rejected
    /// request then names it with its other failing fields.
    pub fn claim_amount(
        &mut self,
        key: &str,
        amount: crate::money::MoneyInput,
        currency: Option<crate::currency::Currency>,
    ) {
        let field = self.field(key);
        self.references.claim_amount(&field, amount, currency);
    }

    /// Records a payment of `amount` (when it parsed) asked for on invoice `invoice`, for
    /// the database to judge beside the other fields ([`References::claim_payment`]).
    pub fn claim_payment(
        &mut self,
        invoice_key: &str,
        invoice: i64,
        amount_key: &str,
        amount: Option<crate::money::MoneyInput>,
    ) {
        let (invoice_field, amount_field) = (self.field(invoice_key), self.field(amount_key));
        self.references
            .claim_payment(&invoice_field, invoice, &amount_field, amount);
    }

    /// Takes in the errors and references of a nested reader.
    pub fn absorb(&mut self, nested: Form<'_>) {
        self.errors.merge(nested.errors);
        self.references.extend(nested.references);
    }

    /// The references recorded so far.
    pub fn references(&self) -> &References {
        &self.references
    }

    /// Ends reading: `Ok(references)` when every field was valid, else the rejection
    /// (errors plus the references that did parse).
    pub fn finish(self) -> Result<References, Rejected> {
        if self.errors.is_empty() {
            Ok(self.references)
        } else {
            Err(Rejected {
                errors: self.errors,
                references: self.references,
            })
        }
    }
}
