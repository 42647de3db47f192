//! The derived status (reads, the `status` filter, the `doc_status` sort), paging, filters,
//! search and sorts of the list.

use chrono::Duration;
use serde_json::json;

use crate::common::{Body, TestServer, page_meta};

use super::{
    assert_invalid, client, create, get, id_of, ids, is_timestamp, list, new_contract_category,
    required_plus, set_state, today,
};

#[tokio::test]
async fn the_status_is_derived_from_publication_signatures_and_the_end_date() {
    let s = TestServer::start().await;
    let yesterday = today() - Duration::days(1);
    let past = [("doc_date_start", "2020-01-01")];
    let draft = id_of(&create(&s, "Draft", &past).await);
    let awaiting = id_of(&create(&s, "Awaiting", &past).await);
    let active = id_of(&create(&s, "Active", &past).await);
    let expired = id_of(&create(&s, "Expired", &past).await);
    let draft_past_end = id_of(&create(&s, "Draft past its end", &past).await);
    let active_until_today = id_of(&create(&s, "Active until today", &past).await);
    set_state(&s, draft, false, true, true, None).await;
    set_state(&s, awaiting, true, true, false, None).await;
    set_state(&s, active, true, true, true, None).await;
    set_state(&s, expired, true, true, true, Some(yesterday)).await;
    set_state(&s, draft_past_end, false, false, false, Some(yesterday)).await;
    set_state(&s, active_until_today, true, true, true, Some(today())).await;

    let expect = [
        (draft, "draft", "signed", "signed"),
        (awaiting, "awaiting_signatures", "signed", "unsigned"),
        (active, "active", "signed", "signed"),
        (expired, "expired", "signed", "signed"),
        (draft_past_end, "draft", "unsigned", "unsigned"),
        (active_until_today, "active", "signed", "signed"),
    ];
    for (id, status, client_status, provider_status) in expect {
        let c = get(&s, id).await;
        assert_eq!(c["status"], status, "{c}");
        assert_eq!(
            c["signing"],
            json!({"client_status": client_status, "provider_status": provider_status}),
            "{c}"
        );
        let published = &c["dates"]["published"];
        assert_eq!(is_timestamp(published), status != "draft", "{c}");
        assert_eq!(published.is_null(), status == "draft", "{c}");
    }

    // The status filter selects by the same rule.
    for (status, wanted) in [
        ("draft", vec![draft_past_end, draft]),
        ("awaiting_signatures", vec![awaiting]),
        ("active", vec![active_until_today, active]),
        ("expired", vec![expired]),
    ] {
        let a = list(&s, &format!("status={status}")).await;
        assert_eq!(ids(&a), wanted, "status={status}");
        assert_eq!(a.json["meta"]["total"], wanted.len(), "status={status}");
        assert!(
            a.data()
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["status"] == status)
        );
    }

    // Sorting by status sorts by the status text, ties by id in the same direction.
    let a = list(&s, "sort=doc_status&order=asc").await;
    assert_eq!(
        ids(&a),
        [
            active,
            active_until_today,
            awaiting,
            draft,
            draft_past_end,
            expired
        ]
    );
    let a = list(&s, "sort=doc_status&order=desc").await;
    assert_eq!(
        ids(&a),
        [
            expired,
            draft_past_end,
            draft,
            awaiting,
            active_until_today,
            active
        ]
    );

    // Moving the end date forward through the API brings an expired contract back.
    let body = required_plus(
        &s,
        "Expired",
        &[
            ("doc_date_start", "2020-01-01"),
            ("doc_date_end", &(today() + Duration::days(30)).to_string()),
        ],
    )
    .await;
    let a = s
        .patch(&format!("/api/contracts/{expired}"), Body::Form(body))
        .await;
    assert_eq!(a.data()["status"], "active", "{:?}", a.json);
}

#[tokio::test]
async fn an_invalid_status_filter_is_422() {
    let s = TestServer::start().await;
    for bad in ["signed", "Draft", "published"] {
        let a = s.get(&format!("/api/contracts?status={bad}")).await;
        assert_invalid(&a, "status", &["The selected status is invalid."]);
    }
}

#[tokio::test]
async fn the_list_pages_with_integer_meta_and_answers_an_empty_page_past_the_end() {
    let s = TestServer::start().await;
    let a = list(&s, "").await;
    assert_eq!(
        a.json,
        json!({"data": [], "meta": {"current_page": 1, "per_page": 35, "total": 0, "last_page": 1, "next_cursor": null, "prev_cursor": null}, "message": "Contracts retrieved successfully."})
    );

    let mut created = Vec::new();
    for n in 1..=3 {
        created.push(id_of(&create(&s, &format!("Contract {n}"), &[]).await));
    }
    let a = list(&s, "").await;
    assert_eq!(
        ids(&a),
        [created[2], created[1], created[0]],
        "newest first by default"
    );
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 1, "per_page": 35, "total": 3, "last_page": 1})
    );
    let keys: Vec<&String> = a.json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["data", "message", "meta"]);
    // List rows carry the whole record, as GET does.
    assert_eq!(a.data()[0], get(&s, created[2]).await);

    let a = list(&s, "limit=2&page=1").await;
    assert_eq!(ids(&a), [created[2], created[1]]);
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 1, "per_page": 2, "total": 3, "last_page": 2})
    );
    let a = list(&s, "limit=2&page=2").await;
    assert_eq!(ids(&a), [created[0]]);
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 2, "per_page": 2, "total": 3, "last_page": 2})
    );
    let a = list(&s, "limit=2&page=9").await;
    assert_eq!(a.data(), &json!([]));
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 9, "per_page": 2, "total": 3, "last_page": 2})
    );
    let a = list(&s, "limit=500").await;
    assert_eq!(
        page_meta(&a),
        json!({"current_page": 1, "per_page": 100, "total": 3, "last_page": 1})
    );
    let a = list(&s, "order=asc").await;
    assert_eq!(ids(&a), created);

    for (query, field, message) in [
        ("limit=0", "limit", "The limit must be at least 1."),
        ("limit=abc", "limit", "The limit must be an integer."),
        ("page=0", "page", "The page must be at least 1."),
        ("order=up", "order", "The selected order is invalid."),
        ("sort=doc_client", "sort", "The selected sort is invalid."),
        (
            "client_id=x",
            "client_id",
            "The client id must be an integer.",
        ),
        (
            "category_id=x",
            "category_id",
            "The category id must be an integer.",
        ),
    ] {
        let a = s.get(&format!("/api/contracts?{query}")).await;
        assert_invalid(&a, field, &[message]);
    }
}

#[tokio::test]
async fn the_list_filters_by_client_category_and_title_search_combined() {
    let s = TestServer::start().await;
    let premium = new_contract_category(&s, "Premium").await.to_string();
    let globex = client(&s, 1).to_string();
    let a = id_of(&create(&s, "Deal_One", &[]).await);
    let b = id_of(&create(&s, "DealXOne", &[("doc_client_id", &globex)]).await);
    let c = id_of(&create(&s, "100% Agreement", &[("doc_categoryid", &premium)]).await);
    let d = id_of(
        &create(
            &s,
            "1000 Agreement",
            &[("doc_client_id", &globex), ("doc_categoryid", &premium)],
        )
        .await,
    );

    let cases: Vec<(String, Vec<i64>)> = vec![
        ("search=deal".into(), vec![b, a]),
        ("search=DEAL_ONE".into(), vec![a]),
        ("search=l_o".into(), vec![a]),
        ("search=100%25".into(), vec![c]),
        ("search=agreement".into(), vec![d, c]),
        ("search=nothing".into(), vec![]),
        (format!("client_id={globex}"), vec![d, b]),
        (format!("category_id={premium}"), vec![d, c]),
        (format!("client_id={globex}&category_id={premium}"), vec![d]),
        (format!("client_id={globex}&search=deal"), vec![b]),
        (
            format!("client_id={globex}&status=draft&search=1000"),
            vec![d],
        ),
        (format!("client_id={globex}&status=active"), vec![]),
    ];
    for (query, expected) in cases {
        let got = list(&s, &query).await;
        assert_eq!(ids(&got), expected, "{query}");
        assert_eq!(got.json["meta"]["total"], expected.len(), "{query}");
    }
}

#[tokio::test]
async fn the_list_sorts_by_each_key_in_both_orders() {
    let s = TestServer::start().await;
    let a = id_of(
        &create(
            &s,
            "banana",
            &[("doc_date_start", "2026-03-01"), ("doc_value", "300")],
        )
        .await,
    );
    let b = id_of(
        &create(
            &s,
            "Apple",
            &[("doc_date_start", "2026-01-01"), ("doc_value", "1000")],
        )
        .await,
    );
    let c = id_of(
        &create(
            &s,
            "cherry",
            &[("doc_date_start", "2026-02-01"), ("doc_value", "20.50")],
        )
        .await,
    );
    // Creation times in an order other than the ids'.
    let sql = "UPDATE contracts SET created_at = $2::text::timestamptz WHERE id = $1";
    let db = s.sql().await;
    for (id, at) in [
        (a, "2026-01-03T00:00:00Z"),
        (b, "2026-01-01T00:00:00Z"),
        (c, "2026-01-02T00:00:00Z"),
    ] {
        db.execute(sql, &[&id, &at]).await.unwrap();
    }
    let cases: Vec<(&str, Vec<i64>)> = vec![
        ("sort=doc_title&order=asc", vec![b, a, c]),
        ("sort=doc_title&order=desc", vec![c, a, b]),
        ("sort=doc_title", vec![c, a, b]),
        ("sort=doc_date_start&order=asc", vec![b, c, a]),
        ("sort=doc_date_start&order=desc", vec![a, c, b]),
        ("sort=doc_value&order=asc", vec![c, a, b]),
        ("sort=doc_value&order=desc", vec![b, a, c]),
        ("sort=doc_created&order=asc", vec![b, c, a]),
        ("sort=doc_created&order=desc", vec![a, c, b]),
    ];
    for (query, expected) in cases {
        assert_eq!(ids(&list(&s, query).await), expected, "{query}");
    }
    let created = list(&s, "sort=doc_created&order=asc&limit=1").await;
    assert_eq!(
        created.data()[0]["dates"]["created"],
        "2026-01-01T00:00:00.000000Z"
    );
}

#[tokio::test]
async fn pages_sorted_on_equal_keys_never_overlap() {
    let s = TestServer::start().await;
    let mut created = Vec::new();
    for _ in 0..5 {
        created.push(id_of(
            &create(&s, "Same title", &[("doc_value", "10")]).await,
        ));
    }
    for order in ["asc", "desc"] {
        let mut seen = Vec::new();
        for page in 1..=3 {
            seen.extend(ids(&list(
                &s,
                &format!("sort=doc_value&order={order}&limit=2&page={page}"),
            )
            .await));
        }
        let mut expected = created.clone();
        if order == "desc" {
            expected.reverse();
        }
        assert_eq!(seen, expected, "{order}");
    }
}
