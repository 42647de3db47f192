//! `/api/milestones`: create and read.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{TestServer, id_of, json, keys, multipart};

use super::{assert_milestone_shape, create, seeded};

#[tokio::test]
async fn a_created_milestone_is_categorised_201_and_goes_after_the_highest_position() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let a = create(&s, project, "Phase 1", "success").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(keys(&a.json), ["data", "message"]);
    assert_eq!(a.message(), "Milestone created successfully.");
    let m = a.data();
    assert_milestone_shape(m);
    assert_eq!(m["title"], "Phase 1");
    assert_eq!(m["project_id"], project);
    assert_eq!(m["type"], "categorised");
    assert_eq!(m["color"], "success");
    assert_eq!(m["position"], 6);
    assert_eq!(m["creator_id"], 1);
    assert_eq!(m["tasks_count"], 0);

    let got = s.get(&format!("/api/milestones/{}", id_of(m))).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(
        got.json,
        json!({"data": m, "message": "Milestone retrieved successfully."})
    );

    let next = create(&s, project, "Phase 2", "lime").await;
    assert_eq!(next.data()["position"], 7);
    // Gaps do not matter: the highest position plus one.
    s.sql()
        .await
        .execute(
            "UPDATE milestones SET position = 40 WHERE id = $1",
            &[&seeded(&s, project, "Testing")],
        )
        .await
        .unwrap();
    assert_eq!(
        create(&s, project, "Phase 3", "brown").await.data()["position"],
        41
    );
    // Another project's positions are its own.
    assert_eq!(
        create(&s, s.ids.projects[1], "Phase 1", "info")
            .await
            .data()["position"],
        6
    );
}

#[tokio::test]
async fn the_creator_is_the_user_of_the_key_and_every_encoding_works() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0].to_string();
    let key = s.key_for(2).await;
    let body = json(
        json!({"milestone_projectid": s.ids.projects[0], "milestone_title": "By Jane", "milestone_color": "danger"}),
    );
    let a = s.call_as(&key, Method::POST, "/api/milestones", body).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(a.data()["creator_id"], 2);
    let a = s
        .post(
            "/api/milestones",
            multipart(&[
                ("milestone_projectid", &project),
                ("milestone_title", "Multipart"),
                ("milestone_color", "primary"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(
        (
            &a.data()["title"],
            &a.data()["color"],
            &a.data()["position"]
        ),
        (&json!("Multipart"), &json!("primary"), &json!(7))
    );
}

#[tokio::test]
async fn a_seeded_milestone_reads_with_its_task_count() {
    let s = TestServer::start().await;
    let project = s.ids.projects[1];
    for (title, tasks, kind, position) in [
        ("Planning", 2, "categorised", 1),
        ("Development", 2, "categorised", 3),
        ("Testing", 0, "categorised", 4),
        ("Uncategorised", 0, "uncategorised", 5),
    ] {
        let a = s
            .get(&format!("/api/milestones/{}", seeded(&s, project, title)))
            .await;
        assert_eq!(a.status, StatusCode::OK);
        assert_milestone_shape(a.data());
        assert_eq!(a.data()["title"], title);
        assert_eq!(a.data()["project_id"], project);
        assert_eq!(
            (
                &a.data()["tasks_count"],
                &a.data()["type"],
                &a.data()["position"]
            ),
            (&json!(tasks), &json!(kind), &json!(position)),
            "{title}"
        );
    }
}
