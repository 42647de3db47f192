//! The webhook channel's claim and record, on the store alone (the service's tests in
//! crm-http drive them through a real worker and receiver): the per-endpoint cap, order
//! per record, what a disabled endpoint still gets, when the worker should look again, and
//! a batch of outcomes in one transaction; and the fan-out of the events that changes write
//! into deliveries (once, in order, to the endpoints that subscribed when the change began).

use std::time::Duration;

use chrono::{DateTime, Utc};
use crm_core::note::{NewNote, NoteUpdate};
use crm_core::time::Timestamp;
use crm_core::webhook::{Next, disabled_reason};
use crm_store_pg::outbox::Outbox;
use crm_store_pg::testing::TestDb;
use crm_store_pg::{WebhookAttempt, WebhookJob};

use crate::common::{ctx, raw, seeded};
use tokio_postgres::Client;

mod fairness;

const LEASE: Duration = Duration::from_secs(60);

/// A fresh database, a plain connection to it and a worker's outbox.
async fn world() -> (TestDb, Client, Outbox) {
    let db = TestDb::new().await.expect("test database");
    let sql = db.client().await.expect("connection");
    let outbox = Outbox::new(db.config()).expect("outbox");
    (db, sql, outbox)
}

/// An endpoint, enabled or not; gives its id.
async fn endpoint(sql: &Client, enabled: bool) -> i64 {
    sql.query_one(
        "WITH k AS (INSERT INTO api_keys (name, digest, user_id) \
           VALUES ('hooks', sha256(gen_random_uuid()::text::bytea), 1) RETURNING id) \
         INSERT INTO webhook_endpoints (url, events, enabled, secret, key_id) \
         SELECT 'https://receiver.example/hook', '{*}', $1, 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=', k.id \
         FROM k RETURNING id",
        &[&enabled],
    )
    .await
    .expect("endpoint")
    .get(0)
}

/// `n` events about `record` (of `event_type`), each already fanned out (it has its message
/// id) and queued for `endpoint` alone, due now; gives the deliveries' ids in order.
async fn queue(sql: &Client, endpoint: i64, record: &str, event_type: &str, n: i64) -> Vec<i64> {
    let mut ids = Vec::new();
    for _ in 0..n {
        let id: i64 = sql
            .query_one(
                "WITH e AS (INSERT INTO webhook_events (message_id, type, record_key, body) \
                   VALUES ('msg_' || md5(random()::text), $2, $3, '{}') RETURNING id) \
                 INSERT INTO webhook_deliveries (event_id, endpoint_id, event_type, record_key, next_attempt) \
                 SELECT e.id, $1, $2, $3, now() - interval '1 second' FROM e RETURNING id",
                &[&endpoint, &event_type, &record],
            )
            .await
            .expect("delivery")
            .get(0);
        ids.push(id);
    }
    ids
}

async fn claim(outbox: &mut Outbox, max: usize, cap: usize) -> Vec<WebhookJob> {
    outbox
        .claim_webhooks(Utc::now(), max, LEASE, cap)
        .await
        .expect("claim")
}

fn ids(jobs: &[WebhookJob]) -> Vec<i64> {
    jobs.iter().map(|j| j.id).collect()
}

fn attempt(next: Next, gone: bool) -> WebhookAttempt {
    WebhookAttempt {
        status_code: Some(if gone { 410 } else { 200 }),
        error: None,
        next,
        gone,
        timed_out: false,
    }
}

#[tokio::test]
async fn each_endpoint_gets_at_most_its_cap_in_flight_and_a_slow_one_does_not_hold_back_the_others()
{
    let (_db, sql, mut outbox) = world().await;
    let (a, b) = (endpoint(&sql, true).await, endpoint(&sql, true).await);
    let mut queued_a = Vec::new();
    for i in 0..20 {
        queued_a.extend(queue(&sql, a, &format!("note:{i}"), "note.updated", 1).await);
    }
    let mut queued_b = Vec::new();
    for i in 0..3 {
        queued_b.extend(queue(&sql, b, &format!("note:{i}"), "note.updated", 1).await);
    }

    let first = claim(&mut outbox, 100, 8).await;
    let of = |jobs: &[WebhookJob], e: i64| jobs.iter().filter(|j| j.endpoint_id == e).count();
    assert_eq!(of(&first, a), 8, "endpoint A is capped at 8");
    assert_eq!(
        of(&first, b),
        3,
        "endpoint B's deliveries are not behind A's backlog"
    );
    assert_eq!(
        first
            .iter()
            .filter(|j| j.endpoint_id == a)
            .map(|j| j.id)
            .collect::<Vec<_>>(),
        queued_a[..8],
        "the oldest first"
    );
    assert!(
        claim(&mut outbox, 100, 8).await.is_empty(),
        "nothing more while A's 8 are in flight"
    );

    // Three of A's come back: three more of A's may go.
    let done: Vec<_> = first
        .iter()
        .filter(|j| j.endpoint_id == a)
        .take(3)
        .collect();
    let delivered = attempt(Next::Delivered, false);
    let batch: Vec<_> = done.iter().map(|j| (*j, &delivered)).collect();
    assert!(
        outbox
            .record_webhooks(&batch, Utc::now())
            .await
            .expect("recorded")
            .is_empty()
    );
    let second = claim(&mut outbox, 100, 8).await;
    assert_eq!(ids(&second), queued_a[8..11]);
    let delivered_rows: i64 = sql
        .query_one(
            "SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'",
            &[],
        )
        .await
        .expect("count")
        .get(0);
    assert_eq!(delivered_rows, 3);
    // `max` bounds a claim too.
    for j in &second {
        outbox.release_webhooks(&[j.id]).await.expect("released");
    }
    assert_eq!(claim(&mut outbox, 2, 8).await.len(), 2);
}

#[tokio::test]
async fn a_later_event_of_a_record_waits_for_the_earlier_ones_retry_and_the_worker_sleeps_until_then()
 {
    let (_db, sql, mut outbox) = world().await;
    let e = endpoint(&sql, true).await;
    let same = queue(&sql, e, "note:1", "note.updated", 3).await;
    let other = queue(&sql, e, "note:2", "note.updated", 1).await;

    let first = claim(&mut outbox, 10, 8).await;
    assert_eq!(ids(&first), vec![same[0], other[0]], "one per record");

    // The first of note 1 fails and is retried in an hour; note 2's goes through.
    let in_an_hour = Utc::now() + chrono::Duration::hours(1);
    let retry = WebhookAttempt {
        status_code: Some(500),
        error: Some("500".into()),
        next: Next::RetryAt(Timestamp(in_an_hour)),
        gone: false,
        timed_out: false,
    };
    let delivered = attempt(Next::Delivered, false);
    outbox
        .record_webhooks(&[(&first[0], &retry), (&first[1], &delivered)], Utc::now())
        .await
        .expect("recorded");

    assert!(
        claim(&mut outbox, 10, 8).await.is_empty(),
        "note 1's later events wait for its retry"
    );
    let due: Option<DateTime<Utc>> = outbox.next_webhook_due().await.expect("next due");
    let due = due.expect("something is pending");
    assert!(
        (due - in_an_hour).num_seconds().abs() <= 1,
        "the worker sleeps until the retry ({due} against {in_an_hour}), not until the waiting events' own times"
    );
    // The endpoint delivered one in the batch: its failure clock does not run.
    let failing: Option<DateTime<Utc>> = sql
        .query_one(
            "SELECT failing_since FROM webhook_endpoints WHERE id = $1",
            &[&e],
        )
        .await
        .expect("endpoint")
        .get(0);
    assert_eq!(failing, None);
}

#[tokio::test]
async fn a_disabled_endpoint_gets_only_its_test_message() {
    let (_db, sql, mut outbox) = world().await;
    let off = endpoint(&sql, false).await;
    queue(&sql, off, "note:1", "note.created", 5).await;
    assert!(claim(&mut outbox, 10, 8).await.is_empty());
    assert_eq!(outbox.next_webhook_due().await.expect("next due"), None);

    let test = queue(&sql, off, "webhook:test", "webhook.test", 1).await;
    assert_eq!(ids(&claim(&mut outbox, 10, 8).await), test);
}

#[tokio::test]
async fn a_410_in_a_batch_disables_its_endpoint_and_only_it() {
    let (_db, sql, mut outbox) = world().await;
    let (a, b) = (endpoint(&sql, true).await, endpoint(&sql, true).await);
    queue(&sql, a, "note:1", "note.created", 1).await;
    queue(&sql, b, "note:1", "note.created", 1).await;
    let jobs = claim(&mut outbox, 10, 8).await;
    assert_eq!(jobs.len(), 2);
    let gone = attempt(Next::Failed, true);
    let delivered = attempt(Next::Delivered, false);
    let batch: Vec<_> = jobs
        .iter()
        .map(|j| {
            (
                j,
                if j.endpoint_id == a {
                    &gone
                } else {
                    &delivered
                },
            )
        })
        .collect();
    let disabled = outbox
        .record_webhooks(&batch, Utc::now())
        .await
        .expect("recorded");
    assert_eq!(disabled, vec![(a, disabled_reason::GONE)]);
    let enabled: Vec<(i64, bool)> = sql
        .query("SELECT id, enabled FROM webhook_endpoints ORDER BY id", &[])
        .await
        .expect("endpoints")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(enabled, vec![(a, false), (b, true)]);
    // Recording the same attempts again (a delivery no longer pending) changes nothing.
    assert!(
        outbox
            .record_webhooks(&batch, Utc::now())
            .await
            .expect("recorded")
            .is_empty()
    );
}

#[tokio::test]
async fn five_days_of_failures_in_a_batch_disable_the_endpoint() {
    let (_db, sql, mut outbox) = world().await;
    let e = endpoint(&sql, true).await;
    queue(&sql, e, "note:1", "note.created", 1).await;
    queue(&sql, e, "note:2", "note.created", 1).await;
    sql.execute(
        "UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute'",
        &[],
    )
    .await
    .expect("clock set back");
    let jobs = claim(&mut outbox, 10, 8).await;
    let failed = WebhookAttempt {
        status_code: Some(500),
        error: Some("500".into()),
        next: Next::RetryAt(Timestamp(Utc::now() + chrono::Duration::minutes(5))),
        gone: false,
        timed_out: false,
    };
    let batch: Vec<_> = jobs.iter().map(|j| (j, &failed)).collect();
    assert_eq!(
        outbox
            .record_webhooks(&batch, Utc::now())
            .await
            .expect("recorded"),
        vec![(e, disabled_reason::FAILING)]
    );
}

/// An endpoint subscribed to `events`, enabled or not; gives its id.
async fn subscribed(sql: &Client, events: &[&str], enabled: bool) -> i64 {
    sql.query_one(
        "WITH k AS (INSERT INTO api_keys (name, digest, user_id) \
           VALUES ('hooks', sha256(gen_random_uuid()::text::bytea), 1) RETURNING id) \
         INSERT INTO webhook_endpoints (url, events, enabled, secret, key_id) \
         SELECT 'https://receiver.example/hook', $1, $2, 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=', k.id \
         FROM k RETURNING id",
        &[&events, &enabled],
    )
    .await
    .expect("endpoint")
    .get(0)
}

/// Each endpoint's deliveries in the order of their ids: (endpoint, event type, record,
/// the event's id, its message id).
async fn deliveries(sql: &Client) -> Vec<(i64, String, String, i64, String)> {
    sql.query(
        "SELECT d.endpoint_id, d.event_type, d.record_key, d.event_id, e.message_id \
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id \
         ORDER BY d.endpoint_id, d.id",
        &[],
    )
    .await
    .expect("deliveries")
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
    .collect()
}

fn note(title: &str) -> NewNote {
    NewNote::parse(&raw(&[("note_title", title), ("note_description", "d")])).expect("note")
}

#[tokio::test]
async fn a_change_writes_only_its_event_and_the_fan_out_queues_one_delivery_per_endpoint_that_subscribed()
 {
    let s = seeded().await;
    let sql = s.sql().await;
    let all = subscribed(&sql, &["*"], true).await;
    let updates = subscribed(&sql, &["note.updated"], true).await;
    let _disabled = subscribed(&sql, &["*"], false).await;
    let created = s
        .store
        .create_note(ctx(), &note("First"))
        .await
        .expect("create");
    let update = NoteUpdate::parse(&raw(&[("note_title", "Second"), ("note_description", "d")]))
        .expect("update");
    s.store
        .update_note(ctx(), created.id, &update)
        .await
        .expect("update");
    // The changes wrote their events and nothing else; the events have no message id yet.
    assert_eq!(s.scalar("SELECT count(*) FROM webhook_deliveries").await, 0);
    assert_eq!(
        s.scalar("SELECT count(*) FROM webhook_events WHERE message_id IS NULL")
            .await,
        2
    );
    // An endpoint made after the changes began gets none of them.
    let later = subscribed(&sql, &["*"], true).await;

    let mut outbox = Outbox::new(s.db.config()).expect("outbox");
    assert_eq!(outbox.fan_out_webhooks().await.expect("fan out"), (2, 3));
    assert_eq!(outbox.fan_out_webhooks().await.expect("again"), (0, 0));
    let record = format!("note:{}", created.id);
    let found = deliveries(&sql).await;
    let seen: Vec<(i64, &str, &str)> = found
        .iter()
        .map(|(endpoint, kind, key, _, _)| (*endpoint, kind.as_str(), key.as_str()))
        .collect();
    assert_eq!(
        seen,
        [
            (all, "note.created", record.as_str()),
            (all, "note.updated", record.as_str()),
            (updates, "note.updated", record.as_str()),
        ]
    );
    // One message id per event, the same for every endpoint, in the Standard Webhooks form.
    assert_eq!(found[1].4, found[2].4);
    assert_ne!(found[0].4, found[1].4);
    assert!(
        found
            .iter()
            .all(|d| d.4.len() == 36 && d.4.starts_with("msg_"))
    );
    // Due from the change, so a pass that began after the change sends them.
    let jobs = claim(&mut outbox, 10, 8).await;
    assert_eq!(
        jobs.len(),
        2,
        "one per endpoint: the record's second waits for its first"
    );
    assert!(jobs.iter().all(|j| j.endpoint_id != later));
}

#[tokio::test]
async fn concurrent_updates_and_concurrent_fan_outs_queue_each_event_once_in_the_order_it_committed()
 {
    let s = seeded().await;
    let sql = s.sql().await;
    let endpoint = subscribed(&sql, &["note.updated"], true).await;
    let notes = [
        s.store.create_note(ctx(), &note("a")).await.expect("a").id,
        s.store.create_note(ctx(), &note("b")).await.expect("b").id,
    ];
    // Eight writers update the two notes 40 times between them while two workers fan out
    // over and over.
    let writing = futures_util::future::join_all((0..8).map(|w| {
        let store = s.store.clone();
        async move {
            for i in 0..5 {
                let title = format!("w{w} u{i}");
                let cmd = NoteUpdate::parse(&raw(&[
                    ("note_title", title.as_str()),
                    ("note_description", "d"),
                ]))
                .expect("update");
                store
                    .update_note(ctx(), notes[w % 2], &cmd)
                    .await
                    .expect("update");
            }
        }
    }));
    let done = std::sync::atomic::AtomicBool::new(false);
    let fanning = futures_util::future::join_all((0..2).map(|_| async {
        let mut outbox = Outbox::new(s.db.config()).expect("outbox");
        let mut events = 0;
        loop {
            let finished = done.load(std::sync::atomic::Ordering::Acquire);
            events += outbox.fan_out_webhooks().await.expect("fan out").0;
            if finished {
                return events;
            }
            tokio::task::yield_now().await;
        }
    }));
    let fanned = async {
        let fanned = fanning.await;
        fanned.iter().sum::<u64>()
    };
    let (fanned, ()) = tokio::join!(fanned, async {
        writing.await;
        done.store(true, std::sync::atomic::Ordering::Release);
    });
    assert_eq!(fanned, 40, "every event fanned out exactly once");
    let found = deliveries(&sql).await;
    assert_eq!(found.len(), 40);
    assert!(found.iter().all(|d| d.0 == endpoint));
    // Per note, the deliveries' order is the order the updates committed: the events' ids
    // ascend with the deliveries', and the titles they carry are the ones the note went
    // through, ending with the one it has now.
    for id in notes {
        let record = format!("note:{id}");
        let events: Vec<i64> = found
            .iter()
            .filter(|d| d.2 == record)
            .map(|d| d.3)
            .collect();
        assert_eq!(events.len(), 20);
        assert!(events.windows(2).all(|w| w[0] < w[1]), "{events:?}");
        let last_body: String = sql
            .query_one(
                "SELECT body FROM webhook_events WHERE id = $1",
                &[events.last().expect("events")],
            )
            .await
            .expect("body")
            .get(0);
        let last: serde_json::Value = serde_json::from_str(&last_body).expect("json");
        let now: String = sql
            .query_one("SELECT title FROM notes WHERE id = $1", &[&id.get()])
            .await
            .expect("note")
            .get(0);
        assert_eq!(last["data"]["title"], now.as_str());
    }
}

#[tokio::test]
async fn pruning_removes_old_finished_deliveries_and_their_events_and_keeps_everything_else() {
    let s = seeded().await;
    let sql = s.sql().await;
    let endpoint = subscribed(&sql, &["*"], true).await;
    // Six events, fanned out: 1 and 2 delivered long ago, 3 failed long ago, 4 still
    // pending from long ago, 5 delivered today; then 6, old but not fanned out yet.
    let mut events = Vec::new();
    for n in 1..=6 {
        let id: i64 = sql
            .query_one(
                "INSERT INTO webhook_events (type, record_key, body) \
                 VALUES ('note.created', 'note:' || $1::int, '{}') RETURNING id",
                &[&n],
            )
            .await
            .expect("event")
            .get(0);
        events.push(id);
        if n == 5 {
            let mut outbox = Outbox::new(s.db.config()).expect("outbox");
            assert_eq!(outbox.fan_out_webhooks().await.expect("fan out"), (5, 5));
        }
    }
    sql.batch_execute(&format!(
        "UPDATE webhook_deliveries SET status = 'delivered' WHERE event_id IN ({}, {}, {}); \
         UPDATE webhook_deliveries SET status = 'failed' WHERE event_id = {}; \
         UPDATE webhook_events SET created_at = now() - interval '40 days' WHERE id <> {}; \
         UPDATE webhook_deliveries SET created_at = now() - interval '40 days' WHERE event_id <> {};",
        events[0], events[1], events[4], events[2], events[4], events[4]
    ))
    .await
    .expect("set the scene");
    assert_eq!(
        s.store.prune_webhook_deliveries(30).await.expect("prune"),
        3
    );
    let left: Vec<i64> = sql
        .query("SELECT id FROM webhook_events ORDER BY id", &[])
        .await
        .expect("events")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(left, [events[3], events[4], events[5]]);
    let delivered: Vec<i64> = sql
        .query(
            "SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id",
            &[&endpoint],
        )
        .await
        .expect("deliveries")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(delivered, [events[3], events[4]]);
}

#[tokio::test]
async fn with_many_endpoints_one_fan_out_writes_about_5000_deliveries_and_the_next_ones_go_on() {
    let (_db, sql, mut outbox) = world().await;
    for _ in 0..20 {
        subscribed(&sql, &["*"], true).await;
    }
    // A disabled endpoint does not count.
    subscribed(&sql, &["*"], false).await;
    sql.execute(
        "INSERT INTO webhook_events (type, record_key, body) \
         SELECT 'note.created', 'note:' || g, '{}' FROM generate_series(1, 600) g",
        &[],
    )
    .await
    .expect("events");
    // 5,000 / 20 endpoints: 250 events, 5,000 deliveries at a time.
    assert_eq!(outbox.fan_out_webhooks().await.expect("first"), (250, 5000));
    assert_eq!(
        outbox.fan_out_webhooks().await.expect("second"),
        (250, 5000)
    );
    assert_eq!(outbox.fan_out_webhooks().await.expect("third"), (100, 2000));
    assert_eq!(outbox.fan_out_webhooks().await.expect("done"), (0, 0));
}
