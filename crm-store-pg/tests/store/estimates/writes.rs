//! Create, read, PATCH, status, tags, delete, and not-found for every operation.

use crm_core::bill::EstimateKind;
use crm_core::conflict::Resource;
use crm_core::estimate::{EstimateClone, ShownStatus, StatusChange};
use crm_core::ids::EstimateId;
use crm_core::tags::TagSet;
use crm_core::totals::{DiscountKind, TaxMode};
use crm_store_pg::StoreError;

use super::{create, document_estimate, invalid, item, items, messages, patch, rate_id};
use crate::common::{ctx, raw, seeded};

#[tokio::test]
async fn a_new_estimate_is_an_empty_draft_with_zero_totals_created_by_the_actor() {
    let s = seeded().await;
    let e = create(
        &s,
        &[
            ("bill_expiry_date", "2026-12-01"),
            ("bill_tax_type", "inline"),
            ("bill_notes", "N"),
            ("bill_terms", "T"),
        ],
    )
    .await;
    assert_eq!(e.status, ShownStatus::Draft);
    assert_eq!(e.client.id.get(), s.ids.clients[0].id);
    assert_eq!(e.client.name, "Acme Inc");
    assert_eq!(e.category.name, "Default");
    assert_eq!(e.tax_type, TaxMode::Inline);
    assert_eq!(
        (e.notes.as_deref(), e.terms.as_deref()),
        (Some("N"), Some("T"))
    );
    assert_eq!(e.dates.expiry_date, Some("2026-12-01".parse().unwrap()));
    let json = serde_json::to_value(&e.totals).unwrap();
    for (k, v) in json.as_object().unwrap() {
        // No exchange rate: no VAT total in the company's currency.
        if k == "company_currency" || k == "tax_total_in_company_currency" {
            assert_eq!(v, &serde_json::Value::Null, "{k}");
        } else if k == "tax_breakdown" {
            // No lines: EN 16931 states no VAT group.
            assert_eq!(v, &serde_json::json!([]), "{k}");
        } else if k != "discount_type" && k != "adjustment_description" {
            assert_eq!(v, "0.00", "{k}");
        }
    }
    assert!(
        !e.converted.is_converted
            && e.line_items.is_empty()
            && e.taxes.is_empty()
            && e.tags.is_empty()
    );
    let creator = s
        .scalar(&format!(
            "SELECT creator_id FROM estimates WHERE id = {}",
            e.id
        ))
        .await;
    assert_eq!(creator, 1);
    assert_eq!(
        s.store
            .bills::<EstimateKind>()
            .get(ctx(), e.id)
            .await
            .unwrap(),
        e
    );
}

#[tokio::test]
async fn creating_with_an_unknown_client_project_or_a_category_of_another_type_is_invalid() {
    let s = seeded().await;
    let invoice_category = s
        .scalar("SELECT id FROM categories WHERE type = 'invoice'")
        .await
        .to_string();
    let cmd = crm_core::estimate::NewEstimate::parse(&raw(&[
        ("bill_clientid", "9999"),
        ("bill_categoryid", &invoice_category),
        ("bill_date", "2026-11-01"),
        ("bill_projectid", "9999"),
    ]))
    .unwrap();
    let e = invalid(s.store.bills::<EstimateKind>().create(ctx(), &cmd).await);
    assert_eq!(
        messages(&e, "bill_clientid"),
        ["The selected bill clientid is invalid."]
    );
    assert_eq!(
        messages(&e, "bill_categoryid"),
        ["The selected bill categoryid is invalid."]
    );
    assert_eq!(
        messages(&e, "bill_projectid"),
        ["The selected bill projectid is invalid."]
    );
    assert_eq!(s.scalar("SELECT count(*) FROM estimates").await, 0);
}

#[tokio::test]
async fn unknown_ids_and_contract_backing_estimates_are_not_found_by_every_operation() {
    let s = seeded().await;
    let real = create(&s, &[]).await;
    let document = document_estimate(&s).await;
    for id in [EstimateId::new(999_999).unwrap(), document] {
        let not_found = |r: Result<(), StoreError>| {
            assert!(
                matches!(r, Err(StoreError::NotFound(Resource::Estimate))),
                "{id}: {r:?}"
            )
        };
        not_found(
            s.store
                .bills::<EstimateKind>()
                .get(ctx(), id)
                .await
                .map(drop),
        );
        not_found(
            s.store
                .bills::<EstimateKind>()
                .update(ctx(), id, &patch(&real, &[]))
                .await
                .map(drop),
        );
        let req = items(
            vec![item(&[
                ("description", "A"),
                ("quantity", "1"),
                ("rate", "1"),
            ])],
            None,
        );
        not_found(
            s.store
                .bills::<EstimateKind>()
                .replace_items(ctx(), id, req)
                .await
                .map(drop),
        );
        not_found(s.store.bills::<EstimateKind>().delete(ctx(), id).await);
        let status = StatusChange::parse(&raw(&[("status", "accepted")])).unwrap();
        not_found(
            s.store
                .bills::<EstimateKind>()
                .set_status(ctx(), id, &status)
                .await
                .map(drop),
        );
        not_found(
            s.store
                .bills::<EstimateKind>()
                .set_tags(ctx(), id, &TagSet::normalise(["a"]))
                .await
                .map(drop),
        );
        let client = s.ids.clients[0].id.to_string();
        let category = s.default_category("estimate").await.to_string();
        let clone = EstimateClone::parse(&raw(&[
            ("bill_clientid", &client),
            ("bill_categoryid", &category),
            ("bill_date", "2026-11-01"),
        ]))
        .unwrap();
        not_found(
            s.store
                .bills::<EstimateKind>()
                .clone_bill(ctx(), id, &clone)
                .await
                .map(drop),
        );
        not_found(
            s.store
                .bills::<EstimateKind>()
                .publish(ctx(), id, &crm_store_pg::messages::Letterhead([0; 32]))
                .await
                .map(|e| e.record)
                .map(drop),
        );
        not_found(
            s.store
                .bills::<EstimateKind>()
                .send_email(ctx(), id, &crm_store_pg::messages::Letterhead([0; 32]))
                .await
                .map(|e| e.record)
                .map(drop),
        );
        not_found(s.store.convert_estimate(ctx(), id).await.map(drop));
    }
    let still = s
        .scalar(&format!(
            "SELECT count(*) FROM estimates WHERE id = {document} AND status = 'draft'"
        ))
        .await;
    assert_eq!(still, 1, "the document estimate is untouched");
}

#[tokio::test]
async fn a_new_estimate_past_its_expiry_date_shows_expired_until_the_expiry_moves_forward() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    s.store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    s.exec(&format!("UPDATE estimates SET date = DATE '2026-10-01', expiry_date = DATE '2026-11-21' WHERE id = {}", e.id)).await;
    let read = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), e.id)
        .await
        .unwrap();
    assert_eq!(read.status, ShownStatus::Expired);
    let moved = s
        .store
        .bills::<EstimateKind>()
        .update(
            ctx(),
            e.id,
            &patch(&read, &[("bill_expiry_date", "2026-11-22")]),
        )
        .await
        .unwrap();
    assert_eq!(moved.status, ShownStatus::New);
    let stored = s
        .scalar(&format!(
            "SELECT count(*) FROM estimates WHERE id = {} AND status = 'new'",
            e.id
        ))
        .await;
    assert_eq!(stored, 1);
}

#[tokio::test]
async fn patch_sets_the_header_keeps_the_status_and_recomputes_the_totals() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let ten = rate_id(&s, "10.00", "enabled");
    let req = items(
        vec![
            item(&[("description", "A"), ("quantity", "2"), ("rate", "100")]),
            item(&[("description", "B"), ("quantity", "1"), ("rate", "50")]),
        ],
        Some(&[ten]),
    );
    s.store
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, req)
        .await
        .unwrap();
    s.store
        .bills::<EstimateKind>()
        .set_status(
            ctx(),
            e.id,
            &StatusChange::parse(&raw(&[("status", "new")])).unwrap(),
        )
        .await
        .unwrap();
    let project = s.ids.projects[0].to_string();
    let cmd = patch(
        &e,
        &[
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "25"),
            ("bill_adjustment_amount", "-2.50"),
            ("bill_adjustment_description", "Rounding"),
            ("bill_projectid", &project),
            ("bill_notes", "New notes"),
            ("bill_expiry_date", "2026-12-31"),
        ],
    );
    let u = s
        .store
        .bills::<EstimateKind>()
        .update(ctx(), e.id, &cmd)
        .await
        .unwrap();
    assert_eq!(u.status, ShownStatus::New);
    assert_eq!(u.project_id.map(|p| p.get()), Some(s.ids.projects[0]));
    assert_eq!(u.notes.as_deref(), Some("New notes"));
    let t = serde_json::to_value(&u.totals).unwrap();
    assert_eq!(t["discount_type"], "fixed");
    assert_eq!(t["discount_amount"], "25.00");
    assert_eq!(t["amount_before_tax"], "225.00");
    assert_eq!(t["tax_total_amount"], "22.50");
    assert_eq!(t["adjustment_description"], "Rounding");
    assert_eq!(t["final_amount"], "245.00");
    // Absent fields are kept; empty ones cleared; a percentage discount replaces the fixed one.
    let u2 = s
        .store
        .bills::<EstimateKind>()
        .update(
            ctx(),
            e.id,
            &patch(
                &u,
                &[
                    ("bill_notes", ""),
                    ("bill_discount_type", "percentage"),
                    ("bill_discount_percentage", "10"),
                ],
            ),
        )
        .await
        .unwrap();
    assert_eq!(u2.notes, None);
    assert_eq!(u2.project_id, u.project_id);
    assert_eq!(u2.dates.expiry_date, u.dates.expiry_date);
    let t = serde_json::to_value(&u2.totals).unwrap();
    assert_eq!(
        (
            t["discount_percentage"].as_str(),
            t["discount_amount"].as_str()
        ),
        (Some("10.00"), Some("25.00"))
    );
    assert_eq!(t["final_amount"], "245.00");
    assert_eq!(u2.totals.figures.discount_type, DiscountKind::Percentage);
}

#[tokio::test]
async fn patch_refuses_an_expiry_before_the_date_also_when_the_stored_expiry_is_kept() {
    let s = seeded().await;
    let e = create(&s, &[("bill_expiry_date", "2026-11-10")]).await;
    let later_date = patch(&e, &[("bill_date", "2026-11-15")]);
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .update(ctx(), e.id, &later_date)
            .await,
    );
    assert_eq!(
        messages(&err, "bill_expiry_date"),
        ["The bill expiry date must be a date after or equal to bill date."]
    );
    // Clearing the expiry in the same request makes the later date fine.
    let cleared = patch(&e, &[("bill_date", "2026-11-15"), ("bill_expiry_date", "")]);
    let u = s
        .store
        .bills::<EstimateKind>()
        .update(ctx(), e.id, &cleared)
        .await
        .unwrap();
    assert_eq!(
        (u.dates.date.to_string(), u.dates.expiry_date),
        ("2026-11-15".to_owned(), None)
    );
}

#[tokio::test]
async fn patch_reports_references_and_discount_rules_together() {
    let s = seeded().await;
    let e = create(&s, &[("bill_tax_type", "inline")]).await;
    let cmd = patch(
        &e,
        &[
            ("bill_projectid", "9999"),
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "5"),
        ],
    );
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .update(ctx(), e.id, &cmd)
            .await,
    );
    assert_eq!(
        messages(&err, "bill_projectid"),
        ["The selected bill projectid is invalid."]
    );
    assert_eq!(
        messages(&err, "bill_discount_type"),
        ["The bill discount type must be none when bill tax type is inline."]
    );
    let summary = create(&s, &[]).await;
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .update(
                ctx(),
                summary.id,
                &patch(&summary, &[("bill_discount_type", "fixed")]),
            )
            .await,
    );
    assert_eq!(
        messages(&err, "bill_discount_amount"),
        ["The bill discount amount field is required when bill discount type is fixed."]
    );
    assert_eq!(
        s.store
            .bills::<EstimateKind>()
            .get(ctx(), summary.id)
            .await
            .unwrap(),
        summary,
        "nothing changed"
    );
}

#[tokio::test]
async fn a_final_amount_out_of_range_after_patch_is_invalid_on_the_adjustment() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let req = items(
        vec![item(&[
            ("description", "A"),
            ("quantity", "100"),
            ("rate", "99999999999.99"),
        ])],
        None,
    );
    s.store
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, req)
        .await
        .unwrap();
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .update(ctx(), e.id, &patch(&e, &[("bill_adjustment_amount", "5")]))
            .await,
    );
    assert!(err.has("bill_adjustment_amount"), "{err:?}");
}

#[tokio::test]
async fn changing_the_tax_type_clears_taxes_discounts_and_line_rates_both_ways() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let ten = rate_id(&s, "10.00", "enabled");
    let req = items(
        vec![item(&[
            ("description", "A"),
            ("quantity", "2"),
            ("rate", "100"),
        ])],
        Some(std::slice::from_ref(&ten)),
    );
    s.store
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, req)
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
                    ("bill_discount_amount", "10"),
                ],
            ),
        )
        .await
        .unwrap();
    let inline = s
        .store
        .bills::<EstimateKind>()
        .update(ctx(), e.id, &patch(&e, &[("bill_tax_type", "inline")]))
        .await
        .unwrap();
    assert_eq!(inline.tax_type, TaxMode::Inline);
    assert!(inline.taxes.is_empty());
    assert_eq!(inline.totals.figures.discount_type, DiscountKind::None);
    assert_eq!(inline.totals.figures.final_amount.to_string(), "200.00");
    assert_eq!(inline.line_items[0].total.to_string(), "200.00");
    // Inline lines with rates and discounts, then back to summary.
    let line = item(&[
        ("description", "A"),
        ("quantity", "2"),
        ("rate", "100"),
        ("tax_rate_id", &ten),
        ("discount_type", "fixed"),
        ("discount_value", "20"),
    ]);
    let set = s
        .store
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, items(vec![line], None))
        .await
        .unwrap();
    assert_eq!(set.totals.figures.final_amount.to_string(), "198.00");
    let summary = s
        .store
        .bills::<EstimateKind>()
        .update(ctx(), e.id, &patch(&e, &[("bill_tax_type", "summary")]))
        .await
        .unwrap();
    assert!(summary.taxes.is_empty());
    let l = &summary.line_items[0];
    assert_eq!(
        (
            l.tax_rate_id,
            l.discount.kind,
            l.discount.amount.to_string(),
            l.total.to_string()
        ),
        (None, DiscountKind::None, "0.00".into(), "200.00".into())
    );
    assert_eq!(summary.totals.figures.final_amount.to_string(), "200.00");
    let taxes = s
        .scalar(&format!(
            "SELECT count(*) FROM estimate_taxes WHERE estimate_id = {}",
            e.id
        ))
        .await;
    assert_eq!(taxes, 0);
}

#[tokio::test]
async fn the_status_can_be_set_to_any_stored_status_from_any_status_but_accepted() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    for (from, to) in [
        ("draft", "declined"),
        ("declined", "revised"),
        ("revised", "new"),
        ("new", "draft"),
        ("draft", "accepted"),
        ("accepted", "accepted"),
    ] {
        let before = s
            .store
            .bills::<EstimateKind>()
            .get(ctx(), e.id)
            .await
            .unwrap();
        assert_eq!(before.status.as_str(), from);
        let after = s
            .store
            .bills::<EstimateKind>()
            .set_status(
                ctx(),
                e.id,
                &StatusChange::parse(&raw(&[("status", to)])).unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(after.status.as_str(), to);
    }
    // An accepted estimate keeps its status (API.md §18).
    for to in ["draft", "new", "declined", "revised"] {
        let refused = s
            .store
            .bills::<EstimateKind>()
            .set_status(
                ctx(),
                e.id,
                &StatusChange::parse(&raw(&[("status", to)])).unwrap(),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(
                refused,
                crm_store_pg::StoreError::Conflict(
                    crm_core::conflict::Conflict::AcceptedEstimateChanged
                )
            ),
            "{to}: {refused:?}"
        );
    }
}

#[tokio::test]
async fn tags_are_replaced_whole_in_the_given_order() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let t = s
        .store
        .bills::<EstimateKind>()
        .set_tags(ctx(), e.id, &TagSet::normalise(["b", "a", " b "]))
        .await
        .unwrap();
    assert_eq!(t.tags, ["b", "a"]);
    let t = s
        .store
        .bills::<EstimateKind>()
        .set_tags(ctx(), e.id, &TagSet::normalise(["c"]))
        .await
        .unwrap();
    assert_eq!(t.tags, ["c"]);
    let t = s
        .store
        .bills::<EstimateKind>()
        .set_tags(ctx(), e.id, &TagSet::default())
        .await
        .unwrap();
    assert!(t.tags.is_empty());
}

#[tokio::test]
async fn delete_removes_lines_taxes_tags_and_pending_emails_but_keeps_sent_ones_and_the_invoice() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let ten = rate_id(&s, "10.00", "enabled");
    s.store
        .bills::<EstimateKind>()
        .replace_items(
            ctx(),
            e.id,
            items(
                vec![item(&[
                    ("description", "A"),
                    ("quantity", "1"),
                    ("rate", "5"),
                ])],
                Some(&[ten]),
            ),
        )
        .await
        .unwrap();
    s.store
        .bills::<EstimateKind>()
        .set_tags(ctx(), e.id, &TagSet::normalise(["x"]))
        .await
        .unwrap();
    s.store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    s.exec(&format!(
        "UPDATE email_queue SET status = 'sent', sent_at = now() WHERE estimate_id = {}",
        e.id
    ))
    .await;
    s.store
        .bills::<EstimateKind>()
        .send_email(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    let invoice = s.store.convert_estimate(ctx(), e.id).await.unwrap();
    s.store
        .bills::<EstimateKind>()
        .delete(ctx(), e.id)
        .await
        .unwrap();
    for table in [
        "estimates WHERE id",
        "estimate_lines WHERE estimate_id",
        "estimate_taxes WHERE estimate_id",
        "tags WHERE estimate_id",
    ] {
        assert_eq!(
            s.scalar(&format!("SELECT count(*) FROM {table} = {}", e.id))
                .await,
            0,
            "{table}"
        );
    }
    assert_eq!(super::emails(&s, e.id, "pending").await.len(), 0);
    assert_eq!(super::emails(&s, e.id, "sent").await.len(), 1);
    let kept = s
        .scalar(&format!(
            "SELECT count(*) FROM invoices WHERE id = {} AND estimate_id IS NULL",
            invoice.id
        ))
        .await;
    assert_eq!(kept, 1);
    assert!(matches!(
        s.store.bills::<EstimateKind>().get(ctx(), e.id).await,
        Err(StoreError::NotFound(Resource::Estimate))
    ));
}
