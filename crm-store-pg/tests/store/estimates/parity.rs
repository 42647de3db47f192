//! Totals parity through the database: every reference vector (`crm-core/vectors/totals.jsonl`)
//! (computed by the CRM itself) is set up as an estimate through the store (header
//! discount and adjustment by PATCH, lines and tax rates by PUT items), read back, and
//! every expected figure compared.

use crm_core::bill::EstimateKind;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crm_core::bill::ItemsRequest;
use crm_core::estimate::{Estimate, EstimateUpdate, NewEstimate};
use crm_core::ids::EstimateId;
use crm_core::input::{RawMap, RawValue};
use crm_core::vectors::{Vector, totals_vectors};
use futures_util::future::join_all;
use serde_json::Value;

use crm_core::totals::Policy;
use crm_store_pg::{Store, StoreConfig};

use crate::common::{Seeded, ctx, raw, seeded};

/// Vectors run this many at a time (the test store's pool has 8 connections).
const PARALLEL: usize = 8;

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The tax rate id for each rate the vectors use (inserting the ones the seed lacks).
async fn rate_ids(s: &Seeded, vectors: &[Vector]) -> HashMap<String, String> {
    let mut ids: HashMap<String, String> = s
        .ids
        .tax_rates
        .iter()
        .filter(|t| t.status == "enabled")
        .map(|t| (t.rate.clone(), t.id.to_string()))
        .collect();
    let client = s.db.client().await.unwrap();
    for v in vectors {
        let input = &v.input;
        let mut rates: Vec<String> = input["tax_rates"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r.as_str().map(str::to_owned))
            .collect();
        rates.extend(
            input["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|i| text(i, "tax_rate")),
        );
        for rate in rates {
            if let Entry::Vacant(slot) = ids.entry(rate) {
                let sql = "INSERT INTO tax_rates (name, rate) VALUES ('Vector ' || $1, $1::text::numeric) RETURNING id";
                let row = client.query_one(sql, &[slot.key()]).await.unwrap();
                slot.insert(row.get::<_, i64>(0).to_string());
            }
        }
    }
    ids
}

/// The PATCH setting the vector's header discount (summary) and adjustment.
fn header(input: &Value, category: &str) -> EstimateUpdate {
    let mut pairs: Vec<(String, String)> = vec![
        ("bill_categoryid".into(), category.into()),
        ("bill_date".into(), "2026-11-01".into()),
    ];
    if input["tax_type"] == "summary" {
        for (field, key) in [
            ("bill_discount_type", "discount_type"),
            ("bill_discount_amount", "discount_amount"),
            ("bill_discount_percentage", "discount_percentage"),
        ] {
            if let Some(v) = text(input, key) {
                pairs.push((field.into(), v));
            }
        }
    }
    if let Some(a) = text(input, "adjustment_amount") {
        pairs.push(("bill_adjustment_amount".into(), a));
    }
    let map: RawMap = pairs
        .into_iter()
        .map(|(k, v)| (k, RawValue::text(v)))
        .collect();
    EstimateUpdate::parse(&map).unwrap_or_else(|r| panic!("{:?}: {r:?}", input.get("name")))
}

/// The PUT items request of the vector.
fn items(input: &Value, rates: &HashMap<String, String>) -> ItemsRequest {
    let inline = input["tax_type"] == "inline";
    let lines = input["items"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(n, i)| {
            let mut map = RawMap::new();
            map.insert("description", RawValue::text(format!("line {n}")));
            for key in ["quantity", "rate", "discount_type", "discount_value"] {
                if let Some(v) =
                    text(i, key).filter(|_| inline || key == "quantity" || key == "rate")
                {
                    map.insert(key, RawValue::text(v));
                }
            }
            if let Some(rate) = text(i, "tax_rate").filter(|_| inline) {
                map.insert("tax_rate_id", RawValue::text(rates[&rate].clone()));
            }
            RawValue::Map(map)
        });
    let mut map = RawMap::new();
    map.insert("items", RawValue::List(lines.collect()));
    if !inline {
        let ids = input["tax_rates"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| RawValue::text(rates[r.as_str().unwrap()].clone()));
        map.insert("tax_rate_ids", RawValue::List(ids.collect()));
    }
    ItemsRequest::parse(&map).unwrap_or_else(|r| panic!("{:?}: {r:?}", input.get("name")))
}

/// Every expected figure that differs from the estimate's, as text.
fn differences(n: usize, v: &Vector, e: &Estimate) -> Vec<String> {
    let mut out = Vec::new();
    let expected_lines = v.expected["lines"].as_array().unwrap();
    if expected_lines.len() != e.line_items.len() {
        out.push(format!(
            "vector {n}: {} lines, expected {}",
            e.line_items.len(),
            expected_lines.len()
        ));
    }
    for (i, (want, got)) in expected_lines.iter().zip(&e.line_items).enumerate() {
        for (key, value) in [
            ("total", got.total.to_string()),
            ("discount_amount", got.discount.amount.to_string()),
        ] {
            if want[key] != value.as_str() {
                out.push(format!(
                    "vector {n} line {i} {key}: got {value}, expected {}",
                    want[key]
                ));
            }
        }
    }
    let totals = serde_json::to_value(&e.totals).unwrap();
    for (key, want) in v.expected["totals"].as_object().unwrap() {
        if totals[key] != *want {
            out.push(format!(
                "vector {n} totals.{key}: got {}, expected {want}",
                totals[key]
            ));
        }
    }
    out
}

/// Sets the vector up as a new estimate for client `client` and returns what the store
/// reads back.
async fn run(
    store: &Store,
    client: &str,
    category: &str,
    rates: &HashMap<String, String>,
    v: &Vector,
) -> Estimate {
    let input = &v.input;
    let tax_type = input["tax_type"].as_str().unwrap();
    let new = NewEstimate::parse(&raw(&[
        ("bill_clientid", client),
        ("bill_categoryid", category),
        ("bill_date", "2026-11-01"),
        ("bill_tax_type", tax_type),
    ]))
    .unwrap();
    let id: EstimateId = store
        .bills::<EstimateKind>()
        .create(ctx(), &new)
        .await
        .unwrap()
        .id;
    store
        .bills::<EstimateKind>()
        .update(ctx(), id, &header(input, category))
        .await
        .unwrap();
    let set = store
        .bills::<EstimateKind>()
        .replace_items(ctx(), id, items(input, rates))
        .await
        .unwrap();
    let read = store.bills::<EstimateKind>().get(ctx(), id).await.unwrap();
    assert_eq!(set, read);
    read
}

/// Every difference between the vectors' expected figures and what `store` gives.
async fn run_all(s: &Seeded, store: &Store, vectors: &[Vector]) -> Vec<String> {
    let client = s.ids.clients[0].id.to_string();
    let category = s.default_category("estimate").await.to_string();
    let rates = rate_ids(s, vectors).await;
    let mut failures = Vec::new();
    for (chunk_no, chunk) in vectors.chunks(PARALLEL).enumerate() {
        let read = join_all(
            chunk
                .iter()
                .map(|v| run(store, &client, &category, &rates, v)),
        )
        .await;
        for (i, (v, e)) in chunk.iter().zip(&read).enumerate() {
            failures.extend(differences(chunk_no * PARALLEL + i, v, e));
        }
    }
    failures
}

fn vectors() -> Vec<Vector> {
    totals_vectors().unwrap()
}

#[tokio::test]
async fn every_totals_vector_is_reproduced_through_the_database() {
    let vectors = vectors();
    assert_eq!(vectors.len(), 416);
    let s = seeded().await;
    let failures = run_all(&s, &s.store, &vectors).await;
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[tokio::test]
async fn a_store_configured_for_exact_decimals_misses_the_crms_half_cent_cases() {
    let vectors = vectors();
    let s = seeded().await;
    let exact = Store::new(&StoreConfig {
        totals_policy: Policy::ExactDecimal,
        ..s.db.config().clone()
    })
    .unwrap();
    // The first 16 vectors are the named edge cases, half-cent ties among them.
    let failures = run_all(&s, &exact, &vectors[..16]).await;
    assert!(
        !failures.is_empty(),
        "the exact policy should differ from the CRM on a half-cent tie"
    );
}
