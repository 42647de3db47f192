//! `/api/categories`: create and read.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{TestServer, form, id_of, json, keys, multipart};

use super::{assert_category_shape, assert_list};

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
