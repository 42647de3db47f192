//! `/api/categories`: errors on every by-id endpoint.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Body, TestServer, form};

use super::category_rows;

#[tokio::test]
async fn unknown_ids_are_404_on_every_by_id_endpoint() {
    let s = TestServer::start().await;
    let target = s.default_category("project").await;
    let not_found = json!({"message": "Category not found."});
    let target_text = target.to_string();
    let cases: Vec<(Method, &str, Body)> = vec![
        (Method::GET, "/api/categories/999999", Body::None),
        (
            Method::PATCH,
            "/api/categories/999999",
            form(&[("category_name", "Valid")]),
        ),
        (Method::DELETE, "/api/categories/999999", Body::None),
        (
            Method::PUT,
            "/api/categories/999999/team",
            form(&[("users[]", "1")]),
        ),
        (
            Method::PUT,
            "/api/categories/999999/migrate",
            form(&[("target_id", &target_text)]),
        ),
        // An invalid body on a missing record is still a 404.
        (Method::PATCH, "/api/categories/999999", form(&[])),
        (Method::PUT, "/api/categories/999999/team", form(&[])),
        (
            Method::PUT,
            "/api/categories/999999/migrate",
            form(&[("target_id", "999999")]),
        ),
        (Method::PUT, "/api/categories/999999/migrate", form(&[])),
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
    let before = category_rows(&s).await;
    let a = s
        .call_as(
            "crm_1_nope",
            Method::POST,
            "/api/categories",
            form(&[("category_name", "Sneaky"), ("category_type", "project")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        a.json,
        json!({"message": "Unauthorized. A valid API key is required. The bearer token is not an API key of this service (crm_<id>_<secret>)."})
    );
    assert_eq!(category_rows(&s).await, before);
}
