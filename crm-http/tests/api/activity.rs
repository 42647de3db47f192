//! Activity (API.md §21) through the real service: one entry per change with its actor and
//! its fields before and after, the list's filters and cursors, a record's own list, the
//! `activity:read` scope, private notes, and the chain of issued documents (an edit or a
//! deletion made with SQL is named by the verification). That every write route makes
//! exactly one entry is the sweep's (`sweep/writes.rs`).

use crm_store_pg::activity::chain::ChainCheck;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Answer, Body, TestServer, assert_invalid, form, ids, json as json_body};
use crate::payments::published;

/// The key id in a key's text (`crm_<id>_…`).
fn key_id(key: &str) -> i64 {
    key.split('_').nth(1).unwrap().parse().unwrap()
}

/// `GET path` with user 1's key, asserting a page of entries; its entries.
async fn entries(s: &TestServer, path: &str) -> Vec<Value> {
    let a = s.get(path).await;
    assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.json);
    assert_eq!(a.message(), "Activity retrieved successfully.");
    a.data().as_array().unwrap().clone()
}

fn kinds(entries: &[Value]) -> Vec<&str> {
    entries
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_notes_life_is_three_entries_with_the_key_as_actor_and_the_fields_before_and_after() {
    let s = TestServer::start().await;
    let note = s
        .created(
            "/api/notes",
            json!({"note_title": "Call Acme", "note_description": "About the quote"}),
        )
        .await;
    let a = s
        .patch(
            &format!("/api/notes/{note}"),
            form(&[
                ("note_title", "Call Acme again"),
                ("note_description", "About the quote"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);

    let listed = entries(&s, &format!("/api/notes/{note}/activity")).await;
    assert_eq!(kinds(&listed), ["note.updated", "note.created"]);
    let updated = &listed[0];
    assert_eq!(updated["resource"], json!({"type": "note", "id": note}));
    assert_eq!(
        updated["actor"],
        json!({"user_id": 1, "key_id": key_id(&s.key), "key_name": "test"})
    );
    assert_eq!(
        updated["changes"]["title"],
        json!(["Call Acme", "Call Acme again"])
    );
    assert!(updated["changes"].get("description").is_none());
    crate::common::assert_timestamp(&updated["at"]);
    let created = &listed[1];
    assert_eq!(created["changes"]["title"], json!([null, "Call Acme"]));
    assert_eq!(created["changes"]["id"], json!([null, note]));

    let a = s.delete(&format!("/api/notes/{note}")).await;
    assert_eq!(a.status, StatusCode::OK);
    // The note is gone: its own list is a 404, its history is still in the whole list.
    let a = s.get(&format!("/api/notes/{note}/activity")).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert_eq!(a.message(), "Note not found.");
    let all = entries(
        &s,
        &format!("/api/activity?resource_type=note&resource_id={note}"),
    )
    .await;
    assert_eq!(
        kinds(&all),
        ["note.deleted", "note.updated", "note.created"]
    );
    assert_eq!(all[0]["changes"]["title"], json!(["Call Acme again", null]));
}

#[tokio::test]
async fn a_refused_write_leaves_no_entry_and_a_replayed_one_no_second() {
    let s = TestServer::start().await;
    let before = s
        .scalar("SELECT count(*) FROM activity WHERE $1::bigint > 0", 1)
        .await;
    let a = s.post("/api/notes", form(&[("note_title", "")])).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let body = || form(&[("note_title", "Once"), ("note_description", "x")]);
    for _ in 0..2 {
        let a = s
            .call_with(
                &s.key,
                Method::POST,
                "/api/notes",
                body(),
                &[("idempotency-key", "one")],
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED);
    }
    let after = s
        .scalar("SELECT count(*) FROM activity WHERE $1::bigint > 0", 1)
        .await;
    assert_eq!(after - before, 1);
}

#[tokio::test]
async fn the_list_filters_by_record_actor_type_and_days_and_pages_by_cursor() {
    let s = TestServer::start().await;
    let other = s.key_for(1).await;
    for n in 0..5 {
        let title = format!("Note {n}");
        let key = if n % 2 == 0 { &s.key } else { &other };
        let a = s
            .call_as(
                key,
                Method::POST,
                "/api/notes",
                form(&[("note_title", &title), ("note_description", "x")]),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    }
    let by_other = entries(&s, &format!("/api/activity?actor={}", key_id(&other))).await;
    assert_eq!(by_other.len(), 2);
    assert!(
        by_other
            .iter()
            .all(|e| e["actor"]["key_id"] == json!(key_id(&other)))
    );
    let created = entries(&s, "/api/activity?type=note.created&resource_type=note").await;
    assert_eq!(created.len(), 5);
    let today = crate::common::today();
    let tomorrow = today.succ_opt().unwrap();
    let todays = entries(&s, &format!("/api/activity?from={today}&to={today}")).await;
    assert_eq!(todays.len(), 5);
    let none = entries(&s, &format!("/api/activity?from={tomorrow}")).await;
    assert!(none.is_empty());

    // Two pages of two by cursor, then the last one; newest first, no overlap.
    let first = s.get("/api/activity?resource_type=note&limit=2").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.json);
    let mut seen = ids(&first);
    let mut next = first.json["meta"]["next_cursor"].clone();
    while let Some(cursor) = next.as_str() {
        let page = s
            .get(&format!(
                "/api/activity?resource_type=note&limit=2&cursor={cursor}"
            ))
            .await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.json);
        seen.extend(ids(&page));
        next = page.json["meta"]["next_cursor"].clone();
    }
    assert_eq!(seen.len(), 5, "{}", first.json);
    assert!(seen.windows(2).all(|w| w[0] > w[1]), "{seen:?}");
    // A cursor of one list is refused by another.
    let cursor = first.json["meta"]["next_cursor"].clone();
    let a = s
        .get(&format!(
            "/api/activity?resource_type=invoice&limit=2&cursor={}",
            cursor.as_str().unwrap()
        ))
        .await;
    assert_invalid(&a, "cursor", &["The selected cursor is invalid."]);
}

#[tokio::test]
async fn bad_filters_are_422s_naming_each_field() {
    let s = TestServer::start().await;
    let a = s
        .get("/api/activity?resource_type=spaceship&resource_id=x&actor=0&type=note.exploded&from=2026-11-30&to=2026-11-01")
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        a.errors("resource_type"),
        ["The selected resource type is invalid."]
    );
    assert_eq!(
        a.errors("resource_id"),
        ["The resource id must be an integer."]
    );
    assert_eq!(a.errors("actor"), ["The selected actor is invalid."]);
    assert_eq!(a.errors("type"), ["The selected type is invalid."]);
    assert_eq!(
        a.errors("to"),
        ["The to must be a date after or equal to from."]
    );
    let a = s.get("/api/notes/999999/activity").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let a = s.get("/api/notes/abc/activity").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn reading_activity_needs_the_activity_scope() {
    let s = TestServer::start().await;
    let note = s
        .created(
            "/api/notes",
            json!({"note_title": "Call", "note_description": "x"}),
        )
        .await;
    let notes_only = s.key_with(&["notes:read"], None).await;
    let activity = s.key_with(&["activity:read"], None).await;
    for path in [
        "/api/activity".to_owned(),
        format!("/api/notes/{note}/activity"),
    ] {
        let a: Answer = s.call_as(&notes_only, Method::GET, &path, Body::None).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{path}");
        let a = s.call_as(&activity, Method::GET, &path, Body::None).await;
        assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.json);
    }
}

#[tokio::test]
async fn a_private_notes_activity_is_its_creators_alone() {
    let s = TestServer::start().await;
    let a = s
        .post(
            "/api/notes",
            form(&[
                ("note_title", "Mine"),
                ("note_description", "x"),
                ("note_visibility", "private"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let note = a.data()["id"].as_i64().unwrap();
    let path = format!("/api/activity?resource_type=note&resource_id={note}");
    assert_eq!(entries(&s, &path).await.len(), 1);
    let someone_else = s.key_for(2).await;
    let a = s
        .call_as(&someone_else, Method::GET, &path, Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data(), &json!([]));
}

#[tokio::test]
async fn issued_documents_are_chained_and_an_edit_or_a_deletion_in_the_database_is_named() {
    let s = TestServer::start().await;
    let invoice = published(&s, 1, "100.00").await;
    let a = s
        .post(
            "/api/payments",
            json_body(json!({"payment_invoiceid": invoice, "payment_amount": "40.00", "payment_date": "2026-11-20"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let a = s
        .post(
            &format!("/api/invoices/{invoice}/credit-notes"),
            json_body(json!({"reason": "Discount agreed"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    // A note is not chained.
    s.created(
        "/api/notes",
        json!({"note_title": "Call", "note_description": "x"}),
    )
    .await;

    let chained = s
        .scalar(
            "SELECT count(*) FROM activity WHERE chain_seq IS NOT NULL AND $1::bigint > 0",
            1,
        )
        .await;
    assert_eq!(chained, 3, "publish, payment, credit note");
    let published_entry = entries(
        &s,
        &format!("/api/invoices/{invoice}/activity?type=invoice.published"),
    )
    .await;
    assert!(
        published_entry[0]["changes"]["number"][1]
            .as_str()
            .unwrap()
            .starts_with("INV-")
    );
    match s.store.verify_chain().await.unwrap() {
        ChainCheck::Intact { entries, head } => {
            assert_eq!(entries, 3);
            assert_eq!(head.len(), 64);
        }
        broken => panic!("{broken:?}"),
    }

    // An amount edited in the database: the link after it names the entry.
    let db = s.sql().await;
    let payment_entry: i64 = db
        .query_one(
            "SELECT id FROM activity WHERE type = 'payment.created'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    db.execute(
        "UPDATE activity SET changes = jsonb_set(changes, '{amount,1}', '\"4.00\"') WHERE id = $1",
        &[&payment_entry],
    )
    .await
    .unwrap();
    match s.store.verify_chain().await.unwrap() {
        ChainCheck::Broken { seq, reason, .. } => {
            assert_eq!(seq, 3);
            assert!(
                reason.contains(&format!("entry {payment_entry}")),
                "{reason}"
            );
        }
        intact => panic!("{intact:?}"),
    }

    // The first entry deleted: its place is named as missing.
    db.execute("DELETE FROM activity WHERE chain_seq = 1", &[])
        .await
        .unwrap();
    match s.store.verify_chain().await.unwrap() {
        ChainCheck::Broken { seq, reason, .. } => {
            assert_eq!(seq, 1);
            assert!(reason.contains("missing"), "{reason}");
        }
        intact => panic!("{intact:?}"),
    }
}

#[tokio::test]
async fn concurrent_issues_append_to_the_chain_one_at_a_time() {
    let s = TestServer::start().await;
    let mut invoices = Vec::new();
    for n in 0..6 {
        invoices.push(published(&s, 1 + n % 2, "50.00").await);
    }
    let pay = |invoice: i64| {
        let s = &s;
        async move {
            let a = s
                .post(
                    "/api/payments",
                    json_body(json!({"payment_invoiceid": invoice, "payment_amount": "10.00", "payment_date": "2026-11-20"})),
                )
                .await;
            assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
        }
    };
    futures_util::future::join_all(invoices.iter().map(|i| pay(*i))).await;
    match s.store.verify_chain().await.unwrap() {
        ChainCheck::Intact { entries, .. } => assert_eq!(entries, 12),
        broken => panic!("{broken:?}"),
    }
}

/// The document's lists of entry types and resource types are crm-core's, so a new event
/// type (or area) cannot be filtered by without being documented.
#[test]
fn the_documented_types_and_resource_types_are_crm_cores() {
    use crm_core::activity::{ActivityType, ResourceType};
    use crm_core::choice::Choice;
    let doc = crate::conformance::document();
    let enumerated = |schema: &Value| -> Vec<String> {
        schema["anyOf"][0]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    let types = enumerated(&doc["components"]["parameters"]["activityType"]["schema"]);
    let expected: Vec<String> = ActivityType::all().map(|t| t.as_str().to_owned()).collect();
    assert_eq!(types, expected);
    let list = &doc["paths"]["/api/activity"]["get"]["parameters"];
    let resource_type = list
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "resource_type")
        .unwrap();
    let expected: Vec<String> = <ResourceType as Choice>::CHOICES
        .iter()
        .map(|(t, _)| (*t).to_owned())
        .collect();
    assert_eq!(enumerated(&resource_type["schema"]), expected);
}

#[tokio::test]
async fn an_invoices_activity_lists_its_payments_and_credit_notes_and_a_schedules_its_own() {
    let s = TestServer::start().await;
    let invoice = published(&s, 1, "100.00").await;
    let other = published(&s, 1, "50.00").await;
    let payment = s
        .created(
            "/api/payments",
            json!({"payment_invoiceid": invoice, "payment_amount": "40.00", "payment_date": "2026-11-20"}),
        )
        .await;
    // Another invoice's payment is not this invoice's.
    s.created(
        "/api/payments",
        json!({"payment_invoiceid": other, "payment_amount": "5.00", "payment_date": "2026-11-20"}),
    )
    .await;
    let a = s.delete(&format!("/api/payments/{payment}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let a = s
        .post(
            &format!("/api/invoices/{invoice}/credit-notes"),
            json_body(json!({"reason": "Discount agreed"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let credit_note = a.data()["id"].as_i64().unwrap();

    let listed = entries(&s, &format!("/api/invoices/{invoice}/activity")).await;
    assert_eq!(
        kinds(&listed),
        [
            "credit_note.issued",
            "payment.deleted",
            "payment.created",
            "invoice.published",
            "invoice.updated",
            "invoice.created"
        ],
        "{listed:?}"
    );
    assert_eq!(
        listed[0]["resource"],
        json!({"type": "credit_note", "id": credit_note})
    );
    assert_eq!(
        listed[1]["resource"],
        json!({"type": "payment", "id": payment})
    );
    // The global list's resource filter is the record's own entries alone.
    let own = entries(
        &s,
        &format!("/api/activity?resource_type=invoice&resource_id={invoice}"),
    )
    .await;
    assert_eq!(
        kinds(&own),
        ["invoice.published", "invoice.updated", "invoice.created"]
    );
    // A cursor of the record's list pages the same list.
    let a = s
        .get(&format!("/api/invoices/{invoice}/activity?limit=4"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let next = a.json["meta"]["next_cursor"].as_str().unwrap().to_owned();
    let rest = entries(
        &s,
        &format!("/api/invoices/{invoice}/activity?cursor={next}&limit=4"),
    )
    .await;
    assert_eq!(kinds(&rest), ["invoice.updated", "invoice.created"]);

    // A recurring invoice's own activity.
    let body = crate::recurring_invoices::schedule(&s, json!({})).await;
    let schedule = s.created("/api/recurring-invoices", body).await;
    let a = s
        .patch(
            &format!("/api/recurring-invoices/{schedule}"),
            json_body(json!({"notes": "Retainer, renewed"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let listed = entries(&s, &format!("/api/recurring-invoices/{schedule}/activity")).await;
    assert_eq!(
        kinds(&listed),
        ["recurring_invoice.updated", "recurring_invoice.created"]
    );
    assert_eq!(
        listed[0]["changes"]["notes"],
        json!(["Retainer", "Retainer, renewed"])
    );
    let a = s.get("/api/recurring-invoices/999999/activity").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert_eq!(a.message(), "Recurring invoice not found.");
    s.stop().await;
}
