//! Deleting estimates, and the contracts' backing estimates that no estimate endpoint
//! serves.

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{
    DATE, Encoding, assert_message, client, create, id_of, item, items_body, listed, pairs,
    put_items, tax_rate,
};
use crate::common::{Body, TestServer, form};

#[tokio::test]
async fn deleting_removes_lines_taxes_tags_and_pending_emails_only() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let other = id_of(&create(&s, &[]).await);
    let lines = [item(&[
        ("description", "Design"),
        ("quantity", "2"),
        ("rate", "100"),
    ])];
    for e in [id, other] {
        assert_eq!(
            put_items(
                &s,
                e,
                items_body(Encoding::Form, &lines, &[tax_rate(&s, "GST 10%")])
            )
            .await
            .status,
            StatusCode::OK
        );
        assert_eq!(
            s.put(
                &format!("/api/estimates/{e}/tags"),
                form(&[("tags[]", "a"), ("tags[]", "b")])
            )
            .await
            .status,
            StatusCode::OK
        );
        assert_eq!(
            s.put(&format!("/api/estimates/{e}/publish"), Body::None)
                .await
                .status,
            StatusCode::OK
        );
        assert_eq!(
            s.post(&format!("/api/estimates/{e}/send-email"), Body::None)
                .await
                .status,
            StatusCode::OK
        );
    }
    // One of the two emails has already gone out: it stays as history.
    let db = s.sql().await;
    db.execute("UPDATE email_queue SET status = 'sent', sent_at = now() WHERE id = (SELECT min(id) FROM email_queue WHERE estimate_id = $1)", &[&id])
        .await
        .unwrap();

    let a = s.delete(&format!("/api/estimates/{id}")).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(
        a.json,
        json!({"data": {"id": id}, "message": "Estimate deleted successfully."})
    );
    for sql in [
        "SELECT count(*) FROM estimates WHERE id = $1",
        "SELECT count(*) FROM estimate_lines WHERE estimate_id = $1",
        "SELECT count(*) FROM estimate_taxes WHERE estimate_id = $1",
        "SELECT count(*) FROM tags WHERE estimate_id = $1",
        "SELECT count(*) FROM email_queue WHERE resource_type = 'estimate' AND resource_id = $1 AND status = 'pending'",
    ] {
        assert_eq!(s.scalar(sql, id).await, 0, "{sql}");
    }
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM email_queue WHERE resource_id = $1 AND status = 'sent'",
            id
        )
        .await,
        1
    );
    // The other estimate keeps everything.
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_lines WHERE estimate_id = $1",
            other
        )
        .await,
        1
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_taxes WHERE estimate_id = $1",
            other
        )
        .await,
        1
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM tags WHERE estimate_id = $1", other)
            .await,
        2
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM email_queue WHERE estimate_id = $1 AND status = 'pending'",
            other
        )
        .await,
        2
    );

    assert_message(
        &s.get(&format!("/api/estimates/{id}")).await,
        StatusCode::NOT_FOUND,
        "Estimate not found.",
    );
    assert_message(
        &s.delete(&format!("/api/estimates/{id}")).await,
        StatusCode::NOT_FOUND,
        "Estimate not found.",
    );
    assert_eq!(listed(&s.get("/api/estimates").await), [other]);
}

#[tokio::test]
async fn a_contracts_backing_estimate_is_not_found_on_every_estimate_endpoint() {
    let s = TestServer::start().await;
    let contract_category = s.default_category("contract").await.to_string();
    let c = s
        .post(
            "/api/contracts",
            form(&[
                ("doc_title", "Support agreement"),
                ("doc_client_id", &client(&s, 0).to_string()),
                ("doc_date_start", "2026-06-01"),
                ("doc_categoryid", &contract_category),
            ]),
        )
        .await;
    assert_eq!(c.status, StatusCode::CREATED, "{:?}", c.json);
    let contract = id_of(c.data());
    let doc = s
        .scalar("SELECT estimate_id FROM contracts WHERE id = $1", contract)
        .await;
    let visible = id_of(&create(&s, &[]).await);

    let category = s.default_category("estimate").await.to_string();
    let client0 = client(&s, 0).to_string();
    let header = pairs(&[
        ("bill_clientid", &client0),
        ("bill_categoryid", &category),
        ("bill_date", DATE),
    ]);
    let lines = [item(&[
        ("description", "X"),
        ("quantity", "1"),
        ("rate", "1"),
    ])];
    for target in [doc, 999_999] {
        let calls: Vec<(Method, String, Body)> = vec![
            (Method::GET, format!("/api/estimates/{target}"), Body::None),
            (
                Method::PATCH,
                format!("/api/estimates/{target}"),
                Body::Form(header.clone()),
            ),
            (
                Method::PATCH,
                format!("/api/estimates/{target}"),
                Body::None,
            ),
            (
                Method::PUT,
                format!("/api/estimates/{target}/items"),
                items_body(Encoding::Form, &lines, &[]),
            ),
            (
                Method::PUT,
                format!("/api/estimates/{target}/items"),
                Body::None,
            ),
            (
                Method::PUT,
                format!("/api/estimates/{target}/status"),
                form(&[("status", "accepted")]),
            ),
            (
                Method::PUT,
                format!("/api/estimates/{target}/status"),
                form(&[("status", "expired")]),
            ),
            (
                Method::PUT,
                format!("/api/estimates/{target}/tags"),
                form(&[("tags[]", "x")]),
            ),
            (
                Method::POST,
                format!("/api/estimates/{target}/clone"),
                Body::Form(header.clone()),
            ),
            (
                Method::PUT,
                format!("/api/estimates/{target}/publish"),
                Body::None,
            ),
            (
                Method::POST,
                format!("/api/estimates/{target}/send-email"),
                Body::None,
            ),
            (
                Method::POST,
                format!("/api/estimates/{target}/convert-to-invoice"),
                Body::None,
            ),
            (
                Method::DELETE,
                format!("/api/estimates/{target}"),
                Body::None,
            ),
        ];
        for (method, path, body) in calls {
            let a = s.call(method.clone(), &path, body).await;
            assert_eq!(
                a.status,
                StatusCode::NOT_FOUND,
                "{method} {path}: {:?}",
                a.json
            );
            assert_eq!(
                a.json,
                json!({"message": "Estimate not found."}),
                "{method} {path}"
            );
        }
    }
    assert_eq!(listed(&s.get("/api/estimates").await), [visible]);
    assert_eq!(
        listed(&s.get(&format!("/api/estimates?search={doc}")).await),
        Vec::<i64>::new()
    );
    assert_eq!(s.get("/api/estimates").await.json["meta"]["total"], 1);
    // Nothing happened to the document estimate or around it.
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimates WHERE id = $1 AND status = 'draft'",
            doc
        )
        .await,
        1
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM invoices WHERE estimate_id = $1", doc)
            .await,
        0
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM email_queue WHERE resource_id = $1",
            doc
        )
        .await,
        0
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM tags WHERE estimate_id = $1", doc)
            .await,
        0
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM estimates WHERE id > $1", visible)
            .await,
        0,
        "no clone was made"
    );
    assert_eq!(
        s.get(&format!("/api/contracts/{contract}")).await.status,
        StatusCode::OK
    );
}
