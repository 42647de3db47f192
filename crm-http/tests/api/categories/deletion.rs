//! `/api/categories`: counts and deletion.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, form, id_of};

use super::{assert_list, create, put_into, set_team, team_of};

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
        ("invoice", 3),
    ];
    for (kind, count) in seeded {
        let id = s.default_category(kind).await;
        let a = s.get(&format!("/api/categories/{id}")).await;
        assert_eq!(a.data()["count"], count, "{kind}");
        assert_eq!(a.data()["users_count"], 0, "{kind}");
    }
    let projects = id_of(&create(&s, "Client work", "project").await);
    put_into(&s, "projects", s.ids.projects[0], projects).await;
    let a = s.get(&format!("/api/categories/{projects}")).await;
    assert_eq!(a.data()["count"], 1);
    let default_projects = s.default_category("project").await;
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
        let id = s.default_category(kind).await;
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
