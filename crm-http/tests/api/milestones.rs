//! `/api/milestones` (API.md §6, reference/milestones.md): the six endpoints end to end —
//! the record shape and envelopes, every error the contract names, positions, what delete
//! does to the tasks, reordering in the three body encodings, and duplicate titles and
//! positions under concurrency.
//!
//! The seed gives each of its two projects Planning, Design, Development, Testing (positions
//! 1–4) and the `uncategorised` default (5); Planning, Design and Development hold two tasks
//! each, every task with an attachment, a comment and a timer.

use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{
    Answer, Body, TestServer, assert_timestamp, form, id_of, json, keys, multipart, raw_form,
};

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

/// Asserts a 422 whose `errors` are exactly `errors`.
fn assert_invalid(a: &Answer, errors: Value) {
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.json);
    assert_eq!(
        a.json,
        json!({"message": "The given data was invalid.", "errors": errors})
    );
}

/// Asserts the list envelope: integer meta members, `last_page` from total and per page.
fn assert_list(a: &Answer, current_page: i64, per_page: i64, total: i64) {
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(keys(&a.json), ["data", "message", "meta"]);
    assert_eq!(a.message(), "Milestones retrieved successfully.");
    let last_page = ((total + per_page - 1) / per_page).max(1);
    assert_eq!(
        a.json["meta"],
        json!({"current_page": current_page, "per_page": per_page, "total": total, "last_page": last_page})
    );
    for member in ["current_page", "per_page", "total", "last_page"] {
        assert!(
            a.json["meta"][member].is_i64(),
            "{member} is not an integer"
        );
    }
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

// ---------------------------------------------------------------------------------------
// Create and read
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_created_milestone_is_categorised_201_and_goes_after_the_highest_position() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let a = create(&s, project, "Phase 1", "success").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(keys(&a.json), ["data", "message"]);
    assert_eq!(a.message(), "Milestone created successfully.");
    let m = a.data();
    assert_milestone_shape(m);
    assert_eq!(m["title"], "Phase 1");
    assert_eq!(m["project_id"], project);
    assert_eq!(m["type"], "categorised");
    assert_eq!(m["color"], "success");
    assert_eq!(m["position"], 6);
    assert_eq!(m["creator_id"], 1);
    assert_eq!(m["tasks_count"], 0);

    let got = s.get(&format!("/api/milestones/{}", id_of(m))).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(
        got.json,
        json!({"data": m, "message": "Milestone retrieved successfully."})
    );

    let next = create(&s, project, "Phase 2", "lime").await;
    assert_eq!(next.data()["position"], 7);
    // Gaps do not matter: the highest position plus one.
    s.sql()
        .await
        .execute(
            "UPDATE milestones SET position = 40 WHERE id = $1",
            &[&seeded(&s, project, "Testing")],
        )
        .await
        .unwrap();
    assert_eq!(
        create(&s, project, "Phase 3", "brown").await.data()["position"],
        41
    );
    // Another project's positions are its own.
    assert_eq!(
        create(&s, s.ids.projects[1], "Phase 1", "info")
            .await
            .data()["position"],
        6
    );
}

#[tokio::test]
async fn the_creator_is_the_user_of_the_key_and_every_encoding_works() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0].to_string();
    let key = s.key_for(2).await;
    let body = json(
        json!({"milestone_projectid": s.ids.projects[0], "milestone_title": "By Jane", "milestone_color": "danger"}),
    );
    let a = s.call_as(&key, Method::POST, "/api/milestones", body).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(a.data()["creator_id"], 2);
    let a = s
        .post(
            "/api/milestones",
            multipart(&[
                ("milestone_projectid", &project),
                ("milestone_title", "Multipart"),
                ("milestone_color", "primary"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(
        (
            &a.data()["title"],
            &a.data()["color"],
            &a.data()["position"]
        ),
        (&json!("Multipart"), &json!("primary"), &json!(7))
    );
}

#[tokio::test]
async fn a_seeded_milestone_reads_with_its_task_count() {
    let s = TestServer::start().await;
    let project = s.ids.projects[1];
    for (title, tasks, kind, position) in [
        ("Planning", 2, "categorised", 1),
        ("Development", 2, "categorised", 3),
        ("Testing", 0, "categorised", 4),
        ("Uncategorised", 0, "uncategorised", 5),
    ] {
        let a = s
            .get(&format!("/api/milestones/{}", seeded(&s, project, title)))
            .await;
        assert_eq!(a.status, StatusCode::OK);
        assert_milestone_shape(a.data());
        assert_eq!(a.data()["title"], title);
        assert_eq!(a.data()["project_id"], project);
        assert_eq!(
            (
                &a.data()["tasks_count"],
                &a.data()["type"],
                &a.data()["position"]
            ),
            (&json!(tasks), &json!(kind), &json!(position)),
            "{title}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Validation, duplicates, update
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_create_reports_every_missing_or_invalid_field() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0].to_string();
    let before = board(&s, s.ids.projects[0]).await;
    let cases: Vec<(&str, Body, Value)> = vec![
        (
            "empty",
            form(&[]),
            json!({
                "milestone_projectid": ["The milestone projectid field is required."],
                "milestone_title": ["The milestone title field is required."],
                "milestone_color": ["The milestone color field is required."]
            }),
        ),
        (
            "unknown colour",
            form(&[
                ("milestone_projectid", &project),
                ("milestone_title", "A"),
                ("milestone_color", "pink"),
            ]),
            json!({"milestone_color": ["The selected milestone color is invalid."]}),
        ),
        (
            "unknown project",
            form(&[
                ("milestone_projectid", "999999"),
                ("milestone_title", "A"),
                ("milestone_color", "info"),
            ]),
            json!({"milestone_projectid": ["The selected milestone projectid is invalid."]}),
        ),
        (
            "unknown project and no title",
            json(json!({"milestone_projectid": 999999, "milestone_color": "info"})),
            json!({
                "milestone_projectid": ["The selected milestone projectid is invalid."],
                "milestone_title": ["The milestone title field is required."]
            }),
        ),
        (
            "HTML title",
            form(&[
                ("milestone_projectid", &project),
                ("milestone_title", "<b>Launch</b>"),
                ("milestone_color", "info"),
            ]),
            json!({"milestone_title": ["The milestone title must not contain any HTML."]}),
        ),
        (
            "251 characters",
            form(&[
                ("milestone_projectid", &project),
                ("milestone_title", &"t".repeat(251)),
                ("milestone_color", "info"),
            ]),
            json!({"milestone_title": ["The milestone title may not be greater than 250 characters."]}),
        ),
        (
            "project not an integer",
            form(&[
                ("milestone_projectid", "abc"),
                ("milestone_title", "A"),
                ("milestone_color", "info"),
            ]),
            json!({"milestone_projectid": ["The milestone projectid must be an integer."]}),
        ),
    ];
    for (label, body, errors) in cases {
        let a = s.post("/api/milestones", body).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{label}: {}",
            a.json
        );
        assert_eq!(
            a.json,
            json!({"message": "The given data was invalid.", "errors": errors}),
            "{label}"
        );
    }
    assert_eq!(
        board(&s, s.ids.projects[0]).await,
        before,
        "nothing was written"
    );
    let count: i64 = s
        .sql()
        .await
        .query_one("SELECT count(*) FROM milestones", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(count, 10);

    let a = create(&s, s.ids.projects[0], &"t".repeat(250), "default").await;
    assert_eq!(
        a.status,
        StatusCode::CREATED,
        "250 characters are allowed: {}",
        a.json
    );
}

#[tokio::test]
async fn a_title_the_project_already_has_is_409_ignoring_case() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let duplicate =
        json!({"message": "A milestone with this title already exists in this project."});
    for title in ["Planning", "PLANNING", "planning", " Planning "] {
        let a = create(&s, project, title, "info").await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{title}: {}", a.json);
        assert_eq!(a.json, duplicate, "{title}");
    }
    let a = create(&s, project, "uncategorised", "info").await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);
    assert_eq!(
        board(&s, project).await,
        numbered(&SEEDED),
        "nothing was written"
    );
    assert_eq!(
        create(&s, project, "Go Live", "info").await.status,
        StatusCode::CREATED
    );
    assert_eq!(
        create(&s, s.ids.projects[1], "go live", "info")
            .await
            .status,
        StatusCode::CREATED,
        "another project may use it"
    );
}

#[tokio::test]
async fn an_update_changes_only_title_and_colour() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let id = seeded(&s, project, "Design");
    let before = s.get(&format!("/api/milestones/{id}")).await.data().clone();
    let a = s
        .patch(
            &format!("/api/milestones/{id}"),
            form(&[
                ("milestone_title", "Visual Design"),
                ("milestone_color", "warning"),
                ("milestone_projectid", &s.ids.projects[1].to_string()),
                ("milestone_type", "uncategorised"),
                ("milestone_position", "9"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.message(), "Milestone updated successfully.");
    assert_milestone_shape(a.data());
    let m = a.data();
    assert_eq!(
        (&m["title"], &m["color"]),
        (&json!("Visual Design"), &json!("warning"))
    );
    for kept in [
        "id",
        "project_id",
        "type",
        "position",
        "creator_id",
        "tasks_count",
    ] {
        assert_eq!(m[kept], before[kept], "{kept}");
    }
    assert_eq!(m["dates"]["created"], before["dates"]["created"]);
    assert_eq!(s.get(&format!("/api/milestones/{id}")).await.data(), m);

    let a = s
        .patch(
            &format!("/api/milestones/{id}"),
            json(json!({"milestone_title": "VISUAL DESIGN", "milestone_color": "info"})),
        )
        .await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "its own title in another case: {}",
        a.json
    );
}

#[tokio::test]
async fn an_update_is_validated_and_refuses_a_taken_title() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let id = seeded(&s, project, "Design");
    let path = format!("/api/milestones/{id}");
    let before = s.get(&path).await.data().clone();
    let a = s
        .patch(&path, form(&[("milestone_title", "Only a title")]))
        .await;
    assert_invalid(
        &a,
        json!({"milestone_color": ["The milestone color field is required."]}),
    );
    let a = s
        .patch(
            &path,
            form(&[
                ("milestone_title", "<i>x</i>"),
                ("milestone_color", "magenta"),
            ]),
        )
        .await;
    assert_invalid(
        &a,
        json!({
            "milestone_title": ["The milestone title must not contain any HTML."],
            "milestone_color": ["The selected milestone color is invalid."]
        }),
    );
    let a = s
        .patch(
            &path,
            form(&[("milestone_title", "testing"), ("milestone_color", "info")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);
    assert_eq!(
        a.json,
        json!({"message": "A milestone with this title already exists in this project."})
    );
    assert_eq!(s.get(&path).await.data(), &before, "nothing changed");
}

#[tokio::test]
async fn every_colour_key_is_accepted() {
    let s = TestServer::start().await;
    for color in [
        "default", "primary", "success", "info", "warning", "danger", "lime", "brown",
    ] {
        let a = create(&s, s.ids.projects[0], &format!("In {color}"), color).await;
        assert_eq!(a.status, StatusCode::CREATED, "{color}: {}", a.json);
        assert_eq!(a.data()["color"], color);
    }
}

// ---------------------------------------------------------------------------------------
// Errors on every by-id endpoint
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn unknown_ids_are_404_on_every_by_id_endpoint() {
    let s = TestServer::start().await;
    let not_found = json!({"message": "Milestone not found."});
    let cases: Vec<(Method, &str, Body)> = vec![
        (Method::GET, "/api/milestones/999999", Body::None),
        (
            Method::PATCH,
            "/api/milestones/999999",
            form(&[("milestone_title", "Valid"), ("milestone_color", "info")]),
        ),
        (Method::PATCH, "/api/milestones/999999", form(&[])),
        (Method::DELETE, "/api/milestones/999999", Body::None),
        (
            Method::DELETE,
            "/api/milestones/999999?delete_tasks=yes",
            Body::None,
        ),
    ];
    for (method, path, body) in cases {
        let label = format!("{method} {path}");
        let a = s.call(method, path, body).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{label}: {}", a.json);
        assert_eq!(a.json, not_found, "{label}");
    }
}

#[tokio::test]
async fn a_request_without_a_key_is_401_and_writes_nothing() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0].to_string();
    let body = form(&[
        ("milestone_projectid", &project),
        ("milestone_title", "Sneaky"),
        ("milestone_color", "info"),
    ]);
    let a = s.call_as("", Method::POST, "/api/milestones", body).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        a.json,
        json!({"message": "Unauthorized. A valid API key is required."})
    );
    assert_eq!(board(&s, s.ids.projects[0]).await, numbered(&SEEDED));
}

// ---------------------------------------------------------------------------------------
// Listing
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn the_list_is_the_projects_board_by_position_ascending() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    // Positions, not ids, decide: move Planning to the end of the stored order.
    s.sql()
        .await
        .execute(
            "UPDATE milestones SET position = 50 WHERE id = $1",
            &[&seeded(&s, project, "Planning")],
        )
        .await
        .unwrap();
    let a = s
        .get(&format!("/api/milestones?project_id={project}"))
        .await;
    assert_list(&a, 1, 35, 5);
    assert_eq!(
        titles(&a),
        [
            "Design",
            "Development",
            "Testing",
            "Uncategorised",
            "Planning"
        ]
    );
    for m in a.data().as_array().unwrap() {
        assert_milestone_shape(m);
        assert_eq!(m["project_id"], project, "only the project's milestones");
    }
    assert_eq!(a.data()[0]["tasks_count"], 2, "lists carry the task counts");

    let a = s
        .get(&format!("/api/milestones?project_id={project}&order=desc"))
        .await;
    assert_eq!(
        titles(&a),
        [
            "Planning",
            "Uncategorised",
            "Testing",
            "Development",
            "Design"
        ]
    );
    let a = s
        .get(&format!(
            "/api/milestones?project_id={project}&sort=milestone_title&order=asc"
        ))
        .await;
    assert_eq!(
        titles(&a),
        [
            "Design",
            "Development",
            "Planning",
            "Testing",
            "Uncategorised"
        ]
    );
    let a = s
        .get(&format!(
            "/api/milestones?project_id={project}&sort=milestone_title"
        ))
        .await;
    assert_eq!(
        titles(&a),
        [
            "Uncategorised",
            "Testing",
            "Planning",
            "Development",
            "Design"
        ],
        "an explicit sort defaults to desc"
    );
    let a = s
        .get(&format!(
            "/api/milestones?project_id={project}&sort=milestone_position&order=asc"
        ))
        .await;
    assert_eq!(
        titles(&a),
        [
            "Design",
            "Development",
            "Testing",
            "Uncategorised",
            "Planning"
        ]
    );
}

#[tokio::test]
async fn the_list_filters_by_type_and_searches_titles() {
    let s = TestServer::start().await;
    let project = s.ids.projects[1];
    let a = s
        .get(&format!(
            "/api/milestones?project_id={project}&type=uncategorised"
        ))
        .await;
    assert_list(&a, 1, 35, 1);
    assert_eq!(titles(&a), ["Uncategorised"]);
    let a = s
        .get(&format!(
            "/api/milestones?project_id={project}&type=categorised"
        ))
        .await;
    assert_list(&a, 1, 35, 4);
    let a = s
        .get(&format!("/api/milestones?project_id={project}&search=DE"))
        .await;
    assert_list(&a, 1, 35, 2);
    assert_eq!(titles(&a), ["Design", "Development"]);
    let a = s
        .get(&format!(
            "/api/milestones?project_id={project}&search=nothing-like-this"
        ))
        .await;
    assert_list(&a, 1, 35, 0);
    assert_eq!(a.data(), &json!([]));
    let a = s
        .get(&format!("/api/milestones?project_id={project}&search=D_s"))
        .await;
    assert_list(&a, 1, 35, 0);
}

#[tokio::test]
async fn pages_do_not_overlap_limits_are_capped_and_a_page_past_the_end_is_empty() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let mut seen = Vec::new();
    for page in 1..=3 {
        let a = s
            .get(&format!(
                "/api/milestones?project_id={project}&limit=2&page={page}"
            ))
            .await;
        assert_list(&a, page, 2, 5);
        seen.extend(titles(&a));
    }
    assert_eq!(seen, SEEDED);
    let a = s
        .get(&format!("/api/milestones?project_id={project}&limit=500"))
        .await;
    assert_list(&a, 1, 100, 5);
    let a = s
        .get(&format!(
            "/api/milestones?project_id={project}&page=4&limit=2"
        ))
        .await;
    assert_list(&a, 4, 2, 5);
    assert_eq!(a.data(), &json!([]));
}

#[tokio::test]
async fn listing_needs_an_existing_project_and_valid_parameters() {
    let s = TestServer::start().await;
    let p = s.ids.projects[0];
    let cases: Vec<(String, Value)> = vec![
        (
            String::new(),
            json!({"project_id": ["The project id field is required."]}),
        ),
        (
            "project_id=".into(),
            json!({"project_id": ["The project id field is required."]}),
        ),
        (
            "project_id=999999".into(),
            json!({"project_id": ["The selected project id is invalid."]}),
        ),
        (
            "project_id=999999&search=x&page=3".into(),
            json!({"project_id": ["The selected project id is invalid."]}),
        ),
        (
            "project_id=abc".into(),
            json!({"project_id": ["The project id must be an integer."]}),
        ),
        (
            format!("project_id={p}&type=other"),
            json!({"type": ["The selected type is invalid."]}),
        ),
        (
            format!("project_id={p}&sort=title"),
            json!({"sort": ["The selected sort is invalid."]}),
        ),
        (
            format!("project_id={p}&order=random"),
            json!({"order": ["The selected order is invalid."]}),
        ),
        (
            format!("project_id={p}&page=0"),
            json!({"page": ["The page must be at least 1."]}),
        ),
        (
            format!("project_id={p}&limit=none"),
            json!({"limit": ["The limit must be an integer."]}),
        ),
        (
            format!("project_id={p}&limit=-3"),
            json!({"limit": ["The limit must be at least 1."]}),
        ),
        (
            "project_id=999999&type=other".into(),
            json!({"project_id": ["The selected project id is invalid."], "type": ["The selected type is invalid."]}),
        ),
    ];
    for (query, errors) in cases {
        let a = s.get(&format!("/api/milestones?{query}")).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}: {}",
            a.json
        );
        assert_eq!(
            a.json,
            json!({"message": "The given data was invalid.", "errors": errors}),
            "{query}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Delete
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn deleting_moves_the_tasks_to_the_uncategorised_milestone() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let planning = seeded(&s, project, "Planning");
    let default = seeded(&s, project, "Uncategorised");
    let tasks = tasks_in(&s, planning).await;
    assert_eq!(tasks.len(), 2);
    let a = s.delete(&format!("/api/milestones/{planning}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(
        a.json,
        json!({"data": {"id": planning}, "message": "Milestone deleted successfully."})
    );
    assert_eq!(
        s.get(&format!("/api/milestones/{planning}")).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(tasks_in(&s, default).await, tasks);
    for table in ["tasks", "task_attachments", "task_comments", "task_timers"] {
        assert_eq!(rows_of_tasks(&s, table, &tasks).await, 2, "{table} kept");
    }
    assert_eq!(
        s.get(&format!("/api/milestones/{default}")).await.data()["tasks_count"],
        2
    );
    let a = s
        .get(&format!("/api/milestones?project_id={project}"))
        .await;
    assert_eq!(titles(&a), &SEEDED[1..]);
}

#[tokio::test]
async fn delete_tasks_other_than_yes_moves_them() {
    let s = TestServer::start().await;
    let project = s.ids.projects[1];
    let design = seeded(&s, project, "Design");
    let default = seeded(&s, project, "Uncategorised");
    let tasks = tasks_in(&s, design).await;
    let a = s
        .delete(&format!("/api/milestones/{design}?delete_tasks=no"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(tasks_in(&s, default).await, tasks);

    // Deleting is never a guess: `YES` is not `yes`.
    let development = seeded(&s, project, "Development");
    let more = tasks_in(&s, development).await;
    assert!(!more.is_empty());
    let a = s
        .delete(&format!("/api/milestones/{development}?delete_tasks=YES"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let mut expected = [tasks, more].concat();
    expected.sort_unstable();
    let mut moved = tasks_in(&s, default).await;
    moved.sort_unstable();
    assert_eq!(moved, expected);
}

#[tokio::test]
async fn delete_tasks_yes_deletes_them_with_attachments_comments_and_timers() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let default = seeded(&s, project, "Uncategorised");
    let bodies: Vec<(&str, &str, Body)> = vec![
        ("query string", "Planning", Body::None),
        ("form body", "Design", form(&[("delete_tasks", "yes")])),
        (
            "JSON body",
            "Development",
            json(json!({"delete_tasks": "yes"})),
        ),
    ];
    let untouched = tasks_in(&s, seeded(&s, s.ids.projects[1], "Planning")).await;
    for (label, title, body) in bodies {
        let id = seeded(&s, project, title);
        let tasks = tasks_in(&s, id).await;
        assert_eq!(tasks.len(), 2, "{label}");
        let path = if label == "query string" {
            format!("/api/milestones/{id}?delete_tasks=yes")
        } else {
            format!("/api/milestones/{id}")
        };
        let a = s.call(Method::DELETE, &path, body).await;
        assert_eq!(a.status, StatusCode::OK, "{label}: {}", a.json);
        assert_eq!(
            a.json,
            json!({"data": {"id": id}, "message": "Milestone deleted successfully."}),
            "{label}"
        );
        for table in ["tasks", "task_attachments", "task_comments", "task_timers"] {
            assert_eq!(
                rows_of_tasks(&s, table, &tasks).await,
                0,
                "{label}: {table}"
            );
        }
        assert_eq!(
            tasks_in(&s, default).await,
            Vec::<i64>::new(),
            "{label}: nothing was moved"
        );
    }
    assert_eq!(
        rows_of_tasks(&s, "tasks", &untouched).await,
        2,
        "other milestones keep their tasks"
    );
    assert_eq!(rows_of_tasks(&s, "task_timers", &untouched).await, 2);
}

#[tokio::test]
async fn the_uncategorised_milestone_cannot_be_deleted() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let default = seeded(&s, project, "Uncategorised");
    s.sql()
        .await
        .execute(
            "UPDATE tasks SET milestone_id = $1 WHERE milestone_id = $2",
            &[&default, &seeded(&s, project, "Planning")],
        )
        .await
        .unwrap();
    for path in [
        format!("/api/milestones/{default}"),
        format!("/api/milestones/{default}?delete_tasks=yes"),
    ] {
        let a = s.delete(&path).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{path}: {}", a.json);
        assert_eq!(
            a.json,
            json!({"message": "You cannot delete the default milestone."})
        );
    }
    assert_eq!(
        s.get(&format!("/api/milestones/{default}")).await.data()["tasks_count"],
        2,
        "its tasks are still there"
    );
}

// ---------------------------------------------------------------------------------------
// Reorder
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn reordering_puts_the_listed_milestones_first_and_the_others_follow() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let (testing, planning) = (
        seeded(&s, project, "Testing"),
        seeded(&s, project, "Planning"),
    );
    let other_before = board(&s, s.ids.projects[1]).await;
    let a = reorder(
        &s,
        form(&[
            ("milestones[]", &testing.to_string()),
            ("milestones[]", &planning.to_string()),
        ]),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(
        keys(&a.json),
        ["data", "message"],
        "a plain data array, no meta"
    );
    assert_eq!(a.message(), "Milestone positions updated successfully.");
    let expected = [
        "Testing",
        "Planning",
        "Design",
        "Development",
        "Uncategorised",
    ];
    assert_eq!(titles(&a), expected);
    for (m, position) in a.data().as_array().unwrap().iter().zip(1..) {
        assert_milestone_shape(m);
        assert_eq!(m["position"], position);
    }
    assert_eq!(board(&s, project).await, numbered(&expected));
    assert_eq!(
        board(&s, s.ids.projects[1]).await,
        other_before,
        "other projects are untouched"
    );
    let listed = s
        .get(&format!("/api/milestones?project_id={project}"))
        .await;
    assert_eq!(titles(&listed), expected);

    let a = create(&s, project, "After reorder", "info").await;
    assert_eq!(a.data()["position"], 6);
}

#[tokio::test]
async fn reordering_accepts_every_encoding() {
    let s = TestServer::start().await;
    let project = s.ids.projects[1];
    let id = |t: &str| seeded(&s, project, t);
    let (pl, de, dv, te, un) = (
        id("Planning"),
        id("Design"),
        id("Development"),
        id("Testing"),
        id("Uncategorised"),
    );
    let cases: Vec<(&str, Body, [&str; 5])> = vec![
        (
            "raw brackets",
            raw_form(&format!("milestones[]={un}&milestones[]={te}")),
            [
                "Uncategorised",
                "Testing",
                "Planning",
                "Design",
                "Development",
            ],
        ),
        (
            "percent-encoded brackets",
            form(&[
                ("milestones[]", &pl.to_string()),
                ("milestones[]", &de.to_string()),
            ]),
            [
                "Planning",
                "Design",
                "Uncategorised",
                "Testing",
                "Development",
            ],
        ),
        (
            "lower-case escapes",
            raw_form(&format!("milestones%5b%5d={dv}")),
            [
                "Development",
                "Planning",
                "Design",
                "Uncategorised",
                "Testing",
            ],
        ),
        (
            "sparse unordered indices",
            raw_form(&format!(
                "milestones[9]={pl}&milestones[2]={te}&milestones[5]={de}"
            )),
            [
                "Testing",
                "Design",
                "Planning",
                "Development",
                "Uncategorised",
            ],
        ),
        (
            "JSON numbers and strings",
            json(json!({"milestones": [un, dv.to_string(), pl, de, te]})),
            [
                "Uncategorised",
                "Development",
                "Planning",
                "Design",
                "Testing",
            ],
        ),
        (
            "multipart",
            multipart(&[
                ("milestones[]", &pl.to_string()),
                ("milestones[]", &de.to_string()),
                ("milestones[]", &dv.to_string()),
            ]),
            [
                "Planning",
                "Design",
                "Development",
                "Uncategorised",
                "Testing",
            ],
        ),
    ];
    for (label, body, expected) in cases {
        let a = reorder(&s, body).await;
        assert_eq!(a.status, StatusCode::OK, "{label}: {}", a.json);
        assert_eq!(titles(&a), expected, "{label}");
        assert_eq!(board(&s, project).await, numbered(&expected), "{label}");
    }
}

#[tokio::test]
async fn invalid_reorders_are_422_and_change_nothing() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let (pl, de) = (
        seeded(&s, project, "Planning").to_string(),
        seeded(&s, project, "Design").to_string(),
    );
    let foreign = seeded(&s, s.ids.projects[1], "Testing").to_string();
    let required = json!({"milestones": ["The milestones field is required."]});
    let cases: Vec<(&str, Body, Value)> = vec![
        ("missing", form(&[("other", "1")]), required.clone()),
        ("missing, JSON", json(json!({})), required.clone()),
        ("no body", Body::None, required.clone()),
        ("empty, form", raw_form("milestones[]="), required.clone()),
        (
            "empty, JSON",
            json(json!({"milestones": []})),
            required.clone(),
        ),
        (
            "empty, multipart",
            multipart(&[("milestones[]", "")]),
            required.clone(),
        ),
        (
            "not an array",
            form(&[("milestones", &pl)]),
            json!({"milestones": ["The milestones must be an array."]}),
        ),
        (
            "duplicate",
            form(&[("milestones[]", &pl), ("milestones[]", &pl)]),
            json!({"milestones.1": ["The milestones.1 field has a duplicate value."]}),
        ),
        (
            "unknown",
            form(&[("milestones[]", &de), ("milestones[]", "999999")]),
            json!({"milestones.1": ["The selected milestones.1 is invalid."]}),
        ),
        (
            "another project's",
            json(json!({"milestones": [pl, foreign]})),
            json!({"milestones.1": ["The selected milestones.1 is invalid."]}),
        ),
        (
            "not an integer",
            form(&[("milestones[]", &pl), ("milestones[]", "two")]),
            json!({"milestones.1": ["The milestones.1 must be an integer."]}),
        ),
        (
            "all unknown",
            form(&[("milestones[]", "999998"), ("milestones[]", "999999")]),
            json!({
                "milestones.0": ["The selected milestones.0 is invalid."],
                "milestones.1": ["The selected milestones.1 is invalid."]
            }),
        ),
        (
            "unknown beside a malformed one",
            json(json!({"milestones": [pl, "abc", 999999]})),
            json!({
                "milestones.1": ["The milestones.1 must be an integer."],
                "milestones.2": ["The selected milestones.2 is invalid."]
            }),
        ),
        (
            "unknown beside a duplicate",
            json(json!({"milestones": [999999, pl, pl]})),
            json!({
                "milestones.0": ["The selected milestones.0 is invalid."],
                "milestones.2": ["The milestones.2 field has a duplicate value."]
            }),
        ),
        (
            "unknown at a sparse index",
            raw_form(&format!("milestones[3]={pl}&milestones[7]=999999")),
            json!({"milestones.7": ["The selected milestones.7 is invalid."]}),
        ),
        (
            "unknown after a skipped null",
            json(json!({"milestones": [null, 999999]})),
            json!({"milestones.1": ["The selected milestones.1 is invalid."]}),
        ),
    ];
    for (label, body, errors) in cases {
        let a = reorder(&s, body).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{label}: {}",
            a.json
        );
        assert_eq!(
            a.json,
            json!({"message": "The given data was invalid.", "errors": errors}),
            "{label}"
        );
    }
    assert_eq!(board(&s, project).await, numbered(&SEEDED));
    assert_eq!(board(&s, s.ids.projects[1]).await, numbered(&SEEDED));
}

// ---------------------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn twenty_parallel_creates_of_one_title_give_one_milestone_and_nineteen_409s() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let titles: Vec<&str> = (0..20)
        .map(|i| ["Launch", "LAUNCH", "launch", "LaUnCh"][i % 4])
        .collect();
    let answers = join_all(titles.iter().map(|t| create(&s, project, t, "info"))).await;
    let statuses: Vec<StatusCode> = answers.iter().map(|a| a.status).collect();
    assert_eq!(
        statuses
            .iter()
            .filter(|st| **st == StatusCode::CREATED)
            .count(),
        1,
        "{statuses:?}"
    );
    for a in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);
        assert_eq!(
            a.json,
            json!({"message": "A milestone with this title already exists in this project."})
        );
    }
    let rows: i64 = s
        .sql()
        .await
        .query_one(
            "SELECT count(*) FROM milestones WHERE project_id = $1 AND lower(title) = 'launch'",
            &[&project],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(rows, 1);
}

#[tokio::test]
async fn parallel_creates_of_distinct_titles_get_distinct_positions() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let titles: Vec<String> = (1..=20).map(|i| format!("Sprint {i}")).collect();
    let answers = join_all(titles.iter().map(|t| create(&s, project, t, "primary"))).await;
    let mut positions: Vec<i64> = answers
        .iter()
        .map(|a| {
            assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
            a.data()["position"].as_i64().unwrap()
        })
        .collect();
    positions.sort_unstable();
    assert_eq!(positions, (6..=25).collect::<Vec<i64>>());
    let stored: Vec<i32> = board(&s, project)
        .await
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(stored, (1..=25).collect::<Vec<i32>>());
}

#[tokio::test]
async fn parallel_creates_and_reorders_of_one_project_keep_positions_one_to_n() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let (testing, design) = (
        seeded(&s, project, "Testing"),
        seeded(&s, project, "Design"),
    );
    let titles: Vec<String> = (1..=10).map(|i| format!("Wave {i}")).collect();
    let creates = join_all(titles.iter().map(|t| create(&s, project, t, "info")));
    let reorders = join_all((0..10).map(|i| {
        let ids = if i % 2 == 0 {
            json!({"milestones": [testing, design]})
        } else {
            json!({"milestones": [design]})
        };
        reorder(&s, json(ids))
    }));
    let (created, reordered) = tokio::join!(creates, reorders);
    assert!(created.iter().all(|a| a.status == StatusCode::CREATED));
    assert!(reordered.iter().all(|a| a.status == StatusCode::OK));
    let positions: Vec<i32> = board(&s, project)
        .await
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(
        positions,
        (1..=15).collect::<Vec<i32>>(),
        "no position taken twice, none skipped"
    );
}
