use chrono::{TimeZone, Utc};

use super::*;
use crate::bill::LineDiscountView;
use crate::estimate::{Converted, Estimate, EstimateDates, ShownStatus};
use crate::ids::{CategoryId, ClientId, EstimateId, LineItemId, Named, TaxRateId};
use crate::input::RawMap;
use crate::money::Percent;
use crate::totals::{DiscountKind, Totals};

fn m(s: &str) -> Money {
    s.parse().unwrap()
}

fn line(id: i64, description: &str, unit: Option<&str>, q: &str, r: &str, total: &str) -> LineItem {
    LineItem {
        id: LineItemId::new(id).unwrap(),
        position: i32::try_from(id).unwrap(),
        description: description.to_owned(),
        long_description: None,
        unit: unit.map(str::to_owned),
        quantity: q.parse().unwrap(),
        rate: r.parse().unwrap(),
        total: m(total),
        line_type: "plain",
        tax_status: "taxable",
        tax_rate_id: None,
        discount: LineDiscountView::new(crate::totals::LineDiscount::None, Money::ZERO),
    }
}

fn estimate() -> Estimate {
    Estimate {
        id: EstimateId::new(12).unwrap(),
        status: ShownStatus::New,
        client: Named {
            id: ClientId::new(3).unwrap(),
            name: "Acme & Sons".to_owned(),
        },
        project_id: None,
        category: Named {
            id: CategoryId::new(1).unwrap(),
            name: "Default".to_owned(),
        },
        dates: EstimateDates {
            date: NaiveDate::from_ymd_opt(2026, 6, 15).unwrap(),
            expiry_date: NaiveDate::from_ymd_opt(2026, 7, 15),
            created: Timestamp(Utc.with_ymd_and_hms(2026, 6, 15, 9, 0, 0).unwrap()),
        },
        notes: Some("Thanks\nfor <b>asking</b>".to_owned()),
        terms: Some("Net 30".to_owned()),
        tax_type: TaxMode::Summary,
        totals: BillTotals {
            figures: Totals {
                subtotal: m("300.00"),
                subtotal_before_discount: m("300.00"),
                discount_type: DiscountKind::Fixed,
                discount_percentage: Percent::ZERO,
                discount_amount: m("20.00"),
                amount_before_tax: m("280.00"),
                tax_total_percentage: "10".parse().unwrap(),
                tax_total_amount: m("28.00"),
                adjustment_amount: m("2.00"),
                final_amount: m("310.00"),
            },
            adjustment_description: Some("Rounding".to_owned()),
        },
        converted: Converted {
            is_converted: false,
            invoice_id: None,
        },
        line_items: vec![
            line(
                1,
                "<script>alert(1)</script>",
                Some("hours"),
                "2",
                "100",
                "200.00",
            ),
            line(
                2,
                "\"><img src=x onerror=alert(1)>",
                None,
                "1",
                "100",
                "100.00",
            ),
        ],
        taxes: vec![TaxRecord {
            name: "VAT <eu>".to_owned(),
            rate: "10".parse().unwrap(),
            tax_rate_id: TaxRateId::new(2),
            lineitem_id: None,
        }],
        tags: vec![],
    }
}

fn rendered(e: &Estimate) -> Rendered {
    let mut dates = Vec::new();
    render(&e.mail_parts(&mut dates))
}

#[test]
fn the_subject_names_the_record() {
    assert_eq!(rendered(&estimate()).subject, "Estimate #12");
    assert_eq!(subject(BillKind::Invoice, 7), "Invoice #7");
}

#[test]
fn the_text_part_has_client_number_dates_lines_totals_notes_and_terms() {
    let text = rendered(&estimate()).text;
    for expected in [
        "Client: Acme & Sons",
        "Number: 12",
        "Date: 2026-06-15",
        "Expiry date: 2026-07-15",
        "1. <script>alert(1)</script>: 2.00 hours x 100.00 = 200.00",
        "2. \"><img src=x onerror=alert(1)>: 1.00 x 100.00 = 100.00",
        "Subtotal: 300.00",
        "Discount: -20.00",
        "VAT <eu> (10.00%): 28.00",
        "Adjustment (Rounding): 2.00",
        "Total: 310.00",
        "Notes:\nThanks\nfor <b>asking</b>",
        "Terms:\nNet 30",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} missing from:\n{text}"
        );
    }
}

#[test]
fn every_record_value_is_escaped_in_the_html_part() {
    let html = rendered(&estimate()).html;
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(!html.contains("<b>"), "{html}");
    assert!(!html.contains("<eu>"), "{html}");
    for expected in [
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;",
        "Acme &amp; Sons",
        "VAT &lt;eu&gt; (10.00%)",
        "Thanks<br>\nfor &lt;b&gt;asking&lt;/b&gt;",
        "<td>hours</td>",
        "<strong>310.00</strong>",
    ] {
        assert!(
            html.contains(expected),
            "{expected:?} missing from:\n{html}"
        );
    }
}

#[test]
fn zero_totals_are_left_out() {
    let mut e = estimate();
    e.totals.figures.discount_amount = Money::ZERO;
    e.totals.figures.adjustment_amount = Money::ZERO;
    e.taxes.clear();
    e.notes = None;
    let text = rendered(&e).text;
    assert!(!text.contains("Discount"), "{text}");
    assert!(!text.contains("Adjustment"), "{text}");
    assert!(!text.contains("VAT"), "{text}");
    assert!(!text.contains("Notes"), "{text}");
    assert!(text.contains("Total: 310.00"));
}

#[test]
fn inline_taxes_are_the_tax_part_of_their_lines_grouped_by_rate() {
    let mut e = estimate();
    e.tax_type = TaxMode::Inline;
    e.line_items[0].total = m("110.00");
    e.line_items[1].total = m("220.00");
    e.taxes = vec![
        TaxRecord {
            name: "VAT".to_owned(),
            rate: "10".parse().unwrap(),
            tax_rate_id: TaxRateId::new(2),
            lineitem_id: LineItemId::new(1),
        },
        TaxRecord {
            name: "VAT".to_owned(),
            rate: "10".parse().unwrap(),
            tax_rate_id: TaxRateId::new(2),
            lineitem_id: LineItemId::new(2),
        },
    ];
    e.totals.figures.subtotal = m("330.00");
    e.totals.figures.discount_amount = m("5.00");
    e.totals.figures.adjustment_amount = m("0.00");
    e.totals.figures.final_amount = m("330.00");
    let mut dates = Vec::new();
    let rows = e.mail_parts(&mut dates).total_rows();
    // The lines' totals hold their discounts and taxes: shown as included, not as if
    // taken off or added on top of the subtotal, which is the total here.
    assert_eq!(
        rows,
        vec![
            ("Subtotal".to_owned(), m("330.00")),
            ("Discounts included".to_owned(), m("5.00")),
            ("VAT (10.00%) included".to_owned(), m("30.00")),
        ]
    );
}

#[test]
fn a_client_without_a_contact_address_gets_no_email() {
    assert_eq!(recipient(Some(" a@b.example ")), Some("a@b.example"));
    assert_eq!(recipient(Some("  ")), None);
    assert_eq!(recipient(None), None);
}

#[test]
fn replies_in_the_5xx_range_fail_at_once_others_are_retried() {
    assert_eq!(
        classify(Some(550), "550 no".into()),
        Outcome::Permanent("550 no".into())
    );
    assert_eq!(
        classify(Some(451), "451 later".into()),
        Outcome::Temporary("451 later".into())
    );
    assert_eq!(
        classify(None, "refused".into()),
        Outcome::Temporary("refused".into())
    );
}

#[test]
fn backoff_doubles_with_jitter_caps_and_stops_after_a_day() {
    let created = Utc.with_ymd_and_hms(2026, 6, 15, 9, 0, 0).unwrap();
    let delay = |attempts, jitter| match retry_after(attempts, created, created, jitter) {
        Retry::At(t) => (t - created).num_milliseconds(),
        Retry::GiveUp => -1,
    };
    assert_eq!(delay(1, 0.0), 500);
    assert_eq!(delay(1, 0.999_999), 999);
    assert_eq!(delay(2, 0.0), 1000);
    assert_eq!(delay(3, 0.5), 3000);
    assert_eq!(delay(40, 0.0), MAX_RETRY_SECS * 500);
    assert_eq!(delay(40, f64::NAN), MAX_RETRY_SECS * 500);
    let late = created + chrono::Duration::seconds(RETRY_WINDOW_SECS - 1);
    assert_eq!(retry_after(30, created, late, 0.5), Retry::GiveUp);
    assert!(matches!(retry_after(1, created, late, 0.0), Retry::At(_)));
}

#[test]
fn the_email_list_reads_its_filters_and_sorts() {
    use crate::input::RawValue;
    let raw: RawMap = [
        ("status", "failed"),
        ("resource_type", "invoice"),
        ("resource_id", "4"),
        ("sort", "email_sent"),
    ]
    .iter()
    .map(|(k, v)| (*k, RawValue::text(*v)))
    .collect();
    let q = EmailListQuery::parse(&raw).unwrap();
    assert_eq!(q.filters.status, Some(EmailStatus::Failed));
    assert_eq!(q.filters.resource_type, Some(EmailResourceType::Invoice));
    assert_eq!(q.filters.resource_id, Some(4));
    assert_eq!(q.params.sort, Some(EmailSort::Sent));
    let raw: RawMap = [
        ("status", "sending"),
        ("resource_type", "note"),
        ("sort", "x"),
    ]
    .iter()
    .map(|(k, v)| (*k, RawValue::text(*v)))
    .collect();
    let r = EmailListQuery::parse(&raw).unwrap_err();
    assert_eq!(
        r.errors.get("status"),
        Some(&["The selected status is invalid.".to_owned()][..])
    );
    assert!(r.errors.get("resource_type").is_some());
    assert!(r.errors.get("sort").is_some());
}
