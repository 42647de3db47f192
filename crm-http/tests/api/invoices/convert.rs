//! From an estimate to the client: convert, read and publish the invoice; deleting it
//! frees the estimate for another conversion.

use reqwest::StatusCode;
use serde_json::json;

use super::get;
use crate::common::{Body, TestServer};
use crate::estimates::{
    Encoding, assert_message, item, items_body, put_items, tax_rate, without_id,
};

#[tokio::test]
async fn a_converted_invoice_is_read_published_and_deleted_and_the_estimate_converts_again() {
    let s = TestServer::start().await;
    let estimate = crate::estimates::create(&s, &[]).await["id"]
        .as_i64()
        .unwrap();
    let vat = tax_rate(&s, "VAT 20%");
    let lines = vec![item(&[
        ("description", "Design"),
        ("quantity", "1.5"),
        ("rate", "1385.27"),
    ])];
    let e = put_items(&s, estimate, items_body(Encoding::Form, &lines, &[vat])).await;
    assert_eq!(e.status, StatusCode::OK, "{:?}", e.json);
    let a = s
        .post(
            &format!("/api/estimates/{estimate}/convert-to-invoice"),
            Body::None,
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    let invoice = a.data()["id"].as_i64().unwrap();

    let read = get(&s, invoice).await;
    assert_eq!(read["estimate_id"], estimate);
    assert_eq!(
        read["status"],
        json!({"id": 1, "title": "Draft", "color": "default"})
    );
    assert_eq!(super::bill_totals(&read["totals"]), e.data()["totals"]);
    let strip = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .map(without_id)
            .collect()
    };
    assert_eq!(strip(&read), strip(e.data()));
    let listed = s.get(&format!("/api/invoices?search={invoice}")).await;
    assert_eq!(listed.data()[0]["id"], invoice);

    // Cancelled before it was issued (an issued one is never deleted: API.md §18).
    let a = s
        .put(
            &format!("/api/invoices/{invoice}/status"),
            crate::common::form(&[("status", "20")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.data()["status"]["id"], 20);

    let a = s
        .post(
            &format!("/api/estimates/{estimate}/convert-to-invoice"),
            Body::None,
        )
        .await;
    assert_message(
        &a,
        StatusCode::CONFLICT,
        "Estimate has already been converted to an invoice.",
    );

    let a = s.delete(&format!("/api/invoices/{invoice}")).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let after = crate::estimates::get(&s, estimate).await;
    assert_eq!(
        after["converted"],
        json!({"is_converted": false, "invoice_id": null})
    );
    let a = s
        .post(
            &format!("/api/estimates/{estimate}/convert-to-invoice"),
            Body::None,
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    let again = a.data()["id"].as_i64().unwrap();
    assert_ne!(again, invoice);
    assert_eq!(
        crate::estimates::get(&s, estimate).await["converted"],
        json!({"is_converted": true, "invoice_id": again})
    );
}
