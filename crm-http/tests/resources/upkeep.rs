//! The periodic upkeep of `crm serve` (`crm_http::ops::upkeep`): the count deltas that writes
//! append are folded into the lists' counts without a request asking for it.

use std::time::{Duration, Instant};

use crate::common::{PATIENCE, Server};

#[tokio::test]
async fn serve_folds_the_count_deltas_that_writes_append() {
    let s = Server::start(&[]).await;
    let db = s.db.client().await.unwrap();
    db.batch_execute(
        "INSERT INTO notes (title, description, creator_id) \
         SELECT 'Upkeep ' || g, 'Folded by serve', 1 FROM generate_series(1, 40) g",
    )
    .await
    .unwrap();
    let deltas = || async {
        db.query_one("SELECT count(*) FROM list_count_deltas", &[])
            .await
            .unwrap()
            .get::<_, i64>(0)
    };
    assert!(deltas().await >= 40, "the inserts appended their deltas");
    let deadline = Instant::now() + PATIENCE;
    loop {
        let left = deltas().await;
        if left == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "{left} deltas never folded");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let folded: i64 = db
        .query_one(
            "SELECT n FROM list_counts WHERE list = 'notes' AND key = 'public'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let public: i64 = db
        .query_one(
            "SELECT count(*) FROM notes WHERE NOT sticky AND visibility = 'public'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(folded, public);
    let listed = s.get("/api/notes?visibility=public", Some(&s.key));
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(listed.json()["meta"]["total"], public);
}

/// A total scans the whole deltas table, and the fold only deletes: without a vacuum the
/// table keeps every page the deltas of past writes filled. `crm serve` vacuums it itself
/// after folding enough deltas, so totals stay fast where autovacuum is off (as on this
/// project's CI) or behind.
#[tokio::test]
async fn serve_vacuums_the_deltas_it_folded() {
    let s = Server::start(&[]).await;
    let db = s.db.client().await.unwrap();
    let pages = || async {
        db.query_one(
            "SELECT pg_relation_size('list_count_deltas') / current_setting('block_size')::BIGINT",
            &[],
        )
        .await
        .unwrap()
        .get::<_, i64>(0)
    };
    // Only the server vacuums the table, wherever the test runs.
    db.batch_execute(
        "ALTER TABLE list_count_deltas SET (autovacuum_enabled = false); \
         INSERT INTO notes (title, description, creator_id) \
         SELECT 'Upkeep ' || g, 'Folded and vacuumed by serve', 1 \
         FROM generate_series(1, 3000) g",
    )
    .await
    .unwrap();
    let filled = pages().await;
    assert!(filled >= 10, "3,000 deltas fill {filled} pages");
    let deadline = Instant::now() + PATIENCE;
    loop {
        let left = pages().await;
        if left <= 1 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the deltas table kept {left} of its {filled} pages"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let pending: i64 = db
        .query_one("SELECT count(*) FROM list_count_deltas", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(pending, 0, "every delta was folded");
    let listed = s.get("/api/notes?limit=1", Some(&s.key));
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert!(listed.json()["meta"]["total"].as_i64().unwrap() >= 3000);
}
