//! Switching `bill_tax_type` with PATCH: what is cleared in each direction.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{Encoding, create, get, id_of, item, items_body, patch, put_items, tax_rate};
use crate::common::TestServer;

#[tokio::test]
async fn switching_the_tax_type_clears_taxes_header_discount_and_line_tax_fields() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let gst = tax_rate(&s, "GST 10%");
    assert_eq!(
        patch(
            &s,
            id,
            &[
                ("bill_discount_type", "fixed"),
                ("bill_discount_amount", "25")
            ]
        )
        .await
        .status,
        StatusCode::OK
    );
    let lines = [
        item(&[
            ("description", "Design"),
            ("quantity", "2"),
            ("rate", "100"),
        ]),
        item(&[
            ("description", "Hosting"),
            ("quantity", "1"),
            ("rate", "50"),
        ]),
    ];
    assert_eq!(
        put_items(&s, id, items_body(Encoding::Form, &lines, &[gst]))
            .await
            .data()["totals"]["final_amount"],
        "247.50"
    );

    // Summary → inline: taxes and the header discount go; the lines stay, untaxed.
    let a = patch(&s, id, &[("bill_tax_type", "inline")]).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let d = a.data();
    assert_eq!(d["tax_type"], "inline");
    assert_eq!(d["taxes"], json!([]));
    assert_eq!(
        d["totals"],
        json!({
            "subtotal": "250.00", "subtotal_before_discount": "250.00", "discount_type": "none",
            "discount_percentage": "0.00", "discount_amount": "0.00", "amount_before_tax": "250.00",
            "tax_total_percentage": "0.00", "tax_total_amount": "0.00", "adjustment_description": null,
            "adjustment_amount": "0.00", "final_amount": "250.00", "company_currency": null,
            "tax_total_in_company_currency": null,
            // Untaxed lines: the "No Tax" rate, category Z.
            "tax_breakdown": [{"category": "Z", "rate": "0.00", "base": "250.00", "amount": "0.00"}]
        })
    );
    let totals: Vec<&Value> = d["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["total"])
        .collect();
    assert_eq!(totals, [&json!("200.00"), &json!("50.00")]);
    assert!(
        d["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["tax_rate_id"].is_null())
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_taxes WHERE estimate_id = $1",
            id
        )
        .await,
        0
    );

    // Inline lines with their own rates and discounts (the reference's inline example).
    let inline = [
        item(&[
            ("description", "Item A"),
            ("quantity", "2"),
            ("rate", "100"),
            ("discount_type", "fixed"),
            ("discount_value", "20"),
            ("tax_rate_id", &gst.to_string()),
        ]),
        item(&[
            ("description", "Item B"),
            ("quantity", "1"),
            ("rate", "50"),
            ("discount_type", "fixed"),
            ("discount_value", "5"),
            ("tax_rate_id", &gst.to_string()),
        ]),
    ];
    let b = put_items(&s, id, items_body(Encoding::Form, &inline, &[])).await;
    assert_eq!(b.status, StatusCode::OK, "{:?}", b.json);
    let line_ids: Vec<i64> = b.data()["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(id_of)
        .collect();
    assert_eq!(
        b.data()["taxes"],
        json!([
            {"name": "GST 10%", "rate": "10.00", "tax_rate_id": gst, "lineitem_id": line_ids[0], "vat_category": "S"},
            {"name": "GST 10%", "rate": "10.00", "tax_rate_id": gst, "lineitem_id": line_ids[1], "vat_category": "S"}
        ])
    );
    assert_eq!(
        b.data()["line_items"][0]["discount"],
        json!({"type": "fixed", "value": "20.00", "amount": "20.00"})
    );
    assert_eq!(b.data()["line_items"][0]["tax_rate_id"], gst);
    assert_eq!(b.data()["line_items"][0]["total"], "198.00");
    assert_eq!(b.data()["totals"]["final_amount"], "247.50");
    assert_eq!(b.data()["totals"]["tax_total_amount"], "22.50");

    // Inline → summary, with a discount in the same request: the line rates, line
    // discounts and per-line taxes go; the new header discount applies.
    let c = patch(
        &s,
        id,
        &[
            ("bill_tax_type", "summary"),
            ("bill_discount_type", "percentage"),
            ("bill_discount_percentage", "10"),
        ],
    )
    .await;
    assert_eq!(c.status, StatusCode::OK, "{:?}", c.json);
    let d = c.data();
    assert_eq!(d["tax_type"], "summary");
    assert_eq!(d["taxes"], json!([]));
    for (line, total) in d["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["200.00", "50.00"])
    {
        assert_eq!(line["tax_rate_id"], Value::Null);
        assert_eq!(
            line["discount"],
            json!({"type": "none", "value": "0.00", "amount": "0.00"})
        );
        assert_eq!(line["total"], total);
    }
    assert_eq!(
        d["totals"],
        json!({
            "subtotal": "250.00", "subtotal_before_discount": "250.00", "discount_type": "percentage",
            "discount_percentage": "10.00", "discount_amount": "25.00", "amount_before_tax": "225.00",
            "tax_total_percentage": "0.00", "tax_total_amount": "0.00", "adjustment_description": null,
            "adjustment_amount": "0.00", "final_amount": "225.00", "company_currency": null,
            "tax_total_in_company_currency": null,
            "tax_breakdown": [{"category": "Z", "rate": "0.00", "base": "225.00", "amount": "0.00"}]
        })
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_taxes WHERE estimate_id = $1",
            id
        )
        .await,
        0
    );
    assert_eq!(&get(&s, id).await, d);
}
