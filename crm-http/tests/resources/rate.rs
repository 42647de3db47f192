//! Per-key rate limits (`--rate-limit`, API.md §11): a token bucket per API key, 429 with
//! `Retry-After` over it, and the `RateLimit-*` headers on every answer to a limited key.

use std::time::Duration;

use crate::common::{Answer, Server};

/// The `RateLimit-*` headers of an answer, as numbers.
fn standing(answer: &Answer) -> (u64, u64, u64) {
    let number = |name: &str| {
        answer
            .header(name)
            .unwrap_or_else(|| panic!("{name} missing: {}", answer.head))
            .parse::<u64>()
            .unwrap_or_else(|_| panic!("{name} is not a number: {}", answer.head))
    };
    (
        number("ratelimit-limit"),
        number("ratelimit-remaining"),
        number("ratelimit-reset"),
    )
}

#[tokio::test]
async fn a_key_over_its_rate_gets_429_with_retry_after_and_every_answer_shows_its_standing() {
    // Three per minute: a token returns every 20 seconds, so the four requests below are
    // sent well inside one.
    let s = Server::start(&["--rate-limit", "3/min"]).await;
    let ok = s.get("/api/notes", Some(&s.key));
    assert_eq!(ok.status, 200, "{}", ok.body);
    let (limit, remaining, reset) = standing(&ok);
    assert_eq!((limit, remaining), (3, 2));
    assert!((1..=20).contains(&reset), "reset {reset}");
    // Errors count and carry the headers too.
    let missing = s.get("/api/notes/999999", Some(&s.key));
    assert_eq!(missing.status, 404);
    assert_eq!(standing(&missing).1, 1);
    let last = s.get("/api/notes", Some(&s.key));
    assert_eq!(last.status, 200);
    let (_, remaining, reset) = standing(&last);
    assert_eq!(remaining, 0);
    assert!((41..=60).contains(&reset), "reset {reset}");

    let refused = s.get("/api/notes", Some(&s.key));
    assert_eq!(refused.status, 429);
    assert_eq!(
        refused.json(),
        serde_json::json!({"message": "Too many requests."})
    );
    let retry_after: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=20).contains(&retry_after), "retry after {retry_after}");
    let (limit, remaining, reset) = standing(&refused);
    assert_eq!((limit, remaining), (3, 0));
    assert!(reset >= retry_after);

    // Another key has its own bucket; public routes and unauthenticated answers are not
    // limited and carry no standing.
    let other = s.key_for(s.ids.admins[1]).await;
    let theirs = s.get("/api/notes", Some(&other));
    assert_eq!(theirs.status, 200);
    assert_eq!(standing(&theirs).1, 2);
    for (path, key, status) in [
        ("/healthz", None, 200),
        ("/api/openapi.json", None, 200),
        ("/api/notes", None, 401),
    ] {
        let answer = s.get(path, key);
        assert_eq!(answer.status, status, "{path}");
        assert_eq!(answer.header("ratelimit-limit"), None, "{path}");
    }
}

#[tokio::test]
async fn a_refused_write_has_no_effect() {
    let s = Server::start(&["--rate-limit", "1/min"]).await;
    let count = || async {
        let client = s.db.client().await.unwrap();
        let row = client
            .query_one("SELECT count(*) FROM notes", &[])
            .await
            .unwrap();
        row.get::<_, i64>(0)
    };
    let before = count().await;
    assert_eq!(s.get("/api/notes", Some(&s.key)).status, 200);
    let post = |key: &str| {
        let body = r#"{"note_title":"Over the limit","note_description":"x"}"#;
        s.send(
            format!(
                "POST /api/notes HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {key}\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
    };
    let refused = post(&s.key);
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert_eq!(count().await, before);
    // The same request from a key with tokens left is a valid one.
    let other = s.key_for(s.ids.admins[1]).await;
    let created = post(&other);
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(count().await, before + 1);
}

#[tokio::test]
async fn a_key_may_send_again_once_retry_after_has_passed() {
    // Five per second: a token every 200 ms. Requests are sent until one is refused (the
    // burst of five is spent long before ten seconds have passed), then after the
    // Retry-After the client was given the next one is allowed.
    let s = Server::start(&["--rate-limit", "5/s"]).await;
    let mut refused = None;
    for _ in 0..50 {
        let answer = s.get("/api/notes?limit=1", Some(&s.key));
        if answer.status == 429 {
            refused = Some(answer);
            break;
        }
        assert_eq!(answer.status, 200);
    }
    let refused = refused.expect("a burst of 50 requests was never refused at 5/s");
    let retry_after: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert_eq!(retry_after, 1, "a token returns within 200 ms, rounded up");
    std::thread::sleep(Duration::from_secs(retry_after));
    let again = s.get("/api/notes?limit=1", Some(&s.key));
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(standing(&again).0, 5);
}
