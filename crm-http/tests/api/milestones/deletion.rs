//! `/api/milestones`: delete.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Body, TestServer, form, json};

use super::{SEEDED, rows_of_tasks, seeded, tasks_in, titles};

#[tokio::test]
async fn deleting_moves_the_tasks_to_the_uncategorised_milestone() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let planning = seeded(&s, project, "Planning");
    let default = seeded(&s, project, "Uncategorised");
    let tasks = tasks_in(&s, planning).await;
    assert_eq!(tasks.len(), 2);
    let a = s.delete(&format!("/api/milestones/{planning}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(
        a.json,
        json!({"data": {"id": planning}, "message": "Milestone deleted successfully."})
    );
    assert_eq!(
        s.get(&format!("/api/milestones/{planning}")).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(tasks_in(&s, default).await, tasks);
    for table in ["tasks", "task_attachments", "task_comments", "task_timers"] {
        assert_eq!(rows_of_tasks(&s, table, &tasks).await, 2, "{table} kept");
    }
    assert_eq!(
        s.get(&format!("/api/milestones/{default}")).await.data()["tasks_count"],
        2
    );
    let a = s
        .get(&format!("/api/milestones?project_id={project}"))
        .await;
    assert_eq!(titles(&a), &SEEDED[1..]);
}

#[tokio::test]
async fn delete_tasks_other_than_yes_moves_them() {
    let s = TestServer::start().await;
    let project = s.ids.projects[1];
    let design = seeded(&s, project, "Design");
    let default = seeded(&s, project, "Uncategorised");
    let tasks = tasks_in(&s, design).await;
    let a = s
        .delete(&format!("/api/milestones/{design}?delete_tasks=no"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(tasks_in(&s, default).await, tasks);

    // Deleting is never a guess: `YES` is not `yes`.
    let development = seeded(&s, project, "Development");
    let more = tasks_in(&s, development).await;
    assert!(!more.is_empty());
    let a = s
        .delete(&format!("/api/milestones/{development}?delete_tasks=YES"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let mut expected = [tasks, more].concat();
    expected.sort_unstable();
    let mut moved = tasks_in(&s, default).await;
    moved.sort_unstable();
    assert_eq!(moved, expected);
}

#[tokio::test]
async fn delete_tasks_yes_deletes_them_with_attachments_comments_and_timers() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let default = seeded(&s, project, "Uncategorised");
    let bodies: Vec<(&str, &str, Body)> = vec![
        ("query string", "Planning", Body::None),
        ("form body", "Design", form(&[("delete_tasks", "yes")])),
        (
            "JSON body",
            "Development",
            json(json!({"delete_tasks": "yes"})),
        ),
    ];
    let untouched = tasks_in(&s, seeded(&s, s.ids.projects[1], "Planning")).await;
    for (label, title, body) in bodies {
        let id = seeded(&s, project, title);
        let tasks = tasks_in(&s, id).await;
        assert_eq!(tasks.len(), 2, "{label}");
        let path = if label == "query string" {
            format!("/api/milestones/{id}?delete_tasks=yes")
        } else {
            format!("/api/milestones/{id}")
        };
        let a = s.call(Method::DELETE, &path, body).await;
        assert_eq!(a.status, StatusCode::OK, "{label}: {}", a.json);
        assert_eq!(
            a.json,
            json!({"data": {"id": id}, "message": "Milestone deleted successfully."}),
            "{label}"
        );
        for table in ["tasks", "task_attachments", "task_comments", "task_timers"] {
            assert_eq!(
                rows_of_tasks(&s, table, &tasks).await,
                0,
                "{label}: {table}"
            );
        }
        assert_eq!(
            tasks_in(&s, default).await,
            Vec::<i64>::new(),
            "{label}: nothing was moved"
        );
    }
    assert_eq!(
        rows_of_tasks(&s, "tasks", &untouched).await,
        2,
        "other milestones keep their tasks"
    );
    assert_eq!(rows_of_tasks(&s, "task_timers", &untouched).await, 2);
}

#[tokio::test]
async fn the_uncategorised_milestone_cannot_be_deleted() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let default = seeded(&s, project, "Uncategorised");
    s.sql()
        .await
        .execute(
            "UPDATE tasks SET milestone_id = $1 WHERE milestone_id = $2",
            &[&default, &seeded(&s, project, "Planning")],
        )
        .await
        .unwrap();
    for path in [
        format!("/api/milestones/{default}"),
        format!("/api/milestones/{default}?delete_tasks=yes"),
    ] {
        let a = s.delete(&path).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{path}: {}", a.json);
        assert_eq!(
            a.json,
            json!({"message": "You cannot delete the default milestone."})
        );
    }
    assert_eq!(
        s.get(&format!("/api/milestones/{default}")).await.data()["tasks_count"],
        2,
        "its tasks are still there"
    );
}
