//! Webhooks through the real service (API.md §13): endpoints over the API, events written
//! by the changes they report, and their delivery by the worker's webhook channel to a real
//! HTTP receiver (a hyper server started by each test), with signatures checked by the
//! official Standard Webhooks library (`scripts/webhook-verify`).
//!
//! Waits are polls with a generous deadline (a test that never sees what it waits for
//! fails); nothing asserts how long anything took.

use std::time::Duration;

use crm_http::metrics::Deliveries;
use crm_http::ops::delivery::webhooks::{WebhookWorker, run_webhooks};
use crm_http::ops::delivery::{self, Delivered, WorkerOptions};
use crm_http::ops::webhook::{Sender, SenderOptions};
use serde_json::{Value, json};

use crate::common::*;
use crate::receiver::{Got, Receiver, Reply, eventually};

mod fairness;

// ---------------------------------------------------------------------------------------
// The service, endpoints and the worker.

/// A server whose endpoints may be on 127.0.0.1 over http.
async fn server() -> TestServer {
    TestServer::start_configured(
        |config| {
            config.webhooks.allow_http = true;
            config.webhooks.allow_private = true;
        },
        |app| app,
    )
    .await
}

/// Registers `url` for `events`; gives its id and secret.
async fn subscribe(s: &TestServer, url: &str, events: &[&str]) -> (i64, String) {
    let a = s
        .post(
            "/api/webhooks",
            json(json!({"url": url, "events": events, "description": "test"})),
        )
        .await;
    assert_eq!(a.status, 201, "{:?}", a.json);
    (
        id_of(a.data()),
        a.data()["secret"].as_str().unwrap().to_owned(),
    )
}

/// A webhook worker on the test's database, until stopped.
struct Worker {
    stop: tokio::sync::watch::Sender<bool>,
    task: tokio::task::JoinHandle<Delivered>,
}

impl Worker {
    fn start(s: &TestServer) -> Worker {
        Worker::start_with(s, true, 8, Duration::from_secs(15))
    }

    fn start_with(
        s: &TestServer,
        allow_private: bool,
        per_endpoint: usize,
        timeout: Duration,
    ) -> Worker {
        Worker::start_polling(
            s,
            allow_private,
            per_endpoint,
            timeout,
            Duration::from_millis(200),
        )
    }

    fn start_polling(
        s: &TestServer,
        allow_private: bool,
        per_endpoint: usize,
        timeout: Duration,
        poll: Duration,
    ) -> Worker {
        let sender = Sender::new(SenderOptions {
            allow_http: true,
            allow_private,
            timeout,
            ..SenderOptions::default()
        })
        .unwrap();
        let worker = WebhookWorker {
            sender,
            per_endpoint,
        };
        let options = WorkerOptions {
            poll,
            send_timeout: timeout,
            concurrency: 16,
            once: false,
        };
        let config = s.db.config().clone();
        let (stop, stopped) = delivery::stop_channel();
        let task = tokio::spawn(async move {
            run_webhooks(&config, worker, options, stopped, &Deliveries::none()).await
        });
        Worker { stop, task }
    }

    async fn stop(self) -> Delivered {
        let _ = self.stop.send(true);
        self.task.await.unwrap()
    }
}

/// The deliveries of endpoint `id`, oldest first.
async fn deliveries(s: &TestServer, id: i64) -> Vec<Value> {
    let a = s
        .get(&format!(
            "/api/webhooks/{id}/deliveries?order=asc&limit=100"
        ))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.json);
    a.data().as_array().unwrap().clone()
}

/// Checks a received message with the official Standard Webhooks library.
fn verified(got: &Got, secret: &str) -> bool {
    let dir = tempfile_dir();
    let body = dir.join(format!("body-{}", got.header("webhook-id")));
    std::fs::write(&body, &got.body).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let status = std::process::Command::new(root.join("scripts/webhook-verify"))
        .env("WEBHOOK_SECRET", secret)
        .args(["--id", &got.header("webhook-id")])
        .args(["--timestamp", &got.header("webhook-timestamp")])
        .args(["--signature", &got.header("webhook-signature")])
        .arg("--body")
        .arg(&body)
        .status()
        .expect("scripts/webhook-verify runs");
    let _ = std::fs::remove_file(&body);
    match status.code() {
        Some(0) => true,
        Some(1) => false,
        other => panic!("scripts/webhook-verify failed to run: {other:?}"),
    }
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("webhooks");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn count(s: &TestServer, sql: &str) -> i64 {
    s.sql().await.query_one(sql, &[]).await.unwrap().get(0)
}

// ---------------------------------------------------------------------------------------
// The endpoints API.

#[tokio::test]
async fn endpoints_are_registered_read_changed_and_deleted_and_the_secret_is_shown_once() {
    let s = server().await;
    let (id, secret) = subscribe(&s, "https://hooks.example.com/in", &["note.created"]).await;
    assert!(
        secret.starts_with("whsec_") && secret.len() == 6 + 44,
        "{secret}"
    );
    let a = s.get(&format!("/api/webhooks/{id}")).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.message(), "Webhook retrieved successfully.");
    assert!(
        a.data().get("secret").is_none(),
        "the secret is never shown again"
    );
    assert_eq!(a.data()["events"], json!(["note.created"]));
    assert_eq!(a.data()["enabled"], json!(true));
    let a = s
        .patch(
            &format!("/api/webhooks/{id}"),
            json(json!({"events": ["*"], "enabled": false})),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.json);
    assert_eq!(a.data()["events"], json!(["*"]));
    assert_eq!(a.data()["enabled"], json!(false));
    assert_eq!(a.data()["disabled_reason"], json!("Disabled by request."));
    assert_timestamp(&a.data()["dates"]["disabled"]);
    let a = s
        .patch(&format!("/api/webhooks/{id}"), form(&[("enabled", "1")]))
        .await;
    assert_eq!(a.data()["enabled"], json!(true));
    assert_eq!(a.data()["disabled_reason"], Value::Null);
    let a = s.get("/api/webhooks").await;
    assert_eq!(ids(&a), vec![id]);
    let rotated = s
        .post(
            &format!("/api/webhooks/{id}/rotate-secret"),
            json(json!({})),
        )
        .await;
    assert_eq!(rotated.status, 200, "{:?}", rotated.json);
    let new_secret = rotated.data()["secret"].as_str().unwrap();
    assert_ne!(new_secret, secret);
    let a = s.delete(&format!("/api/webhooks/{id}")).await;
    assert_eq!(a.status, 200);
    let a = s.get(&format!("/api/webhooks/{id}")).await;
    assert_eq!(a.status, 404);
    assert_eq!(a.message(), "Webhook not found.");
}

#[tokio::test]
async fn urls_on_private_addresses_or_plain_http_are_refused_by_default() {
    let s = TestServer::start().await;
    for (url, message) in [
        (
            "http://hooks.example.com/",
            "The url must start with https://; http:// is accepted when the service runs with --webhook-allow-http.",
        ),
        (
            "https://127.0.0.1:9/",
            "The url may not point to a private, loopback or link-local address; such addresses are accepted when the service runs with --webhook-allow-private.",
        ),
        (
            "https://[::1]/",
            "The url may not point to a private, loopback or link-local address; such addresses are accepted when the service runs with --webhook-allow-private.",
        ),
        (
            "https://169.254.169.254/latest",
            "The url may not point to a private, loopback or link-local address; such addresses are accepted when the service runs with --webhook-allow-private.",
        ),
        (
            "https://10.0.0.8/",
            "The url may not point to a private, loopback or link-local address; such addresses are accepted when the service runs with --webhook-allow-private.",
        ),
        ("not a url", "The url must be a valid URL."),
    ] {
        let a = s
            .post("/api/webhooks", json(json!({"url": url, "events": ["*"]})))
            .await;
        assert_invalid(&a, "url", &[message]);
    }
    let a = s
        .post(
            "/api/webhooks",
            json(json!({"url": "https://h.example/", "events": ["note.archived"]})),
        )
        .await;
    assert_invalid(&a, "events.0", &["The selected events.0 is invalid."]);
    assert_eq!(count(&s, "SELECT count(*) FROM webhook_endpoints").await, 0);
}

// ---------------------------------------------------------------------------------------
// Events and their delivery.

#[tokio::test]
async fn every_change_is_delivered_signed_with_the_record_as_the_api_answered_it() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    let (_, secret) = subscribe(&s, &receiver.url(), &["*"]).await;
    let worker = Worker::start(&s);
    let created = s
        .post(
            "/api/notes",
            json(json!({"note_title": "Call Ann", "note_description": "<b>Ελληνικά</b> & Кириллица"})),
        )
        .await;
    assert_eq!(created.status, 201);
    let note = id_of(created.data());
    let updated = s
        .patch(
            &format!("/api/notes/{note}"),
            json(json!({"note_title": "Call Ann again", "note_description": "Later"})),
        )
        .await;
    assert_eq!(updated.status, 200, "{:?}", updated.json);
    assert_eq!(s.delete(&format!("/api/notes/{note}")).await.status, 200);
    let got = receiver.wait_for(3).await;
    let bodies: Vec<Value> = got.iter().map(Got::json).collect();
    assert_eq!(bodies[0]["type"], "note.created");
    assert_eq!(bodies[0]["data"], *created.data());
    assert_eq!(bodies[1]["type"], "note.updated");
    assert_eq!(bodies[1]["data"], *updated.data());
    assert_eq!(bodies[2]["type"], "note.deleted");
    assert_eq!(bodies[2]["data"], json!({"id": note}));
    for (g, body) in got.iter().zip(&bodies) {
        assert!(is_timestamp(&body["timestamp"]), "{body}");
        assert_eq!(g.header("content-type"), "application/json");
        assert!(g.header("webhook-id").starts_with("msg_"));
        assert!(verified(g, &secret), "the official library verifies {body}");
        assert!(
            !verified(g, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
            "a wrong secret fails"
        );
    }
    let mut tampered = got[0].clone();
    tampered.body = br#"{"type":"note.created"}"#.to_vec();
    assert!(!verified(&tampered, &secret), "a changed body fails");
    worker.stop().await;
}

#[tokio::test]
async fn a_write_that_fails_sends_nothing_and_an_event_never_precedes_its_commit() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    subscribe(&s, &receiver.url(), &["*"]).await;
    // A refused write (422) and a conflict (409) leave no event.
    let a = s
        .post(
            "/api/notes",
            json(json!({"note_title": "", "note_description": "d"})),
        )
        .await;
    assert_eq!(a.status, 422);
    let estimate = s
        .created(
            "/api/estimates",
            json!({"bill_clientid": client(&s, 0), "bill_categoryid": s.default_category("estimate").await, "bill_date": today().to_string()}),
        )
        .await;
    assert_eq!(
        s.post(
            &format!("/api/estimates/{estimate}/send-email"),
            json(json!({}))
        )
        .await
        .status,
        409
    );
    assert_eq!(
        count(
            &s,
            "SELECT count(*) FROM webhook_events WHERE type <> 'estimate.created'"
        )
        .await,
        0
    );
    // A write held inside its transaction (its row locked by another) has no event yet.
    let note = s
        .created(
            "/api/notes",
            json!({"note_title": "Held", "note_description": "d"}),
        )
        .await;
    let mut blocker = s.sql().await;
    let lock = blocker.transaction().await.unwrap();
    lock.execute("SELECT 1 FROM notes WHERE id = $1 FOR UPDATE", &[&note])
        .await
        .unwrap();
    let patch = {
        let (http, base, key) = (s.http.clone(), s.base.clone(), s.key.clone());
        tokio::spawn(async move {
            http.patch(format!("{base}/api/notes/{note}"))
                .bearer_auth(key)
                .json(&json!({"note_title": "Released", "note_description": "d"}))
                .send()
                .await
                .unwrap()
                .status()
        })
    };
    eventually("the update waiting on the lock", || async {
        let waiting = count(
            &s,
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'",
        )
        .await;
        (waiting > 0).then_some(())
    })
    .await;
    assert_eq!(
        count(
            &s,
            "SELECT count(*) FROM webhook_events WHERE type = 'note.updated'"
        )
        .await,
        0
    );
    lock.rollback().await.unwrap();
    assert_eq!(patch.await.unwrap(), 200);
    assert_eq!(
        count(
            &s,
            "SELECT count(*) FROM webhook_events WHERE type = 'note.updated'"
        )
        .await,
        1
    );
    drop(blocker);
}

#[tokio::test]
async fn events_about_one_record_arrive_in_order_and_a_later_one_waits_for_a_retry() {
    let s = server().await;
    // The second message is refused once: the ones after it must wait for its retry.
    let receiver = Receiver::start(|n, _| {
        if n == 1 {
            Reply::Status(500, vec![])
        } else {
            Reply::Status(200, vec![])
        }
    })
    .await;
    let (endpoint, _) = subscribe(&s, &receiver.url(), &["note.updated"]).await;
    let note = s
        .created(
            "/api/notes",
            json!({"note_title": "Ordered", "note_description": "d"}),
        )
        .await;
    // Twelve concurrent updates of one note.
    let mut updates = tokio::task::JoinSet::new();
    for i in 0..12 {
        let (http, base, key) = (s.http.clone(), s.base.clone(), s.key.clone());
        updates.spawn(async move {
            http.patch(format!("{base}/api/notes/{note}"))
                .bearer_auth(key)
                .json(&json!({"note_title": format!("Title {i}"), "note_description": "d"}))
                .send()
                .await
                .unwrap()
                .status()
        });
    }
    while let Some(status) = updates.join_next().await {
        assert_eq!(status.unwrap(), 200);
    }
    // The refused message's retry is due 5 s later; bring it forward once it failed.
    let worker = Worker::start(&s);
    eventually("the refused attempt", || async {
        (count(
            &s,
            "SELECT count(*) FROM webhook_deliveries WHERE attempts = 1 AND status = 'pending'",
        )
        .await
            == 1)
            .then_some(())
    })
    .await;
    s.sql()
        .await
        .execute(
            "UPDATE webhook_deliveries SET next_attempt = now() WHERE status = 'pending'",
            &[],
        )
        .await
        .unwrap();
    let got = receiver.wait_for(13).await;
    worker.stop().await;
    // The order of the deliveries' ids is the order the updates committed in.
    let expected: Vec<String> = deliveries(&s, endpoint)
        .await
        .iter()
        .map(|d| d["event"]["id"].as_str().unwrap().to_owned())
        .collect();
    let mut arrived: Vec<String> = got.iter().map(|g| g.header("webhook-id")).collect();
    // The refused one arrived twice, in its place both times: nothing after it came
    // before its retry.
    assert_eq!(arrived[1], arrived[2], "{arrived:?}");
    arrived.remove(1);
    assert_eq!(arrived, expected);
    // And the last one is the note as it is now.
    let last = got.last().unwrap().json();
    let now = s.get(&format!("/api/notes/{note}")).await;
    assert_eq!(last["data"], *now.data());
}

#[tokio::test]
async fn a_failure_is_retried_with_the_same_webhook_id_and_410_disables_at_once() {
    let s = server().await;
    let receiver = Receiver::start(|n, _| match n {
        0 => Reply::Status(503, vec![("retry-after", "120".to_owned())]),
        1 => Reply::Status(500, vec![]),
        2 => Reply::Status(200, vec![]),
        _ => Reply::Status(410, vec![]),
    })
    .await;
    let (endpoint, _) = subscribe(&s, &receiver.url(), &["category.created"]).await;
    let worker = Worker::start(&s);
    let category = s
        .created(
            "/api/categories",
            json!({"category_name": "Hooked", "category_type": "project"}),
        )
        .await;
    receiver.wait_for(1).await;
    // Retry-After: 120 sets the next attempt about two minutes on (not the 5 s step).
    let delay: f64 = eventually("the retry recorded", || async {
        let row = s
            .sql()
            .await
            .query_one(
                "SELECT extract(epoch FROM next_attempt - now())::float8, attempts, last_status_code \
                 FROM webhook_deliveries",
                &[],
            )
            .await
            .unwrap();
        (row.get::<_, i32>(1) == 1).then(|| {
            assert_eq!(row.get::<_, Option<i32>>(2), Some(503));
            row.get(0)
        })
    })
    .await;
    assert!((100.0..=121.0).contains(&delay), "{delay}");
    let retry_now = "UPDATE webhook_deliveries SET next_attempt = now() WHERE status = 'pending'";
    s.sql().await.execute(retry_now, &[]).await.unwrap();
    receiver.wait_for(2).await;
    eventually("the second failure recorded", || async {
        (count(&s, "SELECT attempts::bigint FROM webhook_deliveries").await == 2).then_some(())
    })
    .await;
    s.sql().await.execute(retry_now, &[]).await.unwrap();
    let got = receiver.wait_for(3).await;
    let ids: Vec<String> = got.iter().map(|g| g.header("webhook-id")).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    let timestamps: Vec<String> = got.iter().map(|g| g.header("webhook-timestamp")).collect();
    assert!(timestamps.iter().all(|t| t.parse::<i64>().is_ok()));
    let history = eventually("delivered", || async {
        let d = deliveries(&s, endpoint).await;
        (d[0]["status"] == "delivered").then_some(d)
    })
    .await;
    assert_eq!(history[0]["attempts"], 3);
    assert_eq!(history[0]["last_status_code"], 200);
    assert_timestamp(&history[0]["dates"]["delivered"]);
    // Now a 410: the delivery fails and the endpoint is disabled at once.
    let a = s
        .patch(
            &format!("/api/categories/{category}"),
            json(json!({"category_name": "Hooked again"})),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.json);
    let _ = s
        .post(
            "/api/categories",
            json(json!({"category_name": "Second", "category_type": "project"})),
        )
        .await;
    let endpoint_now = eventually("the endpoint disabled", || async {
        let a = s.get(&format!("/api/webhooks/{endpoint}")).await;
        (a.data()["enabled"] == json!(false)).then(|| a.data().clone())
    })
    .await;
    assert_eq!(
        endpoint_now["disabled_reason"],
        "The endpoint answered 410 Gone."
    );
    worker.stop().await;
    let failed = deliveries(&s, endpoint).await;
    assert_eq!(failed[1]["status"], "failed");
    assert_eq!(failed[1]["last_status_code"], 410);
    assert_eq!(
        receiver.got().len(),
        4,
        "nothing more is sent to a disabled endpoint"
    );
}

#[tokio::test]
async fn an_endpoint_failing_for_five_days_is_disabled_and_enabling_it_resumes_delivery() {
    let s = server().await;
    let receiver = Receiver::start(|n, _| {
        if n == 0 {
            Reply::Status(500, vec![])
        } else {
            Reply::Status(200, vec![])
        }
    })
    .await;
    let (endpoint, _) = subscribe(&s, &receiver.url(), &["note.created"]).await;
    // Its failure clock started five days ago (the clock is a parameter of the rule, set
    // here in the row rather than waited for).
    s.sql()
        .await
        .execute(
            "UPDATE webhook_endpoints SET failing_since = now() - interval '5 days'",
            &[],
        )
        .await
        .unwrap();
    let worker = Worker::start(&s);
    s.created(
        "/api/notes",
        json!({"note_title": "One", "note_description": "d"}),
    )
    .await;
    let disabled = eventually("the endpoint disabled", || async {
        let a = s.get(&format!("/api/webhooks/{endpoint}")).await;
        (a.data()["enabled"] == json!(false)).then(|| a.data().clone())
    })
    .await;
    assert_eq!(
        disabled["disabled_reason"],
        "Every delivery failed for 5 days."
    );
    // Pending deliveries wait while it is disabled, and go once it is enabled again.
    s.sql()
        .await
        .execute("UPDATE webhook_deliveries SET next_attempt = now()", &[])
        .await
        .unwrap();
    s.created(
        "/api/notes",
        json!({"note_title": "Two", "note_description": "d"}),
    )
    .await;
    assert_eq!(
        count(
            &s,
            "SELECT count(*) FROM webhook_events WHERE type = 'note.created'"
        )
        .await,
        1,
        "no event is written for a disabled endpoint"
    );
    let a = s
        .patch(
            &format!("/api/webhooks/{endpoint}"),
            json(json!({"enabled": true})),
        )
        .await;
    assert_eq!(a.data()["enabled"], json!(true));
    let got = receiver.wait_for(2).await;
    assert_eq!(got[1].json()["data"]["title"], "One");
    worker.stop().await;
}

#[tokio::test]
async fn a_host_that_resolves_to_a_private_address_is_refused_when_it_is_sent() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    // Accepted by the API (this server allows private hosts), refused by a worker that
    // does not: the check is on the resolved address, at delivery.
    let by_name = format!("http://localhost:{}", receiver.addr.port());
    let (endpoint, _) = subscribe(&s, &by_name, &["*"]).await;
    let worker = Worker::start_with(&s, false, 8, Duration::from_secs(15));
    s.created(
        "/api/notes",
        json!({"note_title": "Secret", "note_description": "d"}),
    )
    .await;
    let failed = eventually("the refused attempt", || async {
        let d = deliveries(&s, endpoint).await;
        (d.first().is_some_and(|d| d["attempts"] == 1)).then(|| d[0].clone())
    })
    .await;
    worker.stop().await;
    assert_eq!(failed["status"], "pending");
    assert_eq!(failed["last_status_code"], Value::Null);
    assert!(
        failed["last_error"].as_str().unwrap().contains("127.0.0.1")
            || failed["last_error"].as_str().unwrap().contains("::1")
            || failed["last_error"].as_str().unwrap().contains("private"),
        "{failed}"
    );
    assert!(
        receiver.got().is_empty(),
        "nothing reached the private address"
    );
}

#[tokio::test]
async fn a_delivery_whose_worker_died_is_sent_again_with_the_same_id() {
    let s = server().await;
    let hanging = Receiver::start(|_, _| Reply::Hang).await;
    let (endpoint, _) = subscribe(&s, &hanging.url(), &["note.created"]).await;
    s.created(
        "/api/notes",
        json!({"note_title": "Once at least", "note_description": "d"}),
    )
    .await;
    let dying = Worker::start(&s);
    let first = hanging.wait_for(1).await;
    // The worker dies mid-delivery (its task is gone, as after a SIGKILL): nothing was
    // recorded, and the row is leased.
    dying.task.abort();
    let _ = dying.task.await;
    assert_eq!(deliveries(&s, endpoint).await[0]["attempts"], 0);
    // Once the lease has passed, another worker sends it again, with the same id (to a
    // receiver that answers, at the endpoint's new address).
    let receiver = Receiver::ok().await;
    let sql = s.sql().await;
    sql.execute("UPDATE webhook_endpoints SET url = $1", &[&receiver.url()])
        .await
        .unwrap();
    sql.execute("UPDATE webhook_deliveries SET leased_until = now()", &[])
        .await
        .unwrap();
    let worker = Worker::start(&s);
    let again = receiver.wait_for(1).await;
    worker.stop().await;
    assert_eq!(again[0].header("webhook-id"), first[0].header("webhook-id"));
    assert_eq!(again[0].body, first[0].body);
}

#[tokio::test]
async fn two_workers_deliver_every_event_once() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    subscribe(&s, &receiver.url(), &["note.created"]).await;
    // In waves of 40 (the key's in-flight cap is 64).
    for wave in 0..3 {
        let mut writes = tokio::task::JoinSet::new();
        for i in 0..40 {
            let (http, base, key) = (s.http.clone(), s.base.clone(), s.key.clone());
            writes.spawn(async move {
                http.post(format!("{base}/api/notes"))
                    .bearer_auth(key)
                    .json(
                        &json!({"note_title": format!("Note {wave}-{i}"), "note_description": "d"}),
                    )
                    .send()
                    .await
                    .unwrap()
                    .status()
            });
        }
        while let Some(status) = writes.join_next().await {
            assert_eq!(status.unwrap(), 201);
        }
    }
    let (a, b) = (Worker::start(&s), Worker::start(&s));
    let got = receiver.wait_for(120).await;
    let (done_a, done_b) = (a.stop().await, b.stop().await);
    assert_eq!(done_a.sent + done_b.sent, 120, "{done_a:?} {done_b:?}");
    let mut ids: Vec<String> = receiver
        .got()
        .iter()
        .map(|g| g.header("webhook-id"))
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 120, "no event was delivered twice");
    assert_eq!(got.len(), 120);
}

#[tokio::test]
async fn during_a_rotation_both_secrets_verify() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    let (endpoint, old) = subscribe(&s, &receiver.url(), &["*"]).await;
    let rotated = s
        .post(
            &format!("/api/webhooks/{endpoint}/rotate-secret"),
            json(json!({})),
        )
        .await;
    let new = rotated.data()["secret"].as_str().unwrap().to_owned();
    let worker = Worker::start(&s);
    let test = s
        .post(&format!("/api/webhooks/{endpoint}/test"), json(json!({})))
        .await;
    assert_eq!(test.status, 201, "{:?}", test.json);
    assert_eq!(test.data()["event"]["type"], "webhook.test");
    let got = receiver.wait_for(1).await;
    worker.stop().await;
    let signatures = got[0].header("webhook-signature");
    assert_eq!(signatures.split(' ').count(), 2, "{signatures}");
    assert!(verified(&got[0], &new), "the new secret verifies");
    assert!(
        verified(&got[0], &old),
        "the old secret still verifies for a day"
    );
    // Once the overlap has passed, only the new secret signs.
    s.sql()
        .await
        .execute("UPDATE webhook_endpoints SET previous_until = now()", &[])
        .await
        .unwrap();
    let worker = Worker::start(&s);
    s.post(&format!("/api/webhooks/{endpoint}/test"), json(json!({})))
        .await;
    let got = receiver.wait_for(2).await;
    worker.stop().await;
    assert!(verified(&got[1], &new));
    assert!(!verified(&got[1], &old));
}

#[tokio::test]
async fn the_history_filters_deliveries_and_a_retry_sends_one_again() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    let (endpoint, _) = subscribe(&s, &receiver.url(), &["note.created", "note.deleted"]).await;
    let note = s
        .created(
            "/api/notes",
            json!({"note_title": "History", "note_description": "d"}),
        )
        .await;
    s.delete(&format!("/api/notes/{note}")).await;
    s.post(
        "/api/categories",
        json(json!({"category_name": "Unheard", "category_type": "project"})),
    )
    .await;
    let worker = Worker::start(&s);
    receiver.wait_for(2).await;
    let all = eventually("both delivered", || async {
        let d = deliveries(&s, endpoint).await;
        d.iter().all(|d| d["status"] == "delivered").then_some(d)
    })
    .await;
    assert_eq!(all.len(), 2, "only the subscribed types were queued");
    let a = s
        .get(&format!(
            "/api/webhooks/{endpoint}/deliveries?event_type=note.deleted"
        ))
        .await;
    assert_page(&a, "Deliveries retrieved successfully.", 1, 35, 1);
    let deleted = a.data()[0].clone();
    let a = s
        .get(&format!(
            "/api/webhooks/{endpoint}/deliveries?status=failed"
        ))
        .await;
    assert_eq!(ids(&a), Vec::<i64>::new());
    let a = s
        .post(
            &format!(
                "/api/webhooks/{endpoint}/deliveries/{}/retry",
                id_of(&deleted)
            ),
            json(json!({})),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.json);
    assert_eq!(a.data()["status"], "pending");
    let got = receiver.wait_for(3).await;
    worker.stop().await;
    assert_eq!(
        got[2].header("webhook-id"),
        deleted["event"]["id"].as_str().unwrap()
    );
    let a = s
        .post(
            &format!("/api/webhooks/{endpoint}/deliveries/999999/retry"),
            json(json!({})),
        )
        .await;
    assert_eq!(a.status, 404);
    assert_eq!(a.message(), "Delivery not found.");
    let a = s.get("/api/webhooks/999999/deliveries").await;
    assert_eq!(a.message(), "Webhook not found.");
}

#[tokio::test]
async fn payments_report_the_invoice_paid_and_emails_report_their_sending() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    subscribe(
        &s,
        &receiver.url(),
        &["invoice.paid", "payment.created", "email.sent"],
    )
    .await;
    let invoice = s
        .created(
            "/api/invoices",
            json!({"bill_clientid": client(&s, 0), "bill_categoryid": s.default_category("invoice").await,
                   "bill_date": today().to_string(), "bill_due_date": today().to_string()}),
        )
        .await;
    let a = s
        .put(
            &format!("/api/invoices/{invoice}/items"),
            json(json!({"items": [{"description": "Work", "quantity": "1", "rate": "100.00"}]})),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.json);
    assert_eq!(
        s.put(&format!("/api/invoices/{invoice}/publish"), json(json!({})))
            .await
            .status,
        200
    );
    let a = s
        .post(
            "/api/payments",
            json(json!({"payment_invoiceid": invoice, "payment_amount": a.data()["totals"]["final_amount"], "payment_date": today().to_string()})),
        )
        .await;
    assert_eq!(a.status, 201, "{:?}", a.json);
    let outbox = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("webhook-mail-{invoice}-{}", std::process::id()));
    let mailer = crm_http::ops::mail::Mailer::new(
        Some(&format!("file://{}", outbox.display())),
        "CRM <crm@localhost>",
    )
    .unwrap();
    let (_stop, stopped) = delivery::stop_channel();
    let sent = delivery::run(
        s.db.config(),
        &mailer,
        WorkerOptions {
            once: true,
            ..WorkerOptions::default()
        },
        stopped,
    )
    .await;
    assert_eq!(sent.sent, 1);
    let _ = std::fs::remove_dir_all(&outbox);
    let worker = Worker::start(&s);
    let got = receiver.wait_for(3).await;
    worker.stop().await;
    let types: Vec<String> = got
        .iter()
        .map(|g| g.json()["type"].as_str().unwrap().to_owned())
        .collect();
    assert!(types.contains(&"payment.created".to_owned()), "{types:?}");
    let paid = got
        .iter()
        .map(Got::json)
        .find(|b| b["type"] == "invoice.paid")
        .expect("invoice.paid");
    assert_eq!(paid["data"]["id"], invoice);
    assert_eq!(paid["data"]["totals"]["amount_due"], "0.00");
    let email = got
        .iter()
        .map(Got::json)
        .find(|b| b["type"] == "email.sent")
        .expect("email.sent");
    assert_eq!(email["data"]["status"], "sent");
}

#[tokio::test]
async fn a_write_a_test_and_a_retry_wake_the_worker_which_does_not_poll() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    let (endpoint, _) = subscribe(&s, &receiver.url(), &["note.created"]).await;
    // The worker would look again only in an hour: every delivery below reaches the
    // receiver because the store notified it after the commit.
    let worker = Worker::start_polling(
        &s,
        true,
        8,
        Duration::from_secs(15),
        Duration::from_secs(3600),
    );
    let note = json!({"note_title": "Wake", "note_description": "d"});
    s.created("/api/notes", note.clone()).await;
    receiver.wait_for(1).await;
    let idle = || async {
        let d = deliveries(&s, endpoint).await;
        d.iter().all(|d| d["status"] == "delivered").then_some(d)
    };
    eventually("the first delivered", idle).await;
    s.created("/api/notes", note).await;
    receiver.wait_for(2).await;
    eventually("the second delivered", idle).await;
    let a = s
        .post(&format!("/api/webhooks/{endpoint}/test"), json(json!({})))
        .await;
    assert_eq!(a.status, 201, "{:?}", a.json);
    let got = receiver.wait_for(3).await;
    assert_eq!(got[2].json()["type"], "webhook.test");
    let all = eventually("the test delivered", idle).await;
    let a = s
        .post(
            &format!(
                "/api/webhooks/{endpoint}/deliveries/{}/retry",
                id_of(&all[0])
            ),
            json(json!({})),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.json);
    let got = receiver.wait_for(4).await;
    assert_eq!(got[3].header("webhook-id"), got[0].header("webhook-id"));
    worker.stop().await;
}

mod access;
