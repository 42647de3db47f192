//! Publish, send-email, clone and delete.

use reqwest::StatusCode;
use serde_json::json;

use super::{create, get};
use crate::common::client;
use crate::common::{Body, TestServer, assert_invalid, form};
use crate::estimates::{Encoding, assert_message, item, items_body, tax_rate};

/// The outbox rows of invoice `id`: (recipient, subject, status).
async fn emails(s: &TestServer, id: i64) -> Vec<(String, String, String)> {
    let rows = s
        .sql()
        .await
        .query(
            "SELECT recipient, subject, status FROM email_queue WHERE resource_type = 'invoice' AND resource_id = $1 ORDER BY id",
            &[&id],
        )
        .await
        .unwrap();
    rows.iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}

#[tokio::test]
async fn publishing_moves_a_draft_to_due_and_queues_the_email_and_only_once() {
    let s = TestServer::start().await;
    let today = crate::common::today().to_string();
    let id = create(&s, &[("bill_date", &today)]).await["id"]
        .as_i64()
        .unwrap();
    let a = s
        .post(&format!("/api/invoices/{id}/send-email"), Body::None)
        .await;
    assert_message(
        &a,
        StatusCode::CONFLICT,
        "Invoice is still in draft status.",
    );
    assert!(emails(&s, id).await.is_empty());
    let a = s
        .put(&format!("/api/invoices/{id}/publish"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Invoice published successfully.");
    assert_eq!(
        a.data()["status"],
        json!({"id": 2, "title": "Due", "color": "info"})
    );
    let subject = format!("Invoice {} from CRM", a.data()["number"].as_str().unwrap());
    assert_eq!(
        emails(&s, id).await,
        [(
            "billing@acme.example".to_owned(),
            subject.clone(),
            "pending".to_owned()
        )]
    );
    let a = s
        .put(&format!("/api/invoices/{id}/publish"), Body::None)
        .await;
    assert_message(
        &a,
        StatusCode::CONFLICT,
        "Invoice has already been published.",
    );
    let a = s
        .post(&format!("/api/invoices/{id}/send-email"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Invoice email queued successfully.");
    assert_eq!(emails(&s, id).await.len(), 2);
    let listed = s
        .get(&format!(
            "/api/emails?resource_type=invoice&resource_id={id}"
        ))
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{:?}", listed.json);
    assert_eq!(listed.json["meta"]["total"], 2);
    assert_eq!(listed.data()[0]["subject"], subject);
}

#[tokio::test]
async fn a_paid_or_cancelled_invoice_is_not_published_again_but_can_be_emailed() {
    let s = TestServer::start().await;
    let mut id = 0;
    for status in ["5", "20"] {
        // Each its own (an issued invoice is not cancelled by hand: API.md §18).
        id = create(&s, &[]).await["id"].as_i64().unwrap();
        let a = s
            .put(
                &format!("/api/invoices/{id}/status"),
                form(&[("status", status)]),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
        let a = s
            .put(&format!("/api/invoices/{id}/publish"), Body::None)
            .await;
        assert_message(
            &a,
            StatusCode::CONFLICT,
            "Invoice has already been published.",
        );
    }
    assert_eq!(get(&s, id).await["status"]["title"], "Cancelled");
    let a = s
        .post(&format!("/api/invoices/{id}/send-email"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
}

#[tokio::test]
async fn a_clone_needs_client_date_and_due_date_and_copies_the_bill() {
    let s = TestServer::start().await;
    let id = create(&s, &[("bill_notes", "N")]).await["id"]
        .as_i64()
        .unwrap();
    let vat = tax_rate(&s, "VAT 20%");
    let lines = vec![item(&[
        ("description", "A"),
        ("quantity", "2"),
        ("rate", "10"),
    ])];
    let source = s
        .put(
            &format!("/api/invoices/{id}/items"),
            items_body(Encoding::Form, &lines, &[vat]),
        )
        .await;
    assert_eq!(source.status, StatusCode::OK, "{:?}", source.json);
    s.put(
        &format!("/api/invoices/{id}/tags"),
        form(&[("tags[]", "x")]),
    )
    .await;
    let a = s
        .post(
            &format!("/api/invoices/{id}/clone"),
            form(&[("bill_date", "2026-07-01")]),
        )
        .await;
    assert_invalid(
        &a,
        "bill_clientid",
        &["The bill clientid field is required."],
    );
    assert_invalid(
        &a,
        "bill_due_date",
        &["The bill due date field is required."],
    );
    let a = s
        .post(
            &format!("/api/invoices/{id}/clone"),
            form(&[
                ("bill_clientid", &client(&s, 1).to_string()),
                ("bill_date", "2026-07-01"),
                ("bill_due_date", "2026-07-31"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.message(), "Invoice cloned successfully.");
    let copy = a.data();
    assert_ne!(copy["id"], id);
    assert_eq!(copy["status"]["id"], 1);
    assert_eq!(copy["client"]["name"], "Globex Corporation");
    assert_eq!(copy["category"], source.data()["category"]);
    assert_eq!(copy["dates"]["due_date"], "2026-07-31");
    assert_eq!(copy["totals"], source.data()["totals"]);
    assert_eq!(copy["notes"], "N");
    assert_eq!(copy["tags"], json!([]));
    assert_eq!(copy["taxes"][0]["name"], "VAT 20%");
    let a = s.post("/api/invoices/999999/clone", form(&[])).await;
    assert_message(&a, StatusCode::NOT_FOUND, "Invoice not found.");
}

#[tokio::test]
async fn deleting_removes_the_invoice_and_its_pending_emails_but_keeps_sent_ones() {
    let s = TestServer::start().await;
    let id = create(&s, &[]).await["id"].as_i64().unwrap();
    s.put(
        &format!("/api/invoices/{id}/tags"),
        form(&[("tags[]", "x")]),
    )
    .await;
    // Issued, it is not deleted (API.md §18); cancelled before it was issued, it is.
    let issued = create(&s, &[]).await["id"].as_i64().unwrap();
    s.put(&format!("/api/invoices/{issued}/publish"), Body::None)
        .await;
    assert_message(
        &s.delete(&format!("/api/invoices/{issued}")).await,
        StatusCode::CONFLICT,
        "An issued invoice cannot be deleted. Issue a credit note instead.",
    );
    s.put(
        &format!("/api/invoices/{id}/status"),
        form(&[("status", "20")]),
    )
    .await;
    s.post(&format!("/api/invoices/{id}/send-email"), Body::None)
        .await;
    s.sql()
        .await
        .execute(
            "UPDATE email_queue SET status = 'sent', sent_at = now(), next_attempt_at = NULL \
             WHERE id = (SELECT min(id) FROM email_queue WHERE resource_type = 'invoice' AND resource_id = $1)",
            &[&id],
        )
        .await
        .unwrap();
    let a = s.delete(&format!("/api/invoices/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(
        a.json,
        json!({"data": {"id": id}, "message": "Invoice deleted successfully."})
    );
    assert_message(
        &s.get(&format!("/api/invoices/{id}")).await,
        StatusCode::NOT_FOUND,
        "Invoice not found.",
    );
    let left: Vec<String> = emails(&s, id).await.into_iter().map(|e| e.2).collect();
    assert_eq!(left, ["sent"]);
    assert_eq!(
        s.scalar("SELECT count(*) FROM tags WHERE invoice_id = $1", id)
            .await,
        0
    );
    assert_message(
        &s.delete(&format!("/api/invoices/{id}")).await,
        StatusCode::NOT_FOUND,
        "Invoice not found.",
    );
}
