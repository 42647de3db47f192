//! The outbox (API.md §10): messages rendered at publish / send-email, delivered by the
//! worker to a real SMTP server over TCP (mailin-embedded, started by each test on
//! 127.0.0.1; in plain text, with STARTTLS, or behind a TLS terminator for `smtps://`; and a
//! scripted server offering AUTH without STARTTLS, as a man in the middle would show it),
//! retries, failures, two workers on one database, the file transport, and the read-only
//! `GET /api/emails` endpoints.
//!
//! No timed assertions: tests wait for the database to reach a state with bounded polling
//! loops whose limits are far above what the work needs.

use std::collections::{BTreeSet, VecDeque};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crm_http::ops::delivery::{self, Delivered, WorkerOptions};
use crm_http::ops::mail::Mailer;
use mailin_embedded::{Handler, Response, Server, response};
use reqwest::StatusCode;
use serde_json::Value;

use crate::common::{Body, TestServer, form, id_of, page_meta};

// ---------------------------------------------------------------------------------------
// A real SMTP server.

/// One message the server accepted.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    to: Vec<String>,
    pub(crate) data: String,
}

#[derive(Default)]
struct SinkState {
    /// Replies to give at the end of DATA, in order; then 250.
    script: VecDeque<u16>,
    received: Vec<Received>,
    refused: u64,
    /// Holds the next message at the end of its DATA: says it arrived, then waits for the
    /// release before answering (a send in progress, for as long as the test wants).
    hold: Option<(std::sync::mpsc::Sender<()>, std::sync::mpsc::Receiver<()>)>,
    /// The (user, password) pairs clients authenticated with.
    logins: Vec<(String, String)>,
    /// Holds every message at the end of its DATA until this many are held at once (then
    /// all are answered): proof that a client sends that many in parallel.
    gather: Option<Arc<std::sync::Barrier>>,
}

/// The password the test server accepts.
const SMTP_PASSWORD: &str = "right horse battery";

/// The server's handler: one clone per SMTP session, sharing the state.
#[derive(Clone)]
struct Sink {
    state: Arc<Mutex<SinkState>>,
    to: Vec<String>,
    buf: Vec<u8>,
}

impl Handler for Sink {
    /// Refusals come where servers usually give them, in reply to `RCPT TO` (greylisting's
    /// 451, an unknown mailbox's 550).
    fn rcpt(&mut self, _to: &str) -> Response {
        let mut state = self.state.lock().unwrap();
        match state.script.pop_front() {
            Some(451) => {
                state.refused += 1;
                Response::custom(451, "4.7.1 Greylisted, try again later".to_owned())
            }
            Some(550) => {
                state.refused += 1;
                Response::custom(550, "5.1.1 No such user here".to_owned())
            }
            _ => response::OK,
        }
    }

    fn auth_plain(&mut self, _authorization: &str, user: &str, password: &str) -> Response {
        self.auth_login(user, password)
    }

    fn auth_login(&mut self, user: &str, password: &str) -> Response {
        self.state
            .lock()
            .unwrap()
            .logins
            .push((user.to_owned(), password.to_owned()));
        if password == SMTP_PASSWORD {
            response::AUTH_OK
        } else {
            response::INVALID_CREDENTIALS
        }
    }

    fn data_start(&mut self, _domain: &str, _from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.to = to.to_vec();
        self.buf.clear();
        response::START_DATA
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let gather = self.state.lock().unwrap().gather.clone();
        if let Some(barrier) = gather {
            barrier.wait();
        }
        let hold = self.state.lock().unwrap().hold.take();
        if let Some((arrived, release)) = hold {
            let _ = arrived.send(());
            let _ = release.recv();
        }
        let data = String::from_utf8_lossy(&self.buf).into_owned();
        self.state.lock().unwrap().received.push(Received {
            to: self.to.clone(),
            data,
        });
        response::OK
    }
}

/// A running SMTP server (its thread lives until the test process ends).
pub(crate) struct SmtpServer {
    port: u16,
    state: Arc<Mutex<SinkState>>,
}

impl SmtpServer {
    /// Starts a server on a free port of 127.0.0.1 giving `script`'s replies first.
    pub(crate) fn start(script: &[u16]) -> SmtpServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        SmtpServer::start_on(listener, script)
    }

    fn start_on(listener: TcpListener, script: &[u16]) -> SmtpServer {
        SmtpServer::start_with(listener, script, None)
    }

    /// A server offering STARTTLS with `tls` (certificate, key) and requiring AUTH.
    fn start_tls(cert: &std::path::Path, key: &std::path::Path) -> SmtpServer {
        // The test binary links rustls with two providers (ring through lettre, aws-lc-rs
        // through the test server), so it must name one; the `crm` binary has ring alone.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        SmtpServer::start_with(listener, &[], Some((cert, key)))
    }

    fn start_with(
        listener: TcpListener,
        script: &[u16],
        tls: Option<(&std::path::Path, &std::path::Path)>,
    ) -> SmtpServer {
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(SinkState {
            script: script.iter().copied().collect(),
            ..SinkState::default()
        }));
        let mut server = Server::new(Sink {
            state: state.clone(),
            to: Vec::new(),
            buf: Vec::new(),
        });
        server
            .with_name("sink.test")
            // Enough sessions for two workers sending 16 messages each at once.
            .with_num_threads(48)
            .with_tcp_listener(listener);
        if let Some((cert, key)) = tls {
            server
                .with_ssl(mailin_embedded::SslConfig::SelfSigned {
                    cert_path: cert.display().to_string(),
                    key_path: key.display().to_string(),
                })
                .unwrap()
                .with_auth(mailin_embedded::AuthMechanism::Plain);
        }
        std::thread::spawn(move || {
            let _ = server.serve();
        });
        SmtpServer { port, state }
    }

    pub(crate) fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}?tls=none", self.port)
    }

    pub(crate) fn received(&self) -> Vec<Received> {
        self.state.lock().unwrap().received.clone()
    }

    /// Holds the next message before the server's reply to its DATA: the first receiver
    /// hears when it arrives, and the sender releases it.
    fn hold_next(&self) -> (std::sync::mpsc::Receiver<()>, std::sync::mpsc::Sender<()>) {
        let (arrived_tx, arrived_rx) = std::sync::mpsc::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel();
        self.state.lock().unwrap().hold = Some((arrived_tx, release_rx));
        (arrived_rx, release_tx)
    }
}

/// TLS from the first byte, as on port 465 (`smtps://`), in front of a plain [`SmtpServer`]:
/// a terminator (tokio-rustls, ring) accepts each connection's handshake with the given
/// certificate and relays the decrypted session to the plain server, which sees an ordinary
/// SMTP client. Returns the plain server (what it received) and the TLS port.
async fn start_implicit_tls(cert: &std::path::Path, key: &std::path::Path) -> (SmtpServer, u16) {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let plain = SmtpServer::start(&[]);
    let chain = CertificateDer::pem_file_iter(cert)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(key).unwrap();
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(chain, key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let plain_port = plain.port;
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                // A client that does not trust the certificate ends the handshake: there
                // is no session to relay.
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut inner = tokio::net::TcpStream::connect(("127.0.0.1", plain_port))
                    .await
                    .unwrap();
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut inner).await;
            });
        }
    });
    (plain, port)
}

// ---------------------------------------------------------------------------------------
// The worker, records and waiting.

fn options(once: bool) -> WorkerOptions {
    WorkerOptions {
        poll: Duration::from_millis(200),
        send_timeout: Duration::from_secs(20),
        once,
        ..WorkerOptions::default()
    }
}

/// A worker running in the background until the returned sender is told to stop.
pub(crate) struct Worker {
    stop: tokio::sync::watch::Sender<bool>,
    task: tokio::task::JoinHandle<Delivered>,
}

impl Worker {
    pub(crate) fn start(s: &TestServer, mail_url: &str) -> Worker {
        Worker::start_with(s, mail_url, options(false))
    }

    fn start_with(s: &TestServer, mail_url: &str, options: WorkerOptions) -> Worker {
        let mailer = Mailer::new(Some(mail_url), "CRM <crm@localhost>").unwrap();
        let config = s.db.config().clone();
        let (stop, stopped) = delivery::stop_channel();
        let task =
            tokio::spawn(async move { delivery::run(&config, &mailer, options, stopped).await });
        Worker { stop, task }
    }

    pub(crate) async fn stop(self) -> Delivered {
        let _ = self.stop.send(true);
        self.task.await.unwrap()
    }
}

/// Runs a worker that sends what is due and returns.
async fn deliver_once(s: &TestServer, mail_url: &str) -> Delivered {
    let mailer = Mailer::new(Some(mail_url), "CRM <crm@localhost>").unwrap();
    let (_stop, stopped) = delivery::stop_channel();
    delivery::run(s.db.config(), &mailer, options(true), stopped).await
}

/// Makes every pending email due now (as if its retry time had come).
async fn retry_now(s: &TestServer) {
    s.sql()
        .await
        .execute(
            "UPDATE email_queue SET next_attempt_at = now() WHERE status = 'pending'",
            &[],
        )
        .await
        .unwrap();
}

/// Waits (bounded) until `check` holds for the email row `id`, returning the row as the API
/// shows it.
pub(crate) async fn wait_for_email(
    s: &TestServer,
    id: i64,
    what: &str,
    check: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..1200 {
        let a = s.get(&format!("/api/emails/{id}")).await;
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
        if check(a.data()) {
            return a.data().clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("email {id} never became {what}");
}

/// The estimate category every test uses.
async fn estimate_category(s: &TestServer) -> i64 {
    s.sql()
        .await
        .query_one(
            "SELECT id FROM categories WHERE type = 'estimate' AND system_default ORDER BY id LIMIT 1",
            &[],
        )
        .await
        .unwrap()
        .get(0)
}

/// Creates an estimate for seeded client `client` with two lines (one hostile description),
/// notes and terms; returns its id.
async fn estimate(s: &TestServer, client: usize) -> i64 {
    let category = estimate_category(s).await.to_string();
    let client = s.ids.clients[client].id.to_string();
    let a = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", &client),
                ("bill_categoryid", &category),
                ("bill_date", "2026-06-15"),
                ("bill_expiry_date", "2026-07-15"),
                ("bill_notes", "Thank you & <b>welcome</b>"),
                ("bill_terms", "Net 30"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    let id = id_of(a.data());
    let a = s
        .put(
            &format!("/api/estimates/{id}/items"),
            form(&[
                ("items[0][description]", "<script>alert('x')</script>"),
                ("items[0][quantity]", "2"),
                ("items[0][unit]", "hours"),
                ("items[0][rate]", "50"),
                ("items[1][description]", "\"><img src=x onerror=alert(1)>"),
                ("items[1][quantity]", "1"),
                ("items[1][rate]", "25.5"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    id
}

async fn publish(s: &TestServer, id: i64) {
    let a = s
        .put(&format!("/api/estimates/{id}/publish"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
}

/// The outbox rows of estimate `id` as the API lists them.
async fn emails_of(s: &TestServer, id: i64) -> Vec<Value> {
    let a = s
        .get(&format!(
            "/api/emails?resource_type=estimate&resource_id={id}&order=asc"
        ))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    a.json["data"].as_array().unwrap().clone()
}

/// Publishes a new estimate of client 0 and returns (estimate id, email id).
pub(crate) async fn published(s: &TestServer) -> (i64, i64) {
    let id = estimate(s, 0).await;
    publish(s, id).await;
    let emails = emails_of(s, id).await;
    assert_eq!(emails.len(), 1, "{emails:?}");
    (id, emails[0]["id"].as_i64().unwrap())
}

/// Decodes a quoted-printable body part.
fn unquote(qp: &str) -> String {
    let joined = qp.replace("=\r\n", "").replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'='
            && i + 2 < bytes.len()
            && let Ok(hex) = std::str::from_utf8(&bytes[i + 1..i + 3])
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The header `name` of a raw message (first occurrence, unfolded).
fn header(data: &str, name: &str) -> Option<String> {
    let head = data.split("\r\n\r\n").next()?;
    let unfolded = head.replace("\r\n ", " ").replace("\r\n\t", " ");
    unfolded.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
    })
}

/// The decoded body of the part with `content_type` in a multipart message.
fn part(data: &str, content_type: &str) -> String {
    let start = data
        .find(&format!("Content-Type: {content_type}"))
        .unwrap_or_else(|| panic!("no {content_type} part in:\n{data}"));
    let rest = &data[start..];
    let headers_end = rest.find("\r\n\r\n").unwrap();
    let headers = &rest[..headers_end];
    let body = &rest[headers_end + 4..];
    let body = &body[..body.find("\r\n--").unwrap_or(body.len())];
    if headers.contains("quoted-printable") {
        unquote(body)
    } else {
        body.to_owned()
    }
}

// ---------------------------------------------------------------------------------------
// Delivery.

#[tokio::test]
async fn a_published_estimate_reaches_the_smtp_server_with_its_headers_and_both_bodies() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let (estimate_id, email_id) = published(&s).await;
    let worker = Worker::start(&s, &smtp.url());
    let email = wait_for_email(&s, email_id, "sent", |e| e["status"] == "sent").await;
    let done = worker.stop().await;
    assert_eq!(done.sent, 1);

    assert_eq!(email["attempts"], 1);
    assert_eq!(email["last_error"], Value::Null);
    assert_eq!(email["recipient"], "billing@acme.example");
    let number = s.number(&format!("/api/estimates/{estimate_id}")).await;
    assert_eq!(email["subject"], format!("Estimate {number} from CRM"));
    assert_eq!(email["dates"]["next_attempt"], Value::Null);
    assert!(email["dates"]["sent"].is_string(), "{email}");

    let received = smtp.received();
    assert_eq!(received.len(), 1);
    let m = &received[0];
    assert_eq!(m.to, ["billing@acme.example"]);
    let message_id: String = s
        .sql()
        .await
        .query_one(
            "SELECT message_id FROM email_queue WHERE id = $1",
            &[&email_id],
        )
        .await
        .unwrap()
        .get(0);
    // The stored id's unique part, at the sender's domain.
    assert_eq!(
        header(&m.data, "Message-ID").as_deref(),
        Some(
            message_id
                .replace("@crm.localhost>", "@localhost>")
                .as_str()
        )
    );
    assert_eq!(
        header(&m.data, "From").as_deref(),
        Some("CRM <crm@localhost>")
    );
    assert_eq!(
        header(&m.data, "To").as_deref(),
        Some("billing@acme.example")
    );
    assert_eq!(
        header(&m.data, "Subject"),
        Some(format!("Estimate {number} from CRM"))
    );
    assert!(header(&m.data, "Date").is_some(), "{}", m.data);
    assert!(
        header(&m.data, "Content-Type").is_some_and(|c| c.starts_with("multipart/alternative")),
        "{}",
        m.data
    );

    let text = part(&m.data, "text/plain");
    let link = s.get(&format!("/api/estimates/{estimate_id}")).await.data()["client_link"]["url"]
        .as_str()
        .unwrap()
        .to_owned();
    for expected in [
        "Hello Acme Inc,",
        &format!("CRM has sent you an estimate: Estimate {number}."),
        &format!("View and accept the estimate:\r\n{link}\r\n"),
        "Date: 15 June 2026",
        "Expiry date: 15 July 2026",
        "1. <script>alert('x')</script>\r\n   2.00 hours x 50.00 = €100.00 EUR",
        "2. \"><img src=x onerror=alert(1)>\r\n   1.00 x 25.50 = €25.50 EUR",
        "Subtotal: €125.50 EUR",
        "Total: €125.50 EUR",
        "Thank you & <b>welcome</b>",
        "Net 30",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} not in the text part:\n{text}"
        );
    }
    let html = part(&m.data, "text/html");
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(!html.contains("<b>welcome"), "{html}");
    for expected in [
        "&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;",
        "&#34;&#62;&#60;img src=x onerror=alert(1)&#62;",
        "Thank you &#38; &#60;b&#62;welcome&#60;/b&#62;",
        "2.00 hours</td>",
        "Hello Acme Inc,",
    ] {
        assert!(
            html.contains(expected),
            "{expected:?} not in the HTML part:\n{html}"
        );
    }
}

/// An invoice's email goes through the same outbox and worker: published from an invoice
/// made with the API, delivered, subject and due date its own.
#[tokio::test]
async fn a_published_invoice_reaches_the_smtp_server_through_the_same_outbox() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let category = s.default_category("invoice").await.to_string();
    let client = s.ids.clients[0].id.to_string();
    let a = s
        .post(
            "/api/invoices",
            form(&[
                ("bill_clientid", &client),
                ("bill_categoryid", &category),
                ("bill_date", "2026-06-15"),
                ("bill_due_date", "2026-07-15"),
                ("bill_terms", "Net 30"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    let id = id_of(a.data());
    let a = s
        .put(
            &format!("/api/invoices/{id}/items"),
            form(&[
                ("items[0][description]", "<b>Design</b>"),
                ("items[0][quantity]", "2"),
                ("items[0][rate]", "50"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let a = s
        .put(&format!("/api/invoices/{id}/publish"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let listed = s
        .get(&format!(
            "/api/emails?resource_type=invoice&resource_id={id}"
        ))
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{:?}", listed.json);
    let email_id = listed.json["data"][0]["id"].as_i64().unwrap();

    let worker = Worker::start(&s, &smtp.url());
    let email = wait_for_email(&s, email_id, "sent", |e| e["status"] == "sent").await;
    assert_eq!(worker.stop().await.sent, 1);
    let number = s.number(&format!("/api/invoices/{id}")).await;
    assert_eq!(email["subject"], format!("Invoice {number} from CRM"));
    let received = smtp.received();
    assert_eq!(received.len(), 1);
    let m = &received[0];
    assert_eq!(m.to, ["billing@acme.example"]);
    assert_eq!(
        header(&m.data, "Subject"),
        Some(format!("Invoice {number} from CRM"))
    );
    let text = part(&m.data, "text/plain");
    for expected in [
        "Hello Acme Inc,",
        &format!("CRM has sent you an invoice: Invoice {number}."),
        "View the invoice:",
        "Due date: 15 July 2026",
        "1. <b>Design</b>\r\n   2.00 x 50.00 = €100.00 EUR",
        "Total: €100.00 EUR",
        "Net 30",
    ] {
        assert!(text.contains(expected), "{expected:?} not in:\n{text}");
    }
    let html = part(&m.data, "text/html");
    assert!(html.contains("&#60;b&#62;Design&#60;/b&#62;"), "{html}");
}

#[tokio::test]
async fn queuing_an_email_wakes_a_worker_that_would_not_poll_for_an_hour() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let mailer = Mailer::new(Some(&smtp.url()), "CRM <crm@localhost>").unwrap();
    let config = s.db.config().clone();
    let (stop, stopped) = delivery::stop_channel();
    let lazy = WorkerOptions {
        poll: Duration::from_secs(3600),
        ..options(false)
    };
    let task = tokio::spawn(async move { delivery::run(&config, &mailer, lazy, stopped).await });
    // Wait (bounded) until the worker listens, then queue: only the notification the store
    // sends after the publish has committed can wake it.
    let sql = s.sql().await;
    for i in 0.. {
        let listening: i64 = sql
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() \
                 AND application_name = 'crm-outbox-listen' AND state = 'idle'",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        if listening == 1 {
            break;
        }
        assert!(i < 1200, "the worker never listened");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (_, email_id) = published(&s).await;
    wait_for_email(&s, email_id, "sent", |e| e["status"] == "sent").await;
    let _ = stop.send(true);
    assert_eq!(task.await.unwrap().sent, 1);
    assert_eq!(smtp.received().len(), 1);
}

#[tokio::test]
async fn the_message_is_the_record_as_it_was_when_queued() {
    let s = TestServer::start().await;
    let (id, email_id) = published(&s).await;
    // Changing the estimate afterwards does not change the queued message.
    let a = s
        .put(
            &format!("/api/estimates/{id}/items"),
            form(&[
                ("items[0][description]", "Changed later"),
                ("items[0][quantity]", "1"),
                ("items[0][rate]", "1"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let text_of = |email: i64| {
        let s = &s;
        async move {
            s.sql()
                .await
                .query_one(
                    "SELECT b.body_text FROM email_queue q JOIN email_bodies b ON b.id = q.body_id \
                     WHERE q.id = $1",
                    &[&email],
                )
                .await
                .unwrap()
                .get::<_, String>(0)
        }
    };
    let body = text_of(email_id).await;
    assert!(body.contains("<script>alert('x')</script>"), "{body}");
    assert!(!body.contains("Changed later"), "{body}");
    // A send-email now renders the estimate as it is now: a message of its own.
    let a = s
        .post(&format!("/api/estimates/{id}/send-email"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let emails = emails_of(&s, id).await;
    assert_eq!(emails.len(), 2);
    let body = text_of(emails[1]["id"].as_i64().unwrap()).await;
    assert!(body.contains("Changed later"), "{body}");
    assert!(!text_of(email_id).await.contains("Changed later"));
}

#[tokio::test]
async fn a_451_reply_is_retried_and_the_second_attempt_is_delivered() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[451]);
    let (_, email_id) = published(&s).await;
    let worker = Worker::start(&s, &smtp.url());
    let email = wait_for_email(&s, email_id, "sent", |e| e["status"] == "sent").await;
    worker.stop().await;
    assert_eq!(email["attempts"], 2, "{email}");
    assert_eq!(smtp.state.lock().unwrap().refused, 1);
    assert_eq!(smtp.received().len(), 1);
}

#[tokio::test]
async fn a_550_reply_fails_the_email_at_once_with_the_reply_as_its_error() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[550]);
    let (_, email_id) = published(&s).await;
    let done = deliver_once(&s, &smtp.url()).await;
    assert_eq!(done.failed, 1, "{done:?}");
    let a = s.get(&format!("/api/emails/{email_id}")).await;
    let email = a.data();
    assert_eq!(email["status"], "failed", "{email}");
    assert_eq!(email["attempts"], 1);
    let error = email["last_error"].as_str().unwrap();
    assert!(error.contains("550"), "{error}");
    assert!(error.contains("No such user here"), "{error}");
    assert_eq!(email["dates"]["next_attempt"], Value::Null);
    assert!(smtp.received().is_empty());
    // Its activity entry is the outbox's (API.md §21).
    let a = s
        .get(&format!(
            "/api/activity?resource_type=email&resource_id={email_id}"
        ))
        .await;
    assert_eq!(a.data()[0]["type"], "email.failed", "{}", a.json);
    assert_eq!(
        a.data()[0]["actor"],
        serde_json::json!({"system": "outbox"})
    );
    // A failed email is not tried again.
    assert_eq!(deliver_once(&s, &smtp.url()).await, Delivered::default());
}

#[tokio::test]
async fn a_message_for_a_server_that_is_down_is_delivered_once_it_comes_up() {
    let s = TestServer::start().await;
    // Reserve a port, then free it: nothing listens there yet.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("smtp://127.0.0.1:{port}?tls=none");
    let (_, email_id) = published(&s).await;
    let worker = Worker::start(&s, &url);
    let email = wait_for_email(&s, email_id, "retried", |e| {
        e["attempts"].as_i64() >= Some(1)
    })
    .await;
    assert_eq!(email["status"], "pending", "{email}");
    assert!(email["last_error"].is_string(), "{email}");
    assert!(email["dates"]["next_attempt"].is_string(), "{email}");

    let smtp = SmtpServer::start_on(TcpListener::bind(("127.0.0.1", port)).unwrap(), &[]);
    let email = wait_for_email(&s, email_id, "sent", |e| e["status"] == "sent").await;
    worker.stop().await;
    assert!(email["attempts"].as_i64().unwrap() >= 2, "{email}");
    assert_eq!(smtp.received().len(), 1);
}

#[tokio::test]
async fn two_workers_drain_500_rows_and_no_message_is_sent_twice() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let (estimate_id, _) = published(&s).await;
    // 499 more rows like the one publishing queued.
    s.sql()
        .await
        .execute(
            "INSERT INTO email_queue (recipient, subject, template, resource_type, resource_id, estimate_id, body_id) \
             SELECT recipient, subject, template, resource_type, resource_id, estimate_id, body_id \
             FROM email_queue, generate_series(1, 499) WHERE estimate_id = $1",
            &[&estimate_id],
        )
        .await
        .unwrap();
    // Two workers, each with its own connections and SMTP connections, in parallel tasks.
    let worker = |config: crm_store_pg::StoreConfig, url: String| {
        tokio::spawn(async move {
            let mailer = Mailer::new(Some(&url), "CRM <crm@localhost>").unwrap();
            let (_stop, stopped) = delivery::stop_channel();
            delivery::run(&config, &mailer, options(true), stopped).await
        })
    };
    let first = worker(s.db.config().clone(), smtp.url());
    let second = worker(s.db.config().clone(), smtp.url());
    let (a, b) = (first.await.unwrap(), second.await.unwrap());
    assert_eq!(a.sent + b.sent, 500, "{a:?} {b:?}");
    assert_eq!(a.failed + b.failed + a.retried + b.retried, 0);

    let received = smtp.received();
    assert_eq!(received.len(), 500);
    let ids: BTreeSet<String> = received
        .iter()
        .map(|m| header(&m.data, "Message-ID").unwrap())
        .collect();
    assert_eq!(ids.len(), 500, "a Message-ID was sent twice");
    let listed = s.get("/api/emails?status=sent&limit=1").await;
    assert_eq!(listed.json["meta"]["total"], 500);
    let pending = s.get("/api/emails?status=pending").await;
    assert_eq!(pending.json["meta"]["total"], 0);
}

/// Issue 35: the worker held a claimed row's lock for the whole SMTP exchange, so a slow
/// relay made deleting its estimate (which deletes its pending emails) wait, and fail with
/// a 503 after the request timeout. Claims are leases now: nothing is locked while the
/// message is on the network.
#[tokio::test]
async fn a_slow_relay_never_holds_a_request_on_the_records_it_is_sending() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let (arrived, release) = smtp.hold_next();
    let (estimate, email) = published(&s).await;
    let worker = Worker::start(&s, &smtp.url());
    tokio::task::spawn_blocking(move || arrived.recv_timeout(Duration::from_secs(60)))
        .await
        .unwrap()
        .expect("the worker sends the message");
    // The message is on the server, which has not answered: the estimate's writes go on.
    let deleted = s.delete(&format!("/api/estimates/{estimate}")).await;
    assert_eq!(deleted.status, StatusCode::OK, "{:?}", deleted.json);
    assert_eq!(smtp.received().len(), 0, "the server has not answered yet");
    release.send(()).unwrap();
    let done = worker.stop().await;
    assert_eq!(done.sent, 1, "{done:?}");
    // The row went with its estimate; the late outcome wrote nothing back.
    let row = s.get(&format!("/api/emails/{email}")).await;
    assert_eq!(row.status, StatusCode::NOT_FOUND, "{:?}", row.json);
}

/// Issue 35: one message at a time, about 45 ms each to a local server, was 17 to 23 a
/// second. The worker now sends up to `concurrency` at once: this server answers none of
/// eight messages until all eight are on it at the same time.
#[tokio::test]
async fn the_worker_sends_several_messages_at_once() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    smtp.state.lock().unwrap().gather = Some(Arc::new(std::sync::Barrier::new(8)));
    let mut emails = Vec::new();
    for _ in 0..8 {
        emails.push(published(&s).await.1);
    }
    let done = deliver_once(&s, &smtp.url()).await;
    assert_eq!(done.sent, 8, "{done:?}");
    assert_eq!(smtp.received().len(), 8);
    for email in emails {
        let row = s.get(&format!("/api/emails/{email}")).await;
        assert_eq!(row.data()["status"], "sent", "{:?}", row.json);
    }
}

/// A worker that dies mid-send leaves its row leased: no other worker sends it while the
/// lease runs, and once it has passed the row is sent again (at least once, with the same
/// Message-ID).
#[tokio::test]
async fn a_row_whose_worker_died_is_sent_again_once_its_lease_has_passed() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let (_, email) = published(&s).await;
    // A worker claims the row and dies before any outcome.
    let mut dead = crm_store_pg::outbox::Outbox::new(s.db.config()).unwrap();
    let claimed = dead
        .claim(chrono::Utc::now(), 10, Duration::from_secs(600))
        .await
        .unwrap();
    assert_eq!(claimed.iter().map(|m| m.id).collect::<Vec<_>>(), [email]);
    drop(dead);
    // While the lease runs, no one sends it.
    assert_eq!(deliver_once(&s, &smtp.url()).await, Delivered::default());
    assert_eq!(smtp.received().len(), 0);
    // The lease passes (set back, rather than waited for).
    s.sql()
        .await
        .execute(
            "UPDATE email_queue SET leased_until = now() - interval '1 second' WHERE id = $1",
            &[&email],
        )
        .await
        .unwrap();
    assert_eq!(deliver_once(&s, &smtp.url()).await.sent, 1);
    let received = smtp.received();
    assert_eq!(received.len(), 1);
    assert_eq!(
        header(&received[0].data, "Message-ID"),
        Some(
            claimed[0]
                .message_id
                .replace("@crm.localhost>", "@localhost>")
        )
    );
    let row = s.get(&format!("/api/emails/{email}")).await;
    assert_eq!(row.data()["status"], "sent");
    assert_eq!(row.data()["attempts"], 1);
}

/// Issue 33, defect 2 end to end: notes made to end SMTP DATA early on a lenient relay
/// (`<CR>.<CR><LF>` and a second command after it) reach the server as text of the one
/// message: the server sees one message from one sender, whose body holds the line.
#[tokio::test]
async fn a_record_cannot_smuggle_an_smtp_command_into_the_message() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let id = estimate(&s, 0).await;
    let hostile = "Please pay.\r.\r\nMAIL FROM:<evil@example.com>\r\nRCPT TO:<victim@example.com>\r\nDATA\r\n.\r\nQUIT";
    let a = s
        .patch(
            &format!("/api/estimates/{id}"),
            crate::common::json(serde_json::json!({
                "bill_categoryid": estimate_category(&s).await,
                "bill_date": "2026-06-15",
                "bill_notes": hostile,
            })),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    publish(&s, id).await;
    assert_eq!(deliver_once(&s, &smtp.url()).await.sent, 1);
    let received = smtp.received();
    assert_eq!(received.len(), 1, "the server saw a second message");
    assert_eq!(received[0].to.len(), 1, "{:?}", received[0].to);
    assert!(
        !received[0].to[0].contains("victim"),
        "{:?}",
        received[0].to
    );
    let text = unquote(&part(&received[0].data, "text/plain"));
    assert!(text.contains("MAIL FROM:<evil@example.com>"), "{text}");
    assert!(
        !received[0].data.contains("\r.\r") && !received[0].data.contains("\n.\n"),
        "a bare line end around a dot reached the server"
    );
}

#[tokio::test]
async fn the_file_transport_writes_one_eml_file_per_message() {
    let s = TestServer::start().await;
    let dir = std::env::temp_dir().join(format!("crm-outbox-test-{}", s.db.name()));
    let _ = std::fs::remove_dir_all(&dir);
    let (estimate_id, email_id) = published(&s).await;
    let done = deliver_once(&s, &format!("file://{}", dir.display())).await;
    assert_eq!(done.sent, 1);
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(
        files[0].file_name().and_then(|e| e.to_str()),
        Some(format!("estimate-{estimate_id}-email-{email_id}.eml").as_str()),
        "the file is named by the record's kind and number"
    );
    let data = std::fs::read_to_string(&files[0]).unwrap();
    let number = s.number(&format!("/api/estimates/{estimate_id}")).await;
    assert_eq!(
        header(&data, "Subject"),
        Some(format!("Estimate {number} from CRM"))
    );
    assert!(part(&data, "text/html").contains("&#60;script&#62;"));
    let a = s.get(&format!("/api/emails/{email_id}")).await;
    assert_eq!(a.data()["status"], "sent");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn deliver_once_tries_each_due_row_once_even_when_attempts_outlast_the_retry_delays() {
    let s = TestServer::start().await;
    let (_, first) = published(&s).await;
    let (_, second) = published(&s).await;
    // A server that accepts connections and never greets: each attempt lasts the whole
    // send timeout (2 s), longer than the first retry delays (0.5-1 s, then 1-2 s).
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "smtp://127.0.0.1:{}?tls=none",
        silent.local_addr().unwrap().port()
    );
    let mailer = Mailer::new(Some(&url), "CRM <crm@localhost>").unwrap();
    let (_stop, stopped) = delivery::stop_channel();
    let short = WorkerOptions {
        send_timeout: Duration::from_secs(2),
        ..options(true)
    };
    let done = delivery::run(s.db.config(), &mailer, short, stopped).await;
    assert_eq!(
        done,
        Delivered {
            sent: 0,
            retried: 2,
            failed: 0
        }
    );
    for id in [first, second] {
        let a = s.get(&format!("/api/emails/{id}")).await;
        let email = a.data();
        assert_eq!(email["status"], "pending", "{email}");
        assert_eq!(email["attempts"], 1, "{email}");
        assert_eq!(email["last_error"], "timed out after 2 s", "{email}");
    }
    drop(silent);
}

#[tokio::test]
async fn a_stopped_worker_sends_nothing_and_leaves_the_rows_pending() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let (_, email_id) = published(&s).await;
    let mailer = Mailer::new(Some(&smtp.url()), "CRM <crm@localhost>").unwrap();
    let (stop, stopped) = delivery::stop_channel();
    stop.send(true).unwrap();
    let done = delivery::run(s.db.config(), &mailer, options(false), stopped).await;
    assert_eq!(done, Delivered::default());
    let a = s.get(&format!("/api/emails/{email_id}")).await;
    assert_eq!(a.data()["status"], "pending");
    assert_eq!(a.data()["attempts"], 0);
}

#[tokio::test]
async fn a_stop_during_a_send_lets_that_send_finish_and_leaves_the_rest_pending() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let (arrived, release) = smtp.hold_next();
    let (_, first) = published(&s).await;
    // One send at a time, so that the second email waits for a free place.
    let one_at_a_time = WorkerOptions {
        concurrency: 1,
        ..options(false)
    };
    let worker = Worker::start_with(&s, &smtp.url(), one_at_a_time);
    // The first message is on the server, which has not answered yet.
    tokio::task::spawn_blocking(move || arrived.recv_timeout(Duration::from_secs(60)))
        .await
        .unwrap()
        .expect("the worker sends the first message");
    // Another email is queued, then the worker is told to stop (what SIGTERM does in
    // `crm serve` and `crm deliver`) while its send is in progress.
    let (_, second) = published(&s).await;
    let _ = worker.stop.send(true);
    release.send(()).unwrap();
    let done = worker.task.await.unwrap();
    assert_eq!(done.sent, 1, "{done:?}");
    let first = s.get(&format!("/api/emails/{first}")).await;
    assert_eq!(first.data()["status"], "sent", "{:?}", first.json);
    assert_eq!(first.data()["attempts"], 1);
    let second = s.get(&format!("/api/emails/{second}")).await;
    assert_eq!(second.data()["status"], "pending", "{:?}", second.json);
    assert_eq!(second.data()["attempts"], 0);
    assert_eq!(smtp.received().len(), 1);
}

/// A private authority and a certificate it signed for 127.0.0.1, made with the openssl
/// command in a directory of the test's own (`name`, this process's id).
struct Authority {
    /// The directory holding the files (the test removes it).
    dir: PathBuf,
    /// The server's certificate and its key.
    cert: PathBuf,
    key: PathBuf,
    /// The authority's PEM as the mail URL's `ca=` value.
    ca_query: String,
}

fn private_authority(name: &str) -> Authority {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let dir = dir.as_path();
    std::fs::create_dir_all(dir).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("the openssl command");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    std::fs::write(
        dir.join("leaf.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    run(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=CRM test authority",
    ]);
    run(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "leaf.key",
        "-out",
        "leaf.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    run(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "leaf.pem",
        "-days",
        "2",
        "-extfile",
        "leaf.ext",
    ]);
    Authority {
        dir: dir.to_owned(),
        cert: dir.join("leaf.pem"),
        key: dir.join("leaf.key"),
        ca_query: dir.join("ca.pem").display().to_string().replace(' ', "%20"),
    }
}

#[tokio::test]
async fn starttls_and_auth_deliver_to_a_server_signed_by_a_trusted_private_authority() {
    let s = TestServer::start().await;
    let Authority {
        dir,
        cert,
        key,
        ca_query,
    } = private_authority("smtp-tls");
    let smtp = SmtpServer::start_tls(&cert, &key);
    let (_, email_id) = published(&s).await;

    // Without the authority the certificate is not trusted: a temporary failure, retried.
    let untrusted = format!("smtp://crm:x@127.0.0.1:{}?tls=required", smtp.port);
    let done = deliver_once(&s, &untrusted).await;
    assert_eq!(done.retried, 1, "{done:?}");
    assert!(smtp.state.lock().unwrap().logins.is_empty());

    // A wrong password is the server's 535: permanent.
    let (_, refused_id) = published(&s).await;
    retry_now(&s).await;
    let wrong = format!(
        "smtp://crm:wrong@127.0.0.1:{}?tls=required&ca={ca_query}",
        smtp.port
    );
    let first = deliver_once(&s, &wrong).await;
    assert_eq!(first.failed, 2, "{first:?}");
    let refused = s.get(&format!("/api/emails/{refused_id}")).await;
    assert_eq!(refused.data()["status"], "failed");
    assert!(
        refused.data()["last_error"]
            .as_str()
            .unwrap()
            .contains("535"),
        "{:?}",
        refused.json
    );

    // The right password over STARTTLS with the authority trusted: delivered.
    let (_, delivered_id) = published(&s).await;
    let right = format!(
        "smtp://crm:{}@127.0.0.1:{}?tls=required&ca={ca_query}",
        SMTP_PASSWORD.replace(' ', "%20"),
        smtp.port
    );
    let done = deliver_once(&s, &right).await;
    assert_eq!(done.sent, 1, "{done:?}");
    let sent = s.get(&format!("/api/emails/{delivered_id}")).await;
    assert_eq!(sent.data()["status"], "sent");
    assert_eq!(smtp.received().len(), 1);
    assert!(
        smtp.state
            .lock()
            .unwrap()
            .logins
            .contains(&("crm".to_owned(), SMTP_PASSWORD.to_owned()))
    );
    let _ = email_id;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A server that offers AUTH but not STARTTLS, as one seen through a man in the middle who
/// strips the STARTTLS offer: it records every command line it receives and accepts
/// whatever it is sent.
async fn start_stripping_server() -> (u16, Arc<Mutex<Vec<String>>>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let seen = lines.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let seen = seen.clone();
            tokio::spawn(async move {
                let (read, mut write) = tcp.into_split();
                let mut read = BufReader::new(read);
                let _ = write.write_all(b"220 strip.test ESMTP\r\n").await;
                let mut in_data = false;
                let mut line = String::new();
                while read.read_line(&mut line).await.is_ok_and(|n| n > 0) {
                    let command = line.trim_end().to_owned();
                    line.clear();
                    if in_data {
                        in_data = command != ".";
                        if !in_data {
                            let _ = write.write_all(b"250 2.0.0 queued\r\n").await;
                        }
                        continue;
                    }
                    seen.lock().unwrap().push(command.clone());
                    let verb = command.split(' ').next().unwrap_or("").to_ascii_uppercase();
                    let reply: &[u8] = match verb.as_str() {
                        "EHLO" => b"250-strip.test\r\n250 AUTH PLAIN LOGIN\r\n",
                        "AUTH" => b"235 2.7.0 Authentication succeeded\r\n",
                        "DATA" => {
                            in_data = true;
                            b"354 go ahead\r\n"
                        }
                        "QUIT" => b"221 bye\r\n",
                        _ => b"250 ok\r\n",
                    };
                    if write.write_all(reply).await.is_err() || verb == "QUIT" {
                        break;
                    }
                }
            });
        }
    });
    (port, lines)
}

#[tokio::test]
async fn tls_required_never_sends_the_password_to_a_server_that_offers_no_starttls() {
    let s = TestServer::start().await;
    let (port, lines) = start_stripping_server().await;
    let (_, email_id) = published(&s).await;
    // ?tls=required: the send stops after EHLO, before AUTH, and is retried.
    let required = format!("smtp://crm:hunter2@127.0.0.1:{port}?tls=required");
    let done = deliver_once(&s, &required).await;
    assert_eq!(done.retried, 1, "{done:?}");
    let commands = lines.lock().unwrap().clone();
    assert!(
        commands.iter().any(|c| c.starts_with("EHLO")),
        "{commands:?}"
    );
    assert!(
        commands.iter().all(|c| !c.starts_with("AUTH")),
        "{commands:?}"
    );
    let row = s.get(&format!("/api/emails/{email_id}")).await;
    assert_eq!(row.data()["status"], "pending");
    // The contract's default (STARTTLS when offered) sends it in plain text here, which
    // is why `crm` warns about such a URL at start.
    retry_now(&s).await;
    let done = deliver_once(&s, &format!("smtp://crm:hunter2@127.0.0.1:{port}")).await;
    assert_eq!(done.sent, 1, "{done:?}");
    let commands = lines.lock().unwrap().clone();
    assert!(
        commands.iter().any(|c| c.starts_with("AUTH")),
        "{commands:?}"
    );
}

#[tokio::test]
async fn smtps_speaks_tls_from_the_first_byte_and_never_falls_back_to_plain_text() {
    let s = TestServer::start().await;
    let Authority {
        dir,
        cert,
        key,
        ca_query,
    } = private_authority("smtps");
    let (smtp, tls_port) = start_implicit_tls(&cert, &key).await;

    // A server that greets in plain text (no TLS at all): smtps does not talk to it. The
    // attempt is a temporary failure, retried later, and the server received nothing.
    let (_, first_id) = published(&s).await;
    let plain = format!("smtps://127.0.0.1:{}?ca={ca_query}", smtp.port);
    let done = deliver_once(&s, &plain).await;
    assert_eq!(done.retried, 1, "{done:?}");
    assert!(smtp.received().is_empty());

    // TLS from the first byte, but a certificate of an authority not trusted: the same.
    retry_now(&s).await;
    let untrusted = format!("smtps://127.0.0.1:{tls_port}");
    let done = deliver_once(&s, &untrusted).await;
    assert_eq!(done.retried, 1, "{done:?}");
    assert!(smtp.received().is_empty());

    // With the authority trusted: delivered over TLS, the message whole.
    retry_now(&s).await;
    let trusted = format!("smtps://127.0.0.1:{tls_port}?ca={ca_query}");
    let done = deliver_once(&s, &trusted).await;
    assert_eq!(done.sent, 1, "{done:?}");
    let sent = s.get(&format!("/api/emails/{first_id}")).await;
    assert_eq!(sent.data()["status"], "sent");
    assert_eq!(sent.data()["attempts"], 3);
    let received = smtp.received();
    assert_eq!(received.len(), 1);
    assert_eq!(
        header(&received[0].data, "Subject").as_deref(),
        sent.data()["subject"].as_str()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_client_without_a_contact_address_is_told_so_and_nothing_is_queued() {
    let s = TestServer::start().await;
    let id = estimate(&s, 2).await;
    // Publishing succeeds: it is about the estimate, and queues no email.
    publish(&s, id).await;
    let before = s.get(&format!("/api/estimates/{id}")).await;
    // Emailing says why nothing would be sent and writes nothing (its transaction, and the
    // event it would have reported, roll back).
    let a = s
        .post(&format!("/api/estimates/{id}/send-email"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{:?}", a.json);
    assert_eq!(a.message(), "The client has no contact email.");
    assert!(emails_of(&s, id).await.is_empty());
    let total: i64 = s
        .sql()
        .await
        .query_one("SELECT count(*) FROM email_queue", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(total, 0);
    let after = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(after.data(), before.data());
}

// ---------------------------------------------------------------------------------------
// send-email whenever it comes (issue 47, item 6): the second hardening round refused a
// send-email within 60 s of the last email (409), against API.md §5 and §9. Now it always
// answers 200; its message is stored once per version of the record and shared by the rows
// that send it, and a send-email while the same message is still waiting on an earlier
// send-email's row joins that row.

/// How many messages are stored for estimate `id`, and how many distinct ones its rows
/// send.
async fn bodies_of(s: &TestServer, id: i64) -> (i64, i64) {
    let db = s.sql().await;
    let stored: i64 = db
        .query_one(
            "SELECT count(*) FROM email_bodies WHERE resource_type = 'estimate' AND resource_id = $1",
            &[&id],
        )
        .await
        .unwrap()
        .get(0);
    let used: i64 = db
        .query_one(
            "SELECT count(DISTINCT body_id) FROM email_queue WHERE estimate_id = $1",
            &[&id],
        )
        .await
        .unwrap()
        .get(0);
    (stored, used)
}

/// Publish, then send-email at once: 200 (the probe's 409 broke the API's description), and
/// each action queues its email, as API.md §10 says, both sharing one stored message; the
/// client receives both. Once they are sent, another send-email queues a new one.
#[tokio::test]
async fn send_email_right_after_publishing_is_a_200_and_the_client_receives_the_email() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let (id, _) = published(&s).await;
    let a = s
        .post(&format!("/api/estimates/{id}/send-email"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Estimate email queued successfully.");
    let emails = emails_of(&s, id).await;
    assert_eq!(
        emails.len(),
        2,
        "publish's email and send-email's: {emails:?}"
    );
    assert!(
        emails.iter().all(|e| e["status"] == "pending"),
        "{emails:?}"
    );
    assert_eq!(bodies_of(&s, id).await, (1, 1), "one message, stored once");
    let recipient = emails[0]["recipient"].as_str().unwrap().to_owned();

    let done = deliver_once(&s, &smtp.url()).await;
    assert_eq!((done.sent, done.failed, done.retried), (2, 0, 0));
    let received = smtp.received();
    assert_eq!(received.len(), 2);
    let number = s.number(&format!("/api/estimates/{id}")).await;
    for message in &received {
        assert_eq!(message.to, std::slice::from_ref(&recipient));
        assert!(
            message
                .data
                .contains(&format!("Subject: Estimate {number}")),
            "{}",
            message.data
        );
    }
    assert_eq!(
        part(&received[0].data, "text/plain"),
        part(&received[1].data, "text/plain")
    );

    // Both are sent: a send-email now queues a new email, with the same stored message.
    let a = s
        .post(&format!("/api/estimates/{id}/send-email"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let emails = emails_of(&s, id).await;
    let statuses: Vec<&str> = emails
        .iter()
        .map(|e| e["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["sent", "sent", "pending"]);
    assert_eq!(bodies_of(&s, id).await, (1, 1));
    assert_eq!(deliver_once(&s, &smtp.url()).await.sent, 1);
    assert_eq!(smtp.received().len(), 3);
}

/// A burst of 50 send-emails while the first one's email is still pending: 50 × 200, and
/// they join that email (one pending row of send-email's beside publish's, one stored
/// message), so the client receives it once; a joined send-email changed nothing, so it
/// reports no `estimate.emailed` event. A changed estimate is another message: its
/// send-email queues a new row and a new stored message.
#[tokio::test]
async fn a_burst_of_send_emails_while_one_is_pending_joins_it() {
    let s = TestServer::start().await;
    let smtp = SmtpServer::start(&[]);
    let hook = s
        .post(
            "/api/webhooks",
            crate::common::json(
                serde_json::json!({"url": "https://hooks.example.com/crm", "events": ["estimate.emailed"]}),
            ),
        )
        .await;
    assert_eq!(hook.status, StatusCode::CREATED, "{:?}", hook.json);
    let emailed_events = || async {
        s.scalar(
            "SELECT count(*) FROM webhook_events WHERE type = 'estimate.emailed' AND $1::bigint > 0",
            1,
        )
        .await
    };
    let (id, _) = published(&s).await;
    let send = format!("/api/estimates/{id}/send-email");
    let first = s.post(&send, Body::None).await;
    assert_eq!(first.status, StatusCode::OK, "{:?}", first.json);
    let answers = futures_util::future::join_all((0..50).map(|_| s.post(&send, Body::None))).await;
    for a in &answers {
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
        assert_eq!(a.message(), "Estimate email queued successfully.");
        assert_eq!(a.data(), first.data(), "the estimate is unchanged");
    }
    let emails = emails_of(&s, id).await;
    assert_eq!(
        emails.len(),
        2,
        "publish's and one send-email's: {emails:?}"
    );
    assert!(
        emails.iter().all(|e| e["status"] == "pending"),
        "{emails:?}"
    );
    assert_eq!(bodies_of(&s, id).await, (1, 1));
    assert_eq!(
        emailed_events().await,
        1,
        "the first send-email's event only"
    );
    let done = deliver_once(&s, &smtp.url()).await;
    assert_eq!(done.sent, 2);

    // The estimate changes: its next send-email is a new message.
    let a = s
        .put(
            &format!("/api/estimates/{id}/items"),
            form(&[
                ("items[0][description]", "Revised"),
                ("items[0][quantity]", "1"),
                ("items[0][rate]", "10"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let answers = futures_util::future::join_all((0..5).map(|_| s.post(&send, Body::None))).await;
    assert!(answers.iter().all(|a| a.status == StatusCode::OK));
    let emails = emails_of(&s, id).await;
    assert_eq!(emails.len(), 3, "{emails:?}");
    assert_eq!(emails[2]["status"], "pending");
    assert_eq!(bodies_of(&s, id).await, (2, 2));
    assert_eq!(emailed_events().await, 2);
}

// ---------------------------------------------------------------------------------------
// The read-only API.

#[tokio::test]
async fn the_email_endpoints_list_filter_sort_and_read_as_section_10_describes() {
    let s = TestServer::start().await;
    let (first, first_email) = published(&s).await;
    let (_, second_email) = published(&s).await;
    let a = s
        .post(&format!("/api/estimates/{first}/send-email"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK);
    let third_email = emails_of(&s, first).await[1]["id"].as_i64().unwrap();
    s.sql()
        .await
        .execute(
            "UPDATE email_queue SET status = 'sent', sent_at = now(), attempts = 1, next_attempt_at = NULL WHERE id = $1",
            &[&second_email],
        )
        .await
        .unwrap();

    let a = s.get("/api/emails").await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.message(), "Emails retrieved successfully.");
    let ids = |a: &crate::common::Answer| -> Vec<i64> {
        a.json["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(ids(&a), [third_email, second_email, first_email]);
    assert_eq!(
        page_meta(&a),
        serde_json::json!({"current_page": 1, "per_page": 35, "total": 3, "last_page": 1})
    );
    let e = &a.json["data"][2];
    let keys: BTreeSet<&str> = e.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        BTreeSet::from([
            "id",
            "recipient",
            "subject",
            "status",
            "attempts",
            "last_error",
            "resource",
            "dates",
            "attachments"
        ])
    );
    assert_eq!(
        e["resource"],
        serde_json::json!({"type": "estimate", "id": first})
    );
    assert_eq!(
        e["attachments"],
        serde_json::json!([]),
        "no PDF without the flag"
    );
    assert_eq!(e["status"], "pending");
    assert!(e["dates"]["created"].is_string());
    assert!(e["dates"]["next_attempt"].is_string());
    assert_eq!(e["dates"]["sent"], Value::Null);

    let a = s.get("/api/emails?status=sent").await;
    assert_eq!(ids(&a), [second_email]);
    let a = s
        .get(&format!(
            "/api/emails?resource_type=estimate&resource_id={first}"
        ))
        .await;
    assert_eq!(ids(&a), [third_email, first_email]);
    let a = s.get("/api/emails?resource_type=invoice").await;
    assert_eq!(ids(&a), Vec::<i64>::new());
    let a = s
        .get("/api/emails?sort=email_created&order=asc&limit=2&page=2")
        .await;
    assert_eq!(ids(&a), [third_email]);
    assert_eq!(a.json["meta"]["last_page"], 2);
    let a = s.get("/api/emails?sort=email_sent&order=asc").await;
    assert_eq!(ids(&a)[0], second_email);

    let a = s
        .get("/api/emails?status=sending&resource_type=note&resource_id=x&sort=id")
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(a.errors("status"), ["The selected status is invalid."]);
    assert_eq!(
        a.errors("resource_type"),
        ["The selected resource type is invalid."]
    );
    assert_eq!(
        a.errors("resource_id"),
        ["The resource id must be an integer."]
    );
    assert_eq!(a.errors("sort"), ["The selected sort is invalid."]);

    let a = s.get(&format!("/api/emails/{first_email}")).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.message(), "Email retrieved successfully.");
    assert_eq!(a.data()["id"], first_email);
    for missing in ["999999", "abc", "0", "99999999999999999999"] {
        let a = s.get(&format!("/api/emails/{missing}")).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{missing}");
        assert_eq!(a.message(), "Email not found.");
    }
    let a = s.delete(&format!("/api/emails/{first_email}")).await;
    assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED);
}
