//! `GET /api/estimates`: filters, search, sort and paging.

use reqwest::StatusCode;
use serde_json::json;

use super::{
    Encoding, assert_invalid, client, create, get, id_of, item, items_body, listed, put_items,
};
use crate::common::{TestServer, form, page_meta};

#[tokio::test]
async fn the_list_filters_searches_sorts_and_pages() {
    let s = TestServer::start().await;
    let p0 = s.ids.projects[0].to_string();
    let (c1, c2) = (client(&s, 1).to_string(), client(&s, 2).to_string());
    let e1 = id_of(
        &create(
            &s,
            &[("bill_projectid", &p0), ("bill_notes", "Blue widgets")],
        )
        .await,
    );
    let e2 = id_of(
        &create(
            &s,
            &[
                ("bill_clientid", &c1),
                ("bill_terms", "Net forty-five, BLUE ink"),
            ],
        )
        .await,
    );
    let e3 = id_of(
        &create(
            &s,
            &[("bill_clientid", &c2), ("bill_notes", "100%_literal")],
        )
        .await,
    );
    for (id, rate) in [(e1, "100"), (e2, "300"), (e3, "200")] {
        let a = put_items(
            &s,
            id,
            items_body(
                Encoding::Form,
                &[item(&[
                    ("description", "Work"),
                    ("quantity", "1"),
                    ("rate", rate),
                ])],
                &[],
            ),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK);
    }
    assert_eq!(
        s.put(
            &format!("/api/estimates/{e3}/status"),
            form(&[("status", "accepted")])
        )
        .await
        .status,
        StatusCode::OK
    );

    let all = s.get("/api/estimates").await;
    assert_eq!(listed(&all), [e3, e2, e1]);
    assert_eq!(
        page_meta(&all),
        json!({"current_page": 1, "per_page": 35, "total": 3, "last_page": 1})
    );
    assert_eq!(
        all.data()[0],
        get(&s, e3).await,
        "list items are whole estimates"
    );

    let cat = s.default_category("estimate").await;
    let cases = [
        (format!("client_id={c1}"), vec![e2]),
        (format!("project_id={p0}"), vec![e1]),
        (format!("category_id={cat}"), vec![e3, e2, e1]),
        ("status=accepted".to_owned(), vec![e3]),
        ("status=draft".to_owned(), vec![e2, e1]),
        ("status=draft&client_id=".to_owned() + &c1, vec![e2]),
        ("search=blue".to_owned(), vec![e2, e1]),
        ("search=iNiTeCh".to_owned(), vec![e3]),
        ("search=0%25_".to_owned(), vec![e3]),
        ("search=%25".to_owned(), vec![e3]),
        (format!("search={e2}"), vec![e2]),
        (
            "sort=bill_final_amount&order=asc".to_owned(),
            vec![e1, e3, e2],
        ),
        ("sort=bill_final_amount".to_owned(), vec![e2, e3, e1]),
        ("sort=bill_date&order=asc".to_owned(), vec![e1, e2, e3]),
    ];
    for (query, expected) in cases {
        assert_eq!(
            listed(&s.get(&format!("/api/estimates?{query}")).await),
            expected,
            "{query}"
        );
    }
    let page = s.get("/api/estimates?limit=2&page=2").await;
    assert_eq!(listed(&page), [e1]);
    assert_eq!(
        page_meta(&page),
        json!({"current_page": 2, "per_page": 2, "total": 3, "last_page": 2})
    );
    let past = s.get("/api/estimates?limit=2&page=5").await;
    assert_eq!(listed(&past), Vec::<i64>::new());
    assert_eq!(
        page_meta(&past),
        json!({"current_page": 5, "per_page": 2, "total": 3, "last_page": 2})
    );

    assert_invalid(
        &s.get("/api/estimates?status=paid").await,
        "status",
        &["The selected status is invalid."],
    );
    assert_invalid(
        &s.get("/api/estimates?sort=title").await,
        "sort",
        &["The selected sort is invalid."],
    );
    assert_invalid(
        &s.get("/api/estimates?client_id=x").await,
        "client_id",
        &["The client id must be an integer."],
    );
}

/// A page of large estimates stops at the list byte budget instead of holding every
/// record (issue 33: a page of 100 estimates of 1,000 lines was a 118 MB body): it says
/// so in `meta.truncated`, and its `next_cursor` goes on right after its last record, so
/// that following the cursors lists every estimate exactly once.
#[tokio::test]
async fn a_page_of_large_estimates_stops_at_the_byte_budget_and_its_cursor_goes_on() {
    let s = TestServer::start().await;
    // Six estimates of 1,000 lines of 900 characters: about 1.2 MB of JSON each, so
    // three fit in the 4 MiB budget and a fourth does not.
    let description = "x".repeat(900);
    let lines: Vec<_> = (0..1000)
        .map(|_| {
            item(&[
                ("description", &description),
                ("quantity", "1"),
                ("rate", "1"),
            ])
        })
        .collect();
    let mut big = Vec::new();
    for _ in 0..6 {
        let id = id_of(&create(&s, &[]).await);
        let a = put_items(&s, id, items_body(Encoding::Json, &lines, &[])).await;
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.json["message"]);
        big.push(id);
    }
    let small = id_of(&create(&s, &[]).await);

    let mut seen: Vec<i64> = Vec::new();
    let mut path = "/api/estimates?limit=100&order=asc".to_owned();
    let mut pages = 0;
    loop {
        let response = s
            .http
            .get(format!("{}{path}", s.base))
            .bearer_auth(&s.key)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let body = response.bytes().await.unwrap();
        assert!(
            body.len() < 6 * 1024 * 1024,
            "a page of {} bytes passed the budget",
            body.len()
        );
        let page: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let ids: Vec<i64> = page["data"].as_array().unwrap().iter().map(id_of).collect();
        assert!(!ids.is_empty());
        pages += 1;
        seen.extend(&ids);
        let meta = &page["meta"];
        assert_eq!(meta["per_page"], 100);
        assert_eq!(meta["total"], 7);
        let Some(next) = meta["next_cursor"].as_str() else {
            assert!(
                meta.get("truncated").is_none(),
                "the last page is whole: {meta}"
            );
            break;
        };
        assert_eq!(meta["truncated"], true, "{meta}");
        assert!(ids.len() < 7, "a cut page holds fewer than the page size");
        path = format!("/api/estimates?limit=100&order=asc&cursor={next}");
    }
    let mut all = big.clone();
    all.push(small);
    assert_eq!(seen, all, "every estimate once, in order");
    assert!(pages >= 2, "the six large estimates do not fit one page");

    // Small pages are untouched: no `truncated` member.
    let a = s.get("/api/estimates?limit=1").await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(
        a.json["meta"].get("truncated").is_none(),
        "{}",
        a.json["meta"]
    );
}
