//! `/api/categories`: team.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Body, TestServer, assert_errors, form, id_of, json, multipart, raw_form};

use super::{assert_category_shape, assigned, create, put_into, set_team, team_of};

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
    assert_errors(
        &set_team(&s, id, form(&[("members[]", "3")])).await,
        required.clone(),
    );
    assert_errors(&set_team(&s, id, json(json!({}))).await, required.clone());
    assert_errors(
        &set_team(&s, id, multipart(&[("other", "1")])).await,
        required.clone(),
    );
    assert_errors(&set_team(&s, id, Body::None).await, required);
    assert_errors(
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
    assert_errors(&a, json!({"users.1": ["The selected users.1 is invalid."]}));
    let a = set_team(&s, id, json(json!({"users": [3, 999999]}))).await;
    assert_errors(&a, json!({"users.1": ["The selected users.1 is invalid."]}));
    let a = set_team(
        &s,
        id,
        raw_form(&format!(
            "users[]={client_user}&users[]=abc&users[]=999999&users[]=2&users[]=0"
        )),
    )
    .await;
    assert_errors(
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

/// Issue 47 (schemathesis, stateful): a `users` list longer than the documented bound
/// (`maxItems` 1,000) was accepted when some of its elements were blank, since the bound
/// counted the elements left after the blanks were skipped. Every encoding counts the
/// elements as sent.
#[tokio::test]
async fn a_team_longer_than_a_thousand_elements_is_refused_even_with_blank_elements() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Bounded", "project").await);
    set_team(&s, id, form(&[("users[]", "1")])).await;
    let too_many = json!({"users": ["The users may not have more than 1000 items."]});
    let mut ids: Vec<serde_json::Value> = vec![json!(2); 1000];
    ids.push(serde_json::Value::Null);
    assert_errors(
        &set_team(&s, id, json(json!({ "users": ids }))).await,
        too_many.clone(),
    );
    let mut pairs = vec![("users[]", "3"); 1000];
    pairs.push(("users[]", ""));
    assert_errors(&set_team(&s, id, form(&pairs)).await, too_many.clone());
    let sparse: Vec<String> = (0..1001)
        .map(|i| match i {
            500 => format!("users[{i}]="),
            _ => format!("users[{i}]=2"),
        })
        .collect();
    assert_errors(
        &set_team(&s, id, raw_form(&sparse.join("&"))).await,
        too_many.clone(),
    );
    assert_errors(&set_team(&s, id, multipart(&pairs)).await, too_many);
    assert_eq!(team_of(&s, id).await, vec![1], "the team is unchanged");
    // At the bound, blanks included, the list is read (duplicates ignored).
    let mut ids: Vec<serde_json::Value> = vec![json!(2); 999];
    ids.push(json!(""));
    let a = set_team(&s, id, json(json!({ "users": ids }))).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(team_of(&s, id).await, vec![2]);
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
