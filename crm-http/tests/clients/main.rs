//! The clients of issue 54, as an integrator uses them: each is generated (or written) from
//! the current OpenAPI document with no warning, and drives the README's walkthrough against
//! the real service (the built `crm`, on a fresh database of its own).
//!
//! The tools are pinned and installed on the first run by the project's scripts: PyPI
//! packages by `scripts/python-client` (a virtual environment under `scripts/`), npm packages
//! by `scripts/typescript-client` (`npm ci` in `clients/typescript`). docs/clients.md
//! describes the clients.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crm_store_pg::testing::TestDb;

mod python;
mod rust;
mod typescript;

const CRM: &str = env!("CARGO_BIN_EXE_crm");

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A folder of this test's own under the system's temporary folder, emptied.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crm-clients-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The served document, as the build assembled it, in a file of `dir`.
fn document_file(dir: &Path) -> PathBuf {
    let path = dir.join("openapi.json");
    std::fs::write(&path, crm_http::openapi::DOCUMENT).unwrap();
    path
}

/// Runs `command`, failing the test with its output when it does not succeed.
fn run(command: &mut Command, what: &str) -> Output {
    let output = command.stdin(Stdio::null()).output().expect(what);
    assert!(
        output.status.success(),
        "{what}: {}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Every file under `dir` (relative path → bytes), leaving out Python's byte-code caches.
fn tree(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut std::collections::BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|n| n == "__pycache__") {
                continue;
            }
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let relative = path.strip_prefix(base).unwrap().to_path_buf();
                out.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Fails, naming the files, when the generated tree `fresh` differs from the committed one.
fn assert_same_tree(fresh: &Path, committed: &Path, regenerate: &str) {
    let (fresh, kept) = (tree(fresh), tree(committed));
    let mut differences = Vec::new();
    for (path, bytes) in &fresh {
        match kept.get(path) {
            None => differences.push(format!("new: {}", path.display())),
            Some(old) if old != bytes => differences.push(format!("changed: {}", path.display())),
            Some(_) => {}
        }
    }
    differences.extend(
        kept.keys()
            .filter(|path| !fresh.contains_key(*path))
            .map(|path| format!("gone: {}", path.display())),
    );
    assert!(
        differences.is_empty(),
        "{} is stale: the client generated from the current document differs in\n  {}\n\
         Regenerate it with\n    {regenerate}",
        committed.display(),
        differences.join("\n  ")
    );
}

/// A running `crm serve` on a fresh migrated database, with a key; stopped (SIGTERM) when
/// dropped.
struct Service {
    /// `http://127.0.0.1:<port>`.
    base: String,
    /// A key acting as the first administrator.
    key: String,
    child: Child,
    _db: TestDb,
}

impl Service {
    async fn start() -> Service {
        let db = TestDb::new().await.unwrap();
        let url = db.config().database_url.clone();
        let crm = |args: &[&str]| {
            run(
                Command::new(CRM)
                    .args(args)
                    .env("DATABASE_URL", &url)
                    .env("RUST_LOG", "warn"),
                &format!("crm {}", args.join(" ")),
            )
        };
        crm(&["migrate"]);
        let key = String::from_utf8(crm(&["keys", "create", "--name", "client-test"]).stdout)
            .unwrap()
            .trim()
            .to_owned();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let listen = format!("127.0.0.1:{port}");
        let child = Command::new(CRM)
            .args(["serve", "--listen", &listen])
            .env("DATABASE_URL", &url)
            // Its advice on a development setup (a loopback public URL, …) is not the test's.
            .env("RUST_LOG", "error")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("crm serve starts");
        let mut service = Service {
            base: format!("http://{listen}"),
            key,
            child,
            _db: db,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = service.child.try_wait().unwrap() {
                panic!("crm serve exited early: {status}");
            }
            if healthy(&listen) {
                return service;
            }
            assert!(
                Instant::now() < deadline,
                "crm serve did not answer /healthz in time"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Whether `GET /healthz` at `listen` answers 200.
fn healthy(listen: &str) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(listen) else {
        return false;
    };
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {listen}\r\nConnection: close\r\n\r\n");
    let mut answer = String::new();
    stream.write_all(request.as_bytes()).is_ok()
        && stream.read_to_string(&mut answer).is_ok()
        && answer.starts_with("HTTP/1.1 200")
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
