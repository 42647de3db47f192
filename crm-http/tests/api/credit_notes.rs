//! Credit notes (API.md §18) end to end: issued against an issued invoice in the three
//! encodings, whole or in part; the invoice's `amount_credited`, `amount_due` and status
//! follow; refusals (a draft, more than is left, a bad line, an unknown invoice) write
//! nothing; read, listed with filters, as a PDF, on its client page and in its email; the
//! key's scopes; no route changes or deletes one.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Body, TestServer, assert_invalid, form, ids, json as json_body};
use crate::payments::published;

/// Issues a credit note against `invoice` with `body`; asserts 201 and gives `data`.
async fn issue(s: &TestServer, invoice: i64, body: Body) -> Value {
    let a = s
        .post(&format!("/api/invoices/{invoice}/credit-notes"), body)
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(a.message(), "Credit note issued successfully.");
    a.data().clone()
}

/// (status id, amount paid, amount credited, amount due) of an invoice over HTTP.
async fn books(s: &TestServer, invoice: i64) -> (i64, String, String, String) {
    let a = s.get(&format!("/api/invoices/{invoice}")).await;
    let t = &a.data()["totals"];
    let text = |k: &str| t[k].as_str().unwrap().to_owned();
    (
        a.data()["status"]["id"].as_i64().unwrap(),
        text("amount_paid"),
        text("amount_credited"),
        text("amount_due"),
    )
}

fn books_of(status: i64, paid: &str, credited: &str, due: &str) -> (i64, String, String, String) {
    (status, paid.into(), credited.into(), due.into())
}

#[tokio::test]
async fn credit_notes_are_issued_in_the_three_encodings_and_move_the_invoice() {
    let s = TestServer::start().await;
    let invoice = published(&s, 0, "100.00").await;
    let number = s.number(&format!("/api/invoices/{invoice}")).await;
    // JSON: one line of 20.00.
    let first = issue(
        &s,
        invoice,
        json_body(json!({"reason": "Hours billed twice", "date": "2026-11-02",
            "items": [{"description": "Consulting", "quantity": 2, "rate": "10.00"}]})),
    )
    .await;
    assert_eq!(first["number"], "CN-2026-00001");
    assert_eq!(first["invoice_id"], invoice);
    assert_eq!(first["invoice_number"], number.as_str());
    assert_eq!(first["date"], "2026-11-02");
    assert_eq!(first["reason"], "Hours billed twice");
    assert_eq!(first["totals"]["final_amount"], "20.00");
    assert_eq!(first["lines"][0]["total"], "20.00");
    assert_eq!(
        (
            first["applied_amount"].as_str(),
            first["refund_amount"].as_str()
        ),
        (Some("20.00"), Some("0.00"))
    );
    assert_eq!(
        books(&s, invoice).await,
        books_of(2, "0.00", "20.00", "80.00")
    );
    // Form-urlencoded and multipart: bracket names.
    let fields = [
        ("reason", "Discount agreed"),
        ("items[0][description]", "Discount"),
        ("items[0][quantity]", "1"),
        ("items[0][rate]", "5.50"),
    ];
    let second = issue(&s, invoice, form(&fields)).await;
    assert_eq!(second["number"], "CN-2026-00002");
    let third = issue(&s, invoice, crate::common::multipart(&fields)).await;
    assert_eq!(third["number"], "CN-2026-00003");
    assert_eq!(
        books(&s, invoice).await,
        books_of(2, "0.00", "31.00", "69.00")
    );
    // A payment of the rest: Paid; a credit beyond it is a refund.
    let a = s
        .post(
            "/api/payments",
            json_body(json!({"payment_invoiceid": invoice, "payment_amount": "69.00", "payment_date": "2026-11-20"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let refund = issue(
        &s,
        invoice,
        json_body(json!({"reason": "Goodwill", "items": [{"description": "Goodwill", "quantity": 1, "rate": 9}]})),
    )
    .await;
    assert_eq!(
        (
            refund["applied_amount"].as_str(),
            refund["refund_amount"].as_str()
        ),
        (Some("0.00"), Some("9.00"))
    );
    assert_eq!(
        books(&s, invoice).await,
        books_of(5, "69.00", "40.00", "0.00")
    );
    // The refund stands on the payment.
    let payment = a.data()["id"].as_i64().unwrap();
    let refused = s.delete(&format!("/api/payments/{payment}")).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert_eq!(
        refused.message(),
        "A payment of an invoice with a refund cannot be deleted."
    );
}

#[tokio::test]
async fn a_whole_credit_cancels_an_unpaid_invoice_and_refusals_write_nothing() {
    let s = TestServer::start().await;
    let invoice = published(&s, 0, "50.00").await;
    // Bad requests, each a 422 naming its field, nothing written.
    let path = format!("/api/invoices/{invoice}/credit-notes");
    let a = s.post(&path, json_body(json!({}))).await;
    assert_invalid(&a, "reason", &["The reason field is required."]);
    let a = s
        .post(&path, json_body(json!({"reason": "x", "items": [{"description": "A", "quantity": 1, "rate": "50.01"}]})))
        .await;
    assert_invalid(
        &a,
        "items",
        &["The credit note may not be greater than the amount not yet credited."],
    );
    let a = s
        .post(
            &path,
            json_body(
                json!({"reason": "x", "items": [{"description": "A", "quantity": 0, "rate": 1}]}),
            ),
        )
        .await;
    assert_invalid(
        &a,
        "items.0.quantity",
        &["The items.0.quantity must be greater than 0."],
    );
    let a = s
        .post(
            &path,
            json_body(json!({"reason": "x", "date": "2026-10-01"})),
        )
        .await;
    assert_invalid(
        &a,
        "date",
        &["The date must be a date after or equal to invoice date."],
    );
    // An unknown invoice is a 404 before its fields; a draft is changed, not credited.
    let a = s
        .post("/api/invoices/9999999/credit-notes", json_body(json!({})))
        .await;
    assert_eq!(
        (a.status, a.message()),
        (StatusCode::NOT_FOUND, "Invoice not found.")
    );
    let category = s.default_category("invoice").await;
    let draft = s
        .created(
            "/api/invoices",
            json!({"bill_clientid": crate::common::client(&s, 0), "bill_categoryid": category, "bill_date": "2026-11-01"}),
        )
        .await;
    let a = s
        .post(
            &format!("/api/invoices/{draft}/credit-notes"),
            json_body(json!({"reason": "x"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT);
    assert_eq!(
        a.message(),
        "Only an issued invoice can be credited; change a draft instead."
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM credit_notes WHERE $1::bigint > 0", 1)
            .await,
        0
    );
    // The whole invoice: copied, and the unpaid invoice is Cancelled.
    let whole = issue(&s, invoice, json_body(json!({"reason": "Wrong client"}))).await;
    assert_eq!(whole["totals"]["final_amount"], "50.00");
    assert_eq!(whole["lines"].as_array().unwrap().len(), 1);
    assert_eq!(
        books(&s, invoice).await,
        books_of(20, "0.00", "50.00", "0.00")
    );
    // Nothing changes or deletes a credit note: no such routes.
    let id = whole["id"].as_i64().unwrap();
    for method in [Method::PATCH, Method::DELETE, Method::PUT] {
        let a = s
            .call(
                method.clone(),
                &format!("/api/credit-notes/{id}"),
                json_body(json!({"reason": "changed"})),
            )
            .await;
        assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
    }
    // Setting the invoice to Cancelled by hand is refused (it is issued): it is already.
    let a = s.get(&format!("/api/credit-notes/{id}")).await;
    assert_eq!(a.data()["reason"], "Wrong client");
}

#[tokio::test]
async fn credit_notes_are_read_listed_rendered_linked_and_emailed() {
    let s = TestServer::start().await;
    let a = published(&s, 0, "80.00").await;
    let b = published(&s, 1, "40.00").await;
    let one = issue(&s, a, json_body(json!({"reason": "Late delivery <b>", "items": [{"description": "Late fee back", "quantity": 1, "rate": 8}]}))).await;
    let two = issue(&s, b, json_body(json!({"reason": "Cancelled order"}))).await;
    let (one_id, two_id) = (one["id"].as_i64().unwrap(), two["id"].as_i64().unwrap());
    // Lists: newest first, filters by invoice and client, search on number and reason.
    let all = s.get("/api/credit-notes").await;
    assert_eq!(all.message(), "Credit notes retrieved successfully.");
    assert_eq!(ids(&all), [two_id, one_id]);
    assert_eq!(
        ids(&s.get(&format!("/api/credit-notes?invoice_id={a}")).await),
        [one_id]
    );
    let client = crate::common::client(&s, 1);
    assert_eq!(
        ids(&s
            .get(&format!("/api/credit-notes?client_id={client}"))
            .await),
        [two_id]
    );
    assert_eq!(
        ids(&s.get("/api/credit-notes?search=cancelled").await),
        [two_id]
    );
    assert_eq!(
        ids(&s.get("/api/credit-notes?search=CN-2026-00001").await),
        [one_id]
    );
    assert_eq!(
        ids(&s.get("/api/credit-notes?sort=final_amount&order=asc").await),
        [one_id, two_id]
    );
    let bad = s.get("/api/credit-notes?sort=reason").await;
    assert_invalid(&bad, "sort", &["The selected sort is invalid."]);
    assert_eq!(
        s.get("/api/credit-notes/9999999").await.message(),
        "Credit note not found."
    );
    // The PDF, named by its number.
    let pdf = s
        .http
        .get(format!("{}/api/credit-notes/{one_id}/pdf", s.base))
        .bearer_auth(&s.key)
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), StatusCode::OK);
    assert_eq!(
        pdf.headers()["content-disposition"],
        "inline; filename=\"credit_note-CN-2026-00001.pdf\""
    );
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF-"));
    // A link, and the client's page: its number, the invoice, the reason (escaped), the figures.
    let linked = s
        .post(&format!("/api/credit-notes/{one_id}/link"), Body::None)
        .await;
    assert_eq!(linked.status, StatusCode::CREATED, "{}", linked.json);
    let url = linked.data()["client_link"]["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let token = url.rsplit_once("/c/").unwrap().1;
    let page = s
        .http
        .get(format!("{}/c/{token}", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains("Credit note CN-2026-00001"), "{html}");
    assert!(html.contains(&format!(
        "Credit for invoice {}",
        one["invoice_number"].as_str().unwrap()
    )));
    assert!(
        html.contains("Late delivery &lt;b&gt;") || html.contains("Late delivery &#60;b&#62;"),
        "{html}"
    );
    assert!(html.contains("8.00"));
    assert!(!html.contains("/accept"));
    let revoked = s.delete(&format!("/api/credit-notes/{one_id}/link")).await;
    assert!(revoked.data()["client_link"].is_null());
    let gone = s
        .http
        .get(format!("{}/c/{token}", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    // The email: queued to the client, composed with the credit note's figures.
    let emailed = s
        .post(
            &format!("/api/credit-notes/{one_id}/send-email"),
            Body::None,
        )
        .await;
    assert_eq!(emailed.status, StatusCode::OK, "{}", emailed.json);
    assert_eq!(emailed.message(), "Credit note email queued successfully.");
    assert!(emailed.data()["client_link"].is_object());
    let row = s
        .sql()
        .await
        .query_one(
            "SELECT q.subject, q.resource_type, b.body_text FROM email_queue q JOIN email_bodies b \
             ON b.id = q.body_id WHERE q.resource_type = 'credit_note' AND q.resource_id = $1",
            &[&one_id],
        )
        .await
        .unwrap();
    let (subject, text): (Option<String>, Option<String>) = (row.get(0), row.get(2));
    assert_eq!(
        subject.as_deref(),
        Some("Credit note CN-2026-00001 from CRM")
    );
    let text = text.unwrap();
    assert!(text.contains("has sent you a credit note"), "{text}");
    assert!(text.contains("Total: €8.00 EUR"), "{text}");
    let listed = s
        .get(&format!(
            "/api/emails?resource_type=credit_note&resource_id={one_id}"
        ))
        .await;
    assert_eq!(ids(&listed).len(), 1);
}

#[tokio::test]
async fn reading_credit_notes_needs_their_scope_and_issuing_needs_invoices_write() {
    let s = TestServer::start().await;
    let invoice = published(&s, 0, "10.00").await;
    let reader = s.key_with(&["invoices:read"], None).await;
    let a = s
        .call_as(
            &reader,
            Method::POST,
            &format!("/api/invoices/{invoice}/credit-notes"),
            json_body(json!({"reason": "x"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let writer = s.key_with(&["invoices:write"], None).await;
    let a = s
        .call_as(
            &writer,
            Method::POST,
            &format!("/api/invoices/{invoice}/credit-notes"),
            json_body(json!({"reason": "x"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let a = s
        .call_as(&writer, Method::GET, "/api/credit-notes", Body::None)
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let notes = s.key_with(&["credit-notes:read"], None).await;
    let a = s
        .call_as(&notes, Method::GET, "/api/credit-notes", Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(ids(&a).len(), 1);
}

#[tokio::test]
async fn a_credit_note_is_in_its_invoices_currency_with_its_decimals() {
    let s = TestServer::start().await;
    let category = s.default_category("invoice").await;
    for (currency, rate, total, part) in [
        ("JPY", "1500", "1500", "150"),
        ("KWD", "12.5", "12.500", "1.250"),
    ] {
        let invoice = s
            .created(
                "/api/invoices",
                json!({"bill_clientid": crate::common::client(&s, 0), "bill_categoryid": category,
                    "bill_date": "2026-11-01", "bill_currency": currency}),
            )
            .await;
        let a = s
            .put(
                &format!("/api/invoices/{invoice}/items"),
                json_body(json!({"items": [{"description": "Work", "quantity": 1, "rate": rate}]})),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        let a = s
            .put(&format!("/api/invoices/{invoice}/publish"), Body::None)
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        let note = issue(
            &s,
            invoice,
            json_body(json!({"reason": "Tenth", "items": [{"description": "Work", "quantity": "0.1", "rate": rate}]})),
        )
        .await;
        assert_eq!(note["currency"], currency);
        assert_eq!(note["totals"]["final_amount"], part);
        assert_eq!(note["applied_amount"], part);
        let shown = s.get(&format!("/api/invoices/{invoice}")).await;
        assert_eq!(shown.data()["totals"]["final_amount"], total);
        assert_eq!(shown.data()["totals"]["amount_credited"], part);
    }
}
