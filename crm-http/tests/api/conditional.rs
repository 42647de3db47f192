//! Safe retries and safe concurrent edits (API.md §11): `Idempotency-Key` on POST (replay,
//! reuse with another request, in progress, per-key scope, bad keys, what is not stored),
//! `ETag` on single-record answers, `If-None-Match` → 304, `If-Match` → 412 (and bad
//! header values). Every route's coverage is proved from the route table by
//! `sweep::every_write_endpoint_honours_if_match_and_idempotency_keys`.

use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Answer, Body, TestServer, form, id_of, json};

const REUSED: &str = "The idempotency key was already used for a different request.";
const IN_PROGRESS: &str = "A request with this idempotency key is still in progress.";
const CHANGED: &str = "The record was changed by someone else. Read it again and retry.";
const BAD_KEY: &str = "The Idempotency-Key header must be 1 to 255 visible ASCII characters.";

fn etag(a: &Answer) -> String {
    a.headers
        .get("etag")
        .unwrap_or_else(|| panic!("an ETag on {} {}", a.status, a.json))
        .to_str()
        .unwrap()
        .to_owned()
}

fn replayed(a: &Answer) -> bool {
    a.headers
        .get("idempotent-replayed")
        .is_some_and(|v| v == "true")
}

async fn post_note(s: &TestServer, key: &str, body: Body) -> Answer {
    s.call_with(
        &s.key,
        Method::POST,
        "/api/notes",
        body,
        &[("idempotency-key", key)],
    )
    .await
}

/// Creates a draft estimate of the first seeded client (no lines); returns its id.
async fn draft_estimate(s: &TestServer) -> i64 {
    let category = s.default_category("estimate").await.to_string();
    let client = s.ids.clients[0].id.to_string();
    let estimate = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", &client),
                ("bill_categoryid", &category),
                ("bill_date", "2026-11-01"),
            ]),
        )
        .await;
    assert_eq!(estimate.status, StatusCode::CREATED, "{}", estimate.json);
    id_of(estimate.data())
}

async fn notes_titled(s: &TestServer, title: &str) -> i64 {
    s.sql()
        .await
        .query_one("SELECT count(*) FROM notes WHERE title = $1", &[&title])
        .await
        .unwrap()
        .get(0)
}

#[tokio::test]
async fn a_retried_post_has_one_effect_and_gets_its_first_answer_again() {
    let s = TestServer::start().await;
    let first = post_note(
        &s,
        "retry-1",
        form(&[
            ("note_title", "Once"),
            ("note_description", "d"),
            ("tags[]", "a"),
            ("tags[]", "b"),
        ]),
    )
    .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.json);
    assert!(!replayed(&first));
    // The same form as JSON, its keys in another order: the same request.
    let again = post_note(
        &s,
        "retry-1",
        json(json!({"tags": ["a", "b"], "note_title": "Once", "note_description": "d"})),
    )
    .await;
    assert_eq!(again.status, StatusCode::CREATED);
    assert_eq!(again.json, first.json);
    assert!(replayed(&again));
    assert_eq!(etag(&again), etag(&first));
    // And as multipart.
    let third = s
        .call_with(
            &s.key,
            Method::POST,
            "/api/notes",
            crate::common::multipart(&[
                ("note_title", "Once"),
                ("note_description", "d"),
                ("tags[0]", "a"),
                ("tags[1]", "b"),
            ]),
            &[("idempotency-key", "retry-1")],
        )
        .await;
    assert!(replayed(&third));
    assert_eq!(notes_titled(&s, "Once").await, 1);
    // Without the header nothing changes: a second note.
    let plain = s
        .post(
            "/api/notes",
            form(&[("note_title", "Once"), ("note_description", "d")]),
        )
        .await;
    assert_eq!(plain.status, StatusCode::CREATED);
    assert!(!replayed(&plain));
    assert_eq!(notes_titled(&s, "Once").await, 2);
}

#[tokio::test]
async fn a_retried_conversion_gets_its_201_again_not_a_409() {
    let s = TestServer::start().await;
    let estimate = draft_estimate(&s).await;
    let path = format!("/api/estimates/{estimate}/convert-to-invoice");
    let headers = [("idempotency-key", "convert-7")];
    let first = s
        .call_with(&s.key, Method::POST, &path, Body::None, &headers)
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.json);
    let again = s
        .call_with(&s.key, Method::POST, &path, Body::None, &headers)
        .await;
    assert_eq!(
        (again.status, &again.json),
        (StatusCode::CREATED, &first.json)
    );
    assert!(replayed(&again));
    // Without the key, the retry is the business conflict it always was.
    assert_eq!(s.post(&path, Body::None).await.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_key_used_for_another_request_is_a_422_and_writes_nothing() {
    let s = TestServer::start().await;
    assert_eq!(
        post_note(
            &s,
            "k",
            form(&[("note_title", "First"), ("note_description", "d")])
        )
        .await
        .status,
        StatusCode::CREATED
    );
    for (method, path, body) in [
        (
            Method::POST,
            "/api/notes",
            form(&[("note_title", "Second"), ("note_description", "d")]),
        ),
        (
            Method::POST,
            "/api/notes",
            form(&[
                ("note_title", "First"),
                ("note_description", "d"),
                ("note_description", "more"),
            ]),
        ),
        (
            Method::POST,
            "/api/contracts",
            form(&[("note_title", "First"), ("note_description", "d")]),
        ),
    ] {
        let a = s
            .call_with(&s.key, method, path, body, &[("idempotency-key", "k")])
            .await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{path}: {}",
            a.json
        );
        assert_eq!(
            a.json,
            json!({"message": REUSED, "errors": {"Idempotency-Key": [REUSED]}})
        );
    }
    assert_eq!(notes_titled(&s, "Second").await, 0);
    assert_eq!(
        s.scalar("SELECT count(*) FROM contracts WHERE $1::bigint > 0", 1)
            .await,
        0
    );
}

#[tokio::test]
async fn keys_are_scoped_to_the_api_key() {
    let s = TestServer::start().await;
    let other = s.key_for(1).await;
    let body = || form(&[("note_title", "Scoped"), ("note_description", "d")]);
    let mine = post_note(&s, "shared", body()).await;
    let theirs = s
        .call_with(
            &other,
            Method::POST,
            "/api/notes",
            body(),
            &[("idempotency-key", "shared")],
        )
        .await;
    assert_eq!(theirs.status, StatusCode::CREATED);
    assert!(!replayed(&theirs));
    assert_ne!(id_of(mine.data()), id_of(theirs.data()));
    assert_eq!(notes_titled(&s, "Scoped").await, 2);
}

#[tokio::test]
async fn refusals_are_stored_like_any_answer_and_expired_keys_are_forgotten() {
    let s = TestServer::start().await;
    // A 422 is the key's answer: the same request gets it again, replayed; a corrected
    // request needs a new key (only 5xx answers are not stored).
    let refused = post_note(&s, "fix-me", form(&[("note_description", "no title")])).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!replayed(&refused));
    let again = post_note(&s, "fix-me", form(&[("note_description", "no title")])).await;
    assert_eq!((again.status, &again.json), (refused.status, &refused.json));
    assert!(replayed(&again));
    let fixed = post_note(
        &s,
        "fix-me",
        form(&[("note_title", "Fixed"), ("note_description", "d")]),
    )
    .await;
    assert_eq!(fixed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(fixed.json["message"], REUSED);
    assert_eq!(notes_titled(&s, "Fixed").await, 0);
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM idempotency_keys WHERE $1::bigint > 0",
            1
        )
        .await,
        1
    );
    // 24 hours later the key is free again (the record met expired is deleted).
    s.sql()
        .await
        .execute(
            "UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second'",
            &[],
        )
        .await
        .unwrap();
    let later = post_note(
        &s,
        "fix-me",
        form(&[("note_title", "Fixed"), ("note_description", "d")]),
    )
    .await;
    assert_eq!(later.status, StatusCode::CREATED);
    assert!(!replayed(&later));
    assert_eq!(notes_titled(&s, "Fixed").await, 1);
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM idempotency_keys WHERE $1::bigint > 0",
            1
        )
        .await,
        1
    );
    // The sweep `crm serve` runs deletes what has expired, and only that.
    s.sql()
        .await
        .execute(
            "UPDATE idempotency_keys SET created_at = now() - interval '25 hours'",
            &[],
        )
        .await
        .unwrap();
    post_note(
        &s,
        "fresh",
        form(&[("note_title", "Fresh"), ("note_description", "d")]),
    )
    .await;
    assert_eq!(s.store.purge_expired_idempotency_keys().await.unwrap(), 1);
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM idempotency_keys WHERE $1::bigint > 0",
            1
        )
        .await,
        1
    );
}

/// A business conflict is the key's answer too: once the draft is published, the retried
/// send-email still gets its 409 and queues nothing (a retry never does what the first
/// attempt was refused).
#[tokio::test]
async fn a_refused_action_retried_after_the_state_changed_gets_its_refusal_again() {
    let s = TestServer::start().await;
    let id = draft_estimate(&s).await;
    let send = format!("/api/estimates/{id}/send-email");
    let headers = [("idempotency-key", "send-1")];
    let first = s
        .call_with(&s.key, Method::POST, &send, Body::None, &headers)
        .await;
    assert_eq!(first.status, StatusCode::CONFLICT, "{}", first.json);
    let published = s
        .put(&format!("/api/estimates/{id}/publish"), Body::None)
        .await;
    assert_eq!(published.status, StatusCode::OK, "{}", published.json);
    let queued =
        "SELECT count(*) FROM email_queue WHERE resource_type = 'estimate' AND resource_id = $1";
    assert_eq!(s.scalar(queued, id).await, 1, "publishing queued one");
    let retried = s
        .call_with(&s.key, Method::POST, &send, Body::None, &headers)
        .await;
    assert_eq!((retried.status, &retried.json), (first.status, &first.json));
    assert!(replayed(&retried));
    assert_eq!(s.scalar(queued, id).await, 1, "the retry queued nothing");
    // A new key is a new request: send-email queues its own email beside publish's.
    let fresh = s
        .call_with(
            &s.key,
            Method::POST,
            &send,
            Body::None,
            &[("idempotency-key", "send-2")],
        )
        .await;
    assert_eq!(fresh.status, StatusCode::OK, "{}", fresh.json);
    assert_eq!(s.scalar(queued, id).await, 2);
}

#[tokio::test]
async fn malformed_idempotency_keys_are_422_naming_the_header_and_write_nothing() {
    let s = TestServer::start().await;
    let long = "k".repeat(256);
    for key in ["", "two words", long.as_str(), "clé", "tab\tkey"] {
        let a = post_note(
            &s,
            key,
            form(&[("note_title", "Bad key"), ("note_description", "d")]),
        )
        .await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{key:?}: {}",
            a.json
        );
        assert_eq!(
            a.json,
            json!({"message": "The given data was invalid.", "errors": {"Idempotency-Key": [BAD_KEY]}}),
            "{key:?}"
        );
    }
    assert_eq!(notes_titled(&s, "Bad key").await, 0);
    let longest = "k".repeat(255);
    assert_eq!(
        post_note(
            &s,
            &longest,
            form(&[("note_title", "Bad key"), ("note_description", "d")])
        )
        .await
        .status,
        StatusCode::CREATED
    );
    // Other methods ignore the header.
    let id = id_of(
        s.post(
            "/api/notes",
            form(&[("note_title", "N"), ("note_description", "d")]),
        )
        .await
        .data(),
    );
    let a = s
        .call_with(
            &s.key,
            Method::PUT,
            &format!("/api/notes/{id}/tags"),
            form(&[("tags[]", "x")]),
            &[("idempotency-key", "")],
        )
        .await;
    assert_eq!(a.status, StatusCode::OK);
}

#[tokio::test]
async fn a_key_in_progress_is_a_409_and_the_first_request_still_wins() {
    let s = TestServer::start().await;
    // Hold the notes table so the first request waits inside its transaction, holding
    // its key.
    let mut blocker = s.sql().await;
    let hold = blocker.transaction().await.unwrap();
    hold.batch_execute("LOCK TABLE notes IN EXCLUSIVE MODE")
        .await
        .unwrap();
    let first = post_note(
        &s,
        "slow",
        form(&[("note_title", "Slow"), ("note_description", "d")]),
    );
    let second = async {
        let watcher = s.sql().await;
        loop {
            let held: i64 = watcher
                .query_one(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted \
                     AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                    &[],
                )
                .await
                .unwrap()
                .get(0);
            if held > 0 {
                break;
            }
            tokio::task::yield_now().await;
        }
        let a = post_note(
            &s,
            "slow",
            form(&[("note_title", "Slow"), ("note_description", "d")]),
        )
        .await;
        hold.rollback().await.unwrap();
        a
    };
    let (first, second) = tokio::join!(first, second);
    assert_eq!(second.status, StatusCode::CONFLICT, "{}", second.json);
    assert_eq!(second.json, json!({"message": IN_PROGRESS}));
    assert_eq!(first.status, StatusCode::CREATED);
    let third = post_note(
        &s,
        "slow",
        form(&[("note_title", "Slow"), ("note_description", "d")]),
    )
    .await;
    assert!(replayed(&third));
    assert_eq!(notes_titled(&s, "Slow").await, 1);
}

#[tokio::test]
async fn concurrent_posts_with_one_key_have_one_effect() {
    let s = TestServer::start().await;
    let answers = join_all((0..8).map(|_| {
        post_note(
            &s,
            "together",
            form(&[("note_title", "Together"), ("note_description", "d")]),
        )
    }))
    .await;
    assert_eq!(notes_titled(&s, "Together").await, 1);
    let first: Vec<&Answer> = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED && !replayed(a))
        .collect();
    assert_eq!(first.len(), 1, "{answers:?}");
    for a in &answers {
        match a.status {
            StatusCode::CREATED => assert_eq!(a.json, first[0].json),
            StatusCode::CONFLICT => assert_eq!(a.json, json!({"message": IN_PROGRESS})),
            other => panic!("{other}: {}", a.json),
        }
    }
}

#[tokio::test]
async fn single_records_carry_an_etag_that_if_none_match_turns_into_a_304() {
    let s = TestServer::start().await;
    let created = s
        .post(
            "/api/notes",
            form(&[("note_title", "Tagged"), ("note_description", "d")]),
        )
        .await;
    let id = id_of(created.data());
    let path = format!("/api/notes/{id}");
    let got = s.get(&path).await;
    let tag = etag(&got);
    assert!(
        tag.starts_with('"') && tag.ends_with('"') && tag.len() > 2,
        "{tag}"
    );
    assert_eq!(
        etag(&created),
        tag,
        "the write's answer is the record GET shows"
    );
    // Lists have no ETag.
    assert!(s.get("/api/notes").await.headers.get("etag").is_none());
    let weak = format!("W/{tag}");
    for inm in [
        tag.as_str(),
        "*",
        &format!("\"other\", {tag}"),
        weak.as_str(),
    ] {
        for method in [Method::GET, Method::HEAD] {
            let response = s
                .http
                .request(method.clone(), format!("{}{path}", s.base))
                .bearer_auth(&s.key)
                .header("if-none-match", inm)
                .send()
                .await
                .unwrap();
            assert_eq!(
                response.status(),
                StatusCode::NOT_MODIFIED,
                "{method} {inm}"
            );
            assert_eq!(response.headers()["etag"], tag.as_str());
            assert!(response.headers().get("content-type").is_none());
            assert!(response.bytes().await.unwrap().is_empty());
        }
    }
    let a = s
        .call_with(
            &s.key,
            Method::GET,
            &path,
            Body::None,
            &[("if-none-match", "\"other\"")],
        )
        .await;
    assert_eq!(a.status, StatusCode::OK);
    // Tags are part of the representation.
    let tagged = s
        .put(&format!("{path}/tags"), form(&[("tags[]", "x")]))
        .await;
    assert_ne!(etag(&tagged), tag);
    assert_eq!(etag(&s.get(&path).await), etag(&tagged));
    let a = s
        .call_with(
            &s.key,
            Method::GET,
            &path,
            Body::None,
            &[("if-none-match", &tag)],
        )
        .await;
    assert_eq!(a.status, StatusCode::OK);
    // A malformed list is a 400 naming the header.
    let a = s
        .call_with(
            &s.key,
            Method::GET,
            &path,
            Body::None,
            &[("if-none-match", "no-quotes")],
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        a.message(),
        "The If-None-Match header must be * or a list of entity tags."
    );
}

#[tokio::test]
async fn an_estimates_etag_follows_its_lines_totals_and_derived_status() {
    let s = TestServer::start().await;
    let category = s.default_category("estimate").await.to_string();
    let client = s.ids.clients[0].id.to_string();
    let today = chrono::Local::now().date_naive();
    let later = (today + chrono::Days::new(30)).to_string();
    let e = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", &client),
                ("bill_categoryid", &category),
                ("bill_date", &today.to_string()),
                ("bill_expiry_date", &later),
            ]),
        )
        .await;
    let id = id_of(e.data());
    let path = format!("/api/estimates/{id}");
    let t0 = etag(&s.get(&path).await);
    let lines = s
        .put(
            &format!("{path}/items"),
            form(&[
                ("items[0][description]", "Design"),
                ("items[0][quantity]", "2"),
                ("items[0][rate]", "10"),
            ]),
        )
        .await;
    let t1 = etag(&lines);
    assert_ne!(t1, t0);
    assert_eq!(etag(&s.get(&path).await), t1);
    s.sql()
        .await
        .execute(
            "UPDATE estimates SET status = 'new', date = $2, expiry_date = $2 WHERE id = $1",
            &[&id, &(today - chrono::Days::new(1))],
        )
        .await
        .unwrap();
    let expired = s.get(&path).await;
    assert_eq!(expired.data()["status"], "expired");
    assert_ne!(etag(&expired), t1);
}

#[tokio::test]
async fn a_stale_if_match_is_a_412_and_writes_nothing() {
    let s = TestServer::start().await;
    let id = id_of(
        s.post(
            "/api/notes",
            form(&[("note_title", "Base"), ("note_description", "d")]),
        )
        .await
        .data(),
    );
    let path = format!("/api/notes/{id}");
    let v1 = etag(&s.get(&path).await);
    let patch = |title: &'static str, if_match: String| {
        let path = path.clone();
        let s = &s;
        async move {
            s.call_with(
                &s.key,
                Method::PATCH,
                &path,
                form(&[("note_title", title), ("note_description", "d")]),
                &[("if-match", &if_match)],
            )
            .await
        }
    };
    let ok = patch("Mine", v1.clone()).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.json);
    let v2 = etag(&ok);
    let stale = patch("Theirs", v1.clone()).await;
    assert_eq!(stale.status, StatusCode::PRECONDITION_FAILED);
    assert_eq!(stale.json, json!({"message": CHANGED}));
    assert_eq!(s.get(&path).await.data()["title"], "Mine");
    // A list naming the current tag, and `*`, pass; a weak tag never does.
    assert_eq!(
        patch("Listed", format!("\"x\", {v2}")).await.status,
        StatusCode::OK
    );
    assert_eq!(patch("Any", "*".into()).await.status, StatusCode::OK);
    let v3 = etag(&s.get(&path).await);
    assert_eq!(
        patch("Weak", format!("W/{v3}")).await.status,
        StatusCode::PRECONDITION_FAILED
    );
    // A malformed header is a 400 naming it.
    let bad = patch("Bad", "not-a-tag".into()).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        bad.message(),
        "The If-Match header must be * or a list of entity tags."
    );
    // DELETE: a stale tag keeps the note.
    let a = s
        .call_with(
            &s.key,
            Method::DELETE,
            &path,
            Body::None,
            &[("if-match", &v1)],
        )
        .await;
    assert_eq!(a.status, StatusCode::PRECONDITION_FAILED);
    assert_eq!(s.get(&path).await.status, StatusCode::OK);
    let a = s
        .call_with(
            &s.key,
            Method::DELETE,
            &path,
            Body::None,
            &[("if-match", &v3)],
        )
        .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(s.get(&path).await.status, StatusCode::NOT_FOUND);
    // On a missing record, 404 wins.
    let a = s
        .call_with(
            &s.key,
            Method::DELETE,
            &path,
            Body::None,
            &[("if-match", &v3)],
        )
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn two_editors_from_one_version_cannot_both_win() {
    let s = TestServer::start().await;
    let id = id_of(
        s.post(
            "/api/notes",
            form(&[("note_title", "Shared"), ("note_description", "d")]),
        )
        .await
        .data(),
    );
    let path = format!("/api/notes/{id}");
    let v1 = etag(&s.get(&path).await);
    let titles: Vec<String> = (0..6).map(|n| format!("Editor {n}")).collect();
    let headers = [("if-match", v1.as_str())];
    let answers = join_all(titles.iter().map(|title| {
        s.call_with(
            &s.key,
            Method::PATCH,
            &path,
            form(&[("note_title", title), ("note_description", "d")]),
            &headers,
        )
    }))
    .await;
    let winners: Vec<&Answer> = answers
        .iter()
        .filter(|a| a.status == StatusCode::OK)
        .collect();
    assert_eq!(winners.len(), 1, "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|a| a.status == StatusCode::OK || a.status == StatusCode::PRECONDITION_FAILED)
    );
    assert_eq!(
        s.get(&path).await.data()["title"],
        winners[0].data()["title"]
    );
}

#[tokio::test]
async fn the_milestone_reorder_compares_the_projects_milestones() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let ids: Vec<i64> = s
        .ids
        .milestones
        .iter()
        .filter(|m| m.project_id == project)
        .map(|m| m.id)
        .collect();
    assert!(ids.len() >= 2);
    let body = |order: &[i64]| json(json!({"milestones": order}));
    let first = s.put("/api/milestones/positions", body(&ids)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.json);
    let v1 = etag(&first);
    let reversed: Vec<i64> = ids.iter().rev().copied().collect();
    let a = s
        .call_with(
            &s.key,
            Method::PUT,
            "/api/milestones/positions",
            body(&reversed),
            &[("if-match", &v1)],
        )
        .await;
    assert_eq!(a.status, StatusCode::OK);
    // Someone else's reorder happened since v1.
    let a = s
        .call_with(
            &s.key,
            Method::PUT,
            "/api/milestones/positions",
            body(&ids),
            &[("if-match", &v1)],
        )
        .await;
    assert_eq!(a.status, StatusCode::PRECONDITION_FAILED);
    let now: Vec<i64> = s
        .get(&format!("/api/milestones?project_id={project}"))
        .await
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(id_of)
        .collect();
    assert_eq!(&now[..reversed.len()], &reversed[..]);
}
