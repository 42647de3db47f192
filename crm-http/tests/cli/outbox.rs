//! The `crm` command and the outbox: `crm deliver --once`, the default file outbox of
//! `crm serve`, and the mail URL's password never printed.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crm_store_pg::testing::TestDb;

use super::{CRM, Server, crm, free_port, http, scratch_dir, stdout, terminate, url};

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
        "smtp://user:hunter2@mail.example?tls=opportunistic",
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
        message.contains(&format!("Subject: Estimate #{id}")),
        "{message}"
    );
    assert_eq!(terminate(server), Some(0));
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.contains("emails are written as .eml files under .crm/outbox/"),
        "{log}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn deliver_once_sends_what_is_due_to_the_configured_folder_and_exits() {
    let db = TestDb::new().await.unwrap();
    let dir = scratch_dir("deliver-once");
    let database_url = url(&db);
    let env = [("DATABASE_URL", database_url.as_str())];
    assert!(crm(&["migrate"], &env).status.success());
    db.client()
        .await
        .unwrap()
        .batch_execute(
            "INSERT INTO email_queue (recipient, subject, template, resource_type, resource_id, body_text, body_html) \
             VALUES ('a@example.test', 'Estimate #1', 'estimate', 'estimate', 1, 'Hello', '<p>Hello</p>'), \
                    ('b@example.test', 'Estimate #2', 'estimate', 'estimate', 2, 'Hello', '<p>Hello</p>')",
        )
        .await
        .unwrap();
    let mail_url = format!("file://{}", dir.join("sent").display());
    let output = crm(
        &[
            "deliver",
            "--once",
            "--mail-from",
            "Billing <billing@crm.example>",
        ],
        &[
            ("DATABASE_URL", database_url.as_str()),
            ("CRM_MAIL_URL", &mail_url),
        ],
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
    let output = crm(
        &["deliver", "--once"],
        &[
            ("DATABASE_URL", database_url.as_str()),
            ("CRM_MAIL_URL", &mail_url),
        ],
    );
    assert_eq!(stdout(&output), "0 sent, 0 to retry, 0 failed");
    std::fs::remove_dir_all(&dir).unwrap();
}
