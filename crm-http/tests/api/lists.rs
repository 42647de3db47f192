//! Cursor paging over HTTP (issue 12): every list answers `meta.next_cursor` and
//! `meta.prev_cursor`; walking them forward and back lists what page numbers list; a
//! cursor sent with another sort, order, filter or search, or a corrupt one, is a 422 on
//! `cursor`, never a 500.

use reqwest::StatusCode;

use crate::common::{TestServer, assert_invalid, ids, page_meta};

/// Walks `/api/{list}?{query}` by pages, by cursors forward, by cursors back from the last
/// page; the three walks must agree.
async fn walk(s: &TestServer, list: &str, query: &str) -> Vec<i64> {
    let base = format!("/api/{list}?limit=2&{query}");
    let first = s.get(&base).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.json);
    let meta = page_meta(&first);
    let last = meta["last_page"].as_i64().unwrap();
    let mut by_number = Vec::new();
    for page in 1..=last {
        by_number.extend(ids(&s.get(&format!("{base}&page={page}")).await));
    }
    assert_eq!(
        by_number.len() as i64,
        meta["total"].as_i64().unwrap(),
        "{base}"
    );
    assert!(first.json["meta"]["prev_cursor"].is_null());

    let mut forward = ids(&first);
    let mut next = first.json["meta"]["next_cursor"]
        .as_str()
        .map(str::to_owned);
    while let Some(cursor) = next {
        let a = s.get(&format!("{base}&cursor={cursor}")).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        forward.extend(ids(&a));
        next = a.json["meta"]["next_cursor"].as_str().map(str::to_owned);
    }
    assert_eq!(forward, by_number, "forward, {base}");

    let end = s.get(&format!("{base}&page={last}")).await;
    assert!(end.json["meta"]["next_cursor"].is_null());
    let mut backward = ids(&end);
    let mut prev = end.json["meta"]["prev_cursor"].as_str().map(str::to_owned);
    while let Some(cursor) = prev {
        let a = s.get(&format!("{base}&cursor={cursor}")).await;
        let mut page = ids(&a);
        page.extend(backward);
        backward = page;
        prev = a.json["meta"]["prev_cursor"].as_str().map(str::to_owned);
    }
    assert_eq!(backward, by_number, "backward, {base}");
    by_number
}

#[tokio::test]
async fn cursor_walks_equal_page_walks_for_every_list() {
    let s = TestServer::start().await;
    let db = s.sql().await;
    db.batch_execute(
        "INSERT INTO notes (title, description, visibility, creator_id)
         SELECT 'Walk ' || (g % 4), 'd', CASE WHEN g % 6 = 0 THEN 'private' ELSE 'public' END,
                CASE WHEN g % 4 = 0 THEN 2 ELSE 1 END
         FROM generate_series(1, 13) g;
         INSERT INTO categories (name, type) SELECT 'Walk category ' || g, 'estimate' FROM generate_series(1, 5) g;
         INSERT INTO estimates (client_id, category_id, date, expiry_date, creator_id)
         SELECT (SELECT min(id) FROM clients), (SELECT min(id) FROM categories WHERE type = 'estimate'),
                DATE '2026-01-01', CASE WHEN g % 3 = 0 THEN NULL ELSE DATE '2026-02-01' + g % 2 END, 1
         FROM generate_series(1, 7) g;
         WITH docs AS (INSERT INTO estimates (is_document, client_id, date, creator_id)
                       SELECT TRUE, (SELECT min(id) FROM clients), DATE '2026-01-01', 1
                       FROM generate_series(1, 5) RETURNING id)
         INSERT INTO contracts (title, client_id, category_id, estimate_id, date_start, value)
         SELECT 'Walk ' || id, (SELECT min(id) FROM clients),
                (SELECT min(id) FROM categories WHERE type = 'contract'), id, DATE '2026-01-01',
                CASE WHEN id % 2 = 0 THEN NULL ELSE 100 END
         FROM docs;",
    )
    .await
    .unwrap();
    for (list, queries) in [
        (
            "notes",
            vec![
                "",
                "sort=note_title&order=asc",
                "sort=note_created",
                "visibility=public&sort=note_updated&order=asc",
            ],
        ),
        (
            "categories",
            vec![
                "",
                "sort=category_name&order=asc",
                "type=estimate&sort=category_created",
            ],
        ),
        ("estimates", vec!["", "sort=bill_expiry_date&order=asc"]),
        ("contracts", vec!["", "sort=doc_value"]),
    ] {
        for query in queries {
            walk(&s, list, query).await;
        }
    }
    let project = s.ids.projects[0];
    walk(&s, "milestones", &format!("project_id={project}")).await;
    walk(
        &s,
        "milestones",
        &format!("project_id={project}&sort=milestone_title&order=desc"),
    )
    .await;
}

#[tokio::test]
async fn a_cursor_with_another_query_or_a_corrupt_one_is_a_422_on_cursor() {
    let s = TestServer::start().await;
    s.sql()
        .await
        .batch_execute("INSERT INTO notes (title, description, creator_id) SELECT 'n' || g, 'd', 1 FROM generate_series(1, 5) g")
        .await
        .unwrap();
    let first = s.get("/api/notes?limit=2&sort=note_title").await;
    let cursor = first.json["meta"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        s.get(&format!(
            "/api/notes?limit=3&sort=note_title&cursor={cursor}"
        ))
        .await
        .status,
        StatusCode::OK
    );
    let invalid = ["The selected cursor is invalid."];
    for query in [
        format!("sort=note_created&cursor={cursor}"),
        format!("sort=note_title&order=asc&cursor={cursor}"),
        format!("sort=note_title&visibility=private&cursor={cursor}"),
        format!("sort=note_title&search=n&cursor={cursor}"),
        "sort=note_title&cursor=31".to_owned(),
        "sort=note_title&cursor=not-a-cursor".to_owned(),
        format!("sort=note_title&cursor={}", &cursor[..cursor.len() - 1]),
        format!("sort=note_title&cursor={}", cursor.to_uppercase()),
    ] {
        assert_invalid(
            &s.get(&format!("/api/notes?{query}")).await,
            "cursor",
            &invalid,
        );
    }
    assert_eq!(
        s.get("/api/notes?cursor[]=x").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // Another list's cursor is another query's.
    assert_invalid(
        &s.get(&format!("/api/contracts?cursor={cursor}")).await,
        "cursor",
        &invalid,
    );
}
