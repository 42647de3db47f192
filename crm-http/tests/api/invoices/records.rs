//! Creating, reading, updating, listing and deleting invoices; the status object and its
//! rules; validation messages.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{create, get, listed, patch};
use crate::common::{TestServer, assert_invalid, assert_page, form, is_timestamp};
use crate::common::{client, today};
use crate::estimates::{DATE, assert_message, day};

#[tokio::test]
async fn creating_an_invoice_answers_201_with_the_whole_draft_record() {
    let s = TestServer::start().await;
    let category = s.default_category("invoice").await;
    let project = s.ids.projects[0];
    let mut data = create(
        &s,
        &[
            ("bill_projectid", &project.to_string()),
            ("bill_tax_type", "inline"),
            ("bill_notes", "Thanks."),
            ("bill_terms", "Net 30."),
        ],
    )
    .await;
    assert!(is_timestamp(&data["dates"]["created"]), "{data}");
    data["dates"]["created"] = Value::Null;
    let id = data["id"].as_i64().unwrap();
    assert_eq!(
        data,
        json!({
            "id": id, "number": null, "status": {"id": 1, "title": "Draft", "color": "default"},
            "client": {"id": client(&s, 0), "name": "Acme Inc"},
            "project_id": project, "category": {"id": category, "name": "Default"},
            "dates": {"date": DATE, "due_date": "2026-07-20", "created": null, "issued": null},
            "notes": "Thanks.", "terms": "Net 30.", "tax_type": "inline",
            "currency": "EUR", "exchange_rate": null,
            "totals": {
                "subtotal": "0.00", "subtotal_before_discount": "0.00", "discount_type": "none",
                "discount_percentage": "0.00", "discount_amount": "0.00", "amount_before_tax": "0.00",
                "tax_total_percentage": "0.00", "tax_total_amount": "0.00", "adjustment_description": null,
                "adjustment_amount": "0.00", "final_amount": "0.00", "company_currency": null,
                "tax_total_in_company_currency": null, "tax_breakdown": [],
                "amount_paid": "0.00", "amount_credited": "0.00",
                "amount_due": "0.00"
            },
            "estimate_id": null, "recurring_invoice_id": null, "line_items": [], "taxes": [], "tags": [],
            "client_link": null, "parties": null
        })
    );
    let mut read = get(&s, id).await;
    read["dates"]["created"] = Value::Null;
    assert_eq!(read, data);
}

#[tokio::test]
async fn an_unknown_or_malformed_id_is_invoice_not_found() {
    let s = TestServer::start().await;
    for path in [
        "/api/invoices/999999",
        "/api/invoices/abc",
        "/api/invoices/0",
    ] {
        assert_message(
            &s.get(path).await,
            StatusCode::NOT_FOUND,
            "Invoice not found.",
        );
    }
    let a = s
        .put("/api/invoices/999999/publish", crate::common::Body::None)
        .await;
    assert_message(&a, StatusCode::NOT_FOUND, "Invoice not found.");
    // A bad body to a missing invoice is its 404, not a 422.
    let a = s
        .put("/api/invoices/999999/status", form(&[("status", "3")]))
        .await;
    assert_message(&a, StatusCode::NOT_FOUND, "Invoice not found.");
}

#[tokio::test]
async fn validation_names_every_failing_field_with_the_estimates_messages() {
    let s = TestServer::start().await;
    let estimate_category = s.default_category("estimate").await.to_string();
    let a = s
        .post(
            "/api/invoices",
            form(&[
                ("bill_clientid", "999999"),
                ("bill_categoryid", &estimate_category),
                ("bill_date", "2026-02-30"),
                ("bill_tax_type", "flat"),
            ]),
        )
        .await;
    assert_invalid(
        &a,
        "bill_clientid",
        &["The selected bill clientid is invalid."],
    );
    assert_invalid(
        &a,
        "bill_categoryid",
        &["The selected bill categoryid is invalid."],
    );
    assert_invalid(&a, "bill_date", &["The bill date is not a valid date."]);
    assert_invalid(
        &a,
        "bill_tax_type",
        &["The selected bill tax type is invalid."],
    );
    let a = s
        .post(
            "/api/invoices",
            form(&[
                ("bill_clientid", &client(&s, 0).to_string()),
                (
                    "bill_categoryid",
                    &s.default_category("invoice").await.to_string(),
                ),
                ("bill_date", DATE),
                ("bill_due_date", "2026-06-19"),
            ]),
        )
        .await;
    assert_invalid(
        &a,
        "bill_due_date",
        &["The bill due date must be a date after or equal to bill date."],
    );
    let id = create(&s, &[]).await["id"].as_i64().unwrap();
    let a = patch(
        &s,
        id,
        &[
            ("bill_tax_type", "inline"),
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "5"),
        ],
    )
    .await;
    assert_invalid(
        &a,
        "bill_discount_type",
        &["The bill discount type must be none when bill tax type is inline."],
    );
    for bad in ["3", "6", "paid", "2.5"] {
        let a = s
            .put(
                &format!("/api/invoices/{id}/status"),
                form(&[("status", bad)]),
            )
            .await;
        assert_invalid(&a, "status", &["The selected status is invalid."]);
    }
    let a = s
        .put(
            &format!("/api/invoices/{id}/status"),
            crate::common::Body::None,
        )
        .await;
    assert_invalid(&a, "status", &["The status field is required."]);
    let a = s
        .get("/api/invoices?status=expired&sort=bill_expiry_date")
        .await;
    assert_invalid(&a, "status", &["The selected status is invalid."]);
    assert_invalid(&a, "sort", &["The selected sort is invalid."]);
    assert_eq!(get(&s, id).await["status"]["id"], 1);
}

#[tokio::test]
async fn patch_sets_the_header_and_keeps_the_status() {
    let s = TestServer::start().await;
    let id = create(&s, &[("bill_notes", "Old")]).await["id"]
        .as_i64()
        .unwrap();
    // Cancelled before it was issued: not locked (an issued one is, API.md §18).
    let a = s
        .put(
            &format!("/api/invoices/{id}/status"),
            form(&[("status", "20")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Invoice status updated successfully.");
    let a = patch(
        &s,
        id,
        &[
            ("bill_due_date", "2099-01-01"),
            ("bill_adjustment_description", "Rounding"),
            ("bill_adjustment_amount", "-0.50"),
            ("bill_notes", ""),
        ],
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Invoice updated successfully.");
    let d = a.data();
    assert_eq!(
        d["status"],
        json!({"id": 20, "title": "Cancelled", "color": "default"})
    );
    assert_eq!(d["dates"]["due_date"], "2099-01-01");
    assert_eq!(d["notes"], Value::Null);
    assert_eq!(d["totals"]["adjustment_description"], "Rounding");
    assert_eq!(d["totals"]["final_amount"], "-0.50");
}

#[tokio::test]
async fn a_due_invoice_past_its_due_date_shows_and_filters_as_overdue() {
    let s = TestServer::start().await;
    // Only this test's invoices: the demo seed's are removed.
    s.sql()
        .await
        .batch_execute("DELETE FROM payments; DELETE FROM invoices")
        .await
        .unwrap();
    let yesterday = day(today(), -1);
    let old = create(
        &s,
        &[("bill_date", "2020-01-01"), ("bill_due_date", &yesterday)],
    )
    .await;
    let old = old["id"].as_i64().unwrap();
    let fresh = create(&s, &[("bill_date", &day(today(), 0))]).await["id"]
        .as_i64()
        .unwrap();
    let paid = create(
        &s,
        &[("bill_date", "2020-01-01"), ("bill_due_date", "2020-01-02")],
    )
    .await;
    let paid = paid["id"].as_i64().unwrap();
    for (id, status) in [(old, "2"), (fresh, "2"), (paid, "5")] {
        let a = s
            .put(
                &format!("/api/invoices/{id}/status"),
                form(&[("status", status)]),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    }
    assert_eq!(
        get(&s, old).await["status"],
        json!({"id": 3, "title": "Overdue", "color": "danger"})
    );
    assert_eq!(
        get(&s, fresh).await["status"],
        json!({"id": 2, "title": "Due", "color": "info"})
    );
    assert_eq!(listed(&s.get("/api/invoices?status=3").await), [old]);
    assert_eq!(listed(&s.get("/api/invoices?status=2").await), [fresh]);
    assert_eq!(listed(&s.get("/api/invoices?status=5").await), [paid]);
    let a = patch(
        &s,
        old,
        &[
            ("bill_date", "2020-01-01"),
            ("bill_due_date", &day(today(), 1)),
        ],
    )
    .await;
    // Issued, its due date is kept (API.md §18).
    assert_eq!(a.status, StatusCode::CONFLICT, "{:?}", a.json);
    assert_eq!(
        a.json["message"],
        "An issued invoice cannot be changed. Issue a credit note instead."
    );
}

#[tokio::test]
async fn the_list_pages_sorts_filters_and_searches() {
    let s = TestServer::start().await;
    // Only this test's invoices: the demo seed's are removed.
    s.sql()
        .await
        .batch_execute("DELETE FROM payments; DELETE FROM invoices")
        .await
        .unwrap();
    let globex = client(&s, 1).to_string();
    let a = create(
        &s,
        &[("bill_date", "2026-01-01"), ("bill_terms", "50% up front")],
    )
    .await;
    let b = create(
        &s,
        &[("bill_clientid", &globex), ("bill_date", "2026-03-01")],
    )
    .await;
    let c = create(&s, &[("bill_date", "2026-02-01")]).await;
    let (a, b, c) = (
        a["id"].as_i64().unwrap(),
        b["id"].as_i64().unwrap(),
        c["id"].as_i64().unwrap(),
    );
    let page = s.get("/api/invoices?limit=2").await;
    assert_page(&page, "Invoices retrieved successfully.", 1, 2, 3);
    assert_eq!(listed(&page), [c, b]);
    assert_eq!(listed(&s.get("/api/invoices?limit=2&page=2").await), [a]);
    assert_eq!(
        listed(&s.get("/api/invoices?sort=bill_date&order=asc").await),
        [a, c, b]
    );
    assert_eq!(
        listed(&s.get("/api/invoices?sort=bill_due_date").await),
        [b, c, a]
    );
    assert_eq!(
        listed(&s.get(&format!("/api/invoices?client_id={globex}")).await),
        [b]
    );
    assert_eq!(listed(&s.get("/api/invoices?search=GLOBEX").await), [b]);
    assert_eq!(listed(&s.get("/api/invoices?search=50%25").await), [a]);
    assert_eq!(
        listed(&s.get(&format!("/api/invoices?search={c}")).await),
        [c]
    );
    let page = s.get("/api/invoices?page=5").await;
    assert_page(&page, "Invoices retrieved successfully.", 5, 35, 3);
    assert!(listed(&page).is_empty());
}

#[tokio::test]
async fn tags_are_set_in_order_and_cleared() {
    let s = TestServer::start().await;
    let id = create(&s, &[]).await["id"].as_i64().unwrap();
    let a = s
        .put(
            &format!("/api/invoices/{id}/tags"),
            form(&[
                ("tags[]", " urgent "),
                ("tags[]", "q3"),
                ("tags[]", "urgent"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Invoice tags updated successfully.");
    assert_eq!(a.data()["tags"], json!(["urgent", "q3"]));
    let a = s
        .put(&format!("/api/invoices/{id}/tags"), form(&[("tags[]", "")]))
        .await;
    assert_eq!(a.data()["tags"], json!([]));
    let a = s
        .put(
            &format!("/api/invoices/{id}/tags"),
            crate::common::Body::None,
        )
        .await;
    assert_invalid(&a, "tags", &["The tags field is required."]);
}
