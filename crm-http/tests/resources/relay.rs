//! A TCP relay in front of the test's PostgreSQL server that can stop passing bytes: a
//! database that holds its connections without answering, for the tests that need one.

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
pub struct Relay {
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
    pub fn freeze(&self, frozen: bool) {
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

/// `crm serve` with `args`, connected to its fresh database through a [`Relay`].
pub async fn behind_relay(args: &[&str]) -> (Server, Relay) {
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
        args,
    )
    .await;
    (s, relay.expect("relay started"))
}
