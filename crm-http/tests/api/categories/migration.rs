//! `/api/categories`: migration.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Body, TestServer, form, id_of, json};

use super::{assert_category_shape, assigned, create, put_into, set_team};

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
        let default = s.default_category(kind).await;
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
    let other_type = s.default_category("client").await.to_string();
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
