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
//!    messages per second;
//! 3. webhooks: `OUTBOX_BENCH_HOOKS` (default 5,000) deliveries to four local receivers
//!    (hyper servers in this process answering 204): a quarter as many events written at
//!    once (one per record), each for all four endpoints, fanned out and drained by one
//!    worker's webhook channel with the default settings; deliveries per second;
//! 4. the event write's cost: notes created per second by 32 concurrent clients for
//!    `OUTBOX_BENCH_SECONDS` (default 5) with no endpoint and with one subscribed to
//!    `note.created` (its events queue up, no worker fans them out), alternated
//!    `OUTBOX_BENCH_ROUNDS` times (default 2), each round's first phase the other round's
//!    second; the ratio of the two means. With `OUTBOX_BENCH_ONLY=notes` only this part
//!    runs (two builds compared: an activity entry's cost, issue 52).

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
        "INSERT INTO email_queue (recipient, subject, template, resource_type, resource_id, body_text, body_html, body_id) \
         SELECT recipient, 'Bulk ' || g, template, resource_type, resource_id, body_text, body_html, body_id \
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

    // Only the note creates' cost (OUTBOX_BENCH_ONLY=notes): what an A/B of two builds
    // compares (an activity entry's cost, issue 52).
    if std::env::var("OUTBOX_BENCH_ONLY").as_deref() == Ok("notes") {
        let _ = stop_worker.send(true);
        worker.await.unwrap();
        let _ = stop_server.send(());
        server_task.await.unwrap().unwrap();
        crm_http::ops::webhook::install_crypto_provider();
        let seconds = env_number("OUTBOX_BENCH_SECONDS", 5);
        event_cost(&db, &key, seconds).await;
        return;
    }

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

    // 3. Webhook deliveries to local receivers.
    let hooks = env_number("OUTBOX_BENCH_HOOKS", 5_000);
    hooks_drain(&db, hooks).await;

    // 4. The event write's cost on note creates.
    let seconds = env_number("OUTBOX_BENCH_SECONDS", 5);
    event_cost(&db, &key, seconds).await;
}

/// A receiver on 127.0.0.1 answering 204 to everything; counts what it got.
async fn receiver(count: Arc<std::sync::atomic::AtomicU64>) -> String {
    use http_body_util::{BodyExt, Full};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let count = Arc::clone(&count);
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    move |request: hyper::Request<hyper::body::Incoming>| {
                        let count = Arc::clone(&count);
                        async move {
                            let _ = request.into_body().collect().await;
                            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            Ok::<_, std::convert::Infallible>(
                                hyper::Response::builder()
                                    .status(204)
                                    .body(Full::new(bytes::Bytes::new()))
                                    .unwrap(),
                            )
                        }
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    url
}

async fn hooks_drain(db: &TestDb, hooks: usize) {
    use crm_http::ops::delivery::webhooks::{self, WebhookWorker};
    use crm_http::ops::webhook::{Sender, SenderOptions};
    let sql = db.client().await.unwrap();
    let received = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut endpoints = Vec::new();
    for _ in 0..4 {
        let url = receiver(Arc::clone(&received)).await;
        let id: i64 = sql
            .query_one(
                "INSERT INTO webhook_endpoints (url, events, secret, key_id) \
                 VALUES ($1, '{*}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', \
                   (SELECT min(id) FROM api_keys WHERE revoked_at IS NULL)) RETURNING id",
                &[&url],
            )
            .await
            .unwrap()
            .get(0);
        endpoints.push(id);
    }
    let per_endpoint = i32::try_from(hooks / endpoints.len()).unwrap();
    sql.execute(
        "INSERT INTO webhook_events (type, record_key, body) \
         SELECT 'note.created', 'note:' || g, \
           '{\"type\":\"note.created\",\"timestamp\":\"2026-11-27T00:00:00.000000Z\",\"data\":{\"id\":' || g || '}}' \
         FROM generate_series(1, $1::int) g",
        &[&per_endpoint],
    )
    .await
    .unwrap();
    let total = u64::try_from(per_endpoint).unwrap() * endpoints.len() as u64;
    let sender = Sender::new(SenderOptions {
        allow_http: true,
        allow_private: true,
        ..SenderOptions::default()
    })
    .unwrap();
    let worker = WebhookWorker {
        sender,
        per_endpoint: webhooks::DEFAULT_PER_ENDPOINT,
    };
    let options = WorkerOptions {
        once: true,
        concurrency: webhooks::DEFAULT_CONCURRENCY,
        send_timeout: Duration::from_secs(15),
        ..WorkerOptions::default()
    };
    let started = Instant::now();
    let (_stop, stopped) = delivery::stop_channel();
    let done = webhooks::run_webhooks(
        db.config(),
        worker,
        options,
        stopped,
        &crm_http::metrics::Deliveries::none(),
    )
    .await;
    let elapsed = started.elapsed();
    assert_eq!(done.sent, total, "every delivery delivered");
    assert_eq!(
        received.load(std::sync::atomic::Ordering::Relaxed),
        total,
        "every delivery received once"
    );
    #[allow(clippy::cast_precision_loss)]
    let rate = total as f64 / elapsed.as_secs_f64();
    println!(
        "webhooks: drain {total} deliveries to 4 receivers, 1 worker (defaults): {:.2} s, {rate:.0} deliveries/s",
        elapsed.as_secs_f64()
    );
    sql.execute("DELETE FROM webhook_endpoints", &[])
        .await
        .unwrap();
}

/// CPU time used so far, in clock ticks, by this process (the service, the worker and the
/// benchmark's clients) and every PostgreSQL process (its backends and helpers): the CPU a
/// note create costs the machine, the figure that holds when other work shares it.
fn cpu_ticks() -> u64 {
    let ticks = |stat: &str| -> u64 {
        // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let fields: Vec<&str> = rest.split_whitespace().collect();
        fields
            .get(11)
            .and_then(|u| u.parse::<u64>().ok())
            .unwrap_or(0)
            + fields
                .get(12)
                .and_then(|s| s.parse::<u64>().ok())
                .unwrap_or(0)
    };
    let mut total = std::fs::read_to_string("/proc/self/stat").map_or(0, |s| ticks(&s));
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let path = entry.path();
        let is_postgres =
            std::fs::read_to_string(path.join("comm")).is_ok_and(|comm| comm.trim() == "postgres");
        if is_postgres {
            total += std::fs::read_to_string(path.join("stat")).map_or(0, |s| ticks(&s));
        }
    }
    total
}

/// Notes created per second by 32 concurrent clients for `seconds`, and the machine's CPU
/// per create in µs ([`cpu_ticks`], at 100 ticks a second).
async fn creates_per_second(base: &str, key: &str, seconds: usize) -> (f64, f64) {
    let cpu_before = cpu_ticks();
    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(seconds as u64);
    let mut tasks = Vec::new();
    for _ in 0..32 {
        let (http, base, key) = (http.clone(), base.to_owned(), key.to_owned());
        tasks.push(tokio::spawn(async move {
            let mut n = 0_u64;
            while Instant::now() < deadline {
                let status = http
                    .post(format!("{base}/api/notes"))
                    .bearer_auth(&key)
                    .form(&[
                        ("note_title", "Bench note"),
                        ("note_description", "A note of the benchmark."),
                    ])
                    .send()
                    .await
                    .unwrap()
                    .status();
                assert_eq!(status, 201);
                n += 1;
            }
            n
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += t.await.unwrap();
    }
    let cpu = cpu_ticks() - cpu_before;
    #[allow(clippy::cast_precision_loss)]
    let rate = total as f64 / seconds as f64;
    #[allow(clippy::cast_precision_loss)]
    let cpu_per_create = cpu as f64 * 10_000.0 / total.max(1) as f64;
    (rate, cpu_per_create)
}

async fn event_cost(db: &TestDb, key: &str, seconds: usize) {
    let store = db.store().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = Arc::new(App::new(store).unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(serve(listener, app, ServeOptions::default(), async move {
        let _ = stopped.await;
    }));
    let sql = db.client().await.unwrap();
    let mut without = Vec::new();
    let mut with = Vec::new();
    let mut cpu_without = Vec::new();
    let mut cpu_with = Vec::new();
    // Each phase starts from the same state: no endpoint, no queued delivery, the dead rows
    // of the previous phase vacuumed and a checkpoint behind it (so that neither phase pays
    // for the other's clean-up or full-page writes).
    let settle = async |sql: &tokio_postgres::Client| {
        sql.batch_execute("DELETE FROM webhook_endpoints; DELETE FROM webhook_events")
            .await
            .unwrap();
        sql.batch_execute("VACUUM (ANALYZE) notes, webhook_events, webhook_deliveries")
            .await
            .unwrap();
        // A checkpoint needs a superuser; without one the phases simply share its timing.
        let _ = sql.batch_execute("CHECKPOINT").await;
    };
    // The phases alternate which goes first (ABBA), so that neither always runs on the
    // table the other has just grown.
    for round in 0..env_number("OUTBOX_BENCH_ROUNDS", 2) {
        for subscribed in [round % 2 == 1, round % 2 == 0] {
            settle(&sql).await;
            if subscribed {
                sql.execute(
                    "INSERT INTO webhook_endpoints (url, events, secret, key_id) \
                     VALUES ('https://hooks.example.com/in', '{note.created}', \
                       'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', \
                       (SELECT min(id) FROM api_keys WHERE revoked_at IS NULL))",
                    &[],
                )
                .await
                .unwrap();
                let (rate, cpu) = creates_per_second(&base, key, seconds).await;
                with.push(rate);
                cpu_with.push(cpu);
            } else {
                let (rate, cpu) = creates_per_second(&base, key, seconds).await;
                without.push(rate);
                cpu_without.push(cpu);
            }
        }
    }
    #[allow(clippy::cast_precision_loss)]
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "note creates/s, 32 clients: no endpoint {:?} (mean {:.0}), one subscribed {:?} (mean {:.0}): ratio {:.3}",
        without.iter().map(|r| r.round()).collect::<Vec<_>>(),
        mean(&without),
        with.iter().map(|r| r.round()).collect::<Vec<_>>(),
        mean(&with),
        mean(&with) / mean(&without)
    );
    println!(
        "CPU per note create (this process + PostgreSQL), µs: no endpoint {:?} (mean {:.0}), one subscribed {:?} (mean {:.0})",
        cpu_without.iter().map(|r| r.round()).collect::<Vec<_>>(),
        mean(&cpu_without),
        cpu_with.iter().map(|r| r.round()).collect::<Vec<_>>(),
        mean(&cpu_with),
    );
    let _ = stop.send(());
    task.await.unwrap().unwrap();
}
