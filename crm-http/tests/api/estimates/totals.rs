//! Every totals reference vector (`crm-core/vectors/totals.jsonl`, the CRM's own figures) run
//! through the API: create, PATCH the header discount and adjustment, PUT the items, and
//! compare every expected figure with the answer. [`every_vector_through`] runs them on any
//! bill area (estimates here, invoices in `invoices/totals.rs`): one calculator, the same
//! figures.

use std::collections::BTreeMap;

use crm_core::vectors::{TOTALS_COUNT, Vector, totals_vectors};
use futures_util::StreamExt;
use reqwest::StatusCode;
use rust_decimal::Decimal;
use serde_json::Value;

use super::{DATE, Encoding, Item, id_of, items_body, pairs};
use crate::common::{Body, TestServer};

/// How many vectors run at once.
const CONCURRENCY: usize = 8;

/// The text of a vector's member (`""` when absent).
fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_default()
}

/// A tax rate's canonical text, the key of the rates created for the vectors.
fn rate_key(rate: &str) -> String {
    let mut d: Decimal = rate
        .parse()
        .unwrap_or_else(|_| panic!("a decimal tax rate: {rate}"));
    d.rescale(2);
    d.to_string()
}

/// Every tax rate the vectors use, created once each with SQL; rate text → id.
async fn create_rates(s: &TestServer, vectors: &[Vector]) -> BTreeMap<String, i64> {
    let mut needed: Vec<String> = Vec::new();
    for v in vectors {
        let input = &v.input;
        let summary = input["tax_rates"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str);
        let inline = input["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|i| i["tax_rate"].as_str());
        needed.extend(summary.chain(inline).map(rate_key));
    }
    needed.sort();
    needed.dedup();
    let db = s.sql().await;
    let mut ids = BTreeMap::new();
    for rate in needed {
        let row = db
            .query_one(
                "INSERT INTO tax_rates (name, rate) VALUES ($1, $2::text::numeric) RETURNING id",
                &[&format!("Vector rate {rate}%"), &rate],
            )
            .await
            .unwrap();
        ids.insert(rate, row.get::<_, i64>(0));
    }
    ids
}

/// Runs vector `n` and returns its mismatches (empty when every figure matches).
async fn run(
    s: &TestServer,
    area: &str,
    category: i64,
    rates: &BTreeMap<String, i64>,
    n: usize,
    v: &Vector,
) -> Vec<String> {
    let input = &v.input;
    let label = format!(
        "vector {n} ({})",
        input["name"].as_str().unwrap_or("unnamed")
    );
    let tax_type = text(input, "tax_type");
    let client = s.ids.clients[n % 2].id.to_string();
    let category = category.to_string();
    let created = s
        .post(
            &format!("/api/{area}"),
            Body::Form(pairs(&[
                ("bill_clientid", &client),
                ("bill_categoryid", &category),
                ("bill_date", DATE),
                ("bill_tax_type", tax_type),
            ])),
        )
        .await;
    assert_eq!(
        created.status,
        StatusCode::CREATED,
        "{label}: {:?}",
        created.json
    );
    let id = id_of(created.data());

    let mut header = pairs(&[
        ("bill_categoryid", &category),
        ("bill_date", DATE),
        ("bill_adjustment_amount", text(input, "adjustment_amount")),
    ]);
    if tax_type == "summary" {
        let kind = text(input, "discount_type");
        header.extend(pairs(&[("bill_discount_type", kind)]));
        match kind {
            "fixed" => header.extend(pairs(&[(
                "bill_discount_amount",
                text(input, "discount_amount"),
            )])),
            "percentage" => header.extend(pairs(&[(
                "bill_discount_percentage",
                text(input, "discount_percentage"),
            )])),
            _ => {}
        }
    }
    let patched = s
        .patch(&format!("/api/{area}/{id}"), Body::Form(header))
        .await;
    assert_eq!(
        patched.status,
        StatusCode::OK,
        "{label}: {:?}",
        patched.json
    );

    let items: Vec<Item> = input["items"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let mut fields: Item = vec![
                ("description", format!("Line {}", i + 1)),
                ("quantity", text(it, "quantity").to_owned()),
                ("rate", text(it, "rate").to_owned()),
            ];
            for key in ["discount_type", "discount_value"] {
                if let Some(value) = it[key].as_str() {
                    fields.push((key, value.to_owned()));
                }
            }
            if let Some(rate) = it["tax_rate"].as_str() {
                fields.push(("tax_rate_id", rates[&rate_key(rate)].to_string()));
            }
            fields
        })
        .collect();
    let summary_rates: Vec<i64> = input["tax_rates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|r| rates[&rate_key(r)])
        .collect();
    let enc = [Encoding::Form, Encoding::Json, Encoding::Multipart][n % 3];
    let a = s
        .put(
            &format!("/api/{area}/{id}/items"),
            items_body(enc, &items, &summary_rates),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{label} ({enc:?}): {:?}", a.json);

    let mut mismatches = Vec::new();
    let mut check = |what: String, got: &Value, want: &Value| {
        if got != want {
            mismatches.push(format!(
                "{label} ({enc:?}): {what}: got {got}, expected {want}"
            ));
        }
    };
    let expected = &v.expected;
    let lines = a.data()["line_items"].as_array().unwrap();
    let want_lines = expected["lines"].as_array().unwrap();
    check(
        "line count".into(),
        &Value::from(lines.len()),
        &Value::from(want_lines.len()),
    );
    for (i, (got, want)) in lines.iter().zip(want_lines).enumerate() {
        check(format!("line {i} total"), &got["total"], &want["total"]);
        check(
            format!("line {i} discount.amount"),
            &got["discount"]["amount"],
            &want["discount_amount"],
        );
    }
    let totals = &a.data()["totals"];
    for (member, want) in expected["totals"].as_object().unwrap() {
        check(format!("totals.{member}"), &totals[member], want);
    }
    check(
        "totals.adjustment_description".into(),
        &totals["adjustment_description"],
        &Value::Null,
    );
    mismatches
}

/// Runs every vector through `area` (`estimates`, `invoices`), records of category type
/// `category_type`, and asserts every figure and that each vector made one record.
pub(crate) async fn every_vector_through(area: &str, category_type: &str) {
    let vectors = totals_vectors().unwrap();
    let s = TestServer::start().await;
    let category = s.default_category(category_type).await;
    let rates = create_rates(&s, &vectors).await;
    let count = || async {
        s.sql()
            .await
            .query_one(&format!("SELECT count(*) FROM {area}"), &[])
            .await
            .unwrap()
            .get::<_, i64>(0)
    };
    let before = count().await;

    let outcomes: Vec<Vec<String>> = futures_util::stream::iter(vectors.iter().enumerate())
        .map(|(n, v)| run(&s, area, category, &rates, n, v))
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await;
    assert_eq!(outcomes.len(), TOTALS_COUNT);
    let mismatches: Vec<String> = outcomes.into_iter().flatten().collect();
    assert!(
        mismatches.is_empty(),
        "{} mismatching figures:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    let made = count().await - before;
    assert_eq!(usize::try_from(made).unwrap(), TOTALS_COUNT);
}

#[tokio::test]
async fn every_totals_vector_is_reproduced_to_the_cent_over_http() {
    every_vector_through("estimates", "estimate").await;
}
