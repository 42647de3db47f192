//! Look-alike names and normalised text through the API (issue 33, item 6): the four
//! look-alikes of `Default` the issue created are refused (the invisible ones as a format
//! error naming the field, the fullwidth one as the name already taken), nothing is
//! written, and a search sent decomposed finds the records stored composed.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, assert_errors, form, json};

const TAKEN: &str = "A category with this name already exists.";

/// Categories of type `project` as stored, by id.
async fn project_categories(s: &TestServer) -> Vec<String> {
    s.sql()
        .await
        .query(
            "SELECT name FROM categories WHERE type = 'project' ORDER BY id",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

#[tokio::test]
async fn the_four_look_alikes_of_default_are_refused_beside_it() {
    let s = TestServer::start().await;
    let before = project_categories(&s).await;
    assert!(before.iter().any(|n| n == "Default"), "{before:?}");
    for name in ["Default\u{200B}", "\u{202E}Default", "Def\u{AD}ault"] {
        let a = s
            .post(
                "/api/categories",
                json(json!({"category_name": name, "category_type": "project"})),
            )
            .await;
        assert_errors(
            &a,
            json!({"category_name": ["The category name format is invalid."]}),
        );
    }
    for name in ["Ｄefault", "ＤＥＦＡＵＬＴ", "default"] {
        let a = s
            .post(
                "/api/categories",
                form(&[("category_name", name), ("category_type", "project")]),
            )
            .await;
        assert_errors(&a, json!({"category_name": [TAKEN]}));
    }
    // Reported with the request's other failures, as a taken name always is.
    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "ｄｅｆａｕｌｔ"),
                ("category_type", "project"),
                ("category_visibility", "bogus"),
            ]),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "category_name": [TAKEN],
            "category_visibility": ["The selected category visibility is invalid."]
        }),
    );
    assert_eq!(project_categories(&s).await, before, "nothing was written");
}

#[tokio::test]
async fn a_milestone_title_imitating_another_is_the_duplicate_conflict() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0].to_string();
    let create = |title: &'static str| {
        form(&[
            ("milestone_projectid", project.as_str()),
            ("milestone_title", title),
            ("milestone_color", "info"),
        ])
    };
    let a = s.post("/api/milestones", create("Launch")).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    for title in ["ＬＡＵＮＣＨ", "Ｌaunch"] {
        let a = s.post("/api/milestones", create(title)).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{title}: {}", a.json);
        assert_eq!(
            a.json,
            json!({"message": "A milestone with this title already exists in this project."})
        );
    }
    let a = s.post("/api/milestones", create("Launch\u{2060}")).await;
    assert_errors(
        &a,
        json!({"milestone_title": ["The milestone title format is invalid."]}),
    );
}

#[tokio::test]
async fn text_is_stored_composed_and_a_decomposed_search_finds_it() {
    let s = TestServer::start().await;
    let composed = s
        .created(
            "/api/categories",
            json!({"category_name": "Café Crème", "category_type": "lead"}),
        )
        .await;
    let decomposed = s
        .post(
            "/api/categories",
            json(json!({"category_name": "Cafe\u{301} Noir", "category_type": "lead"})),
        )
        .await;
    assert_eq!(
        decomposed.status,
        StatusCode::CREATED,
        "{}",
        decomposed.json
    );
    assert_eq!(decomposed.data()["name"], "Café Noir");
    // The same name decomposed is the name already taken.
    let a = s
        .post(
            "/api/categories",
            json(json!({"category_name": "Cafe\u{301} Cre\u{300}me", "category_type": "lead"})),
        )
        .await;
    assert_errors(&a, json!({"category_name": [TAKEN]}));
    // "cafe" + U+0301, percent-encoded in the query string.
    let a = s.get("/api/categories?type=lead&search=cafe%CC%81").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let mut found: Vec<i64> = a.json["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect();
    found.sort_unstable();
    assert_eq!(found, [composed, decomposed.data()["id"].as_i64().unwrap()]);
}
