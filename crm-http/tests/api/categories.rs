//! `/api/categories` (API.md §3, reference/categories.md): the seven endpoints end to end —
//! the record shape and envelopes, every error the contract names, counts, the team with
//! its project permissions, migration, the three body encodings of `users`, and duplicate
//! names under concurrency.
//!
//! One module per concern: `records` (create and read), `validation`, `errors` (by-id 404s, 401),
//! `listing`, `deletion` (counts and deletion), `team`, `migration`, `concurrency`.

mod concurrency;
mod deletion;
mod errors;
mod listing;
mod migration;
mod records;
mod team;
mod validation;

use reqwest::StatusCode;
use serde_json::Value;

use crate::common::{Answer, Body, TestServer, assert_page, assert_timestamp, form, keys};

/// The members of the category object, sorted.
const CATEGORY_KEYS: [&str; 11] = [
    "count",
    "dates",
    "description",
    "icon",
    "id",
    "name",
    "slug",
    "system_default",
    "type",
    "users_count",
    "visibility",
];

/// Asserts the full category shape (members, types, dates).
fn assert_category_shape(c: &Value) {
    assert_eq!(keys(c), CATEGORY_KEYS, "{c}");
    assert!(
        c["id"].is_i64() && c["count"].is_i64() && c["users_count"].is_i64(),
        "{c}"
    );
    assert!(
        matches!(c["system_default"].as_str(), Some("yes" | "no")),
        "{c}"
    );
    assert_eq!(keys(&c["dates"]), ["created", "updated"]);
    assert_timestamp(&c["dates"]["created"]);
    assert_timestamp(&c["dates"]["updated"]);
}

/// Asserts a list answer of this area ([`assert_page`]).
#[track_caller]
fn assert_list(a: &Answer, current_page: i64, per_page: i64, total: i64) {
    assert_page(
        a,
        "Categories retrieved successfully.",
        current_page,
        per_page,
        total,
    );
}

/// Creates a category (form body) and returns its data.
async fn create(s: &TestServer, name: &str, kind: &str) -> Value {
    let a = s
        .post(
            "/api/categories",
            form(&[("category_name", name), ("category_type", kind)]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    a.data().clone()
}

/// The category's team as stored, sorted.
async fn team_of(s: &TestServer, category: i64) -> Vec<i64> {
    let sql = "SELECT user_id FROM category_users WHERE category_id = $1 ORDER BY user_id";
    s.sql()
        .await
        .query(sql, &[&category])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

/// The users assigned to `project` with `source`, sorted.
async fn assigned(s: &TestServer, project: i64, source: &str) -> Vec<i64> {
    let sql = "SELECT user_id FROM project_assignments WHERE project_id = $1 AND source = $2 ORDER BY user_id";
    s.sql()
        .await
        .query(sql, &[&project, &source])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

/// Puts a record of `table` into `category` behind the API's back.
async fn put_into(s: &TestServer, table: &str, id: i64, category: i64) {
    let sql = format!("UPDATE {table} SET category_id = $2 WHERE id = $1");
    assert_eq!(
        s.sql()
            .await
            .execute(&sql, &[&id, &category])
            .await
            .unwrap(),
        1,
        "{table} {id}"
    );
}

/// How many categories exist.
async fn category_rows(s: &TestServer) -> i64 {
    s.sql()
        .await
        .query_one("SELECT count(*) FROM categories", &[])
        .await
        .unwrap()
        .get(0)
}

/// `PUT /api/categories/{id}/team`.
async fn set_team(s: &TestServer, category: i64, body: Body) -> Answer {
    s.put(&format!("/api/categories/{category}/team"), body)
        .await
}
