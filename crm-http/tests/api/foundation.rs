//! Conventions shared by every endpoint: authentication, routing, bodies, envelopes, ids.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Body, TestServer, form};

#[tokio::test]
async fn each_request_without_a_valid_key_is_told_what_was_wrong() {
    let s = TestServer::start().await;
    let url = format!("{}/api/notes", s.base);
    const REQUIRED: &str = "Unauthorized. A valid API key is required.";
    let invalid_token = "Bearer realm=\"crm\", error=\"invalid_token\"";
    let invalid_request = "Bearer realm=\"crm\", error=\"invalid_request\"";
    let cases: Vec<(&str, Option<String>, String, &str)> = vec![
        ("authorization", None, String::new(), "Bearer realm=\"crm\""),
        (
            "x-api-key",
            Some(s.key.clone()),
            " The key goes in the Authorization header as \"Bearer <key>\", not in X-Api-Key."
                .into(),
            invalid_request,
        ),
        (
            "authorization",
            Some(s.key.clone()),
            " The Authorization header must read \"Bearer <key>\".".into(),
            invalid_request,
        ),
        (
            "authorization",
            Some("Basic dXNlcjpwYXNz".into()),
            " The Authorization header must read \"Bearer <key>\".".into(),
            invalid_request,
        ),
        (
            "authorization",
            Some("Bearer nonsense".into()),
            " The bearer token is not an API key of this service (crm_<id>_<secret>).".into(),
            invalid_token,
        ),
        (
            "authorization",
            Some(format!("Bearer crm_999_{}", "a".repeat(64))),
            " This API key is unknown or was revoked.".into(),
            invalid_token,
        ),
        (
            "authorization",
            Some(format!(
                "Bearer {}{}",
                &s.key[..s.key.len() - 1],
                if s.key.ends_with('a') { 'b' } else { 'a' }
            )),
            " This API key is unknown or was revoked.".into(),
            invalid_token,
        ),
    ];
    for (header, value, detail, challenge) in cases {
        let mut request = s.http.get(&url);
        if let Some(v) = &value {
            request = request.header(header, v);
        }
        let a = crate::common::answer(&reqwest::Method::GET, request.send().await.unwrap()).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{header}: {value:?}");
        assert_eq!(
            a.json,
            json!({"message": format!("{REQUIRED}{detail}")}),
            "{header}: {value:?}"
        );
        assert_eq!(a.headers["www-authenticate"], challenge, "{value:?}");
    }
    // An expired key: scopes::an_expired_key_is_unauthorized_like_an_unknown_one.
}

#[tokio::test]
async fn a_revoked_key_stops_working_within_seconds() {
    let s = TestServer::start().await;
    assert_eq!(s.get("/api/notes").await.status, StatusCode::OK);
    let id: i64 = s.key.split('_').nth(1).unwrap().parse().unwrap();
    assert!(
        s.store
            .revoke_api_key(crm_core::ids::ApiKeyId::new(id).unwrap())
            .await
            .unwrap()
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        if s.get("/api/notes").await.status == StatusCode::UNAUTHORIZED {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "revocation not effective after 10 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
}

#[tokio::test]
async fn unknown_routes_are_404_and_wrong_methods_are_405_with_allow() {
    let s = TestServer::start().await;
    let a = s.get("/api/nothing-here").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert_eq!(a.json, json!({"message": "Route not found."}));
    let a = s.put("/api/notes", Body::None).await;
    assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(a.headers["allow"], "GET, HEAD, POST");
    assert!(a.json["message"].is_string());
    let a = s.get("/api/milestones/positions").await;
    assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(a.headers["allow"], "PUT");
}

#[tokio::test]
async fn head_answers_wherever_get_does_with_the_headers_and_no_body() {
    let s = TestServer::start().await;
    let head = |path: &str, key: Option<&str>| {
        let mut request = s.http.head(format!("{}{path}", s.base));
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        request.send()
    };
    let note = s.ids.notes.public;
    let get = s.get(&format!("/api/notes/{note}")).await;
    let r = head(&format!("/api/notes/{note}"), Some(&s.key))
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        r.headers()["content-type"],
        "application/json; charset=utf-8"
    );
    assert_eq!(
        r.headers()["content-length"],
        get.json.to_string().len().to_string().as_str(),
        "the length GET would send"
    );
    assert!(r.headers().contains_key("x-request-id"));
    assert!(r.bytes().await.unwrap().is_empty());

    let r = head("/api/notes?limit=2", Some(&s.key)).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let r = head("/healthz", None).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let r = head("/api/notes/999999", Some(&s.key)).await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let r = head("/api/notes", None).await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = head("/api/milestones/positions", Some(&s.key))
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn non_numeric_and_out_of_range_ids_are_the_resources_404() {
    let s = TestServer::start().await;
    for path in [
        "/api/notes/abc",
        "/api/notes/0",
        "/api/notes/-1",
        "/api/notes/99999999999999999999",
        "/api/notes/999999",
    ] {
        let a = s.get(path).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(a.json, json!({"message": "Note not found."}), "{path}");
    }
    assert_eq!(
        s.get("/api/categories/x").await.message(),
        "Category not found."
    );
    assert_eq!(
        s.get("/api/contracts/x").await.message(),
        "Contract not found."
    );
    assert_eq!(
        s.get("/api/estimates/x").await.message(),
        "Estimate not found."
    );
    assert_eq!(
        s.get("/api/milestones/x").await.message(),
        "Milestone not found."
    );
    // A percent-encoded id is decoded first, as Laravel does: `%31` is 1.
    let a = s.get("/api/categories/%31").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["id"], 1);
}

#[tokio::test]
async fn every_response_carries_a_request_id_and_echoes_the_clients() {
    let s = TestServer::start().await;
    let a = s.get("/api/notes").await;
    assert!(!a.headers["x-request-id"].is_empty());
    let b = s.get("/api/notes").await;
    assert_ne!(a.headers["x-request-id"], b.headers["x-request-id"]);
    let r = s
        .http
        .get(format!("{}/api/nothing", s.base))
        .header("x-request-id", "trace-42")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "trace-42");
    assert_eq!(
        r.headers()["content-type"],
        "application/json; charset=utf-8"
    );
}

#[tokio::test]
async fn bodies_over_one_mebibyte_are_413() {
    let s = TestServer::start().await;
    let big = "x".repeat((1 << 20) + 10);
    let a = s
        .post(
            "/api/notes",
            form(&[("note_title", "t"), ("note_description", &big)]),
        )
        .await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(a.json, json!({"message": "The request body is too large."}));
}

#[tokio::test]
async fn other_content_types_are_415_and_malformed_json_is_400() {
    let s = TestServer::start().await;
    let a = s
        .post("/api/notes", Body::Raw("text/plain", b"hello".to_vec()))
        .await;
    assert_eq!(a.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        a.json,
        json!({"message": "Unsupported content type. Send application/json, application/x-www-form-urlencoded, multipart/form-data."})
    );
    let a = s
        .post(
            "/api/notes",
            Body::Raw("application/json", b"{\"note_title\": ".to_vec()),
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        a.json,
        json!({"message": "The request body is not valid JSON."})
    );
}

#[tokio::test]
async fn the_health_check_needs_no_key() {
    let s = TestServer::start().await;
    let r = s
        .http
        .get(format!("{}/healthz", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn validation_errors_list_every_failing_field_including_references() {
    let s = TestServer::start().await;
    let a = s
        .post("/api/contracts", form(&[("doc_client_id", "99999")]))
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(a.message(), "The given data was invalid.");
    assert_eq!(
        a.errors("doc_client_id"),
        ["The selected doc client id is invalid."]
    );
    assert_eq!(a.errors("doc_title"), ["The doc title field is required."]);
}

#[tokio::test]
async fn shutdown_waits_for_in_flight_requests() {
    let s = TestServer::start().await;
    let base = s.base.clone();
    let key = s.key.clone();
    let http = s.http.clone();
    let in_flight = tokio::spawn(async move {
        http.get(format!("{base}/api/notes"))
            .bearer_auth(key)
            .send()
            .await
            .map(|r| r.status())
    });
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let base = s.base.clone();
    s.stop().await;
    assert_eq!(in_flight.await.unwrap().unwrap(), StatusCode::OK);
    assert!(
        reqwest::Client::new()
            .get(format!("{base}/healthz"))
            .send()
            .await
            .is_err(),
        "no longer accepting"
    );
}

#[tokio::test]
async fn sparse_form_indices_are_named_in_messages_as_they_were_sent() {
    let s = TestServer::start().await;
    let a = s
        .put(
            "/api/categories/1/team",
            form(&[("users[7]", "x"), ("users[2]", "1")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(a.errors("users.7"), ["The users.7 must be an integer."]);
    let estimate = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", "1"),
                ("bill_categoryid", "4"),
                ("bill_date", "2026-11-22"),
            ]),
        )
        .await;
    let id = estimate.data()["id"].as_i64().unwrap();
    let a = s
        .put(
            &format!("/api/estimates/{id}/items"),
            form(&[
                ("items[5][description]", "Later"),
                ("items[5][quantity]", "0"),
                ("items[5][rate]", "1"),
                ("items[1][description]", "First"),
                ("items[1][quantity]", "1"),
                ("items[1][rate]", "1"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        a.errors("items.5.quantity"),
        ["The items.5.quantity must be greater than 0."]
    );
}

#[tokio::test]
async fn unknown_fields_are_listed_in_the_answer_or_refused_when_the_client_prefers_strict() {
    let s = TestServer::start().await;
    let note = [
        ("note_title", "Call"),
        ("note_description", "x"),
        ("note_titel", "typo"),
        ("tags[]", "a"),
    ];
    let a = s
        .call_with(
            &s.key,
            reqwest::Method::POST,
            "/api/notes",
            form(&note),
            &[],
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(a.headers["ignored-fields"], "note_titel, tags");
    let before = s
        .scalar("SELECT count(*) FROM notes WHERE $1::bigint > 0", 1)
        .await;
    let a = s
        .call_with(
            &s.key,
            reqwest::Method::POST,
            "/api/notes",
            form(&note),
            &[("Prefer", "handling=strict")],
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.json);
    assert_eq!(
        a.json,
        json!({"message": "The given data was invalid.", "errors": {
            "note_titel": ["The field note_titel is unknown."],
            "tags": ["The field tags is unknown."]
        }})
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM notes WHERE $1::bigint > 0", 1)
            .await,
        before,
        "nothing written"
    );
    // Nested fields, in JSON, and a strict request with none.
    let estimate = s
        .created(
            "/api/estimates",
            json!({"bill_clientid": crate::common::client(&s, 0), "bill_categoryid": s.default_category("estimate").await, "bill_date": "2026-11-20"}),
        )
        .await;
    let items = json!({"items": [{"description": "Design", "quantity": 1, "rate": 100, "colour": "red"}], "tax_rate_id": [1]});
    let a = s
        .call_with(
            &s.key,
            reqwest::Method::PUT,
            &format!("/api/estimates/{estimate}/items"),
            Body::Json(items),
            &[("Prefer", "respond-async, handling=strict")],
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.json);
    assert_eq!(
        a.errors("items.0.colour"),
        ["The field items.0.colour is unknown."]
    );
    assert_eq!(
        a.errors("tax_rate_id"),
        ["The field tax_rate_id is unknown."]
    );
    let a = s
        .call_with(
            &s.key,
            reqwest::Method::GET,
            "/api/notes?limit=5",
            Body::None,
            &[("Prefer", "handling=strict")],
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.headers["preference-applied"], "handling=strict");
    assert!(!a.headers.contains_key("ignored-fields"));
}
