//! Payment reminders (API.md §20), on a clock the test sets: the company's steps, one
//! email per (invoice, step) and the latest only when several passed (the earlier
//! skipped), none at night in the company's time zone, none once the invoice is paid,
//! `invoice.overdue` once; concurrent workers send each reminder once.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use crm_core::company::CompanyUpdate;
use crm_core::ids::InvoiceId;
use crm_core::input::RawValue;
use crm_store_pg::messages::Letterhead;

use crate::common::{Seeded, ctx, messages, seeded};
use crate::payments::{pay, published};

const LETTERHEAD: Letterhead = Letterhead([3; 32]);

/// Sets the company's reminder steps (and time zone).
async fn steps(s: &Seeded, offsets: &[&str], zone: &str) {
    let mut raw: crm_core::input::RawMap =
        [("timezone", RawValue::text(zone))].into_iter().collect();
    raw.insert(
        "reminders",
        RawValue::List(offsets.iter().map(|o| RawValue::text(*o)).collect()),
    );
    s.store
        .update_company(ctx(), &CompanyUpdate::parse(&raw).unwrap())
        .await
        .unwrap();
}

/// `hour`:00 UTC on the day `days` after `date`.
fn at(date: NaiveDate, days: i64, hour: u32) -> DateTime<Utc> {
    let day = date + chrono::Duration::days(days);
    Utc.from_utc_datetime(&day.and_hms_opt(hour, 0, 0).unwrap())
}

/// (step, sent) recorded for an invoice, by step.
async fn recorded(s: &Seeded, id: InvoiceId) -> Vec<(i32, bool)> {
    s.sql()
        .await
        .query(
            "SELECT step, sent FROM invoice_reminders WHERE invoice_id = $1 ORDER BY step",
            &[&id.get()],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect()
}

/// The emails queued for an invoice (its publish's and its reminders').
async fn emails(s: &Seeded, id: InvoiceId) -> i64 {
    s.scalar(&format!(
        "SELECT count(*) FROM email_queue WHERE resource_type = 'invoice' AND resource_id = {id}"
    ))
    .await
}

async fn overdue_reports(s: &Seeded, id: InvoiceId) -> i64 {
    s.scalar(&format!(
        "SELECT count(*) FROM invoice_overdue_reports WHERE invoice_id = {id}"
    ))
    .await
}

#[tokio::test]
async fn a_step_is_sent_once_on_its_day_and_the_latest_only_when_several_passed() {
    let s = seeded().await;
    steps(&s, &["-3", "7", "14"], "UTC").await;
    let i = published(&s, "1", "100").await;
    let due = i.dates.due_date.unwrap();
    assert_eq!(emails(&s, i.id).await, 1, "the publish's email");
    // The day before the first step: nothing.
    s.store
        .send_due_reminders(at(due, -4, 10), &LETTERHEAD, 100)
        .await
        .unwrap();
    assert!(recorded(&s, i.id).await.is_empty());
    let r = s
        .store
        .send_due_reminders(at(due, -3, 10), &LETTERHEAD, 100)
        .await
        .unwrap();
    assert!(r.sent.iter().any(|e| e.record.id == i.id));
    assert_eq!(recorded(&s, i.id).await, [(-3, true)]);
    assert_eq!(emails(&s, i.id).await, 2);
    // Again the same day: nothing new.
    s.store
        .send_due_reminders(at(due, -3, 11), &LETTERHEAD, 100)
        .await
        .unwrap();
    assert_eq!(emails(&s, i.id).await, 2);
    assert_eq!(
        overdue_reports(&s, i.id).await,
        0,
        "not overdue before its due date"
    );
    // Down for three weeks: 7 and 14 have passed; 14 is sent, 7 skipped; overdue once.
    s.store
        .send_due_reminders(at(due, 20, 10), &LETTERHEAD, 100)
        .await
        .unwrap();
    assert_eq!(
        recorded(&s, i.id).await,
        [(-3, true), (7, false), (14, true)]
    );
    assert_eq!(emails(&s, i.id).await, 3);
    assert_eq!(overdue_reports(&s, i.id).await, 1);
    s.store
        .send_due_reminders(at(due, 40, 10), &LETTERHEAD, 100)
        .await
        .unwrap();
    assert_eq!(emails(&s, i.id).await, 3);
    assert_eq!(overdue_reports(&s, i.id).await, 1);
}

#[tokio::test]
async fn none_is_sent_at_night_in_the_companys_time_zone_nor_once_the_invoice_is_paid() {
    let s = seeded().await;
    // Tokyo is UTC+9: 10:00 UTC is 19:00 there, 01:00 UTC is 10:00 there.
    steps(&s, &["1"], "Asia/Tokyo").await;
    let i = published(&s, "1", "100").await;
    let paid = published(&s, "1", "50").await;
    pay(&s, paid.id, "50.00").await;
    let due = i.dates.due_date.unwrap();
    s.store
        .send_due_reminders(at(due, 2, 10), &LETTERHEAD, 100)
        .await
        .unwrap();
    assert!(recorded(&s, i.id).await.is_empty(), "19:00 in Tokyo");
    assert_eq!(
        overdue_reports(&s, i.id).await,
        1,
        "overdue is reported at any hour"
    );
    s.store
        .send_due_reminders(at(due, 3, 1), &LETTERHEAD, 100)
        .await
        .unwrap();
    assert_eq!(recorded(&s, i.id).await, [(1, true)]);
    assert!(recorded(&s, paid.id).await.is_empty());
    assert_eq!(overdue_reports(&s, paid.id).await, 0);
}

#[tokio::test]
async fn concurrent_workers_send_each_reminder_once() {
    let s = seeded().await;
    steps(&s, &["0"], "UTC").await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(published(&s, "1", "10").await.id);
    }
    let due = crate::payments::read(&s, ids[0])
        .await
        .dates
        .due_date
        .unwrap();
    let now = at(due, 0, 12);
    let runs = (0..4).map(|_| {
        let store = s.store.clone();
        tokio::spawn(async move {
            store
                .send_due_reminders(now, &LETTERHEAD, 100)
                .await
                .unwrap()
        })
    });
    for run in futures_util::future::join_all(runs).await {
        run.unwrap();
    }
    for id in ids {
        assert_eq!(recorded(&s, id).await, [(0, true)]);
        assert_eq!(emails(&s, id).await, 2, "its publish's and one reminder");
    }
}

#[tokio::test]
async fn the_steps_are_checked_and_named() {
    let s = seeded().await;
    let raw: crm_core::input::RawMap = [(
        "reminders",
        RawValue::List(vec![
            RawValue::text("7"),
            RawValue::text("400"),
            RawValue::text("7"),
        ]),
    )]
    .into_iter()
    .collect();
    let r = CompanyUpdate::parse(&raw).unwrap_err();
    assert_eq!(
        messages(&r.errors, "reminders.1"),
        ["The reminders.1 must be between -365 and 365."]
    );
    assert_eq!(
        messages(&r.errors, "reminders.2"),
        ["The reminders.2 field has a duplicate value."]
    );
    steps(&s, &["30", "-3", "7"], "UTC").await;
    let company = s.store.company().await.unwrap();
    assert_eq!(company.reminders.offsets(), [-3, 7, 30]);
}
