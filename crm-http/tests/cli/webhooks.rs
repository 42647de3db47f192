//! The webhook channel of `crm serve` when the process dies (API.md §13): a delivery in
//! flight when `crm serve` is killed with SIGKILL is sent again by the next instance, with
//! the same `webhook-id` and body, once its lease has passed: at least once, never lost.

use std::time::Duration;

use crm_store_pg::testing::TestDb;

use super::receiver::{Receiver, Reply, eventually};
use super::{crm, free_port, http, kill_hard, serve, stdout, terminate, url};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_in_flight_when_serve_is_killed_is_sent_again_with_the_same_id_and_body() {
    let db = TestDb::new().await.unwrap();
    let database_url = url(&db);
    let env = [
        ("DATABASE_URL", database_url.as_str()),
        ("CRM_WEBHOOK_ALLOW_HTTP", "true"),
        ("CRM_WEBHOOK_ALLOW_PRIVATE", "true"),
    ];
    assert!(crm(&["migrate"], &env).status.success());
    let key = stdout(&crm(&["keys", "create", "--name", "t"], &env));
    // The first request is held and never answered; the next ones are taken.
    let receiver = Receiver::start(|n, _| {
        if n == 0 {
            Reply::Hang
        } else {
            Reply::Status(204, vec![])
        }
    })
    .await;
    let sql = db.client().await.unwrap();
    sql.execute(
        "WITH k AS (INSERT INTO api_keys (name, digest, user_id) \
           VALUES ('hooks', sha256(gen_random_uuid()::text::bytea), 1) RETURNING id) \
         INSERT INTO webhook_endpoints (url, events, secret, key_id) \
         SELECT $1, '{note.created}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', k.id FROM k",
        &[&receiver.url()],
    )
    .await
    .unwrap();

    let port = free_port();
    let first = serve(&[], &env, port, Duration::from_secs(60));
    let (status, body) = http(
        port,
        "POST",
        "/api/notes",
        Some(&key),
        "note_title=Kept&note_description=Through+a+crash",
    );
    assert_eq!(status, 201, "{body}");
    receiver.wait_for(1).await;
    kill_hard(first);

    let row = sql
        .query_one(
            "SELECT status, attempts, leased_until > now() AS leased FROM webhook_deliveries",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>("status"), "pending");
    assert_eq!(row.get::<_, i32>("attempts"), 0, "no outcome was recorded");
    assert!(
        row.get::<_, bool>("leased"),
        "the dead worker's lease holds"
    );
    // The lease (35 s) is made to pass now rather than waited for.
    sql.execute(
        "UPDATE webhook_deliveries SET leased_until = now() - interval '1 second'",
        &[],
    )
    .await
    .unwrap();

    let port = free_port();
    let second = serve(&[], &env, port, Duration::from_secs(60));
    eventually("the delivery recorded", || async {
        let status: String = sql
            .query_one("SELECT status FROM webhook_deliveries", &[])
            .await
            .unwrap()
            .get(0);
        (status == "delivered").then_some(())
    })
    .await;
    let got = receiver.got();
    assert_eq!(got.len(), 2, "sent once more, not more");
    assert_eq!(got[1].header("webhook-id"), got[0].header("webhook-id"));
    assert_eq!(got[1].body, got[0].body);
    assert_eq!(got[1].json()["type"], "note.created");
    assert_eq!(got[1].json()["data"]["title"], "Kept");
    let events: i64 = sql
        .query_one("SELECT count(*) FROM webhook_events", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(events, 1);
    assert_eq!(terminate(second), Some(0));
}
