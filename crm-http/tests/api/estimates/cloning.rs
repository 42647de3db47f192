//! `POST /estimates/{id}/clone`.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{
    DATE, Encoding, assert_invalid, assert_message, client, create, get, id_of, is_timestamp, item,
    items_body, patch, put_items, tax_rate, without_id,
};
use crate::common::{Body, TestServer, form};

#[tokio::test]
async fn cloning_copies_the_bill_but_takes_the_header_from_the_request() {
    let s = TestServer::start().await;
    let source = id_of(
        &create(
            &s,
            &[
                ("bill_tax_type", "inline"),
                ("bill_notes", "Notes"),
                ("bill_terms", "Terms"),
            ],
        )
        .await,
    );
    let gst = tax_rate(&s, "GST 10%").to_string();
    let lines = [
        item(&[
            ("description", "A"),
            ("unit", "days"),
            ("quantity", "2"),
            ("rate", "100"),
            ("discount_type", "percentage"),
            ("discount_value", "12.5"),
            ("tax_rate_id", &gst),
        ]),
        item(&[("description", "B"), ("quantity", "3"), ("rate", "9.99")]),
        item(&[
            ("description", "C"),
            ("quantity", "1"),
            ("rate", "40"),
            ("tax_rate_id", &gst),
        ]),
    ];
    assert_eq!(
        put_items(&s, source, items_body(Encoding::Form, &lines, &[]))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        patch(
            &s,
            source,
            &[
                ("bill_tax_type", "inline"),
                ("bill_adjustment_description", "Fee"),
                ("bill_adjustment_amount", "1.50")
            ]
        )
        .await
        .status,
        StatusCode::OK
    );
    assert_eq!(
        s.put(
            &format!("/api/estimates/{source}/tags"),
            form(&[("tags[]", "vip")])
        )
        .await
        .status,
        StatusCode::OK
    );
    assert_eq!(
        s.put(
            &format!("/api/estimates/{source}/status"),
            form(&[("status", "accepted")])
        )
        .await
        .status,
        StatusCode::OK
    );
    assert_eq!(
        s.post(
            &format!("/api/estimates/{source}/convert-to-invoice"),
            Body::None
        )
        .await
        .status,
        StatusCode::CREATED
    );
    let before = get(&s, source).await;

    let category = s.default_category("estimate").await.to_string();
    let (c1, p1) = (client(&s, 1).to_string(), s.ids.projects[1].to_string());
    let a = s
        .post(
            &format!("/api/estimates/{source}/clone"),
            form(&[
                ("bill_clientid", &c1),
                ("bill_categoryid", &category),
                ("bill_date", "2026-08-01"),
                ("bill_expiry_date", "2026-08-31"),
                ("bill_projectid", &p1),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.message(), "Estimate cloned successfully.");
    let c = a.data();
    let copy = id_of(c);
    assert_ne!(copy, source);
    assert_eq!(c["status"], "draft");
    assert_eq!(
        c["client"],
        json!({"id": client(&s, 1), "name": "Globex Corporation"})
    );
    assert_eq!(c["project_id"], s.ids.projects[1]);
    assert_eq!(c["category"], before["category"]);
    assert_eq!(
        (&c["dates"]["date"], &c["dates"]["expiry_date"]),
        (&json!("2026-08-01"), &json!("2026-08-31"))
    );
    assert!(is_timestamp(&c["dates"]["created"]));
    assert_eq!(
        c["converted"],
        json!({"is_converted": false, "invoice_id": null})
    );
    assert_eq!(c["tags"], json!([]));
    for field in ["notes", "terms", "tax_type", "totals"] {
        assert_eq!(c[field], before[field], "{field}");
    }
    assert_eq!(c["totals"]["adjustment_amount"], "1.50");
    let copied: Vec<Value> = c["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(without_id)
        .collect();
    let original: Vec<Value> = before["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(without_id)
        .collect();
    assert_eq!(copied, original);
    // The copied per-line taxes point at the copy's lines (same positions).
    let copy_lines: Vec<i64> = c["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(id_of)
        .collect();
    assert_eq!(
        c["taxes"],
        json!([
            {"name": "GST 10%", "rate": "10.00", "tax_rate_id": gst.parse::<i64>().unwrap(), "lineitem_id": copy_lines[0], "vat_category": "S"},
            {"name": "GST 10%", "rate": "10.00", "tax_rate_id": gst.parse::<i64>().unwrap(), "lineitem_id": copy_lines[2], "vat_category": "S"}
        ])
    );
    assert_eq!(&get(&s, copy).await, c);
    assert_eq!(get(&s, source).await, before, "the source is unchanged");

    let bad = s
        .post(&format!("/api/estimates/{source}/clone"), Body::None)
        .await;
    assert_invalid(
        &bad,
        "bill_clientid",
        &["The bill clientid field is required."],
    );
    assert_invalid(
        &bad,
        "bill_categoryid",
        &["The bill categoryid field is required."],
    );
    assert_invalid(&bad, "bill_date", &["The bill date field is required."]);
    let wrong = s
        .post(
            &format!("/api/estimates/{source}/clone"),
            form(&[
                ("bill_clientid", "999999"),
                ("bill_categoryid", &category),
                ("bill_date", "2026-08-01"),
                ("bill_expiry_date", "2026-07-31"),
            ]),
        )
        .await;
    assert_invalid(
        &wrong,
        "bill_clientid",
        &["The selected bill clientid is invalid."],
    );
    assert_invalid(
        &wrong,
        "bill_expiry_date",
        &["The bill expiry date must be a date after or equal to bill date."],
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM estimates WHERE id <> $1", source)
            .await,
        1,
        "only the one clone exists"
    );
    assert_message(
        &s.post(
            "/api/estimates/999999/clone",
            form(&[
                ("bill_clientid", &c1),
                ("bill_categoryid", &category),
                ("bill_date", DATE),
            ]),
        )
        .await,
        StatusCode::NOT_FOUND,
        "Estimate not found.",
    );
}
