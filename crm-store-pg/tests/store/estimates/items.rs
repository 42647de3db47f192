//! Replacing line items: totals, tax records, every refusal, and concurrent replacements.

use crm_core::bill::EstimateKind;
use crm_core::bill::{ItemsRequest, StoredLine, TotalsHeader, totals_input};
use crm_core::estimate::Estimate;
use crm_core::input::{RawMap, RawValue};
use crm_core::totals::{DiscountKind, HeaderDiscount, LineDiscount, Policy, TaxMode, compute};

use super::{create, invalid, item, items, messages, patch, rate_id};
use crate::common::{ctx, seeded};

#[tokio::test]
async fn summary_items_are_stored_in_order_with_one_tax_record_per_selected_rate() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let (ten, five) = (
        rate_id(&s, "10.00", "enabled"),
        rate_id(&s, "5.00", "enabled"),
    );
    let req = items(
        vec![
            item(&[
                ("description", "Design"),
                ("unit", "hours"),
                ("quantity", "2"),
                ("rate", "100"),
                ("long_description", "Long"),
            ]),
            item(&[
                ("description", "Hosting"),
                ("quantity", "1.5"),
                ("rate", "1385.27"),
            ]),
        ],
        Some(&[ten.clone(), five.clone()]),
    );
    let r = s
        .store
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, req)
        .await
        .unwrap();
    let lines: Vec<_> = r
        .line_items
        .iter()
        .map(|l| {
            (
                l.position,
                l.description.as_str(),
                l.total.to_string(),
                l.quantity.to_string(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            (1, "Design", "200.00".into(), "2.00".into()),
            (2, "Hosting", "2077.90".into(), "1.50".into())
        ]
    );
    assert_eq!(
        (
            r.line_items[0].unit.as_deref(),
            r.line_items[0].long_description.as_deref()
        ),
        (Some("hours"), Some("Long"))
    );
    assert_eq!(
        (r.line_items[0].line_type, r.line_items[0].tax_status),
        ("plain", "taxable")
    );
    let taxes: Vec<_> = r
        .taxes
        .iter()
        .map(|t| {
            (
                t.name.as_str(),
                t.rate.to_string(),
                t.tax_rate_id.map(|i| i.to_string()),
                t.lineitem_id,
            )
        })
        .collect();
    assert_eq!(
        taxes,
        [
            ("GST 10%", "10.00".into(), Some(ten), None),
            ("Reduced 5%", "5.00".into(), Some(five), None)
        ]
    );
    let t = serde_json::to_value(&r.totals).unwrap();
    assert_eq!(t["subtotal"], "2277.90");
    assert_eq!(t["tax_total_percentage"], "15.00");
    assert_eq!(t["tax_total_amount"], "341.69");
    assert_eq!(t["final_amount"], "2619.59");
    assert_eq!(
        s.store
            .bills::<EstimateKind>()
            .get(ctx(), e.id)
            .await
            .unwrap(),
        r
    );
    // A second replacement leaves nothing of the first; absent tax_rate_ids means no taxes.
    let again = s
        .store
        .bills::<EstimateKind>()
        .replace_items(
            ctx(),
            e.id,
            items(
                vec![item(&[
                    ("description", "Only"),
                    ("quantity", "1"),
                    ("rate", "3"),
                ])],
                None,
            ),
        )
        .await
        .unwrap();
    assert_eq!(again.line_items.len(), 1);
    assert_eq!(again.line_items[0].position, 1);
    assert!(again.taxes.is_empty());
    assert_eq!(again.totals.figures.final_amount.to_string(), "3.00");
    assert_eq!(
        s.scalar(&format!(
            "SELECT count(*) FROM estimate_lines WHERE estimate_id = {}",
            e.id
        ))
        .await,
        1
    );
}

#[tokio::test]
async fn inline_items_carry_their_discounts_and_one_tax_record_per_line_with_a_rate() {
    let s = seeded().await;
    let e = create(&s, &[("bill_tax_type", "inline")]).await;
    let ten = rate_id(&s, "10.00", "enabled");
    let req = items(
        vec![
            item(&[
                ("description", "A"),
                ("quantity", "2"),
                ("rate", "100"),
                ("discount_type", "fixed"),
                ("discount_value", "20"),
                ("tax_rate_id", &ten),
            ]),
            item(&[("description", "B"), ("quantity", "1"), ("rate", "50")]),
            item(&[
                ("description", "C"),
                ("quantity", "1"),
                ("rate", "50"),
                ("discount_type", "percentage"),
                ("discount_value", "10"),
                ("tax_rate_id", &ten),
            ]),
        ],
        None,
    );
    let r = s
        .store
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, req)
        .await
        .unwrap();
    let a = &r.line_items[0];
    assert_eq!(
        (
            a.total.to_string(),
            a.discount.kind,
            a.discount.value.to_string(),
            a.discount.amount.to_string()
        ),
        (
            "198.00".into(),
            DiscountKind::Fixed,
            "20.00".into(),
            "20.00".into()
        )
    );
    assert_eq!(a.tax_rate_id.map(|t| t.to_string()), Some(ten.clone()));
    assert_eq!(r.line_items[1].tax_rate_id, None);
    assert_eq!(r.line_items[2].discount.amount.to_string(), "5.00");
    let taxes: Vec<_> = r.taxes.iter().map(|t| t.lineitem_id).collect();
    assert_eq!(taxes, [Some(a.id), Some(r.line_items[2].id)]);
    let t = serde_json::to_value(&r.totals).unwrap();
    assert_eq!(t["subtotal_before_discount"], "300.00");
    assert_eq!(t["discount_amount"], "25.00");
    assert_eq!(t["final_amount"], "297.50");
}

#[tokio::test]
async fn unknown_and_disabled_tax_rates_are_invalid_in_both_modes() {
    let s = seeded().await;
    let disabled = rate_id(&s, "19.00", "disabled");
    let summary = create(&s, &[]).await;
    let line = item(&[("description", "A"), ("quantity", "1"), ("rate", "1")]);
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .replace_items(
                ctx(),
                summary.id,
                items(vec![line.clone()], Some(&["9999".into(), disabled.clone()])),
            )
            .await,
    );
    assert_eq!(
        messages(&err, "tax_rate_ids.0"),
        ["The selected tax rate ids.0 is invalid."]
    );
    assert_eq!(
        messages(&err, "tax_rate_ids.1"),
        ["The selected tax rate ids.1 is invalid."]
    );
    let inline = create(&s, &[("bill_tax_type", "inline")]).await;
    let bad = item(&[
        ("description", "A"),
        ("quantity", "1"),
        ("rate", "1"),
        ("tax_rate_id", &disabled),
    ]);
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .replace_items(ctx(), inline.id, items(vec![line, bad], None))
            .await,
    );
    assert_eq!(
        messages(&err, "items.1.tax_rate_id"),
        ["The selected items.1.tax rate id is invalid."]
    );
    assert!(
        s.store
            .bills::<EstimateKind>()
            .get(ctx(), inline.id)
            .await
            .unwrap()
            .line_items
            .is_empty()
    );
}

#[tokio::test]
async fn duplicate_tax_rate_ids_are_refused_when_the_request_is_read() {
    let mut map = RawMap::new();
    map.insert(
        "items",
        RawValue::List(vec![item(&[
            ("description", "A"),
            ("quantity", "1"),
            ("rate", "1"),
        ])]),
    );
    map.insert(
        "tax_rate_ids",
        RawValue::List(vec![RawValue::text("2"), RawValue::text("2")]),
    );
    let r = ItemsRequest::parse(&map).unwrap_err();
    assert_eq!(
        messages(&r.errors, "tax_rate_ids.1"),
        ["The tax rate ids.1 field has a duplicate value."]
    );
}

#[tokio::test]
async fn the_other_modes_fields_are_refused_naming_them_with_bad_references_reported_too() {
    let s = seeded().await;
    let ten = rate_id(&s, "10.00", "enabled");
    let summary = create(&s, &[]).await;
    let inline_fields = item(&[
        ("description", "A"),
        ("quantity", "1"),
        ("rate", "1"),
        ("tax_rate_id", &ten),
        ("discount_type", "fixed"),
        ("discount_value", "1"),
    ]);
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .replace_items(
                ctx(),
                summary.id,
                items(vec![inline_fields], Some(&["9999".into()])),
            )
            .await,
    );
    assert_eq!(
        messages(&err, "items.0.tax_rate_id"),
        ["The items.0.tax rate id field is prohibited when bill tax type is summary."]
    );
    assert!(err.has("items.0.discount_type") && err.has("items.0.discount_value"));
    assert_eq!(
        messages(&err, "tax_rate_ids.0"),
        ["The selected tax rate ids.0 is invalid."]
    );
    let inline = create(&s, &[("bill_tax_type", "inline")]).await;
    let plain = item(&[("description", "A"), ("quantity", "1"), ("rate", "1")]);
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .replace_items(ctx(), inline.id, items(vec![plain], Some(&[ten])))
            .await,
    );
    assert_eq!(
        messages(&err, "tax_rate_ids"),
        ["The tax rate ids field is prohibited when bill tax type is inline."]
    );
}

#[tokio::test]
async fn items_whose_total_is_out_of_range_are_invalid_and_change_nothing() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let big = item(&[
        ("description", "A"),
        ("quantity", "99999999999"),
        ("rate", "99999999999"),
    ]);
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .replace_items(ctx(), e.id, items(vec![big], None))
            .await,
    );
    assert_eq!(
        messages(&err, "items"),
        ["The items total may not be greater than 9999999999999.99."]
    );
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
async fn a_header_discount_and_adjustment_apply_to_new_items() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    s.store
        .bills::<EstimateKind>()
        .update(
            ctx(),
            e.id,
            &patch(
                &e,
                &[
                    ("bill_discount_type", "percentage"),
                    ("bill_discount_percentage", "50"),
                    ("bill_adjustment_amount", "1"),
                ],
            ),
        )
        .await
        .unwrap();
    let r = s
        .store
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
    assert_eq!(r.totals.figures.discount_amount.to_string(), "5.00");
    assert_eq!(r.totals.figures.final_amount.to_string(), "6.00");
}

/// The calculator's totals over what the estimate stores (lines, summary rates, header).
fn recomputed(e: &Estimate) -> crm_core::totals::Totals {
    let lines: Vec<StoredLine> = e
        .line_items
        .iter()
        .map(|l| StoredLine {
            vat: None,
            quantity: l.quantity,
            rate: l.rate,
            discount: match l.discount.kind {
                DiscountKind::None => LineDiscount::None,
                DiscountKind::Fixed => LineDiscount::Fixed(l.discount.value),
                DiscountKind::Percentage => {
                    LineDiscount::Percentage(l.discount.value.to_string().parse().unwrap())
                }
            },
            tax_rate: e
                .taxes
                .iter()
                .find(|t| t.lineitem_id == Some(l.id))
                .map(|t| t.rate),
        })
        .collect();
    let rates: Vec<_> = e
        .taxes
        .iter()
        .filter(|t| t.lineitem_id.is_none())
        .map(|t| t.rate)
        .collect();
    let discount = match e.totals.figures.discount_type {
        DiscountKind::None => HeaderDiscount::None,
        DiscountKind::Fixed => HeaderDiscount::Fixed(e.totals.figures.discount_amount),
        DiscountKind::Percentage => {
            HeaderDiscount::Percentage(e.totals.figures.discount_percentage)
        }
    };
    let header = TotalsHeader {
        tax_type: e.tax_type,
        discount,
        adjustment: e.totals.figures.adjustment_amount,
        currency: e.currency,
        exchange: e.totals.exchange,
    };
    compute(&totals_input(&header, &lines, &rates), Policy::CrmParity)
        .unwrap()
        .totals
}

#[tokio::test]
async fn concurrent_item_replacements_leave_exactly_one_requests_lines_with_their_totals() {
    for mode in ["summary", "inline"] {
        let s = seeded().await;
        let e = create(&s, &[("bill_tax_type", mode)]).await;
        let rates: Vec<String> = ["5.00", "7.50", "8.25", "10.00", "12.50"]
            .iter()
            .map(|r| rate_id(&s, r, "enabled"))
            .collect();
        let mut tasks = Vec::new();
        for k in 0..10_usize {
            let store = s.store.clone();
            let rate = rates[k % rates.len()].clone();
            let lines: Vec<RawValue> = (0..=k)
                .map(|i| {
                    let (q, r) = (format!("{}.5", i + 1), format!("{}.37", 10 * k + i + 1));
                    let mut pairs = vec![
                        ("description".to_owned(), format!("request {k} line {i}")),
                        ("quantity".into(), q),
                        ("rate".into(), r),
                    ];
                    if mode == "inline" && i % 2 == 0 {
                        pairs.push(("tax_rate_id".into(), rate.clone()));
                        pairs.push(("discount_type".into(), "percentage".into()));
                        pairs.push(("discount_value".into(), "12.5".into()));
                    }
                    RawValue::Map(
                        pairs
                            .into_iter()
                            .map(|(k, v)| (k, RawValue::text(v)))
                            .collect(),
                    )
                })
                .collect();
            let req = items(
                lines,
                (mode == "summary").then(|| std::slice::from_ref(&rate)),
            );
            tasks.push(tokio::spawn(async move {
                store
                    .bills::<EstimateKind>()
                    .replace_items(ctx(), e.id, req)
                    .await
                    .map(drop)
            }));
        }
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        let stored = s
            .store
            .bills::<EstimateKind>()
            .get(ctx(), e.id)
            .await
            .unwrap();
        let first = stored.line_items[0]
            .description
            .split(" line")
            .next()
            .unwrap()
            .to_owned();
        let k: usize = first.trim_start_matches("request ").parse().unwrap();
        assert_eq!(
            stored.line_items.len(),
            k + 1,
            "{mode}: the lines are one request's set"
        );
        for (i, l) in stored.line_items.iter().enumerate() {
            assert_eq!(l.description, format!("request {k} line {i}"));
            assert_eq!(l.position, i32::try_from(i + 1).unwrap());
        }
        assert_eq!(TaxMode::Summary == stored.tax_type, mode == "summary");
        let expected = recomputed(&stored);
        let t = &stored.totals.figures;
        assert_eq!(
            (
                t.subtotal,
                t.subtotal_before_discount,
                t.discount_amount,
                t.amount_before_tax,
                t.tax_total_percentage,
                t.tax_total_amount,
                t.final_amount
            ),
            (
                expected.subtotal,
                expected.subtotal_before_discount,
                expected.discount_amount,
                expected.amount_before_tax,
                expected.tax_total_percentage,
                expected.tax_total_amount,
                expected.final_amount
            ),
            "{mode}"
        );
        let lines = s
            .scalar(&format!(
                "SELECT count(*) FROM estimate_lines WHERE estimate_id = {}",
                e.id
            ))
            .await;
        assert_eq!(lines, i64::try_from(k + 1).unwrap());
    }
}
