//! `GET /invoices`: filters, the shown-status filter, search, sorts and paging.

use crm_core::bill::InvoiceKind;
use crm_core::invoice::{InvoiceListQuery, InvoiceStatusChange};

use super::create;
use crate::common::{Seeded, ctx, raw, seeded};

async fn ids(s: &Seeded, query: &[(&str, &str)]) -> (Vec<i64>, u64) {
    let q = InvoiceListQuery::parse(&raw(query)).unwrap();
    let listed = s
        .store
        .bills::<InvoiceKind>()
        .list(ctx(), &q)
        .await
        .unwrap();
    (
        listed.items.iter().map(|i| i.id.get()).collect(),
        listed.total,
    )
}

#[tokio::test]
async fn filters_search_sorts_and_pages_like_estimates() {
    let s = seeded().await;
    // Only this test's invoices: the demo seed's are removed.
    s.exec("DELETE FROM payments; DELETE FROM invoices").await;
    let globex = s.ids.clients[1].id.to_string();
    let project = s.ids.projects[0].to_string();
    let a = create(
        &s,
        &[
            ("bill_date", "2026-10-01"),
            ("bill_due_date", "2026-11-01"),
            ("bill_notes", "50%_off"),
        ],
    )
    .await;
    let b = create(
        &s,
        &[("bill_clientid", &globex), ("bill_date", "2026-11-10")],
    )
    .await;
    let c = create(
        &s,
        &[
            ("bill_projectid", &project),
            ("bill_date", "2026-09-01"),
            ("bill_terms", "net 30"),
        ],
    )
    .await;
    let set = |status: &str| InvoiceStatusChange::parse(&raw(&[("status", status)])).unwrap();
    s.store
        .bills::<InvoiceKind>()
        .set_status(ctx(), a.id, &set("2"))
        .await
        .unwrap();
    s.store
        .bills::<InvoiceKind>()
        .set_status(ctx(), b.id, &set("2"))
        .await
        .unwrap();
    let (a, b, c) = (a.id.get(), b.id.get(), c.id.get());

    assert_eq!(ids(&s, &[]).await, (vec![c, b, a], 3));
    assert_eq!(ids(&s, &[("status", "3")]).await, (vec![a], 1));
    assert_eq!(ids(&s, &[("status", "2")]).await, (vec![b], 1));
    assert_eq!(ids(&s, &[("status", "1")]).await, (vec![c], 1));
    assert_eq!(ids(&s, &[("client_id", &globex)]).await, (vec![b], 1));
    assert_eq!(ids(&s, &[("project_id", &project)]).await, (vec![c], 1));
    assert_eq!(ids(&s, &[("search", "globex")]).await, (vec![b], 1));
    assert_eq!(ids(&s, &[("search", "%_")]).await, (vec![a], 1));
    assert_eq!(ids(&s, &[("search", "NET")]).await, (vec![c], 1));
    assert_eq!(ids(&s, &[("search", &c.to_string())]).await.0, vec![c]);
    assert_eq!(
        ids(&s, &[("sort", "bill_date"), ("order", "asc")]).await.0,
        vec![c, a, b]
    );
    assert_eq!(
        ids(&s, &[("sort", "bill_due_date"), ("order", "asc")])
            .await
            .0,
        vec![c, a, b]
    );
    assert_eq!(ids(&s, &[("sort", "bill_created")]).await.0, vec![c, b, a]);
    assert_eq!(
        ids(&s, &[("sort", "bill_final_amount"), ("order", "asc")])
            .await
            .0,
        vec![a, b, c]
    );
    assert_eq!(
        ids(&s, &[("limit", "2"), ("page", "2")]).await,
        (vec![a], 3)
    );
    assert_eq!(ids(&s, &[("page", "9")]).await, (vec![], 3));
    let category = s.default_category("invoice").await.to_string();
    assert_eq!(ids(&s, &[("category_id", &category)]).await.1, 3);
}

#[tokio::test]
async fn the_demo_seed_has_three_invoices_with_calculated_totals() {
    use crm_core::ids::InvoiceId;
    use crm_core::invoice::InvoiceStatus;
    let s = seeded().await;
    assert_eq!(s.ids.invoices.len(), 3);
    let mut shown = Vec::new();
    for id in &s.ids.invoices {
        let i = s
            .store
            .bills::<InvoiceKind>()
            .get(ctx(), InvoiceId::new(*id).unwrap())
            .await
            .unwrap();
        shown.push((
            i.status,
            i.totals.bill.figures.final_amount.to_string(),
            i.line_items.len(),
        ));
    }
    assert_eq!(
        shown,
        [
            (InvoiceStatus::Paid, "2637.34".to_owned(), 2),
            (InvoiceStatus::Overdue, "1985.50".to_owned(), 1),
            (InvoiceStatus::Draft, "255.00".to_owned(), 1),
        ]
    );
    assert_eq!(s.scalar("SELECT count(*) FROM email_queue").await, 0);
    assert_eq!(s.store.seed().await.unwrap(), s.ids);
}
