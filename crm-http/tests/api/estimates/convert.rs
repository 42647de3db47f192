//! `POST /estimates/{id}/convert-to-invoice`: the invoice it creates, and converting once.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{
    Encoding, assert_message, create, day, get, id_of, is_timestamp, item, items_body, patch,
    put_items, tax_rate, today, without_id,
};
use crate::common::{Answer, Body, TestServer, form};

async fn convert(s: &TestServer, id: i64) -> Answer {
    s.post(
        &format!("/api/estimates/{id}/convert-to-invoice"),
        Body::None,
    )
    .await
}

/// Asserts that `invoice` is the Draft invoice converted from `estimate` on one of the
/// `days` (today before and after the request), and returns its line ids.
async fn assert_converted(
    s: &TestServer,
    invoice: &Value,
    estimate: &Value,
    days: &[chrono::NaiveDate],
) -> Vec<i64> {
    let id = id_of(invoice);
    let stored = s
        .sql()
        .await
        .query_one(
            "SELECT id FROM invoices WHERE estimate_id = $1",
            &[&id_of(estimate)],
        )
        .await
        .unwrap();
    assert_eq!(id, stored.get::<_, i64>(0));
    assert_eq!(
        invoice["status"],
        json!({"id": 1, "title": "Draft", "color": "default"})
    );
    let category = s.default_category("invoice").await;
    assert_eq!(
        invoice["category"],
        json!({"id": category, "name": "Default"})
    );
    assert!(
        days.iter()
            .any(|d| invoice["dates"]["date"] == d.to_string()
                && invoice["dates"]["due_date"] == day(*d, 30)),
        "dated today and due in 30 days: {}",
        invoice["dates"]
    );
    assert!(is_timestamp(&invoice["dates"]["created"]));
    for field in ["client", "project_id", "notes", "terms", "tax_type"] {
        assert_eq!(invoice[field], estimate[field], "{field}");
    }
    assert_eq!(
        crate::invoices::bill_totals(&invoice["totals"]),
        estimate["totals"]
    );
    assert_eq!(invoice["estimate_id"], estimate["id"]);
    assert_eq!(invoice["tags"], json!([]));
    let lines = invoice["line_items"].as_array().unwrap();
    let copied: Vec<Value> = lines.iter().map(without_id).collect();
    let original: Vec<Value> = estimate["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(without_id)
        .collect();
    assert_eq!(copied, original);
    let line_ids: Vec<i64> = lines.iter().map(id_of).collect();
    let stored: Vec<i64> = s
        .sql()
        .await
        .query(
            "SELECT id FROM invoice_lines WHERE invoice_id = $1 ORDER BY position",
            &[&id],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(line_ids, stored, "the invoice's own lines");
    // Taxes are copies; a per-line tax points at the invoice line in the same position.
    let estimate_lines: Vec<i64> = estimate["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(id_of)
        .collect();
    let taxes = invoice["taxes"].as_array().unwrap();
    let original_taxes = estimate["taxes"].as_array().unwrap();
    assert_eq!(taxes.len(), original_taxes.len());
    for (t, o) in taxes.iter().zip(original_taxes) {
        for field in ["name", "rate", "tax_rate_id"] {
            assert_eq!(t[field], o[field]);
        }
        match o["lineitem_id"].as_i64() {
            None => assert_eq!(t["lineitem_id"], Value::Null),
            Some(line) => {
                let position = estimate_lines.iter().position(|l| *l == line).unwrap();
                assert_eq!(t["lineitem_id"], line_ids[position]);
            }
        }
    }
    line_ids
}

#[tokio::test]
async fn converting_creates_a_draft_invoice_with_copies_of_the_bill() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0].to_string();
    let id = id_of(
        &create(
            &s,
            &[
                ("bill_projectid", &project),
                ("bill_notes", "N"),
                ("bill_terms", "T"),
                ("bill_expiry_date", "2099-01-01"),
            ],
        )
        .await,
    );
    let lines = [
        item(&[
            ("description", "Design"),
            ("unit", "hours"),
            ("quantity", "2"),
            ("rate", "100"),
        ]),
        item(&[
            ("description", "Hosting"),
            ("quantity", "1"),
            ("rate", "50"),
        ]),
    ];
    let rates = [tax_rate(&s, "GST 10%"), tax_rate(&s, "Sales Tax 7.5%")];
    assert_eq!(
        put_items(&s, id, items_body(Encoding::Form, &lines, &rates))
            .await
            .status,
        StatusCode::OK
    );
    let p = patch(
        &s,
        id,
        &[
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "25"),
            ("bill_adjustment_description", "Fee"),
            ("bill_adjustment_amount", "1"),
        ],
    )
    .await;
    assert_eq!(p.data()["totals"]["final_amount"], "265.38");
    assert_eq!(
        s.put(
            &format!("/api/estimates/{id}/tags"),
            form(&[("tags[]", "vip")])
        )
        .await
        .status,
        StatusCode::OK
    );
    let before = s
        .put(
            &format!("/api/estimates/{id}/status"),
            form(&[("status", "accepted")]),
        )
        .await
        .data()
        .clone();

    let first_day = today();
    let a = convert(&s, id).await;
    let days = [first_day, today()];
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.message(), "Estimate converted to invoice successfully.");
    let invoice = a.data().clone();
    assert_converted(&s, &invoice, &before, &days).await;
    assert_eq!(invoice["totals"]["adjustment_description"], "Fee");
    assert_eq!(invoice["taxes"].as_array().unwrap().len(), 2);

    // The estimate is marked converted; nothing else about it changes.
    let after = get(&s, id).await;
    assert_eq!(
        after["converted"],
        json!({"is_converted": true, "invoice_id": invoice["id"]})
    );
    let mut expected = before.clone();
    expected["converted"] = after["converted"].clone();
    assert_eq!(after, expected);

    // Converting again is a conflict and changes nothing.
    assert_message(
        &convert(&s, id).await,
        StatusCode::CONFLICT,
        "Estimate has already been converted to an invoice.",
    );
    assert_eq!(get(&s, id).await, after);
    assert_eq!(
        s.scalar("SELECT count(*) FROM invoices WHERE estimate_id = $1", id)
            .await,
        1
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM invoices WHERE id <> $1 AND estimate_id IS NOT NULL",
            id_of(&invoice)
        )
        .await,
        0
    );
    assert_message(
        &convert(&s, 999_999).await,
        StatusCode::NOT_FOUND,
        "Estimate not found.",
    );
}

#[tokio::test]
async fn an_inline_draft_converts_with_its_per_line_taxes_and_stays_a_draft() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[("bill_tax_type", "inline")]).await);
    let (gst, vat) = (
        tax_rate(&s, "GST 10%").to_string(),
        tax_rate(&s, "VAT 20%").to_string(),
    );
    let lines = [
        item(&[
            ("description", "A"),
            ("quantity", "2"),
            ("rate", "100"),
            ("discount_type", "fixed"),
            ("discount_value", "20"),
            ("tax_rate_id", &gst),
        ]),
        item(&[("description", "B"), ("quantity", "1"), ("rate", "9.99")]),
        item(&[
            ("description", "C"),
            ("quantity", "3"),
            ("rate", "33.33"),
            ("discount_type", "percentage"),
            ("discount_value", "12.5"),
            ("tax_rate_id", &vat),
        ]),
    ];
    let set = put_items(&s, id, items_body(Encoding::Form, &lines, &[])).await;
    assert_eq!(set.status, StatusCode::OK, "{:?}", set.json);
    let before = set.data().clone();

    let first_day = today();
    let a = convert(&s, id).await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    let line_ids = assert_converted(&s, a.data(), &before, &[first_day, today()]).await;
    let taxes = a.data()["taxes"].as_array().unwrap();
    assert_eq!(taxes.len(), 2);
    assert_eq!(
        (
            taxes[0]["lineitem_id"].as_i64(),
            taxes[1]["lineitem_id"].as_i64()
        ),
        (Some(line_ids[0]), Some(line_ids[2]))
    );
    let after = get(&s, id).await;
    assert_eq!(after["status"], "draft");
    assert_eq!(after["converted"]["invoice_id"], a.data()["id"]);
}
