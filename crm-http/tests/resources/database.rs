//! A database that holds its connections without answering — hung, or behind a proxy or
//! a network path that stopped passing bytes — must not hold the service's clients: the
//! health checks answer 503 within the connect timeout, every other request 503 within the
//! request timeout, and the service recovers by itself when the database answers again.
//! Refused connections are the easy case (an immediate error); this one needs timeouts.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio_postgres::config::Host;

use crate::common::Server;

/// A TCP relay in front of the test's PostgreSQL server that can stop passing bytes
/// (holding every connection open, and accepting new ones that never reach the server)
/// and start again.
struct Relay {
    port: u16,
    frozen: Arc<AtomicBool>,
}

/// One direction of a relayed connection.
type Pipe = (Box<dyn Read + Send>, Box<dyn Write + Send>);

impl Relay {
    /// Relays 127.0.0.1:<port> to `host`:`port_upstream` (TCP, or the server's Unix socket
    /// in the directory `host`).
    fn start(host: Host, upstream_port: u16) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").expect("relay listens");
        let port = listener.local_addr().expect("relay address").port();
        let frozen = Arc::new(AtomicBool::new(false));
        let gate = Arc::clone(&frozen);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { break };
                let host = host.clone();
                let gate = Arc::clone(&gate);
                std::thread::spawn(move || {
                    // A connection opened while frozen is accepted and never answered.
                    wait_while(&gate);
                    let Some((up_read, up_write)) = upstream(&host, upstream_port) else {
                        return;
                    };
                    let (Ok(client_read), client_write) = (client.try_clone(), client) else {
                        return;
                    };
                    let back = Arc::clone(&gate);
                    std::thread::spawn(move || pump(up_read, Box::new(client_write), &back));
                    pump(Box::new(client_read), up_write, &gate);
                });
            }
        });
        Relay { port, frozen }
    }

    /// Stops (`true`) or resumes (`false`) passing bytes.
    fn freeze(&self, frozen: bool) {
        self.frozen.store(frozen, Ordering::SeqCst);
    }
}

fn wait_while(frozen: &AtomicBool) {
    while frozen.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn upstream(host: &Host, port: u16) -> Option<Pipe> {
    match host {
        Host::Tcp(name) => {
            let stream = TcpStream::connect((name.as_str(), port)).ok()?;
            Some((Box::new(stream.try_clone().ok()?), Box::new(stream)))
        }
        Host::Unix(dir) => {
            let stream = UnixStream::connect(dir.join(format!(".s.PGSQL.{port}"))).ok()?;
            Some((Box::new(stream.try_clone().ok()?), Box::new(stream)))
        }
    }
}

/// Copies `from` to `to`, holding each chunk while the relay is frozen.
fn pump(mut from: Box<dyn Read + Send>, mut to: Box<dyn Write + Send>, frozen: &AtomicBool) {
    let mut buffer = [0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        wait_while(frozen);
        if to.write_all(&buffer[..n]).is_err() {
            return;
        }
    }
}

#[tokio::test]
async fn a_database_that_stops_answering_gets_503s_in_bounded_time_and_the_service_recovers() {
    let mut relay = None;
    let s = Server::start_through(
        |db| {
            let config = db.config().pg_config().expect("test database URL");
            let host = config.get_hosts().first().cloned().expect("a host");
            let port = config.get_ports().first().copied().unwrap_or(5432);
            let r = Relay::start(host, port);
            let url = format!(
                "host=127.0.0.1 port={} dbname='{}' user='{}'",
                r.port,
                config.get_dbname().expect("a database"),
                config.get_user().unwrap_or("postgres"),
            );
            relay = Some(r);
            url
        },
        &["--request-timeout", "2"],
    )
    .await;
    let relay = relay.expect("relay started");

    // Through the relay, everything answers; the key is verified (and cached) now.
    assert_eq!(s.get("/healthz", None).status, 200);
    let listed = s.get("/api/notes", Some(&s.key));
    assert_eq!(listed.status, 200, "{}", listed.body);

    // A key the service has not seen yet, stored directly (not through the relay).
    let unseen = s.raw_key_for(1).await;

    relay.freeze(true);
    for path in ["/healthz", "/readyz"] {
        let answer = s.get(path, None);
        assert_eq!(answer.status, 503, "{path}: {}", answer.body);
        assert_eq!(answer.header("retry-after").as_deref(), Some("5"), "{path}");
    }
    let read = s.get("/api/notes", Some(&s.key));
    assert_eq!(read.status, 503, "{}", read.body);
    assert_eq!(
        read.json()["message"],
        "Service temporarily unavailable.",
        "{}",
        read.body
    );
    // Looking up a key the cache does not hold is bounded by the store's 5 s check.
    let lookup = s.get("/api/notes", Some(&unseen));
    assert_eq!(lookup.status, 503, "{}", lookup.body);
    // A write with an idempotency key runs in a transaction: the one the timeout
    // abandoned rolls back once the database answers, so the retry makes the one effect.
    let create = || {
        let body = "note_title=Frozen&note_description=Sent+while+frozen";
        s.send(
            format!(
                "POST /api/notes HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {}\r\n\
                 Idempotency-Key: frozen-1\r\n\
                 Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                s.key,
                body.len()
            )
            .as_bytes(),
        )
    };
    let write = create();
    assert_eq!(write.status, 503, "{}", write.body);
    assert!(s.logged("no answer within the request timeout") >= 2);

    relay.freeze(false);
    assert!(s.eventually(|| s.get("/healthz", None).status == 200));
    assert!(s.eventually(|| s.get("/readyz", None).status == 200));
    let listed = s.get("/api/notes", Some(&s.key));
    assert_eq!(listed.status, 200, "{}", listed.body);
    let seen = s.get("/api/notes", Some(&unseen));
    assert_eq!(seen.status, 200, "{}", seen.body);
    let retried = create();
    assert_eq!(retried.status, 201, "{}", retried.body);
    assert_eq!(retried.header("idempotent-replayed"), None);
    let db = s.db.client().await.expect("database");
    let created: i64 = db
        .query_one("SELECT count(*) FROM notes WHERE title = 'Frozen'", &[])
        .await
        .expect("count")
        .get(0);
    assert_eq!(created, 1);
}
