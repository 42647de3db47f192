//! Converting an estimate to an invoice, once, also under concurrency.

use crm_core::bill::EstimateKind;
use crm_core::conflict::Conflict;
use crm_core::estimate::{ShownStatus, StatusChange};
use crm_core::invoice::InvoiceStatus;
use crm_store_pg::StoreError;

use super::{create, item, items, patch, rate_id};
use crate::common::{ctx, day, raw, seeded};

#[tokio::test]
async fn converting_creates_a_draft_invoice_with_copies_of_lines_taxes_and_totals() {
    let s = seeded().await;
    let project = s.ids.projects[0].to_string();
    let e = create(
        &s,
        &[
            ("bill_projectid", &project),
            ("bill_notes", "N"),
            ("bill_terms", "T"),
        ],
    )
    .await;
    let (ten, five) = (
        rate_id(&s, "10.00", "enabled"),
        rate_id(&s, "5.00", "enabled"),
    );
    let lines = vec![
        item(&[("description", "A"), ("quantity", "2"), ("rate", "100")]),
        item(&[("description", "B"), ("quantity", "1"), ("rate", "50")]),
    ];
    s.store
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, items(lines, Some(&[ten, five])))
        .await
        .unwrap();
    s.store
        .bills::<EstimateKind>()
        .update(
            ctx(),
            e.id,
            &patch(
                &e,
                &[
                    ("bill_discount_type", "fixed"),
                    ("bill_discount_amount", "25"),
                    ("bill_adjustment_amount", "3"),
                ],
            ),
        )
        .await
        .unwrap();
    s.store
        .bills::<EstimateKind>()
        .set_status(
            ctx(),
            e.id,
            &StatusChange::parse(&raw(&[("status", "accepted")])).unwrap(),
        )
        .await
        .unwrap();
    let source = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), e.id)
        .await
        .unwrap();
    let invoice = s.store.convert_estimate(ctx(), e.id).await.unwrap();
    assert_eq!(invoice.status, InvoiceStatus::Draft);
    let category = s
        .scalar("SELECT id FROM categories WHERE type = 'invoice' AND system_default")
        .await;
    assert_eq!(invoice.category.id.get(), category);
    assert_eq!(
        (invoice.dates.date, invoice.dates.due_date),
        (day("2026-11-22"), Some(day("2026-12-22")))
    );
    assert_eq!(
        (invoice.client.clone(), invoice.project_id, invoice.tax_type),
        (source.client.clone(), source.project_id, source.tax_type)
    );
    assert_eq!(
        (invoice.notes.clone(), invoice.terms.clone()),
        (source.notes.clone(), source.terms.clone())
    );
    assert_eq!(invoice.totals.bill, source.totals);
    assert_eq!(invoice.estimate_id, Some(e.id));
    assert!(invoice.tags.is_empty());
    let lines = |l: &[crm_core::bill::LineItem]| {
        l.iter()
            .map(|l| {
                (
                    l.position,
                    l.description.clone(),
                    l.quantity,
                    l.rate,
                    l.total,
                    l.discount,
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&invoice.line_items), lines(&source.line_items));
    let taxes = |t: &[crm_core::bill::TaxRecord]| {
        t.iter()
            .map(|t| (t.name.clone(), t.rate, t.tax_rate_id, t.lineitem_id))
            .collect::<Vec<_>>()
    };
    assert_eq!(taxes(&invoice.taxes), taxes(&source.taxes));
    let after = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), e.id)
        .await
        .unwrap();
    assert_eq!(after.status, ShownStatus::Accepted);
    assert_eq!(
        (after.converted.is_converted, after.converted.invoice_id),
        (true, Some(invoice.id))
    );
    let second = s.store.convert_estimate(ctx(), e.id).await;
    assert!(
        matches!(
            second,
            Err(StoreError::Conflict(Conflict::EstimateAlreadyConverted))
        ),
        "{second:?}"
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM invoices WHERE estimate_id IS NOT NULL")
            .await,
        1
    );
}

#[tokio::test]
async fn inline_tax_records_of_a_converted_invoice_point_at_its_own_lines() {
    let s = seeded().await;
    let e = create(&s, &[("bill_tax_type", "inline")]).await;
    let ten = rate_id(&s, "10.00", "enabled");
    let lines = vec![
        item(&[("description", "A"), ("quantity", "1"), ("rate", "10")]),
        item(&[
            ("description", "B"),
            ("quantity", "1"),
            ("rate", "20"),
            ("tax_rate_id", &ten),
        ]),
    ];
    s.store
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, items(lines, None))
        .await
        .unwrap();
    let invoice = s.store.convert_estimate(ctx(), e.id).await.unwrap();
    assert_eq!(invoice.taxes.len(), 1);
    assert_eq!(invoice.taxes[0].lineitem_id, Some(invoice.line_items[1].id));
    assert_eq!(
        invoice.totals.bill.figures.final_amount.to_string(),
        "32.00"
    );
}

#[tokio::test]
async fn two_concurrent_conversions_create_one_invoice_and_one_conflict() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    s.store
        .bills::<EstimateKind>()
        .replace_items(
            ctx(),
            e.id,
            items(
                vec![item(&[
                    ("description", "A"),
                    ("quantity", "1"),
                    ("rate", "10"),
                ])],
                None,
            ),
        )
        .await
        .unwrap();
    let (a, b) = tokio::join!(
        s.store.convert_estimate(ctx(), e.id),
        s.store.convert_estimate(ctx(), e.id)
    );
    let oks = [&a, &b].iter().filter(|r| r.is_ok()).count();
    assert_eq!(oks, 1, "{a:?} {b:?}");
    let failed = if a.is_err() { a } else { b };
    assert!(
        matches!(
            failed,
            Err(StoreError::Conflict(Conflict::EstimateAlreadyConverted))
        ),
        "{failed:?}"
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM invoices WHERE estimate_id IS NOT NULL")
            .await,
        1
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE i.estimate_id IS NOT NULL"
        )
        .await,
        1
    );
}
