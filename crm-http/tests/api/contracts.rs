//! `/api/contracts` (API.md §4, reference/contracts.md): the seven endpoints end to end —
//! the record and its envelopes, the derived status (through reads, the `status` filter and
//! the `doc_status` sort), the backing estimate no estimate endpoint shows, PATCH's
//! keep/clear rule, cloning, deletion, tags in every body encoding, and the validation
//! messages of the reference.

mod cloning;
mod listing;
mod records;
mod tags;
mod validation;

use chrono::NaiveDate;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{
    Answer, Body, TestServer, assert_invalid, client, id_of, ids, is_timestamp, json, pairs,
    raw_form, today,
};

/// The start date the tests use unless dates matter.
const START: &str = "2026-06-01";

/// The system-default contract category ("Default").
async fn contract_category(s: &TestServer) -> i64 {
    s.default_category("contract").await
}

/// A new (non-default) contract category named `name`.
async fn new_contract_category(s: &TestServer, name: &str) -> i64 {
    let sql = "INSERT INTO categories (name, type) VALUES ($1, 'contract') RETURNING id";
    s.sql().await.query_one(sql, &[&name]).await.unwrap().get(0)
}

/// The four required fields (client 0, the default contract category, [`START`]) plus
/// `extra`, which override them.
async fn required_plus(
    s: &TestServer,
    title: &str,
    extra: &[(&str, &str)],
) -> Vec<(String, String)> {
    let category = contract_category(s).await.to_string();
    let client = client(s, 0).to_string();
    let mut body = pairs(&[
        ("doc_client_id", &client),
        ("doc_title", title),
        ("doc_date_start", START),
        ("doc_categoryid", &category),
    ]);
    for (k, v) in extra {
        body.retain(|(key, _)| key != k);
        body.push(((*k).to_owned(), (*v).to_owned()));
    }
    body
}

/// Creates a contract titled `title` with [`required_plus`]; asserts 201; returns `data`.
async fn create(s: &TestServer, title: &str, extra: &[(&str, &str)]) -> Value {
    let body = required_plus(s, title, extra).await;
    let a = s.post("/api/contracts", Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    a.data().clone()
}

/// `GET /api/contracts/{id}`, asserted 200; returns `data`.
async fn get(s: &TestServer, id: i64) -> Value {
    let a = s.get(&format!("/api/contracts/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Contract retrieved successfully.");
    a.data().clone()
}

/// `GET /api/contracts?{query}`, asserted 200 with the list message; returns the answer.
async fn list(s: &TestServer, query: &str) -> Answer {
    let a = s.get(&format!("/api/contracts?{query}")).await;
    assert_eq!(a.status, StatusCode::OK, "{query}: {:?}", a.json);
    assert_eq!(a.message(), "Contracts retrieved successfully.");
    a
}

/// The contract's backing estimate id.
async fn backing_estimate(s: &TestServer, contract: i64) -> i64 {
    s.scalar("SELECT estimate_id FROM contracts WHERE id = $1", contract)
        .await
}

/// Asserts the contract 404 body.
#[track_caller]
fn assert_not_found(a: &Answer) {
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{:?}", a.json);
    assert_eq!(a.json, json!({"message": "Contract not found."}));
}

/// Sets the in-app columns the status derives from.
async fn set_state(
    s: &TestServer,
    id: i64,
    published: bool,
    client_signed: bool,
    provider_signed: bool,
    end: Option<NaiveDate>,
) {
    let sql = "UPDATE contracts SET \
                 published_at = CASE WHEN $2 THEN now() - interval '2 days' END, \
                 client_signed_at = CASE WHEN $3 THEN now() - interval '1 day' END, \
                 provider_signed_at = CASE WHEN $4 THEN now() - interval '1 day' END, \
                 date_end = $5 \
               WHERE id = $1";
    let n = s
        .sql()
        .await
        .execute(
            sql,
            &[&id, &published, &client_signed, &provider_signed, &end],
        )
        .await
        .unwrap();
    assert_eq!(n, 1);
}

/// `PUT /api/contracts/{id}/tags`.
async fn put_tags(s: &TestServer, id: i64, body: Body) -> Answer {
    s.put(&format!("/api/contracts/{id}/tags"), body).await
}

/// The contract's tag rows, by position.
async fn stored_tags(s: &TestServer, id: i64) -> Vec<(String, i32)> {
    let rows = s
        .sql()
        .await
        .query(
            "SELECT title, position FROM tags WHERE contract_id = $1 ORDER BY position",
            &[&id],
        )
        .await
        .unwrap();
    rows.iter().map(|r| (r.get(0), r.get(1))).collect()
}

/// Sets value and body again, then clears them with JSON `null`.
async fn clear_with_json_null(s: &TestServer, id: i64) {
    let category = contract_category(s).await;
    let path = format!("/api/contracts/{id}");
    let base = json!({"doc_title": "v5", "doc_date_start": START, "doc_categoryid": category});
    let mut set = base.clone();
    set["doc_value"] = json!("1.00");
    set["doc_body"] = json!("<p>b</p>");
    assert_eq!(s.patch(&path, json(set)).await.data()["value"], "1.00");
    let mut clear = base;
    clear["doc_value"] = Value::Null;
    clear["doc_body"] = Value::Null;
    let a = s.patch(&path, json(clear)).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(
        (&a.data()["value"], &a.data()["body"]),
        (&Value::Null, &Value::Null)
    );
}

/// Puts two line items on the contract's backing estimate.
async fn add_lines(s: &TestServer, contract: i64) -> i64 {
    let estimate = backing_estimate(s, contract).await;
    let sql = "INSERT INTO estimate_lines (estimate_id, position, description, unit, quantity, rate, total) VALUES \
               ($1, 1, 'Design', 'hours', 2, 50, 100), ($1, 2, 'Build', 'days', 1.5, 300, 450)";
    s.sql().await.execute(sql, &[&estimate]).await.unwrap();
    estimate
}

/// A line item as `(position, description, unit, quantity, rate, total)`, numbers as text.
type Line = (i32, String, Option<String>, String, String, String);

/// The lines of an estimate, by position.
async fn lines(s: &TestServer, estimate: i64) -> Vec<Line> {
    let sql = "SELECT position, description, unit, quantity::text, rate::text, total::text FROM estimate_lines \
               WHERE estimate_id = $1 ORDER BY position";
    let rows = s.sql().await.query(sql, &[&estimate]).await.unwrap();
    rows.iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5)))
        .collect()
}
