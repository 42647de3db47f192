//! Tests of the `crm` command itself: the built binary run as a user would run it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crm_store_pg::testing::TestDb;

mod audit;
mod outbox;
// The api tests' webhook receiver; this binary uses part of it.
#[allow(dead_code, unreachable_pub)]
#[path = "../api/receiver.rs"]
mod receiver;
mod settings;
mod webhooks;

const CRM: &str = env!("CARGO_BIN_EXE_crm");

/// The URL of a test database as the binary takes it.
fn url(db: &TestDb) -> String {
    db.config().database_url.clone()
}

fn crm(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(CRM);
    command
        .args(args)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("crm runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A running `crm serve`. A test that fails before [`terminate`] still stops it (SIGTERM,
/// so that a private cluster is stopped too; SIGKILL after 20 s): a server left running
/// would hold the test's output pipe and hang the run.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        if !matches!(self.0.try_wait(), Ok(None)) {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while matches!(self.0.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `crm serve` and waits until /healthz answers 200.
fn serve(args: &[&str], env: &[(&str, &str)], port: u16, patience: Duration) -> Server {
    let listen = format!("127.0.0.1:{port}");
    let mut command = Command::new(CRM);
    command
        .args(args)
        .args(["serve", "--listen", &listen])
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn");
    for (k, v) in env {
        command.env(k, v);
    }
    let mut server = Server(
        command
            .stdout(Stdio::null())
            .spawn()
            .expect("crm serve starts"),
    );
    let deadline = Instant::now() + patience;
    loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            panic!("crm serve exited early: {status}");
        }
        if http(port, "GET", "/healthz", None, "").0 == 200 {
            return server;
        }
        assert!(
            Instant::now() < deadline,
            "crm serve did not answer /healthz in time"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Stops a server with SIGTERM and returns its exit status code.
fn terminate(mut server: Server) -> Option<i32> {
    let status = Command::new("kill")
        .args(["-TERM", &server.0.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    server.0.wait().unwrap().code()
}

/// A minimal HTTP/1.1 client (blocking), enough for these tests: (status, body).
fn http(port: u16, method: &str, path: &str, key: Option<&str>, form: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return (0, String::new());
    };
    let auth = key
        .map(|k| format!("Authorization: Bearer {k}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
        form.len()
    );
    if stream.write_all(request.as_bytes()).is_err() {
        return (0, String::new());
    }
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    // A PDF's body is not UTF-8; the status line and JSON bodies are.
    let response = String::from_utf8_lossy(&bytes);
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("").to_owned();
    (status, body)
}

#[tokio::test]
async fn seed_prints_the_created_ids_by_kind_and_is_idempotent() {
    let db = TestDb::new().await.unwrap();
    let env = [("DATABASE_URL", url(&db))];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let first = crm(&["seed", "--json"], &env);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let ids: serde_json::Value = serde_json::from_str(&stdout(&first)).unwrap();
    for kind in [
        "users",
        "clients",
        "leads",
        "projects",
        "tasks",
        "tax_rates",
        "contract_templates",
    ] {
        assert!(
            ids[kind].as_array().is_some_and(|a| !a.is_empty()),
            "{kind} missing in {ids}"
        );
    }
    assert!(ids["clients"][0]["name"].is_string());
    assert!(ids["tasks"][0]["milestone_id"].is_number());
    assert!(ids["tax_rates"][0]["rate"].is_string());
    let second = crm(&["seed", "--json"], &env);
    assert_eq!(stdout(&second), stdout(&first));
}

#[tokio::test]
async fn keys_are_created_listed_and_revoked() {
    let db = TestDb::new().await.unwrap();
    let env = [("DATABASE_URL", url(&db))];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let created = crm(&["keys", "create", "--name", "laptop"], &env);
    assert!(created.status.success());
    let key = stdout(&created);
    let (id, secret) = key.strip_prefix("crm_").unwrap().split_once('_').unwrap();
    assert_eq!(secret.len(), 64);
    let listed = stdout(&crm(&["keys", "list"], &env));
    assert!(
        listed.contains("laptop") && listed.contains("active"),
        "{listed}"
    );
    assert!(!listed.contains(secret), "the secret is never shown again");
    assert!(crm(&["keys", "revoke", id], &env).status.success());
    assert!(stdout(&crm(&["keys", "list"], &env)).contains("revoked"));
    let again = crm(&["keys", "revoke", id], &env);
    assert_eq!(again.status.code(), Some(1));
    let for_team_member = crm(&["keys", "create", "--name", "x", "--user", "99"], &env);
    assert_eq!(for_team_member.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&for_team_member.stderr).trim(),
        "error: user 99 does not exist or is not an administrator"
    );
    let unnamed = crm(&["keys", "create", "--name", "  "], &env);
    assert_eq!(unnamed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unnamed.stderr).contains("--name must have 1 to 250"));
    for name in ["two\nlines", "tab\there", "\u{1b}[31mred"] {
        let refused = crm(&["keys", "create", "--name", name], &env);
        assert_eq!(refused.status.code(), Some(1), "{name:?}");
        assert_eq!(
            String::from_utf8_lossy(&refused.stderr).trim(),
            "error: --name must have 1 to 250 characters, none of them a control character",
            "{name:?}"
        );
    }
    let listed = stdout(&crm(&["keys", "list"], &env));
    assert!(
        !listed.contains("lines") && !listed.contains("red"),
        "{listed}"
    );
}

#[tokio::test]
async fn keys_are_made_with_scopes_and_an_expiry_and_list_them_with_their_last_use() {
    let db = TestDb::new().await.unwrap();
    let env = [("DATABASE_URL", url(&db))];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let made = crm(
        &[
            "keys",
            "create",
            "--name",
            "dashboard",
            "--scope",
            "read",
            "--expires-in",
            "90d",
        ],
        &env,
    );
    assert!(made.status.success());
    let read_only = stdout(&made);
    let told = String::from_utf8_lossy(&made.stderr);
    assert!(
        told.contains("with scopes read, until 20"),
        "the scopes and the expiry are said: {told}"
    );
    let made = crm(
        &[
            "keys",
            "create",
            "--name",
            "notes",
            "--scope",
            "notes:write,estimates:read",
        ],
        &env,
    );
    assert!(made.status.success());
    let everything = stdout(&crm(&["keys", "create", "--name", "all"], &env));
    for (args, what) in [
        (&["--scope", "admin"][..], "`admin` is not a scope"),
        (
            &["--scope", "notes:delete"],
            "`notes:delete` is not a scope",
        ),
        (&["--expires-in", "0d"], "`0d` is not a lifetime"),
        (&["--expires-in", "90"], "`90` is not a lifetime"),
    ] {
        let mut all = vec!["keys", "create", "--name", "bad"];
        all.extend(args);
        let refused = crm(&all, &env);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8_lossy(&refused.stderr);
        assert!(error.contains(what), "{args:?}: {error}");
    }
    let listed = stdout(&crm(&["keys", "list"], &env));
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 3, "{listed}");
    assert!(
        lines[0].contains("\tdashboard\t")
            && lines[0].contains("\tactive\tscopes read\texpires 20")
            && lines[0].ends_with("\tlast used never"),
        "{listed}"
    );
    let in_90_days = (chrono::Utc::now() + chrono::TimeDelta::days(90)).format("%Y-%m-%d");
    assert!(
        lines[0].contains(&format!("expires {in_90_days}T")),
        "{listed}"
    );
    assert!(
        lines[1].contains("\tscopes estimates:read,notes:write\texpires never\t"),
        "{listed}"
    );
    assert!(
        lines[2].contains("\tscopes write\texpires never\t"),
        "{listed}"
    );

    // Used through the service: the minute is written in batches, and when it stops.
    let port = free_port();
    let server = serve(&[], &env, port, Duration::from_secs(30));
    assert_eq!(http(port, "GET", "/api/notes", Some(&read_only), "").0, 200);
    let (status, body) = http(
        port,
        "POST",
        "/api/categories",
        Some(&read_only),
        "category_name=Refused&category_type=project",
    );
    assert_eq!(
        (status, body.as_str()),
        (
            403,
            r#"{"message":"This API key is not allowed to do this: it needs the categories:write scope (or write)."}"#
        )
    );
    let (status, _) = http(
        port,
        "POST",
        "/api/categories",
        Some(&everything),
        "category_name=Allowed&category_type=project",
    );
    assert_eq!(status, 201);
    let used = chrono::Utc::now();
    assert_eq!(terminate(server), Some(0));
    let listed = stdout(&crm(&["keys", "list"], &env));
    let lines: Vec<&str> = listed.lines().collect();
    let minute = |at: chrono::DateTime<chrono::Utc>| at.format("%Y-%m-%dT%H:%MZ").to_string();
    let before = minute(used - chrono::TimeDelta::minutes(1));
    for n in [0, 2] {
        assert!(
            lines[n].ends_with(&format!("\tlast used {}", minute(used)))
                || lines[n].ends_with(&format!("\tlast used {before}")),
            "{listed}"
        );
    }
    assert!(lines[1].ends_with("\tlast used never"), "{listed}");
}

#[tokio::test]
async fn even_the_most_verbose_log_never_shows_statement_parameters() {
    let db = TestDb::new().await.unwrap();
    let url = url(&db);
    let created = crm(
        &["keys", "create", "--name", "verbose"],
        &[("DATABASE_URL", &url), ("RUST_LOG", "trace")],
    );
    assert!(created.status.success());
    let log = String::from_utf8_lossy(&created.stderr);
    assert!(
        log.contains("preparing query"),
        "the driver's debug log is on: {log}"
    );
    assert!(!log.contains("with parameters"), "{log}");
    // Asking for the statement log by name does not bring it back either.
    let created = crm(
        &["keys", "create", "--name", "verbose"],
        &[
            ("DATABASE_URL", &url),
            ("RUST_LOG", "tokio_postgres::query=trace"),
        ],
    );
    assert!(created.status.success());
    assert!(!String::from_utf8_lossy(&created.stderr).contains("with parameters"));
}

#[tokio::test]
async fn today_is_the_date_in_the_servers_time_zone() {
    use chrono::{FixedOffset, Utc};
    let db = TestDb::new().await.unwrap();
    let url = url(&db);
    let env = [("DATABASE_URL", url.as_str())];
    let ids: serde_json::Value =
        serde_json::from_str(&stdout(&crm(&["seed", "--json"], &env))).unwrap();
    let key = stdout(&crm(&["keys", "create", "--name", "tz"], &env));
    let client = ids["clients"][0]["id"].as_i64().unwrap();
    let category: i64 = db
        .client()
        .await
        .unwrap()
        .query_one(
            "SELECT id FROM categories WHERE type = 'estimate' AND system_default",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    // Today at UTC-12 is always at least a day before today at UTC+14 (26 hours apart):
    // an estimate expiring on the former has expired for a server at UTC+14 and not yet
    // for one at UTC-12.
    let expiry = Utc::now()
        .with_timezone(&FixedOffset::west_opt(12 * 3600).unwrap())
        .date_naive();
    let day_before = expiry.pred_opt().unwrap();
    let west = free_port();
    let west_server = serve(
        &[],
        &[("DATABASE_URL", &url), ("TZ", "UTC+12")],
        west,
        Duration::from_secs(30),
    );
    let (status, body) = http(
        west,
        "POST",
        "/api/estimates",
        Some(&key),
        &format!(
            "bill_clientid={client}&bill_categoryid={category}&bill_date={day_before}&bill_expiry_date={expiry}"
        ),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["data"]["id"]
        .as_i64()
        .unwrap();
    let (status, body) = http(
        west,
        "PUT",
        &format!("/api/estimates/{id}/publish"),
        Some(&key),
        "",
    );
    assert_eq!(status, 200, "{body}");
    let shown = |port: u16| {
        let (_, body) = http(port, "GET", &format!("/api/estimates/{id}"), Some(&key), "");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()["data"]["status"].clone()
    };
    assert_eq!(shown(west), "new");
    let east = free_port();
    let east_server = serve(
        &[],
        &[("DATABASE_URL", &url), ("TZ", "UTC-14")],
        east,
        Duration::from_secs(30),
    );
    assert_eq!(shown(east), "expired");
    assert_eq!(terminate(west_server), Some(0));
    assert_eq!(terminate(east_server), Some(0));
}

#[tokio::test]
async fn serve_answers_and_exits_zero_on_sigterm() {
    let db = TestDb::new().await.unwrap();
    let env = [("DATABASE_URL", url(&db))];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let key = stdout(&crm(&["keys", "create", "--name", "t"], &env));
    let port = free_port();
    let server = serve(&[], &env, port, Duration::from_secs(30));
    let (status, body) = http(
        port,
        "POST",
        "/api/categories",
        Some(&key),
        "category_name=Served&category_type=project",
    );
    assert_eq!(status, 201, "{body}");
    assert_eq!(terminate(server), Some(0));
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crm-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn socket_exists(data_dir: &Path) -> bool {
    data_dir.join(".s.PGSQL.5432").exists()
}

#[test]
fn with_no_database_configured_serve_runs_a_private_cluster_that_keeps_its_data() {
    let dir = scratch_dir("zero-config");
    let data = dir.join("pgdata");
    let data_arg = data.display().to_string();
    let flags = ["--local-postgres", "--data-dir", data_arg.as_str()];
    let port = free_port();

    // First start: initdb, start, create the database, migrate, serve.
    let server = serve(&flags, &[], port, Duration::from_secs(120));
    assert!(
        socket_exists(&data),
        "the cluster listens on a socket in its data folder"
    );
    let mut args = flags.to_vec();
    args.extend(["keys", "create", "--name", "zero"]);
    let created = crm(&args, &[]);
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let key = stdout(&created);
    let (status, body) = http(
        port,
        "POST",
        "/api/notes",
        Some(&key),
        "note_title=Kept&note_description=Across+restarts",
    );
    assert_eq!(status, 201, "{body}");
    let note: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = note["data"]["id"].as_i64().unwrap();
    assert_eq!(terminate(server), Some(0));
    assert!(
        !socket_exists(&data),
        "the cluster is stopped with the server"
    );

    // Second start: the same cluster, the same data.
    let server = serve(&flags, &[], port, Duration::from_secs(120));
    let (status, body) = http(port, "GET", &format!("/api/notes/{id}"), Some(&key), "");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("Kept"));
    assert_eq!(terminate(server), Some(0));
    assert!(!socket_exists(&data));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Where no PostgreSQL binaries exist at all (PATH and the version folders emptied for the
/// test), `crm serve` fails at once with one sentence: what to install, and how to point at
/// a server instead.
#[test]
fn without_postgres_binaries_serve_says_what_to_install() {
    let empty = scratch_dir("no-pg-binaries");
    let empty_arg = empty.display().to_string();
    let listen = format!("127.0.0.1:{}", free_port());
    let output = crm(
        &[
            "serve",
            "--local-postgres",
            "--data-dir",
            &empty_arg,
            "--listen",
            &listen,
        ],
        &[
            ("PATH", empty_arg.as_str()),
            ("CRM_PG_VERSIONS_ROOT", empty_arg.as_str()),
        ],
    );
    let _ = std::fs::remove_dir_all(&empty);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let error = String::from_utf8_lossy(&output.stderr);
    let advice = "no PostgreSQL binaries (initdb, pg_ctl) were found on PATH or under";
    assert_eq!(error.matches(advice).count(), 1, "{error}");
    assert!(
        error.contains(
            "install PostgreSQL 13 or later (Debian: apt-get install postgresql), running or \
             not, or set DATABASE_URL to the URL of a running server"
        ),
        "{error}"
    );
    assert_eq!(error.trim().lines().count(), 1, "{error}");
}

#[test]
fn help_never_shows_the_database_password_and_lists_every_variable() {
    let url = "postgres://app:s3cr3t@127.0.0.1:1/crm";
    for args in [
        &["--help"][..],
        &["-h"],
        &["serve", "--help"],
        &["keys", "create", "--help"],
    ] {
        let output = crm(args, &[("DATABASE_URL", url)]);
        assert!(output.status.success(), "{args:?}");
        let help = String::from_utf8_lossy(&output.stdout);
        assert!(
            !help.contains("s3cr3t"),
            "{args:?} shows the password:\n{help}"
        );
        assert!(help.contains("DATABASE_URL"), "{help}");
    }
    let help = stdout(&crm(&["serve", "--help"], &[]));
    for variable in [
        "DATABASE_URL",
        "CRM_PGDATA",
        "CRM_LISTEN",
        "CRM_POOL_SIZE",
        "CRM_READERS",
        "CRM_CORS_ORIGINS",
        "CRM_METRICS_LISTEN",
        "CRM_BODY_TIMEOUT",
        "CRM_MAX_CONNECTIONS",
        "CRM_MAX_IN_FLIGHT_PER_KEY",
        "RUST_LOG",
        "TZ",
    ] {
        assert!(help.contains(variable), "{variable} missing:\n{help}");
    }
    for flag in [
        "--body-timeout",
        "--max-connections",
        "--max-in-flight-per-key",
    ] {
        assert!(help.contains(flag), "{flag} missing:\n{help}");
    }
    assert!(help.contains("--pool-size") && help.contains("--readers"));
    // The pool flags belong to `serve` alone.
    for args in [
        &["--help"][..],
        &["seed", "--help"],
        &["keys", "list", "--help"],
    ] {
        let help = stdout(&crm(args, &[]));
        assert!(
            !help.contains("--pool-size") && !help.contains("--readers"),
            "{args:?}:\n{help}"
        );
    }
}

#[test]
fn a_malformed_cors_origin_stops_serve_before_it_touches_a_database() {
    // Port 1 answers nothing: reaching for the database would be a different error.
    for (args, env) in [
        (
            &["serve", "--cors-origin", "https://app.example.com/"][..],
            &[][..],
        ),
        (
            &["serve"][..],
            &[("CRM_CORS_ORIGINS", "https://a.example,ftp://x")][..],
        ),
    ] {
        let mut env = env.to_vec();
        env.push(("DATABASE_URL", "postgres://postgres@127.0.0.1:1/crm"));
        let output = crm(args, &env);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains("invalid CORS origin"), "{error}");
        assert!(!error.contains("database"), "{error}");
    }
}

#[test]
fn a_malformed_rate_limit_stops_serve_before_it_touches_a_database() {
    for (args, env) in [
        (&["serve", "--rate-limit", "10/h"][..], &[][..]),
        (&["serve", "--rate-limit", "0/s"][..], &[][..]),
        (&["serve"][..], &[("CRM_RATE_LIMIT", "lots")][..]),
    ] {
        let mut env = env.to_vec();
        env.push(("DATABASE_URL", "postgres://postgres@127.0.0.1:1/crm"));
        let output = crm(args, &env);
        assert_eq!(output.status.code(), Some(2), "{args:?} {env:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains("N/s or N/min"), "{error}");
        assert!(!error.contains("database"), "{error}");
    }
}

#[test]
fn serve_refuses_sizes_out_of_range_before_it_touches_a_database() {
    for (args, env, range) in [
        (&["serve", "--pool-size", "0"][..], &[][..], "1..=1000"),
        (&["serve"][..], &[("CRM_POOL_SIZE", "1001")][..], "1..=1000"),
        (&["serve", "--readers", "0"][..], &[][..], "1..=64"),
        (&["serve"][..], &[("CRM_READERS", "65")][..], "1..=64"),
        (
            &["serve", "--max-connections", "0"][..],
            &[][..],
            "1..=1000000",
        ),
        (
            &["serve", "--max-in-flight-per-key", "0"][..],
            &[][..],
            "1..=100000",
        ),
    ] {
        // clap names the flag; the tip names the variable when the value came from one.
        let tip = env
            .first()
            .map(|(variable, _)| format!("came from the environment variable {variable}"));
        let mut env = env.to_vec();
        env.push(("DATABASE_URL", "postgres://postgres@127.0.0.1:1/crm"));
        let output = crm(args, &env);
        assert_eq!(output.status.code(), Some(2), "{args:?} {env:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(&format!("is not in {range}")), "{error}");
        assert!(!error.contains("database"), "{error}");
        match tip {
            Some(tip) => assert!(error.contains(&tip), "{error}"),
            None => assert!(!error.contains("environment variable"), "{error}"),
        }
    }
    // A flag on the command line wins over its variable, and is the one named.
    let output = crm(
        &["serve", "--readers=0"],
        &[
            ("CRM_READERS", "2"),
            ("DATABASE_URL", "postgres://postgres@127.0.0.1:1/crm"),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("'0' for '--readers"), "{error}");
    assert!(!error.contains("environment variable"), "{error}");
}

#[test]
fn a_conflict_with_a_flag_set_by_the_environment_names_the_variable() {
    let output = crm(
        &["--local-postgres", "migrate"],
        &[("DATABASE_URL", "postgres://postgres@127.0.0.1:1/crm")],
    );
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("'--local-postgres' cannot be used with"),
        "{error}"
    );
    assert!(
        error.contains("tip: --database-url came from the environment variable DATABASE_URL"),
        "{error}"
    );
}

#[test]
fn errors_about_the_database_never_show_its_password() {
    for url in [
        // Nothing listens on port 1: a connection error.
        "postgres://app:s3cr3t@127.0.0.1:1/crm",
        // Not a valid URL: a parse error.
        "postgres://app:s3cr3t@127.0.0.1:notaport/crm",
        "host=127.0.0.1 port=1 user=app password=s3cr3t dbname=crm",
    ] {
        let output = crm(
            &["migrate"],
            &[("DATABASE_URL", url), ("RUST_LOG", "debug")],
        );
        assert_eq!(output.status.code(), Some(1), "{url}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("error:"), "{stderr}");
        assert!(!stderr.contains("s3cr3t"), "{url}: {stderr}");
    }
}

#[test]
fn a_malformed_database_url_is_named_as_such_not_as_an_internal_fault() {
    for (url, option) in [
        ("postgres://app:s3cr3t@127.0.0.1:notaport/crm", "port"),
        (
            "postgres://app:s3cr3t@127.0.0.1/crm?sslmode=sometimes",
            "sslmode",
        ),
        // An unquoted password with a space: its second word reads as an option's name.
        (
            "host=127.0.0.1 user=app password=pass s3cr3t=x",
            "unknown option",
        ),
    ] {
        let output = crm(&["migrate"], &[("DATABASE_URL", url)]);
        assert_eq!(output.status.code(), Some(1), "{url}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("error: invalid database URL"), "{stderr}");
        assert!(stderr.contains(option), "{url}: {stderr}");
        assert!(!stderr.contains("internal"), "{stderr}");
        assert!(!stderr.contains("s3cr3t"), "{url}: {stderr}");
    }
}

/// `crm local-postgres status` for a data folder.
fn cluster_status(data: &Path) -> String {
    let data = data.display().to_string();
    let output = crm(&["local-postgres", "status", "--data-dir", &data], &[]);
    assert!(output.status.success());
    stdout(&output)
}

#[test]
fn local_postgres_reads_only_the_data_folder() {
    let dir = scratch_dir("local-flags");
    let data = dir.join("pgdata").display().to_string();
    // Its help does not offer the flags that choose a server, and it refuses them.
    let help = crm(&["local-postgres", "status", "--help"], &[]);
    assert!(help.status.success());
    let help = stdout(&help);
    assert!(help.contains("--data-dir"), "{help}");
    assert!(
        !help.contains("--database-url") && !help.contains("--local-postgres"),
        "{help}"
    );
    for args in [
        &[
            "local-postgres",
            "status",
            "--local-postgres",
            "--data-dir",
            &data,
        ][..],
        &[
            "--database-url",
            "postgres://postgres@127.0.0.1:1/x",
            "local-postgres",
            "stop",
            "--data-dir",
            &data,
        ],
    ] {
        let refused = crm(args, &[]);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8_lossy(&refused.stderr);
        assert!(
            error.contains("does not apply to local-postgres"),
            "{error}"
        );
    }
    // A DATABASE_URL meant for the other commands does not get in its way.
    let output = crm(
        &["local-postgres", "status", "--data-dir", &data],
        &[("DATABASE_URL", "postgres://postgres@127.0.0.1:1/x")],
    );
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).contains("no private cluster"), "{output:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Kills a server with SIGKILL, as a crash or the OOM killer would.
fn kill_hard(mut server: Server) {
    server.0.kill().unwrap();
    server.0.wait().unwrap();
}

#[test]
fn a_private_cluster_left_by_a_killed_server_is_adopted_or_stopped() {
    let dir = scratch_dir("orphan");
    let data = dir.join("pgdata");
    let data_arg = data.display().to_string();
    let flags = ["--local-postgres", "--data-dir", data_arg.as_str()];
    let port = free_port();

    assert!(cluster_status(&data).contains("no private cluster"));
    let server = serve(&flags, &[], port, Duration::from_secs(120));
    let pid = server.0.id();
    assert!(
        cluster_status(&data).contains(&format!("owned by crm process {pid}")),
        "{}",
        cluster_status(&data)
    );
    // A live owner's cluster is not stopped from outside.
    let refused = crm(&["local-postgres", "stop", "--data-dir", &data_arg], &[]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains(&format!("crm process {pid}")),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    assert!(socket_exists(&data));

    // Killed: the cluster runs on, owned by nobody.
    kill_hard(server);
    assert!(socket_exists(&data));
    assert!(cluster_status(&data).contains("owned by no crm process"));

    // The next server adopts it, and stops it when it is stopped.
    let server = serve(&flags, &[], port, Duration::from_secs(120));
    assert!(cluster_status(&data).contains(&format!("owned by crm process {}", server.0.id())));
    // A short command beside it reuses the cluster and leaves it running.
    let mut args = flags.to_vec();
    args.push("migrate");
    assert!(crm(&args, &[]).status.success());
    assert_eq!(http(port, "GET", "/healthz", None, "").0, 200);
    assert_eq!(terminate(server), Some(0));
    assert!(!socket_exists(&data), "the adopted cluster is stopped");
    assert!(cluster_status(&data).contains("not running"));

    // Killed again: `crm local-postgres stop` stops the orphan.
    let server = serve(&flags, &[], port, Duration::from_secs(120));
    kill_hard(server);
    assert!(socket_exists(&data));
    let stopped = crm(&["local-postgres", "stop", "--data-dir", &data_arg], &[]);
    assert!(stopped.status.success());
    assert!(
        stdout(&stopped).ends_with("stopped"),
        "{}",
        stdout(&stopped)
    );
    assert!(!socket_exists(&data));
    assert!(cluster_status(&data).contains("not running"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The first ```sh block after the README's "## A walkthrough with curl" heading.
fn readme_walkthrough() -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    let section = readme
        .split_once("## A walkthrough with curl")
        .expect("the README has its walkthrough")
        .1;
    let block = section.split_once("```sh\n").expect("a sh block").1;
    block
        .split_once("\n```")
        .expect("a closed block")
        .0
        .to_owned()
}

/// Runs the README's walkthrough as a user would: in a clone of the repository, with the
/// `crm` on PATH (as `cargo install` leaves it), without `CRM` or `RUST_LOG`, with
/// `CARGO_TARGET_DIR` set elsewhere; `db` is the user's `DATABASE_URL`. Returns the
/// exit code, standard output and standard error.
fn walkthrough(
    block: &str,
    clone: &Path,
    port: &str,
    database: &str,
) -> (Option<i32>, String, String) {
    let bin = Path::new(CRM).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("bash")
        .args(["-c", block])
        .current_dir(clone)
        .env_remove("CRM")
        .env_remove("RUST_LOG")
        .env("CARGO_TARGET_DIR", clone.join("elsewhere"))
        .env("PATH", path)
        .env("PORT", port)
        .env("DATABASE_URL", database)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

/// A fresh clone of this repository's committed state.
fn clone_of_the_repository(name: &str) -> PathBuf {
    let dir = scratch_dir(name);
    let clone = dir.join("crm");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let status = Command::new("git")
        .args(["clone", "-q", "--no-hardlinks"])
        .arg(&root)
        .arg(&clone)
        .status()
        .unwrap();
    assert!(status.success(), "git clone of {}", root.display());
    clone
}

#[tokio::test]
async fn the_readme_walkthrough_runs_as_written() {
    let block = readme_walkthrough();
    let db = TestDb::new().await.unwrap();
    let clone = clone_of_the_repository("walkthrough");
    let port = free_port().to_string();
    let run = || {
        let (code, stdout, stderr) = walkthrough(&block, &clone, &port, &url(&db));
        assert_eq!(code, Some(0), "{stdout}\n{stderr}");
        // The service's log is in its file, not in what the user reads.
        assert_eq!(stderr, "", "{stdout}");
        assert!(
            !stdout.contains(" INFO ") && !stdout.contains(" WARN "),
            "{stdout}"
        );
        assert_eq!(
            http(port.parse().unwrap(), "GET", "/healthz", None, "").0,
            0,
            "the walkthrough stops its server"
        );
        stdout
    };
    for attempt in 0..2 {
        // Twice on the same database: nothing in it depends on a brand-new one.
        let stdout = run();
        assert!(
            stdout.contains("'final_amount': '2637.34'")
                && stdout.contains("'tax_total_amount': '439.56'")
                && stdout.contains("publish: 200")
                && stdout.contains("the client's page: 200 text/html; charset=utf-8\n")
                && stdout.contains("its PDF: 200 application/pdf\n")
                && stdout.contains("converted: invoice ")
                && stdout.contains("invoice: Draft ")
                && stdout.contains(" 2637.34\n")
                && stdout.contains(&format!(
                    "invoice issued: Due INV-{}-0000",
                    chrono::Utc::now().format("%Y")
                ))
                && stdout.contains(
                    "{\"message\":\"An issued invoice cannot be changed. Issue a credit note instead.\"} 409\n"
                )
                && stdout.contains("payment of 2637.34: 201\n")
                && stdout.contains("invoice: Paid 2637.34 0.00\n")
                && stdout.contains(&format!(
                    "credit note: CN-{}-0000",
                    chrono::Utc::now().format("%Y")
                ))
                && stdout.contains(" 100.00 0.00 100.00\n")
                && stdout.contains("invoice: Paid 100.00 0.00\n")
                && stdout.contains("invoice e-invoice: False BT-131 line_items.0.total\n")
                && stdout.contains("credit note e-invoice: 200 application/xml\n"),
            "run {attempt}: {stdout}"
        );
        // The retry was answered from the stored answer, and the second editor was told.
        assert_eq!(
            stdout.matches("HTTP/1.1 201 Created").count(),
            2,
            "{stdout}"
        );
        assert_eq!(
            stdout.matches("idempotent-replayed: true").count(),
            1,
            "{stdout}"
        );
        assert!(
            stdout.contains("PATCH as Mine: 200\nPATCH as Theirs: 412\n"),
            "run {attempt}: {stdout}"
        );
        assert!(
            stdout.contains("read-only GET: 200\n")
                && stdout.contains(
                    "{\"message\":\"This API key is not allowed to do this: it needs the notes:write scope (or write).\"} 403\n"
                ),
            "run {attempt}: {stdout}"
        );
        assert_eq!(stdout.matches(" revoked").count(), 2, "{stdout}");
        let estimate = stdout
            .lines()
            .find_map(|l| l.strip_prefix("estimate "))
            .unwrap();
        assert_eq!(estimate, (attempt + 1).to_string(), "{stdout}");
    }
    let log = std::fs::read_to_string(clone.join(".crm/walkthrough.log")).unwrap();
    assert!(log.contains("listening"), "{log}");
}

#[tokio::test]
async fn the_walkthrough_refuses_a_service_it_did_not_start_and_stops_at_a_failure_in_one_line() {
    let block = readme_walkthrough();
    let db = TestDb::new().await.unwrap();
    let clone = clone_of_the_repository("walkthrough-refusals");
    let port = free_port();
    // Another service on its port: the walkthrough says so and creates nothing there.
    let other = serve(
        &[],
        &[("DATABASE_URL", &url(&db))],
        port,
        Duration::from_secs(60),
    );
    let categories = || {
        let key = stdout(&crm(
            &["keys", "create", "--name", "count"],
            &[("DATABASE_URL", &url(&db))],
        ));
        let (_, body) = http(port, "GET", "/api/categories", Some(&key), "");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()["meta"]["total"].clone()
    };
    let before = categories();
    let (code, out, err) = walkthrough(&block, &clone, &port.to_string(), &url(&db));
    assert_eq!(code, Some(3), "{out}\n{err}");
    assert_eq!(
        err,
        format!("walkthrough stopped: something already answers on port {port} (set PORT)\n")
    );
    assert_eq!(
        categories(),
        before,
        "nothing was created through the other service"
    );
    assert_eq!(terminate(other), Some(0));

    // A database that cannot be reached: the first failing step's one line, nothing else.
    let (code, out, err) = walkthrough(
        &block,
        &clone,
        &free_port().to_string(),
        "postgres://postgres@127.0.0.1:1/crm",
    );
    assert_ne!(code, Some(0));
    assert_eq!(out, "");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("127.0.0.1:1"),
        "{err}"
    );
}

/// The paths `docs/ARCHITECTURE.md` names (in backticks: a crate folder and a file or folder
/// below it), except those with a placeholder (`<area>`, `NNNN`).
fn architecture_paths() -> Vec<String> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let text = std::fs::read_to_string(format!("{root}/docs/ARCHITECTURE.md")).unwrap();
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            ["crm-core/", "crm-render/", "crm-store-pg/", "crm-http/"]
                .iter()
                .any(|c| span.starts_with(c))
                && !span.contains(['<', ' '])
                && !span.contains("NNNN")
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_architecture_recipe_names_files_that_exist() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let paths = architecture_paths();
    assert!(paths.len() >= 15, "{paths:?}");
    let missing: Vec<&String> = paths
        .iter()
        .filter(|p| !Path::new(root).join(p.as_str()).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

/// The access log names a client page by its template, `/c/{token}`: a link's token (the
/// client's only credential) never reaches the log, at the default level or at the most
/// verbose one.
#[tokio::test]
async fn no_client_link_token_reaches_the_log() {
    for level in ["info", "trace"] {
        let db = TestDb::new().await.unwrap();
        let url = url(&db);
        let env = [("DATABASE_URL", url.as_str())];
        let seeded: serde_json::Value =
            serde_json::from_str(&stdout(&crm(&["seed", "--json"], &env))).unwrap();
        let client = seeded["clients"][0]["id"].as_i64().unwrap();
        let key = stdout(&crm(&["keys", "create", "--name", "log"], &env));
        let port = free_port();
        let log_path = scratch_dir(&format!("token-log-{level}")).join("serve.log");
        let log = std::fs::File::create(&log_path).unwrap();
        let server = Server(
            Command::new(CRM)
                .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
                .env("DATABASE_URL", &url)
                .env("RUST_LOG", level)
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .unwrap(),
        );
        let deadline = Instant::now() + Duration::from_secs(60);
        while http(port, "GET", "/healthz", None, "").0 != 200 {
            assert!(Instant::now() < deadline, "crm serve did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        let (_, categories) = http(port, "GET", "/api/categories?type=estimate", Some(&key), "");
        let categories: serde_json::Value = serde_json::from_str(&categories).unwrap();
        let category = categories["data"][0]["id"].as_i64().unwrap();
        let (status, created) = http(
            port,
            "POST",
            "/api/estimates",
            Some(&key),
            &format!(
                "bill_clientid={client}&bill_categoryid={category}&bill_date=2026-06-15&bill_expiry_date=2099-01-01"
            ),
        );
        assert_eq!(status, 201, "{created}");
        let id = serde_json::from_str::<serde_json::Value>(&created).unwrap()["data"]["id"]
            .as_i64()
            .unwrap();
        let (status, published) = http(
            port,
            "PUT",
            &format!("/api/estimates/{id}/publish"),
            Some(&key),
            "",
        );
        assert_eq!(status, 200, "{published}");
        let published: serde_json::Value = serde_json::from_str(&published).unwrap();
        let link = published["data"]["client_link"]["url"].as_str().unwrap();
        let token = link.rsplit_once("/c/").unwrap().1.to_owned();
        let (status, page) = http(port, "GET", &format!("/c/{token}"), None, "");
        assert_eq!(status, 200);
        // The form sends the version of the offer the page showed (API.md §18).
        let version = page
            .split_once("name=\"version\" value=\"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(v, _)| v.to_owned())
            .expect("the page's decision form");
        assert_eq!(
            http(port, "GET", &format!("/c/{token}/pdf"), None, "").0,
            200
        );
        assert_eq!(
            http(
                port,
                "POST",
                &format!("/c/{token}/accept"),
                None,
                &format!("version={version}")
            )
            .0,
            303
        );
        assert_eq!(terminate(server), Some(0));
        let text = std::fs::read_to_string(&log_path).unwrap();
        assert!(
            text.contains("/c/{token}"),
            "{level}: the template is logged:\n{text}"
        );
        assert!(!text.contains(&token), "{level}: the token reached the log");
        if let Some(dir) = log_path.parent() {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
}

#[tokio::test]
async fn only_serve_and_migrate_create_a_database_and_the_others_name_the_missing_one() {
    let db = TestDb::new().await.unwrap();
    let url = url(&db);
    let config = db.config().pg_config().unwrap();
    let name = config.get_dbname().unwrap().to_owned();
    let typo = format!("{name}_typo");
    // The URL is key-value settings (`dbname='…'`) or a postgres:// URL (`/…`).
    let mistyped = url
        .replacen(&format!("'{name}'"), &format!("'{typo}'"), 1)
        .replacen(&format!("/{name}"), &format!("/{typo}"), 1);
    assert_ne!(mistyped, url, "the test database's URL names it: {url}");
    for args in [&["keys", "list"][..], &["seed"], &["deliver", "--once"]] {
        let out = crm(args, &[("DATABASE_URL", &mistyped)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("database \"{typo}\" does not exist at "))
                && stderr.contains("only `crm migrate` and `crm serve` create a database"),
            "{args:?}: {stderr}"
        );
    }
    let created = db
        .client()
        .await
        .unwrap()
        .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&typo])
        .await
        .unwrap();
    assert!(created.is_none(), "no database was created");

    // A URL with one slash, and an unreachable server while creating: each names what was
    // wrong and the URL's own database.
    let out = crm(&["migrate"], &[("DATABASE_URL", "postgres:/127.0.0.1/crm")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("starts with postgres: but not postgres:// (two slashes)"),
        "{stderr}"
    );
    let out = crm(
        &["migrate"],
        &[("DATABASE_URL", "postgres://postgres@127.0.0.1:1/crm_orders")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("database crm_orders") && !stderr.contains("database postgres"),
        "{stderr}"
    );
}

#[tokio::test]
async fn serve_logs_its_database_and_why_and_warns_of_each_demo_default() {
    let db = TestDb::new().await.unwrap();
    let name = db
        .config()
        .pg_config()
        .unwrap()
        .get_dbname()
        .unwrap()
        .to_owned();
    let dir = scratch_dir("serve-log");
    let start = |extra: &[&str], log: &str| {
        let port = free_port();
        let file = std::fs::File::create(dir.join(log)).unwrap();
        let server = Server(
            Command::new(CRM)
                .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
                .args(extra)
                .env("DATABASE_URL", url(&db))
                .env_remove("RUST_LOG")
                .stdout(Stdio::null())
                .stderr(file)
                .spawn()
                .unwrap(),
        );
        while http(port, "GET", "/healthz", None, "").0 != 200 {
            std::thread::sleep(Duration::from_millis(100));
        }
        assert_eq!(terminate(server), Some(0));
        std::fs::read_to_string(dir.join(log)).unwrap()
    };
    let log = start(&[], "defaults.log");
    assert!(
        log.contains(&format!(
            "database {name}): given by --database-url / DATABASE_URL"
        )),
        "{log}"
    );
    for flag in ["--public-url", "--company-name", "--mail-from"] {
        assert_eq!(
            log.lines()
                .filter(|l| l.contains(" WARN ") && l.contains(flag))
                .count(),
            1,
            "{flag}: {log}"
        );
    }
    let log = start(
        &[
            "--public-url",
            "https://crm.acme.example",
            "--company-name",
            "Acme Co",
            "--mail-from",
            "Acme Billing <billing@acme.example>",
            "--take-over-settings",
        ],
        "configured.log",
    );
    for flag in ["--public-url", "--company-name", "--mail-from"] {
        assert!(!log.contains(&format!("set {flag}")), "{flag}: {log}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn serve_refuses_an_unknown_totals_policy_before_any_database_work() {
    for (args, env) in [
        (vec!["serve", "--totals-policy", "fast"], vec![]),
        (vec!["serve"], vec![("CRM_TOTALS_POLICY", "half-even")]),
    ] {
        let out = crm(&args, &env);
        assert!(!out.status.success(), "{args:?} {env:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--totals-policy") && err.contains("crm or exact"),
            "{err}"
        );
    }
}
