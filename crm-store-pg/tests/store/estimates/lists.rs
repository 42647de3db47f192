//! The estimate list: filters (shown status included), search, sort, paging.

use crm_core::bill::EstimateKind;
use crm_core::estimate::{EstimateListQuery, StatusChange};
use crm_core::ids::EstimateId;

use super::{create, document_estimate};
use crate::common::{Seeded, ctx, raw, seeded};

async fn ids(s: &Seeded, pairs: &[(&str, &str)]) -> (Vec<i64>, u64) {
    let q = EstimateListQuery::parse(&raw(pairs)).unwrap();
    let listed = s
        .store
        .bills::<EstimateKind>()
        .list(ctx(), &q)
        .await
        .unwrap();
    (
        listed.items.iter().map(|e| e.id.get()).collect(),
        listed.total,
    )
}

async fn set_status(s: &Seeded, id: EstimateId, status: &str) {
    s.store
        .bills::<EstimateKind>()
        .set_status(
            ctx(),
            id,
            &StatusChange::parse(&raw(&[("status", status)])).unwrap(),
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn the_list_shows_whole_listed_estimates_newest_first_without_document_estimates() {
    let s = seeded().await;
    let a = create(&s, &[]).await;
    let b = create(&s, &[]).await;
    document_estimate(&s).await;
    let q = EstimateListQuery::parse(&raw(&[])).unwrap();
    let listed = s
        .store
        .bills::<EstimateKind>()
        .list(ctx(), &q)
        .await
        .unwrap();
    assert_eq!(listed.total, 2);
    assert_eq!(listed.items, vec![b.clone(), a.clone()]);
    assert_eq!(
        ids(&s, &[("order", "asc")]).await.0,
        vec![a.id.get(), b.id.get()]
    );
}

#[tokio::test]
async fn the_status_filter_uses_the_shown_status_including_expired() {
    let s = seeded().await;
    let draft = create(&s, &[]).await;
    let fresh = create(&s, &[]).await;
    let expired = create(&s, &[]).await;
    let no_expiry = create(&s, &[]).await;
    let accepted = create(&s, &[]).await;
    for e in [&fresh, &expired, &no_expiry] {
        set_status(&s, e.id, "new").await;
    }
    set_status(&s, accepted.id, "accepted").await;
    s.exec(&format!(
        "UPDATE estimates SET expiry_date = DATE '2026-11-22' WHERE id IN ({}, {})",
        fresh.id, accepted.id
    ))
    .await;
    s.exec(&format!(
        "UPDATE estimates SET expiry_date = DATE '2026-11-21' WHERE id = {}",
        expired.id
    ))
    .await;
    assert_eq!(
        ids(&s, &[("status", "expired")]).await,
        (vec![expired.id.get()], 1)
    );
    assert_eq!(
        ids(&s, &[("status", "new")]).await,
        (vec![no_expiry.id.get(), fresh.id.get()], 2)
    );
    assert_eq!(
        ids(&s, &[("status", "draft")]).await,
        (vec![draft.id.get()], 1)
    );
    assert_eq!(
        ids(&s, &[("status", "accepted")]).await,
        (vec![accepted.id.get()], 1)
    );
    assert_eq!(ids(&s, &[("status", "declined")]).await, (vec![], 0));
}

#[tokio::test]
async fn the_list_filters_by_client_project_and_category_combined() {
    let s = seeded().await;
    let globex = s.ids.clients[1].id.to_string();
    let project = s.ids.projects[1].to_string();
    let acme = create(&s, &[]).await;
    let g1 = create(&s, &[("bill_clientid", &globex)]).await;
    let g2 = create(
        &s,
        &[("bill_clientid", &globex), ("bill_projectid", &project)],
    )
    .await;
    s.exec("INSERT INTO categories (name, type) VALUES ('Big jobs', 'estimate')")
        .await;
    let other = s
        .scalar("SELECT id FROM categories WHERE name = 'Big jobs'")
        .await
        .to_string();
    let g3 = create(
        &s,
        &[
            ("bill_clientid", &globex),
            ("bill_projectid", &project),
            ("bill_categoryid", &other),
        ],
    )
    .await;
    assert_eq!(
        ids(&s, &[("client_id", &globex)]).await.0,
        vec![g3.id.get(), g2.id.get(), g1.id.get()]
    );
    assert_eq!(
        ids(&s, &[("client_id", &s.ids.clients[0].id.to_string())])
            .await
            .0,
        vec![acme.id.get()]
    );
    assert_eq!(
        ids(&s, &[("client_id", &globex), ("project_id", &project)])
            .await
            .0,
        vec![g3.id.get(), g2.id.get()]
    );
    assert_eq!(
        ids(&s, &[("project_id", &project), ("category_id", &other)])
            .await
            .0,
        vec![g3.id.get()]
    );
}

#[tokio::test]
async fn search_matches_client_name_notes_and_terms_literally_and_an_integer_matches_the_id() {
    let s = seeded().await;
    let initech = s.ids.clients[2].id.to_string();
    // Ids whose digits appear in no searched text.
    s.exec("ALTER TABLE estimates ALTER COLUMN id RESTART WITH 777")
        .await;
    let by_client = create(&s, &[("bill_clientid", &initech)]).await;
    let by_notes = create(&s, &[("bill_notes", "Includes 100% of the WORK_items")]).await;
    let by_terms = create(&s, &[("bill_terms", "net 30, 100x discount")]).await;
    assert_eq!(
        ids(&s, &[("search", "inite")]).await.0,
        vec![by_client.id.get()]
    );
    assert_eq!(
        ids(&s, &[("search", "work_")]).await.0,
        vec![by_notes.id.get()]
    );
    assert_eq!(
        ids(&s, &[("search", "100%")]).await.0,
        vec![by_notes.id.get()]
    );
    assert_eq!(
        ids(&s, &[("search", "NET 30")]).await.0,
        vec![by_terms.id.get()]
    );
    assert_eq!(ids(&s, &[("search", "10_")]).await.0, Vec::<i64>::new());
    let id = by_client.id.to_string();
    assert_eq!(
        ids(&s, &[("search", &id)]).await.0,
        vec![by_client.id.get()]
    );
}

#[tokio::test]
async fn sorting_breaks_ties_by_id_and_pages_never_overlap() {
    let s = seeded().await;
    let mut made = Vec::new();
    for date in [
        "2026-11-03",
        "2026-11-01",
        "2026-11-03",
        "2026-11-02",
        "2026-11-01",
    ] {
        made.push(create(&s, &[("bill_date", date)]).await.id.get());
    }
    let asc = ids(&s, &[("sort", "bill_date"), ("order", "asc")]).await.0;
    assert_eq!(asc, vec![made[1], made[4], made[3], made[0], made[2]]);
    let desc = ids(&s, &[("sort", "bill_date")]).await.0;
    assert_eq!(desc, vec![made[2], made[0], made[3], made[4], made[1]]);
    let mut paged = Vec::new();
    for page in ["1", "2", "3"] {
        let (page_ids, total) =
            ids(&s, &[("sort", "bill_date"), ("limit", "2"), ("page", page)]).await;
        assert_eq!(total, 5);
        paged.extend(page_ids);
    }
    assert_eq!(paged, desc);
    assert_eq!(ids(&s, &[("page", "9")]).await, (vec![], 5));
    s.exec(&format!(
        "UPDATE estimates SET final_amount = 10 WHERE id = {}",
        made[3]
    ))
    .await;
    assert_eq!(
        ids(&s, &[("sort", "bill_final_amount")]).await.0[0],
        made[3]
    );
    for sort in ["bill_expiry_date", "bill_created"] {
        assert_eq!(ids(&s, &[("sort", sort)]).await.1, 5);
    }
}
