//! `/api/projects` (API.md §17): CRUD in the three encodings, the `uncategorised`
//! milestone made with a project, and deletion (refused with bills, else with its
//! milestones).

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, assert_errors, client, form, json as body, multipart};

#[tokio::test]
async fn every_encoding_creates_a_project_with_its_default_milestone() {
    let s = TestServer::start().await;
    let c = client(&s, 1).to_string();
    let cases = [
        (
            "json",
            body(
                json!({"title": "Website", "client_id": client(&s, 1), "start_date": "2026-12-01", "due_date": "2027-01-31"}),
            ),
        ),
        (
            "form",
            form(&[
                ("title", "Website"),
                ("client_id", &c),
                ("start_date", "2026-12-01"),
                ("due_date", "2027-01-31"),
            ]),
        ),
        (
            "multipart",
            multipart(&[
                ("title", "Website"),
                ("client_id", &c),
                ("start_date", "2026-12-01"),
                ("due_date", "2027-01-31"),
            ]),
        ),
    ];
    for (encoding, b) in cases {
        let a = s.post("/api/projects", b).await;
        assert_eq!(a.status, StatusCode::CREATED, "{encoding}: {}", a.json);
        assert_eq!(a.message(), "Project created successfully.");
        let id = a.data()["id"].as_i64().unwrap();
        assert_eq!(
            (a.data()["status"].as_str(), a.data()["due_date"].as_str()),
            (Some("not_started"), Some("2027-01-31"))
        );
        let milestones = s.get(&format!("/api/milestones?project_id={id}")).await;
        assert_eq!(milestones.data().as_array().unwrap().len(), 1, "{encoding}");
        assert_eq!(milestones.data()[0]["type"], "uncategorised");

        let path = format!("/api/projects/{id}");
        let a = s
            .patch(&path, form(&[("status", "in_progress"), ("due_date", "")]))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        assert_eq!(
            (a.data()["status"].as_str(), a.data()["due_date"].as_str()),
            (Some("in_progress"), None)
        );
        assert_eq!(a.data()["title"], "Website", "kept");

        let a = s.delete(&path).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        assert_eq!(
            s.scalar("SELECT count(*) FROM milestones WHERE project_id = $1", id)
                .await,
            0
        );
    }
}

#[tokio::test]
async fn bad_projects_are_refused_with_every_field_and_bills_keep_one() {
    let s = TestServer::start().await;
    let a = s
        .post("/api/projects", body(json!({"client_id": 999999, "start_date": "2026-02-02", "due_date": "2026-02-01", "status": "late"})))
        .await;
    assert_errors(
        &a,
        json!({
            "title": ["The title field is required."],
            "client_id": ["The selected client id is invalid."],
            "due_date": ["The due date must be a date after or equal to start date."],
            "status": ["The selected status is invalid."]
        }),
    );
    let project = s.ids.projects[0];
    let path = format!("/api/projects/{project}");
    let a = s
        .patch(
            &path,
            body(json!({"due_date": "1999-01-01", "start_date": "2000-01-01"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let category = s.default_category("estimate").await;
    s.created(
        "/api/estimates",
        json!({"bill_clientid": client(&s, 0), "bill_projectid": project, "bill_categoryid": category, "bill_date": "2026-11-01"}),
    )
    .await;
    let a = s.delete(&path).await;
    assert_eq!(a.status, StatusCode::CONFLICT);
    assert_eq!(a.message(), "Project has estimates or invoices.");
    assert_eq!(
        s.get("/api/projects/999999").await.message(),
        "Project not found."
    );
}
