//! Creating, updating, replacing items, setting status and tags, deleting.

use crm_core::bill::EstimateKind;
use crm_core::bill::InvoiceKind;
use crm_core::conflict::Resource;
use crm_core::estimate::{EstimateUpdate, NewEstimate};
use crm_core::ids::InvoiceId;
use crm_core::invoice::{InvoiceStatus, InvoiceStatusChange, NewInvoice};
use crm_core::tags::TagSet;
use crm_store_pg::StoreError;

use super::{create, emails, patch};
use crate::common::{ctx, day, invalid, item, items, list, messages, rate_id, raw, seeded};

#[tokio::test]
async fn a_new_invoice_is_an_empty_draft_due_thirty_days_later() {
    let s = seeded().await;
    let i = create(&s, &[("bill_notes", "N")]).await;
    assert_eq!(i.status, InvoiceStatus::Draft);
    assert_eq!(i.dates.due_date, Some(day("2026-12-01")));
    assert_eq!(i.estimate_id, None);
    assert_eq!(i.totals.bill.figures.final_amount.to_string(), "0.00");
    assert!(i.line_items.is_empty() && i.taxes.is_empty() && i.tags.is_empty());
    assert_eq!(i.notes.as_deref(), Some("N"));
    assert_eq!(
        s.store
            .bills::<InvoiceKind>()
            .get(ctx(), i.id)
            .await
            .unwrap(),
        i
    );
    let given = create(&s, &[("bill_due_date", "2026-11-05")]).await;
    assert_eq!(given.dates.due_date, Some(day("2026-11-05")));
}

#[tokio::test]
async fn an_invoice_needs_an_invoice_category_and_existing_references() {
    let s = seeded().await;
    let estimate_category = s.default_category("estimate").await.to_string();
    let cmd = NewInvoice::parse(&raw(&[
        ("bill_clientid", "999999"),
        ("bill_categoryid", estimate_category.as_str()),
        ("bill_date", "2026-11-01"),
    ]))
    .unwrap();
    let e = invalid(s.store.bills::<InvoiceKind>().create(ctx(), &cmd).await);
    assert_eq!(
        messages(&e, "bill_categoryid"),
        ["The selected bill categoryid is invalid."]
    );
    assert_eq!(
        messages(&e, "bill_clientid"),
        ["The selected bill clientid is invalid."]
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM invoices WHERE client_id = 999999")
            .await,
        0
    );
}

/// The same header and items on an estimate and an invoice give the same figures, in both
/// tax modes: one calculator, one implementation.
#[tokio::test]
async fn an_invoice_and_an_estimate_given_the_same_input_show_the_same_totals() {
    let s = seeded().await;
    let client = s.ids.clients[0].id.to_string();
    for mode in ["summary", "inline"] {
        let estimate_category = s.default_category("estimate").await.to_string();
        let e = NewEstimate::parse(&raw(&[
            ("bill_clientid", &client),
            ("bill_categoryid", &estimate_category),
            ("bill_date", "2026-11-01"),
            ("bill_tax_type", mode),
        ]))
        .unwrap();
        let e = s
            .store
            .bills::<EstimateKind>()
            .create(ctx(), &e)
            .await
            .unwrap();
        let i = create(&s, &[("bill_tax_type", mode)]).await;
        let (ten, vat) = (
            rate_id(&s, "10.00", "enabled"),
            rate_id(&s, "17.50", "enabled"),
        );
        let lines = |inline: bool| {
            let mut a = vec![
                ("description", "A"),
                ("quantity", "1.5"),
                ("rate", "1385.27"),
            ];
            let mut b = vec![("description", "B"), ("quantity", "3"), ("rate", "9.99")];
            if inline {
                a.extend([
                    ("tax_rate_id", ten.as_str()),
                    ("discount_type", "percentage"),
                    ("discount_value", "12.5"),
                ]);
                b.extend([
                    ("tax_rate_id", vat.as_str()),
                    ("discount_type", "fixed"),
                    ("discount_value", "1.01"),
                ]);
            }
            vec![item(&a), item(&b)]
        };
        let inline = mode == "inline";
        let rates = [ten.clone(), vat.clone()];
        let summary_rates = (!inline).then_some(&rates[..]);
        let header: &[(&str, &str)] = if inline {
            &[("bill_adjustment_amount", "-0.05")]
        } else {
            &[
                ("bill_discount_type", "percentage"),
                ("bill_discount_percentage", "7.5"),
                ("bill_adjustment_amount", "-0.05"),
            ]
        };
        let e = s
            .store
            .bills::<EstimateKind>()
            .replace_items(ctx(), e.id, items(lines(inline), summary_rates))
            .await
            .unwrap();
        let category = e.category.id.to_string();
        let mut pairs = vec![
            ("bill_categoryid", category.as_str()),
            ("bill_date", "2026-11-01"),
        ];
        pairs.extend_from_slice(header);
        let e = s
            .store
            .bills::<EstimateKind>()
            .update(ctx(), e.id, &EstimateUpdate::parse(&raw(&pairs)).unwrap())
            .await
            .unwrap();
        s.store
            .bills::<InvoiceKind>()
            .replace_items(ctx(), i.id, items(lines(inline), summary_rates))
            .await
            .unwrap();
        let i = s
            .store
            .bills::<InvoiceKind>()
            .update(ctx(), i.id, &patch(&i, header))
            .await
            .unwrap();
        assert_eq!(i.totals.bill, e.totals, "{mode}");
        let figures = |l: &[crm_core::bill::LineItem]| {
            l.iter()
                .map(|l| (l.total, l.discount, l.tax_rate_id))
                .collect::<Vec<_>>()
        };
        assert_eq!(figures(&i.line_items), figures(&e.line_items), "{mode}");
        let taxes = |t: &[crm_core::bill::TaxRecord]| {
            t.iter()
                .map(|t| (t.name.clone(), t.rate, t.lineitem_id.is_some()))
                .collect::<Vec<_>>()
        };
        assert_eq!(taxes(&i.taxes), taxes(&e.taxes), "{mode}");
        assert!(i.totals.bill.figures.final_amount.get() > rust_decimal::Decimal::ZERO);
    }
}

#[tokio::test]
async fn items_follow_the_invoice_tax_mode_with_the_estimates_messages() {
    let s = seeded().await;
    let i = create(&s, &[]).await;
    let ten = rate_id(&s, "10.00", "enabled");
    let disabled = s
        .ids
        .tax_rates
        .iter()
        .find(|t| t.status == "disabled")
        .unwrap()
        .id
        .to_string();
    let lines = vec![item(&[
        ("description", "A"),
        ("quantity", "1"),
        ("rate", "10"),
        ("tax_rate_id", &ten),
    ])];
    let e = invalid(
        s.store
            .bills::<InvoiceKind>()
            .replace_items(ctx(), i.id, items(lines, Some(&[disabled])))
            .await,
    );
    assert_eq!(
        messages(&e, "items.0.tax_rate_id"),
        ["The items.0.tax rate id field is prohibited when bill tax type is summary."]
    );
    assert_eq!(
        messages(&e, "tax_rate_ids.0"),
        ["The selected tax rate ids.0 is invalid."]
    );
    assert_eq!(
        s.scalar(&format!(
            "SELECT count(*) FROM invoice_lines WHERE invoice_id = {}",
            i.id
        ))
        .await,
        0
    );
}

#[tokio::test]
async fn a_patch_checks_the_due_date_and_a_mode_change_clears_the_taxes() {
    let s = seeded().await;
    let i = create(&s, &[]).await;
    let e = invalid(
        s.store
            .bills::<InvoiceKind>()
            .update(ctx(), i.id, &patch(&i, &[("bill_date", "2026-12-05")]))
            .await,
    );
    assert_eq!(
        messages(&e, "bill_due_date"),
        ["The bill due date must be a date after or equal to bill date."]
    );
    let ten = rate_id(&s, "10.00", "enabled");
    let lines = vec![item(&[
        ("description", "A"),
        ("quantity", "2"),
        ("rate", "50"),
    ])];
    s.store
        .bills::<InvoiceKind>()
        .replace_items(ctx(), i.id, items(lines, Some(&[ten])))
        .await
        .unwrap();
    let inline = s
        .store
        .bills::<InvoiceKind>()
        .update(
            ctx(),
            i.id,
            &patch(&i, &[("bill_tax_type", "inline"), ("bill_due_date", "")]),
        )
        .await
        .unwrap();
    assert!(inline.taxes.is_empty());
    assert_eq!(inline.dates.due_date, None);
    assert_eq!(
        inline.totals.bill.figures.final_amount.to_string(),
        "100.00"
    );
    assert_eq!(inline.status, InvoiceStatus::Draft);
}

#[tokio::test]
async fn the_status_is_set_as_given_and_shown_overdue_past_the_due_date() {
    let s = seeded().await;
    let i = create(
        &s,
        &[("bill_date", "2026-10-01"), ("bill_due_date", "2026-11-21")],
    )
    .await;
    let set = |status: &str| InvoiceStatusChange::parse(&raw(&[("status", status)])).unwrap();
    let due = s
        .store
        .bills::<InvoiceKind>()
        .set_status(ctx(), i.id, &set("2"))
        .await
        .unwrap();
    assert_eq!(due.status, InvoiceStatus::Overdue);
    let stored: i64 = s
        .scalar(&format!(
            "SELECT status_id::bigint FROM invoices WHERE id = {}",
            i.id
        ))
        .await;
    assert_eq!(stored, 2);
    // Set to an open status by hand, it is issued: numbered on the day, and its due date
    // is kept (API.md §18).
    // (The demo data issued two invoices of 2026 before it.)
    assert_eq!(due.number.as_deref(), Some("INV-2026-00003"));
    assert!(due.dates.issued.is_some());
    let moved = s
        .store
        .bills::<InvoiceKind>()
        .update(
            ctx(),
            i.id,
            &patch(&due, &[("bill_due_date", "2026-11-22")]),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(
            moved,
            StoreError::Conflict(crm_core::conflict::Conflict::IssuedInvoiceChanged)
        ),
        "{moved:?}"
    );
    // Past its due date it shows Overdue; on the due date itself, Due.
    let on_due_date = crm_store_pg::Ctx {
        today: chrono::NaiveDate::from_ymd_opt(2026, 11, 21).unwrap(),
        ..ctx()
    };
    let later = s
        .store
        .bills::<InvoiceKind>()
        .get(on_due_date, i.id)
        .await
        .unwrap();
    assert_eq!(later.status, InvoiceStatus::Due);
    let paid = s
        .store
        .bills::<InvoiceKind>()
        .set_status(ctx(), i.id, &set("5"))
        .await
        .unwrap();
    assert_eq!(paid.status, InvoiceStatus::Paid);
    let missing = InvoiceId::new(i.id.get() + 1000).unwrap();
    assert!(matches!(
        s.store
            .bills::<InvoiceKind>()
            .set_status(ctx(), missing, &set("1"))
            .await,
        Err(StoreError::NotFound(Resource::Invoice))
    ));
}

#[tokio::test]
async fn tags_are_replaced_in_order() {
    let s = seeded().await;
    let i = create(&s, &[]).await;
    let tags = TagSet::parse(
        &[("tags", list(&["b", " a ", "b", ""]))]
            .into_iter()
            .collect(),
    )
    .unwrap();
    let tagged = s
        .store
        .bills::<InvoiceKind>()
        .set_tags(ctx(), i.id, &tags)
        .await
        .unwrap();
    assert_eq!(tagged.tags, ["b", "a"]);
    let none = TagSet::parse(&[("tags", list(&[]))].into_iter().collect()).unwrap();
    let cleared = s
        .store
        .bills::<InvoiceKind>()
        .set_tags(ctx(), i.id, &none)
        .await
        .unwrap();
    assert!(cleared.tags.is_empty());
}

#[tokio::test]
async fn deleting_removes_lines_taxes_tags_and_pending_emails_but_keeps_sent_ones() {
    let s = seeded().await;
    let i = create(&s, &[]).await;
    let ten = rate_id(&s, "10.00", "enabled");
    let lines = vec![item(&[
        ("description", "A"),
        ("quantity", "2"),
        ("rate", "50"),
    ])];
    s.store
        .bills::<InvoiceKind>()
        .replace_items(ctx(), i.id, items(lines, Some(&[ten])))
        .await
        .unwrap();
    let tags = TagSet::parse(&[("tags", list(&["x"]))].into_iter().collect()).unwrap();
    s.store
        .bills::<InvoiceKind>()
        .set_tags(ctx(), i.id, &tags)
        .await
        .unwrap();
    // Issued, it is never deleted (API.md §18) …
    let issued = create(&s, &[]).await;
    s.store
        .bills::<InvoiceKind>()
        .publish(
            ctx(),
            issued.id,
            &crm_store_pg::messages::Letterhead([0; 32]),
        )
        .await
        .unwrap();
    let refused = s
        .store
        .bills::<InvoiceKind>()
        .delete(ctx(), issued.id)
        .await
        .unwrap_err();
    assert!(
        matches!(
            refused,
            StoreError::Conflict(crm_core::conflict::Conflict::IssuedInvoiceDeleted)
        ),
        "{refused:?}"
    );
    // … while one cancelled before it was issued goes, with what hangs on it.
    s.store
        .bills::<InvoiceKind>()
        .set_status(
            ctx(),
            i.id,
            &InvoiceStatusChange::parse(&raw(&[("status", "20")])).unwrap(),
        )
        .await
        .unwrap();
    s.store
        .bills::<InvoiceKind>()
        .send_email(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    s.exec(&format!(
        "UPDATE email_queue SET status = 'sent', sent_at = now(), next_attempt_at = NULL WHERE id = (SELECT min(id) FROM email_queue WHERE resource_type = 'invoice' AND resource_id = {})",
        i.id
    ))
    .await;
    s.store
        .bills::<InvoiceKind>()
        .delete(ctx(), i.id)
        .await
        .unwrap();
    assert!(matches!(
        s.store.bills::<InvoiceKind>().get(ctx(), i.id).await,
        Err(StoreError::NotFound(Resource::Invoice))
    ));
    for table in ["invoice_lines", "invoice_taxes", "tags"] {
        let sql = format!("SELECT count(*) FROM {table} WHERE invoice_id = {}", i.id);
        assert_eq!(s.scalar(&sql).await, 0, "{table}");
    }
    assert!(emails(&s, i.id, "pending").await.is_empty());
    assert_eq!(emails(&s, i.id, "sent").await.len(), 1);
    assert!(matches!(
        s.store.bills::<InvoiceKind>().delete(ctx(), i.id).await,
        Err(StoreError::NotFound(Resource::Invoice))
    ));
}

#[tokio::test]
async fn an_invoice_category_counts_its_invoices_and_migrating_moves_them() {
    use crm_core::category::{CategoryMigration, NewCategory};
    let s = seeded().await;
    let cmd = NewCategory::parse(&raw(&[
        ("category_name", "Retainers"),
        ("category_type", "invoice"),
    ]))
    .unwrap();
    let category = s.store.create_category(ctx(), &cmd).await.unwrap();
    let id = category.id.to_string();
    let a = create(&s, &[("bill_categoryid", &id)]).await;
    create(&s, &[("bill_categoryid", &id)]).await;
    create(&s, &[]).await;
    assert_eq!(s.store.category(category.id).await.unwrap().count, 2);
    let default = s.default_category("invoice").await;
    let migration =
        CategoryMigration::parse(&raw(&[("target_id", &default.to_string())]), category.id)
            .unwrap();
    let emptied = s
        .store
        .migrate_category(category.id, &migration)
        .await
        .unwrap();
    assert_eq!(emptied.count, 0);
    let moved = s
        .store
        .bills::<InvoiceKind>()
        .get(ctx(), a.id)
        .await
        .unwrap();
    assert_eq!(moved.category.id.get(), default);
}
