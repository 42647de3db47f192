//! Outbox benchmark (not a test): `cargo bench -p crm-http --bench outbox` or
//! `benches/outbox.sh` at the workspace root.
//!
//! On a fresh seeded database (created on `CRM_TEST_DATABASE_URL`'s server, dropped after),
//! with the service and an SMTP sink (mailin-embedded on 127.0.0.1) in this process:
//!
//! 1. latency: `PUT /api/estimates/{id}/publish` sent → the sink answers `250` to that
//!    message, for `OUTBOX_BENCH_SINGLES` (default 200) estimates published one at a time,
//!    with one worker running inside the "service" as `crm serve` runs it; p50 and p99;
//! 2. throughput: `OUTBOX_BENCH_ROWS` (default 10,000) rows queued at once, drained by one
//!    worker, then (queued again) by two workers (`OUTBOX_BENCH_WORKERS`, default `1,2`);
//!    messages per second.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    missing_docs,
    unreachable_pub
)]

use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crm_core::ids::UserId;
use crm_http::ops::delivery::{self, WorkerOptions};
use crm_http::ops::mail::Mailer;
use crm_http::{App, ServeOptions, auth, serve};
use crm_store_pg::testing::TestDb;
use mailin_embedded::{Handler, Response, Server, response};

/// When the sink accepted each subject.
#[derive(Clone)]
struct Sink {
    accepted: Arc<Mutex<HashMap<String, Instant>>>,
    count: Arc<Mutex<u64>>,
    subject: Option<String>,
}

impl Handler for Sink {
    fn data_start(&mut self, _: &str, _: &str, _: bool, _: &[String]) -> Response {
        self.subject = None;
        response::START_DATA
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        if self.subject.is_none()
            && let Some(rest) = buf.strip_prefix(b"Subject: ")
        {
            self.subject = Some(String::from_utf8_lossy(rest).trim().to_owned());
        }
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let now = Instant::now();
        *self.count.lock().unwrap() += 1;
        if let Some(subject) = self.subject.take() {
            self.accepted.lock().unwrap().insert(subject, now);
        }
        response::OK
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

async fn drain(db: &TestDb, url: &str, workers: usize, rows: usize, count: &Arc<Mutex<u64>>) {
    let sql = db.client().await.unwrap();
    sql.execute(
        "INSERT INTO email_queue (recipient, subject, template, resource_type, resource_id, body_text, body_html) \
         SELECT recipient, 'Bulk ' || g, template, resource_type, resource_id, body_text, body_html \
         FROM (SELECT * FROM email_queue ORDER BY id LIMIT 1) e, generate_series(1, $1::int) g",
        &[&i32::try_from(rows).unwrap()],
    )
    .await
    .unwrap();
    let before = *count.lock().unwrap();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..workers {
        let config = db.config().clone();
        let url = url.to_owned();
        tasks.push(tokio::spawn(async move {
            let mailer = Mailer::new(Some(&url), "CRM <crm@localhost>").unwrap();
            let (_stop, stopped) = delivery::stop_channel();
            let options = WorkerOptions {
                once: true,
                ..WorkerOptions::default()
            };
            delivery::run(&config, &mailer, options, stopped).await
        }));
    }
    let mut sent = 0;
    for t in tasks {
        sent += t.await.unwrap().sent;
    }
    let elapsed = started.elapsed();
    let received = *count.lock().unwrap() - before;
    assert_eq!(sent, rows as u64, "every row sent");
    assert_eq!(received, rows as u64, "every row received once");
    #[allow(clippy::cast_precision_loss)]
    let rate = rows as f64 / elapsed.as_secs_f64();
    println!(
        "drain {rows} rows, {workers} worker(s): {:.2} s, {rate:.0} messages/s",
        elapsed.as_secs_f64()
    );
}

#[tokio::main]
async fn main() {
    let singles = env_number("OUTBOX_BENCH_SINGLES", 200);
    let rows = env_number("OUTBOX_BENCH_ROWS", 10_000);

    // The SMTP sink.
    let accepted = Arc::new(Mutex::new(HashMap::new()));
    let count = Arc::new(Mutex::new(0_u64));
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let smtp_url = format!(
        "smtp://127.0.0.1:{}?tls=none",
        listener.local_addr().unwrap().port()
    );
    let mut server = Server::new(Sink {
        accepted: accepted.clone(),
        count: count.clone(),
        subject: None,
    });
    server.with_num_threads(48).with_tcp_listener(listener);
    std::thread::spawn(move || {
        let _ = server.serve();
    });

    // The service with its worker, as `crm serve` runs them.
    let db = TestDb::new().await.expect("a test database");
    let store = db.store().unwrap();
    let ids = store.seed().await.unwrap();
    let secret = auth::new_secret().unwrap();
    let key_id = store
        .create_api_key("bench", UserId::new(1).unwrap(), &auth::digest(&secret))
        .await
        .unwrap()
        .unwrap();
    let key = auth::key_text(key_id, &secret);
    let http_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", http_listener.local_addr().unwrap());
    let app = Arc::new(App::new(store.clone()).unwrap());
    let (stop_server, server_stopped) = tokio::sync::oneshot::channel::<()>();
    let server_task = tokio::spawn(serve(
        http_listener,
        app,
        ServeOptions::default(),
        async move {
            let _ = server_stopped.await;
        },
    ));
    let mailer = Mailer::new(Some(&smtp_url), "CRM <crm@localhost>").unwrap();
    let (stop_worker, worker_stopped) = delivery::stop_channel();
    let config = db.config().clone();
    let worker = tokio::spawn(async move {
        delivery::run(&config, &mailer, WorkerOptions::default(), worker_stopped).await
    });

    // 1. Publish → 250, one estimate at a time.
    crm_http::ops::webhook::install_crypto_provider();
    let http = reqwest::Client::new();
    let category: i64 = db
        .client()
        .await
        .unwrap()
        .query_one(
            "SELECT id FROM categories WHERE type = 'estimate' AND system_default LIMIT 1",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let client = ids.clients[0].id;
    let mut latencies = Vec::with_capacity(singles);
    for _ in 0..singles {
        let created: serde_json::Value = http
            .post(format!("{base}/api/estimates"))
            .bearer_auth(&key)
            .form(&[
                ("bill_clientid", client.to_string()),
                ("bill_categoryid", category.to_string()),
                ("bill_date", "2026-06-15".to_owned()),
            ])
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = created["data"]["id"].as_i64().unwrap();
        let subject = format!("Estimate #{id}");
        let started = Instant::now();
        let status = http
            .put(format!("{base}/api/estimates/{id}/publish"))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap()
            .status();
        assert!(status.is_success());
        let deadline = started + Duration::from_secs(60);
        let at = loop {
            if let Some(at) = accepted.lock().unwrap().get(&subject) {
                break *at;
            }
            assert!(Instant::now() < deadline, "{subject} never arrived");
            tokio::time::sleep(Duration::from_micros(200)).await;
        };
        latencies.push(at - started);
    }
    latencies.sort();
    println!(
        "publish -> 250, {singles} single messages: p50 {:.1} ms, p99 {:.1} ms",
        percentile(&latencies, 0.50).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0
    );
    let _ = stop_worker.send(true);
    worker.await.unwrap();
    let _ = stop_server.send(());
    server_task.await.unwrap().unwrap();

    // 2. Draining a backlog with one and two workers.
    let workers = std::env::var("OUTBOX_BENCH_WORKERS").unwrap_or_else(|_| "1,2".to_owned());
    for n in workers.split(',').filter_map(|n| n.trim().parse().ok()) {
        drain(&db, &smtp_url, n, rows, &count).await;
    }
}
