//! `/api/categories` (API.md §3, reference/categories.md): the seven endpoints end to end —
//! the record shape and envelopes, every error the contract names, counts, the team with
//! its project permissions, migration, the three body encodings of `users`, and duplicate
//! names under concurrency.

use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{
    Answer, Body, TestServer, assert_timestamp, form, id_of, json, keys, multipart, raw_form,
};

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
    assert_eq!(a.message(), "Categories retrieved successfully.");
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

/// The system-default category of `kind`.
async fn default_category(s: &TestServer, kind: &str) -> i64 {
    let sql = "SELECT id FROM categories WHERE type = $1 AND system_default";
    s.sql().await.query_one(sql, &[&kind]).await.unwrap().get(0)
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

// ---------------------------------------------------------------------------------------
// Create and read
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_created_category_has_the_reference_shape_and_is_201() {
    let s = TestServer::start().await;
    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "Dev & Engineering"),
                ("category_type", "project"),
                ("category_visibility", "team"),
                ("category_description", "Software development work."),
                ("category_icon", "ti ti-folder"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(keys(&a.json), ["data", "message"]);
    assert_eq!(a.message(), "Category created successfully.");
    let c = a.data();
    assert_category_shape(c);
    let id = id_of(c);
    assert_eq!(c["name"], "Dev & Engineering");
    assert_eq!(c["description"], "Software development work.");
    assert_eq!(c["type"], "project");
    assert_eq!(c["visibility"], "team");
    assert_eq!(c["icon"], "ti ti-folder");
    assert_eq!(c["system_default"], "no");
    assert_eq!(c["slug"], format!("{id}-dev-engineering"));
    assert_eq!(
        (c["count"].as_i64(), c["users_count"].as_i64()),
        (Some(0), Some(0))
    );
    let row = s
        .sql()
        .await
        .query_one(
            "SELECT name, type, creator_id FROM categories WHERE id = $1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(
        (row.get::<_, String>(0), row.get::<_, String>(1)),
        ("Dev & Engineering".into(), "project".into())
    );
    assert_eq!(
        row.get::<_, Option<i64>>(2),
        Some(1),
        "the key's user is the creator"
    );

    let got = s.get(&format!("/api/categories/{id}")).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(
        got.json,
        json!({"data": c, "message": "Category retrieved successfully."})
    );
}

#[tokio::test]
async fn optional_fields_left_out_or_empty_are_null() {
    let s = TestServer::start().await;
    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "Plain"),
                ("category_type", "client"),
                ("category_visibility", ""),
                ("category_icon", ""),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_category_shape(a.data());
    assert_eq!(
        (
            &a.data()["visibility"],
            &a.data()["description"],
            &a.data()["icon"]
        ),
        (&Value::Null, &Value::Null, &Value::Null)
    );
}

#[tokio::test]
async fn a_category_can_be_created_with_json_and_multipart_bodies() {
    let s = TestServer::start().await;
    let a = s.post("/api/categories", json(json!({"category_name": "From JSON", "category_type": "lead", "category_visibility": "client"}))).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(
        (
            &a.data()["name"],
            &a.data()["type"],
            &a.data()["visibility"]
        ),
        (&json!("From JSON"), &json!("lead"), &json!("client"))
    );
    let a = s
        .post(
            "/api/categories",
            multipart(&[
                ("category_name", "From Multipart"),
                ("category_type", "ticket"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(
        (&a.data()["name"], &a.data()["type"]),
        (&json!("From Multipart"), &json!("ticket"))
    );
    assert_eq!(
        a.data()["slug"],
        format!("{}-from-multipart", id_of(a.data()))
    );
}

#[tokio::test]
async fn the_system_defaults_exist_one_per_type_and_say_yes() {
    let s = TestServer::start().await;
    let a = s
        .get("/api/categories?limit=100&sort=category_type&order=asc")
        .await;
    assert_list(&a, 1, 100, 9);
    let defaults: Vec<(String, String, String)> = a
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_category_shape(c);
            (
                c["type"].as_str().unwrap().to_owned(),
                c["name"].as_str().unwrap().to_owned(),
                c["system_default"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String)> = [
        "client", "contract", "estimate", "expense", "invoice", "item", "lead", "project", "ticket",
    ]
    .iter()
    .map(|t| {
        (
            (*t).to_owned(),
            if *t == "ticket" { "Support" } else { "Default" }.to_owned(),
            "yes".to_owned(),
        )
    })
    .collect();
    assert_eq!(defaults, expected);
}

// ---------------------------------------------------------------------------------------
// Validation of create and update
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_category_without_name_and_type_is_422_naming_both() {
    let s = TestServer::start().await;
    let before = category_rows(&s).await;
    let required = json!({
        "category_name": ["The category name field is required."],
        "category_type": ["The category type field is required."]
    });
    assert_invalid(
        &s.post("/api/categories", form(&[("category_icon", "x")]))
            .await,
        required.clone(),
    );
    assert_invalid(
        &s.post("/api/categories", json(json!({}))).await,
        required.clone(),
    );
    assert_invalid(
        &s.post(
            "/api/categories",
            form(&[("category_name", ""), ("category_type", "")]),
        )
        .await,
        required.clone(),
    );
    assert_invalid(
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
    assert_invalid(
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
    assert_invalid(
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
    assert_invalid(
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
    assert_invalid(
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
    assert_invalid(
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
        assert_invalid(&a, duplicate.clone());
    }
    let a = s
        .post(
            "/api/categories",
            json(json!({"category_name": "default", "category_type": "project"})),
        )
        .await;
    assert_invalid(&a, duplicate.clone());
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
    assert_invalid(&a, duplicate.clone());
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
    assert_invalid(
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
    assert_invalid(
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
    assert_invalid(
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
    assert_invalid(
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
    assert_invalid(
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
    assert_invalid(
        &a,
        json!({
            "category_name": ["The category name may not be greater than 150 characters."],
            "category_visibility": ["The selected category visibility is invalid."]
        }),
    );
    let a = s
        .patch(&path, form(&[("category_name", "<i>Sales</i>")]))
        .await;
    assert_invalid(
        &a,
        json!({"category_name": ["The category name must not contain any HTML."]}),
    );
    let a = s
        .patch(&path, form(&[("category_name", "MARKETING")]))
        .await;
    assert_invalid(
        &a,
        json!({"category_name": ["A category with this name already exists."]}),
    );
    let got = s.get(&path).await;
    assert_eq!(got.data(), &c, "nothing changed");
}

// ---------------------------------------------------------------------------------------
// Errors on every by-id endpoint
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn unknown_ids_are_404_on_every_by_id_endpoint() {
    let s = TestServer::start().await;
    let target = default_category(&s, "project").await;
    let not_found = json!({"message": "Category not found."});
    let target_text = target.to_string();
    let cases: Vec<(Method, &str, Body)> = vec![
        (Method::GET, "/api/categories/999999", Body::None),
        (
            Method::PATCH,
            "/api/categories/999999",
            form(&[("category_name", "Valid")]),
        ),
        (Method::DELETE, "/api/categories/999999", Body::None),
        (
            Method::PUT,
            "/api/categories/999999/team",
            form(&[("users[]", "1")]),
        ),
        (
            Method::PUT,
            "/api/categories/999999/migrate",
            form(&[("target_id", &target_text)]),
        ),
        // An invalid body on a missing record is still a 404.
        (Method::PATCH, "/api/categories/999999", form(&[])),
        (Method::PUT, "/api/categories/999999/team", form(&[])),
        (
            Method::PUT,
            "/api/categories/999999/migrate",
            form(&[("target_id", "999999")]),
        ),
        (Method::PUT, "/api/categories/999999/migrate", form(&[])),
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
    let before = category_rows(&s).await;
    let a = s
        .call_as(
            "crm_1_nope",
            Method::POST,
            "/api/categories",
            form(&[("category_name", "Sneaky"), ("category_type", "project")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        a.json,
        json!({"message": "Unauthorized. A valid API key is required."})
    );
    assert_eq!(category_rows(&s).await, before);
}

// ---------------------------------------------------------------------------------------
// Listing
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn the_list_is_newest_first_and_filters_by_type_visibility_and_search() {
    let s = TestServer::start().await;
    let a = s
        .post(
            "/api/categories",
            form(&[
                ("category_name", "Web 50%_off"),
                ("category_type", "project"),
                ("category_visibility", "team"),
            ]),
        )
        .await;
    let web = id_of(a.data());
    let mobile = id_of(&create(&s, "Mobile apps", "project").await);
    let web_clients = id_of(&create(&s, "Web clients", "client").await);

    let a = s.get("/api/categories").await;
    assert_list(&a, 1, 35, 12);
    let ids: Vec<i64> = a.data().as_array().unwrap().iter().map(id_of).collect();
    assert_eq!(
        &ids[..3],
        &[web_clients, mobile, web],
        "newest first by default"
    );
    assert!(ids.windows(2).all(|w| w[0] > w[1]));

    let a = s.get("/api/categories?type=project").await;
    assert_list(&a, 1, 35, 3);
    assert!(
        a.data()
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["type"] == "project")
    );

    let a = s.get("/api/categories?visibility=team").await;
    assert_list(&a, 1, 35, 1);
    assert_eq!(id_of(&a.data()[0]), web);

    let a = s.get("/api/categories?search=WEB").await;
    assert_list(&a, 1, 35, 2);
    let a = s.get("/api/categories?search=WEB&type=client").await;
    assert_list(&a, 1, 35, 1);
    assert_eq!(id_of(&a.data()[0]), web_clients);
    let a = s.get("/api/categories?search=50%25_").await;
    assert_list(&a, 1, 35, 1);
    assert_eq!(id_of(&a.data()[0]), web, "% and _ are literal");
    let a = s.get("/api/categories?search=0%25o").await;
    assert_list(&a, 1, 35, 0);
    let a = s.get("/api/categories?search=b_5").await;
    assert_list(&a, 1, 35, 0);

    let a = s
        .get("/api/categories?type=project&sort=category_name&order=asc")
        .await;
    let names: Vec<&str> = a
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Default", "Mobile apps", "Web 50%_off"]);
    let a = s
        .get("/api/categories?type=project&sort=category_created&order=desc")
        .await;
    let ids: Vec<i64> = a.data().as_array().unwrap().iter().map(id_of).collect();
    assert_eq!(ids[..2], [mobile, web]);
}

#[tokio::test]
async fn pages_do_not_overlap_limits_are_capped_and_a_page_past_the_end_is_empty() {
    let s = TestServer::start().await;
    let mut seen = Vec::new();
    for page in 1..=3 {
        let a = s
            .get(&format!(
                "/api/categories?limit=4&page={page}&sort=category_name&order=asc"
            ))
            .await;
        assert_list(&a, page, 4, 9);
        seen.extend(a.data().as_array().unwrap().iter().map(id_of));
    }
    seen.sort_unstable();
    assert_eq!(
        seen,
        (1..=9).collect::<Vec<i64>>(),
        "every category once, ties broken by id"
    );

    let a = s.get("/api/categories?limit=500").await;
    assert_list(&a, 1, 100, 9);
    let a = s.get("/api/categories?page=7&limit=5").await;
    assert_list(&a, 7, 5, 9);
    assert_eq!(a.data(), &json!([]));
}

#[tokio::test]
async fn invalid_list_parameters_are_422_with_their_messages() {
    let s = TestServer::start().await;
    let cases = [
        (
            "type=planet",
            json!({"type": ["The selected type is invalid."]}),
        ),
        (
            "visibility=world",
            json!({"visibility": ["The selected visibility is invalid."]}),
        ),
        (
            "sort=name",
            json!({"sort": ["The selected sort is invalid."]}),
        ),
        (
            "order=up",
            json!({"order": ["The selected order is invalid."]}),
        ),
        ("page=0", json!({"page": ["The page must be at least 1."]})),
        (
            "page=abc",
            json!({"page": ["The page must be an integer."]}),
        ),
        (
            "limit=0",
            json!({"limit": ["The limit must be at least 1."]}),
        ),
        (
            "limit=x",
            json!({"limit": ["The limit must be an integer."]}),
        ),
        (
            "limit=2.5",
            json!({"limit": ["The limit must be an integer."]}),
        ),
        (
            "type=x&page=-1&order=sideways",
            json!({
                "type": ["The selected type is invalid."],
                "page": ["The page must be at least 1."],
                "order": ["The selected order is invalid."]
            }),
        ),
    ];
    for (query, errors) in cases {
        let a = s.get(&format!("/api/categories?{query}")).await;
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
// Counts and deletion
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn count_is_the_number_of_records_of_the_type_and_users_count_the_team() {
    let s = TestServer::start().await;
    let seeded = [
        ("project", 2),
        ("client", 3),
        ("lead", 2),
        ("ticket", 1),
        ("item", 1),
        ("expense", 1),
    ];
    for (kind, count) in seeded {
        let id = default_category(&s, kind).await;
        let a = s.get(&format!("/api/categories/{id}")).await;
        assert_eq!(a.data()["count"], count, "{kind}");
        assert_eq!(a.data()["users_count"], 0, "{kind}");
    }
    let projects = id_of(&create(&s, "Client work", "project").await);
    put_into(&s, "projects", s.ids.projects[0], projects).await;
    let a = s.get(&format!("/api/categories/{projects}")).await;
    assert_eq!(a.data()["count"], 1);
    let default_projects = default_category(&s, "project").await;
    assert_eq!(
        s.get(&format!("/api/categories/{default_projects}"))
            .await
            .data()["count"],
        1
    );

    // A category counts only the records of its own type.
    let clients = id_of(&create(&s, "Client work", "client").await);
    put_into(&s, "clients", s.ids.clients[0].id, clients).await;
    assert_eq!(
        s.get(&format!("/api/categories/{clients}")).await.data()["count"],
        1
    );
    assert_eq!(
        s.get(&format!("/api/categories/{projects}")).await.data()["count"],
        1
    );
    let proposals = id_of(&create(&s, "Proposals", "proposal").await);
    assert_eq!(
        s.get(&format!("/api/categories/{proposals}")).await.data()["count"],
        0
    );

    let a = set_team(&s, projects, form(&[("users[]", "2"), ("users[]", "3")])).await;
    assert_eq!(a.data()["users_count"], 2);
    let listed = s.get("/api/categories?type=project&search=client").await;
    assert_list(&listed, 1, 35, 1);
    assert_eq!(
        (&listed.data()[0]["count"], &listed.data()[0]["users_count"]),
        (&json!(1), &json!(2)),
        "lists carry the counts"
    );
}

#[tokio::test]
async fn deleting_an_empty_category_removes_it_and_its_team() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Temporary", "project").await);
    assert_eq!(
        set_team(&s, id, form(&[("users[]", "3")])).await.status,
        StatusCode::OK
    );
    let a = s.delete(&format!("/api/categories/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(
        a.json,
        json!({"data": {"id": id}, "message": "Category deleted successfully."})
    );
    assert_eq!(
        s.get(&format!("/api/categories/{id}")).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(team_of(&s, id).await, Vec::<i64>::new());
    assert_eq!(
        s.delete(&format!("/api/categories/{id}")).await.status,
        StatusCode::NOT_FOUND,
        "a second delete"
    );
}

#[tokio::test]
async fn system_default_categories_cannot_be_deleted() {
    let s = TestServer::start().await;
    for kind in ["contract", "project", "ticket"] {
        let id = default_category(&s, kind).await;
        let a = s.delete(&format!("/api/categories/{id}")).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{kind}");
        assert_eq!(
            a.json,
            json!({"message": "You cannot delete a system default category."}),
            "{kind}"
        );
        assert_eq!(
            s.get(&format!("/api/categories/{id}")).await.status,
            StatusCode::OK
        );
    }
}

#[tokio::test]
async fn a_category_with_records_cannot_be_deleted() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Busy", "lead").await);
    put_into(&s, "leads", s.ids.leads[0], id).await;
    let a = s.delete(&format!("/api/categories/{id}")).await;
    assert_eq!(a.status, StatusCode::CONFLICT);
    assert_eq!(
        a.json,
        json!({"message": "This category is not empty. First move its items to another category."})
    );
    assert_eq!(
        s.get(&format!("/api/categories/{id}")).await.data()["count"],
        1
    );
}

// ---------------------------------------------------------------------------------------
// Team
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_team_replaces_the_full_set_in_every_encoding() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Team work", "project").await);
    let cases: Vec<(&str, Body, Vec<i64>)> = vec![
        ("raw brackets", raw_form("users[]=3&users[]=4"), vec![3, 4]),
        (
            "percent-encoded brackets",
            form(&[("users[]", "1"), ("users[]", "2")]),
            vec![1, 2],
        ),
        (
            "lower-case escapes",
            raw_form("users%5b%5d=4&users%5b%5d=1"),
            vec![1, 4],
        ),
        (
            "sparse unordered indices",
            raw_form("users[3]=2&users[1]=3"),
            vec![2, 3],
        ),
        (
            "indexed, percent-encoded",
            raw_form("users%5B7%5D=1&users%5B0%5D=4"),
            vec![1, 4],
        ),
        (
            "JSON numbers and strings",
            json(json!({"users": [1, "3", 4]})),
            vec![1, 3, 4],
        ),
        (
            "multipart",
            multipart(&[("users[]", "2"), ("users[]", "4")]),
            vec![2, 4],
        ),
    ];
    for (label, body, expected) in cases {
        let a = set_team(&s, id, body).await;
        assert_eq!(a.status, StatusCode::OK, "{label}: {}", a.json);
        assert_eq!(
            a.message(),
            "Category team updated successfully.",
            "{label}"
        );
        assert_category_shape(a.data());
        assert_eq!(a.data()["id"], id);
        assert_eq!(a.data()["users_count"], expected.len(), "{label}");
        assert_eq!(team_of(&s, id).await, expected, "{label}");
    }
}

#[tokio::test]
async fn an_empty_set_clears_the_team_in_every_encoding() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Clearable", "project").await);
    let empties: Vec<(&str, Body)> = vec![
        ("users[]=", raw_form("users[]=")),
        ("users=", raw_form("users=")),
        (
            "users[]= twice, percent-encoded",
            form(&[("users[]", ""), ("users[]", "")]),
        ),
        ("JSON []", json(json!({"users": []}))),
        // null is what Laravel makes of `users=`, which the contract reads as the empty set.
        ("JSON null", json(json!({"users": null}))),
        ("multipart users[] empty", multipart(&[("users[]", "")])),
    ];
    for (label, body) in empties {
        assert_eq!(
            set_team(&s, id, form(&[("users[]", "1"), ("users[]", "2")]))
                .await
                .data()["users_count"],
            2
        );
        let a = set_team(&s, id, body).await;
        assert_eq!(a.status, StatusCode::OK, "{label}: {}", a.json);
        assert_eq!(a.data()["users_count"], 0, "{label}");
        assert_eq!(team_of(&s, id).await, Vec::<i64>::new(), "{label}");
    }
}

#[tokio::test]
async fn a_team_request_without_users_is_422_and_changes_nothing() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Kept", "project").await);
    set_team(&s, id, form(&[("users[]", "2")])).await;
    let required = json!({"users": ["The users field is required."]});
    assert_invalid(
        &set_team(&s, id, form(&[("members[]", "3")])).await,
        required.clone(),
    );
    assert_invalid(&set_team(&s, id, json(json!({}))).await, required.clone());
    assert_invalid(
        &set_team(&s, id, multipart(&[("other", "1")])).await,
        required.clone(),
    );
    assert_invalid(&set_team(&s, id, Body::None).await, required);
    assert_invalid(
        &set_team(&s, id, form(&[("users", "3")])).await,
        json!({"users": ["The users must be an array."]}),
    );
    assert_eq!(team_of(&s, id).await, vec![2]);
}

#[tokio::test]
async fn team_members_must_be_existing_team_users_and_each_bad_one_is_named() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Strict", "project").await);
    set_team(&s, id, form(&[("users[]", "1")])).await;
    let client_user = s.ids.client_users[0].to_string();
    let a = set_team(&s, id, form(&[("users[]", "2"), ("users[]", &client_user)])).await;
    assert_invalid(&a, json!({"users.1": ["The selected users.1 is invalid."]}));
    let a = set_team(&s, id, json(json!({"users": [3, 999999]}))).await;
    assert_invalid(&a, json!({"users.1": ["The selected users.1 is invalid."]}));
    let a = set_team(
        &s,
        id,
        raw_form(&format!(
            "users[]={client_user}&users[]=abc&users[]=999999&users[]=2&users[]=0"
        )),
    )
    .await;
    assert_invalid(
        &a,
        json!({
            "users.0": ["The selected users.0 is invalid."],
            "users.1": ["The users.1 must be an integer."],
            "users.2": ["The selected users.2 is invalid."],
            "users.4": ["The selected users.4 is invalid."]
        }),
    );
    assert_eq!(team_of(&s, id).await, vec![1], "the team is unchanged");
}

#[tokio::test]
async fn duplicate_team_members_are_ignored() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Dupes", "project").await);
    let a = set_team(&s, id, raw_form("users[]=3&users[]=2&users[]=3&users[]=2")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["users_count"], 2);
    assert_eq!(team_of(&s, id).await, vec![2, 3]);
}

#[tokio::test]
async fn team_changes_resync_the_category_projects_and_leave_manual_assignments_alone() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Permissions", "project").await);
    let (inside, outside) = (s.ids.projects[0], s.ids.projects[1]);
    put_into(&s, "projects", inside, id).await;
    let db = s.sql().await;
    for (project, user) in [(inside, 2_i64), (inside, 4), (outside, 3)] {
        db.execute("INSERT INTO project_assignments (project_id, user_id, source) VALUES ($1, $2, 'manual')", &[&project, &user])
            .await
            .unwrap();
    }

    assert_eq!(
        set_team(&s, id, form(&[("users[]", "2"), ("users[]", "3")]))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(assigned(&s, inside, "category").await, vec![2, 3]);
    assert_eq!(assigned(&s, inside, "manual").await, vec![2, 4]);
    assert_eq!(
        assigned(&s, outside, "category").await,
        Vec::<i64>::new(),
        "a project of another category"
    );

    assert_eq!(
        set_team(&s, id, json(json!({"users": [3, 1]})))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(assigned(&s, inside, "category").await, vec![1, 3]);
    assert_eq!(assigned(&s, inside, "manual").await, vec![2, 4]);

    assert_eq!(
        set_team(&s, id, json(json!({"users": []}))).await.status,
        StatusCode::OK
    );
    assert_eq!(assigned(&s, inside, "category").await, Vec::<i64>::new());
    assert_eq!(assigned(&s, inside, "manual").await, vec![2, 4]);
    assert_eq!(assigned(&s, outside, "manual").await, vec![3]);
}

// ---------------------------------------------------------------------------------------
// Migration
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn migrating_moves_the_records_resyncs_permissions_and_empties_the_source() {
    let s = TestServer::start().await;
    let source = id_of(&create(&s, "Old projects", "project").await);
    let target = id_of(&create(&s, "New projects", "project").await);
    for project in &s.ids.projects {
        put_into(&s, "projects", *project, source).await;
    }
    set_team(&s, source, form(&[("users[]", "3")])).await;
    set_team(&s, target, form(&[("users[]", "4"), ("users[]", "2")])).await;
    let db = s.sql().await;
    db.execute(
        "INSERT INTO project_assignments (project_id, user_id, source) VALUES ($1, 3, 'manual')",
        &[&s.ids.projects[0]],
    )
    .await
    .unwrap();
    assert_eq!(assigned(&s, s.ids.projects[0], "category").await, vec![3]);

    let a = s
        .put(
            &format!("/api/categories/{source}/migrate"),
            form(&[("target_id", &target.to_string())]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.message(), "Category resources migrated successfully.");
    assert_category_shape(a.data());
    assert_eq!(
        (
            &a.data()["id"],
            &a.data()["count"],
            &a.data()["users_count"]
        ),
        (&json!(source), &json!(0), &json!(1))
    );
    assert_eq!(
        s.get(&format!("/api/categories/{target}")).await.data()["count"],
        2
    );
    for project in &s.ids.projects {
        let category: i64 = db
            .query_one("SELECT category_id FROM projects WHERE id = $1", &[project])
            .await
            .unwrap()
            .get(0);
        assert_eq!(category, target);
        assert_eq!(
            assigned(&s, *project, "category").await,
            vec![2, 4],
            "the target's team"
        );
    }
    assert_eq!(
        assigned(&s, s.ids.projects[0], "manual").await,
        vec![3],
        "manual rows stay"
    );

    let a = s.delete(&format!("/api/categories/{source}")).await;
    assert_eq!(
        a.json,
        json!({"data": {"id": source}, "message": "Category deleted successfully."})
    );
}

#[tokio::test]
async fn migrating_moves_records_of_every_kind() {
    let s = TestServer::start().await;
    let seeded = [
        ("client", "clients"),
        ("lead", "leads"),
        ("ticket", "tickets"),
        ("item", "items"),
        ("expense", "expenses"),
    ];
    for (kind, table) in seeded {
        let default = default_category(&s, kind).await;
        let target = id_of(&create(&s, "Elsewhere", kind).await);
        let before: i64 = s
            .sql()
            .await
            .query_one(
                &format!("SELECT count(*) FROM {table} WHERE category_id = $1"),
                &[&default],
            )
            .await
            .unwrap()
            .get(0);
        assert!(before > 0, "{kind}");
        let a = s
            .put(
                &format!("/api/categories/{default}/migrate"),
                json(json!({"target_id": target})),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{kind}: {}", a.json);
        assert_eq!(a.data()["count"], 0, "{kind}");
        assert_eq!(a.data()["system_default"], "yes", "{kind}");
        let moved: i64 = s
            .sql()
            .await
            .query_one(
                &format!("SELECT count(*) FROM {table} WHERE category_id = $1"),
                &[&target],
            )
            .await
            .unwrap()
            .get(0);
        assert_eq!(moved, before, "{kind}");
        assert_eq!(
            s.get(&format!("/api/categories/{target}")).await.data()["count"],
            before,
            "{kind}"
        );
    }
}

#[tokio::test]
async fn a_migration_target_must_be_another_existing_category_of_the_same_type() {
    let s = TestServer::start().await;
    let source = id_of(&create(&s, "Source", "project").await);
    put_into(&s, "projects", s.ids.projects[0], source).await;
    let path = format!("/api/categories/{source}/migrate");
    let invalid = json!({"target_id": ["The selected target id is invalid."]});
    let other_type = default_category(&s, "client").await.to_string();
    let cases: Vec<(&str, Body, Value)> = vec![
        (
            "missing",
            form(&[]),
            json!({"target_id": ["The target id field is required."]}),
        ),
        (
            "empty",
            form(&[("target_id", "")]),
            json!({"target_id": ["The target id field is required."]}),
        ),
        (
            "not an integer",
            form(&[("target_id", "four")]),
            json!({"target_id": ["The target id must be an integer."]}),
        ),
        ("unknown", form(&[("target_id", "999999")]), invalid.clone()),
        (
            "itself",
            form(&[("target_id", &source.to_string())]),
            invalid.clone(),
        ),
        (
            "itself, JSON number",
            json(json!({"target_id": source})),
            invalid.clone(),
        ),
        (
            "another type",
            form(&[("target_id", &other_type)]),
            invalid.clone(),
        ),
    ];
    for (label, body, errors) in cases {
        let a = s.put(&path, body).await;
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
    let category: i64 = s
        .sql()
        .await
        .query_one(
            "SELECT category_id FROM projects WHERE id = $1",
            &[&s.ids.projects[0]],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(category, source, "nothing moved");
}

// ---------------------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn twenty_parallel_creates_of_one_name_give_exactly_one_category() {
    let s = TestServer::start().await;
    let names: Vec<String> = (0..20)
        .map(|i| match i % 4 {
            0 => "Parallel Name".to_owned(),
            1 => "PARALLEL NAME".to_owned(),
            2 => "parallel name".to_owned(),
            _ => "pArAlLeL nAmE".to_owned(),
        })
        .collect();
    let answers = join_all(names.iter().map(|n| {
        s.post(
            "/api/categories",
            form(&[("category_name", n), ("category_type", "project")]),
        )
    }))
    .await;
    let created = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    assert_eq!(
        created,
        1,
        "{:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    for a in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_invalid(
            a,
            json!({"category_name": ["A category with this name already exists."]}),
        );
    }
    let rows: i64 = s
        .sql()
        .await
        .query_one("SELECT count(*) FROM categories WHERE type = 'project' AND lower(name) = 'parallel name'", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(rows, 1);
}

#[tokio::test]
async fn estimates_and_contracts_count_in_their_categories_and_migrate() {
    let s = TestServer::start().await;
    let estimates = id_of(&create(&s, "Quotes", "estimate").await);
    let contracts = id_of(&create(&s, "Agreements", "contract").await);
    let client = s.ids.clients[0].id.to_string();
    let a = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", &client),
                ("bill_categoryid", &estimates.to_string()),
                ("bill_date", "2026-06-20"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let a = s
        .post(
            "/api/contracts",
            form(&[
                ("doc_client_id", &client),
                ("doc_title", "Support agreement"),
                ("doc_categoryid", &contracts.to_string()),
                ("doc_date_start", "2026-06-20"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(
        s.get(&format!("/api/categories/{estimates}")).await.data()["count"],
        1,
        "the contract's backing estimate has no category"
    );
    assert_eq!(
        s.get(&format!("/api/categories/{contracts}")).await.data()["count"],
        1
    );
    let a = s.delete(&format!("/api/categories/{estimates}")).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);

    for (source, kind, table) in [
        (estimates, "estimate", "estimates"),
        (contracts, "contract", "contracts"),
    ] {
        let target = default_category(&s, kind).await;
        let a = s
            .put(
                &format!("/api/categories/{source}/migrate"),
                form(&[("target_id", &target.to_string())]),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{kind}: {}", a.json);
        assert_eq!(a.data()["count"], 0, "{kind}");
        let left: i64 = s
            .sql()
            .await
            .query_one(
                &format!("SELECT count(*) FROM {table} WHERE category_id = $1"),
                &[&source],
            )
            .await
            .unwrap()
            .get(0);
        assert_eq!(left, 0, "{kind}");
        assert_eq!(
            s.get(&format!("/api/categories/{target}")).await.data()["count"],
            1,
            "{kind}"
        );
        assert_eq!(
            s.delete(&format!("/api/categories/{source}")).await.status,
            StatusCode::OK,
            "{kind}"
        );
    }
}

/// A category deleted while a record is being created in it: either the delete wins (the
/// create is the reference 422) or the create wins (the delete is the "not empty" 409);
/// never both, never a 500.
#[tokio::test]
async fn a_category_deleted_while_records_are_created_in_it_stays_consistent() {
    let s = TestServer::start().await;
    let client = s.ids.clients[0].id.to_string();
    for round in 0..24_u64 {
        let (kind, endpoint, field) = if round % 2 == 0 {
            ("estimate", "/api/estimates", "bill_categoryid")
        } else {
            ("contract", "/api/contracts", "doc_categoryid")
        };
        let category = id_of(&create(&s, &format!("Race {round}"), kind).await);
        let category_text = category.to_string();
        let body = if kind == "estimate" {
            form(&[
                ("bill_clientid", &client),
                ("bill_categoryid", &category_text),
                ("bill_date", "2026-06-20"),
            ])
        } else {
            form(&[
                ("doc_client_id", &client),
                ("doc_title", "Raced"),
                ("doc_categoryid", &category_text),
                ("doc_date_start", "2026-06-20"),
            ])
        };
        let path = format!("/api/categories/{category}");
        let delay = std::time::Duration::from_micros((round / 2) * 400);
        let (deleted, created) = tokio::join!(
            async {
                tokio::time::sleep(delay).await;
                s.delete(&path).await
            },
            s.post(endpoint, body)
        );
        if deleted.status == StatusCode::OK {
            assert_invalid(
                &created,
                json!({ field: [format!("The selected {} is invalid.", field.replace('_', " "))] }),
            );
        } else {
            assert_eq!(
                created.status,
                StatusCode::CREATED,
                "{kind}: {}",
                created.json
            );
            assert_eq!(
                deleted.json,
                json!({"message": "This category is not empty. First move its items to another category."})
            );
            assert_eq!(s.get(&path).await.data()["count"], 1);
        }
    }
}

#[tokio::test]
async fn parallel_team_changes_leave_the_team_and_the_project_permissions_in_agreement() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Contended", "project").await);
    for project in &s.ids.projects {
        put_into(&s, "projects", *project, id).await;
    }
    let sets: Vec<Vec<i64>> = (0..12)
        .map(|i| [vec![1, 2], vec![3], vec![2, 3, 4], vec![]][i % 4].clone())
        .collect();
    let answers = join_all(
        sets.iter()
            .map(|set| set_team(&s, id, json(json!({ "users": set })))),
    )
    .await;
    assert!(
        answers.iter().all(|a| a.status == StatusCode::OK),
        "{:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    let team = team_of(&s, id).await;
    assert!(
        sets.contains(&team),
        "{team:?} is one of the requested sets"
    );
    for project in &s.ids.projects {
        assert_eq!(
            assigned(&s, *project, "category").await,
            team,
            "project {project}"
        );
    }
}

#[tokio::test]
async fn migrations_in_opposite_directions_at_once_neither_deadlock_nor_lose_records() {
    let s = TestServer::start().await;
    let a = id_of(&create(&s, "East", "project").await);
    let b = id_of(&create(&s, "West", "project").await);
    put_into(&s, "projects", s.ids.projects[0], a).await;
    put_into(&s, "projects", s.ids.projects[1], b).await;
    set_team(&s, a, form(&[("users[]", "2")])).await;
    set_team(&s, b, form(&[("users[]", "3")])).await;
    let (a_text, b_text) = (a.to_string(), b.to_string());
    let (a_path, b_path) = (
        format!("/api/categories/{a}/migrate"),
        format!("/api/categories/{b}/migrate"),
    );
    for round in 0..10 {
        let (ab, ba) = tokio::join!(
            s.put(&a_path, form(&[("target_id", &b_text)])),
            s.put(&b_path, form(&[("target_id", &a_text)])),
        );
        assert_eq!(
            (ab.status, ba.status),
            (StatusCode::OK, StatusCode::OK),
            "round {round}: {} {}",
            ab.json,
            ba.json
        );
        let db = s.sql().await;
        let rows = db
            .query("SELECT id, category_id FROM projects ORDER BY id", &[])
            .await
            .unwrap();
        let homes: Vec<i64> = rows.iter().map(|r| r.get(1)).collect();
        assert!(
            homes.iter().all(|h| *h == homes[0]),
            "round {round}: both projects end in one category: {homes:?}"
        );
        let team = team_of(&s, homes[0]).await;
        for project in &s.ids.projects {
            assert_eq!(
                assigned(&s, *project, "category").await,
                team,
                "round {round}"
            );
        }
        let (a_count, b_count) = (
            s.get(&format!("/api/categories/{a}")).await.data()["count"].as_i64(),
            s.get(&format!("/api/categories/{b}")).await.data()["count"].as_i64(),
        );
        assert_eq!(a_count.unwrap() + b_count.unwrap(), 2, "round {round}");
        // Split them again for the next round.
        put_into(&s, "projects", s.ids.projects[0], a).await;
        put_into(&s, "projects", s.ids.projects[1], b).await;
        set_team(&s, a, form(&[("users[]", "2")])).await;
        set_team(&s, b, form(&[("users[]", "3")])).await;
    }
}
