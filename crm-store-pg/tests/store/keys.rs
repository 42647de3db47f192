//! What a key is granted (API.md §15): scopes and expiry stored and read back, keys made
//! before scopes existed able to do everything, and the last use written in batches.

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use crm_core::ids::{ApiKeyId, UserId};
use crm_core::scope::{Grant, Scopes};

use crate::common::seeded;

fn minute(hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 25, hour, minute, 0).unwrap()
}

#[tokio::test]
async fn a_key_keeps_its_scopes_and_expiry() {
    let s = seeded().await;
    let expires = Utc::now() + TimeDelta::days(90);
    let grant = Grant {
        scopes: Scopes::parse(["read", "notes:write"]).unwrap(),
        expires: Some(expires),
    };
    let user = UserId::new(1).unwrap();
    let id = s
        .store
        .create_api_key_with("dashboard", user, &[9u8; 32], &grant)
        .await
        .unwrap()
        .unwrap();
    let stored = s.store.api_key(id).await.unwrap().unwrap();
    // Stored to the microsecond, as every timestamp.
    assert_eq!(stored.grant.scopes, grant.scopes);
    let kept = stored.grant.expires.unwrap();
    assert!(
        (kept - expires).num_microseconds().unwrap().abs() <= 1,
        "{kept} {expires}"
    );
    let listed = s.store.list_api_keys().await.unwrap();
    assert_eq!(listed[0].scopes.to_string(), "read,notes:write");
    assert_eq!(listed[0].expires.map(|t| t.0), Some(kept));
    assert_eq!(listed[0].last_used, None);
    // The plain constructor is what keys always were: everything, for ever.
    let plain = s
        .store
        .create_api_key("ci", user, &[8u8; 32])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        s.store.api_key(plain).await.unwrap().unwrap().grant,
        Grant::everything()
    );
}

#[tokio::test]
async fn a_row_written_without_scopes_may_do_everything_and_a_malformed_one_is_refused() {
    let s = seeded().await;
    let db = s.db.client().await.unwrap();
    // As a key made before migration 0021 (or stored by hand) is.
    let id: i64 = db
        .query_one(
            "INSERT INTO api_keys (name, digest, user_id) VALUES ('old', $1, 1) RETURNING id",
            &[&vec![5u8; 32]],
        )
        .await
        .unwrap()
        .get(0);
    let stored = s
        .store
        .api_key(ApiKeyId::new(id).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.grant, Grant::everything());
    for scopes in [
        "{}",
        "{READ}",
        "{notes}",
        "{\"notes: read\"}",
        "{read,NULL}",
    ] {
        let refused = db
            .execute(
                &format!("UPDATE api_keys SET scopes = '{scopes}' WHERE id = $1"),
                &[&id],
            )
            .await;
        assert!(refused.is_err(), "{scopes}");
    }
    // A scope of an area this version does not know is kept, and grants nothing here.
    db.execute(
        "UPDATE api_keys SET scopes = '{ledger:write,notes:read}' WHERE id = $1",
        &[&id],
    )
    .await
    .unwrap();
    let stored = s
        .store
        .api_key(ApiKeyId::new(id).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.grant.scopes.to_string(), "notes:read");
}

#[tokio::test]
async fn the_last_use_of_many_keys_is_one_statement_and_never_goes_back() {
    let s = seeded().await;
    let user = UserId::new(1).unwrap();
    let mut ids = Vec::new();
    for n in 0..3u8 {
        let id = s
            .store
            .create_api_key(&format!("k{n}"), user, &[n + 1; 32])
            .await
            .unwrap()
            .unwrap();
        ids.push(id);
    }
    let written = s
        .store
        .record_api_key_use(&[(ids[1], minute(9, 30)), (ids[0], minute(9, 31))])
        .await
        .unwrap();
    assert_eq!(written, 2);
    // An earlier minute (another instance's older batch) does not replace a later one.
    let written = s
        .store
        .record_api_key_use(&[(ids[0], minute(9, 5)), (ids[1], minute(9, 45))])
        .await
        .unwrap();
    assert_eq!(written, 1);
    assert_eq!(s.store.record_api_key_use(&[]).await.unwrap(), 0);
    let last: Vec<Option<DateTime<Utc>>> = s
        .store
        .list_api_keys()
        .await
        .unwrap()
        .iter()
        .map(|k| k.last_used.map(|t| t.0))
        .collect();
    assert_eq!(last, [Some(minute(9, 31)), Some(minute(9, 45)), None]);
}
