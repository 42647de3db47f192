//! Creating, reading and deleting contracts: the record, the backing estimate no
//! estimate endpoint shows, the template, and what deletion removes.

use chrono::NaiveDate;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Body, TestServer, form, json, multipart};

use super::{
    START, add_lines, assert_not_found, backing_estimate, client, contract_category, create, get,
    id_of, ids, is_timestamp, lines, list, put_tags, required_plus,
};

#[tokio::test]
async fn creating_a_contract_answers_201_with_the_whole_draft_record() {
    let s = TestServer::start().await;
    let category = contract_category(&s).await;
    let project = s.ids.projects[0];
    let body = required_plus(
        &s,
        "Service Agreement",
        &[
            ("doc_date_end", "2026-12-31"),
            ("doc_value", "5000"),
            ("doc_body", "<p>Agreement terms…</p>"),
            ("doc_project_id", &project.to_string()),
        ],
    )
    .await;
    let a = s.post("/api/contracts", Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.message(), "Contract created successfully.");
    let keys: Vec<&String> = a.json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["data", "message"]);
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
            "id": id, "title": "Service Agreement", "status": "draft", "value": "5000.00",
            "body": "<p>Agreement terms…</p>",
            "client": {"id": client(&s, 0), "name": "Acme Inc"},
            "category": {"id": category, "name": "Default"},
            "project_id": project, "lead_id": null,
            "dates": {"start": "2026-06-01", "end": "2026-12-31", "created": null, "published": null},
            "signing": {"client_status": "unsigned", "provider_status": "unsigned"},
            "tags": []
        })
    );
    assert_eq!(&get(&s, id).await, a.data());

    // Written as the key's user, with automation off (the API cannot turn it on).
    let row = s
        .sql()
        .await
        .query_one(
            "SELECT creator_id, automation FROM contracts WHERE id = $1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, Option<i64>>(0), Some(1));
    assert!(!row.get::<_, bool>(1));
}

#[tokio::test]
async fn optional_fields_default_to_null_and_values_read_back_with_two_decimals() {
    let s = TestServer::start().await;
    let bare = create(&s, "Bare", &[]).await;
    for field in ["value", "body", "project_id", "lead_id"] {
        assert_eq!(bare[field], Value::Null, "{field}");
    }
    assert_eq!(bare["dates"]["end"], Value::Null);
    assert_eq!(bare["tags"], json!([]));

    let lead = s.ids.leads[0];
    let with = create(
        &s,
        "Valued",
        &[("doc_value", "1234.5"), ("doc_lead_id", &lead.to_string())],
    )
    .await;
    assert_eq!(with["value"], "1234.50");
    assert_eq!(with["lead_id"], lead);
    let stored: String = s
        .sql()
        .await
        .query_one(
            "SELECT value::text FROM contracts WHERE id = $1",
            &[&id_of(&with)],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, "1234.50");
}

#[tokio::test]
async fn a_contract_can_be_created_from_json_and_multipart_bodies() {
    let s = TestServer::start().await;
    let category = contract_category(&s).await;
    let a = s
        .post(
            "/api/contracts",
            json(json!({
                "doc_client_id": client(&s, 1), "doc_title": "From JSON", "doc_date_start": START,
                "doc_categoryid": category, "doc_value": 99.9, "doc_date_end": "2026-06-30"
            })),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.data()["value"], "99.90");
    assert_eq!(
        a.data()["client"],
        json!({"id": client(&s, 1), "name": "Globex Corporation"})
    );

    let b = s
        .post(
            "/api/contracts",
            multipart(&[
                ("doc_client_id", &client(&s, 2).to_string()),
                ("doc_title", "From multipart"),
                ("doc_date_start", START),
                ("doc_categoryid", &category.to_string()),
                ("doc_value", "10"),
            ]),
        )
        .await;
    assert_eq!(b.status, StatusCode::CREATED, "{:?}", b.json);
    assert_eq!(b.data()["title"], "From multipart");
    assert_eq!(b.data()["value"], "10.00");
}

#[tokio::test]
async fn an_unknown_contract_is_404_on_every_endpoint() {
    let s = TestServer::start().await;
    let valid = Body::Form(required_plus(&s, "X", &[]).await);
    assert_not_found(&s.get("/api/contracts/999999").await);
    assert_not_found(&s.patch("/api/contracts/999999", valid).await);
    // 404 wins over the 422 an invalid body would give.
    assert_not_found(&s.patch("/api/contracts/999999", form(&[])).await);
    assert_not_found(&s.delete("/api/contracts/999999").await);
    assert_not_found(&put_tags(&s, 999_999, form(&[("tags[]", "a")])).await);
    assert_not_found(&put_tags(&s, 999_999, form(&[])).await);
    let valid = Body::Form(required_plus(&s, "X", &[]).await);
    assert_not_found(&s.post("/api/contracts/999999/clone", valid).await);
    assert_not_found(&s.post("/api/contracts/999999/clone", form(&[])).await);
}

#[tokio::test]
async fn creating_a_contract_creates_a_backing_estimate_the_estimates_api_never_shows() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let contract = create(&s, "Backed", &[("doc_project_id", &project.to_string())]).await;
    let estimate = backing_estimate(&s, id_of(&contract)).await;
    let row = s
        .sql()
        .await
        .query_one("SELECT is_document, client_id, project_id, date, category_id FROM estimates WHERE id = $1", &[&estimate])
        .await
        .unwrap();
    assert!(row.get::<_, bool>(0));
    assert_eq!(row.get::<_, i64>(1), client(&s, 0));
    assert_eq!(row.get::<_, Option<i64>>(2), Some(project));
    assert_eq!(
        row.get::<_, NaiveDate>(3),
        NaiveDate::from_ymd_opt(2026, 6, 1).unwrap()
    );
    assert_eq!(row.get::<_, Option<i64>>(4), None);

    let not_found = json!({"message": "Estimate not found."});
    let a = s.get(&format!("/api/estimates/{estimate}")).await;
    assert_eq!((a.status, &a.json), (StatusCode::NOT_FOUND, &not_found));
    let a = s
        .put(
            &format!("/api/estimates/{estimate}/tags"),
            form(&[("tags[]", "x")]),
        )
        .await;
    assert_eq!((a.status, &a.json), (StatusCode::NOT_FOUND, &not_found));
    let a = s.delete(&format!("/api/estimates/{estimate}")).await;
    assert_eq!((a.status, &a.json), (StatusCode::NOT_FOUND, &not_found));
    assert_eq!(
        s.scalar("SELECT count(*) FROM estimates WHERE id = $1", estimate)
            .await,
        1
    );

    let listed = s.get("/api/estimates?limit=100").await;
    assert_eq!(listed.status, StatusCode::OK, "{:?}", listed.json);
    assert!(!ids(&listed).contains(&estimate), "{:?}", listed.json);
    assert_eq!(listed.json["meta"]["total"], 0);
}

#[tokio::test]
async fn a_template_seeds_the_body_unless_doc_body_is_given() {
    let s = TestServer::start().await;
    let template = s.ids.contract_templates[1];
    let template_body: String = s
        .sql()
        .await
        .query_one(
            "SELECT body FROM contract_templates WHERE id = $1",
            &[&template],
        )
        .await
        .unwrap()
        .get(0);
    let seeded = create(&s, "NDA", &[("contract_template", &template.to_string())]).await;
    assert_eq!(seeded["body"], template_body.as_str());
    assert!(template_body.contains("Non-Disclosure"));

    let own = create(
        &s,
        "Own body",
        &[
            ("contract_template", &template.to_string()),
            ("doc_body", "<p>Our own words.</p>"),
        ],
    )
    .await;
    assert_eq!(own["body"], "<p>Our own words.</p>");

    // An empty doc_body counts as absent: the template still seeds the body.
    let empty = create(
        &s,
        "Empty body",
        &[
            ("contract_template", &template.to_string()),
            ("doc_body", ""),
        ],
    )
    .await;
    assert_eq!(empty["body"], template_body.as_str());
}

#[tokio::test]
async fn deleting_removes_the_contract_its_tags_and_its_backing_estimate() {
    let s = TestServer::start().await;
    let kept = id_of(&create(&s, "Kept", &[]).await);
    let kept_estimate = add_lines(&s, kept).await;
    put_tags(&s, kept, form(&[("tags[]", "keep")])).await;
    let gone = id_of(&create(&s, "Gone", &[]).await);
    let gone_estimate = add_lines(&s, gone).await;
    assert_eq!(
        put_tags(&s, gone, form(&[("tags[]", "a"), ("tags[]", "b")]))
            .await
            .status,
        StatusCode::OK
    );

    let a = s.delete(&format!("/api/contracts/{gone}")).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(
        a.json,
        json!({"data": {"id": gone}, "message": "Contract deleted successfully."})
    );
    assert_not_found(&s.get(&format!("/api/contracts/{gone}")).await);
    assert_not_found(&s.delete(&format!("/api/contracts/{gone}")).await);
    assert_eq!(ids(&list(&s, "").await), [kept]);

    assert_eq!(
        s.scalar("SELECT count(*) FROM contracts WHERE id = $1", gone)
            .await,
        0
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM tags WHERE contract_id = $1", gone)
            .await,
        0
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimates WHERE id = $1",
            gone_estimate
        )
        .await,
        0
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_lines WHERE estimate_id = $1",
            gone_estimate
        )
        .await,
        0
    );
    // The other contract keeps everything.
    assert_eq!(
        s.scalar("SELECT count(*) FROM tags WHERE contract_id = $1", kept)
            .await,
        1
    );
    assert_eq!(lines(&s, kept_estimate).await.len(), 2);
}
