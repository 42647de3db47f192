//! Idempotency claims and `If-Match` preconditions (`crm_store_pg::conditions`): the stored
//! answer commits with the write's effect or not at all (a failure forced after the effect
//! by a constraint of the test database rolls both back), a replay or a reused key found
//! when the key is claimed, one effect for concurrent requests with one key, exactly one
//! winner among concurrent writers from one version.

use crm_core::ids::{ApiKeyId, NoteId, UserId};
use crm_core::note::{NewNote, NoteUpdate};
use crm_store_pg::{Answer, Claim, Claimed, Conditions, IfMatch, StoreError, etag};
use futures_util::future::join_all;

use crate::common::{Seeded, ctx, raw, seeded};

async fn api_key(s: &Seeded) -> ApiKeyId {
    s.store
        .create_api_key("test", UserId::new(1).unwrap(), &[7; 32])
        .await
        .unwrap()
        .unwrap()
}

fn key_claim(key: ApiKeyId, text: &str, fingerprint: &[u8]) -> Claim {
    Claim {
        api_key: key.get(),
        key: text.to_owned(),
        fingerprint: fingerprint.to_vec(),
    }
}

/// What claiming the key finds.
async fn claimed(s: &Seeded, key: ApiKeyId, text: &str, fingerprint: &[u8]) -> Claimed {
    s.store
        .claim(key_claim(key, text, fingerprint))
        .await
        .unwrap()
}

/// The conditions of a request that claimed the key; panics when the key is not free.
async fn claim(s: &Seeded, key: ApiKeyId, text: &str, fingerprint: &[u8]) -> Conditions {
    match claimed(s, key, text, fingerprint).await {
        Claimed::Taken(ticket) => Conditions {
            ticket: Some(ticket),
            if_match: None,
        },
        other => panic!("the key {text} is not free: {other:?}"),
    }
}

fn new_note(title: &str) -> NewNote {
    NewNote::parse(&raw(&[("note_title", title), ("note_description", "d")])).unwrap()
}

fn answer(status: u16) -> Answer {
    Answer {
        status,
        body: b"{\"data\":{}}".to_vec(),
        etag: Some("\"e\"".to_owned()),
    }
}

async fn notes_titled(s: &Seeded, title: &str) -> i64 {
    s.sql()
        .await
        .query_one("SELECT count(*) FROM notes WHERE title = $1", &[&title])
        .await
        .unwrap()
        .get(0)
}

#[tokio::test]
async fn the_answer_and_the_effect_commit_together() {
    let s = seeded().await;
    let key = api_key(&s).await;
    let cmd = new_note("Claimed");
    let (created, pending) = s
        .store
        .within(
            claim(&s, key, "k1", b"fp").await,
            s.store.create_note(ctx(), &cmd),
        )
        .await;
    created.unwrap();
    assert!(pending.is_open());
    // Not visible before the answer is stored.
    assert_eq!(notes_titled(&s, "Claimed").await, 0);
    assert_eq!(s.scalar("SELECT count(*) FROM idempotency_keys").await, 0);
    pending.commit(Some(&answer(201))).await.unwrap();
    assert_eq!(notes_titled(&s, "Claimed").await, 1);
    assert!(matches!(
        claimed(&s, key, "k1", b"fp").await,
        Claimed::Replay(a) if a == answer(201)
    ));
    assert!(matches!(
        claimed(&s, key, "k1", b"other").await,
        Claimed::KeyReused
    ));
}

#[tokio::test]
async fn a_failure_after_the_effect_rolls_back_the_effect_and_the_answer() {
    let s = seeded().await;
    let key = api_key(&s).await;
    // A failure the test database forces after the effect: storing a 299 breaks a
    // constraint only this database has.
    s.exec("ALTER TABLE idempotency_keys ADD CONSTRAINT test_no_299 CHECK (status <> 299)")
        .await;
    let cmd = new_note("Doomed");
    let (created, pending) = s
        .store
        .within(
            claim(&s, key, "k2", b"fp").await,
            s.store.create_note(ctx(), &cmd),
        )
        .await;
    created.unwrap();
    let failed = pending.commit(Some(&answer(299))).await;
    assert!(failed.is_err(), "{failed:?}");
    assert_eq!(notes_titled(&s, "Doomed").await, 0);
    assert_eq!(s.scalar("SELECT count(*) FROM idempotency_keys").await, 0);
    // A 5xx (or any failed handler) rolls back the same way, storing nothing.
    let (created, pending) = s
        .store
        .within(
            claim(&s, key, "k2", b"fp").await,
            s.store.create_note(ctx(), &cmd),
        )
        .await;
    created.unwrap();
    pending.rollback().await;
    assert_eq!(notes_titled(&s, "Doomed").await, 0);
    assert_eq!(s.scalar("SELECT count(*) FROM idempotency_keys").await, 0);
    // The key is free: the request can still succeed.
    let (created, pending) = s
        .store
        .within(
            claim(&s, key, "k2", b"fp").await,
            s.store.create_note(ctx(), &cmd),
        )
        .await;
    created.unwrap();
    pending.commit(Some(&answer(201))).await.unwrap();
    assert_eq!(notes_titled(&s, "Doomed").await, 1);
}

#[tokio::test]
async fn under_the_lock_a_stored_answer_is_replayed_and_another_request_refused() {
    let s = seeded().await;
    let key = api_key(&s).await;
    let cmd = new_note("Once");
    let (created, pending) = s
        .store
        .within(
            claim(&s, key, "k3", b"fp").await,
            s.store.create_note(ctx(), &cmd),
        )
        .await;
    created.unwrap();
    pending.commit(Some(&answer(201))).await.unwrap();
    let again = claimed(&s, key, "k3", b"fp").await;
    assert!(
        matches!(&again, Claimed::Replay(a) if *a == answer(201)),
        "{again:?}"
    );
    let other = claimed(&s, key, "k3", b"fp2").await;
    assert!(matches!(other, Claimed::KeyReused), "{other:?}");
    assert_eq!(notes_titled(&s, "Once").await, 1);
    // Past 24 hours the stored answer is deleted when met, and the key is free again.
    s.exec("UPDATE idempotency_keys SET created_at = now() - interval '25 hours'")
        .await;
    let (created, pending) = s
        .store
        .within(
            claim(&s, key, "k3", b"fp2").await,
            s.store.create_note(ctx(), &cmd),
        )
        .await;
    created.unwrap();
    pending.commit(Some(&answer(201))).await.unwrap();
    assert_eq!(notes_titled(&s, "Once").await, 2);
    assert_eq!(s.scalar("SELECT count(*) FROM idempotency_keys").await, 1);
}

#[tokio::test]
async fn concurrent_requests_with_one_key_have_one_effect() {
    let s = seeded().await;
    let key = api_key(&s).await;
    let cmd = new_note("Racing");
    let outcomes = join_all((0..8).map(|_| async {
        let ticket = match claimed(&s, key, "k4", b"fp").await {
            Claimed::Taken(ticket) => ticket,
            Claimed::InProgress => return Ok("in progress"),
            Claimed::Replay(_) => return Ok("replayed"),
            Claimed::KeyReused => return Ok("reused"),
        };
        let conditions = Conditions {
            ticket: Some(ticket),
            if_match: None,
        };
        let (created, pending) = s
            .store
            .within(conditions, s.store.create_note(ctx(), &cmd))
            .await;
        match created {
            Ok(_) => pending.commit(Some(&answer(201))).await.map(|()| "created"),
            Err(other) => Err(other),
        }
    }))
    .await;
    let outcomes: Vec<&str> = outcomes.into_iter().map(Result::unwrap).collect();
    assert_eq!(
        outcomes.iter().filter(|o| **o == "created").count(),
        1,
        "{outcomes:?}"
    );
    assert_eq!(notes_titled(&s, "Racing").await, 1);
    assert_eq!(s.scalar("SELECT count(*) FROM idempotency_keys").await, 1);
}

#[tokio::test]
async fn concurrent_writers_from_one_version_have_one_winner() {
    let s = seeded().await;
    let note = s
        .store
        .create_note(ctx(), &new_note("Shared"))
        .await
        .unwrap();
    let id: NoteId = note.id;
    let version = etag(&note).unwrap();
    let updates: Vec<NoteUpdate> = (0..8)
        .map(|n| {
            NoteUpdate::parse(&raw(&[
                ("note_title", &format!("Writer {n}")),
                ("note_description", "d"),
            ]))
            .unwrap()
        })
        .collect();
    let outcomes = join_all(updates.iter().map(|cmd| async {
        let conditions = Conditions {
            ticket: None,
            if_match: Some(IfMatch::Tags(vec![version.clone()])),
        };
        let (updated, pending) = s
            .store
            .within(conditions, s.store.update_note(ctx(), id, cmd))
            .await;
        assert!(pending.precondition_checked());
        updated
    }))
    .await;
    let winners: Vec<_> = outcomes.iter().filter_map(|o| o.as_ref().ok()).collect();
    assert_eq!(winners.len(), 1, "{outcomes:?}");
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o, Ok(_) | Err(StoreError::PreconditionFailed)))
    );
    let stored = s.store.note(ctx(), id).await.unwrap();
    assert_eq!(stored.title, winners[0].title);
    // The winner's answer carries the tag of what is stored now.
    assert_eq!(etag(&stored).unwrap(), etag(winners[0]).unwrap());
    // Without `If-Match` the read is never made and writes behave as before.
    let (updated, pending) = s
        .store
        .within(
            Conditions::default(),
            s.store.update_note(ctx(), id, &updates[0]),
        )
        .await;
    updated.unwrap();
    assert!(!pending.precondition_checked());
}

#[tokio::test]
async fn a_claimed_request_that_writes_nothing_stores_its_answer_alone() {
    let s = seeded().await;
    let key = api_key(&s).await;
    let (outcome, pending) = s
        .store
        .within(claim(&s, key, "k5", b"fp").await, async { 200 })
        .await;
    assert_eq!(outcome, 200);
    // The key stays held until the answer is stored.
    assert!(matches!(
        claimed(&s, key, "k5", b"fp").await,
        Claimed::InProgress
    ));
    pending.commit(Some(&answer(200))).await.unwrap();
    assert!(matches!(
        claimed(&s, key, "k5", b"fp").await,
        Claimed::Replay(a) if a == answer(200)
    ));
}
