//! `/api/categories`: concurrency.

use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, assert_errors, form, id_of, json};

use super::{assigned, create, put_into, set_team, team_of};

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
        assert_errors(
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
        let target = s.default_category(kind).await;
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
            assert_errors(
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
