//! `/api/milestones` (API.md §6, reference/milestones.md): the six endpoints end to end —
//! the record shape and envelopes, every error the contract names, positions, what delete
//! does to the tasks, reordering in the three body encodings, and duplicate titles and
//! positions under concurrency.
//!
//! The seed gives each of its two projects Planning, Design, Development, Testing (positions
//! 1–4) and the `uncategorised` default (5); Planning, Design and Development hold two tasks
//! each, every task with an attachment, a comment and a timer.
//!
//! One module per concern: `records` (create and read), `validation` (with duplicates and
//! updates), `errors` (by-id 404s, 401), `listing`, `deletion`, `reorder`, `concurrency`.

mod concurrency;
mod deletion;
mod errors;
mod listing;
mod records;
mod reorder;
mod validation;

use serde_json::Value;

use crate::common::{Answer, Body, TestServer, assert_page, assert_timestamp, form, keys};

/// The members of the milestone object, sorted.
const MILESTONE_KEYS: [&str; 9] = [
    "color",
    "creator_id",
    "dates",
    "id",
    "position",
    "project_id",
    "tasks_count",
    "title",
    "type",
];

/// The seeded milestone titles in board order.
const SEEDED: [&str; 5] = [
    "Planning",
    "Design",
    "Development",
    "Testing",
    "Uncategorised",
];

/// Asserts the full milestone shape (members, types, dates).
fn assert_milestone_shape(m: &Value) {
    assert_eq!(keys(m), MILESTONE_KEYS, "{m}");
    for member in ["id", "project_id", "position", "tasks_count"] {
        assert!(m[member].is_i64(), "{member} of {m}");
    }
    assert!(m["creator_id"].is_i64() || m["creator_id"].is_null(), "{m}");
    assert!(
        matches!(m["type"].as_str(), Some("categorised" | "uncategorised")),
        "{m}"
    );
    assert_eq!(keys(&m["dates"]), ["created", "updated"]);
    assert_timestamp(&m["dates"]["created"]);
    assert_timestamp(&m["dates"]["updated"]);
}

/// Asserts a list answer of this area ([`assert_page`]).
#[track_caller]
fn assert_list(a: &Answer, current_page: i64, per_page: i64, total: i64) {
    assert_page(
        a,
        "Milestones retrieved successfully.",
        current_page,
        per_page,
        total,
    );
}

/// The titles of a list answer's records, in order.
fn titles(a: &Answer) -> Vec<String> {
    a.data()
        .as_array()
        .unwrap_or_else(|| panic!("data is not an array: {}", a.json))
        .iter()
        .map(|m| m["title"].as_str().unwrap().to_owned())
        .collect()
}

/// The seeded milestone of `project` titled `title`.
fn seeded(s: &TestServer, project: i64, title: &str) -> i64 {
    s.ids
        .milestones
        .iter()
        .find(|m| m.project_id == project && m.title == title)
        .unwrap_or_else(|| panic!("{title} of {project}"))
        .id
}

/// Creates a milestone (form body) and returns the answer.
async fn create(s: &TestServer, project: i64, title: &str, color: &str) -> Answer {
    s.post(
        "/api/milestones",
        form(&[
            ("milestone_projectid", &project.to_string()),
            ("milestone_title", title),
            ("milestone_color", color),
        ]),
    )
    .await
}

/// The project's milestones as stored, in board order: `(title, position)`.
async fn board(s: &TestServer, project: i64) -> Vec<(String, i32)> {
    let sql = "SELECT title, position FROM milestones WHERE project_id = $1 ORDER BY position, id";
    s.sql()
        .await
        .query(sql, &[&project])
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect()
}

/// `(title, position)` pairs numbered 1..N from titles.
fn numbered(titles: &[&str]) -> Vec<(String, i32)> {
    titles
        .iter()
        .zip(1..)
        .map(|(t, p)| ((*t).to_owned(), p))
        .collect()
}

/// The ids of the tasks in `milestone`, sorted.
async fn tasks_in(s: &TestServer, milestone: i64) -> Vec<i64> {
    let sql = "SELECT id FROM tasks WHERE milestone_id = $1 ORDER BY id";
    s.sql()
        .await
        .query(sql, &[&milestone])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

/// How many rows of `table` belong to the tasks `ids` (`id` itself for `tasks`).
async fn rows_of_tasks(s: &TestServer, table: &str, ids: &[i64]) -> i64 {
    let column = if table == "tasks" { "id" } else { "task_id" };
    let sql = format!("SELECT count(*) FROM {table} WHERE {column} = ANY ($1)");
    s.sql().await.query_one(&sql, &[&ids]).await.unwrap().get(0)
}

/// `PUT /api/milestones/positions`.
async fn reorder(s: &TestServer, body: Body) -> Answer {
    s.put("/api/milestones/positions", body).await
}
