//! `/api/estimates` (API.md §5): the twelve endpoints end to end, the status rules, the
//! validation, the three body encodings, the totals of every reference vector, concurrency,
//! and what deletion removes.
//!
//! This file holds what the area's test files share: making estimates, reading rows back
//! with SQL, dates, and the line-item request in each encoding.

mod actions;
mod bodies;
mod cloning;
mod concurrency;
mod convert;
mod listing;
mod records;
mod removal;
mod tax_modes;
pub(crate) mod totals;
mod validation;

use chrono::NaiveDate;
use reqwest::StatusCode;
use serde_json::{Map, Value};

use crate::common::{
    Answer, Body, TestServer, assert_invalid, client, id_of, is_timestamp, pairs, today,
};

/// The estimate date the tests use unless dates matter.
pub(crate) const DATE: &str = "2026-06-20";

/// `date` plus (or minus) `days`, as `YYYY-MM-DD`.
pub(crate) fn day(date: NaiveDate, days: i64) -> String {
    (date + chrono::Duration::days(days)).to_string()
}

/// A seeded tax rate's id by name.
pub(crate) fn tax_rate(s: &TestServer, name: &str) -> i64 {
    s.ids
        .tax_rates
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("seeded tax rate {name}"))
        .id
}

/// The seeded disabled tax rate's id.
pub(crate) fn disabled_tax_rate(s: &TestServer) -> i64 {
    s.ids
        .tax_rates
        .iter()
        .find(|t| t.status == "disabled")
        .expect("a disabled seeded rate")
        .id
}

/// Creates an estimate for client 0 in the default estimate category dated [`DATE`];
/// `extra` pairs are sent after those and override them. Asserts 201; returns `data`.
pub(crate) async fn create(s: &TestServer, extra: &[(&str, &str)]) -> Value {
    create_bill(s, "estimates", "estimate", extra).await
}

/// Creates a bill in `area` (`estimates`, `invoices`) for client 0 in the default category
/// of `category_type` dated [`DATE`]; `extra` pairs are sent after those and override them.
/// Asserts 201; returns `data`.
pub(crate) async fn create_bill(
    s: &TestServer,
    area: &str,
    category_type: &str,
    extra: &[(&str, &str)],
) -> Value {
    let category = s.default_category(category_type).await.to_string();
    let client = client(s, 0).to_string();
    let mut body = pairs(&[
        ("bill_clientid", &client),
        ("bill_categoryid", &category),
        ("bill_date", DATE),
    ]);
    body.extend(pairs(extra));
    let a = s.post(&format!("/api/{area}"), Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    a.data().clone()
}

/// `PUT /api/estimates/{id}/items`.
pub(crate) async fn put_items(s: &TestServer, id: i64, body: Body) -> Answer {
    s.put(&format!("/api/estimates/{id}/items"), body).await
}

/// PATCH with the required fields (default category, [`DATE`]) followed by `extra`.
async fn patch(s: &TestServer, id: i64, extra: &[(&str, &str)]) -> Answer {
    patch_bill(s, "estimates", "estimate", id, extra).await
}

/// PATCH of bill `id` in `area` with the required fields (the default category of
/// `category_type`, [`DATE`]) followed by `extra`.
pub(crate) async fn patch_bill(
    s: &TestServer,
    area: &str,
    category_type: &str,
    id: i64,
    extra: &[(&str, &str)],
) -> Answer {
    let category = s.default_category(category_type).await.to_string();
    let mut body = pairs(&[("bill_categoryid", &category), ("bill_date", DATE)]);
    body.extend(pairs(extra));
    s.patch(&format!("/api/{area}/{id}"), Body::Form(body))
        .await
}

/// `GET /api/estimates/{id}`, asserted 200; returns `data`.
pub(crate) async fn get(s: &TestServer, id: i64) -> Value {
    let a = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    a.data().clone()
}

/// Asserts a status and a message-only body (409, 404).
#[track_caller]
pub(crate) fn assert_message(a: &Answer, status: StatusCode, message: &str) {
    assert_eq!(a.status, status, "{:?}", a.json);
    assert_eq!(a.json, serde_json::json!({ "message": message }));
}

/// The ids of a list answer, in order (asserting its status and message).
fn listed(a: &Answer) -> Vec<i64> {
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Estimates retrieved successfully.");
    a.data().as_array().unwrap().iter().map(id_of).collect()
}

/// A line item without its `id` (to compare lines across estimates and invoices).
pub(crate) fn without_id(line: &Value) -> Value {
    let mut m: Map<String, Value> = line.as_object().expect("a line object").clone();
    m.remove("id");
    Value::Object(m)
}

/// One requested line item: its fields as text, as a client would type them.
pub(crate) type Item = Vec<(&'static str, String)>;

/// Builds an [`Item`] from string slices.
pub(crate) fn item(fields: &[(&'static str, &str)]) -> Item {
    fields.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
}

/// How a `PUT items` (or any bracketed) request is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// `application/x-www-form-urlencoded` as reqwest writes it (brackets as `%5B`/`%5D`).
    Form,
    /// Form with raw `[` and `]` in the names.
    RawBrackets,
    /// Form with lower-case `%5b`/`%5d`.
    LowerPercent,
    /// JSON, numbers as JSON numbers.
    Json,
    /// JSON, numbers as strings.
    JsonStrings,
    /// `multipart/form-data` with bracket names.
    Multipart,
}

/// The fields whose values are numbers (sent as JSON numbers by [`Encoding::Json`]).
pub(crate) const NUMERIC: &[&str] = &["quantity", "rate", "discount_value", "tax_rate_id"];

/// Percent-encodes a form value (everything but unreserved characters).
fn encode_value(v: &str) -> String {
    v.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A form body written by hand (for the bracket spellings reqwest does not produce).
fn encoded_form(pairs: &[(String, String)], lower_percent: bool) -> Body {
    let text: Vec<String> = pairs
        .iter()
        .map(|(k, v)| {
            let k = if lower_percent {
                k.replace('[', "%5b").replace(']', "%5d")
            } else {
                k.clone()
            };
            format!("{k}={}", encode_value(v))
        })
        .collect();
    crate::common::raw_form(&text.join("&"))
}

/// The bracketed pairs of `items` (with the given indices) and `tax_rate_ids[]`.
fn bracket_pairs(items: &[(usize, &Item)], tax_rate_ids: &[i64]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, item) in items {
        for (k, v) in item.iter() {
            out.push((format!("items[{i}][{k}]"), v.clone()));
        }
    }
    out.extend(
        tax_rate_ids
            .iter()
            .map(|t| ("tax_rate_ids[]".to_owned(), t.to_string())),
    );
    out
}

/// A form-like body (any encoding but JSON) from bracketed pairs.
fn bracket_body(enc: Encoding, pairs: Vec<(String, String)>) -> Body {
    match enc {
        Encoding::Form => Body::Form(pairs),
        Encoding::RawBrackets => encoded_form(&pairs, false),
        Encoding::LowerPercent => encoded_form(&pairs, true),
        Encoding::Multipart => Body::Multipart(pairs),
        Encoding::Json | Encoding::JsonStrings => panic!("JSON bodies are not bracketed pairs"),
    }
}

/// A `PUT items` body: `items` in order (indices 0..n) and `tax_rate_ids` (omitted when
/// empty), in `enc`.
pub(crate) fn items_body(enc: Encoding, items: &[Item], tax_rate_ids: &[i64]) -> Body {
    match enc {
        Encoding::Json | Encoding::JsonStrings => {
            let numbers = enc == Encoding::Json;
            let items: Vec<Value> = items
                .iter()
                .map(|item| {
                    let m: Map<String, Value> = item
                        .iter()
                        .map(|(k, v)| {
                            let value = if numbers && NUMERIC.contains(k) {
                                serde_json::from_str::<Value>(v)
                                    .unwrap_or_else(|_| Value::String(v.clone()))
                            } else {
                                Value::String(v.clone())
                            };
                            ((*k).to_owned(), value)
                        })
                        .collect();
                    Value::Object(m)
                })
                .collect();
            let mut body = serde_json::json!({ "items": items });
            if !tax_rate_ids.is_empty() {
                body["tax_rate_ids"] = if numbers {
                    tax_rate_ids.iter().map(|t| Value::from(*t)).collect()
                } else {
                    tax_rate_ids
                        .iter()
                        .map(|t| Value::String(t.to_string()))
                        .collect()
                };
            }
            Body::Json(body)
        }
        _ => {
            let indexed: Vec<(usize, &Item)> = items.iter().enumerate().collect();
            bracket_body(enc, bracket_pairs(&indexed, tax_rate_ids))
        }
    }
}

/// A bracketed `PUT items` body with explicit (sparse, unordered) indices.
fn indexed_items_body(enc: Encoding, items: &[(usize, Item)], tax_rate_ids: &[i64]) -> Body {
    let indexed: Vec<(usize, &Item)> = items.iter().map(|(i, item)| (*i, item)).collect();
    bracket_body(enc, bracket_pairs(&indexed, tax_rate_ids))
}
