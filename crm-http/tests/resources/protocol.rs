//! The `Host` rule and `/readyz` (defect 5), and the OpenAPI document's account of the
//! answers the bounds produce.

use std::io::Write;

use crm_http::openapi::DOCUMENT;
use crm_http::router::{Access, ROUTES};
use serde_json::Value;

use crate::common::{Server, read_answer};

#[tokio::test]
async fn an_http_1_1_request_needs_exactly_one_host() {
    let s = Server::start(&[]).await;
    let missing = s.send(b"GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
    assert_eq!(missing.status, 400, "{missing:?}");
    assert_eq!(
        missing.json(),
        serde_json::json!({"message": "The Host header is required."})
    );
    let twice = s.send(b"GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n");
    assert_eq!(twice.status, 400, "{twice:?}");
    // HTTP/1.0 has no such rule.
    assert_eq!(s.send(b"GET /healthz HTTP/1.0\r\n\r\n").status, 200);
    assert_eq!(
        s.send(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .status,
        200
    );
}

#[tokio::test]
async fn readyz_reflects_an_exhausted_pool_and_a_missing_database() {
    // A pool of 2: two writes waiting on a row lock hold both connections.
    let s = Server::start(&["--pool-size", "2"]).await;
    let ready = s.get("/readyz", None);
    assert_eq!(ready.status, 200, "{ready:?}");
    assert_eq!(ready.json(), serde_json::json!({"status": "ready"}));
    let note = s.ids.notes.public;
    let mut locker = s.db.client().await.unwrap();
    let lock = locker.transaction().await.unwrap();
    lock.execute("SELECT 1 FROM notes WHERE id = $1 FOR UPDATE", &[&note])
        .await
        .unwrap();
    let writes: Vec<_> = (0..2)
        .map(|_| {
            let mut stream = s.connect();
            let body = r#"{"note_title":"Locked","note_description":"Locked"}"#;
            stream
                .write_all(
                    format!(
                        "PATCH /api/notes/{note} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        s.key,
                        body.len()
                    )
                    .as_bytes(),
                )
                .unwrap();
            std::thread::spawn(move || read_answer(&mut stream))
        })
        .collect();
    let watcher = s.db.client().await.unwrap();
    let waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
    let mut blocked = 0i64;
    for _ in 0..600 {
        blocked = watcher.query_one(waiting, &[]).await.unwrap().get(0);
        if blocked >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(blocked, 2, "both writes wait on the lock");
    let exhausted = s.get("/readyz", None);
    assert_eq!(exhausted.status, 503, "{exhausted:?}");
    assert_eq!(
        exhausted.json(),
        serde_json::json!({"message": "Service temporarily unavailable."})
    );
    assert_eq!(exhausted.header("retry-after").as_deref(), Some("5"));
    // The process is alive and the database answers: /healthz says so.
    assert_eq!(s.get("/healthz", None).status, 200);
    lock.commit().await.unwrap();
    for write in writes {
        assert_eq!(write.join().unwrap().status, 200);
    }
    assert_eq!(s.get("/readyz", None).status, 200);
    // Without its database the service is not ready.
    let admin = crm_store_pg::testing::TestDb::new().await.unwrap();
    let other = admin.client().await.unwrap();
    other
        .batch_execute(&format!("DROP DATABASE \"{}\" WITH (FORCE)", s.db.name()))
        .await
        .unwrap();
    assert!(s.eventually(|| s.get("/readyz", None).status == 503));
}

fn document() -> Value {
    serde_json::from_str(DOCUMENT).unwrap()
}

/// The status codes an operation documents.
fn documented(doc: &Value, method: &str, path: &str) -> Vec<String> {
    let pointer = format!(
        "/paths/{}/{}/responses",
        path.replace('~', "~0").replace('/', "~1"),
        method.to_ascii_lowercase()
    );
    doc.pointer(&pointer)
        .and_then(Value::as_object)
        .map(|r| r.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_document_accounts_for_every_bound() {
    let doc = document();
    for route in ROUTES {
        let method = route.method.as_str();
        let statuses = documented(&doc, method, route.path);
        let has = |s: &str| statuses.iter().any(|x| x == s);
        assert!(
            has("400") && has("431"),
            "{method} {}: {statuses:?}",
            route.path
        );
        if route.access == Access::Key {
            assert!(has("429"), "{method} {}: 429", route.path);
            assert!(has("403"), "{method} {}: 403", route.path);
            assert_eq!(has("408"), method != "GET", "{method} {}: 408", route.path);
            // The scope the route needs (API.md §15), as the router decides it.
            let security = doc
                .pointer(&format!(
                    "/paths/{}/{}/security",
                    route.path.replace('~', "~0").replace('/', "~1"),
                    method.to_ascii_lowercase()
                ))
                .cloned();
            let need = route.need.expect("a keyed route's scope").to_string();
            assert_eq!(
                security,
                Some(serde_json::json!([{"bearer": [need]}])),
                "{method} {}",
                route.path
            );
        }
    }
    let message = |name: &str| {
        doc.pointer(&format!(
            "/components/responses/{name}/content/application~1json/schema/properties/message/const"
        ))
        .cloned()
    };
    assert_eq!(
        message("BodyTimeout"),
        Some(Value::from("The request body was not received in time."))
    );
    assert_eq!(
        message("TransferCodingNotImplemented"),
        Some(Value::from(
            "Only the chunked transfer coding is supported."
        ))
    );
    assert_eq!(
        doc.pointer(
            "/components/responses/TooManyRequests/content/application~1json/schema/properties/message/enum"
        ),
        Some(&serde_json::json!([
            "Too many requests.",
            "Too many requests in progress for this API key.",
            "Too many failed authentications from this address."
        ]))
    );
    // Every answer to a key may carry its rate-limit standing.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if op
                .get("security")
                .is_some_and(|s| s.as_array().is_some_and(Vec::is_empty))
            {
                continue;
            }
            let ok = op["responses"]
                .as_object()
                .unwrap()
                .iter()
                .find(|(status, _)| status.starts_with('2'))
                .map(|(_, answer)| answer)
                .unwrap();
            assert!(
                ok["headers"].get("RateLimit-Remaining").is_some(),
                "{method} {path}"
            );
        }
    }
    assert_eq!(
        message("MissingHost"),
        Some(Value::from("The Host header is required."))
    );
}
