//! `GET /payments`: filters (invoice, client, a period), search, sorts, paging, and totals
//! read from the maintained counts equal to a count of the rows.

use crm_core::bill::InvoiceKind;
use crm_core::payment::PaymentListQuery;

use super::{payment, published};
use crate::common::{Seeded, ctx, invalid, raw, seeded};

async fn ids(s: &Seeded, query: &[(&str, &str)]) -> (Vec<i64>, u64) {
    let q = PaymentListQuery::parse(&raw(query)).unwrap();
    let listed = s.store.list_payments(ctx(), &q).await.unwrap();
    (
        listed.items.iter().map(|p| p.id.get()).collect(),
        listed.total,
    )
}

#[tokio::test]
async fn filters_search_sorts_and_pages() {
    let s = seeded().await;
    // Only this test's payments: the demo seed's is removed.
    s.exec("DELETE FROM payments").await;
    let acme = published(&s, "1", "1000").await;
    let other = published(&s, "1", "1000").await;
    // An invoice of Globex (client 1).
    let globex_id = s.ids.clients[1].id.to_string();
    let g = crate::invoices::create(&s, &[("bill_clientid", &globex_id)]).await;
    let lines = crate::common::items(
        vec![crate::common::item(&[
            ("description", "W"),
            ("quantity", "1"),
            ("rate", "500"),
        ])],
        None,
    );
    s.store
        .bills::<InvoiceKind>()
        .replace_items(ctx(), g.id, lines)
        .await
        .unwrap();
    let g = s
        .store
        .bills::<InvoiceKind>()
        .publish(ctx(), g.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    let record = |invoice,
                  amount: &'static str,
                  date: &'static str,
                  extra: Vec<(&'static str, &'static str)>| {
        let mut extra = extra;
        extra.push(("payment_date", date));
        let cmd = payment(invoice, amount, &extra);
        let store = s.store.clone();
        async move { store.record_payment(ctx(), &cmd).await.unwrap().id.get() }
    };
    let a = record(
        acme.id,
        "100",
        "2026-11-10",
        vec![("payment_method", "Card"), ("payment_notes", "50%_deposit")],
    )
    .await;
    let b = record(
        acme.id,
        "50.25",
        "2026-11-12",
        vec![("payment_transaction_id", "BANK-77")],
    )
    .await;
    let c = record(
        other.id,
        "300",
        "2026-11-11",
        vec![("payment_method", "Bank transfer")],
    )
    .await;
    let d = record(
        g.id,
        "20",
        "2026-11-15",
        vec![("payment_notes", "CARD top-up")],
    )
    .await;

    assert_eq!(ids(&s, &[]).await, (vec![d, c, b, a], 4));
    assert_eq!(
        ids(&s, &[("invoice_id", &acme.id.to_string())]).await,
        (vec![b, a], 2)
    );
    let acme_client = s.ids.clients[0].id.to_string();
    assert_eq!(
        ids(&s, &[("client_id", &acme_client)]).await,
        (vec![c, b, a], 3)
    );
    assert_eq!(ids(&s, &[("client_id", &globex_id)]).await, (vec![d], 1));
    assert_eq!(
        ids(
            &s,
            &[
                ("client_id", &globex_id),
                ("invoice_id", &acme.id.to_string())
            ]
        )
        .await,
        (vec![], 0)
    );
    assert_eq!(
        ids(
            &s,
            &[("date_from", "2026-11-11"), ("date_to", "2026-11-12")]
        )
        .await,
        (vec![c, b], 2)
    );
    assert_eq!(
        ids(&s, &[("date_from", "2026-11-12")]).await,
        (vec![d, b], 2)
    );
    assert_eq!(ids(&s, &[("date_to", "2026-11-10")]).await, (vec![a], 1));
    // Search: method, transaction id and notes, case-insensitively; `%` and `_` literal.
    assert_eq!(ids(&s, &[("search", "card")]).await, (vec![d, a], 2));
    assert_eq!(ids(&s, &[("search", "bank")]).await, (vec![c, b], 2));
    assert_eq!(ids(&s, &[("search", "50%_")]).await, (vec![a], 1));
    assert_eq!(ids(&s, &[("search", "5_%")]).await, (vec![], 0));
    // Sorts, with the id tie-break.
    assert_eq!(
        ids(&s, &[("sort", "payment_amount"), ("order", "asc")])
            .await
            .0,
        vec![d, b, a, c]
    );
    assert_eq!(
        ids(&s, &[("sort", "payment_date")]).await.0,
        vec![d, b, c, a]
    );
    assert_eq!(
        ids(&s, &[("sort", "payment_created"), ("order", "asc")])
            .await
            .0,
        vec![a, b, c, d]
    );
    // Pages: numbers and past the end.
    assert_eq!(
        ids(&s, &[("limit", "3"), ("page", "2")]).await,
        (vec![a], 4)
    );
    assert_eq!(ids(&s, &[("limit", "3"), ("page", "9")]).await, (vec![], 4));
    // A cursor walks the same rows.
    let q = PaymentListQuery::parse(&raw(&[("limit", "2"), ("sort", "payment_amount")])).unwrap();
    let first = s.store.list_payments(ctx(), &q).await.unwrap();
    let next = first.cursors.next.clone().unwrap();
    let q = PaymentListQuery::parse(&raw(&[
        ("limit", "2"),
        ("sort", "payment_amount"),
        ("cursor", &next),
    ]))
    .unwrap();
    let second = s.store.list_payments(ctx(), &q).await.unwrap();
    let walked: Vec<i64> = first
        .items
        .iter()
        .chain(&second.items)
        .map(|p| p.id.get())
        .collect();
    assert_eq!(walked, vec![c, a, b, d]);
    // Totals stay exact after a deletion, folded or not.
    s.store
        .delete_payment(ctx(), crm_core::ids::PaymentId::new(b).unwrap())
        .await
        .unwrap();
    assert_eq!(
        ids(&s, &[("invoice_id", &acme.id.to_string())]).await,
        (vec![a], 1)
    );
    s.store.fold_list_counts().await.unwrap();
    assert_eq!(
        ids(&s, &[("client_id", &acme_client)]).await,
        (vec![c, a], 2)
    );
    assert_eq!(ids(&s, &[]).await.1, 3);
}

#[tokio::test]
async fn a_period_must_run_forward() {
    let r = PaymentListQuery::parse(&raw(&[
        ("date_from", "2026-11-02"),
        ("date_to", "2026-11-01"),
    ]))
    .unwrap_err();
    let errors = invalid::<()>(Err(crm_store_pg::StoreError::Invalid(r.errors)));
    assert_eq!(
        crate::common::messages(&errors, "date_to"),
        ["The date to must be a date after or equal to date from."]
    );
}
