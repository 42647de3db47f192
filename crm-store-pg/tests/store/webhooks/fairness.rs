//! Fair delivery on the store alone (issue 47): the claim shares a worker's slots between
//! the endpoints with work as crm-core's plan says, an endpoint whose attempts keep timing
//! out gets one at a time until one is delivered, and a worker with sends in flight learns
//! when the next delivery falls due.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use crm_core::time::Timestamp;
use crm_core::webhook::Next;
use crm_core::webhook::fairness::{BREAKER_TIMEOUTS, Slots, fair_share, reserve};
use crm_store_pg::{WebhookAttempt, WebhookJob};
use tokio_postgres::Client;

use super::{LEASE, claim, endpoint, queue, world};

/// An attempt that got no answer in time; retried in five minutes.
fn timed_out() -> WebhookAttempt {
    WebhookAttempt {
        status_code: None,
        error: Some("no answer within 15 s".into()),
        next: Next::RetryAt(Timestamp(Utc::now() + chrono::Duration::minutes(5))),
        gone: false,
        timed_out: true,
    }
}

/// The endpoint's breaker as stored: its timeouts in a row, and whether it is open.
async fn breaker(sql: &Client, endpoint: i64) -> (i32, bool) {
    let row = sql
        .query_one(
            "SELECT breaker_timeouts, breaker_opened_at IS NOT NULL FROM webhook_endpoints \
             WHERE id = $1",
            &[&endpoint],
        )
        .await
        .expect("endpoint");
    (row.get(0), row.get(1))
}

async fn all_due_now(sql: &Client) {
    sql.execute(
        "UPDATE webhook_deliveries SET next_attempt = now() - interval '1 second' \
         WHERE status = 'pending'",
        &[],
    )
    .await
    .expect("due now");
}

#[tokio::test]
async fn nine_endpoints_with_a_backlog_share_the_slots_and_leave_one_for_a_tenth() {
    let (_db, sql, mut outbox) = world().await;
    let mut hanging = Vec::new();
    for _ in 0..9 {
        let e = endpoint(&sql, true).await;
        for i in 0..8 {
            queue(&sql, e, &format!("note:{i}"), "note.created", 1).await;
        }
        hanging.push(e);
    }
    let slots = Slots {
        total: 64,
        free: 64,
        per_endpoint: 8,
    };
    let first = outbox
        .claim_webhooks_fairly(Utc::now(), slots, &HashMap::new(), LEASE)
        .await
        .expect("claim");
    let mut mine: HashMap<i64, usize> = HashMap::new();
    for job in &first {
        *mine.entry(job.endpoint_id).or_default() += 1;
    }
    assert_eq!(first.len(), 64 - reserve(64), "the reserve stays free");
    assert_eq!(mine.len(), 9);
    assert!(
        mine.values().all(|n| *n <= fair_share(64, 9, 8)),
        "none over its share: {mine:?}"
    );
    // A tenth endpoint's message arrives while all of those are in flight: it goes.
    let healthy = endpoint(&sql, true).await;
    let message = queue(&sql, healthy, "note:100", "note.created", 1).await;
    let then = outbox
        .claim_webhooks_fairly(
            Utc::now(),
            Slots {
                free: 64 - first.len(),
                ..slots
            },
            &mine,
            LEASE,
        )
        .await
        .expect("claim");
    assert_eq!(
        then.iter().map(|j| j.id).collect::<Vec<_>>(),
        message,
        "only the newcomer's"
    );
}

#[tokio::test]
async fn an_endpoint_whose_attempts_time_out_gets_one_at_a_time_until_one_is_delivered() {
    let (_db, sql, mut outbox) = world().await;
    let e = endpoint(&sql, true).await;
    for i in 0..8 {
        queue(&sql, e, &format!("note:{i}"), "note.created", 1).await;
    }
    let first = claim(&mut outbox, 64, 8).await;
    assert_eq!(first.len(), 8);
    // Two timeouts, then a fast failure (an answer in time): still closed, two in a row.
    let answered = WebhookAttempt {
        status_code: Some(500),
        timed_out: false,
        ..timed_out()
    };
    let batch = [
        (&first[0], &timed_out()),
        (&first[1], &timed_out()),
        (&first[2], &answered),
    ];
    let refs: Vec<(&WebhookJob, &WebhookAttempt)> = batch.iter().map(|(j, a)| (*j, *a)).collect();
    outbox
        .record_webhooks(&refs, Utc::now())
        .await
        .expect("recorded");
    assert_eq!(breaker(&sql, e).await, (2, false));
    // The third timeout in a row opens it.
    let third = timed_out();
    outbox
        .record_webhooks(&[(&first[3], &third)], Utc::now())
        .await
        .expect("recorded");
    assert_eq!(
        breaker(&sql, e).await,
        (i32::try_from(BREAKER_TIMEOUTS).unwrap(), true)
    );
    // Open, with four still in flight: nothing more, even due.
    all_due_now(&sql).await;
    assert!(claim(&mut outbox, 64, 8).await.is_empty());
    let rest: Vec<_> = first[4..].iter().map(|j| (j, &third)).collect();
    outbox
        .record_webhooks(&rest, Utc::now())
        .await
        .expect("recorded");
    // Nothing in flight: one at a time.
    all_due_now(&sql).await;
    let one = claim(&mut outbox, 64, 8).await;
    assert_eq!(one.len(), 1);
    assert!(claim(&mut outbox, 64, 8).await.is_empty(), "one at a time");
    // It is delivered: the breaker closes and the endpoint gets its share again.
    let delivered = WebhookAttempt {
        status_code: Some(204),
        error: None,
        next: Next::Delivered,
        gone: false,
        timed_out: false,
    };
    outbox
        .record_webhooks(&[(&one[0], &delivered)], Utc::now())
        .await
        .expect("recorded");
    assert_eq!(breaker(&sql, e).await, (0, false));
    assert_eq!(claim(&mut outbox, 64, 8).await.len(), 7);
}

#[tokio::test]
async fn a_worker_with_sends_in_flight_sleeps_until_the_next_delivery_falls_due() {
    let (_db, sql, mut outbox) = world().await;
    let busy = endpoint(&sql, true).await;
    for i in 0..3 {
        queue(&sql, busy, &format!("note:{i}"), "note.created", 1).await;
    }
    let retried = endpoint(&sql, true).await;
    queue(&sql, retried, "note:9", "note.created", 1).await;
    let in_five = Utc::now() + chrono::Duration::seconds(5);
    sql.execute(
        "UPDATE webhook_deliveries SET next_attempt = $2 WHERE endpoint_id = $1",
        &[&retried, &in_five],
    )
    .await
    .expect("a retry in 5 s");
    // One of the busy endpoint's three is claimed; two are due but wait (cap 1).
    assert_eq!(claim(&mut outbox, 1, 1).await.len(), 1);
    let now = Utc::now();
    let any: Option<DateTime<Utc>> = outbox.next_webhook_due().await.expect("next due");
    assert!(
        any.expect("something due") <= now,
        "the waiting ones are due already"
    );
    let after: Option<DateTime<Utc>> = outbox
        .next_webhook_due_after(Some(now))
        .await
        .expect("next due");
    let after = after.expect("the retry");
    assert!(
        (after - in_five).num_milliseconds().abs() <= 1,
        "the retry's time ({after} against {in_five}), not the waiting ones'"
    );
}
