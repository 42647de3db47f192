//! `/api/categories`: listing.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, form, id_of};

use super::{assert_list, create};

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
