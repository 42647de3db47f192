//! `/api/users/me` (API.md §17): the key's own user, read and changed.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, assert_errors, form, json as body, multipart};

#[tokio::test]
async fn a_key_reads_and_changes_its_own_user() {
    let s = TestServer::start().await;
    let a = s.get("/api/users/me").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.message(), "User retrieved successfully.");
    assert_eq!(
        (a.data()["id"].as_i64(), a.data()["email"].as_str()),
        (Some(1), Some("admin@example.com"))
    );
    for (encoding, b, first) in [
        ("json", body(json!({"first_name": "Ada"})), "Ada"),
        ("form", form(&[("first_name", "Grace")]), "Grace"),
        (
            "multipart",
            multipart(&[("first_name", "Alan"), ("email", "alan@acme.example")]),
            "Alan",
        ),
    ] {
        let a = s.patch("/api/users/me", b).await;
        assert_eq!(a.status, StatusCode::OK, "{encoding}: {}", a.json);
        assert_eq!(a.data()["first_name"], first);
        assert_eq!(a.data()["last_name"], "Administrator", "kept");
    }
    assert_eq!(
        s.get("/api/users/me").await.data()["email"],
        "alan@acme.example"
    );
    // Another administrator's key sees that user.
    let other = s.key_for(2).await;
    let a = s
        .call_as(
            &other,
            reqwest::Method::GET,
            "/api/users/me",
            crate::common::Body::None,
        )
        .await;
    assert_eq!(a.data()["id"], 2);
}

#[tokio::test]
async fn a_taken_email_and_cleared_names_are_refused() {
    let s = TestServer::start().await;
    let a = s
        .patch(
            "/api/users/me",
            body(json!({"email": "Jane.Doe@example.com", "first_name": null})),
        )
        .await;
    assert_errors(
        &a,
        json!({"first_name": ["The first name field is required."]}),
    );
    let a = s
        .patch(
            "/api/users/me",
            body(json!({"email": "Jane.Doe@example.com"})),
        )
        .await;
    assert_errors(&a, json!({"email": ["The email has already been taken."]}));
}
