//! `/api/invoices` (API.md §9): the eleven endpoints end to end, the status rules, the
//! validation, the three body encodings, the totals of every reference vector, and the
//! path from an estimate (convert, read, publish, delete, convert again).
//!
//! The bill helpers (dates, pairs, items in every encoding, tax rates, clients) are the
//! estimates' (`crate::estimates`): an invoice is sent the same fields. This file holds
//! what the invoice files share: making invoices and reading them back ([`DATE`](crate::estimates::DATE) and
//! client 0 unless told).

mod actions;
mod bodies;
mod convert;
mod records;
mod totals;

use reqwest::StatusCode;
use serde_json::Value;

use crate::common::{Answer, TestServer, id_of};
use crate::estimates::{create_bill, patch_bill};

/// Creates an invoice for client 0 in the default invoice category dated `DATE`;
/// `extra` pairs are sent after those and override them. Asserts 201; returns `data`.
async fn create(s: &TestServer, extra: &[(&str, &str)]) -> Value {
    create_bill(s, "invoices", "invoice", extra).await
}

/// PATCH with the required fields (default invoice category, `DATE`) followed by `extra`.
async fn patch(s: &TestServer, id: i64, extra: &[(&str, &str)]) -> Answer {
    patch_bill(s, "invoices", "invoice", id, extra).await
}

/// `GET /api/invoices/{id}`, asserted 200; returns `data`.
async fn get(s: &TestServer, id: i64) -> Value {
    let a = s.get(&format!("/api/invoices/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Invoice retrieved successfully.");
    a.data().clone()
}

/// An invoice's `totals` as an estimate shows them: without `amount_paid`,
/// `amount_credited` and `amount_due`, which are asserted to be an unpaid invoice's (nothing
/// paid nor credited, the whole final amount due).
pub(crate) fn bill_totals(totals: &Value) -> Value {
    let mut bill = totals.clone();
    let members = bill.as_object_mut().expect("totals");
    assert_eq!(
        members.remove("amount_paid"),
        Some(Value::from("0.00")),
        "{totals}"
    );
    assert_eq!(
        members.remove("amount_credited"),
        Some(Value::from("0.00")),
        "{totals}"
    );
    assert_eq!(
        members.remove("amount_due"),
        Some(totals["final_amount"].clone()),
        "{totals}"
    );
    bill
}

/// The ids of a list answer, in order (asserting its status and message).
fn listed(a: &Answer) -> Vec<i64> {
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Invoices retrieved successfully.");
    a.data().as_array().unwrap().iter().map(id_of).collect()
}
