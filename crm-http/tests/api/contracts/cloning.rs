//! `POST /api/contracts/{id}/clone`: what is copied, what is not, and its validation.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Body, TestServer, form};

use super::{
    add_lines, backing_estimate, client, create, get, id_of, is_timestamp, lines,
    new_contract_category, put_tags, required_plus, set_state, stored_tags,
};

#[tokio::test]
async fn cloning_copies_body_lead_value_and_line_items_but_not_tags_or_signatures() {
    let s = TestServer::start().await;
    let lead = s.ids.leads[1].to_string();
    let source = create(
        &s,
        "Original",
        &[
            ("doc_value", "5000"),
            ("doc_body", "<p>Terms</p>"),
            ("doc_lead_id", &lead),
            ("doc_date_end", "2026-12-31"),
        ],
    )
    .await;
    let source_id = id_of(&source);
    let source_estimate = add_lines(&s, source_id).await;
    assert_eq!(
        put_tags(&s, source_id, form(&[("tags[]", "priority")]))
            .await
            .status,
        StatusCode::OK
    );
    set_state(&s, source_id, true, true, true, None).await;

    let premium = new_contract_category(&s, "Premium").await;
    let project = s.ids.projects[1];
    let a = s
        .post(
            &format!("/api/contracts/{source_id}/clone"),
            form(&[
                ("doc_title", "Copy"),
                ("doc_client_id", &client(&s, 1).to_string()),
                ("doc_categoryid", &premium.to_string()),
                ("doc_date_start", "2027-01-01"),
                ("doc_project_id", &project.to_string()),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.message(), "Contract cloned successfully.");
    let mut clone = a.data().clone();
    let clone_id = id_of(&clone);
    assert_ne!(clone_id, source_id);
    assert!(is_timestamp(&clone["dates"]["created"]));
    clone["dates"]["created"] = Value::Null;
    assert_eq!(
        clone,
        json!({
            "id": clone_id, "title": "Copy", "status": "draft", "value": "5000.00", "body": "<p>Terms</p>",
            "client": {"id": client(&s, 1), "name": "Globex Corporation"},
            "category": {"id": premium, "name": "Premium"},
            "project_id": project, "lead_id": s.ids.leads[1],
            "dates": {"start": "2027-01-01", "end": null, "created": null, "published": null},
            "signing": {"client_status": "unsigned", "provider_status": "unsigned"},
            "tags": []
        })
    );
    assert_eq!(stored_tags(&s, clone_id).await, []);

    // A new backing estimate, with copies of the source's lines; the source keeps its own.
    let clone_estimate = backing_estimate(&s, clone_id).await;
    assert_ne!(clone_estimate, source_estimate);
    let expected = lines(&s, source_estimate).await;
    assert_eq!(expected.len(), 2);
    assert_eq!(lines(&s, clone_estimate).await, expected);
    let row = s
        .sql()
        .await
        .query_one(
            "SELECT is_document, client_id FROM estimates WHERE id = $1",
            &[&clone_estimate],
        )
        .await
        .unwrap();
    assert!(row.get::<_, bool>(0));
    assert_eq!(row.get::<_, i64>(1), client(&s, 1));
    assert_eq!(
        s.get(&format!("/api/estimates/{clone_estimate}"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // The source is untouched.
    let after = get(&s, source_id).await;
    assert_eq!(after["tags"], json!(["priority"]));
    assert_eq!(after["status"], "active");
}

#[tokio::test]
async fn a_clone_takes_a_given_value_and_validates_like_create() {
    let s = TestServer::start().await;
    let source = id_of(&create(&s, "Original", &[("doc_value", "5000")]).await);
    let path = format!("/api/contracts/{source}/clone");
    let body = required_plus(
        &s,
        "Copy",
        &[("doc_value", "12.50"), ("doc_date_end", "2026-07-01")],
    )
    .await;
    let a = s.post(&path, Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.data()["value"], "12.50");
    assert_eq!(a.data()["dates"]["end"], "2026-07-01");
    // An empty value counts as absent: the source's.
    let body = required_plus(&s, "Copy 2", &[("doc_value", "")]).await;
    assert_eq!(
        s.post(&path, Body::Form(body)).await.data()["value"],
        "5000.00"
    );

    let before = s
        .scalar("SELECT count(*) FROM contracts WHERE id > $1", 0)
        .await;
    let a = s.post(&path, form(&[])).await;
    assert_eq!(
        a.json["errors"],
        json!({
            "doc_title": ["The doc title field is required."],
            "doc_client_id": ["The doc client id field is required."],
            "doc_categoryid": ["The doc categoryid field is required."],
            "doc_date_start": ["The doc date start field is required."]
        })
    );
    let estimate_category = s.default_category("estimate").await.to_string();
    let body = required_plus(
        &s,
        "<b>Copy</b>",
        &[
            ("doc_client_id", "999999"),
            ("doc_categoryid", &estimate_category),
            ("doc_project_id", "999999"),
            ("doc_date_end", "2026-05-01"),
            ("doc_value", "1.234"),
        ],
    )
    .await;
    let a = s.post(&path, Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        a.json["errors"],
        json!({
            "doc_title": ["The doc title must not contain any HTML."],
            "doc_client_id": ["The selected doc client id is invalid."],
            "doc_categoryid": ["The selected doc categoryid is invalid."],
            "doc_project_id": ["The selected doc project id is invalid."],
            "doc_date_end": ["The doc date end must be a date after or equal to doc date start."],
            "doc_value": ["The doc value may not have more than 2 decimal places."]
        })
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM contracts WHERE id > $1", 0)
            .await,
        before
    );
}
