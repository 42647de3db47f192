//! `/api/milestones`: reorder.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Body, TestServer, form, json, keys, multipart, raw_form};

use super::{SEEDED, assert_milestone_shape, board, create, numbered, reorder, seeded, titles};

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
