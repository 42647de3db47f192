//! Input helpers shared by crm-core's unit tests: raw input from pairs, the messages of one
//! field, a date.

use chrono::NaiveDate;

use super::{RawMap, RawValue};
use crate::validation::FieldErrors;

/// A form-like input from pairs of text.
pub(crate) fn raw(pairs: &[(&str, &str)]) -> RawMap {
    pairs
        .iter()
        .map(|(k, v)| (*k, RawValue::text(*v)))
        .collect()
}

/// An input from pairs of raw values (numbers, lists, maps as a JSON body gives them).
pub(crate) fn raw_values(pairs: &[(&str, RawValue)]) -> RawMap {
    pairs.iter().map(|(k, v)| (*k, v.clone())).collect()
}

/// The messages of one field (none when it did not fail).
pub(crate) fn msg(errors: &FieldErrors, field: &str) -> Vec<String> {
    errors
        .get(field)
        .map(<[String]>::to_vec)
        .unwrap_or_default()
}

/// A date from `YYYY-MM-DD`.
pub(crate) fn day(s: &str) -> NaiveDate {
    s.parse().expect("a YYYY-MM-DD date")
}
