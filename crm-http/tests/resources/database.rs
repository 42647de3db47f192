//! A database that holds its connections without answering — hung, or behind a proxy or
//! a network path that stopped passing bytes — must not hold the service's clients: the
//! health checks answer 503 within the connect timeout, every other request 503 within the
//! request timeout, and the service recovers by itself when the database answers again.
//! Refused connections are the easy case (an immediate error); this one needs timeouts.

use crate::relay::behind_relay;

#[tokio::test]
async fn a_database_that_stops_answering_gets_503s_in_bounded_time_and_the_service_recovers() {
    let (s, relay) = behind_relay(&["--request-timeout", "2"]).await;

    // Through the relay, everything answers; the key is verified (and cached) now.
    assert_eq!(s.get("/healthz", None).status, 200);
    let listed = s.get("/api/notes", Some(&s.key));
    assert_eq!(listed.status, 200, "{}", listed.body);

    // A key the service has not seen yet, stored directly (not through the relay).
    let unseen = s.raw_key_for(1).await;

    relay.freeze(true);
    for path in ["/healthz", "/readyz"] {
        let answer = s.get(path, None);
        assert_eq!(answer.status, 503, "{path}: {}", answer.body);
        assert_eq!(answer.header("retry-after").as_deref(), Some("5"), "{path}");
    }
    let read = s.get("/api/notes", Some(&s.key));
    assert_eq!(read.status, 503, "{}", read.body);
    assert_eq!(
        read.json()["message"],
        "Service temporarily unavailable.",
        "{}",
        read.body
    );
    // Looking up a key the cache does not hold is bounded by the store's 5 s check.
    let lookup = s.get("/api/notes", Some(&unseen));
    assert_eq!(lookup.status, 503, "{}", lookup.body);
    // A write with an idempotency key runs in a transaction: the one the timeout
    // abandoned rolls back once the database answers, so the retry makes the one effect.
    let create = || {
        let body = "note_title=Frozen&note_description=Sent+while+frozen";
        s.send(
            format!(
                "POST /api/notes HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {}\r\n\
                 Idempotency-Key: frozen-1\r\n\
                 Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                s.key,
                body.len()
            )
            .as_bytes(),
        )
    };
    let write = create();
    assert_eq!(write.status, 503, "{}", write.body);
    assert!(s.logged("no answer within the request timeout") >= 2);

    relay.freeze(false);
    assert!(s.eventually(|| s.get("/healthz", None).status == 200));
    assert!(s.eventually(|| s.get("/readyz", None).status == 200));
    let listed = s.get("/api/notes", Some(&s.key));
    assert_eq!(listed.status, 200, "{}", listed.body);
    let seen = s.get("/api/notes", Some(&unseen));
    assert_eq!(seen.status, 200, "{}", seen.body);
    let retried = create();
    assert_eq!(retried.status, 201, "{}", retried.body);
    assert_eq!(retried.header("idempotent-replayed"), None);
    let db = s.db.client().await.expect("database");
    let created: i64 = db
        .query_one("SELECT count(*) FROM notes WHERE title = 'Frozen'", &[])
        .await
        .expect("count")
        .get(0);
    assert_eq!(created, 1);
}
