//! 422s of create, PATCH and `PUT items`: the exact field names and messages, every failing
//! field at once, and nothing written.

use reqwest::StatusCode;
use serde_json::json;

use super::{
    DATE, Encoding, assert_invalid, client, create, disabled_tax_rate, get, id_of, item,
    items_body, pairs, patch, put_items, tax_rate,
};
use crate::common::{Body, TestServer, form};

#[tokio::test]
async fn creating_with_invalid_fields_reports_every_field_and_writes_nothing() {
    let s = TestServer::start().await;
    let a = s.post("/api/estimates", Body::None).await;
    assert_invalid(
        &a,
        "bill_clientid",
        &["The bill clientid field is required."],
    );
    assert_invalid(
        &a,
        "bill_categoryid",
        &["The bill categoryid field is required."],
    );
    assert_invalid(&a, "bill_date", &["The bill date field is required."]);
    assert_eq!(a.json["errors"].as_object().unwrap().len(), 3);

    let invoice_category = s.default_category("invoice").await.to_string();
    let b = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", "999999"),
                ("bill_categoryid", &invoice_category),
                ("bill_date", "2026-06-20"),
                ("bill_expiry_date", "2026-06-19"),
                ("bill_projectid", "999999"),
                ("bill_tax_type", "flat"),
            ]),
        )
        .await;
    assert_invalid(
        &b,
        "bill_clientid",
        &["The selected bill clientid is invalid."],
    );
    assert_invalid(
        &b,
        "bill_categoryid",
        &["The selected bill categoryid is invalid."],
    );
    assert_invalid(
        &b,
        "bill_expiry_date",
        &["The bill expiry date must be a date after or equal to bill date."],
    );
    assert_invalid(
        &b,
        "bill_projectid",
        &["The selected bill projectid is invalid."],
    );
    assert_invalid(
        &b,
        "bill_tax_type",
        &["The selected bill tax type is invalid."],
    );

    let category = s.default_category("estimate").await.to_string();
    let c = s
        .post(
            "/api/estimates",
            Body::Json(json!({"bill_clientid": client(&s, 0), "bill_categoryid": category, "bill_date": "2026-02-30", "bill_expiry_date": "soon"})),
        )
        .await;
    assert_invalid(&c, "bill_date", &["The bill date is not a valid date."]);
    assert_invalid(
        &c,
        "bill_expiry_date",
        &["The bill expiry date is not a valid date."],
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM estimates WHERE $1::bigint > 0", 1)
            .await,
        0
    );
}

/// Sends every `(body, field, messages)` case to `PUT items` and checks its 422, then that
/// the estimate is exactly as `snapshot`.
async fn refused(s: &TestServer, id: i64, cases: Vec<(Body, &str, Vec<String>)>) {
    let snapshot = get(s, id).await;
    let lines = s
        .scalar(
            "SELECT count(*) FROM estimate_lines WHERE estimate_id = $1",
            id,
        )
        .await;
    for (n, (body, field, messages)) in cases.into_iter().enumerate() {
        let a = put_items(s, id, body).await;
        let expected: Vec<&str> = messages.iter().map(String::as_str).collect();
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "case {n}: {:?}",
            a.json
        );
        assert_invalid(&a, field, &expected);
        assert_eq!(get(s, id).await, snapshot, "case {n} wrote something");
    }
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_lines WHERE estimate_id = $1",
            id
        )
        .await,
        lines
    );
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|m| (*m).to_owned()).collect()
}

#[tokio::test]
async fn invalid_items_in_summary_mode_are_422_and_leave_the_bill_untouched() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let gst = tax_rate(&s, "GST 10%");
    let good = [item(&[
        ("description", "Design"),
        ("quantity", "2"),
        ("rate", "100"),
    ])];
    assert_eq!(
        put_items(&s, id, items_body(Encoding::Form, &good, &[gst]))
            .await
            .status,
        StatusCode::OK
    );
    let line = |q: &str, r: &str| item(&[("description", "X"), ("quantity", q), ("rate", r)]);
    let required = strings(&["The items field is required."]);
    let disabled = disabled_tax_rate(&s);
    let cases: Vec<(Body, &str, Vec<String>)> = vec![
        (Body::None, "items", required.clone()),
        (Body::Json(json!({"items": []})), "items", required.clone()),
        (form(&[("items", "")]), "items", required.clone()),
        (form(&[("items[]", "")]), "items", required.clone()),
        (
            form(&[("tax_rate_ids[]", &gst.to_string())]),
            "items",
            required.clone(),
        ),
        (
            Body::Json(json!({"items": [{}]})),
            "items.0.description",
            strings(&["The items.0.description field is required."]),
        ),
        (
            Body::Json(json!({"items": [{}]})),
            "items.0.quantity",
            strings(&["The items.0.quantity field is required."]),
        ),
        (
            Body::Json(json!({"items": [{}]})),
            "items.0.rate",
            strings(&["The items.0.rate field is required."]),
        ),
        (
            items_body(Encoding::Form, &[line("0", "5")], &[]),
            "items.0.quantity",
            strings(&["The items.0.quantity must be greater than 0."]),
        ),
        (
            items_body(Encoding::Json, &[line("1", "5"), line("-1", "5")], &[]),
            "items.1.quantity",
            strings(&["The items.1.quantity must be greater than 0."]),
        ),
        (
            items_body(Encoding::Form, &[line("1", "0")], &[]),
            "items.0.rate",
            strings(&["The items.0.rate must be greater than 0."]),
        ),
        (
            items_body(Encoding::Form, &[line("1", "1.00001")], &[]),
            "items.0.rate",
            strings(&["The items.0.rate may not have more than 4 decimal places."]),
        ),
        (
            items_body(Encoding::Form, &[line("two", "5")], &[]),
            "items.0.quantity",
            strings(&["The items.0.quantity must be a number."]),
        ),
        (
            items_body(
                Encoding::Form,
                &[item(&[
                    ("description", "X"),
                    ("quantity", "1"),
                    ("rate", "5"),
                    ("tax_rate_id", &gst.to_string()),
                ])],
                &[],
            ),
            "items.0.tax_rate_id",
            strings(&[
                "The items.0.tax rate id field is prohibited when bill tax type is summary.",
            ]),
        ),
        (
            items_body(
                Encoding::Json,
                &[
                    line("1", "5"),
                    item(&[
                        ("description", "X"),
                        ("quantity", "1"),
                        ("rate", "5"),
                        ("discount_type", "fixed"),
                        ("discount_value", "1"),
                    ]),
                ],
                &[],
            ),
            "items.1.discount_type",
            strings(&[
                "The items.1.discount type field is prohibited when bill tax type is summary.",
            ]),
        ),
        (
            items_body(Encoding::Form, &good, &[gst, gst]),
            "tax_rate_ids.1",
            strings(&["The tax rate ids.1 field has a duplicate value."]),
        ),
        (
            items_body(Encoding::Form, &good, &[disabled]),
            "tax_rate_ids.0",
            strings(&["The selected tax rate ids.0 is invalid."]),
        ),
        (
            items_body(Encoding::Json, &good, &[999_999]),
            "tax_rate_ids.0",
            strings(&["The selected tax rate ids.0 is invalid."]),
        ),
        (
            items_body(Encoding::Multipart, &good, &[gst, 999_999]),
            "tax_rate_ids.1",
            strings(&["The selected tax rate ids.1 is invalid."]),
        ),
    ];
    refused(&s, id, cases).await;

    // Every failing field is reported together.
    let a = put_items(&s, id, Body::Json(json!({"items": [{"quantity": 0, "rate": "1.00001"}], "tax_rate_ids": [disabled, disabled]}))).await;
    assert_invalid(
        &a,
        "items.0.description",
        &["The items.0.description field is required."],
    );
    assert_invalid(
        &a,
        "items.0.quantity",
        &["The items.0.quantity must be greater than 0."],
    );
    assert_invalid(
        &a,
        "items.0.rate",
        &["The items.0.rate may not have more than 4 decimal places."],
    );
    assert_invalid(
        &a,
        "tax_rate_ids.1",
        &["The tax rate ids.1 field has a duplicate value."],
    );
    assert_invalid(
        &a,
        "tax_rate_ids.0",
        &["The selected tax rate ids.0 is invalid."],
    );
}

#[tokio::test]
async fn invalid_items_in_inline_mode_are_422_and_leave_the_bill_untouched() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[("bill_tax_type", "inline")]).await);
    let gst = tax_rate(&s, "GST 10%").to_string();
    let good = [item(&[
        ("description", "Design"),
        ("quantity", "2"),
        ("rate", "100"),
        ("tax_rate_id", &gst),
    ])];
    assert_eq!(
        put_items(&s, id, items_body(Encoding::Form, &good, &[]))
            .await
            .status,
        StatusCode::OK
    );
    let disabled = disabled_tax_rate(&s).to_string();
    let with = |extra: &[(&'static str, &str)]| {
        let mut i = item(&[("description", "X"), ("quantity", "1"), ("rate", "5")]);
        i.extend(item(extra));
        i
    };
    let cases: Vec<(Body, &str, Vec<String>)> = vec![
        (
            items_body(Encoding::Form, &good, &[gst.parse().unwrap()]),
            "tax_rate_ids",
            strings(&["The tax rate ids field is prohibited when bill tax type is inline."]),
        ),
        (
            items_body(Encoding::Form, &[with(&[("tax_rate_id", &disabled)])], &[]),
            "items.0.tax_rate_id",
            strings(&["The selected items.0.tax rate id is invalid."]),
        ),
        (
            items_body(
                Encoding::Json,
                &[with(&[]), with(&[("tax_rate_id", "999999")])],
                &[],
            ),
            "items.1.tax_rate_id",
            strings(&["The selected items.1.tax rate id is invalid."]),
        ),
        (
            items_body(
                Encoding::Form,
                &[with(&[
                    ("discount_type", "percentage"),
                    ("discount_value", "150"),
                ])],
                &[],
            ),
            "items.0.discount_value",
            strings(&["The items.0.discount value must be between 0 and 100."]),
        ),
        (
            items_body(Encoding::Form, &[with(&[("discount_type", "fixed")])], &[]),
            "items.0.discount_value",
            strings(&[
                "The items.0.discount value field is required when items.0.discount type is fixed.",
            ]),
        ),
        (
            items_body(Encoding::Form, &[with(&[("discount_type", "half")])], &[]),
            "items.0.discount_type",
            strings(&["The selected items.0.discount type is invalid."]),
        ),
    ];
    refused(&s, id, cases).await;
}

#[tokio::test]
async fn invalid_patches_are_422_and_write_nothing() {
    let s = TestServer::start().await;
    let inline = id_of(
        &create(
            &s,
            &[
                ("bill_tax_type", "inline"),
                ("bill_expiry_date", "2026-07-20"),
            ],
        )
        .await,
    );
    let summary = id_of(&create(&s, &[]).await);
    let gst = tax_rate(&s, "GST 10%");
    let lines = [item(&[
        ("description", "Design"),
        ("quantity", "2"),
        ("rate", "100"),
    ])];
    assert_eq!(
        put_items(&s, inline, items_body(Encoding::Form, &lines, &[]))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        put_items(&s, summary, items_body(Encoding::Form, &lines, &[gst]))
            .await
            .status,
        StatusCode::OK
    );
    let (inline_before, summary_before) = (get(&s, inline).await, get(&s, summary).await);
    let inline_discount = ["The bill discount type must be none when bill tax type is inline."];

    let a = patch(
        &s,
        inline,
        &[
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "5"),
        ],
    )
    .await;
    assert_invalid(&a, "bill_discount_type", &inline_discount);
    let a = patch(
        &s,
        inline,
        &[
            ("bill_discount_type", "percentage"),
            ("bill_discount_percentage", "5"),
        ],
    )
    .await;
    assert_invalid(&a, "bill_discount_type", &inline_discount);
    let a = patch(
        &s,
        summary,
        &[
            ("bill_tax_type", "inline"),
            ("bill_discount_type", "percentage"),
            ("bill_discount_percentage", "10"),
        ],
    )
    .await;
    assert_invalid(&a, "bill_discount_type", &inline_discount);

    let empty = s
        .patch(&format!("/api/estimates/{summary}"), Body::None)
        .await;
    assert_invalid(
        &empty,
        "bill_categoryid",
        &["The bill categoryid field is required."],
    );
    assert_invalid(&empty, "bill_date", &["The bill date field is required."]);

    let invoice_category = s.default_category("invoice").await.to_string();
    let wrong = s
        .patch(
            &format!("/api/estimates/{summary}"),
            Body::Form(pairs(&[
                ("bill_categoryid", &invoice_category),
                ("bill_date", DATE),
                ("bill_expiry_date", "2026-06-01"),
                ("bill_projectid", "999999"),
            ])),
        )
        .await;
    assert_invalid(
        &wrong,
        "bill_categoryid",
        &["The selected bill categoryid is invalid."],
    );
    assert_invalid(
        &wrong,
        "bill_expiry_date",
        &["The bill expiry date must be a date after or equal to bill date."],
    );
    assert_invalid(
        &wrong,
        "bill_projectid",
        &["The selected bill projectid is invalid."],
    );

    // The stored expiry date (2026-07-20) counts when only the date moves past it.
    let a = patch(&s, inline, &[("bill_date", "2026-08-01")]).await;
    assert_invalid(
        &a,
        "bill_expiry_date",
        &["The bill expiry date must be a date after or equal to bill date."],
    );

    let a = patch(&s, summary, &[("bill_discount_type", "fixed")]).await;
    assert_invalid(
        &a,
        "bill_discount_amount",
        &["The bill discount amount field is required when bill discount type is fixed."],
    );
    let a = patch(
        &s,
        summary,
        &[
            ("bill_discount_type", "percentage"),
            ("bill_discount_percentage", "101"),
        ],
    )
    .await;
    assert_invalid(
        &a,
        "bill_discount_percentage",
        &["The bill discount percentage must be between 0 and 100."],
    );
    let a = patch(
        &s,
        summary,
        &[
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "-1"),
        ],
    )
    .await;
    assert_invalid(
        &a,
        "bill_discount_amount",
        &["The bill discount amount must be at least 0."],
    );
    let a = patch(
        &s,
        summary,
        &[
            ("bill_adjustment_amount", "1.234"),
            ("bill_discount_type", "some"),
        ],
    )
    .await;
    assert_invalid(
        &a,
        "bill_adjustment_amount",
        &["The bill adjustment amount may not have more than 2 decimal places."],
    );
    assert_invalid(
        &a,
        "bill_discount_type",
        &["The selected bill discount type is invalid."],
    );
    let a = patch(&s, summary, &[("bill_tax_type", "flat")]).await;
    assert_invalid(
        &a,
        "bill_tax_type",
        &["The selected bill tax type is invalid."],
    );

    assert_eq!(get(&s, inline).await, inline_before);
    assert_eq!(get(&s, summary).await, summary_before);
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_taxes WHERE estimate_id = $1",
            summary
        )
        .await,
        1
    );
}
