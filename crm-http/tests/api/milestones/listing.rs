//! `/api/milestones`: listing.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::TestServer;

use super::{SEEDED, assert_list, assert_milestone_shape, seeded, titles};

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
