//! Recurring invoices benchmark (not a test): `cargo bench -p crm-http --bench recurring`
//! or `benches/recurring.sh` at the workspace root.
//!
//! On a fresh seeded database (created on `CRM_TEST_DATABASE_URL`'s server, dropped after):
//! `RECURRING_BENCH_SCHEDULES` (default 10,000) monthly schedules, each with one occurrence
//! due today (two lines and a summary tax), made by one scheduler
//! (`crm_http::ops::scheduler::run`, as `crm serve` and `crm deliver` run it: claims with
//! leases, one transaction per occurrence) until nothing is due; invoices per second.
//! `RECURRING_BENCH_PUBLISH=0` leaves them drafts; by default each is issued (numbered,
//! linked) and its email queued and composed, the heaviest case.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    missing_docs,
    unreachable_pub
)]

use std::sync::Arc;
use std::time::Instant;

use chrono::Utc;
use crm_core::ids::UserId;
use crm_core::input::{RawMap, RawValue};
use crm_core::recurring::RecurringInput;
use crm_http::documents::Documents;
use crm_http::ops::scheduler::{self, SchedulerOptions, SystemClock};
use crm_store_pg::Ctx;
use crm_store_pg::testing::TestDb;

fn env_or(name: &str, default: i64) -> i64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn item(description: &str, quantity: &str, rate: &str) -> RawValue {
    RawValue::Map(
        [
            ("description", RawValue::text(description)),
            ("quantity", RawValue::text(quantity)),
            ("rate", RawValue::text(rate)),
        ]
        .into_iter()
        .collect(),
    )
}

#[tokio::main]
async fn main() {
    let schedules = env_or("RECURRING_BENCH_SCHEDULES", 10_000);
    let publish = env_or("RECURRING_BENCH_PUBLISH", 1) != 0;
    let db = TestDb::new().await.expect("a fresh database");
    let store = db.store().unwrap();
    let ids = store.seed().await.unwrap();
    let client = db.client().await.unwrap();
    let category: i64 = client
        .query_one(
            "SELECT id FROM categories WHERE type = 'invoice' AND system_default",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let rate = ids
        .tax_rates
        .iter()
        .find(|t| t.status == "enabled" && t.id != 1)
        .unwrap()
        .id;
    let today = Utc::now().date_naive();
    let mut raw: RawMap = [
        ("client_id", RawValue::text(ids.clients[0].id.to_string())),
        ("category_id", RawValue::text(category.to_string())),
        ("frequency", RawValue::text("monthly")),
        ("start_date", RawValue::text(today.to_string())),
        (
            "auto_publish",
            RawValue::text(if publish { "1" } else { "0" }),
        ),
        ("timezone", RawValue::text("UTC")),
    ]
    .into_iter()
    .collect();
    raw.insert(
        "items",
        RawValue::List(vec![
            item("Retainer", "1", "1500"),
            item("Hosting", "3", "19.99"),
        ]),
    );
    raw.insert(
        "tax_rate_ids",
        RawValue::List(vec![RawValue::text(rate.to_string())]),
    );
    let ctx = Ctx {
        actor: UserId::new(1).unwrap(),
        today,
    };
    store
        .create_recurring_invoice(ctx, &RecurringInput::parse(&raw, true))
        .await
        .unwrap();
    // The others are copies of the first, made in one statement.
    client
        .execute(
            "INSERT INTO recurring_invoices (client_id, template, frequency, interval, start_date, \
             end_date, count, due_days, auto_publish, catch_up, status, timezone, next_index, \
             next_date, creator_id) SELECT client_id, template, frequency, interval, start_date, \
             end_date, count, due_days, auto_publish, catch_up, status, timezone, next_index, \
             next_date, creator_id FROM recurring_invoices, generate_series(2, $1::bigint)",
            &[&schedules],
        )
        .await
        .unwrap();
    let (_stop, stopped) = tokio::sync::watch::channel(false);
    let started = Instant::now();
    let made = scheduler::run(
        store.clone(),
        Arc::new(Documents::default()),
        Arc::new(SystemClock),
        SchedulerOptions {
            once: true,
            ..SchedulerOptions::default()
        },
        stopped,
    )
    .await;
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(
        i64::try_from(made.made).unwrap(),
        schedules,
        "every schedule made its invoice"
    );
    let queued: i64 = client
        .query_one(
            "SELECT count(*) FROM email_queue WHERE resource_type = 'invoice'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    #[allow(clippy::cast_precision_loss)]
    let rate = made.made as f64 / seconds;
    println!(
        "recurring: {} schedules, {} invoices made by one worker in {seconds:.1} s: {rate:.0} invoices/s \
         ({}; {queued} invoice emails queued)",
        schedules,
        made.made,
        if publish {
            "issued and emailed"
        } else {
            "drafts"
        }
    );
}
