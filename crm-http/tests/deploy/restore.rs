//! Backups that restore (docs/deploy.md step 7): a `pg_dump -Fc` taken while writers run,
//! restored with `pg_restore --no-owner --role=crm` into a fresh cluster (`initdb` on a
//! free port, from the programs of the test server's major version), and `crm serve`
//! started on it without `crm migrate`.
//!
//! The old instance delivers for real, to an SMTP server (mailin-embedded) and a webhook
//! receiver (hyper) the test starts; the restored one sends to the same two, as a new
//! machine would after a restore. What is checked:
//!
//! - every write acknowledged (2xx) before the dump started is in the copy, read back
//!   through the restored service with the old key; every record of the copy is one the
//!   writers were answered for;
//! - the series continue: a client, estimate, invoice and payment made after the restore
//!   get ids above every restored one, and the new invoice the next number of its series
//!   in the copy (the copy's numbers, 1..n without a gap, and n + 1);
//! - the outbox: whatever the copy holds as sent (email) or delivered (webhook) is not sent
//!   again; whatever it holds as pending (or not yet fanned out) is sent once by the restored
//!   service. So each message arrives exactly (sent by the old instance) + (sent by the
//!   restored one) − (sent in the copy) times, and every message that arrives twice (one the
//!   old instance sent after the dump started) carries one Message-ID or `webhook-id`: an
//!   event the copy holds gets the `webhook-id` the old database gave it, whether the copy
//!   had fanned it out or not.
//!
//! The copy's leases (messages on the network when the dump started) are made to have
//! passed, as for a restore made two minutes later, rather than waited for.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crm_store_pg::testing::TestDb;
use mailin_embedded::{Handler, Response, response};
use serde_json::{Value, json};
use tokio::process::Command;

use super::receiver::Receiver;
use super::{CRM, Running, root, scratch};

/// The public address both instances are given (a shared setting: the restored instance
/// runs with the same environment file as the old one).
const PUBLIC_URL: &str = "https://crm.example.test";

/// Writers running at once against the old instance.
const WRITERS: usize = 4;

/// Writes acknowledged before the dump starts, and again after it ended.
const WRITES_AROUND_THE_DUMP: usize = 56;

/// How long an outbox may take to empty: an email the copy holds uncomposed (its write
/// committed, its message not yet written when the dump started) is composed by the
/// restored service's upkeep 30 s after it was queued, at its next 10 s round.
const OUTBOX_PATIENCE: Duration = Duration::from_secs(120);

// ---------------------------------------------------------------------------------------
// The programs of PostgreSQL, and a fresh cluster.

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// `program` run as the postgres user when the test runs as root (initdb and postgres
/// refuse root), else as the test's user.
fn as_postgres(program: &Path) -> Command {
    if is_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

/// Runs `command`, asserting that it succeeds without a word on standard error (a
/// warning of pg_dump or pg_restore is a finding too).
async fn checked(what: &str, command: &mut Command) {
    let out = command
        .stdin(Stdio::null())
        .output()
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{what}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Debian's programs of PostgreSQL `major` (the test server's version: `pg_dump` must be
/// at least the server's, and the fresh cluster runs what the dump came from), installed
/// by `scripts/install-cluster-tools` when missing.
async fn programs(major: u32) -> PathBuf {
    let bin = PathBuf::from(format!("/usr/lib/postgresql/{major}/bin"));
    let complete = |bin: &Path| {
        [
            "initdb",
            "pg_ctl",
            "pg_dump",
            "pg_restore",
            "createdb",
            "psql",
        ]
        .iter()
        .all(|p| bin.join(p).exists())
    };
    if !complete(&bin) {
        checked(
            "scripts/install-cluster-tools",
            &mut Command::new(root().join("scripts/install-cluster-tools")),
        )
        .await;
    }
    assert!(
        complete(&bin),
        "PostgreSQL {major}'s programs are not in {} (the test server's major version; \
         scripts/install-cluster-tools installs Debian's)",
        bin.display()
    );
    bin
}

/// A cluster made by `initdb` in `dir`, listening on 127.0.0.1:`port`; stopped and its data
/// folder removed when dropped.
struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
}

impl Cluster {
    async fn start(bin: &Path, dir: &Path) -> Cluster {
        if is_root() {
            checked(
                "chown",
                Command::new("chown").arg("postgres:postgres").arg(dir),
            )
            .await;
        }
        let data = dir.join("data");
        let port = super::free_port();
        checked(
            "initdb",
            as_postgres(&bin.join("initdb"))
                .arg("-D")
                .arg(&data)
                .args(["-U", "postgres", "--auth=trust", "-E", "UTF8"])
                .arg("--locale=C.UTF-8"),
        )
        .await;
        let cluster = Cluster {
            bin: bin.to_owned(),
            data,
            port,
        };
        let mut conf = std::fs::read_to_string(cluster.data.join("postgresql.conf")).unwrap();
        conf.push_str(&format!(
            "\nlisten_addresses = '127.0.0.1'\nport = {port}\nunix_socket_directories = '{}'\n\
             fsync = off\nfull_page_writes = off\n",
            dir.display()
        ));
        std::fs::write(cluster.data.join("postgresql.conf"), conf).unwrap();
        checked(
            "pg_ctl start",
            as_postgres(&bin.join("pg_ctl"))
                .arg("-D")
                .arg(&cluster.data)
                .arg("-l")
                .arg(dir.join("postgresql.log"))
                .args(["-w", "start"])
                .stdout(Stdio::null()),
        )
        .await;
        cluster
    }

    /// One of its programs (`createdb`, `psql`, `pg_restore`), as its superuser over TCP.
    fn tool(&self, name: &str) -> Command {
        let mut command = Command::new(self.bin.join(name));
        command
            .env("PGHOST", "127.0.0.1")
            .env("PGPORT", self.port.to_string())
            .env("PGUSER", "postgres")
            .env_remove("PGPASSWORD")
            .env_remove("PGDATABASE");
        command
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let pg_ctl = self.bin.join("pg_ctl");
        let mut stop = if is_root() {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(pg_ctl);
            c
        } else {
            std::process::Command::new(pg_ctl)
        };
        let _ = stop
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "-w", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

// ---------------------------------------------------------------------------------------
// The mail server: every message it accepts, whole.

#[derive(Clone)]
struct Mailbox {
    received: Arc<Mutex<Vec<String>>>,
    buf: Vec<u8>,
}

impl Handler for Mailbox {
    fn data_start(&mut self, _: &str, _: &str, _: bool, _: &[String]) -> Response {
        self.buf.clear();
        response::START_DATA
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let message = String::from_utf8_lossy(&self.buf).into_owned();
        self.received.lock().unwrap().push(message);
        response::OK
    }
}

/// Starts an SMTP server on a free port of 127.0.0.1 (its threads live as long as the test
/// process): its mail URL and what it receives.
fn mailbox() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let received = Arc::new(Mutex::new(Vec::new()));
    let mut server = mailin_embedded::Server::new(Mailbox {
        received: Arc::clone(&received),
        buf: Vec::new(),
    });
    server
        .with_name("mailbox.test")
        .with_num_threads(40)
        .with_tcp_listener(listener);
    std::thread::spawn(move || {
        let _ = server.serve();
    });
    (format!("smtp://127.0.0.1:{port}?tls=none"), received)
}

/// The unique part of a Message-ID (`<unique@domain>`): the service stores
/// `<uuid@crm.localhost>` and sends it at the sender's domain.
fn unique_part(message_id: &str) -> String {
    message_id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .split('@')
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// A received message's Message-ID, its unique part.
fn message_id_of(message: &str) -> String {
    let header = message
        .lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| {
            l.to_ascii_lowercase()
                .starts_with("message-id:")
                .then(|| l["message-id:".len()..].to_owned())
        })
        .unwrap_or_else(|| panic!("a message without a Message-ID:\n{message}"));
    unique_part(&header)
}

// ---------------------------------------------------------------------------------------
// The service, over HTTP.

/// `crm serve` on `database_url`, port `port`, its log in `log`, with the environment both
/// instances share; returns once `/healthz` answers.
async fn serve(env: &[(&str, &str)], database_url: &str, port: u16, log: &Path) -> Running {
    let mut child = Running(
        std::process::Command::new(CRM)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .envs(env.iter().copied())
            .env("DATABASE_URL", database_url)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap(),
    );
    let http = reqwest::Client::new();
    let health = format!("http://127.0.0.1:{port}/healthz");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if http
            .get(&health)
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return child;
        }
        if let Some(status) = child.0.try_wait().unwrap() {
            panic!(
                "crm serve stopped: {status}; {}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        assert!(
            Instant::now() < deadline,
            "crm serve did not answer (log: {})",
            log.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Stops `crm serve` with SIGTERM and waits for it (it finishes the sends in progress and
/// records them).
async fn terminate(mut server: Running) -> ExitStatus {
    checked(
        "kill",
        Command::new("kill").args(["-TERM", &server.0.id().to_string()]),
    )
    .await;
    tokio::task::spawn_blocking(move || server.0.wait().unwrap())
        .await
        .unwrap()
}

/// One instance's API, with a key.
#[derive(Clone)]
struct Api {
    http: reqwest::Client,
    base: String,
    auth: String,
}

impl Api {
    fn new(port: u16, key: &str) -> Api {
        Api {
            http: reqwest::Client::new(),
            base: format!("http://127.0.0.1:{port}"),
            auth: format!("Bearer {key}"),
        }
    }

    /// (status, JSON body) of a request.
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("Authorization", &self.auth);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let status = answer.status().as_u16();
        (status, answer.json().await.unwrap_or(Value::Null))
    }

    /// `data` of a request answered `expected`.
    async fn ok(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        expected: u16,
    ) -> Value {
        let (status, answer) = self.call(method, path, body).await;
        assert_eq!(status, expected, "{path}: {answer}");
        answer["data"].clone()
    }

    async fn get(&self, path: &str) -> Value {
        self.ok(reqwest::Method::GET, path, None, 200).await
    }
}

fn id(data: &Value) -> i64 {
    data["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("no id in {data}"))
}

/// A write the service acknowledged.
#[derive(Clone, Copy, Debug)]
enum Write {
    Client(i64),
    Estimate(i64),
    EstimatePublished(i64),
    Invoice(i64),
    InvoiceItems(i64),
    InvoicePublished(i64),
    Payment(i64),
}

/// A write and when its answer had arrived.
#[derive(Clone, Copy, Debug)]
struct Ack {
    write: Write,
    at: Instant,
}

/// The default categories of estimates and invoices.
#[derive(Clone, Copy)]
struct Categories {
    estimate: i64,
    invoice: i64,
}

/// One round of a writer: a client, an estimate for it published (an email), an invoice
/// with one line of 100.00 published (an email) and a payment of 40.00 on it; every change
/// is a webhook event.
async fn round(api: &Api, categories: Categories, name: &str, acks: &Mutex<Vec<Ack>>) {
    use reqwest::Method;
    let ack = |write| {
        acks.lock().unwrap().push(Ack {
            write,
            at: Instant::now(),
        });
    };
    let client = id(&api
        .ok(
            Method::POST,
            "/api/clients",
            Some(json!({"company_name": name, "contact_email": format!("{}@example.test", name.to_lowercase().replace(' ', "-"))})),
            201,
        )
        .await);
    ack(Write::Client(client));
    let estimate = id(&api
        .ok(
            Method::POST,
            "/api/estimates",
            Some(json!({"bill_clientid": client, "bill_categoryid": categories.estimate, "bill_date": "2026-11-20"})),
            201,
        )
        .await);
    ack(Write::Estimate(estimate));
    api.ok(
        Method::PUT,
        &format!("/api/estimates/{estimate}/publish"),
        None,
        200,
    )
    .await;
    ack(Write::EstimatePublished(estimate));
    let invoice = id(&api
        .ok(
            Method::POST,
            "/api/invoices",
            Some(json!({"bill_clientid": client, "bill_categoryid": categories.invoice, "bill_date": "2026-11-20"})),
            201,
        )
        .await);
    ack(Write::Invoice(invoice));
    api.ok(
        Method::PUT,
        &format!("/api/invoices/{invoice}/items"),
        Some(json!({"items": [{"description": "Work", "quantity": "1", "rate": "100.00"}]})),
        200,
    )
    .await;
    ack(Write::InvoiceItems(invoice));
    api.ok(
        Method::PUT,
        &format!("/api/invoices/{invoice}/publish"),
        None,
        200,
    )
    .await;
    ack(Write::InvoicePublished(invoice));
    let payment = id(&api
        .ok(
            Method::POST,
            "/api/payments",
            Some(json!({"payment_invoiceid": invoice, "payment_amount": "40.00", "payment_date": "2026-11-20"})),
            201,
        )
        .await);
    ack(Write::Payment(payment));
}

/// The number of emails the service has queued for `kind` `id`, by `GET /api/emails`.
async fn emails_of(api: &Api, kind: &str, id: i64) -> i64 {
    let (status, answer) = api
        .call(
            reqwest::Method::GET,
            &format!("/api/emails?resource_type={kind}&resource_id={id}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    answer["meta"]["total"].as_i64().unwrap()
}

/// Reads `write` back through `api` (the restored service).
async fn check_restored(api: &Api, write: Write) {
    match write {
        Write::Client(id) => {
            let client = api.get(&format!("/api/clients/{id}")).await;
            assert!(client["contact_email"].is_string(), "{client}");
        }
        Write::Estimate(id) => {
            api.get(&format!("/api/estimates/{id}")).await;
        }
        Write::EstimatePublished(id) => {
            let estimate = api.get(&format!("/api/estimates/{id}")).await;
            assert!(estimate["client_link"].is_object(), "{estimate}");
            assert_eq!(emails_of(api, "estimate", id).await, 1, "estimate {id}");
        }
        Write::Invoice(id) => {
            api.get(&format!("/api/invoices/{id}")).await;
        }
        Write::InvoiceItems(id) => {
            let invoice = api.get(&format!("/api/invoices/{id}")).await;
            assert_eq!(invoice["totals"]["final_amount"], "100.00", "{invoice}");
        }
        Write::InvoicePublished(id) => {
            let invoice = api.get(&format!("/api/invoices/{id}")).await;
            // Due, or Part Paid when its payment is in the copy too.
            let status = invoice["status"]["id"].as_i64().unwrap();
            assert!(status == 2 || status == 4, "{invoice}");
            assert_eq!(emails_of(api, "invoice", id).await, 1, "invoice {id}");
        }
        Write::Payment(id) => {
            let payment = api.get(&format!("/api/payments/{id}")).await;
            assert_eq!(payment["amount"], "40.00", "{payment}");
            let invoice = payment["invoice_id"].as_i64().unwrap();
            let invoice = api.get(&format!("/api/invoices/{invoice}")).await;
            assert_eq!(invoice["status"]["id"], 4, "Part Paid: {invoice}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// The outbox, as a database holds it.

/// One database's outbox.
#[derive(Debug, Default)]
struct Outbox {
    /// Each email by its Message-ID's unique part: its status.
    emails: HashMap<String, String>,
    /// Each webhook event by its body (the bytes the receiver gets): its `webhook-id`
    /// (none while not fanned out) and the status of its delivery to the endpoint.
    events: HashMap<String, (Option<String>, Option<String>)>,
    /// Emails and deliveries leased (on the network) as the database says.
    leased: i64,
}

impl Outbox {
    async fn read(sql: &tokio_postgres::Client, endpoint: i64) -> Outbox {
        let emails = sql
            .query("SELECT message_id, status FROM email_queue", &[])
            .await
            .unwrap()
            .iter()
            .map(|r| (unique_part(r.get(0)), r.get(1)))
            .collect();
        let events = sql
            .query(
                "SELECT e.body, e.message_id, d.status FROM webhook_events e \
                 LEFT JOIN webhook_deliveries d ON d.event_id = e.id AND d.endpoint_id = $1",
                &[&endpoint],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get(0), (r.get(1), r.get(2))))
            .collect();
        let leased = sql
            .query_one(
                "SELECT (SELECT count(*) FROM email_queue WHERE status = 'pending' AND leased_until > now()) \
                      + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND leased_until > now())",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        Outbox {
            emails,
            events,
            leased,
        }
    }

    fn sent(&self, message_id: &str) -> usize {
        usize::from(self.emails.get(message_id).is_some_and(|s| s == "sent"))
    }

    fn delivered(&self, body: &str) -> usize {
        usize::from(
            self.events
                .get(body)
                .is_some_and(|(_, status)| status.as_deref() == Some("delivered")),
        )
    }

    /// Emails pending, and webhook events not delivered (pending, or not fanned out yet).
    fn waiting(&self) -> (usize, usize) {
        (
            self.emails.values().filter(|s| *s == "pending").count(),
            self.events
                .values()
                .filter(|(_, status)| status.as_deref() != Some("delivered"))
                .count(),
        )
    }
}

/// Waits until nothing is left to send in the database of `sql`: no pending email, no event
/// to fan out, no pending delivery (one statement, so one moment). Nothing may have failed.
async fn drained(sql: &tokio_postgres::Client, what: &str, log: &Path) {
    let deadline = Instant::now() + OUTBOX_PATIENCE;
    loop {
        let row = sql
            .query_one(
                "SELECT (SELECT count(*) FROM email_queue WHERE status = 'pending') \
                      + (SELECT count(*) FROM webhook_events WHERE message_id IS NULL) \
                      + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'), \
                        (SELECT count(*) FROM email_queue WHERE status = 'failed') \
                      + (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed')",
                &[],
            )
            .await
            .unwrap();
        let (waiting, failed): (i64, i64) = (row.get(0), row.get(1));
        assert_eq!(
            failed,
            0,
            "{what}: a message failed (log: {})",
            log.display()
        );
        if waiting == 0 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: {waiting} messages still to send (log: {})",
            log.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The largest id of each table the writers write, in the database of `sql`.
async fn largest_ids(sql: &tokio_postgres::Client) -> HashMap<&'static str, i64> {
    let mut ids = HashMap::new();
    for table in ["clients", "estimates", "invoices", "payments"] {
        let largest: i64 = sql
            .query_one(&format!("SELECT COALESCE(max(id), 0) FROM {table}"), &[])
            .await
            .unwrap()
            .get(0);
        ids.insert(table, largest);
    }
    ids
}

async fn connect(conninfo: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(conninfo, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
}

// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_writes_restores_every_acknowledged_write_and_sends_its_outbox_once() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let started = Instant::now();
    let db = TestDb::new().await.unwrap();
    let sql = db.client().await.unwrap();
    let major: String = sql
        .query_one("SELECT current_setting('server_version_num')", &[])
        .await
        .unwrap()
        .get(0);
    let bin = programs(major.parse::<u32>().unwrap() / 10_000).await;
    let dir = scratch("restore");
    let (mail_url, mailbox) = mailbox();
    let receiver = Receiver::ok().await;
    let env = [
        ("CRM_PUBLIC_URL", PUBLIC_URL),
        ("CRM_MAIL_URL", mail_url.as_str()),
        ("CRM_MAIL_FROM", "Billing <billing@crm.example.test>"),
        ("CRM_WEBHOOK_ALLOW_HTTP", "true"),
        ("CRM_WEBHOOK_ALLOW_PRIVATE", "true"),
    ];

    // The old machine: the service, a key, an endpoint for every event.
    let database_url = db.config().database_url.clone();
    let key = std::process::Command::new(CRM)
        .args(["keys", "create", "--name", "restore"])
        .env("DATABASE_URL", &database_url)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(key.status.success());
    let key = String::from_utf8(key.stdout).unwrap().trim().to_owned();
    let old_log = dir.join("old.log");
    let old_port = super::free_port();
    let old = serve(&env, &database_url, old_port, &old_log).await;
    let api = Api::new(old_port, &key);
    let endpoint = id(&api
        .ok(
            reqwest::Method::POST,
            "/api/webhooks",
            Some(json!({"url": receiver.url(), "events": ["*"]})),
            201,
        )
        .await);
    let category = |kind: &'static str| {
        let sql = &sql;
        async move {
            sql.query_one(
                "SELECT id FROM categories WHERE type = $1 AND system_default LIMIT 1",
                &[&kind],
            )
            .await
            .unwrap()
            .get::<_, i64>(0)
        }
    };
    let categories = Categories {
        estimate: category("estimate").await,
        invoice: category("invoice").await,
    };

    // Delivered before the dump: a first round, its messages all sent.
    let acks = Arc::new(Mutex::new(Vec::new()));
    round(&api, categories, "Before", &acks).await;
    drained(&sql, "the old instance's first messages", &old_log).await;

    // Writers, and the dump while they run.
    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (api, acks, stop) = (api.clone(), Arc::clone(&acks), Arc::clone(&stop));
            tokio::spawn(async move {
                let mut n = 0;
                while !stop.load(Ordering::SeqCst) {
                    round(&api, categories, &format!("Writer {w} round {n}"), &acks).await;
                    n += 1;
                }
            })
        })
        .collect();
    let acknowledged = || acks.lock().unwrap().len();
    let until = |what: &'static str, count: usize| {
        let acknowledged = &acknowledged;
        async move {
            let deadline = Instant::now() + Duration::from_secs(120);
            while acknowledged() < count {
                assert!(Instant::now() < deadline, "{what}: the writers are stuck");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    until("before the dump", acknowledged() + WRITES_AROUND_THE_DUMP).await;

    // docs/deploy.md step 7: `pg_dump -Fc -d crm -f …`, the server named as libpq's
    // variables name it (no password on a command line).
    let admin = db.config().pg_config().unwrap();
    let mut pg_dump = Command::new(bin.join("pg_dump"));
    match admin.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(host)) => pg_dump.env("PGHOST", host),
        Some(tokio_postgres::config::Host::Unix(path)) => pg_dump.env("PGHOST", path),
        None => pg_dump.env("PGHOST", "localhost"),
    };
    pg_dump.env(
        "PGPORT",
        admin
            .get_ports()
            .first()
            .copied()
            .unwrap_or(5432)
            .to_string(),
    );
    if let Some(user) = admin.get_user() {
        pg_dump.env("PGUSER", user);
    }
    if let Some(password) = admin.get_password() {
        pg_dump.env("PGPASSWORD", String::from_utf8_lossy(password).into_owned());
    }
    let dump = dir.join("crm.dump");
    let dump_started = Instant::now();
    checked(
        "pg_dump",
        pg_dump.args(["-Fc", "-d", db.name(), "-f"]).arg(&dump),
    )
    .await;
    let dump_took = dump_started.elapsed();
    until("after the dump", acknowledged() + WRITES_AROUND_THE_DUMP).await;
    stop.store(true, Ordering::SeqCst);
    for writer in writers {
        writer.await.unwrap();
    }
    let acks = acks.lock().unwrap().clone();
    let before: Vec<Write> = acks
        .iter()
        .filter(|a| a.at < dump_started)
        .map(|a| a.write)
        .collect();

    // The old machine sends what it has, and goes.
    drained(&sql, "the old instance", &old_log).await;
    assert!(terminate(old).await.success());
    let old_outbox = Outbox::read(&sql, endpoint).await;
    let old_ids = largest_ids(&sql).await;

    // A new machine: a fresh cluster, the role and database of docs/deploy.md step 2, and
    // the restore as step 7 says.
    let cluster_dir = dir.join("cluster");
    std::fs::create_dir_all(&cluster_dir).unwrap();
    let cluster = Cluster::start(&bin, &cluster_dir).await;
    checked(
        "CREATE ROLE crm",
        cluster
            .tool("psql")
            .args(["-q", "-d", "postgres", "-c", "CREATE ROLE crm LOGIN"]),
    )
    .await;
    checked(
        "createdb",
        cluster.tool("createdb").args(["-O", "crm", "crm"]),
    )
    .await;
    checked(
        "pg_restore",
        cluster
            .tool("pg_restore")
            .args(["-d", "crm", "--no-owner", "--role=crm"])
            .arg(&dump),
    )
    .await;

    // What the copy holds, before a service runs on it.
    let restored_url = format!("host=127.0.0.1 port={} user=crm dbname=crm", cluster.port);
    let copy_sql = connect(&restored_url).await;
    let copy = Outbox::read(&copy_sql, endpoint).await;
    let copy_ids = largest_ids(&copy_sql).await;
    // The messages that were on the network when the dump started are leased in the copy,
    // until 125 s (an email) or 35 s (a webhook delivery) after they were taken, by the old
    // machine's clock: a restore made that soon sends them when the lease ends. This one is
    // made as if later, when the leases have passed (as the crash test of
    // crm-http/tests/cli/webhooks.rs does), rather than waited for.
    copy_sql
        .batch_execute(
            "UPDATE email_queue SET leased_until = now() WHERE leased_until > now(); \
             UPDATE webhook_deliveries SET leased_until = now() WHERE leased_until > now()",
        )
        .await
        .unwrap();
    assert!(
        copy.emails.values().any(|s| s == "sent")
            && copy
                .events
                .values()
                .any(|(_, s)| s.as_deref() == Some("delivered")),
        "the first round's messages, sent before the dump, are in the copy as sent"
    );
    let answered: HashSet<(&str, i64)> = acks
        .iter()
        .filter_map(|a| match a.write {
            Write::Client(id) => Some(("clients", id)),
            Write::Estimate(id) => Some(("estimates", id)),
            Write::Invoice(id) => Some(("invoices", id)),
            Write::Payment(id) => Some(("payments", id)),
            _ => None,
        })
        .collect();
    for table in ["clients", "estimates", "invoices", "payments"] {
        for row in copy_sql
            .query(&format!("SELECT id FROM {table}"), &[])
            .await
            .unwrap()
        {
            let id: i64 = row.get(0);
            assert!(
                answered.contains(&(table, id)),
                "{table} {id} is in the copy but no writer was answered for it"
            );
        }
    }

    // The restored service, on the copy as it is (no `crm migrate`), with the same
    // environment.
    let restored_log = dir.join("restored.log");
    let restored_port = super::free_port();
    let restored = serve(
        &env,
        &format!("postgres://crm@127.0.0.1:{}/crm", cluster.port),
        restored_port,
        &restored_log,
    )
    .await;
    let api = Api::new(restored_port, &key);
    for write in &before {
        check_restored(&api, *write).await;
    }
    drained(&copy_sql, "the restored instance", &restored_log).await;
    let restored_outbox = Outbox::read(&copy_sql, endpoint).await;
    let (status, pending) = api
        .call(reqwest::Method::GET, "/api/emails?status=pending", None)
        .await;
    assert_eq!(
        (status, &pending["meta"]["total"]),
        (200, &json!(0)),
        "{pending}"
    );

    // Every email arrived (old sent) + (restored sent) − (sent in the copy) times, by the
    // Message-ID stored with it.
    let mut arrived: HashMap<String, usize> = HashMap::new();
    for message in mailbox.lock().unwrap().iter() {
        *arrived.entry(message_id_of(message)).or_default() += 1;
    }
    let known: HashSet<&String> = old_outbox
        .emails
        .keys()
        .chain(restored_outbox.emails.keys())
        .collect();
    let mut emails_twice = 0;
    for message_id in &known {
        let expected =
            old_outbox.sent(message_id) + restored_outbox.sent(message_id) - copy.sent(message_id);
        let got = arrived.get(*message_id).copied().unwrap_or(0);
        assert_eq!(
            got,
            expected,
            "email {message_id}: old {:?}, copy {:?}, restored {:?}",
            old_outbox.emails.get(*message_id),
            copy.emails.get(*message_id),
            restored_outbox.emails.get(*message_id)
        );
        emails_twice += usize::from(got == 2);
    }
    for message_id in arrived.keys() {
        assert!(
            known.contains(message_id),
            "an email arrived whose Message-ID no row has: {message_id}"
        );
    }

    // Every webhook event likewise, by its body; one that arrives twice carries one
    // webhook-id.
    let mut received: HashMap<String, Vec<String>> = HashMap::new();
    for got in receiver.got() {
        received
            .entry(String::from_utf8(got.body.clone()).unwrap())
            .or_default()
            .push(got.header("webhook-id"));
    }
    let bodies: HashSet<&String> = old_outbox
        .events
        .keys()
        .chain(restored_outbox.events.keys())
        .collect();
    let mut events_twice = 0;
    for body in &bodies {
        // The restored service gives an event the copy holds the webhook-id the old
        // database gave it, whether or not the copy had fanned it out.
        let (old_id, restored_id) = (
            old_outbox.events.get(*body).and_then(|e| e.0.as_ref()),
            restored_outbox.events.get(*body).and_then(|e| e.0.as_ref()),
        );
        if let (Some(old_id), Some(restored_id)) = (old_id, restored_id) {
            assert_eq!(
                old_id,
                restored_id,
                "event {body}: fanned out in the copy {:?}",
                copy.events.get(*body)
            );
        }
        let expected =
            old_outbox.delivered(body) + restored_outbox.delivered(body) - copy.delivered(body);
        let ids = received.get(*body).cloned().unwrap_or_default();
        assert_eq!(
            ids.len(),
            expected,
            "event {body}: old {:?}, copy {:?}, restored {:?}",
            old_outbox.events.get(*body),
            copy.events.get(*body),
            restored_outbox.events.get(*body)
        );
        for id in &ids {
            assert!(
                Some(id) == old_id || Some(id) == restored_id,
                "event {body} arrived with webhook-id {id}, not the stored one"
            );
        }
        events_twice += usize::from(ids.len() == 2);
    }
    for body in received.keys() {
        assert!(
            bodies.contains(body),
            "a webhook arrived that no event has: {body}"
        );
    }

    // The number series continue above the copy's: a new client, estimate, invoice (its
    // email's subject carries its number) and payment.
    let suffix = Mutex::new(Vec::new());
    round(&api, categories, "After the restore", &suffix).await;
    let after: Vec<Write> = suffix.lock().unwrap().iter().map(|a| a.write).collect();
    let mut invoice = 0;
    for write in after {
        let (table, id) = match write {
            Write::Client(id) => ("clients", id),
            Write::Estimate(id) => ("estimates", id),
            Write::Invoice(id) => {
                invoice = id;
                ("invoices", id)
            }
            Write::Payment(id) => ("payments", id),
            _ => continue,
        };
        assert!(
            id > copy_ids[table],
            "a new row of {table} got id {id}, not above the copy's {}",
            copy_ids[table]
        );
    }
    // Its email, with a Message-ID of its own.
    let stored: String = copy_sql
        .query_one(
            "SELECT message_id FROM email_queue WHERE resource_type = 'invoice' AND resource_id = $1",
            &[&invoice],
        )
        .await
        .unwrap()
        .get(0);
    let stored = unique_part(&stored);
    assert!(
        !known.contains(&&stored),
        "a new email has a Message-ID of its own"
    );
    let deadline = Instant::now() + OUTBOX_PATIENCE;
    let email = loop {
        let found = mailbox
            .lock()
            .unwrap()
            .iter()
            .find(|m| message_id_of(m) == stored)
            .cloned();
        if let Some(email) = found {
            break email;
        }
        assert!(
            Instant::now() < deadline,
            "no email for invoice {invoice} (log: {})",
            restored_log.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // Its number is the next of its series in the copy: the copy's are 1..n, without a gap.
    let number: String = copy_sql
        .query_one("SELECT number FROM invoices WHERE id = $1", &[&invoice])
        .await
        .unwrap()
        .get(0);
    let (prefix, seq) = number.rsplit_once('-').expect("INV-<year>-<seq>");
    let seq: i64 = seq.parse().unwrap();
    let earlier: Vec<i64> = copy_sql
        .query(
            "SELECT substr(number, length($1) + 2)::bigint FROM invoices \
             WHERE number LIKE $1 || '-%' AND id <> $2 ORDER BY 1",
            &[&prefix, &invoice],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(earlier, (1..seq).collect::<Vec<_>>(), "{number}");
    assert!(
        email.contains(&format!("Subject: Invoice {number} ")),
        "{email}"
    );

    let (copy_pending_emails, copy_waiting_events) = copy.waiting();
    eprintln!(
        "restore drill: {} writes acknowledged, {} before the dump (pg_dump took {dump_took:?}); \
         the copy held {} emails ({copy_pending_emails} pending) and {} webhook events \
         ({copy_waiting_events} not delivered), {} leased; sent again after the restore: \
         {emails_twice} emails, {events_twice} webhook events; the last invoice number: {} in \
         the copy, {} on the old machine, and the restored one gave {invoice} next; {:?} in all",
        acks.len(),
        before.len(),
        copy.emails.len(),
        copy.events.len(),
        copy.leased,
        copy_ids["invoices"],
        old_ids["invoices"],
        started.elapsed()
    );

    assert!(terminate(restored).await.success());
    drop(copy_sql);
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}
