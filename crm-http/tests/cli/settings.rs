//! One configuration across instances (issue 47, item 5): the settings every `crm serve`
//! and `crm deliver` sharing a database must agree on are stored in it by the first, and an
//! instance that disagrees refuses to start, naming the flag and both values, unless it is
//! started with `--take-over-settings`.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crm_store_pg::testing::TestDb;

use super::{CRM, crm, free_port, http, serve, stdout, terminate, url};

/// Runs `crm` with `args` until it exits, for at most `patience`: `None` when it was still
/// running then (it is killed), as a refused `crm serve` never is.
fn run_until_exit(args: &[&str], env: &[(&str, &str)], patience: Duration) -> Option<Output> {
    let mut command = Command::new(CRM);
    command
        .args(args)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("crm starts");
    let deadline = Instant::now() + patience;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(child.wait_with_output().unwrap())
}

/// The stored settings, by name.
async fn stored(db: &TestDb) -> Vec<(String, String)> {
    db.client()
        .await
        .unwrap()
        .query(
            "SELECT name, value FROM instance_settings ORDER BY name",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect()
}

/// The value stored for `name`.
async fn stored_value(db: &TestDb, name: &str) -> Option<String> {
    stored(db)
        .await
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
}

/// The lines of standard error that report the failure (`error: …`).
fn error_lines(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|l| l.starts_with("error:"))
        .map(str::to_owned)
        .collect()
}

/// The probe's case: an instance without `--webhook-allow-http` beside one that has it
/// picked up its deliveries and failed them. Now it refuses to start, naming the flag and
/// both values; with `--take-over-settings` it starts and its value is stored.
#[tokio::test]
async fn a_second_instance_with_another_webhook_policy_refuses_to_start_unless_it_takes_over() {
    let db = TestDb::new().await.unwrap();
    let database_url = url(&db);
    let base = [("DATABASE_URL", database_url.as_str())];
    let allowing = [
        ("DATABASE_URL", database_url.as_str()),
        ("CRM_WEBHOOK_ALLOW_HTTP", "true"),
    ];
    let first = serve(&[], &allowing, free_port(), Duration::from_secs(60));
    // The first instance on the empty database stored its values.
    assert_eq!(
        stored(&db).await,
        [
            ("company-name", "CRM"),
            ("link-ttl", "180"),
            ("mail-attach-einvoice", "none"),
            ("mail-attach-pdf", "false"),
            ("paper", "a4"),
            ("totals-policy", "crm"),
            ("webhook-allow-http", "true"),
            ("webhook-allow-private", "false"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned())),
        "no --public-url was given: its default is this process's own"
    );

    let listen = format!("127.0.0.1:{}", free_port());
    let refused = run_until_exit(
        &["serve", "--listen", &listen],
        &base,
        Duration::from_secs(60),
    )
    .expect("the second instance refused to start");
    assert_eq!(refused.status.code(), Some(1));
    let errors = error_lines(&refused);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("--webhook-allow-http is false here but true in the database"),
        "{errors:?}"
    );
    assert!(errors[0].contains("--take-over-settings"), "{errors:?}");
    assert_eq!(http(listen_port(&listen), "GET", "/healthz", None, "").0, 0);
    // `crm deliver` applies the same policy to the webhooks it sends: refused too.
    let deliver = crm(&["deliver", "--once"], &base);
    assert_eq!(deliver.status.code(), Some(1));
    assert!(
        error_lines(&deliver)
            .concat()
            .contains("--webhook-allow-http is false here but true in the database"),
        "{}",
        String::from_utf8_lossy(&deliver.stderr)
    );
    assert_eq!(
        stored_value(&db, "webhook-allow-http").await.as_deref(),
        Some("true"),
        "a refused start writes nothing"
    );

    // Told to take the setting over, it starts, and its value is the stored one.
    let port = free_port();
    let second = serve(
        &[],
        &[
            ("DATABASE_URL", database_url.as_str()),
            ("CRM_TAKE_OVER_SETTINGS", "true"),
        ],
        port,
        Duration::from_secs(60),
    );
    assert_eq!(
        stored_value(&db, "webhook-allow-http").await.as_deref(),
        Some("false")
    );
    // Now the first instance's value is the one refused.
    let refused = crm(&["deliver", "--once"], &allowing);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        error_lines(&refused)
            .concat()
            .contains("--webhook-allow-http is true here but false in the database"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    // An instance that agrees starts as before.
    let third = serve(&[], &base, free_port(), Duration::from_secs(60));
    assert_eq!(terminate(third), Some(0));
    assert_eq!(terminate(second), Some(0));
    assert_eq!(terminate(first), Some(0));
}

fn listen_port(listen: &str) -> u16 {
    listen.rsplit(':').next().unwrap().parse().unwrap()
}

/// A public URL is checked when it is given; an instance started without one uses the
/// stored one, so every record keeps one link whichever instance answers.
#[tokio::test]
async fn the_public_url_is_checked_when_given_and_read_from_the_database_when_not() {
    let db = TestDb::new().await.unwrap();
    let database_url = url(&db);
    let base = [("DATABASE_URL", database_url.as_str())];
    let key = stdout(&crm(&["keys", "create", "--name", "t"], &base));
    let seeded: serde_json::Value =
        serde_json::from_str(&stdout(&crm(&["seed", "--json"], &base))).unwrap();
    let invoice = seeded["invoices"][0].as_i64().unwrap();
    let public = [
        ("DATABASE_URL", database_url.as_str()),
        ("CRM_PUBLIC_URL", "https://crm.example.com/"),
    ];
    let first = serve(&[], &public, free_port(), Duration::from_secs(60));
    assert_eq!(
        stored_value(&db, "public-url").await.as_deref(),
        Some("https://crm.example.com")
    );
    let listen = format!("127.0.0.1:{}", free_port());
    let refused = run_until_exit(
        &[
            "serve",
            "--listen",
            &listen,
            "--public-url",
            "https://other.example.com",
        ],
        &base,
        Duration::from_secs(60),
    )
    .expect("refused");
    assert_eq!(refused.status.code(), Some(1));
    let errors = error_lines(&refused);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(
            "--public-url is https://other.example.com here but https://crm.example.com in the database"
        ),
        "{errors:?}"
    );

    let port = free_port();
    let second = serve(&[], &base, port, Duration::from_secs(60));
    let (status, body) = http(
        port,
        "POST",
        &format!("/api/invoices/{invoice}/link"),
        Some(&key),
        "",
    );
    assert_eq!(status, 201, "{body}");
    let record: serde_json::Value = serde_json::from_str(&body).unwrap();
    let link = record["data"]["client_link"]["url"].as_str().unwrap();
    assert!(link.starts_with("https://crm.example.com/c/"), "{link}");
    assert_eq!(terminate(second), Some(0));
    assert_eq!(terminate(first), Some(0));
}
