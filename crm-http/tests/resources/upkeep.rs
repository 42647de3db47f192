//! The periodic upkeep of `crm serve` (`crm_http::upkeep`): the count deltas that writes
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
