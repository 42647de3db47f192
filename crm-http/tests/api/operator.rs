//! What an operator and a browser client see: compressed answers, CORS, `/metrics`, and the
//! API reference page (rendered by a real headless Chromium).

use std::io::Read;
use std::path::{Path, PathBuf};

use crm_http::cors::Cors;
use crm_http::openapi::DOCUMENT;
use reqwest::{Method, StatusCode, header};
use serde_json::Value;

use crate::common::{TestServer, json};

/// A GET with extra headers and the key, returning status, headers and the raw body (not
/// decompressed: reqwest is built without its decoders, so the test sees the wire).
async fn raw_get(
    s: &TestServer,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, header::HeaderMap, Vec<u8>) {
    let mut request = s.http.get(format!("{}{path}", s.base)).bearer_auth(&s.key);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

async fn add_notes(s: &TestServer, n: usize) {
    for i in 0..n {
        let created = s
            .post(
                "/api/notes",
                json(serde_json::json!({
                    "note_title": format!("Compressible note {i}"),
                    "note_description": "The same words again and again make a body that compresses well.",
                })),
            )
            .await;
        assert_eq!(created.status, StatusCode::CREATED);
    }
}

#[tokio::test]
async fn list_pages_are_compressed_when_asked_and_decode_to_the_same_answer() {
    let s = TestServer::start().await;
    add_notes(&s, 30).await;
    let path = "/api/notes?limit=100";
    let (status, plain_headers, plain) = raw_get(&s, path, &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        plain.len() > 4096,
        "a page of 30 notes is {} bytes",
        plain.len()
    );
    assert!(!plain_headers.contains_key(header::CONTENT_ENCODING));
    assert_eq!(plain_headers[header::VARY], "Accept-Encoding");
    let plain: Value = serde_json::from_slice(&plain).unwrap();

    let (_, headers, br) = raw_get(&s, path, &[("accept-encoding", "gzip, deflate, br")]).await;
    assert_eq!(headers[header::CONTENT_ENCODING], "br");
    assert_eq!(headers[header::VARY], "Accept-Encoding");
    assert!(
        br.len() * 4 < plain.to_string().len(),
        "br {} bytes",
        br.len()
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&unbrotli(&br)).unwrap(),
        plain
    );

    let (_, headers, gz) = raw_get(&s, path, &[("accept-encoding", "gzip;q=1, br;q=0.5")]).await;
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
    assert_eq!(
        serde_json::from_slice::<Value>(&gunzip(&gz)).unwrap(),
        plain
    );

    for refused in ["identity", "br;q=0, gzip;q=0", "deflate"] {
        let (_, headers, body) = raw_get(&s, path, &[("accept-encoding", refused)]).await;
        assert!(!headers.contains_key(header::CONTENT_ENCODING), "{refused}");
        assert_eq!(serde_json::from_slice::<Value>(&body).unwrap(), plain);
    }
}

#[tokio::test]
async fn small_answers_and_errors_go_as_they_are() {
    let s = TestServer::start().await;
    let (_, headers, body) = raw_get(&s, "/healthz", &[("accept-encoding", "br")]).await;
    assert!(!headers.contains_key(header::CONTENT_ENCODING));
    assert_eq!(body, br#"{"status":"ok"}"#);
    let (status, headers, body) =
        raw_get(&s, "/api/notes/999999", &[("accept-encoding", "br")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!headers.contains_key(header::CONTENT_ENCODING));
    assert_eq!(
        serde_json::from_slice::<Value>(&body).unwrap()["message"],
        "Note not found."
    );
}

#[tokio::test]
async fn the_api_description_is_served_compressed_once_and_identical() {
    let s = TestServer::start().await;
    for _ in 0..2 {
        let (_, headers, br) = raw_get(&s, "/api/openapi.json", &[("accept-encoding", "br")]).await;
        assert_eq!(headers[header::CONTENT_ENCODING], "br");
        assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
        assert!(
            br.len() * 10 < DOCUMENT.len(),
            "{} of {}",
            br.len(),
            DOCUMENT.len()
        );
        assert_eq!(unbrotli(&br), DOCUMENT.as_bytes());
    }
    let (_, headers, gz) = raw_get(&s, "/api/openapi.json", &[("accept-encoding", "gzip")]).await;
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
    assert_eq!(gunzip(&gz), DOCUMENT.as_bytes());
}

#[tokio::test]
async fn the_document_names_a_relative_server() {
    let doc: Value = serde_json::from_str(DOCUMENT).unwrap();
    assert_eq!(doc["servers"][0]["url"], "/");
}

/// An OPTIONS request with the preflight headers.
async fn preflight(s: &TestServer, path: &str, origin: &str) -> (StatusCode, header::HeaderMap) {
    let response = s
        .http
        .request(Method::OPTIONS, format!("{}{path}", s.base))
        .header(header::ORIGIN, origin)
        .header(header::ACCESS_CONTROL_REQUEST_METHOD, "PATCH")
        .header(
            header::ACCESS_CONTROL_REQUEST_HEADERS,
            "authorization, content-type, if-match",
        )
        .send()
        .await
        .unwrap();
    (response.status(), response.headers().clone())
}

#[tokio::test]
async fn without_configured_origins_there_is_no_cors() {
    let s = TestServer::start().await;
    let (status, headers) = preflight(&s, "/api/notes/1", "https://app.example.com").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));
    let (_, headers, _) = raw_get(&s, "/api/notes", &[("origin", "https://app.example.com")]).await;
    assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));
}

#[tokio::test]
async fn preflights_from_listed_origins_get_the_paths_methods_and_the_apis_headers() {
    let cors = Cors::new(["https://app.example.com", "http://localhost:5173"]).unwrap();
    let s = TestServer::start_with(|app| app.with_cors(cors)).await;

    let (status, headers) = preflight(&s, "/api/notes/1", "https://app.example.com").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        headers[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        "https://app.example.com"
    );
    assert_eq!(
        headers[header::ACCESS_CONTROL_ALLOW_METHODS],
        "GET, HEAD, PATCH, DELETE"
    );
    let allowed = headers[header::ACCESS_CONTROL_ALLOW_HEADERS]
        .to_str()
        .unwrap();
    for name in [
        "Authorization",
        "Content-Type",
        "Idempotency-Key",
        "If-Match",
    ] {
        assert!(allowed.contains(name), "{name} in {allowed}");
    }
    assert_eq!(headers[header::ACCESS_CONTROL_MAX_AGE], "600");
    assert_eq!(headers[header::VARY], "Origin");
    assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_CREDENTIALS));

    let (status, headers) = preflight(&s, "/api/notes/1", "https://evil.example.com").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));

    let (status, _) = preflight(&s, "/api/nothing-here", "https://app.example.com").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn answers_to_listed_origins_carry_the_cors_headers_and_others_do_not() {
    let cors = Cors::new(["https://app.example.com"]).unwrap();
    let s = TestServer::start_with(|app| app.with_cors(cors)).await;

    let (status, headers, _) =
        raw_get(&s, "/api/notes", &[("origin", "https://app.example.com")]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        "https://app.example.com"
    );
    let exposed = headers[header::ACCESS_CONTROL_EXPOSE_HEADERS]
        .to_str()
        .unwrap();
    assert!(exposed.contains("X-Request-Id") && exposed.contains("Retry-After"));
    let vary: Vec<_> = headers.get_all(header::VARY).iter().collect();
    assert!(vary.iter().any(|v| *v == "Origin"), "{vary:?}");

    // An error answer (a bad key) is readable by the allowed origin too.
    let response = s
        .http
        .get(format!("{}/api/notes", s.base))
        .header(header::ORIGIN, "https://app.example.com")
        .bearer_auth("crm_1_wrong")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        response.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        "https://app.example.com"
    );

    let (_, headers, _) =
        raw_get(&s, "/api/notes", &[("origin", "https://evil.example.com")]).await;
    assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));
}

/// CORS belongs to `/api` alone (issue 33): with every origin allowed, the operational
/// endpoints and the pages are still not readable from another origin, and a preflight to
/// them is not a CORS answer.
#[tokio::test]
async fn cors_never_opens_the_operational_endpoints() {
    let s = TestServer::start_with(|app| app.with_cors(Cors::new(["*"]).unwrap())).await;
    let (_, headers, _) = raw_get(&s, "/api/notes", &[("origin", "https://any.example")]).await;
    assert_eq!(headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    for path in ["/metrics", "/healthz", "/readyz", "/", "/docs", "/c/x"] {
        let (_, headers, _) = raw_get(&s, path, &[("origin", "https://any.example")]).await;
        assert!(
            !headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN),
            "{path}: {headers:?}"
        );
        let (status, headers) = preflight(&s, path, "https://any.example").await;
        assert_ne!(status, StatusCode::NO_CONTENT, "{path}");
        assert!(
            !headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN),
            "{path}"
        );
    }
}

async fn metrics_text(base: &str) -> (StatusCode, header::HeaderMap, String) {
    crm_http::ops::webhook::install_crypto_provider();
    let response = reqwest::get(format!("{base}/metrics")).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap())
}

/// The value of the sample line that starts with `series` (name and labels).
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.trim().parse().ok())
}

#[tokio::test]
async fn metrics_count_requests_by_route_template_and_status_without_a_key() {
    let s = TestServer::start().await;
    let note = s.get("/api/notes").await.json["data"][0]["id"]
        .as_i64()
        .unwrap();
    for _ in 0..3 {
        assert_eq!(
            s.get(&format!("/api/notes/{note}")).await.status,
            StatusCode::OK
        );
    }
    assert_eq!(
        s.get("/api/notes/987654").await.status,
        StatusCode::NOT_FOUND
    );
    let (status, headers, text) = metrics_text(&s.base).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    assert_eq!(
        sample(
            &text,
            r#"crm_http_requests_total{method="GET",route="/api/notes/{id}",status="200"}"#
        ),
        Some(3.0),
        "{text}"
    );
    assert_eq!(
        sample(
            &text,
            r#"crm_http_requests_total{method="GET",route="/api/notes/{id}",status="404"}"#
        ),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &text,
            r#"crm_http_request_duration_seconds_count{method="GET",route="/api/notes/{id}",status="200"}"#
        ),
        Some(3.0)
    );
    assert!(sample(&text, "crm_db_pool_max_connections").is_some_and(|n| n >= 1.0));
    assert!(sample(&text, r#"crm_db_pool_connections{state="idle"}"#).is_some());
    assert!(sample(&text, "process_resident_memory_bytes").is_some_and(|n| n > 0.0));
    assert_eq!(
        sample(&text, r#"crm_outbox_emails{status="pending"}"#),
        Some(0.0)
    );
    assert_eq!(sample(&text, "crm_outbox_due"), Some(0.0));
    // Never a key, a record id or a body.
    assert!(!text.contains(&s.key[..12]));
    assert!(!text.contains(&format!("/api/notes/{note}\"")));
}

#[tokio::test]
async fn metrics_show_the_outbox_backlog() {
    let s = TestServer::start().await;
    crate::outbox::published(&s).await;
    crate::outbox::published(&s).await;
    s.sql()
        .await
        .execute(
            "UPDATE email_queue SET status = 'failed', next_attempt_at = NULL \
             WHERE id = (SELECT min(id) FROM email_queue)",
            &[],
        )
        .await
        .unwrap();
    let (_, _, text) = metrics_text(&s.base).await;
    assert_eq!(
        sample(&text, r#"crm_outbox_emails{status="pending"}"#),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, r#"crm_outbox_emails{status="failed"}"#),
        Some(1.0)
    );
    assert_eq!(sample(&text, "crm_outbox_due"), Some(1.0));
    // The pending email was queued an hour ago (set back, rather than waited for).
    s.sql()
        .await
        .execute(
            "UPDATE email_queue SET created_at = now() - interval '1 hour' WHERE status = 'pending'",
            &[],
        )
        .await
        .unwrap();
    let (_, _, text) = metrics_text(&s.base).await;
    let oldest = sample(&text, "crm_outbox_oldest_pending_seconds").unwrap();
    assert!((3600.0..3700.0).contains(&oldest), "{oldest}");
}

#[tokio::test]
async fn metrics_count_a_webhook_event_not_yet_fanned_out_as_pending() {
    let s = TestServer::start().await;
    s.sql()
        .await
        .execute(
            "INSERT INTO webhook_endpoints (url, events, secret, key_id) \
             VALUES ('https://hooks.example.com/in', '{note.created}', \
               'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=', (SELECT min(id) FROM api_keys))",
            &[],
        )
        .await
        .unwrap();
    add_notes(&s, 1).await;
    // No worker runs here: the event waits to be fanned out, dated by its change.
    s.sql()
        .await
        .execute(
            "UPDATE webhook_events SET created_at = now() - interval '1 hour'",
            &[],
        )
        .await
        .unwrap();
    let (_, _, text) = metrics_text(&s.base).await;
    let backlog = |status: &str| {
        sample(
            &text,
            &format!(r#"crm_outbox_backlog{{channel="webhook",status="{status}"}}"#),
        )
    };
    assert_eq!(backlog("pending"), Some(1.0), "{text}");
    assert_eq!(backlog("due"), Some(1.0));
    let oldest = sample(
        &text,
        r#"crm_outbox_channel_oldest_pending_seconds{channel="webhook"}"#,
    )
    .unwrap();
    assert!((3600.0..3700.0).contains(&oldest), "{oldest}");
}

#[tokio::test]
async fn metrics_can_live_on_their_own_listener() {
    let s = TestServer::start_with(|app| app.with_metrics_elsewhere()).await;
    let (status, _, _) = metrics_text(&s.base).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let app = std::sync::Arc::new(crm_http::App::new(s.store.clone()).unwrap());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(crm_http::serve_metrics(listener, app, async move {
        let _ = stopped.await;
    }));
    let (status, _, text) = metrics_text(&base).await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.contains("crm_db_pool_max_connections"));
    let elsewhere = reqwest::get(format!("{base}/api/notes")).await.unwrap();
    assert_eq!(elsewhere.status(), StatusCode::NOT_FOUND);
    let _ = stop.send(());
    task.await.unwrap().unwrap();
}

#[tokio::test]
async fn the_reference_page_and_its_script_need_no_key_and_load_nothing_from_elsewhere() {
    let s = TestServer::start().await;
    let page = reqwest::get(format!("{}/docs", s.base)).await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(
        page.headers()[header::CONTENT_TYPE],
        "text/html; charset=utf-8"
    );
    let policy = page.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(policy.contains("default-src 'none'") && policy.contains("img-src 'self' data:"));
    let html = page.text().await.unwrap();
    assert!(html.contains(r#"spec-url="api/openapi.json""#));
    assert!(html.contains(r#"src="docs/redoc.standalone.js""#));
    assert!(!html.contains("http://") && !html.contains("https://"));

    let script = reqwest::get(format!("{}/docs/redoc.standalone.js", s.base))
        .await
        .unwrap();
    assert_eq!(script.status(), StatusCode::OK);
    assert_eq!(
        script.headers()[header::CACHE_CONTROL],
        "public, max-age=86400"
    );
    assert!(script.bytes().await.unwrap().len() > 500_000);
}

/// Chromium, installed by the project's script when the machine has none.
fn chromium() -> PathBuf {
    if let Some(found) = std::env::var_os("CRM_CHROMIUM").map(PathBuf::from) {
        return found;
    }
    let installed = Path::new("/usr/bin/chromium");
    if !installed.exists() {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/install-browser");
        let status = std::process::Command::new(&script)
            .status()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        assert!(status.success(), "{} failed", script.display());
    }
    installed.to_path_buf()
}

/// Runs headless Chromium on `url` with every host but the test server unreachable.
fn headless(url: &str, profile: &Path, extra: &[&str]) -> std::process::Output {
    std::process::Command::new(chromium())
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "--virtual-time-budget=20000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs")
}

#[tokio::test]
async fn the_api_reference_renders_in_a_real_browser() {
    let s = TestServer::start().await;
    let url = format!("{}/docs", s.base);
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("api-reference");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let (dom, shot) = tokio::task::spawn_blocking({
        let scratch = scratch.clone();
        move || {
            let dom = headless(&url, &scratch.join("profile-dom"), &["--dump-dom"]);
            let png = scratch.join("api-reference.png");
            let shot = headless(
                &url,
                &scratch.join("profile-shot"),
                &[
                    "--window-size=1280,1600",
                    &format!("--screenshot={}", png.display()),
                ],
            );
            (dom, (shot, png))
        }
    })
    .await
    .unwrap();
    let html = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&dom.stderr)
    );
    // Redoc fetched the document and rendered its title and the operation list.
    let doc: Value = serde_json::from_str(DOCUMENT).unwrap();
    assert!(
        html.contains(doc["info"]["title"].as_str().unwrap()),
        "the page did not render the document:\n{}",
        &html[..html.len().min(2000)]
    );
    let mut summaries = 0;
    for item in doc["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            let summary = operation["summary"].as_str().unwrap();
            let shown = summary
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            assert!(html.contains(&shown), "operation {summary:?} not rendered");
            summaries += 1;
        }
    }
    assert!(summaries > 40);
    let (shot, png) = shot;
    assert!(
        shot.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&shot.stderr)
    );
    let image = std::fs::read(&png).expect("a screenshot");
    assert_eq!(&image[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        image.len() > 20_000,
        "an empty page is smaller: {} bytes",
        image.len()
    );
    eprintln!("screenshot of the API reference: {}", png.display());
}
