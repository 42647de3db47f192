//! Creating, reading and updating (PATCH) estimates: the estimate's whole shape, the
//! line items as `PUT items` answers them, and PATCH semantics.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::{
    DATE, Encoding, client, create, get, id_of, is_timestamp, item, items_body, patch, put_items,
    tax_rate,
};
use crate::common::{Body, TestServer, form};

/// The totals of an estimate without lines, header discount or adjustment.
fn zero_totals() -> Value {
    json!({
        "subtotal": "0.00", "subtotal_before_discount": "0.00", "discount_type": "none",
        "discount_percentage": "0.00", "discount_amount": "0.00", "amount_before_tax": "0.00",
        "tax_total_percentage": "0.00", "tax_total_amount": "0.00", "adjustment_description": null,
        "adjustment_amount": "0.00", "final_amount": "0.00", "company_currency": null,
        "tax_total_in_company_currency": null, "tax_breakdown": []
    })
}

#[tokio::test]
async fn creating_an_estimate_answers_201_with_the_whole_draft_record() {
    let s = TestServer::start().await;
    let category = s.default_category("estimate").await;
    let project = s.ids.projects[0];
    let a = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", &client(&s, 0).to_string()),
                ("bill_categoryid", &category.to_string()),
                ("bill_date", "2026-06-20"),
                ("bill_expiry_date", "2026-07-20"),
                ("bill_projectid", &project.to_string()),
                ("bill_tax_type", "inline"),
                ("bill_notes", "Thanks for asking."),
                ("bill_terms", "Valid 30 days."),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.message(), "Estimate created successfully.");
    let mut data = a.data().clone();
    assert!(
        is_timestamp(&data["dates"]["created"]),
        "{}",
        data["dates"]["created"]
    );
    data["dates"]["created"] = Value::Null;
    let id = id_of(&data);
    assert_eq!(
        data,
        json!({
            "id": id, "number": null, "status": "draft", "client": {"id": client(&s, 0), "name": "Acme Inc"},
            "project_id": project, "category": {"id": category, "name": "Default"},
            "dates": {"date": "2026-06-20", "expiry_date": "2026-07-20", "created": null, "revised": null},
            "notes": "Thanks for asking.", "terms": "Valid 30 days.", "tax_type": "inline",
            "currency": "EUR", "exchange_rate": null,
            "totals": zero_totals(), "converted": {"is_converted": false, "invoice_id": null},
            "line_items": [], "taxes": [], "tags": [],
            "client_link": null, "client_response": null
        })
    );
    let read = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(read.status, StatusCode::OK);
    assert_eq!(read.message(), "Estimate retrieved successfully.");
    assert_eq!(read.data(), a.data());
    assert_eq!(
        s.scalar("SELECT creator_id FROM estimates WHERE id = $1", id)
            .await,
        1
    );

    // A second administrator's key creates as that user; the tax type defaults to summary.
    let key = s.key_for(s.ids.admins[1]).await;
    let b = s
        .call_as(
            &key,
            Method::POST,
            "/api/estimates",
            Body::Json(json!({"bill_clientid": client(&s, 2), "bill_categoryid": category, "bill_date": "2026-06-21"})),
        )
        .await;
    assert_eq!(b.status, StatusCode::CREATED, "{:?}", b.json);
    assert_eq!(b.data()["tax_type"], "summary");
    assert_eq!(b.data()["project_id"], Value::Null);
    assert_eq!(b.data()["dates"]["expiry_date"], Value::Null);
    assert_eq!(b.data()["notes"], Value::Null);
    assert_eq!(
        b.data()["client"],
        json!({"id": client(&s, 2), "name": "Initech"})
    );
    assert_eq!(
        s.scalar(
            "SELECT creator_id FROM estimates WHERE id = $1",
            id_of(b.data())
        )
        .await,
        s.ids.admins[1]
    );
}

#[tokio::test]
async fn putting_items_answers_every_line_tax_and_total_field() {
    let s = TestServer::start().await;
    let e = create(&s, &[]).await;
    let id = id_of(&e);
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
    let gst = tax_rate(&s, "GST 10%");
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
            ("long_description", "One year"),
        ]),
    ];
    let a = put_items(&s, id, items_body(Encoding::Form, &lines, &[gst])).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Estimate items updated successfully.");
    let d = a.data();
    assert_eq!(
        d["totals"],
        json!({
            "subtotal": "250.00", "subtotal_before_discount": "250.00", "discount_type": "fixed",
            "discount_percentage": "0.00", "discount_amount": "25.00", "amount_before_tax": "225.00",
            "tax_total_percentage": "10.00", "tax_total_amount": "22.50", "adjustment_description": null,
            "adjustment_amount": "0.00", "final_amount": "247.50", "company_currency": null,
            "tax_total_in_company_currency": null,
            "tax_breakdown": [{"category": "S", "rate": "10.00", "base": "225.00", "amount": "22.50"}]
        })
    );
    let ids: Vec<i64> = d["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(id_of)
        .collect();
    assert_eq!(
        d["line_items"],
        json!([
            {"id": ids[0], "position": 1, "description": "Design", "long_description": null, "unit": "hours",
             "unit_code": "HUR", "quantity": "2.00", "rate": "100.00", "total": "200.00", "type": "plain", "tax_status": "taxable",
             "tax_rate_id": null, "discount": {"type": "none", "value": "0.00", "amount": "0.00"}},
            {"id": ids[1], "position": 2, "description": "Hosting", "long_description": "One year", "unit": null,
             "unit_code": "C62", "quantity": "1.00", "rate": "50.00", "total": "50.00", "type": "plain", "tax_status": "taxable",
             "tax_rate_id": null, "discount": {"type": "none", "value": "0.00", "amount": "0.00"}}
        ])
    );
    assert_eq!(
        d["taxes"],
        json!([{"name": "GST 10%", "rate": "10.00", "tax_rate_id": gst, "lineitem_id": null, "vat_category": "S"}])
    );
    assert_eq!(d["status"], "draft");
    assert_eq!(&get(&s, id).await, d);

    // The request is the complete bill: a new set replaces lines and taxes; no
    // tax_rate_ids means no summary taxes.
    let b = put_items(
        &s,
        id,
        items_body(
            Encoding::Form,
            &[item(&[
                ("description", "Audit"),
                ("quantity", "1.5"),
                ("rate", "1385.27"),
            ])],
            &[],
        ),
    )
    .await;
    assert_eq!(b.status, StatusCode::OK, "{:?}", b.json);
    assert_eq!(b.data()["taxes"], json!([]));
    assert_eq!(b.data()["line_items"].as_array().unwrap().len(), 1);
    assert_eq!(b.data()["line_items"][0]["quantity"], "1.50");
    assert_eq!(b.data()["line_items"][0]["total"], "2077.90");
    assert_eq!(b.data()["totals"]["tax_total_percentage"], "0.00");
    assert_eq!(b.data()["totals"]["final_amount"], "2052.90");
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_lines WHERE estimate_id = $1",
            id
        )
        .await,
        1
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_taxes WHERE estimate_id = $1",
            id
        )
        .await,
        0
    );
}

#[tokio::test]
async fn patch_keeps_the_status_and_recomputes_the_totals() {
    let s = TestServer::start().await;
    let id = id_of(
        &create(
            &s,
            &[("bill_notes", "First notes"), ("bill_terms", "First terms")],
        )
        .await,
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
        put_items(
            &s,
            id,
            items_body(Encoding::Form, &lines, &[tax_rate(&s, "GST 10%")])
        )
        .await
        .status,
        StatusCode::OK
    );
    assert_eq!(
        s.put(&format!("/api/estimates/{id}/publish"), Body::None)
            .await
            .status,
        StatusCode::OK
    );

    let project = s.ids.projects[1].to_string();
    let a = patch(
        &s,
        id,
        &[
            ("bill_date", "2026-06-22"),
            ("bill_expiry_date", "2099-01-31"),
            ("bill_projectid", &project),
            ("bill_notes", "New notes"),
            ("bill_discount_type", "percentage"),
            ("bill_discount_percentage", "10"),
            ("bill_adjustment_description", "Rounding"),
            ("bill_adjustment_amount", "-2.50"),
        ],
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Estimate updated successfully.");
    let d = a.data();
    assert_eq!(d["status"], "new");
    assert_eq!(d["dates"]["date"], "2026-06-22");
    assert_eq!(d["dates"]["expiry_date"], "2099-01-31");
    assert_eq!(d["project_id"], s.ids.projects[1]);
    assert_eq!(
        (d["notes"].as_str(), d["terms"].as_str()),
        (Some("New notes"), Some("First terms"))
    );
    assert_eq!(
        d["totals"],
        json!({
            "subtotal": "250.00", "subtotal_before_discount": "250.00", "discount_type": "percentage",
            "discount_percentage": "10.00", "discount_amount": "25.00", "amount_before_tax": "225.00",
            "tax_total_percentage": "10.00", "tax_total_amount": "22.50", "adjustment_description": "Rounding",
            "adjustment_amount": "-2.50", "final_amount": "245.00", "company_currency": null,
            "tax_total_in_company_currency": null,
            // −2.50 is not a rounding amount: EN 16931 cannot state these totals.
            "tax_breakdown": null
        })
    );
    assert_eq!(&get(&s, id).await, d);

    // Absent optional fields are kept (the date is required, so it is sent again).
    let kept = patch(&s, id, &[("bill_date", "2026-06-22")]).await;
    assert_eq!(kept.status, StatusCode::OK, "{:?}", kept.json);
    assert_eq!(kept.data(), d);

    // Fields sent empty are cleared; a cleared adjustment is 0.00 and the total follows.
    let s2 = s
        .put(
            &format!("/api/estimates/{id}/status"),
            form(&[("status", "revised")]),
        )
        .await;
    assert_eq!(s2.status, StatusCode::OK);
    let cleared = patch(
        &s,
        id,
        &[
            ("bill_notes", ""),
            ("bill_projectid", ""),
            ("bill_expiry_date", ""),
            ("bill_adjustment_description", ""),
            ("bill_adjustment_amount", ""),
        ],
    )
    .await;
    assert_eq!(cleared.status, StatusCode::OK, "{:?}", cleared.json);
    let c = cleared.data();
    assert_eq!(c["status"], "revised");
    assert_eq!(
        (c["notes"].clone(), c["terms"].clone()),
        (Value::Null, json!("First terms"))
    );
    assert_eq!(c["project_id"], Value::Null);
    assert_eq!(c["dates"]["expiry_date"], Value::Null);
    assert_eq!(c["dates"]["date"], DATE);
    assert_eq!(c["totals"]["adjustment_description"], Value::Null);
    assert_eq!(c["totals"]["adjustment_amount"], "0.00");
    assert_eq!(c["totals"]["discount_amount"], "25.00");
    assert_eq!(c["totals"]["final_amount"], "247.50");
    // A fixed discount replaces the percentage.
    let fixed = patch(
        &s,
        id,
        &[
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "40.5"),
        ],
    )
    .await;
    assert_eq!(fixed.status, StatusCode::OK, "{:?}", fixed.json);
    assert_eq!(fixed.data()["totals"]["discount_percentage"], "0.00");
    assert_eq!(fixed.data()["totals"]["discount_amount"], "40.50");
    assert_eq!(fixed.data()["totals"]["amount_before_tax"], "209.50");
    assert_eq!(fixed.data()["totals"]["tax_total_amount"], "20.95");
    assert_eq!(fixed.data()["totals"]["final_amount"], "230.45");
}
