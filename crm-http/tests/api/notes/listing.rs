//! The list: paging, search, filters and sorts.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, form, page_meta};

use super::{assert_invalid, create, get, id_of, ids, list};

#[tokio::test]
async fn the_list_pages_with_integer_meta_and_answers_an_empty_page_past_the_end() {
    let s = TestServer::start().await;
    let public = s.ids.notes.public;
    let a = list(&s, "").await;
    assert_eq!(ids(&a), [public]);
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 1, "per_page": 35, "total": 1, "last_page": 1})
    );
    let keys: Vec<&String> = a.json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["data", "message", "meta"]);
    assert_eq!(
        a.data()[0],
        get(&s, public).await,
        "list rows are whole records"
    );
    assert_eq!(
        a.data()[0]["resource"],
        json!({"type": "project", "id": s.ids.projects[0]})
    );

    let mut created = Vec::new();
    for n in 1..=4 {
        created.push(id_of(&create(&s, &format!("Note {n}"), "Body", &[]).await));
    }
    let a = list(&s, "limit=2").await;
    assert_eq!(ids(&a), [created[3], created[2]]);
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 1, "per_page": 2, "total": 5, "last_page": 3})
    );
    let a = list(&s, "limit=2&page=3").await;
    assert_eq!(ids(&a), [public]);
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 3, "per_page": 2, "total": 5, "last_page": 3})
    );
    let a = list(&s, "limit=2&page=4").await;
    assert_eq!(a.data(), &json!([]));
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 4, "per_page": 2, "total": 5, "last_page": 3})
    );
    let a = list(&s, "limit=101").await;
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 1, "per_page": 100, "total": 5, "last_page": 1})
    );
    let a = list(&s, "order=asc").await;
    assert_eq!(
        ids(&a),
        [public, created[0], created[1], created[2], created[3]]
    );

    for (query, field, message) in [
        ("limit=-1", "limit", "The limit must be at least 1."),
        ("page=two", "page", "The page must be an integer."),
        ("order=random", "order", "The selected order is invalid."),
        ("sort=title", "sort", "The selected sort is invalid."),
        (
            "resource_type=invoice",
            "resource_type",
            "The selected resource type is invalid.",
        ),
        (
            "resource_id=x",
            "resource_id",
            "The resource id must be an integer.",
        ),
        (
            "visibility=everyone",
            "visibility",
            "The selected visibility is invalid.",
        ),
    ] {
        let a = s.get(&format!("/api/notes?{query}")).await;
        assert_invalid(&a, field, &[message]);
    }
}

#[tokio::test]
async fn search_matches_title_or_description_case_insensitively_with_literal_wildcards() {
    let s = TestServer::start().await;
    let a = id_of(&create(&s, "Budget review", "Q3 numbers", &[]).await);
    let b = id_of(&create(&s, "Call", "Discuss the BUDGET", &[]).await);
    let c = id_of(&create(&s, "50% off", "promo", &[]).await);
    let d = id_of(&create(&s, "500 units", "stock", &[]).await);
    let e = id_of(&create(&s, "snake_case", "naming", &[]).await);
    let f = id_of(&create(&s, "snakeXcase", "naming too", &[]).await);
    let g = id_of(&create(&s, "Path", "C:\\temp", &[]).await);
    let cases: Vec<(&str, Vec<i64>)> = vec![
        ("search=budget", vec![b, a]),
        ("search=BuDgEt%20REVIEW", vec![a]),
        ("search=q3", vec![a]),
        ("search=50%25", vec![c]),
        ("search=50", vec![d, c]),
        ("search=e_c", vec![e]),
        ("search=snake", vec![f, e]),
        ("search=naming", vec![f, e]),
        ("search=%25", vec![c]),
        ("search=_", vec![e]),
        ("search=%5C", vec![g]),
        ("search=nothing%20like%20this", vec![]),
    ];
    for (query, expected) in cases {
        let got = list(&s, query).await;
        assert_eq!(ids(&got), expected, "{query}");
        assert_eq!(got.json["meta"]["total"], expected.len(), "{query}");
    }
}

#[tokio::test]
async fn the_list_filters_by_resource_type_resource_id_and_visibility_combined() {
    let s = TestServer::start().await;
    let acme = s.ids.clients[0].id.to_string();
    let globex = s.ids.clients[1].id.to_string();
    let lead = s.ids.leads[0].to_string();
    let on_acme = id_of(
        &create(
            &s,
            "Acme",
            "A",
            &[("noteresource_type", "client"), ("noteresource_id", &acme)],
        )
        .await,
    );
    let on_acme_private = id_of(
        &create(
            &s,
            "Acme secret",
            "A",
            &[
                ("noteresource_type", "client"),
                ("noteresource_id", &acme),
                ("note_visibility", "private"),
            ],
        )
        .await,
    );
    let on_globex = id_of(
        &create(
            &s,
            "Globex",
            "G",
            &[
                ("noteresource_type", "client"),
                ("noteresource_id", &globex),
            ],
        )
        .await,
    );
    let on_lead = id_of(
        &create(
            &s,
            "Lead",
            "L",
            &[("noteresource_type", "lead"), ("noteresource_id", &lead)],
        )
        .await,
    );
    let standalone = id_of(&create(&s, "Alone", "S", &[]).await);
    let public = s.ids.notes.public;
    let project = s.ids.projects[0];

    let cases: Vec<(String, Vec<i64>)> = vec![
        (
            "resource_type=client".into(),
            vec![on_globex, on_acme_private, on_acme],
        ),
        (
            format!("resource_type=client&resource_id={acme}"),
            vec![on_acme_private, on_acme],
        ),
        (
            format!("resource_type=client&resource_id={globex}"),
            vec![on_globex],
        ),
        (
            format!("resource_type=lead&resource_id={lead}"),
            vec![on_lead],
        ),
        (
            format!("resource_type=lead&resource_id={acme}&search=nope"),
            vec![],
        ),
        (
            format!("resource_type=project&resource_id={project}"),
            vec![public],
        ),
        ("resource_type=task".into(), vec![]),
        ("visibility=private".into(), vec![on_acme_private]),
        (
            "visibility=public".into(),
            vec![standalone, on_lead, on_globex, on_acme, public],
        ),
        (
            format!("resource_type=client&resource_id={acme}&visibility=public"),
            vec![on_acme],
        ),
        (
            "resource_type=client&search=secret".into(),
            vec![on_acme_private],
        ),
    ];
    for (query, expected) in cases {
        let got = list(&s, &query).await;
        assert_eq!(ids(&got), expected, "{query}");
        assert_eq!(got.json["meta"]["total"], expected.len(), "{query}");
    }
}

#[tokio::test]
async fn the_list_sorts_by_title_creation_and_update_in_both_orders() {
    let s = TestServer::start().await;
    let lead = s.ids.leads[1].to_string();
    let on_lead = [
        ("noteresource_type", "lead"),
        ("noteresource_id", lead.as_str()),
    ];
    let a = id_of(&create(&s, "banana", "x", &on_lead).await);
    let b = id_of(&create(&s, "Apple", "x", &on_lead).await);
    let c = id_of(&create(&s, "cherry", "x", &on_lead).await);
    // Creation and update times in orders other than the ids'.
    let sql = "UPDATE notes SET created_at = $2::text::timestamptz, updated_at = $3::text::timestamptz WHERE id = $1";
    let db = s.sql().await;
    for (id, created, updated) in [
        (a, "2026-01-03T00:00:00Z", "2026-02-01T00:00:00Z"),
        (b, "2026-01-01T00:00:00Z", "2026-02-03T00:00:00Z"),
        (c, "2026-01-02T00:00:00Z", "2026-02-02T00:00:00Z"),
    ] {
        db.execute(sql, &[&id, &created, &updated]).await.unwrap();
    }
    let filter = format!("resource_type=lead&resource_id={lead}");
    let cases: Vec<(&str, Vec<i64>)> = vec![
        ("sort=note_title&order=asc", vec![b, a, c]),
        ("sort=note_title&order=desc", vec![c, a, b]),
        ("sort=note_title", vec![c, a, b]),
        ("sort=note_created&order=asc", vec![b, c, a]),
        ("sort=note_created&order=desc", vec![a, c, b]),
        ("sort=note_updated&order=asc", vec![a, c, b]),
        ("sort=note_updated&order=desc", vec![b, c, a]),
    ];
    for (query, expected) in cases {
        assert_eq!(
            ids(&list(&s, &format!("{filter}&{query}")).await),
            expected,
            "{query}"
        );
    }

    // Editing a note makes it the most recently updated.
    let a_path = format!("/api/notes/{a}");
    assert_eq!(
        s.patch(
            &a_path,
            form(&[("note_title", "banana"), ("note_description", "y")])
        )
        .await
        .status,
        StatusCode::OK
    );
    assert_eq!(
        ids(&list(&s, &format!("{filter}&sort=note_updated&order=desc")).await),
        [a, b, c]
    );
    assert_eq!(
        ids(&list(&s, &format!("{filter}&sort=note_created&order=desc")).await),
        [a, c, b],
        "creation time is kept"
    );
}
