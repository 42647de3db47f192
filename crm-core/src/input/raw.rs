//! Raw input: the one shape every request body and query string decodes to, a [`RawMap`]
//! of [`RawValue`]s.

use std::collections::BTreeMap;

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

/// A value as the API shows one it keeps as given (a recurring invoice's template): a
/// number that is an integer as a JSON number, any other number and text as a string,
/// lists as arrays, maps as objects.
impl serde::Serialize for RawValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RawValue::Null => serializer.serialize_none(),
            RawValue::Bool(b) => serializer.serialize_bool(*b),
            RawValue::Number(n) => match n.parse::<i64>() {
                Ok(i) => serializer.serialize_i64(i),
                Err(_) => serializer.serialize_str(n),
            },
            RawValue::Text(t) => serializer.serialize_str(t),
            RawValue::List(values) => serializer.collect_seq(values),
            RawValue::Indexed(values) => serializer.collect_seq(values.iter().map(|(_, v)| v)),
            RawValue::Map(map) => map.serialize(serializer),
        }
    }
}

/// An object of its fields, ordered by name.
impl serde::Serialize for RawMap {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}
