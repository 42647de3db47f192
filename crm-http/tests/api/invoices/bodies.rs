//! The three body encodings on the invoice endpoints, and an invoice's figures equal to an
//! estimate's for the same request.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{create, get};
use crate::common::{Body, TestServer};
use crate::common::{client, pairs};
use crate::estimates::{DATE, Encoding, item, items_body, put_items, tax_rate, without_id};

/// The lines of the bodies below: a summary bill with two lines.
fn lines() -> Vec<crate::estimates::Item> {
    vec![
        item(&[
            ("description", "Design"),
            ("unit", "hours"),
            ("quantity", "1.5"),
            ("rate", "1385.27"),
        ]),
        item(&[
            ("description", "Hosting"),
            ("quantity", "12"),
            ("rate", "9.99"),
        ]),
    ]
}

#[tokio::test]
async fn every_encoding_creates_and_sets_items_the_same_way() {
    let s = TestServer::start().await;
    let category = s.default_category("invoice").await;
    let client = client(&s, 0);
    let vat = tax_rate(&s, "VAT 20%");
    let fields = [
        ("bill_clientid", client.to_string()),
        ("bill_categoryid", category.to_string()),
        ("bill_date", DATE.to_owned()),
        ("bill_due_date", "2026-07-01".to_owned()),
    ];
    let owned: Vec<(String, String)> = fields
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    let bodies = [
        (Encoding::Form, Body::Form(owned.clone())),
        (
            Encoding::Json,
            Body::Json(
                json!({"bill_clientid": client, "bill_categoryid": category, "bill_date": DATE, "bill_due_date": "2026-07-01"}),
            ),
        ),
        (Encoding::Multipart, Body::Multipart(owned)),
    ];
    let mut answers = Vec::new();
    for (enc, body) in bodies {
        let a = s.post("/api/invoices", body).await;
        assert_eq!(a.status, StatusCode::CREATED, "{enc:?}: {:?}", a.json);
        assert_eq!(a.message(), "Invoice created successfully.");
        assert_eq!(a.data()["dates"]["due_date"], "2026-07-01", "{enc:?}");
        let id = a.data()["id"].as_i64().unwrap();
        let a = s
            .put(
                &format!("/api/invoices/{id}/items"),
                items_body(enc, &lines(), &[vat]),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{enc:?}: {:?}", a.json);
        assert_eq!(a.message(), "Invoice items updated successfully.");
        answers.push(a.data().clone());
    }
    for a in &answers {
        assert_eq!(a["totals"], answers[0]["totals"]);
        assert_eq!(a["totals"]["final_amount"], "2637.34");
        assert_eq!(
            a["taxes"],
            json!([{"name": "VAT 20%", "rate": "20.00", "tax_rate_id": vat, "lineitem_id": null, "vat_category": "S"}])
        );
    }
    for enc in [
        Encoding::RawBrackets,
        Encoding::LowerPercent,
        Encoding::JsonStrings,
    ] {
        let id = create(&s, &[]).await["id"].as_i64().unwrap();
        let a = s
            .put(
                &format!("/api/invoices/{id}/items"),
                items_body(enc, &lines(), &[vat]),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{enc:?}: {:?}", a.json);
        assert_eq!(a.data()["totals"], answers[0]["totals"], "{enc:?}");
    }
}

#[tokio::test]
async fn an_invoice_shows_the_same_lines_and_totals_as_an_estimate_given_the_same_request() {
    let s = TestServer::start().await;
    let ten = tax_rate(&s, "GST 10%");
    let inline_lines = vec![
        item(&[
            ("description", "A"),
            ("quantity", "3"),
            ("rate", "19.99"),
            ("tax_rate_id", &ten.to_string()),
            ("discount_type", "percentage"),
            ("discount_value", "12.5"),
        ]),
        item(&[
            ("description", "B"),
            ("quantity", "0.3333"),
            ("rate", "100"),
            ("discount_type", "fixed"),
            ("discount_value", "1.01"),
        ]),
    ];
    let estimate = crate::estimates::create(&s, &[("bill_tax_type", "inline")]).await;
    let estimate_id = estimate["id"].as_i64().unwrap();
    let invoice = create(&s, &[("bill_tax_type", "inline")]).await["id"]
        .as_i64()
        .unwrap();
    let e = put_items(
        &s,
        estimate_id,
        items_body(Encoding::Json, &inline_lines, &[]),
    )
    .await;
    assert_eq!(e.status, StatusCode::OK, "{:?}", e.json);
    let i = s
        .put(
            &format!("/api/invoices/{invoice}/items"),
            items_body(Encoding::Json, &inline_lines, &[]),
        )
        .await;
    assert_eq!(i.status, StatusCode::OK, "{:?}", i.json);
    assert_eq!(super::bill_totals(&i.data()["totals"]), e.data()["totals"]);
    let strip = |v: &Value| -> Vec<Value> {
        v["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .map(without_id)
            .collect()
    };
    assert_eq!(strip(i.data()), strip(e.data()));
    // The inline mode's refusals are the estimates' too.
    let a = s
        .put(
            &format!("/api/invoices/{invoice}/items"),
            items_body(Encoding::Form, &lines(), &[ten]),
        )
        .await;
    crate::common::assert_invalid(
        &a,
        "tax_rate_ids",
        &["The tax rate ids field is prohibited when bill tax type is inline."],
    );
    assert_eq!(
        get(&s, invoice).await["line_items"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let _ = pairs(&[]);
}
