//! The scheduler through the real service (API.md §20): three `crm serve` instances and a
//! `crm deliver` share one database and its recurring invoices. A schedule that started 14
//! months ago with `catch_up=all` becomes exactly 14 invoices, numbered without a gap;
//! an instance killed (SIGKILL) while it makes occurrences leaves each occurrence whole
//! or absent, and another instance makes the rest, once.

use std::process::{Command, Stdio};
use std::time::Duration;

use chrono::{Datelike, Months, Utc};
use crm_store_pg::testing::TestDb;

use super::http::call;
use super::{CRM, Running, free_port, key, serve, wait_until};

/// A fresh seeded database (the demo client and categories).
fn seeded(runtime: &tokio::runtime::Runtime) -> TestDb {
    let db = runtime.block_on(TestDb::new()).unwrap();
    runtime.block_on(db.store().unwrap().seed()).unwrap();
    db
}

/// `crm deliver` on `db`, until stopped.
fn deliver(db: &TestDb) -> Running {
    let dir = std::env::temp_dir().join(format!("crm-scheduler-test-{}", db.name()));
    std::fs::create_dir_all(&dir).unwrap();
    let worker = Command::new(CRM)
        .args(["deliver", "--mail-url"])
        .arg(format!("file://{}", dir.display()))
        .env("DATABASE_URL", &db.config().database_url)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("crm deliver starts");
    Running(worker)
}

/// A monthly schedule of the first demo client (in the default invoice category
/// `category`) starting on `start`, issuing and emailing each invoice, making every missed
/// occurrence.
fn schedule_form(category: i64, start: chrono::NaiveDate) -> String {
    format!(
        "client_id=1&category_id={category}&frequency=monthly&start_date={start}&catch_up=all\
         &auto_publish=1&items[0][description]=Retainer&items[0][quantity]=1&items[0][rate]=100"
    )
}

/// The default invoice category.
fn invoice_category(runtime: &tokio::runtime::Runtime, db: &TestDb) -> i64 {
    scalar(
        runtime,
        db,
        "SELECT id FROM categories WHERE type = 'invoice' AND system_default",
    )
}

/// One integer a query returns.
fn scalar(runtime: &tokio::runtime::Runtime, db: &TestDb, sql: &str) -> i64 {
    runtime.block_on(async {
        let client = db.client().await.unwrap();
        client.query_one(sql, &[]).await.unwrap().get(0)
    })
}

/// Every invoice number, in order; each series (`INV-<year>-`) must run 1, 2, 3, … with no
/// gap and no repeat.
fn assert_numbers_gapless(runtime: &tokio::runtime::Runtime, db: &TestDb) {
    let numbers: Vec<String> = runtime.block_on(async {
        let client = db.client().await.unwrap();
        client
            .query(
                "SELECT number FROM invoices WHERE number IS NOT NULL ORDER BY number",
                &[],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect()
    });
    let mut by_series: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
    for n in numbers {
        let (series, seq) = n.rsplit_once('-').unwrap();
        by_series
            .entry(series.to_owned())
            .or_default()
            .push(seq.parse().unwrap());
    }
    for (series, mut seqs) in by_series {
        seqs.sort_unstable();
        let expected: Vec<u32> = (1..=u32::try_from(seqs.len()).unwrap()).collect();
        assert_eq!(seqs, expected, "series {series} has a gap or a repeat");
    }
}

/// Occurrences made are whole: each has exactly one invoice of its schedule and date, and
/// each invoice of a schedule is issued, linked and emailed, and has its occurrence.
fn assert_whole(runtime: &tokio::runtime::Runtime, db: &TestDb) {
    let broken = scalar(
        runtime,
        db,
        "SELECT count(*) FROM recurring_occurrences o WHERE NOT o.skipped AND \
         (SELECT count(*) FROM invoices i WHERE i.recurring_invoice_id = o.recurring_invoice_id \
          AND i.date = o.date) <> 1",
    );
    assert_eq!(broken, 0, "an occurrence without exactly one invoice");
    let orphans = scalar(
        runtime,
        db,
        "SELECT count(*) FROM invoices i WHERE i.recurring_invoice_id IS NOT NULL AND ( \
         NOT EXISTS (SELECT 1 FROM recurring_occurrences o WHERE o.invoice_id = i.id) \
         OR i.number IS NULL OR i.client_token IS NULL \
         OR (SELECT count(*) FROM email_queue q WHERE q.resource_type = 'invoice' AND q.resource_id = i.id) <> 1)",
    );
    assert_eq!(
        orphans, 0,
        "an invoice without its occurrence, number, link or email"
    );
}

#[test]
fn three_instances_and_a_worker_make_a_schedule_of_fourteen_months_exactly_once() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let db = seeded(&runtime);
    // The instances are up before the schedule exists, so that all four race for it.
    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let _instances: Vec<Running> = ports.iter().map(|p| serve(&db, *p, &[])).collect();
    let _worker = deliver(&db);
    let auth = format!("Bearer {}", key(&db));
    let headers = [("Authorization", auth.as_str())];
    // 13 months back: the start, and 13 monthly occurrences after it, up to today.
    let start = Utc::now()
        .date_naive()
        .checked_sub_months(Months::new(13))
        .unwrap();
    let form = schedule_form(invoice_category(&runtime, &db), start);
    let a = call(ports[0], "POST", "/api/recurring-invoices", &headers, &form);
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.id();
    let path = format!("/api/recurring-invoices/{id}");
    wait_until("14 invoices made", Duration::from_secs(120), || {
        call(ports[1], "GET", &path, &headers, "").json()["data"]["invoices_made"] == 14
    });
    let listed = call(
        ports[2],
        "GET",
        &format!("{path}/invoices?limit=100&sort=bill_date&order=asc"),
        &headers,
        "",
    )
    .json();
    assert_eq!(listed["meta"]["total"], 14, "{listed}");
    let days: Vec<u32> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            i["dates"]["date"]
                .as_str()
                .unwrap()
                .parse::<chrono::NaiveDate>()
                .unwrap()
                .day()
        })
        .collect();
    let start_day = start.day();
    assert!(
        days.iter().all(|d| *d == start_day || *d >= 28),
        "every date from the start date: {days:?}"
    );
    // Nothing more is made while the instances keep running rounds.
    std::thread::sleep(Duration::from_secs(12));
    assert_eq!(
        scalar(
            &runtime,
            &db,
            &format!("SELECT count(*) FROM invoices WHERE recurring_invoice_id = {id}")
        ),
        14
    );
    assert_whole(&runtime, &db);
    assert_numbers_gapless(&runtime, &db);
}

#[test]
fn an_instance_killed_while_it_makes_occurrences_leaves_each_whole_or_absent() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let db = seeded(&runtime);
    let port = free_port();
    let auth = format!("Bearer {}", key(&db));
    let headers = [("Authorization", auth.as_str())];
    let category = invoice_category(&runtime, &db);
    // Many schedules, starting tomorrow (nothing due while they are made), then moved 12
    // months back at once: one instance then has 12 occurrences of each to make.
    let schedules = 120;
    {
        let maker = free_port();
        let _maker = serve(&db, maker, &[]);
        let tomorrow = Utc::now().date_naive() + chrono::Days::new(1);
        for _ in 0..schedules {
            let form = schedule_form(category, tomorrow);
            let a = call(maker, "POST", "/api/recurring-invoices", &headers, &form);
            assert_eq!(a.status, 201, "{}", a.body);
        }
    }
    runtime.block_on(async {
        let client = db.client().await.unwrap();
        client
            .batch_execute(
                "UPDATE recurring_invoices SET start_date = start_date - interval '12 months', \
                 next_date = start_date - interval '12 months'",
            )
            .await
            .unwrap();
    });
    let expected = 12 * schedules;
    let mut victim = serve(&db, port, &[]);
    wait_until(
        "the instance is making occurrences",
        Duration::from_secs(120),
        || scalar(&runtime, &db, "SELECT count(*) FROM recurring_occurrences") > 20,
    );
    let _ = Command::new("kill")
        .args(["-KILL", &victim.0.id().to_string()])
        .status();
    let _ = victim.0.wait();
    let made = scalar(&runtime, &db, "SELECT count(*) FROM recurring_occurrences");
    assert!(
        made < expected,
        "killed before it was done ({made} of {expected})"
    );
    assert_whole(&runtime, &db);
    assert_numbers_gapless(&runtime, &db);
    // Another instance takes the schedules once the dead one's leases have passed, and makes
    // the rest, each once.
    let _next = serve(&db, free_port(), &[]);
    wait_until("every occurrence made", Duration::from_secs(300), || {
        scalar(&runtime, &db, "SELECT count(*) FROM recurring_occurrences") == expected
    });
    assert_eq!(
        scalar(
            &runtime,
            &db,
            "SELECT count(*) FROM invoices WHERE recurring_invoice_id IS NOT NULL"
        ),
        expected
    );
    assert_whole(&runtime, &db);
    assert_numbers_gapless(&runtime, &db);
}
