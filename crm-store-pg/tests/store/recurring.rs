//! Recurring invoices (API.md §20): a schedule's fields and template checked together (the
//! template by the invoice's own rules, named in the template's words), nothing written on
//! a refusal; the scheduler, on a clock the test sets, makes each occurrence once — across
//! concurrent workers, with `catch_up` `all` or `latest`, in the schedule's time zone —
//! each in one transaction with its invoice, its number and its email.

use chrono::{DateTime, TimeZone, Utc};
use crm_core::ids::RecurringInvoiceId;
use crm_core::input::{RawMap, RawValue};
use crm_core::invoice::{InvoiceListQuery, InvoiceStatus};
use crm_core::recurring::{RecurringInput, RecurringInvoice, RecurringStatus};
use crm_store_pg::StoreError;
use crm_store_pg::messages::Letterhead;

use crate::common::{Seeded, ctx, day, invalid, item, messages, raw, seeded};

/// A lease long enough for any test.
const LEASE: std::time::Duration = std::time::Duration::from_secs(60);

/// The letterhead of the messages the tests' invoices queue.
const LETTERHEAD: Letterhead = Letterhead([7; 32]);

/// A schedule's input: the first seeded client (Acme, with a contact email), the default
/// invoice category, one line of 2 × 50.00, and `pairs` (adding or replacing fields).
async fn input(s: &Seeded, pairs: &[(&str, &str)]) -> RawMap {
    let client = s.ids.clients[0].id.to_string();
    let category = s.default_category("invoice").await.to_string();
    let mut map = raw(&[
        ("client_id", client.as_str()),
        ("category_id", category.as_str()),
        ("frequency", "monthly"),
        ("start_date", "2026-01-31"),
        ("notes", "Monthly retainer"),
    ]);
    for (k, v) in pairs {
        map.insert(*k, RawValue::text(*v));
    }
    if map.get("items").is_none() {
        map.insert(
            "items",
            RawValue::List(vec![item(&[
                ("description", "Retainer"),
                ("quantity", "2"),
                ("rate", "50"),
            ])]),
        );
    }
    map
}

async fn create(s: &Seeded, pairs: &[(&str, &str)]) -> Result<RecurringInvoice, StoreError> {
    let map = input(s, pairs).await;
    s.store
        .create_recurring_invoice(ctx(), &RecurringInput::parse(&map, true))
        .await
}

/// Noon UTC on a day.
fn noon(date: &str) -> DateTime<Utc> {
    let d = day(date);
    Utc.from_utc_datetime(&d.and_hms_opt(12, 0, 0).unwrap())
}

/// What one worker does at `now`: claims what is due and runs it; the invoices made.
async fn work(s: &Seeded, now: DateTime<Utc>) -> usize {
    let mut made = 0;
    for id in s.store.claim_due_schedules(now, 100, LEASE).await.unwrap() {
        made += s
            .store
            .run_schedule(id, now, &LETTERHEAD)
            .await
            .unwrap()
            .made
            .len();
    }
    made
}

/// (date, number) of the invoices a schedule made, by date.
async fn made(s: &Seeded, id: RecurringInvoiceId) -> Vec<(String, Option<String>)> {
    let q = InvoiceListQuery::parse(&raw(&[
        ("sort", "bill_date"),
        ("order", "asc"),
        ("limit", "100"),
    ]))
    .unwrap();
    s.store
        .recurring_invoices_made(ctx(), id, &q)
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|i| (i.dates.date.to_string(), i.number))
        .collect()
}

#[tokio::test]
async fn every_failing_field_of_the_schedule_and_its_template_is_named_and_nothing_is_written() {
    let s = seeded().await;
    let invoices = s.scalar("SELECT count(*) FROM invoices").await;
    let mut map = input(
        &s,
        &[
            ("frequency", "fortnightly"),
            ("timezone", "Mars/Olympus_Mons"),
            ("client_id", "999999"),
            ("tax_type", "sometimes"),
        ],
    )
    .await;
    map.insert(
        "items",
        RawValue::List(vec![item(&[("description", "No rate"), ("quantity", "1")])]),
    );
    let errors = invalid(
        s.store
            .create_recurring_invoice(ctx(), &RecurringInput::parse(&map, true))
            .await,
    );
    assert_eq!(
        messages(&errors, "frequency"),
        ["The selected frequency is invalid."]
    );
    assert_eq!(
        messages(&errors, "timezone"),
        ["The selected timezone is invalid."]
    );
    assert_eq!(
        messages(&errors, "client_id"),
        ["The selected client id is invalid."]
    );
    assert_eq!(
        messages(&errors, "tax_type"),
        ["The selected tax type is invalid."]
    );
    assert_eq!(
        messages(&errors, "items.0.rate"),
        ["The items.0.rate field is required."]
    );
    let errors = invalid(create(&s, &[("end_date", "2026-01-30")]).await);
    assert_eq!(
        messages(&errors, "end_date"),
        ["The end date must be a date after or equal to start date."]
    );
    // A line the invoice's tax mode refuses: only the invoice's rules know it.
    let rate = crate::common::rate_id(&s, "10.00", "enabled");
    let mut map = input(&s, &[("tax_type", "summary")]).await;
    map.insert(
        "items",
        RawValue::List(vec![item(&[
            ("description", "Inline only"),
            ("quantity", "1"),
            ("rate", "5"),
            ("tax_rate_id", rate.as_str()),
        ])]),
    );
    let errors = invalid(
        s.store
            .create_recurring_invoice(ctx(), &RecurringInput::parse(&map, true))
            .await,
    );
    assert_eq!(
        messages(&errors, "items.0.tax_rate_id"),
        ["The items.0.tax rate id field is prohibited when tax type is summary."]
    );
    assert_eq!(s.scalar("SELECT count(*) FROM recurring_invoices").await, 0);
    assert_eq!(s.scalar("SELECT count(*) FROM invoices").await, invoices);
    assert_eq!(s.scalar("SELECT count(*) FROM webhook_events").await, 0);
}

#[tokio::test]
async fn dates_come_from_the_start_and_catch_up_all_makes_every_missed_occurrence_numbered_without_a_gap()
 {
    let s = seeded().await;
    let r = create(
        &s,
        &[
            ("auto_publish", "1"),
            ("catch_up", "all"),
            ("due_days", "14"),
        ],
    )
    .await
    .unwrap();
    assert_eq!(r.next_date, Some(day("2026-01-31")));
    assert_eq!(r.status, RecurringStatus::Active);
    assert_eq!(
        r.template.get("notes"),
        Some(&RawValue::text("Monthly retainer"))
    );
    let before = s
        .scalar("SELECT count(*) FROM invoices WHERE number IS NOT NULL")
        .await;
    // Nothing is due the day before the start.
    assert_eq!(work(&s, noon("2026-01-30")).await, 0);
    assert_eq!(work(&s, noon("2026-06-15")).await, 5);
    let dates: Vec<String> = made(&s, r.id).await.into_iter().map(|(d, _)| d).collect();
    assert_eq!(
        dates,
        [
            "2026-01-31",
            "2026-02-28",
            "2026-03-31",
            "2026-04-30",
            "2026-05-31"
        ]
    );
    let numbers: Vec<String> = made(&s, r.id)
        .await
        .into_iter()
        .map(|(_, n)| n.unwrap())
        .collect();
    let first: i64 = numbers[0].rsplit('-').next().unwrap().parse().unwrap();
    assert_eq!(first, before + 1);
    for (i, n) in numbers.iter().enumerate() {
        assert_eq!(*n, format!("INV-2026-{:05}", first + i as i64));
    }
    // The invoice has the template's content, its due date, its schedule and its email.
    let one = s
        .scalar(&format!(
            "SELECT id FROM invoices WHERE recurring_invoice_id = {} AND date = '2026-02-28'",
            r.id
        ))
        .await;
    let invoice = s
        .store
        .bills::<crm_core::bill::InvoiceKind>()
        .get(ctx(), crm_core::ids::InvoiceId::new(one).unwrap())
        .await
        .unwrap();
    assert_eq!(invoice.recurring_invoice_id, Some(r.id));
    assert_eq!(invoice.dates.due_date, Some(day("2026-03-14")));
    assert_eq!(
        invoice.totals.bill.figures.final_amount.to_string(),
        "100.00"
    );
    assert_eq!(invoice.notes.as_deref(), Some("Monthly retainer"));
    assert_eq!(
        s.scalar(&format!(
            "SELECT count(*) FROM email_queue WHERE resource_type = 'invoice' AND resource_id = {one}"
        ))
        .await,
        1
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM webhook_events WHERE type = 'recurring_invoice.generated'")
            .await,
        0,
        "no endpoint subscribes, so no event row is written"
    );
    // Running again the same day, or on a clock set back, makes nothing more.
    assert_eq!(work(&s, noon("2026-06-15")).await, 0);
    assert_eq!(work(&s, noon("2026-03-01")).await, 0);
    let after = s.store.recurring_invoice(r.id).await.unwrap();
    assert_eq!(after.next_date, Some(day("2026-06-30")));
    assert_eq!(after.invoices_made, 5);
}

#[tokio::test]
async fn catch_up_latest_makes_only_the_last_missed_occurrence_and_marks_the_others_skipped() {
    let s = seeded().await;
    let r = create(&s, &[]).await.unwrap();
    assert_eq!(work(&s, noon("2026-04-02")).await, 1);
    let made = made(&s, r.id).await;
    assert_eq!(
        made,
        [("2026-03-31".to_owned(), None)],
        "a draft, not numbered"
    );
    assert_eq!(
        s.scalar(&format!(
            "SELECT count(*) FROM recurring_occurrences WHERE recurring_invoice_id = {} AND skipped",
            r.id
        ))
        .await,
        2
    );
    let shown = s.store.recurring_invoice(r.id).await.unwrap();
    assert_eq!(shown.next_date, Some(day("2026-04-30")));
    assert_eq!(shown.invoices_made, 1);
}

#[tokio::test]
async fn a_schedule_with_a_count_finishes_and_a_paused_one_makes_nothing() {
    let s = seeded().await;
    let r = create(&s, &[("count", "2"), ("catch_up", "all")])
        .await
        .unwrap();
    let paused = create(&s, &[("status", "paused")]).await.unwrap();
    assert_eq!(work(&s, noon("2026-12-01")).await, 2);
    let r = s.store.recurring_invoice(r.id).await.unwrap();
    assert_eq!((r.status, r.next_date), (RecurringStatus::Finished, None));
    assert!(made(&s, paused.id).await.is_empty());
}

#[tokio::test]
async fn an_occurrence_falls_due_at_midnight_in_the_schedules_time_zone() {
    let s = seeded().await;
    let r = create(
        &s,
        &[
            ("timezone", "Pacific/Kiritimati"),
            ("start_date", "2026-03-01"),
        ],
    )
    .await
    .unwrap();
    // 2026-02-28 10:30 UTC is 2026-03-01 00:30 at UTC+14.
    let before = Utc.with_ymd_and_hms(2026, 2, 28, 9, 30, 0).unwrap();
    let after = Utc.with_ymd_and_hms(2026, 2, 28, 10, 30, 0).unwrap();
    assert_eq!(work(&s, before).await, 0);
    assert_eq!(work(&s, after).await, 1);
    assert_eq!(made(&s, r.id).await[0].0, "2026-03-01");
}

#[tokio::test]
async fn concurrent_workers_make_each_occurrence_once() {
    let s = seeded().await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(
            create(&s, &[("auto_publish", "1"), ("catch_up", "all")])
                .await
                .unwrap()
                .id,
        );
    }
    let now = noon("2026-12-15");
    // Each worker runs every schedule, claimed or not (a lease that ran out, a retry):
    // only the occurrence's key and the row lock stand between them.
    let runs = (0..4).map(|_| {
        let store = s.store.clone();
        let ids = ids.clone();
        tokio::spawn(async move {
            let mut made = 0;
            for id in ids {
                made += store
                    .run_schedule(id, now, &LETTERHEAD)
                    .await
                    .unwrap()
                    .made
                    .len();
            }
            made
        })
    });
    let total: usize = futures_util::future::join_all(runs)
        .await
        .into_iter()
        .map(Result::unwrap)
        .sum();
    assert_eq!(total, 4 * 11);
    for id in ids {
        assert_eq!(made(&s, id).await.len(), 11);
    }
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM (SELECT number FROM invoices WHERE number IS NOT NULL \
             GROUP BY number HAVING count(*) > 1) d"
        )
        .await,
        0
    );
}

#[tokio::test]
async fn a_changed_rule_goes_on_after_the_last_occurrence_made() {
    let s = seeded().await;
    let r = create(&s, &[("catch_up", "all")]).await.unwrap();
    assert_eq!(work(&s, noon("2026-02-28")).await, 2);
    let patch = raw(&[("frequency", "weekly"), ("notes", "Weekly now")]);
    let r = s
        .store
        .update_recurring_invoice(ctx(), r.id, &RecurringInput::parse(&patch, false))
        .await
        .unwrap();
    // Weekly from 31 January: the first after 28 February is 7 March.
    assert_eq!(r.next_date, Some(day("2026-03-07")));
    assert_eq!(r.template.get("notes"), Some(&RawValue::text("Weekly now")));
    let bad = raw(&[("category_id", "999999")]);
    let errors = invalid(
        s.store
            .update_recurring_invoice(ctx(), r.id, &RecurringInput::parse(&bad, false))
            .await,
    );
    assert_eq!(
        messages(&errors, "category_id"),
        ["The selected category id is invalid."]
    );
    s.store.delete_recurring_invoice(ctx(), r.id).await.unwrap();
    assert_eq!(
        s.scalar("SELECT count(*) FROM invoices WHERE date IN ('2026-01-31', '2026-02-28') AND notes = 'Monthly retainer'")
            .await,
        2,
        "the invoices a deleted schedule made stay"
    );
}

#[tokio::test]
async fn a_draft_made_by_a_schedule_is_read_with_its_status() {
    let s = seeded().await;
    let r = create(&s, &[]).await.unwrap();
    work(&s, noon("2026-01-31")).await;
    let q = InvoiceListQuery::parse(&raw(&[])).unwrap();
    let listed = s
        .store
        .recurring_invoices_made(ctx(), r.id, &q)
        .await
        .unwrap();
    assert_eq!(listed.total, 1);
    assert_eq!(listed.items[0].status, InvoiceStatus::Draft);
}
