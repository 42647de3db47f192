//! `/api/milestones`: concurrency.

use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, json};

use super::{board, create, reorder, seeded};

#[tokio::test]
async fn twenty_parallel_creates_of_one_title_give_one_milestone_and_nineteen_409s() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let titles: Vec<&str> = (0..20)
        .map(|i| ["Launch", "LAUNCH", "launch", "LaUnCh"][i % 4])
        .collect();
    let answers = join_all(titles.iter().map(|t| create(&s, project, t, "info"))).await;
    let statuses: Vec<StatusCode> = answers.iter().map(|a| a.status).collect();
    assert_eq!(
        statuses
            .iter()
            .filter(|st| **st == StatusCode::CREATED)
            .count(),
        1,
        "{statuses:?}"
    );
    for a in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);
        assert_eq!(
            a.json,
            json!({"message": "A milestone with this title already exists in this project."})
        );
    }
    let rows: i64 = s
        .sql()
        .await
        .query_one(
            "SELECT count(*) FROM milestones WHERE project_id = $1 AND lower(title) = 'launch'",
            &[&project],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(rows, 1);
}

#[tokio::test]
async fn parallel_creates_of_distinct_titles_get_distinct_positions() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let titles: Vec<String> = (1..=20).map(|i| format!("Sprint {i}")).collect();
    let answers = join_all(titles.iter().map(|t| create(&s, project, t, "primary"))).await;
    let mut positions: Vec<i64> = answers
        .iter()
        .map(|a| {
            assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
            a.data()["position"].as_i64().unwrap()
        })
        .collect();
    positions.sort_unstable();
    assert_eq!(positions, (6..=25).collect::<Vec<i64>>());
    let stored: Vec<i32> = board(&s, project)
        .await
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(stored, (1..=25).collect::<Vec<i32>>());
}

#[tokio::test]
async fn parallel_creates_and_reorders_of_one_project_keep_positions_one_to_n() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let (testing, design) = (
        seeded(&s, project, "Testing"),
        seeded(&s, project, "Design"),
    );
    let titles: Vec<String> = (1..=10).map(|i| format!("Wave {i}")).collect();
    let creates = join_all(titles.iter().map(|t| create(&s, project, t, "info")));
    let reorders = join_all((0..10).map(|i| {
        let ids = if i % 2 == 0 {
            json!({"milestones": [testing, design]})
        } else {
            json!({"milestones": [design]})
        };
        reorder(&s, json(ids))
    }));
    let (created, reordered) = tokio::join!(creates, reorders);
    assert!(created.iter().all(|a| a.status == StatusCode::CREATED));
    assert!(reordered.iter().all(|a| a.status == StatusCode::OK));
    let positions: Vec<i32> = board(&s, project)
        .await
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(
        positions,
        (1..=15).collect::<Vec<i32>>(),
        "no position taken twice, none skipped"
    );
}
