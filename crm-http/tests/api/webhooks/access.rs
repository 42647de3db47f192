//! What an endpoint may receive (issue 47): an endpoint belongs to the key that registered
//! it, and receives only what that key could `GET` — the areas its scopes allow, never
//! another user's private note — and nothing once the key is revoked or expired.

use std::collections::{BTreeMap, BTreeSet};

use reqwest::Method;
use serde_json::{Value, json};

use super::{Worker, server};
use crate::common::*;
use crate::receiver::{Receiver, eventually};

/// Registers an endpoint with `key`; gives the answer.
async fn register(s: &TestServer, key: &str, url: &str, events: &[&str]) -> Answer {
    s.call_as(
        key,
        Method::POST,
        "/api/webhooks",
        json(json!({"url": url, "events": events})),
    )
    .await
}

/// Registers an endpoint with `key`; gives its id.
async fn registered(s: &TestServer, key: &str, url: &str, events: &[&str]) -> i64 {
    let a = register(s, key, url, events).await;
    assert_eq!(a.status, 201, "{:?}", a.json);
    id_of(a.data())
}

async fn count(s: &TestServer, sql: &str) -> i64 {
    s.sql().await.query_one(sql, &[]).await.unwrap().get(0)
}

/// Waits until every event has been fanned out and every delivery has been made.
async fn settled(s: &TestServer) {
    eventually("every event fanned out and delivered", || async {
        let left = count(
            s,
            "SELECT (SELECT count(*) FROM webhook_events WHERE message_id IS NULL) \
             + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')",
        )
        .await;
        (left == 0).then_some(())
    })
    .await;
}

/// The endpoint a request went to: the last segment of its path (`<receiver>/<name>`).
fn endpoint_name(got: &crate::receiver::Got) -> String {
    got.path.rsplit('/').next().unwrap_or_default().to_owned()
}

/// The event types each endpoint of the receiver got, by name.
fn received(receiver: &Receiver) -> BTreeMap<String, BTreeSet<String>> {
    let mut by_name: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for got in receiver.got() {
        let kind = got.json()["type"].as_str().unwrap().to_owned();
        by_name.entry(endpoint_name(&got)).or_default().insert(kind);
    }
    by_name
}

/// One change in every area of records: a category, a contract, a milestone, a note, an
/// estimate converted to an invoice, and a published invoice with a payment and a credit
/// note.
async fn a_change_in_every_area(s: &TestServer) {
    s.created(
        "/api/categories",
        json!({"category_name": "Hooks", "category_type": "project"}),
    )
    .await;
    let contract_category = s.default_category("contract").await;
    s.created(
        "/api/contracts",
        json!({"doc_client_id": client(s, 0), "doc_title": "Hooks", "doc_date_start": "2026-11-01",
               "doc_categoryid": contract_category}),
    )
    .await;
    s.created(
        "/api/milestones",
        json!({"milestone_projectid": s.ids.projects[0], "milestone_title": "Hooks", "milestone_color": "info"}),
    )
    .await;
    s.created(
        "/api/notes",
        json!({"note_title": "Hooks", "note_description": "shared", "note_visibility": "public"}),
    )
    .await;
    let estimate = s
        .created(
            "/api/estimates",
            json!({"bill_clientid": client(s, 0), "bill_categoryid": s.default_category("estimate").await,
                   "bill_date": today().to_string()}),
        )
        .await;
    let a = s
        .post(
            &format!("/api/estimates/{estimate}/convert-to-invoice"),
            json(json!({})),
        )
        .await;
    assert!(a.status.is_success(), "{:?}", a.json);
    let invoice = crate::payments::published(s, 0, "50").await;
    let a = s
        .post(
            "/api/payments",
            json(json!({"payment_invoiceid": invoice, "payment_amount": "10.00", "payment_date": "2026-11-02"})),
        )
        .await;
    assert_eq!(a.status, 201, "{:?}", a.json);
    let a = s
        .post(
            &format!("/api/invoices/{invoice}/credit-notes"),
            json(json!({"reason": "Hooks", "items": [{"description": "Hooks", "quantity": 1, "rate": 5}]})),
        )
        .await;
    assert_eq!(a.status, 201, "{:?}", a.json);
}

/// The area named by an event type's prefix (`estimate.converted` → `estimates`).
fn area_of(kind: &str) -> String {
    match kind.split_once('.').unwrap().0 {
        "category" => "categories".to_owned(),
        "credit_note" => "credit-notes".to_owned(),
        other => format!("{other}s"),
    }
}

#[tokio::test]
async fn a_key_receives_the_events_of_exactly_the_areas_it_may_read() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    let areas = [
        "categories",
        "contracts",
        "estimates",
        "invoices",
        "milestones",
        "notes",
        "payments",
        "credit-notes",
        "emails",
    ];
    // One `*` endpoint per scope, each at its own path: a key of that area's read scope
    // that may also manage webhooks, one that may only manage webhooks, and one that reads
    // everything.
    for area in areas {
        let scope = format!("{area}:read");
        let key = s.key_with(&["webhooks:write", &scope], None).await;
        registered(&s, &key, &format!("{}/{area}", receiver.url()), &["*"]).await;
    }
    let hooks_only = s.key_with(&["webhooks:write"], None).await;
    registered(&s, &hooks_only, &format!("{}/none", receiver.url()), &["*"]).await;
    let everything = s.key_with(&["read", "webhooks:write"], None).await;
    registered(&s, &everything, &format!("{}/all", receiver.url()), &["*"]).await;
    let worker = Worker::start(&s);
    a_change_in_every_area(&s).await;
    settled(&s).await;
    worker.stop().await;

    let got = received(&receiver);
    let all = got.get("all").cloned().unwrap_or_default();
    for kind in [
        "category.created",
        "contract.created",
        "milestone.created",
        "note.created",
        "estimate.created",
        "estimate.converted",
        "invoice.created",
        "invoice.published",
        "payment.created",
        "credit_note.issued",
    ] {
        assert!(
            all.contains(kind),
            "the `read` key's endpoint got {kind}: {all:?}"
        );
    }
    assert!(
        !got.contains_key("none"),
        "a key that may only manage webhooks receives nothing: {:?}",
        got.get("none")
    );
    for area in areas {
        let mine = got.get(area).cloned().unwrap_or_default();
        // What the `read` endpoint got of this area, but a conversion, which also carries
        // an invoice.
        let expected: BTreeSet<String> = all
            .iter()
            .filter(|k| area_of(k) == area && k.as_str() != "estimate.converted")
            .cloned()
            .collect();
        assert_eq!(mine, expected, "the {area}:read key's endpoint");
    }
    // Both areas of a conversion: the event reaches a key that reads both.
    assert!(
        all.contains("estimate.converted")
            && !got["estimates"].contains("estimate.converted")
            && !got["invoices"].contains("estimate.converted")
    );
}

#[tokio::test]
async fn another_users_private_note_never_reaches_an_endpoint_and_ones_own_does() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    let mine = s.key_for(s.ids.admins[0]).await;
    let jane = s.key_for(s.ids.admins[1]).await;
    registered(&s, &mine, &format!("{}/mine", receiver.url()), &["*"]).await;
    registered(&s, &jane, &format!("{}/jane", receiver.url()), &["*"]).await;
    let worker = Worker::start(&s);
    let note = |key: &str, title: &str, visibility: &str| {
        let body = json(
            json!({"note_title": title, "note_description": "d", "note_visibility": visibility}),
        );
        let key = key.to_owned();
        let s = &s;
        async move {
            let a = s.call_as(&key, Method::POST, "/api/notes", body).await;
            assert_eq!(a.status, 201, "{:?}", a.json);
            id_of(a.data())
        }
    };
    let secret = note(&jane, "Jane's secret", "private").await;
    let shared = note(&jane, "Jane's shared", "public").await;
    let own = note(&mine, "My own secret", "private").await;
    for id in [secret, shared] {
        let a = s
            .call_as(
                &jane,
                Method::PATCH,
                &format!("/api/notes/{id}"),
                json(json!({"note_title": "Changed", "note_description": "again"})),
            )
            .await;
        assert_eq!(a.status, 200, "{:?}", a.json);
    }
    let a = s
        .call_as(
            &jane,
            Method::DELETE,
            &format!("/api/notes/{secret}"),
            Body::None,
        )
        .await;
    assert_eq!(a.status, 200);
    settled(&s).await;
    worker.stop().await;

    let about = |name: &str| -> Vec<(String, i64)> {
        receiver
            .got()
            .iter()
            .filter(|g| endpoint_name(g) == name)
            .map(|g| {
                let body = g.json();
                (
                    body["type"].as_str().unwrap().to_owned(),
                    id_of(&body["data"]),
                )
            })
            .collect()
    };
    let to_me = about("mine");
    assert!(
        to_me.iter().all(|(_, id)| *id != secret),
        "another user's private note, its change and its deletion never reach me: {to_me:?}"
    );
    assert!(
        !receiver
            .got()
            .iter()
            .filter(|g| endpoint_name(g) == "mine")
            .any(|g| String::from_utf8_lossy(&g.body).contains("Jane's secret")),
        "not even its title"
    );
    for expected in [
        ("note.created".to_owned(), shared),
        ("note.updated".to_owned(), shared),
        ("note.created".to_owned(), own),
    ] {
        assert!(to_me.contains(&expected), "{expected:?} in {to_me:?}");
    }
    let to_jane = about("jane");
    for expected in [
        ("note.created".to_owned(), secret),
        ("note.updated".to_owned(), secret),
        ("note.deleted".to_owned(), secret),
        ("note.created".to_owned(), shared),
    ] {
        assert!(to_jane.contains(&expected), "{expected:?} in {to_jane:?}");
    }
    assert!(
        to_jane.iter().all(|(_, id)| *id != own),
        "nor mine to her: {to_jane:?}"
    );
}

#[tokio::test]
async fn subscribing_to_events_the_key_may_not_read_is_refused_naming_them() {
    let s = server().await;
    let notes = s.key_with(&["notes:read", "webhooks:write"], None).await;
    let a = register(
        &s,
        &notes,
        "https://hooks.example.com/in",
        &["note.created", "invoice.paid", "payment.created"],
    )
    .await;
    assert_invalid(
        &a,
        "events",
        &["This API key may not read these events: invoice.paid, payment.created."],
    );
    assert_eq!(count(&s, "SELECT count(*) FROM webhook_endpoints").await, 0);
    // What it may read, and `*` (everything it may read), are accepted.
    registered(
        &s,
        &notes,
        "https://hooks.example.com/in",
        &["note.created"],
    )
    .await;
    registered(&s, &notes, "https://hooks.example.com/all", &["*"]).await;
    // Taking over another key's endpoint (a new URL) holds the kept events to the new key.
    let theirs = registered(
        &s,
        &s.key,
        "https://hooks.example.com/theirs",
        &["invoice.paid", "note.created"],
    )
    .await;
    let a = s
        .call_as(
            &notes,
            Method::PATCH,
            &format!("/api/webhooks/{theirs}"),
            json(json!({"url": "https://mine.example.com/in"})),
        )
        .await;
    assert_invalid(
        &a,
        "events",
        &["This API key may not read these events: invoice.paid."],
    );
    let a = s.get(&format!("/api/webhooks/{theirs}")).await;
    assert_eq!(
        a.data()["url"],
        "https://hooks.example.com/theirs",
        "nothing written"
    );
    // A description alone is not a take-over: it is changed, the events kept.
    let a = s
        .call_as(
            &notes,
            Method::PATCH,
            &format!("/api/webhooks/{theirs}"),
            json(json!({"description": "renamed"})),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.json);
    assert_eq!(a.data()["events"], json!(["invoice.paid", "note.created"]));
}

#[tokio::test]
async fn an_endpoint_taken_over_by_a_narrower_key_receives_only_what_that_key_may_read() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    let id = registered(&s, &s.key, &format!("{}/before", receiver.url()), &["*"]).await;
    let notes = s.key_with(&["notes:read", "webhooks:write"], None).await;
    let a = s
        .call_as(
            &notes,
            Method::PATCH,
            &format!("/api/webhooks/{id}"),
            json(json!({"url": format!("{}/after", receiver.url())})),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.json);
    let worker = Worker::start(&s);
    a_change_in_every_area(&s).await;
    settled(&s).await;
    worker.stop().await;
    let got = received(&receiver);
    assert_eq!(got.keys().collect::<Vec<_>>(), ["after"]);
    assert_eq!(
        got["after"],
        BTreeSet::from(["note.created".to_owned()]),
        "only the notes the new key may read"
    );
}

#[tokio::test]
async fn a_revoked_or_expired_key_disables_its_endpoints_and_they_receive_nothing() {
    let s = server().await;
    let receiver = Receiver::ok().await;
    let revoked = s.key_with(&["write"], None).await;
    let expiring = s.key_with(&["write"], None).await;
    let staying = s.key_with(&["write"], None).await;
    let first = registered(&s, &revoked, &format!("{}/revoked", receiver.url()), &["*"]).await;
    let second = registered(
        &s,
        &expiring,
        &format!("{}/expired", receiver.url()),
        &["*"],
    )
    .await;
    let third = registered(&s, &staying, &format!("{}/staying", receiver.url()), &["*"]).await;
    let key_id = |key: &str| -> i64 { key.split('_').nth(1).unwrap().parse().unwrap() };
    let id = crm_core::ids::ApiKeyId::new(key_id(&revoked)).unwrap();
    assert!(s.store.revoke_api_key(id).await.unwrap());
    let a = s.get(&format!("/api/webhooks/{first}")).await;
    assert_eq!(
        a.data()["enabled"],
        json!(false),
        "disabled with the revocation"
    );
    assert_eq!(
        a.data()["disabled_reason"],
        "The API key this endpoint belongs to was revoked."
    );
    s.sql()
        .await
        .execute(
            "UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1",
            &[&key_id(&expiring)],
        )
        .await
        .unwrap();
    let worker = Worker::start(&s);
    s.created(
        "/api/notes",
        json!({"note_title": "After", "note_description": "d", "note_visibility": "public"}),
    )
    .await;
    settled(&s).await;
    worker.stop().await;
    let got = received(&receiver);
    assert_eq!(got.keys().collect::<Vec<_>>(), ["staying"], "{got:?}");
    let a = s.get(&format!("/api/webhooks/{second}")).await;
    assert_eq!(a.data()["enabled"], json!(false));
    assert_eq!(
        a.data()["disabled_reason"],
        "The API key this endpoint belongs to expired."
    );
    assert_eq!(
        s.get(&format!("/api/webhooks/{third}")).await.data()["enabled"],
        json!(true)
    );
    // Enabling it again with a key that may act makes it that key's, and it receives again.
    let a = s
        .patch(
            &format!("/api/webhooks/{second}"),
            json(json!({"enabled": true})),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.json);
    assert_eq!(a.data()["disabled_reason"], Value::Null);
    let worker = Worker::start(&s);
    s.created(
        "/api/notes",
        json!({"note_title": "Again", "note_description": "d", "note_visibility": "public"}),
    )
    .await;
    settled(&s).await;
    worker.stop().await;
    assert!(received(&receiver).contains_key("expired"));
}
