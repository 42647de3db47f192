//! The test harness shared by every module, as zero-to-production's `TestApp`:
//! [`TestServer`] is a running service on a fresh seeded database with a key, and owns the
//! request helpers (`get`, `post`, …, `call_as`) and the database helpers (`sql`, `scalar`,
//! `default_category`); the free functions are the shared assertions (`assert_invalid`,
//! `assert_errors`, `assert_page`, `assert_timestamp`), readers (`id_of`, `ids`, `keys`) and
//! small makers (`pairs`, `form`, `today`, `client`).
//! A helper used by more than one area belongs here, not in the area's module.

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use crm_core::ids::UserId;
use crm_core::scope::{Grant, Scopes};
use crm_http::{App, ServeOptions, auth, serve};
use crm_store_pg::Store;
use crm_store_pg::seed::SeedIds;
use crm_store_pg::testing::TestDb;
use reqwest::{Method, StatusCode};
use serde_json::Value;
use tokio::sync::oneshot;

/// A running service on a fresh, seeded database, with an API key for user 1.
pub struct TestServer {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// A key acting as user 1 (the main administrator).
    pub key: String,
    /// The HTTP client.
    pub http: reqwest::Client,
    /// The seeded ids.
    pub ids: SeedIds,
    /// The store behind the server (for preparing and inspecting rows).
    pub store: Store,
    /// The database (dropped with the server).
    pub db: TestDb,
    /// The service itself (for what `crm serve` runs beside it: recording key use).
    pub app: Arc<App>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

/// An answer: status, headers and JSON body (`Value::Null` when the body is not JSON).
#[derive(Debug)]
pub struct Answer {
    /// Status code.
    pub status: StatusCode,
    /// Response headers.
    pub headers: reqwest::header::HeaderMap,
    /// Parsed body.
    pub json: Value,
}

impl Answer {
    /// The messages of one field of a 422.
    pub fn errors(&self, field: &str) -> Vec<String> {
        self.json["errors"][field]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|m| m.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The `data` member.
    pub fn data(&self) -> &Value {
        &self.json["data"]
    }

    /// The `message` member.
    pub fn message(&self) -> &str {
        self.json["message"].as_str().unwrap_or_default()
    }
}

/// A request body in one of the three encodings.
pub enum Body {
    /// No body.
    None,
    /// `application/x-www-form-urlencoded` from pairs (keys may use brackets).
    Form(Vec<(String, String)>),
    /// `application/json`.
    Json(Value),
    /// `multipart/form-data` from pairs.
    Multipart(Vec<(String, String)>),
    /// Raw bytes with an explicit content type.
    Raw(&'static str, Vec<u8>),
}

/// Owned pairs for [`Body::Form`] and [`Body::Multipart`].
pub fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// Form pairs from string slices.
pub fn form(p: &[(&str, &str)]) -> Body {
    Body::Form(pairs(p))
}

/// Multipart pairs from string slices.
pub fn multipart(p: &[(&str, &str)]) -> Body {
    Body::Multipart(pairs(p))
}

/// Today as the service sees it (UTC).
pub fn today() -> NaiveDate {
    Utc::now().date_naive()
}

/// The seeded client `n` (0 is Acme Inc; 0 and 1 have a contact email, 2 has none).
pub fn client(s: &TestServer, n: usize) -> i64 {
    s.ids.clients[n].id
}

/// A JSON body.
pub fn json(value: Value) -> Body {
    Body::Json(value)
}

impl TestServer {
    /// Starts a server on a fresh seeded database.
    pub async fn start() -> TestServer {
        TestServer::start_with(|app| app).await
    }

    /// Starts a server on a fresh seeded database, with the service adjusted by
    /// `configure` (CORS origins, metrics elsewhere, …).
    pub async fn start_with(configure: impl FnOnce(App) -> App) -> TestServer {
        TestServer::start_configured(|_| {}, configure).await
    }

    /// Starts a server on a fresh seeded database, its store configured by `store` first
    /// (webhook address rules, …) and the service adjusted by `configure`.
    pub async fn start_configured(
        store: impl FnOnce(&mut crm_store_pg::StoreConfig),
        configure: impl FnOnce(App) -> App,
    ) -> TestServer {
        // reqwest is built with rustls and no provider of its own (the webhook sender's): the
        // clients of the tests need the process's.
        crm_http::ops::webhook::install_crypto_provider();
        let db = TestDb::new().await.expect("test database");
        let mut config = db.config().clone();
        store(&mut config);
        let store = Store::new(&config).expect("store");
        let ids = store.seed().await.expect("seed");
        let key = create_key(&store, 1).await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let app = Arc::new(configure(App::new(store.clone()).expect("app")));
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(serve(
            listener,
            Arc::clone(&app),
            ServeOptions::default(),
            async move {
                let _ = stopped.await;
            },
        ));
        TestServer {
            base,
            key,
            http: reqwest::Client::new(),
            ids,
            store,
            db,
            app,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// A new key acting as `user` (an administrator).
    pub async fn key_for(&self, user: i64) -> String {
        create_key(&self.store, user).await
    }

    /// A new key for user 1 with `scopes` (texts such as `read`, `notes:write`) and
    /// `expires`.
    pub async fn key_with(&self, scopes: &[&str], expires: Option<DateTime<Utc>>) -> String {
        let grant = Grant {
            scopes: Scopes::parse(scopes.iter().copied()).expect("scopes"),
            expires,
        };
        let secret = auth::new_secret().expect("randomness");
        let id = self
            .store
            .create_api_key_with(
                "scoped",
                UserId::new(1).expect("user id"),
                &auth::digest(&secret),
                &grant,
            )
            .await
            .expect("key")
            .expect("an administrator");
        auth::key_text(id, &secret)
    }

    /// Sends a request with user 1's key.
    pub async fn call(&self, method: Method, path: &str, body: Body) -> Answer {
        self.call_as(&self.key, method, path, body).await
    }

    /// Sends a request with the given key.
    pub async fn call_as(&self, key: &str, method: Method, path: &str, body: Body) -> Answer {
        self.call_with(key, method, path, body, &[]).await
    }

    /// Sends a request with the given key and extra headers (`Idempotency-Key`,
    /// `If-Match`, …).
    pub async fn call_with(
        &self,
        key: &str,
        method: Method,
        path: &str,
        body: Body,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut request = self
            .http
            .request(method.clone(), format!("{}{path}", self.base))
            .bearer_auth(key);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = match body {
            Body::None => request,
            Body::Form(pairs) => request.form(&pairs),
            Body::Json(value) => request.json(&value),
            Body::Multipart(pairs) => {
                let mut f = reqwest::multipart::Form::new();
                for (k, v) in pairs {
                    f = f.text(k, v);
                }
                request.multipart(f)
            }
            Body::Raw(content_type, bytes) => {
                request.header("content-type", content_type).body(bytes)
            }
        };
        answer(&method, request.send().await.expect("request sent")).await
    }

    /// The `number` (API.md §18) of the record at `path` (`/api/invoices/4`): what its
    /// documents are titled by once issued.
    pub async fn number(&self, path: &str) -> String {
        let a = self.get(path).await;
        a.data()["number"]
            .as_str()
            .unwrap_or_else(|| panic!("{path} has no number: {:?}", a.json))
            .to_owned()
    }

    /// What the documents of estimate or invoice `id` are titled (`kind`: `Estimate` or
    /// `Invoice`): "Estimate EST-2026-00001" once numbered, "Estimate #1" before.
    pub async fn title(&self, kind: &str, id: i64) -> String {
        let a = self
            .get(&format!("/api/{}s/{id}", kind.to_lowercase()))
            .await;
        match a.data()["number"].as_str() {
            Some(number) => format!("{kind} {number}"),
            None => format!("{kind} #{id}"),
        }
    }

    /// GET with user 1's key.
    pub async fn get(&self, path: &str) -> Answer {
        self.call(Method::GET, path, Body::None).await
    }

    /// POST with user 1's key.
    pub async fn post(&self, path: &str, body: Body) -> Answer {
        self.call(Method::POST, path, body).await
    }

    /// PUT with user 1's key.
    pub async fn put(&self, path: &str, body: Body) -> Answer {
        self.call(Method::PUT, path, body).await
    }

    /// PATCH with user 1's key.
    pub async fn patch(&self, path: &str, body: Body) -> Answer {
        self.call(Method::PATCH, path, body).await
    }

    /// POSTs `body` as JSON to `path` (setting up a record), asserts a 201 and returns the
    /// new record's id.
    pub async fn created(&self, path: &str, body: Value) -> i64 {
        let a = self.post(path, Body::Json(body)).await;
        assert_eq!(
            a.status,
            StatusCode::CREATED,
            "setup POST {path}: {}",
            a.json
        );
        a.data()["id"].as_i64().expect("the created id")
    }

    /// DELETE with user 1's key.
    pub async fn delete(&self, path: &str) -> Answer {
        self.call(Method::DELETE, path, Body::None).await
    }

    /// A plain database connection for preparing and checking rows.
    pub async fn sql(&self) -> tokio_postgres::Client {
        self.db.client().await.expect("database connection")
    }

    /// The single integer a query with one `$1` (an id) returns.
    pub async fn scalar(&self, sql: &str, id: i64) -> i64 {
        self.sql()
            .await
            .query_one(sql, &[&id])
            .await
            .expect("one row")
            .get(0)
    }

    /// The system-default category of `kind` (`"estimate"`, `"project"`, …).
    pub async fn default_category(&self, kind: &str) -> i64 {
        let sql = "SELECT id FROM categories WHERE type = $1 AND system_default";
        self.sql()
            .await
            .query_one(sql, &[&kind])
            .await
            .expect("one system-default category of the type")
            .get(0)
    }

    /// Stops the server and waits for it to drain.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await
                .expect("server task")
                .expect("server ended cleanly");
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Reads a response into an [`Answer`], after holding it to the OpenAPI document
/// ([`crate::conformance`]).
pub async fn answer(method: &Method, response: reqwest::Response) -> Answer {
    let status = response.status();
    let headers = response.headers().clone();
    let path = response.url().path().to_owned();
    let bytes = response.bytes().await.expect("response body");
    crate::conformance::check(method, &path, status, &bytes);
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answer {
        status,
        headers,
        json,
    }
}

async fn create_key(store: &Store, user: i64) -> String {
    let secret = auth::new_secret().expect("randomness");
    let id = store
        .create_api_key(
            "test",
            UserId::new(user).expect("user id"),
            &auth::digest(&secret),
        )
        .await
        .expect("key")
        .expect("an administrator");
    auth::key_text(id, &secret)
}

/// A url-encoded body sent byte for byte (raw or lower-case percent-encoded brackets,
/// sparse indices: spellings reqwest does not produce).
pub fn raw_form(text: &str) -> Body {
    Body::Raw(
        "application/x-www-form-urlencoded",
        text.as_bytes().to_vec(),
    )
}

/// The tag request `[" b ", "a", "", "b", "c"]` in every encoding the API accepts (bracket
/// spellings, sparse indices, JSON, multipart); each must give `["b", "a", "c"]`.
pub fn tag_bodies() -> Vec<(&'static str, Body)> {
    let values = [" b ", "a", "", "b", "c"];
    let bracket_pairs: Vec<(&str, &str)> = values.iter().map(|v| ("tags[]", *v)).collect();
    vec![
        (
            "raw brackets",
            raw_form("tags[]=%20b%20&tags[]=a&tags[]=&tags[]=b&tags[]=c"),
        ),
        (
            "percent-encoded brackets",
            raw_form("tags%5B%5D=%20b%20&tags%5B%5D=a&tags%5B%5D=&tags%5B%5D=b&tags%5B%5D=c"),
        ),
        (
            "lower-case percent-encoded brackets",
            raw_form("tags%5b%5d=+b+&tags%5b%5d=a&tags%5b%5d=&tags%5b%5d=b&tags%5b%5d=c"),
        ),
        (
            "sparse unordered indices",
            raw_form("tags[7]=c&tags[0]=%20b%20&tags[3]=b&tags[2]=&tags[1]=a"),
        ),
        (
            "sparse indices, the duplicate later",
            raw_form("tags[9]=c&tags[4]=b&tags[0]=%20b%20&tags[2]=&tags[1]=a"),
        ),
        ("reqwest form", form(&bracket_pairs)),
        ("JSON array", json(serde_json::json!({"tags": values}))),
        ("multipart", multipart(&bracket_pairs)),
    ]
}

/// The `id` of a record in an answer.
pub fn id_of(v: &Value) -> i64 {
    v["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("no integer id in {v}"))
}

/// The sorted member names of a JSON object.
pub fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .cloned()
        .collect();
    k.sort();
    k
}

/// Asserts `v` is a UTC timestamp with microseconds: `2026-06-15T09:30:00.000000Z`.
#[track_caller]
pub fn assert_timestamp(v: &Value) {
    assert!(is_timestamp(v), "not a timestamp: {v}");
}

/// True for a UTC timestamp with microseconds: `2026-06-15T09:30:00.000000Z`.
pub fn is_timestamp(v: &Value) -> bool {
    v.as_str().is_some_and(|t| {
        t.len() == 27 && chrono::NaiveDateTime::parse_from_str(t, "%Y-%m-%dT%H:%M:%S%.6fZ").is_ok()
    })
}

/// Asserts a 422 with the standard message and exactly `expected` as one field's errors
/// (other fields may fail too).
#[track_caller]
pub fn assert_invalid(a: &Answer, field: &str, expected: &[&str]) {
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", a.json);
    assert_eq!(a.message(), "The given data was invalid.");
    assert_eq!(
        a.errors(field),
        expected,
        "errors of {field} in {:?}",
        a.json
    );
}

/// Asserts a 422 whose whole body is the standard message and exactly `errors`.
#[track_caller]
pub fn assert_errors(a: &Answer, errors: Value) {
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.json);
    assert_eq!(
        a.json,
        serde_json::json!({"message": "The given data was invalid.", "errors": errors})
    );
}

/// Asserts a list answer: 200, `message`, and the `meta` envelope with integer members and
/// `last_page` computed from `total` and `per_page`.
#[track_caller]
pub fn assert_page(a: &Answer, message: &str, current_page: i64, per_page: i64, total: i64) {
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(keys(&a.json), ["data", "message", "meta"]);
    assert_eq!(a.message(), message);
    let last_page = ((total + per_page - 1) / per_page).max(1);
    assert_eq!(
        page_meta(a),
        serde_json::json!({"current_page": current_page, "per_page": per_page, "total": total, "last_page": last_page})
    );
    for member in ["current_page", "per_page", "total", "last_page"] {
        assert!(
            a.json["meta"][member].is_i64(),
            "{member} is not an integer"
        );
    }
}

/// A list answer's `meta` without its cursors, after checking that both are there (each a
/// string or null).
pub fn page_meta(a: &Answer) -> serde_json::Value {
    let mut meta = a.json["meta"].clone();
    for cursor in ["next_cursor", "prev_cursor"] {
        let value = meta
            .as_object_mut()
            .and_then(|m| m.remove(cursor))
            .unwrap_or_else(|| panic!("meta has no {cursor}: {}", a.json));
        assert!(value.is_null() || value.is_string(), "{cursor}: {value}");
    }
    meta
}

/// The ids of a list answer's `data`, in order.
pub fn ids(a: &Answer) -> Vec<i64> {
    a.data()
        .as_array()
        .expect("a data array")
        .iter()
        .map(id_of)
        .collect()
}
