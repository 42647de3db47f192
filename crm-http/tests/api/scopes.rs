//! Keys that can do only what they are for (API.md §15): scopes refused with a 403 before
//! the body is read, expiry decided by the clock given, the key cache and scope changes,
//! and the last use written in batches. The sweep of every route with a key of each scope
//! is `sweep/scopes.rs`.

use std::time::{Duration, Instant};

use chrono::{TimeDelta, Utc};
use crm_core::scope::Need;
use crm_http::auth::{CACHE_TTL, Keys};
use crm_http::error::{ApiError, Unauthenticated};
use reqwest::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{Body, TestServer, form};

/// The answer to a request outside the key's scopes, which names the scope `need`ed.
fn refused(need: &str) -> serde_json::Value {
    let level = need.split_once(':').unwrap().1;
    json!({"message": format!("This API key is not allowed to do this: it needs the {need} scope (or {level}).")})
}

/// The id of a key (`crm_<id>_…`).
fn key_id(key: &str) -> i64 {
    key.split('_').nth(1).unwrap().parse().unwrap()
}

#[tokio::test]
async fn a_read_only_key_reads_everything_and_is_refused_every_write() {
    let s = TestServer::start().await;
    let read = s.key_with(&["read"], None).await;
    let note = s
        .created(
            "/api/notes",
            json!({"note_title": "Call", "note_description": "x"}),
        )
        .await;
    for path in [
        "/api/notes",
        "/api/estimates",
        "/api/emails",
        "/api/categories",
    ] {
        let a = s
            .call_as(&read, reqwest::Method::GET, path, Body::None)
            .await;
        assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.json);
    }
    let notes = s
        .scalar("SELECT count(*) FROM notes WHERE $1::bigint > 0", 1)
        .await;
    let create = form(&[("note_title", "Mine"), ("note_description", "y")]);
    let a = s
        .call_as(&read, reqwest::Method::POST, "/api/notes", create)
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    assert_eq!(a.json, refused("notes:write"));
    assert_eq!(
        a.headers["www-authenticate"],
        "Bearer realm=\"crm\", error=\"insufficient_scope\", scope=\"notes:write write\""
    );
    let a = s
        .call_as(
            &read,
            reqwest::Method::DELETE,
            &format!("/api/notes/{note}"),
            Body::None,
        )
        .await;
    assert_eq!(
        (a.status, a.json),
        (StatusCode::FORBIDDEN, refused("notes:write"))
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM notes WHERE $1::bigint > 0", 1)
            .await,
        notes,
        "nothing written"
    );
}

#[tokio::test]
async fn a_key_of_several_scopes_may_do_what_any_of_them_allows() {
    let s = TestServer::start().await;
    let key = s.key_with(&["estimates:read", "notes:write"], None).await;
    let call = |method, path: &'static str, body| s.call_as(&key, method, path, body);
    let a = call(reqwest::Method::GET, "/api/estimates", Body::None).await;
    assert_eq!(a.status, StatusCode::OK);
    let a = call(
        reqwest::Method::POST,
        "/api/notes",
        form(&[("note_title", "Call"), ("note_description", "x")]),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let a = call(reqwest::Method::GET, "/api/notes", Body::None).await;
    assert_eq!(a.status, StatusCode::OK, "notes:write implies notes:read");
    for (method, path, need) in [
        (reqwest::Method::GET, "/api/contracts", "contracts:read"),
        (reqwest::Method::POST, "/api/estimates", "estimates:write"),
        (reqwest::Method::GET, "/api/invoices", "invoices:read"),
    ] {
        let a = call(method.clone(), path, Body::None).await;
        assert_eq!(
            (a.status, a.json),
            (StatusCode::FORBIDDEN, refused(need)),
            "{method} {path}"
        );
    }
}

/// Sends a request head declaring a body that never comes, and returns the status line of
/// the answer (the service answers without waiting for the body, or times out).
async fn head_only(s: &TestServer, key: &str, extra: &str) -> String {
    let address = s.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /api/notes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000\r\n{extra}\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut answer))
        .await
        .expect("an answer without the body")
        .unwrap();
    let text = String::from_utf8_lossy(&answer[..n]).to_string();
    text.lines().next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_refused_request_is_answered_before_its_body_is_read() {
    let s = TestServer::start().await;
    let read = s.key_with(&["read"], None).await;
    let started = Instant::now();
    let status = head_only(&s, &read, "Idempotency-Key: refused-1\r\n").await;
    assert_eq!(status, "HTTP/1.1 403 Forbidden");
    assert!(started.elapsed() < Duration::from_secs(5));
    // Nothing was claimed under the idempotency key either.
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM idempotency_keys WHERE $1::bigint > 0",
            1
        )
        .await,
        0
    );
    // A body that is not even JSON, or of a type the API refuses, is still a 403: it is
    // never looked at.
    for (content_type, body) in [
        ("application/json", b"{not json".to_vec()),
        ("text/plain", b"plain".to_vec()),
    ] {
        let a = s
            .call_as(
                &read,
                reqwest::Method::POST,
                "/api/notes",
                Body::Raw(content_type, body),
            )
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{content_type}");
    }
    // The same head with a key that may write waits for its body (the 403 above was not
    // an answer to the missing body).
    let address = s.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /api/notes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
        s.key
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = [0u8; 64];
    let waited = tokio::time::timeout(Duration::from_millis(500), stream.read(&mut answer)).await;
    assert!(waited.is_err(), "a key that may write waits for the body");
}

#[tokio::test]
async fn an_expired_key_is_unauthorized_like_an_unknown_one() {
    let s = TestServer::start().await;
    let expired = s
        .key_with(&["write"], Some(Utc::now() - TimeDelta::minutes(1)))
        .await;
    let a = s
        .call_as(&expired, reqwest::Method::GET, "/api/notes", Body::None)
        .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        a.json,
        json!({"message": "Unauthorized. A valid API key is required. This API key has expired."})
    );
    // Out of scope and expired: expired wins (401, not 403).
    let both = s
        .key_with(&["notes:read"], Some(Utc::now() - TimeDelta::minutes(1)))
        .await;
    let a = s
        .call_as(&both, reqwest::Method::POST, "/api/notes", Body::None)
        .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    let later = s
        .key_with(&["write"], Some(Utc::now() + TimeDelta::hours(1)))
        .await;
    let a = s
        .call_as(&later, reqwest::Method::GET, "/api/notes", Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK);
}

#[tokio::test]
async fn a_cached_key_expires_at_its_instant_by_the_clock_it_is_given() {
    let s = TestServer::start().await;
    let now = Utc::now();
    let key = s
        .key_with(&["notes:read"], Some(now + TimeDelta::days(30)))
        .await;
    let mut headers = http::HeaderMap::new();
    headers.insert(
        http::header::AUTHORIZATION,
        format!("Bearer {key}").parse().unwrap(),
    );
    let keys = Keys::new(s.store.clone(), CACHE_TTL);
    let read = Need::of_route("GET", "/api/notes").unwrap();
    let write = Need::of_route("POST", "/api/notes").unwrap();
    let check = |need, at| keys.authenticate(&headers, need, at);
    assert!(check(read, now).await.is_ok());
    assert!(matches!(
        check(write, now).await,
        Err(ApiError::OutOfScope(_))
    ));
    // The same cached row, a chosen clock: 30 days later, the key is expired.
    let expiry = now + TimeDelta::days(30);
    assert!(check(read, expiry - TimeDelta::seconds(1)).await.is_ok());
    assert!(matches!(
        check(read, expiry).await,
        Err(ApiError::Unauthorized(Unauthenticated::Expired))
    ));
    assert!(matches!(
        check(write, expiry).await,
        Err(ApiError::Unauthorized(Unauthenticated::Expired))
    ));
    assert_eq!(keys.cached_ids(), 1);
}

#[tokio::test]
async fn a_change_of_scopes_takes_effect_within_seconds() {
    let s = TestServer::start().await;
    let key = s.key_with(&["notes:read"], None).await;
    let post = || {
        s.call_as(
            &key,
            reqwest::Method::POST,
            "/api/notes",
            form(&[("note_title", "Call"), ("note_description", "x")]),
        )
    };
    assert_eq!(post().await.status, StatusCode::FORBIDDEN);
    let db = s.sql().await;
    let widen = "UPDATE api_keys SET scopes = '{notes:write}' WHERE id = $1";
    db.execute(widen, &[&key_id(&key)]).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while post().await.status != StatusCode::CREATED {
        assert!(
            Instant::now() < deadline,
            "the new scope not honoured after 10 s"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let narrow = "UPDATE api_keys SET scopes = '{read}' WHERE id = $1";
    db.execute(narrow, &[&key_id(&key)]).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while post().await.status != StatusCode::FORBIDDEN {
        assert!(
            Instant::now() < deadline,
            "the narrower scope not honoured after 10 s"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let a = s
        .call_as(&key, reqwest::Method::GET, "/api/contracts", Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "now it reads everything");
    // An expiry set on a key in use takes effect the same way.
    let expire = "UPDATE api_keys SET expires_at = now() WHERE id = $1";
    db.execute(expire, &[&key_id(&key)]).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let a = s
            .call_as(&key, reqwest::Method::GET, "/api/notes", Body::None)
            .await;
        if a.status == StatusCode::UNAUTHORIZED {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the expiry not honoured after 10 s"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test]
async fn the_last_use_is_written_in_batches_to_the_minute() {
    let s = TestServer::start().await;
    let key = s.key_with(&["notes:read"], None).await;
    let idle = s.key_with(&["read"], None).await;
    let last_used = |id: i64| {
        let s = &s;
        async move {
            s.sql()
                .await
                .query_one("SELECT last_used_at FROM api_keys WHERE id = $1", &[&id])
                .await
                .unwrap()
                .get::<_, Option<chrono::DateTime<Utc>>>(0)
        }
    };
    let before = Utc::now();
    for _ in 0..20 {
        let a = s
            .call_as(&key, reqwest::Method::GET, "/api/notes", Body::None)
            .await;
        assert_eq!(a.status, StatusCode::OK);
    }
    // A refusal for scope is a use of the key too (it authenticated).
    let a = s
        .call_as(&key, reqwest::Method::POST, "/api/notes", Body::None)
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    // No request wrote it.
    assert_eq!(last_used(key_id(&key)).await, None);
    // One batch writes every key used: here, one.
    assert_eq!(s.app.record_key_use().await.unwrap(), 1);
    let minute = last_used(key_id(&key)).await.expect("written");
    let after = Utc::now();
    assert_eq!(minute.timestamp() % 60, 0, "to the minute: {minute}");
    assert!(
        minute.timestamp() >= before.timestamp() - before.timestamp() % 60 && minute <= after,
        "{before} ≤ {minute} ≤ {after}"
    );
    assert_eq!(last_used(key_id(&idle)).await, None, "never used");
    // Nothing used since: nothing to write.
    assert_eq!(s.app.record_key_use().await.unwrap(), 0);
}
