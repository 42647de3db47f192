//! `/api/milestones`: validation, duplicates, update.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Body, TestServer, assert_errors, form, json};

use super::{SEEDED, assert_milestone_shape, board, create, numbered, seeded};

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
    assert_errors(
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
    assert_errors(
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
