//! `/api/categories`: validation of create and update.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{TestServer, assert_errors, form, id_of, json};

use super::{assert_category_shape, category_rows, create};

#[tokio::test]
async fn a_category_without_name_and_type_is_422_naming_both() {
    let s = TestServer::start().await;
    let before = category_rows(&s).await;
    let required = json!({
        "category_name": ["The category name field is required."],
        "category_type": ["The category type field is required."]
    });
    assert_errors(
        &s.post("/api/categories", form(&[("category_icon", "x")]))
            .await,
        required.clone(),
    );
    assert_errors(
        &s.post("/api/categories", json(json!({}))).await,
        required.clone(),
    );
    assert_errors(
        &s.post(
            "/api/categories",
            form(&[("category_name", ""), ("category_type", "")]),
        )
        .await,
        required.clone(),
    );
    assert_errors(
        &s.post(
            "/api/categories",
            form(&[("category_name", "   "), ("category_type", "project")]),
        )
        .await,
        json!({
            "category_name": ["The category name field is required."]
        }),
    );
    assert_eq!(category_rows(&s).await, before, "nothing was written");
}

#[tokio::test]
async fn invalid_types_visibilities_long_names_and_html_are_422() {
    let s = TestServer::start().await;
    let before = category_rows(&s).await;
    let a = s
        .post(
            "/api/categories",
            form(&[("category_name", "X"), ("category_type", "planet")]),
        )
        .await;
    assert_errors(
        &a,
        json!({"category_type": ["The selected category type is invalid."]}),
    );
    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "X"),
                ("category_type", "project"),
                ("category_visibility", "world"),
            ]),
        )
        .await;
    assert_errors(
        &a,
        json!({"category_visibility": ["The selected category visibility is invalid."]}),
    );
    let long = "n".repeat(151);
    let a = s
        .post(
            "/api/categories",
            form(&[("category_name", &long), ("category_type", "project")]),
        )
        .await;
    assert_errors(
        &a,
        json!({"category_name": ["The category name may not be greater than 150 characters."]}),
    );
    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "<b>Bold</b>"),
                ("category_type", "project"),
            ]),
        )
        .await;
    assert_errors(
        &a,
        json!({"category_name": ["The category name must not contain any HTML."]}),
    );
    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "<script>x</script>"),
                ("category_type", "nope"),
                ("category_visibility", "x"),
            ]),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "category_name": ["The category name must not contain any HTML."],
            "category_type": ["The selected category type is invalid."],
            "category_visibility": ["The selected category visibility is invalid."]
        }),
    );
    assert_eq!(category_rows(&s).await, before, "nothing was written");

    let exactly = "é".repeat(150);
    let a = s
        .post(
            "/api/categories",
            form(&[("category_name", &exactly), ("category_type", "project")]),
        )
        .await;
    assert_eq!(
        a.status,
        StatusCode::CREATED,
        "150 characters (not bytes) are allowed: {}",
        a.json
    );
    assert_eq!(a.data()["name"], exactly);
}

#[tokio::test]
async fn every_listed_type_is_accepted() {
    let s = TestServer::start().await;
    for kind in [
        "project",
        "client",
        "contract",
        "estimate",
        "invoice",
        "lead",
        "ticket",
        "item",
        "expense",
        "proposal",
        "knowledgebase",
        "subscription",
    ] {
        let c = create(&s, "Typed", kind).await;
        assert_eq!(c["type"], kind);
        assert_eq!(c["count"], 0);
    }
}

#[tokio::test]
async fn duplicate_names_within_a_type_are_422_ignoring_case_but_other_types_may_reuse_them() {
    let s = TestServer::start().await;
    create(&s, "Design", "project").await;
    let duplicate = json!({"category_name": ["A category with this name already exists."]});
    for name in ["Design", "DESIGN", "design", "  dEsIgN  "] {
        let a = s
            .post(
                "/api/categories",
                form(&[("category_name", name), ("category_type", "project")]),
            )
            .await;
        assert_errors(&a, duplicate.clone());
    }
    let a = s
        .post(
            "/api/categories",
            json(json!({"category_name": "default", "category_type": "project"})),
        )
        .await;
    assert_errors(&a, duplicate.clone());
    let count: i64 = s
        .sql()
        .await
        .query_one(
            "SELECT count(*) FROM categories WHERE type = 'project' AND lower(name) = 'design'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(count, 1);
    create(&s, "Études", "project").await;
    let a = s
        .post(
            "/api/categories",
            form(&[("category_name", "ÉTUDES"), ("category_type", "project")]),
        )
        .await;
    assert_errors(&a, duplicate.clone());
    let other = create(&s, "design", "client").await;
    assert_eq!(other["name"], "design");
}

#[tokio::test]
async fn a_taken_name_is_reported_with_the_other_failing_fields() {
    let s = TestServer::start().await;
    create(&s, "Design", "project").await;
    let c = create(&s, "Sales", "project").await;
    let before = category_rows(&s).await;

    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "design"),
                ("category_type", "project"),
                ("category_visibility", "bogus"),
                ("category_icon", &"i".repeat(251)),
            ]),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "category_name": ["A category with this name already exists."],
            "category_icon": ["The category icon may not be greater than 250 characters."],
            "category_visibility": ["The selected category visibility is invalid."]
        }),
    );
    // Free in another type: only the real failure.
    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "Design"),
                ("category_type", "client"),
                ("category_visibility", "bogus"),
            ]),
        )
        .await;
    assert_errors(
        &a,
        json!({"category_visibility": ["The selected category visibility is invalid."]}),
    );

    // A rename to another category's name, and to its own name in other letters.
    let path = format!("/api/categories/{}", id_of(&c));
    let a = s
        .patch(
            &path,
            form(&[
                ("category_name", "DESIGN"),
                ("category_visibility", "bogus"),
            ]),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "category_name": ["A category with this name already exists."],
            "category_visibility": ["The selected category visibility is invalid."]
        }),
    );
    let a = s
        .patch(
            &path,
            form(&[("category_name", "SALES"), ("category_visibility", "bogus")]),
        )
        .await;
    assert_errors(
        &a,
        json!({"category_visibility": ["The selected category visibility is invalid."]}),
    );
    assert_eq!(category_rows(&s).await, before, "nothing was written");
    assert_eq!(s.get(&path).await.data(), &c, "nothing changed");
}

#[tokio::test]
async fn renaming_regenerates_the_slug_and_the_type_cannot_change() {
    let s = TestServer::start().await;
    let c = create(&s, "Development", "project").await;
    let id = id_of(&c);
    assert_eq!(c["slug"], format!("{id}-development"));
    let a = s
        .patch(
            &format!("/api/categories/{id}"),
            form(&[
                ("category_name", "Dev & Engineering"),
                ("category_type", "client"),
                ("category_description", "Work."),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.message(), "Category updated successfully.");
    assert_category_shape(a.data());
    assert_eq!(a.data()["name"], "Dev & Engineering");
    assert_eq!(a.data()["slug"], format!("{id}-dev-engineering"));
    assert_eq!(a.data()["type"], "project", "the type is immutable");
    assert_eq!(a.data()["description"], "Work.");
    assert_eq!(a.data()["dates"]["created"], c["dates"]["created"]);
    assert!(a.data()["dates"]["updated"].as_str() >= c["dates"]["updated"].as_str());
    let stored: String = s
        .sql()
        .await
        .query_one("SELECT type FROM categories WHERE id = $1", &[&id])
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, "project");

    let got = s.get(&format!("/api/categories/{id}")).await;
    assert_eq!(got.data(), a.data());

    let a = s
        .patch(
            &format!("/api/categories/{id}"),
            json(json!({"category_name": "Café Crème"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["slug"], format!("{id}-cafe-creme"));
    assert_eq!(a.data()["description"], "Work.", "an absent field is kept");
}

#[tokio::test]
async fn an_update_patches_visibility_description_and_icon() {
    let s = TestServer::start().await;
    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "Ops"),
                ("category_type", "project"),
                ("category_visibility", "team"),
                ("category_icon", "ti"),
            ]),
        )
        .await;
    let id = id_of(a.data());
    let a = s
        .patch(
            &format!("/api/categories/{id}"),
            form(&[
                ("category_name", "Ops"),
                ("category_visibility", "client"),
                ("category_icon", ""),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["visibility"], "client");
    assert_eq!(a.data()["icon"], Value::Null, "an empty field clears");
    let a = s
        .patch(
            &format!("/api/categories/{id}"),
            form(&[("category_name", "OPS")]),
        )
        .await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "a category may change the case of its own name: {}",
        a.json
    );
    assert_eq!(
        (&a.data()["name"], &a.data()["visibility"]),
        (&json!("OPS"), &json!("client"))
    );
}

#[tokio::test]
async fn an_update_needs_a_valid_unique_name() {
    let s = TestServer::start().await;
    create(&s, "Marketing", "project").await;
    let c = create(&s, "Sales", "project").await;
    let path = format!("/api/categories/{}", id_of(&c));
    let a = s.patch(&path, form(&[("category_icon", "x")])).await;
    assert_errors(
        &a,
        json!({"category_name": ["The category name field is required."]}),
    );
    let a = s
        .patch(
            &path,
            form(&[
                ("category_name", &"x".repeat(151)),
                ("category_visibility", "all"),
            ]),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "category_name": ["The category name may not be greater than 150 characters."],
            "category_visibility": ["The selected category visibility is invalid."]
        }),
    );
    let a = s
        .patch(&path, form(&[("category_name", "<i>Sales</i>")]))
        .await;
    assert_errors(
        &a,
        json!({"category_name": ["The category name must not contain any HTML."]}),
    );
    let a = s
        .patch(&path, form(&[("category_name", "MARKETING")]))
        .await;
    assert_errors(
        &a,
        json!({"category_name": ["A category with this name already exists."]}),
    );
    let got = s.get(&path).await;
    assert_eq!(got.data(), &c, "nothing changed");
}
