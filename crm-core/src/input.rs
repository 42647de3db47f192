//! Raw request input and the readers that turn it into typed values, collecting errors.
//!
//! The HTTP layer decodes form-urlencoded (bracket syntax), multipart and JSON bodies, and
//! query strings, into one shape: a [`RawMap`] of [`RawValue`]s. Commands are parsed from
//! that shape with a [`Form`], which reads each field once, records every failure with its
//! Laravel-style message, and remembers the ids that must still be checked in the database.
//!
//! Conventions (as Laravel's middleware and rules have them):
//! - Text is trimmed; an empty text or `null` counts as absent.
//! - A field sent empty is distinguished from one not sent at all only by PATCH commands
//!   ([`Patch`]): absent means "leave unchanged", sent empty means "clear".
//! - Numbers may be text or JSON numbers; text fields refuse numbers, booleans, arrays and
//!   objects ("must be a string").
//! - For an array field, `[]`, an empty text (`name=`) or only empty elements mean the
//!   empty list; empty elements are skipped, and positions in messages are the original
//!   ones (`users.2`).

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::money::{AmountError, Money, Percent, Quantity, UnitRate};
use crate::validation::{FieldErrors, NameScope, RefKind, References, Rejected, message};

/// One decoded request value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawValue {
    /// JSON `null`.
    Null,
    /// A JSON boolean.
    Bool(bool),
    /// A JSON number, as its exact text.
    Number(String),
    /// A text value (form fields are always text).
    Text(String),
    /// An array, in index order.
    List(Vec<RawValue>),
    /// A form array sent with explicit, non-consecutive indices (`items[5][…]`,
    /// `items[2][…]`): the elements in index order, each with the index it was sent under,
    /// so that messages name the position the client used (`items.5.rate`).
    Indexed(Vec<(u64, RawValue)>),
    /// An object or a bracket group with non-numeric keys.
    Map(RawMap),
}

/// A decoded request: field name → value. Keys are unique; later duplicates replace
/// earlier ones (as PHP does).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawMap(BTreeMap<String, RawValue>);

impl RawMap {
    /// An empty input.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `key` to `value`.
    pub fn insert(&mut self, key: impl Into<String>, value: RawValue) {
        self.0.insert(key.into(), value);
    }

    /// The value of `key`, if sent.
    pub fn get(&self, key: &str) -> Option<&RawValue> {
        self.0.get(key)
    }

    /// Adds every field of `other` that this map does not have (used to merge a query
    /// string into a body).
    pub fn merge_missing(&mut self, other: RawMap) {
        for (k, v) in other.0 {
            self.0.entry(k).or_insert(v);
        }
    }

    /// True when nothing was sent.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every field, ordered by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &RawValue)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }
}

impl<K: Into<String>> FromIterator<(K, RawValue)> for RawMap {
    fn from_iter<I: IntoIterator<Item = (K, RawValue)>>(iter: I) -> Self {
        RawMap(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl RawValue {
    /// A text value.
    pub fn text(s: impl Into<String>) -> Self {
        RawValue::Text(s.into())
    }

    /// True for `null`, and for text that is empty once trimmed.
    pub fn is_empty(&self) -> bool {
        match self {
            RawValue::Null => true,
            RawValue::Text(s) => s.trim().is_empty(),
            _ => false,
        }
    }
}

/// What a PATCH does with an optional field.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Patch<T> {
    /// Not sent: leave the stored value as it is.
    #[default]
    Keep,
    /// Sent empty: clear the stored value.
    Clear,
    /// Sent with a valid value.
    Set(T),
}

impl<T> Patch<T> {
    /// The value after applying this patch to `current`.
    pub fn apply(self, current: Option<T>) -> Option<T> {
        match self {
            Patch::Keep => current,
            Patch::Clear => None,
            Patch::Set(v) => Some(v),
        }
    }

    /// Like [`apply`](Self::apply), on a borrowed current value.
    pub fn apply_ref(&self, current: Option<T>) -> Option<T>
    where
        T: Clone,
    {
        match self {
            Patch::Keep => current,
            Patch::Clear => None,
            Patch::Set(v) => Some(v.clone()),
        }
    }
}

/// Limits of a text field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRule {
    /// The most characters (Unicode scalar values, as `mb_strlen` counts).
    pub max_chars: usize,
    /// Whether HTML tags are refused.
    pub forbid_html: bool,
}

impl TextRule {
    /// Titles and names: 250 characters, no HTML.
    pub const TITLE: TextRule = TextRule {
        max_chars: 250,
        forbid_html: true,
    };
    /// Category names: 150 characters, no HTML.
    pub const CATEGORY_NAME: TextRule = TextRule {
        max_chars: 150,
        forbid_html: true,
    };
    /// Tags: 100 characters, no HTML.
    pub const TAG: TextRule = TextRule {
        max_chars: 100,
        forbid_html: true,
    };
    /// Units of measure: 100 characters.
    pub const UNIT: TextRule = TextRule {
        max_chars: 100,
        forbid_html: false,
    };
    /// Short attributes such as icon classes and adjustment descriptions: 250 characters.
    pub const SHORT: TextRule = TextRule {
        max_chars: 250,
        forbid_html: false,
    };
    /// Descriptions, bodies, notes and terms: 65,535 characters, HTML allowed.
    pub const LONG: TextRule = TextRule {
        max_chars: 65_535,
        forbid_html: false,
    };
    /// Search terms: 250 characters.
    pub const SEARCH: TextRule = TextRule {
        max_chars: 250,
        forbid_html: false,
    };
}

/// True when `text` contains something a browser would read as a tag: `<` followed by a
/// letter, `/`, `!` or `?` (`<b>`, `</p>`, `<!--`, `<?php`, `<img src=x onerror=…`).
/// A lone `<` as in `a < b` is not HTML.
pub fn contains_html(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || matches!(w[1], b'/' | b'!' | b'?')))
}

/// True when `text` has a control character other than tab, line feed and carriage
/// return (NUL cannot even be stored by PostgreSQL).
pub fn has_forbidden_control(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

/// A closed set of text values (`draft`, `new`, …) read from input and shown in output.
pub trait Choice: Sized + Copy + 'static {
    /// Every value with its text.
    const CHOICES: &'static [(&'static str, Self)];

    /// The value named `text`, if any.
    fn from_text(text: &str) -> Option<Self> {
        Self::CHOICES
            .iter()
            .find(|(t, _)| *t == text)
            .map(|(_, v)| *v)
    }
}

/// Declares a [`Choice`] enum with its texts, `as_str`, `Display`, `FromStr` and serde
/// (as text).
#[macro_export]
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name { $( $(#[$vmeta])* $variant ),+ }

        impl $crate::input::Choice for $name {
            const CHOICES: &'static [(&'static str, Self)] = &[ $( ($text, $name::$variant) ),+ ];
        }

        impl $name {
            /// The value's text.
            $vis fn as_str(self) -> &'static str {
                match self { $( $name::$variant => $text ),+ }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::input::UnknownChoice;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <$name as $crate::input::Choice>::from_text(s).ok_or($crate::input::UnknownChoice)
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
    };
}

/// A text that is not one of a [`Choice`]'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unknown value")]
pub struct UnknownChoice;

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

    /// Reads an array field. `None` when absent (with "field is required" if `required`)
    /// or not an array; otherwise the non-empty elements with their original positions.
    pub fn list(
        &mut self,
        key: &str,
        required: bool,
        max_items: usize,
    ) -> Option<Vec<(usize, &'a RawValue)>> {
        let field = self.field(key);
        let items: Vec<(usize, &'a RawValue)> = match self.raw.get(key) {
            None => {
                if required {
                    self.errors.add(&field, message::required(&field));
                }
                return None;
            }
            Some(v) if v.is_empty() => Vec::new(),
            Some(RawValue::List(items)) => items
                .iter()
                .enumerate()
                .filter(|(_, v)| !v.is_empty())
                .collect(),
            Some(RawValue::Indexed(items)) => items
                .iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(i, v)| (usize::try_from(*i).unwrap_or(usize::MAX), v))
                .collect(),
            Some(_) => {
                self.errors.add(&field, message::array(&field));
                return None;
            }
        };
        if items.len() > max_items {
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

/// The text of a scalar value; numbers, booleans, arrays and objects → "must be a string".
pub fn read_str<'v>(field: &str, value: &'v RawValue, errors: &mut FieldErrors) -> Option<&'v str> {
    match value {
        RawValue::Text(s) => Some(s.trim()),
        _ => {
            errors.add(field, message::string(field));
            None
        }
    }
}

/// The text of a numeric value: text or a JSON number; anything else → `not_number`.
fn numeric_text<'v>(
    field: &str,
    value: &'v RawValue,
    errors: &mut FieldErrors,
    not_number: fn(&str) -> String,
) -> Option<&'v str> {
    match value {
        RawValue::Text(s) => Some(s.trim()),
        RawValue::Number(s) => Some(s.as_str()),
        _ => {
            errors.add(field, not_number(field));
            None
        }
    }
}

/// Reads text under `rule`: trimmed, at most `max_chars`, no control characters, no HTML
/// when the rule forbids it.
pub fn read_text(
    field: &str,
    value: &RawValue,
    rule: TextRule,
    errors: &mut FieldErrors,
) -> Option<String> {
    let text = read_str(field, value, errors)?;
    if has_forbidden_control(text) {
        errors.add(field, message::format(field));
        return None;
    }
    if text.chars().count() > rule.max_chars {
        errors.add(field, message::max_chars(field, rule.max_chars));
        return None;
    }
    if rule.forbid_html && contains_html(text) {
        errors.add(field, message::no_html(field));
        return None;
    }
    Some(text.to_owned())
}

/// Returns a reader for [`read_text`] with `rule`, for use with [`Form::required`] and co.
pub fn text(rule: TextRule) -> impl FnOnce(&str, &RawValue, &mut FieldErrors) -> Option<String> {
    move |field, value, errors| read_text(field, value, rule, errors)
}

/// Reads an integer: optional sign and decimal digits only (`"12"`, `12`); the text `"1.0"`,
/// `"1e3"` and values beyond 64 bits → "must be an integer". A JSON number with an integral
/// value is an integer however it is written (`1.0`, `1e3`), as JSON Schema and Laravel's
/// `integer` rule have it, up to 2^53 (beyond that a float is not exact).
pub fn read_integer(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<i64> {
    if let RawValue::Number(n) = value
        && let Some(integral) = integral_json_number(n)
    {
        return Some(integral);
    }
    let text = numeric_text(field, value, errors, message::integer)?;
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        errors.add(field, message::integer(field));
        return None;
    }
    match text.parse::<i64>() {
        Ok(n) => Some(n),
        Err(_) => {
            errors.add(field, message::integer(field));
            None
        }
    }
}

/// The value of a JSON number written with a fraction or an exponent (`1.0`, `3e2`) when it
/// is a whole number of magnitude at most 2^53; plain digits are left to [`read_integer`].
fn integral_json_number(text: &str) -> Option<i64> {
    const EXACT: i64 = 9_007_199_254_740_992; // 2^53
    if !text.contains(['.', 'e', 'E']) {
        return None;
    }
    // Read exactly, not as a float: `9007199254740993.0` would round to 2^53 and
    // `9007199254740990.5` would lose its fraction, silently naming another id.
    let value = crate::money::parse_decimal(text, 0, 16).ok()?;
    i64::try_from(value).ok().filter(|v| v.abs() <= EXACT)
}

/// Reads a record id: an integer; zero or negative ids cannot exist → "The selected … is
/// invalid.".
pub fn read_id(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<i64> {
    let n = read_integer(field, value, errors)?;
    if n <= 0 {
        errors.add(field, message::invalid(field));
        return None;
    }
    Some(n)
}

/// Reads a calendar date written `YYYY-MM-DD` (years 0001–9999).
pub fn read_date(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<NaiveDate> {
    let parsed = match value {
        RawValue::Text(s) => parse_date(s.trim()),
        _ => None,
    };
    if parsed.is_none() {
        errors.add(field, message::date(field));
    }
    parsed
}

/// Parses a strict `YYYY-MM-DD` calendar date (years 0001–9999).
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    let shape_ok = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape_ok || text.starts_with("0000") {
        return None;
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

/// Reads one of a [`Choice`]'s values; anything else → "The selected … is invalid.".
pub fn read_choice<C: Choice>(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<C> {
    let parsed = match value {
        RawValue::Text(s) => C::from_text(s.trim()),
        _ => None,
    };
    if parsed.is_none() {
        errors.add(field, message::invalid(field));
    }
    parsed
}

/// Turns an amount error into the field's message.
fn amount_message(field: &str, error: AmountError, bounds: (&str, &str)) -> String {
    match error {
        AmountError::NotANumber => message::numeric(field),
        AmountError::TooManyDecimals { max } => message::max_decimals(field, max),
        AmountError::OutOfRange | AmountError::Negative => {
            message::between(field, bounds.0, bounds.1)
        }
        AmountError::NotPositive => message::greater_than(field, "0"),
    }
}

/// The largest money magnitude, as messages show it.
const MONEY_MAX: &str = "9999999999999.99";

/// Reads a money amount, with `low` as the lower bound messages name.
fn read_money_from(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
    low: &str,
) -> Option<Money> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    Money::parse(text)
        .map_err(|e| errors.add(field, amount_message(field, e, (low, MONEY_MAX))))
        .ok()
}

/// Reads a money amount: at most 2 decimals, magnitude below 10^13, either sign.
pub fn read_money(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<Money> {
    read_money_from(field, value, errors, "-9999999999999.99")
}

/// Reads a money amount that must not be negative (an out-of-range one is "between 0
/// and 9999999999999.99").
pub fn read_money_non_negative(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<Money> {
    let money = read_money_from(field, value, errors, "0")?;
    if money.get().is_sign_negative() && !money.get().is_zero() {
        errors.add(field, message::at_least(field, "0"));
        return None;
    }
    Some(money)
}

/// Reads a percentage between 0 and 100 with at most 2 decimals.
pub fn read_percent_0_100(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<Percent> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    let between = || message::between(field, "0", "100");
    match Percent::parse(text) {
        Ok(p) if p <= Percent::HUNDRED => Some(p),
        Ok(_) => {
            errors.add(field, between());
            None
        }
        Err(e) => {
            errors.add(field, amount_message(field, e, ("0", "100")));
            None
        }
    }
}

/// Reads a line quantity: > 0, at most 4 decimals, below 10^11.
pub fn read_quantity(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<Quantity> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    Quantity::parse(text)
        .map_err(|e| errors.add(field, positive_message(field, e)))
        .ok()
}

/// Reads a line unit rate: > 0, at most 4 decimals, below 10^11.
pub fn read_unit_rate(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<UnitRate> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    UnitRate::parse(text)
        .map_err(|e| errors.add(field, positive_message(field, e)))
        .ok()
}

fn positive_message(field: &str, error: AmountError) -> String {
    match error {
        AmountError::OutOfRange => message::at_most(field, "99999999999.9999"),
        other => amount_message(field, other, ("0", "99999999999.9999")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, RawValue)]) -> RawMap {
        pairs.iter().cloned().collect()
    }

    fn t(s: &str) -> RawValue {
        RawValue::text(s)
    }

    #[test]
    fn required_fields_that_are_absent_empty_or_blank_are_reported() {
        let raw = map(&[("a", t("")), ("b", t("   ")), ("c", RawValue::Null)]);
        let mut form = Form::new(&raw);
        for key in ["a", "b", "c", "d"] {
            assert_eq!(form.required(key, text(TextRule::TITLE)), None);
        }
        let rejected = form.finish().unwrap_err();
        assert_eq!(
            rejected.errors.get("d"),
            Some(&["The d field is required.".to_owned()][..])
        );
        assert_eq!(rejected.errors.iter().count(), 4);
    }

    #[test]
    fn text_is_trimmed_and_limited_in_characters_not_bytes() {
        let raw = map(&[("ok", t("  é")), ("long", t(&"é".repeat(151)))]);
        let mut form = Form::new(&raw);
        assert_eq!(
            form.required("ok", text(TextRule::CATEGORY_NAME))
                .as_deref(),
            Some("é")
        );
        assert_eq!(form.required("long", text(TextRule::CATEGORY_NAME)), None);
        let errors = form.finish().unwrap_err().errors;
        assert_eq!(
            errors.get("long"),
            Some(&["The long may not be greater than 150 characters.".to_owned()][..])
        );
    }

    #[test]
    fn html_tags_are_refused_in_titles_but_a_lone_less_than_is_not_html() {
        assert!(contains_html("<b>x</b>"));
        assert!(contains_html("a</p>"));
        assert!(contains_html("<!-- c -->"));
        assert!(contains_html("<img src=x onerror=alert(1)"));
        assert!(!contains_html("a < b and c > d"));
        assert!(!contains_html("x <3"));
        let raw = map(&[("note_title", t("<script>alert(1)</script>"))]);
        let mut form = Form::new(&raw);
        form.required("note_title", text(TextRule::TITLE));
        let errors = form.finish().unwrap_err().errors;
        assert_eq!(
            errors.get("note_title"),
            Some(&["The note title must not contain any HTML.".to_owned()][..])
        );
    }

    #[test]
    fn control_characters_make_text_invalid() {
        let mut errors = FieldErrors::new();
        assert_eq!(
            read_text("t", &t("a\u{0}b"), TextRule::LONG, &mut errors),
            None
        );
        assert_eq!(
            errors.get("t"),
            Some(&["The t format is invalid.".to_owned()][..])
        );
        assert!(
            read_text(
                "t",
                &t("line\nnext\ttab"),
                TextRule::LONG,
                &mut FieldErrors::new()
            )
            .is_some()
        );
    }

    #[test]
    fn text_fields_refuse_numbers_booleans_arrays_and_objects() {
        for v in [
            RawValue::Number("5".into()),
            RawValue::Bool(true),
            RawValue::List(vec![t("a")]),
            RawValue::Map(RawMap::new()),
        ] {
            let mut errors = FieldErrors::new();
            assert_eq!(
                read_text("note_title", &v, TextRule::TITLE, &mut errors),
                None
            );
            assert_eq!(
                errors.get("note_title"),
                Some(&["The note title must be a string.".to_owned()][..])
            );
        }
    }

    #[test]
    fn integers_accept_text_and_numbers_but_not_fractions_or_huge_values() {
        let mut errors = FieldErrors::new();
        assert_eq!(read_integer("limit", &t("25"), &mut errors), Some(25));
        assert_eq!(
            read_integer("limit", &RawValue::Number("25".into()), &mut errors),
            Some(25)
        );
        assert_eq!(read_integer("limit", &t("-3"), &mut errors), Some(-3));
        assert!(errors.is_empty());
        for bad in ["2.5", "1e3", "abc", "99999999999999999999", "", "+"] {
            let mut errors = FieldErrors::new();
            assert_eq!(read_integer("limit", &t(bad), &mut errors), None, "{bad}");
            assert_eq!(
                errors.get("limit"),
                Some(&["The limit must be an integer.".to_owned()][..])
            );
        }
    }

    #[test]
    fn json_numbers_with_an_integral_value_are_integers_but_text_stays_strict() {
        let n = |s: &str| RawValue::Number(s.into());
        let mut errors = FieldErrors::new();
        assert_eq!(read_integer("users.0", &n("1.0"), &mut errors), Some(1));
        assert_eq!(
            read_integer("users.0", &n("364416.0"), &mut errors),
            Some(364_416)
        );
        assert_eq!(read_integer("users.0", &n("3e2"), &mut errors), Some(300));
        assert_eq!(read_integer("users.0", &n("-2.0"), &mut errors), Some(-2));
        assert!(errors.is_empty());
        for bad in [
            n("1.5"),
            n("1e300"),
            n("1e17"),
            t("1.0"),
            t("3e2"),
            n("9007199254740993.0"),
            n("9007199254740990.5"),
            n("1e-3"),
        ] {
            let mut errors = FieldErrors::new();
            assert_eq!(read_integer("users.0", &bad, &mut errors), None, "{bad:?}");
            assert_eq!(
                errors.get("users.0"),
                Some(&["The users.0 must be an integer.".to_owned()][..])
            );
        }
        let mut errors = FieldErrors::new();
        assert_eq!(read_id("doc_client_id", &n("0.0"), &mut errors), None);
        assert_eq!(
            errors.get("doc_client_id"),
            Some(&["The selected doc client id is invalid.".to_owned()][..])
        );
    }

    #[test]
    fn ids_that_cannot_exist_are_invalid_selections() {
        let mut errors = FieldErrors::new();
        assert_eq!(read_id("doc_client_id", &t("0"), &mut errors), None);
        assert_eq!(
            errors.get("doc_client_id"),
            Some(&["The selected doc client id is invalid.".to_owned()][..])
        );
    }

    #[test]
    fn dates_must_be_real_calendar_days_written_year_month_day() {
        let mut errors = FieldErrors::new();
        assert_eq!(
            read_date("bill_date", &t("2026-02-28"), &mut errors),
            NaiveDate::from_ymd_opt(2026, 2, 28)
        );
        for bad in [
            "2026-02-30",
            "2026-2-1",
            "26-02-01",
            "2026/02/01",
            "0000-01-01",
            "2026-02-01T00:00",
            "tomorrow",
        ] {
            let mut errors = FieldErrors::new();
            assert_eq!(read_date("bill_date", &t(bad), &mut errors), None, "{bad}");
            assert_eq!(
                errors.get("bill_date"),
                Some(&["The bill date is not a valid date.".to_owned()][..])
            );
        }
    }

    #[test]
    fn money_messages_name_the_broken_limit() {
        let check = |input: &str, expected: &str| {
            let mut errors = FieldErrors::new();
            assert_eq!(read_money("doc_value", &t(input), &mut errors), None);
            assert_eq!(
                errors.get("doc_value"),
                Some(&[expected.to_owned()][..]),
                "{input}"
            );
        };
        check("abc", "The doc value must be a number.");
        check(
            "1.005",
            "The doc value may not have more than 2 decimal places.",
        );
        check(
            "10000000000000",
            "The doc value must be between -9999999999999.99 and 9999999999999.99.",
        );
        let mut errors = FieldErrors::new();
        assert_eq!(
            read_money("doc_value", &RawValue::Number("12.5".into()), &mut errors)
                .map(|m| m.to_string()),
            Some("12.50".into())
        );
    }

    #[test]
    fn a_non_negative_amount_names_zero_as_its_lower_bound() {
        let check = |input: &str, expected: &str| {
            let mut errors = FieldErrors::new();
            assert_eq!(read_money_non_negative("d", &t(input), &mut errors), None);
            assert_eq!(errors.get("d"), Some(&[expected.to_owned()][..]), "{input}");
        };
        check("-5", "The d must be at least 0.");
        check("1e20", "The d must be between 0 and 9999999999999.99.");
        check("-1e20", "The d must be between 0 and 9999999999999.99.");
        let mut errors = FieldErrors::new();
        assert!(read_money_non_negative("d", &t("0"), &mut errors).is_some());
    }

    #[test]
    fn quantities_must_be_positive_with_four_decimals_at_most() {
        let check = |input: &str, expected: &str| {
            let mut errors = FieldErrors::new();
            assert_eq!(
                read_quantity("items.0.quantity", &t(input), &mut errors),
                None
            );
            assert_eq!(
                errors.get("items.0.quantity"),
                Some(&[expected.to_owned()][..]),
                "{input}"
            );
        };
        check("0", "The items.0.quantity must be greater than 0.");
        check("-2", "The items.0.quantity must be greater than 0.");
        check(
            "1.00001",
            "The items.0.quantity may not have more than 4 decimal places.",
        );
        check(
            "1e20",
            "The items.0.quantity may not be greater than 99999999999.9999.",
        );
        check("two", "The items.0.quantity must be a number.");
    }

    #[test]
    fn percentages_stay_between_zero_and_a_hundred() {
        let mut errors = FieldErrors::new();
        assert_eq!(
            read_percent_0_100("p", &t("100"), &mut errors),
            Some(Percent::HUNDRED)
        );
        for bad in ["100.01", "-1", "1e9"] {
            let mut errors = FieldErrors::new();
            assert_eq!(read_percent_0_100("p", &t(bad), &mut errors), None);
            assert_eq!(
                errors.get("p"),
                Some(&["The p must be between 0 and 100.".to_owned()][..]),
                "{bad}"
            );
        }
    }

    #[test]
    fn patch_fields_tell_absent_from_sent_empty() {
        let raw = map(&[("cleared", t("")), ("set", t("x"))]);
        let mut form = Form::new(&raw);
        assert_eq!(form.patch("absent", text(TextRule::LONG)), Patch::Keep);
        assert_eq!(form.patch("cleared", text(TextRule::LONG)), Patch::Clear);
        assert_eq!(
            form.patch("set", text(TextRule::LONG)),
            Patch::Set("x".to_owned())
        );
    }

    #[test]
    fn lists_skip_empty_elements_and_keep_original_positions() {
        let raw = map(&[
            (
                "users",
                RawValue::List(vec![t(""), t("5"), RawValue::Null, t("x")]),
            ),
            ("empty", t("")),
            ("scalar", t("5")),
        ]);
        let mut form = Form::new(&raw);
        let users = form.list("users", true, 10).unwrap();
        assert_eq!(
            users.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            vec![1, 3]
        );
        assert_eq!(form.list("empty", true, 10).unwrap().len(), 0);
        assert_eq!(form.list("scalar", true, 10), None);
        assert_eq!(form.list("missing", true, 10), None);
        let errors = form.finish().unwrap_err().errors;
        assert_eq!(
            errors.get("scalar"),
            Some(&["The scalar must be an array.".to_owned()][..])
        );
        assert_eq!(
            errors.get("missing"),
            Some(&["The missing field is required.".to_owned()][..])
        );
    }

    #[test]
    fn sparse_form_arrays_report_the_indices_they_were_sent_under() {
        let raw = map(&[("users", RawValue::Indexed(vec![(2, t("5")), (7, t("x"))]))]);
        let mut form = Form::new(&raw);
        let items = form.list("users", true, 10).unwrap();
        assert_eq!(
            items.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            vec![2, 7]
        );
    }

    #[test]
    fn lists_longer_than_the_limit_are_refused() {
        let raw = map(&[("tags", RawValue::List(vec![t("a"); 11]))]);
        let mut form = Form::new(&raw);
        assert_eq!(form.list("tags", true, 10), None);
        let errors = form.finish().unwrap_err().errors;
        assert_eq!(
            errors.get("tags"),
            Some(&["The tags may not have more than 10 items.".to_owned()][..])
        );
    }

    #[test]
    fn rejected_input_still_carries_the_references_that_parsed() {
        let raw = map(&[("doc_client_id", t("12"))]);
        let mut form = Form::new(&raw);
        form.required_ref("doc_client_id", RefKind::Client);
        form.required("doc_title", text(TextRule::TITLE));
        let rejected = form.finish().unwrap_err();
        assert_eq!(rejected.references.as_slice().len(), 1);
        assert_eq!(rejected.references.as_slice()[0].id, 12);
    }

    #[test]
    fn nested_readers_prefix_their_field_keys() {
        let item = map(&[("quantity", t("0"))]);
        let outer = RawMap::new();
        let mut form = Form::new(&outer);
        let mut nested = Form::with_prefix(&item, "items.3.");
        nested.required("quantity", read_quantity);
        nested.required("description", text(TextRule::LONG));
        form.absorb(nested);
        let errors = form.finish().unwrap_err().errors;
        assert!(errors.has("items.3.quantity"));
        assert_eq!(
            errors.get("items.3.description"),
            Some(&["The items.3.description field is required.".to_owned()][..])
        );
    }
}
