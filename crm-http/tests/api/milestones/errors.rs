//! `/api/milestones`: errors on every by-id endpoint.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Body, TestServer, form};

use super::{SEEDED, board, numbered};

#[tokio::test]
async fn unknown_ids_are_404_on_every_by_id_endpoint() {
    let s = TestServer::start().await;
    let not_found = json!({"message": "Milestone not found."});
    let cases: Vec<(Method, &str, Body)> = vec![
        (Method::GET, "/api/milestones/999999", Body::None),
        (
            Method::PATCH,
            "/api/milestones/999999",
            form(&[("milestone_title", "Valid"), ("milestone_color", "info")]),
        ),
        (Method::PATCH, "/api/milestones/999999", form(&[])),
        (Method::DELETE, "/api/milestones/999999", Body::None),
        (
            Method::DELETE,
            "/api/milestones/999999?delete_tasks=yes",
            Body::None,
        ),
    ];
    for (method, path, body) in cases {
        let label = format!("{method} {path}");
        let a = s.call(method, path, body).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{label}: {}", a.json);
        assert_eq!(a.json, not_found, "{label}");
    }
}

#[tokio::test]
async fn a_request_without_a_key_is_401_and_writes_nothing() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0].to_string();
    let body = form(&[
        ("milestone_projectid", &project),
        ("milestone_title", "Sneaky"),
        ("milestone_color", "info"),
    ]);
    let a = s.call_as("", Method::POST, "/api/milestones", body).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        a.json,
        json!({"message": "Unauthorized. A valid API key is required. The bearer token is not an API key of this service (crm_<id>_<secret>)."})
    );
    assert_eq!(board(&s, s.ids.projects[0]).await, numbered(&SEEDED));
}
