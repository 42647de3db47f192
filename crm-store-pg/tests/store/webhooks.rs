//! The webhook channel's claim and record, on the store alone (the service's tests in
//! crm-http drive them through a real worker and receiver): the per-endpoint cap, order
//! per record, what a disabled endpoint still gets, when the worker should look again, and
//! a batch of outcomes in one transaction.

use std::time::Duration;

use chrono::{DateTime, Utc};
use crm_core::time::Timestamp;
use crm_core::webhook::{Next, disabled_reason};
use crm_store_pg::outbox::Outbox;
use crm_store_pg::testing::TestDb;
use crm_store_pg::{WebhookAttempt, WebhookJob};
use tokio_postgres::Client;

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
        "INSERT INTO webhook_endpoints (url, events, enabled, secret) \
         VALUES ('https://receiver.example/hook', '{*}', $1, 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=') \
         RETURNING id",
        &[&enabled],
    )
    .await
    .expect("endpoint")
    .get(0)
}

/// `n` events about `record` (of `event_type`), each queued for `endpoint`, due now; gives
/// the deliveries' ids in order.
async fn queue(sql: &Client, endpoint: i64, record: &str, event_type: &str, n: i64) -> Vec<i64> {
    let mut ids = Vec::new();
    for _ in 0..n {
        let id: i64 = sql
            .query_one(
                "WITH e AS (INSERT INTO webhook_events (type, record_key, body) \
                   VALUES ($2, $3, '{}') RETURNING id) \
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
