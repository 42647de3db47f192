//! `/api/payments` (API.md §14): the four endpoints end to end in the three encodings, the
//! validation, and what a payment does to its invoice: its `totals` show `amount_paid` and
//! `amount_due`, its status follows them, its items may not fall below what was paid, it is
//! not deleted while it has payments, and its status set by hand must agree with them.

mod invoices;
mod records;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Answer, TestServer, client};

/// A published invoice (Due) for client `n`, of one line of `rate`, no tax; its id.
pub(crate) async fn published(s: &TestServer, n: usize, rate: &str) -> i64 {
    let category = s.default_category("invoice").await;
    let id = s
        .created(
            "/api/invoices",
            json!({"bill_clientid": client(s, n), "bill_categoryid": category, "bill_date": "2026-11-01"}),
        )
        .await;
    let lines = json!({"items": [{"description": "Work", "quantity": "1", "rate": rate}]});
    let a = s
        .put(
            &format!("/api/invoices/{id}/items"),
            crate::common::json(lines),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let a = s
        .put(
            &format!("/api/invoices/{id}/publish"),
            crate::common::Body::None,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    id
}

/// Records a payment of `amount` on `invoice` (JSON), asserting 201; returns `data`.
async fn pay(s: &TestServer, invoice: i64, amount: &str) -> Value {
    let a = s
        .post(
            "/api/payments",
            crate::common::json(
                json!({"payment_invoiceid": invoice, "payment_amount": amount, "payment_date": "2026-11-20"}),
            ),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(a.message(), "Payment recorded successfully.");
    a.data().clone()
}

/// The invoice's (status id, amount paid, amount due), read over HTTP.
async fn balance(s: &TestServer, invoice: i64) -> (i64, String, String) {
    let a = s.get(&format!("/api/invoices/{invoice}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let t = &a.data()["totals"];
    (
        a.data()["status"]["id"].as_i64().unwrap(),
        t["amount_paid"].as_str().unwrap().to_owned(),
        t["amount_due"].as_str().unwrap().to_owned(),
    )
}

fn shown(status: i64, paid: &str, due: &str) -> (i64, String, String) {
    (status, paid.to_owned(), due.to_owned())
}

/// The ids of a payment list answer, in order (asserting its status and message).
fn listed(a: &Answer) -> Vec<i64> {
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Payments retrieved successfully.");
    crate::common::ids(a)
}
