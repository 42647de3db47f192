//! `/api/notes` (API.md §7, reference/notes.md): the six endpoints end to end — the record
//! and its envelopes, attachment to each resource type and its validation, private notes
//! (visible to their creator only), sticky notes (never served), PATCH ignoring the
//! attachment, search, filters and sorts, deletion, and tags in every body encoding.

mod listing;
mod records;
mod tags;
mod updates;
mod visibility;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{
    Answer, Body, TestServer, assert_invalid, form, id_of, ids, is_timestamp, pairs, raw_form,
};

/// Creates a note with `title`, `description` and `extra` fields; asserts 201; returns
/// `data`.
async fn create(s: &TestServer, title: &str, description: &str, extra: &[(&str, &str)]) -> Value {
    let mut body = pairs(&[("note_title", title), ("note_description", description)]);
    body.extend(pairs(extra));
    let a = s.post("/api/notes", Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.message(), "Note created successfully.");
    a.data().clone()
}

/// `GET /api/notes/{id}` with user 1's key, asserted 200; returns `data`.
async fn get(s: &TestServer, id: i64) -> Value {
    let a = s.get(&format!("/api/notes/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Note retrieved successfully.");
    a.data().clone()
}

/// `GET /api/notes?{query}` with `key`, asserted 200 with the list message.
async fn list_as(s: &TestServer, key: &str, query: &str) -> Answer {
    let a = s
        .call_as(key, Method::GET, &format!("/api/notes?{query}"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{query}: {:?}", a.json);
    assert_eq!(a.message(), "Notes retrieved successfully.");
    a
}

/// `GET /api/notes?{query}` with user 1's key.
async fn list(s: &TestServer, query: &str) -> Answer {
    list_as(s, &s.key, query).await
}

/// `PUT /api/notes/{id}/tags` with user 1's key.
async fn put_tags(s: &TestServer, id: i64, body: Body) -> Answer {
    s.put(&format!("/api/notes/{id}/tags"), body).await
}

/// The note's tag rows, by position.
async fn stored_tags(s: &TestServer, id: i64) -> Vec<(String, i32)> {
    let sql = "SELECT title, position FROM tags WHERE note_id = $1 ORDER BY position";
    let rows = s.sql().await.query(sql, &[&id]).await.unwrap();
    rows.iter().map(|r| (r.get(0), r.get(1))).collect()
}

/// A note row as text, to check that refused requests wrote nothing.
async fn row_text(s: &TestServer, id: i64) -> String {
    let sql = "SELECT row_to_json(n)::text FROM notes n WHERE id = $1";
    s.sql().await.query_one(sql, &[&id]).await.unwrap().get(0)
}

/// Asserts the note 404 body.
#[track_caller]
fn assert_not_found(a: &Answer) {
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{:?}", a.json);
    assert_eq!(a.json, json!({"message": "Note not found."}));
}

/// Every endpoint addressing note `id`, with `key`: GET, PATCH (valid and invalid bodies),
/// PUT tags (valid and invalid), DELETE — each must be the note 404.
async fn assert_hidden_from(s: &TestServer, key: &str, id: i64) {
    let path = format!("/api/notes/{id}");
    let calls = [
        (Method::GET, path.clone(), Body::None),
        (
            Method::PATCH,
            path.clone(),
            form(&[
                ("note_title", "Taken over"),
                ("note_description", "Mine now"),
            ]),
        ),
        (Method::PATCH, path.clone(), form(&[])),
        (
            Method::PUT,
            format!("{path}/tags"),
            form(&[("tags[]", "x")]),
        ),
        (Method::PUT, format!("{path}/tags"), form(&[])),
        (Method::DELETE, path.clone(), Body::None),
    ];
    for (method, path, body) in calls {
        let a = s.call_as(key, method.clone(), &path, body).await;
        assert_eq!(
            a.status,
            StatusCode::NOT_FOUND,
            "{method} {path}: {:?}",
            a.json
        );
        assert_eq!(
            a.json,
            json!({"message": "Note not found."}),
            "{method} {path}"
        );
    }
}
