//! Key authority (defect 4): a key acts as one administrative user, so it stops working
//! when its user is no longer an administrator — within the key cache's 3 seconds.

use crate::common::Server;

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
        serde_json::json!({"message": "Unauthorized. A valid API key is required."})
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
