//! The `crm serve` process under test, and a raw HTTP/1.1 client.
//!
//! Each test runs the built binary as its own process over a fresh seeded database, so its
//! memory is read from `/proc/<pid>/status` without the test harness or other tests in it,
//! and the flags are the ones an operator would pass. `CRM_RESOURCE_TEST_BIN` names another
//! binary to run the same tests against (an older build, to see a defect reproduced).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crm_core::ids::UserId;
use crm_http::auth;
use crm_store_pg::Store;
use crm_store_pg::seed::SeedIds;
use crm_store_pg::testing::TestDb;

/// The binary under test.
fn binary() -> String {
    std::env::var("CRM_RESOURCE_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_crm").into())
}

/// Longest wait for anything the server should do promptly (start, answer, close).
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A running `crm serve` on a fresh seeded database.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// A key acting as user 1.
    pub key: String,
    /// The store (for keys and rows).
    pub store: Store,
    /// The seeded ids.
    pub ids: SeedIds,
    /// Every line it logged so far.
    pub log: Arc<Mutex<Vec<String>>>,
    /// The database (dropped after the server).
    pub db: TestDb,
}

impl Server {
    /// Starts `crm serve --listen 127.0.0.1:0` with `args`, a small pool, and waits until it
    /// listens.
    pub async fn start(args: &[&str]) -> Server {
        let db = TestDb::new().await.expect("test database");
        let store = db.store().expect("store");
        let ids = store.seed().await.expect("seed");
        let key = create_key(&store, 1).await;
        let url = db.config().database_url.clone();
        Server::start_on(db, store, ids, key, &url, "", args)
    }

    /// As [`Server::start`], with the server given the database URL `through` makes of the
    /// fresh database (a relay in front of it, say); the test's own store connects directly.
    pub async fn start_through(through: impl FnOnce(&TestDb) -> String, args: &[&str]) -> Server {
        let db = TestDb::new().await.expect("test database");
        let store = db.store().expect("store");
        let ids = store.seed().await.expect("seed");
        let key = create_key(&store, 1).await;
        let url = through(&db);
        Server::start_on(db, store, ids, key, &url, "", args)
    }

    /// As [`Server::start`], run through `sh -c "<shell_prefix> exec crm …"` (to lower a
    /// limit first).
    pub async fn start_with_shell(shell_prefix: &str, args: &[&str]) -> Server {
        let db = TestDb::new().await.expect("test database");
        let store = db.store().expect("store");
        let ids = store.seed().await.expect("seed");
        let key = create_key(&store, 1).await;
        let url = db.config().database_url.clone();
        Server::start_on(db, store, ids, key, &url, shell_prefix, args)
    }

    fn start_on(
        db: TestDb,
        store: Store,
        ids: SeedIds,
        key: String,
        database_url: &str,
        shell_prefix: &str,
        args: &[&str],
    ) -> Server {
        let mut all: Vec<String> = vec!["serve".into(), "--listen".into(), "127.0.0.1:0".into()];
        // A small pool unless the test sets one: many servers share the database server.
        for (flag, value) in [("--pool-size", "4"), ("--readers", "1")] {
            if !args.contains(&flag) {
                all.extend([flag.to_owned(), value.to_owned()]);
            }
        }
        all.extend(args.iter().map(|a| (*a).to_owned()));
        let mut command = if shell_prefix.is_empty() {
            let mut c = Command::new(binary());
            c.args(&all);
            c
        } else {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("{shell_prefix} exec \"$0\" \"$@\""))
                .arg(binary())
                .args(&all);
            c
        };
        command
            .env("DATABASE_URL", database_url)
            .env("RUST_LOG", "warn,crm=info,crm::access=off")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("crm serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let log = Arc::new(Mutex::new(Vec::new()));
        let (found, listening) = std::sync::mpsc::channel();
        let lines = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let addr = line
                    .contains("listening")
                    .then(|| {
                        line.split_whitespace()
                            .find_map(|w| w.strip_prefix("address="))
                            .map(str::to_owned)
                    })
                    .flatten();
                // The line is kept before the start is announced: a test that reads the
                // listening line right after `start` finds it.
                lines.lock().unwrap_or_else(|p| p.into_inner()).push(line);
                if let Some(addr) = addr {
                    let _ = found.send(addr);
                }
            }
        });
        let addr = match listening.recv_timeout(PATIENCE) {
            Ok(addr) => addr.parse().expect("a socket address"),
            Err(_) => {
                let _ = child.kill();
                panic!(
                    "crm serve did not start: {:?}",
                    log.lock().unwrap_or_else(|p| p.into_inner())
                );
            }
        };
        Server {
            child,
            addr,
            key,
            store,
            ids,
            log,
            db,
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory now, in bytes (`VmRSS` of `/proc/<pid>/status`).
    pub fn rss(&self) -> u64 {
        status_kib(self.pid(), "VmRSS") * 1024
    }

    /// Log lines containing `text`.
    pub fn logged(&self, text: &str) -> usize {
        self.log
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .filter(|l| l.contains(text))
            .count()
    }

    /// A new key acting as `user`, stored directly (whatever the user is).
    pub async fn raw_key_for(&self, user: i64) -> String {
        let secret = auth::new_secret().expect("randomness");
        let client = self.db.client().await.expect("database");
        let digest = auth::digest(&secret);
        let row = client
            .query_one(
                "INSERT INTO api_keys (name, digest, user_id) VALUES ('raw', $1, $2) RETURNING id",
                &[&digest.as_slice(), &user],
            )
            .await
            .expect("key stored");
        let id: i64 = row.get(0);
        format!("crm_{id}_{secret}")
    }

    /// A key made the ordinary way (`user` must be an administrator).
    pub async fn key_for(&self, user: i64) -> String {
        create_key(&self.store, user).await
    }

    /// One request on a new connection; the whole answer.
    pub fn send(&self, raw: &[u8]) -> Answer {
        let mut stream = self.connect();
        stream.write_all(raw).expect("request sent");
        read_answer(&mut stream)
    }

    /// `GET path` with `key` (if any), `Connection: close`.
    pub fn get(&self, path: &str, key: Option<&str>) -> Answer {
        let auth = key
            .map(|k| format!("Authorization: Bearer {k}\r\n"))
            .unwrap_or_default();
        self.send(
            format!("GET {path} HTTP/1.1\r\nHost: test\r\n{auth}Connection: close\r\n\r\n")
                .as_bytes(),
        )
    }

    /// A connection with generous timeouts (a test never hangs on a silent server).
    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).expect("connect");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        stream.set_write_timeout(Some(PATIENCE)).expect("timeout");
        stream.set_nodelay(true).expect("nodelay");
        stream
    }

    /// A connection from the loopback address `local` (127.0.0.2, …: every 127.x.y.z is
    /// this machine), as [`Server::connect`] makes them.
    pub async fn connect_from(&self, local: std::net::Ipv4Addr) -> TcpStream {
        let stream = connect_from(self.addr, local).await.expect("connect");
        let stream = stream.into_std().expect("a std stream");
        stream.set_nonblocking(false).expect("blocking");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        stream.set_write_timeout(Some(PATIENCE)).expect("timeout");
        stream.set_nodelay(true).expect("nodelay");
        stream
    }

    /// The value of `field=` in the "listening" line (`max_connections`, …).
    pub fn listening(&self, field: &str) -> Option<String> {
        let log = self.log.lock().unwrap_or_else(|p| p.into_inner());
        let line = log.iter().find(|l| l.contains("listening"))?;
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{field}=")))
            .map(str::to_owned)
    }

    /// Descriptors the process has open now.
    pub fn open_files(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.pid()))
            .map(Iterator::count)
            .unwrap_or(0)
    }

    /// Retries `check` until it holds or [`PATIENCE`] runs out; whether it held.
    pub fn eventually(&self, mut check: impl FnMut() -> bool) -> bool {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if check() {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A tokio connection to `server` from the loopback address `local`.
pub async fn connect_from(
    server: SocketAddr,
    local: std::net::Ipv4Addr,
) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((local, 0)))?;
    socket.connect(server).await
}

/// Raises this process's soft open-file limit to its hard limit (a test holding thousands
/// of connections needs a descriptor for each); the limit now.
pub fn raise_file_limit() -> u64 {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let _ = setrlimit(
        Resource::Nofile,
        Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        },
    );
    getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX)
}

/// A `kB` figure of `/proc/<pid>/status`.
pub fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{field}:")))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc/{pid}/status"))
}

/// An HTTP answer read to the end of the connection.
#[derive(Debug)]
pub struct Answer {
    /// Status code (0 when nothing came back).
    pub status: u16,
    /// The head, lower-cased.
    pub head: String,
    /// The body.
    pub body: String,
}

impl Answer {
    /// The body as JSON (`Null` if it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// The value of a header, if present.
    pub fn header(&self, name: &str) -> Option<String> {
        let wanted = format!("{}:", name.to_ascii_lowercase());
        self.head
            .lines()
            .find_map(|l| l.strip_prefix(&wanted))
            .map(|v| v.trim().to_owned())
    }
}

/// Reads an answer until the server closes the connection (or the read times out).
pub fn read_answer(stream: &mut TcpStream) -> Answer {
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
    }
    parse_answer(&raw)
}

/// Parses one answer (`Content-Length` framed, as this service answers).
pub fn parse_answer(raw: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(raw);
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let head = head.to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(rest.len());
    Answer {
        status,
        head,
        body: rest.chars().take(length).collect(),
    }
}

async fn create_key(store: &Store, user: i64) -> String {
    let secret = auth::new_secret().expect("randomness");
    let id = store
        .create_api_key(
            "test",
            UserId::new(user).expect("user id"),
            &auth::digest(&secret),
        )
        .await
        .expect("key")
        .expect("an administrator");
    auth::key_text(id, &secret)
}
