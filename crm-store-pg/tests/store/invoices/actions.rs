//! Publishing, emailing and cloning invoices.

use crm_core::bill::InvoiceKind;
use crm_core::conflict::Conflict;
use crm_core::invoice::{InvoiceClone, InvoiceStatus};
use crm_core::tags::TagSet;
use crm_store_pg::StoreError;

use super::{create, emails};
use crate::common::{ctx, day, item, items, list, rate_id, raw, seeded};

#[tokio::test]
async fn publishing_a_draft_makes_it_due_and_queues_its_email_once() {
    let s = seeded().await;
    let i = create(&s, &[]).await;
    let lines = vec![item(&[
        ("description", "Design <b>"),
        ("quantity", "2"),
        ("rate", "100"),
    ])];
    s.store
        .bills::<InvoiceKind>()
        .replace_items(ctx(), i.id, items(lines, None))
        .await
        .unwrap();
    let published = s
        .store
        .bills::<InvoiceKind>()
        .publish(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    assert_eq!(published.status, InvoiceStatus::Due);
    let queued = emails(&s, i.id, "pending").await;
    let contact = s.ids.clients[0].contact_email.clone().unwrap();
    assert_eq!(queued, [(contact, None, "invoice".to_owned())]);
    assert!(matches!(
        s.store
            .bills::<InvoiceKind>()
            .publish(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
            .await
            .map(|e| e.record),
        Err(StoreError::Conflict(Conflict::InvoiceAlreadyPublished))
    ));
    assert_eq!(emails(&s, i.id, "pending").await.len(), 1);
}

#[tokio::test]
async fn a_draft_is_not_emailed_and_a_published_invoice_is_emailed_again() {
    let s = seeded().await;
    let i = create(&s, &[]).await;
    assert!(matches!(
        s.store
            .bills::<InvoiceKind>()
            .send_email(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
            .await
            .map(|e| e.record),
        Err(StoreError::Conflict(Conflict::InvoiceStillDraft))
    ));
    assert!(emails(&s, i.id, "pending").await.is_empty());
    s.store
        .bills::<InvoiceKind>()
        .publish(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    let sent = s
        .store
        .bills::<InvoiceKind>()
        .send_email(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    assert_eq!(sent.status, InvoiceStatus::Due);
    assert_eq!(emails(&s, i.id, "pending").await.len(), 2);
}

#[tokio::test]
async fn a_client_without_a_contact_address_gets_no_email() {
    let s = seeded().await;
    let initech = s
        .ids
        .clients
        .iter()
        .find(|c| c.contact_email.is_none())
        .unwrap()
        .id
        .to_string();
    let i = create(&s, &[("bill_clientid", &initech)]).await;
    s.store
        .bills::<InvoiceKind>()
        .publish(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    let refused = s
        .store
        .bills::<InvoiceKind>()
        .send_email(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await;
    assert!(
        matches!(refused, Err(StoreError::Conflict(Conflict::NoContactEmail))),
        "{refused:?}"
    );
    assert_eq!(s.scalar("SELECT count(*) FROM email_queue").await, 0);
}

#[tokio::test]
async fn a_clone_copies_category_lines_taxes_and_totals_but_not_tags_status_or_estimate() {
    let s = seeded().await;
    let i = create(&s, &[("bill_tax_type", "inline"), ("bill_notes", "N")]).await;
    let ten = rate_id(&s, "10.00", "enabled");
    let lines = vec![
        item(&[
            ("description", "A"),
            ("quantity", "2"),
            ("rate", "100"),
            ("tax_rate_id", &ten),
        ]),
        item(&[("description", "B"), ("quantity", "1"), ("rate", "5")]),
    ];
    let source = s
        .store
        .bills::<InvoiceKind>()
        .replace_items(ctx(), i.id, items(lines, None))
        .await
        .unwrap();
    let tags = TagSet::parse(&[("tags", list(&["x"]))].into_iter().collect()).unwrap();
    s.store
        .bills::<InvoiceKind>()
        .set_tags(ctx(), i.id, &tags)
        .await
        .unwrap();
    s.store
        .bills::<InvoiceKind>()
        .publish(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    let globex = s.ids.clients[1].id.to_string();
    let cmd = InvoiceClone::parse(&raw(&[
        ("bill_clientid", &globex),
        ("bill_date", "2026-12-01"),
        ("bill_due_date", "2026-12-31"),
    ]))
    .unwrap();
    let copy = s
        .store
        .bills::<InvoiceKind>()
        .clone_bill(ctx(), i.id, &cmd)
        .await
        .unwrap();
    assert_ne!(copy.id, i.id);
    assert_eq!(copy.status, InvoiceStatus::Draft);
    assert_eq!(copy.client.name, s.ids.clients[1].name);
    assert_eq!(copy.category, source.category);
    assert_eq!(
        (copy.dates.date, copy.dates.due_date),
        (day("2026-12-01"), Some(day("2026-12-31")))
    );
    assert_eq!(copy.totals, source.totals);
    assert_eq!(copy.notes.as_deref(), Some("N"));
    assert!(copy.tags.is_empty() && copy.estimate_id.is_none());
    let shape = |i: &crm_core::invoice::Invoice| {
        i.line_items
            .iter()
            .map(|l| (l.description.clone(), l.total, l.tax_rate_id))
            .collect::<Vec<_>>()
    };
    assert_eq!(shape(&copy), shape(&source));
    assert_eq!(copy.taxes.len(), 1);
    assert_eq!(copy.taxes[0].lineitem_id, Some(copy.line_items[0].id));
}
