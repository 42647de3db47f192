//! Key authority (defect 4): a key acts as one administrative user, so it stops working
//! when its user is no longer an administrator — within the key cache's 3 seconds. And
//! guessing (issue 33, defect 3): an unknown key id costs no more database work than a
//! known one, and an address that keeps failing is refused before any key is looked up.
//! And scopes (issue 38): a request outside a cached key's scopes is refused from memory.

use crate::common::Server;
use crate::relay::behind_relay;

/// A key of our format whose id `id` has no row.
fn made_up_key(id: u64) -> String {
    format!("crm_{id}_{}", "ab".repeat(32))
}

/// The value of one sample of the metrics text, 0 when absent.
fn sample(metrics: &str, series: &str) -> u64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(series))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn an_unknown_key_id_is_remembered_like_a_known_one_and_answered_without_the_database() {
    let (s, relay) = behind_relay(&["--request-timeout", "2"]).await;
    let unknown = made_up_key(987_654);
    assert_eq!(s.get("/api/notes", Some(&unknown)).status, 401);
    // The database stops answering: within the cache's 3 seconds the unknown id is
    // answered from memory, as a known key with a wrong secret is, not looked up again
    // (which would be a 503 after the request timeout).
    let known_id = s.key.split('_').nth(1).unwrap().to_owned();
    assert_eq!(s.get("/api/notes", Some(&s.key)).status, 200);
    relay.freeze(true);
    let again = s.get(
        "/api/notes",
        Some(&format!("crm_987654_{}", "cd".repeat(32))),
    );
    assert_eq!(again.status, 401, "{}", again.body);
    let wrong_secret = s.get(
        "/api/notes",
        Some(&format!("crm_{known_id}_{}", "cd".repeat(32))),
    );
    assert_eq!(wrong_secret.status, 401, "{}", wrong_secret.body);
    relay.freeze(false);
}

#[tokio::test]
async fn an_address_past_its_failed_authentication_limit_is_refused_without_a_lookup() {
    let (s, relay) =
        behind_relay(&["--request-timeout", "2", "--auth-failure-limit", "5/min"]).await;
    assert_eq!(s.get("/api/notes", Some(&s.key)).status, 200);
    for id in 0..5 {
        let answer = s.get("/api/notes", Some(&made_up_key(500_000 + id)));
        assert_eq!(answer.status, 401, "failure {id}: {}", answer.body);
    }
    // Past the limit, with the database not answering: a 429 at once, no lookup (a lookup
    // would be a 503 after the request timeout) — for a made-up key and a good one alike.
    relay.freeze(true);
    let limited = s.get("/api/notes", Some(&made_up_key(600_000)));
    assert_eq!(limited.status, 429, "{}", limited.body);
    assert_eq!(
        limited.json(),
        serde_json::json!({"message": "Too many failed authentications from this address."})
    );
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "Retry-After: {retry}");
    assert_eq!(s.get("/api/notes", None).status, 429);
    relay.freeze(false);
    // The limit is per address and on the API only: the health check is served.
    assert_eq!(s.get("/healthz", None).status, 200);
    let metrics = s.get("/metrics", None).body;
    assert_eq!(
        sample(&metrics, "crm_auth_failures_total{outcome=\"refused\"}"),
        5
    );
    assert_eq!(
        sample(&metrics, "crm_auth_failures_total{outcome=\"limited\"}"),
        2
    );
}

#[tokio::test]
async fn a_demoted_administrators_key_is_refused_after_the_cache_window() {
    let s = Server::start(&[]).await;
    let admin = s.ids.admins[1];
    let key = s.key_for(admin).await;
    assert_eq!(s.get("/api/notes", Some(&key)).status, 200);
    s.db.client()
        .await
        .unwrap()
        .execute("UPDATE users SET is_admin = false WHERE id = $1", &[&admin])
        .await
        .unwrap();
    // Bounded wait: the cached verification lasts 3 seconds.
    let mut last = 0;
    assert!(
        s.eventually(|| {
            last = s.get("/api/notes", Some(&key)).status;
            last == 401
        }),
        "still {last}"
    );
    let refused = s.get("/api/notes", Some(&key));
    assert_eq!(
        refused.json(),
        serde_json::json!({"message": "Unauthorized. A valid API key is required. This API key is unknown or was revoked."})
    );
    // The other administrator's key is unaffected.
    assert_eq!(s.get("/api/notes", Some(&s.key)).status, 200);
}

#[tokio::test]
async fn keys_of_users_who_are_not_administrators_are_refused() {
    let s = Server::start(&[]).await;
    let team_member = *s
        .ids
        .users
        .iter()
        .find(|u| !s.ids.admins.contains(u))
        .unwrap();
    let client_user = s.ids.client_users[0];
    for user in [team_member, client_user] {
        let key = s.raw_key_for(user).await;
        assert_eq!(s.get("/api/notes", Some(&key)).status, 401, "user {user}");
    }
}

/// A key of user 1 limited to `scopes`.
async fn scoped_key(s: &Server, scopes: &[&str]) -> String {
    let secret = crm_http::auth::new_secret().expect("randomness");
    let grant = crm_core::scope::Grant {
        scopes: crm_core::scope::Scopes::parse(scopes.iter().copied()).unwrap(),
        expires: None,
    };
    let id = s
        .store
        .create_api_key_with(
            "scoped",
            crm_core::ids::UserId::new(1).unwrap(),
            &crm_http::auth::digest(&secret),
            &grant,
        )
        .await
        .unwrap()
        .unwrap();
    crm_http::auth::key_text(id, &secret)
}

#[tokio::test]
async fn a_request_outside_the_keys_scopes_is_refused_from_the_cache_without_the_database() {
    let (s, relay) = behind_relay(&["--request-timeout", "2"]).await;
    let read = scoped_key(&s, &["read"]).await;
    assert_eq!(s.get("/api/notes", Some(&read)).status, 200);
    // The database stops answering: within the cache's 3 seconds the key's scopes are
    // read from memory, so a write it may not make is a 403 at once (a lookup would be a
    // 503 after the request timeout), its body never read.
    relay.freeze(true);
    let started = std::time::Instant::now();
    let refused = s.send(
        format!(
            "DELETE /api/notes/1 HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {read}\r\n\
             Connection: close\r\n\r\n"
        )
        .as_bytes(),
    );
    let elapsed = started.elapsed();
    relay.freeze(false);
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(
        refused.json(),
        serde_json::json!({"message": "This API key is not allowed to do this: it needs the notes:write scope (or write)."})
    );
    assert!(elapsed < std::time::Duration::from_secs(2), "{elapsed:?}");
}
