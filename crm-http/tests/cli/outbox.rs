//! The `crm` command and the outbox: `crm deliver --once`, the default file outbox of
//! `crm serve`, and the mail URL's password never printed.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crm_store_pg::testing::TestDb;

use super::{CRM, Server, crm, free_port, http, scratch_dir, stdout, terminate, url};

/// `crm deliver --once` with `flags`, on the database of `database_url`, sending to
/// `mail_url` (both given as the environment gives them).
fn deliver_once(flags: &[&str], database_url: &str, mail_url: &str) -> std::process::Output {
    let mut args = vec!["deliver", "--once"];
    args.extend_from_slice(flags);
    crm(
        &args,
        &[("DATABASE_URL", database_url), ("CRM_MAIL_URL", mail_url)],
    )
}

#[test]
fn the_mail_urls_password_is_never_printed_and_a_malformed_url_is_a_clear_error() {
    let secret = "smtp://user:hunter2@mail.example:587";
    for args in [
        &["--help"][..],
        &["serve", "--help"],
        &["deliver", "--help"],
    ] {
        let output = crm(args, &[("CRM_MAIL_URL", secret)]);
        assert!(output.status.success(), "{args:?}");
        let help = String::from_utf8_lossy(&output.stdout);
        assert!(help.contains("CRM_MAIL_URL"), "{help}");
        assert!(help.contains("CRM_MAIL_FROM"), "{help}");
        assert!(
            !help.contains("hunter2"),
            "{args:?} shows the password:\n{help}"
        );
    }
    for bad in [
        "smtp://user:hunter2@mail.example:99999",
        "smtp://user:hunter2@mail.example?tls=sometimes",
        "smtp://user:hunter2@mail.example:1:2",
        "ftp://user:hunter2@mail.example",
        "file://relative",
    ] {
        for command in ["serve", "deliver"] {
            let output = crm(
                &[command],
                &[
                    ("CRM_MAIL_URL", bad),
                    ("DATABASE_URL", "postgres://postgres@127.0.0.1:1/crm"),
                ],
            );
            assert_eq!(output.status.code(), Some(1), "{bad}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                stderr.contains("error: invalid --mail-url / CRM_MAIL_URL:"),
                "{bad}: {stderr}"
            );
            assert!(!stderr.contains("hunter2"), "{bad}: {stderr}");
            assert!(!stderr.contains("panicked"), "{bad}: {stderr}");
        }
    }
}

#[tokio::test]
async fn serve_writes_eml_files_under_crm_outbox_by_default_and_says_so() {
    let db = TestDb::new().await.unwrap();
    let dir = scratch_dir("outbox-default");
    let database_url = url(&db);
    let env = [("DATABASE_URL", database_url.as_str())];
    crm(&["seed"], &env);
    let key = stdout(&crm(&["keys", "create", "--name", "t"], &env));
    let port = free_port();
    let log = dir.join("serve.log");
    let mut server = Server(
        Command::new(CRM)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .current_dir(&dir)
            .env_remove("CRM_MAIL_URL")
            .env("DATABASE_URL", &database_url)
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    while http(port, "GET", "/healthz", None, "").0 != 200 {
        assert!(server.0.try_wait().unwrap().is_none(), "crm serve exited");
        assert!(Instant::now() < deadline, "crm serve did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let category: i64 = db
        .client()
        .await
        .unwrap()
        .query_one(
            "SELECT id FROM categories WHERE type = 'estimate' AND system_default LIMIT 1",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let client: i64 = db
        .client()
        .await
        .unwrap()
        .query_one(
            "SELECT id FROM clients WHERE contact_email IS NOT NULL ORDER BY id LIMIT 1",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let (status, body) = http(
        port,
        "POST",
        "/api/estimates",
        Some(&key),
        &format!("bill_clientid={client}&bill_categoryid={category}&bill_date=2026-06-15"),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["data"]["id"]
        .as_i64()
        .unwrap();
    let (status, body) = http(
        port,
        "PUT",
        &format!("/api/estimates/{id}/publish"),
        Some(&key),
        "",
    );
    assert_eq!(status, 200, "{body}");
    let number = serde_json::from_str::<serde_json::Value>(&body).unwrap()["data"]["number"]
        .as_str()
        .expect("published: numbered")
        .to_owned();

    let outbox = dir.join(".crm/outbox");
    let deadline = Instant::now() + Duration::from_secs(60);
    let file = loop {
        let found = std::fs::read_dir(&outbox)
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.path())
                    .find(|p| p.extension().is_some_and(|e| e == "eml"))
            })
            .ok()
            .flatten();
        if let Some(f) = found {
            break f;
        }
        assert!(
            Instant::now() < deadline,
            "no .eml file in {}",
            outbox.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let message = std::fs::read_to_string(&file).unwrap();
    assert!(
        message.contains(&format!("Subject: Estimate {number}")),
        "{message}"
    );
    // The worker counts its attempt in the service's metrics once the row is recorded.
    let sent = "crm_outbox_deliveries_total{channel=\"email\",outcome=\"sent\"} 1";
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, metrics) = http(port, "GET", "/metrics", None, "");
        assert_eq!(status, 200);
        if metrics.contains(sent) && metrics.contains("crm_outbox_oldest_pending_seconds 0") {
            break;
        }
        assert!(Instant::now() < deadline, "{metrics}");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(terminate(server), Some(0));
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.contains("emails are written as .eml files under .crm/outbox/"),
        "{log}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fresh database migrated by `crm migrate`, and its URL.
async fn migrated_db() -> (TestDb, String) {
    let db = TestDb::new().await.unwrap();
    let database_url = url(&db);
    let migrate = crm(&["migrate"], &[("DATABASE_URL", database_url.as_str())]);
    assert!(migrate.status.success());
    (db, database_url)
}

/// Queues an email to `recipient`, due now.
async fn queue_email(db: &TestDb, recipient: &str) {
    db.client()
        .await
        .unwrap()
        .execute(
            "INSERT INTO email_queue (recipient, subject, template, resource_type, resource_id, body_text, body_html) \
             VALUES ($1, 'Estimate #1', 'estimate', 'estimate', 1, 'Hello', '<p>Hello</p>')",
            &[&recipient],
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn deliver_once_sends_what_is_due_to_the_configured_folder_and_exits() {
    let (db, database_url) = migrated_db().await;
    let dir = scratch_dir("deliver-once");
    queue_email(&db, "a@example.test").await;
    queue_email(&db, "b@example.test").await;
    let mail_url = format!("file://{}", dir.join("sent").display());
    let output = deliver_once(
        &["--mail-from", "Billing <billing@crm.example>"],
        &database_url,
        &mail_url,
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout(&output), "2 sent, 0 to retry, 0 failed");
    let files: Vec<_> = std::fs::read_dir(dir.join("sent")).unwrap().collect();
    assert_eq!(files.len(), 2);
    let one = std::fs::read_to_string(files[0].as_ref().unwrap().path()).unwrap();
    assert!(one.contains("From: Billing <billing@crm.example>"), "{one}");
    let output = deliver_once(&[], &database_url, &mail_url);
    assert_eq!(stdout(&output), "0 sent, 0 to retry, 0 failed");
    assert!(output.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn deliver_once_counts_emails_left_for_a_retry_or_failed_and_exits_0() {
    let (db, database_url) = migrated_db().await;
    // Nothing listens on port 1: the email is left for a retry.
    queue_email(&db, "a@example.test").await;
    let output = deliver_once(&[], &database_url, "smtp://127.0.0.1:1?tls=none");
    assert_eq!(stdout(&output), "0 sent, 1 to retry, 0 failed");
    // A retry or a failure is what the command reports, not a failure of the command (as
    // a mail queue runner; monitor crm_outbox_emails{status="failed"} instead).
    assert_eq!(output.status.code(), Some(0));
    // A recipient that is not an address fails at once; the other email waits for its retry.
    db.client()
        .await
        .unwrap()
        .execute(
            "UPDATE email_queue SET next_attempt_at = now() + interval '1 hour'",
            &[],
        )
        .await
        .unwrap();
    queue_email(&db, "not an address").await;
    let dir = scratch_dir("deliver-once-failed");
    let mail_url = format!("file://{}", dir.display());
    let output = deliver_once(&[], &database_url, &mail_url);
    assert_eq!(stdout(&output), "0 sent, 0 to retry, 1 failed");
    assert_eq!(output.status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_password_that_may_travel_in_plain_text_is_warned_about_at_start() {
    let (_db, database_url) = migrated_db().await;
    for (mail_url, warned) in [
        ("smtp://crm:hunter2@127.0.0.1:1", true),
        ("smtp://crm:hunter2@127.0.0.1:1?tls=required", false),
        ("smtp://127.0.0.1:1", false),
    ] {
        let output = deliver_once(&[], &database_url, mail_url);
        assert!(output.status.success(), "{mail_url}");
        let log = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            log.contains("the mail password is sent in plain text"),
            warned,
            "{mail_url}: {log}"
        );
        assert!(!log.contains("hunter2"), "{log}");
    }
}

#[tokio::test]
async fn deliver_stopped_by_sigterm_exits_0_whatever_it_met() {
    let (db, database_url) = migrated_db().await;
    queue_email(&db, "a@example.test").await;
    let client = db.client().await.unwrap();
    let mut worker = Server(
        Command::new(CRM)
            .arg("deliver")
            .env("DATABASE_URL", &database_url)
            .env("CRM_MAIL_URL", "smtp://127.0.0.1:1?tls=none")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let output = worker.0.stdout.take().unwrap();
    // Nothing listens on port 1: the worker's first attempt leaves the email for a retry.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let row = client
            .query_one("SELECT attempts FROM email_queue", &[])
            .await
            .unwrap();
        if row.get::<_, i32>(0) > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the worker made no attempt");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(terminate(worker), Some(0));
    let printed = std::io::read_to_string(output).unwrap();
    assert_eq!(printed.trim(), "0 sent, 1 to retry, 0 failed");
}

#[tokio::test]
async fn deliver_takes_the_pgbouncer_settings_and_sends_with_unnamed_statements() {
    // The statement mode itself is tested through a real PgBouncer by the store's tests;
    // here `crm deliver` takes the same flags as `serve` and delivers in that mode.
    let (db, database_url) = migrated_db().await;
    let dir = scratch_dir("deliver-pgbouncer");
    queue_email(&db, "a@example.test").await;
    let mail_url = format!("file://{}", dir.join("sent").display());
    let output = deliver_once(
        &["--pgbouncer", "--listen-database-url", &database_url],
        &database_url,
        &mail_url,
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout(&output), "1 sent, 0 to retry, 0 failed");
    let sent: i64 = db
        .client()
        .await
        .unwrap()
        .query_one(
            "SELECT count(*) FROM email_queue WHERE status = 'sent'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(sent, 1);
    let output = crm(
        &["deliver", "--once", "--listen-database-url", "mysql://x"],
        &[("DATABASE_URL", database_url.as_str())],
    );
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("--listen-database-url"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
