//! One machine, for real (docs/deploy.md): the files the repository ships for a company's
//! deployment, run as they are. The systemd unit is checked by `systemd-analyze` (installed
//! by `scripts/install-systemd-tools` when missing); HAProxy (`scripts/install-cluster-tools`)
//! runs `deploy/haproxy.cfg` with a certificate made here by `openssl`, in front of a real
//! `crm serve`, and curl talks HTTPS to it. `restore` backs a database up with `pg_dump`
//! while writers run and restores it into a fresh cluster (step 7, Backups).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crm_store_pg::testing::TestDb;

// The api tests' webhook receiver; this binary uses part of it.
#[allow(dead_code, unreachable_pub)]
#[path = "../api/receiver.rs"]
mod receiver;
mod restore;

const CRM: &str = env!("CARGO_BIN_EXE_crm");

/// The repository's root.
fn root() -> PathBuf {
    // Without `..`: systemd refuses a path that is not normalized.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// A scratch folder of this test binary, emptied.
fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target/tmp/deploy").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn run(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"))
}

/// Runs a script of the repository that installs a tool when `tool` is not on PATH.
fn ensure(tool: &str, script: &str) {
    let found = Command::new("sh")
        .args([
            "-c",
            &format!("command -v {tool} || test -x /usr/sbin/{tool}"),
        ])
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success();
    if !found {
        let out = run(&mut Command::new(root().join(script)));
        assert!(
            out.status.success(),
            "{tool} is missing and {script} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A child process stopped (SIGTERM, then SIGKILL) when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        // Stopped and waited for already: its pid may belong to another process by now.
        if !matches!(self.0.try_wait(), Ok(None)) {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while matches!(self.0.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until `ready` holds, while `child` runs; the reason and the child's standard
/// error if it stops or 60 s pass.
fn wait_for(child: &mut Running, what: &str, ready: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if ready() {
            return;
        }
        if let Some(status) = child.0.try_wait().unwrap() {
            panic!("{what} stopped: {status}");
        }
        assert!(Instant::now() < deadline, "{what} did not become ready");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `curl` with the given arguments: (its exit status, standard output).
fn curl(args: &[&str]) -> (i32, String) {
    let out = run(Command::new("curl")
        .args(["-sS", "--max-time", "10"])
        .args(args));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_systemd_unit_passes_systemd_analyze_and_is_hardened() {
    ensure("systemd-analyze", "scripts/install-systemd-tools");
    let dir = scratch("unit");
    let unit = std::fs::read_to_string(root().join("deploy/crm.service")).unwrap();
    for directive in [
        "DynamicUser=yes",
        "ProtectSystem=strict",
        "NoNewPrivileges=yes",
        "EnvironmentFile=/etc/crm/crm.env",
        "ExecStart=/usr/local/bin/crm serve",
    ] {
        assert!(
            unit.lines().any(|l| l == directive),
            "the unit lacks {directive}"
        );
    }
    // The installed paths, pointed at this build and an environment file of the test:
    // `verify` checks that the program exists.
    let env_file = dir.join("crm.env");
    std::fs::copy(root().join("deploy/crm.env.example"), &env_file).unwrap();
    let local = unit
        .replace("/usr/local/bin/crm", CRM)
        .replace("/etc/crm/crm.env", &env_file.display().to_string());
    let path = dir.join("crm.service");
    std::fs::write(&path, local).unwrap();
    let out = run(Command::new("systemd-analyze").arg("verify").arg(&path));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // `verify` reports an unknown or malformed directive on standard error and still exits 0.
    assert!(stderr.trim().is_empty(), "systemd-analyze verify: {stderr}");
    // Exposure below 2.0 of 10 ("OK"); a unit without the hardening scores 9.6.
    let out = run(Command::new("systemd-analyze")
        .args(["security", "--offline=yes", "--threshold=20", "--no-pager"])
        .arg(&path));
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A self-signed certificate for `localhost` and 127.0.0.1, made by openssl: (the PEM
/// HAProxy reads, certificate then key; the certificate alone, for curl's trust).
fn certificate(dir: &Path) -> (PathBuf, PathBuf) {
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    let out = run(Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
        ])
        .args(["-nodes", "-days", "2", "-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pem = dir.join("crm.pem");
    let mut both = std::fs::read(&cert).unwrap();
    both.extend(std::fs::read(&key).unwrap());
    std::fs::write(&pem, both).unwrap();
    (pem, cert)
}

/// `deploy/haproxy.cfg` with this test's ports, certificate and service, and no syslog.
fn haproxy_config(dir: &Path, pem: &Path, https: u16, http: u16, service: u16) -> PathBuf {
    let shipped = std::fs::read_to_string(root().join("deploy/haproxy.cfg")).unwrap();
    let mut replaced = 0;
    let mut swap = |text: String, from: &str, to: &str| {
        if text.contains(from) {
            replaced += 1;
        }
        text.replace(from, to)
    };
    let text = swap(shipped, "    log /dev/log local0\n", "");
    let text = swap(text, "    log global\n", "");
    let text = swap(
        text,
        "bind :443 ssl crt /etc/haproxy/certs/crm.pem",
        &format!("bind 127.0.0.1:{https} ssl crt {}", pem.display()),
    );
    let text = swap(text, "bind :80\n", &format!("bind 127.0.0.1:{http}\n"));
    let text = swap(
        text,
        "server crm 127.0.0.1:8080",
        &format!("server crm 127.0.0.1:{service}"),
    );
    assert_eq!(replaced, 5, "deploy/haproxy.cfg changed its lines: {text}");
    let path = dir.join("haproxy.cfg");
    std::fs::write(&path, text).unwrap();
    path
}

#[tokio::test]
async fn haproxy_terminates_tls_in_front_of_the_service_with_the_shipped_configuration() {
    ensure("haproxy", "scripts/install-cluster-tools");
    let db = TestDb::new().await.unwrap();
    let url = db.config().database_url.clone();
    let dir = scratch("tls");
    let (pem, cert) = certificate(&dir);
    let (service, https, http) = (free_port(), free_port(), free_port());
    let public = format!("https://localhost:{https}");

    let mut crm = Running(
        Command::new(CRM)
            .args(["serve", "--listen", &format!("127.0.0.1:{service}")])
            .args(["--public-url", &public, "--trusted-proxy", "127.0.0.1/32"])
            .env("DATABASE_URL", &url)
            .env("RUST_LOG", "warn")
            .env(
                "CRM_MAIL_URL",
                format!("file://{}", dir.join("outbox").display()),
            )
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let health = format!("http://127.0.0.1:{service}/healthz");
    wait_for(&mut crm, "crm serve", || curl(&["-f", &health]).0 == 0);

    let config = haproxy_config(&dir, &pem, https, http, service);
    let check = run(Command::new("haproxy").arg("-c").arg("-f").arg(&config));
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let mut proxy = Running(
        Command::new("haproxy")
            .arg("-db")
            .arg("-f")
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let cacert = cert.display().to_string();
    let ready = format!("{public}/readyz");
    wait_for(&mut proxy, "haproxy", || {
        curl(&["-f", "--cacert", &cacert, &ready]).0 == 0
    });

    // A key, and a record made over HTTPS whose client link is the public https:// URL.
    let out = run(Command::new(CRM)
        .args(["keys", "create", "--name", "tls"])
        .env("DATABASE_URL", &url)
        .env("RUST_LOG", "warn"));
    assert!(out.status.success());
    let key = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let auth = format!("Authorization: Bearer {key}");
    let (status, body) = curl(&[
        "--cacert",
        &cacert,
        "-H",
        &auth,
        "-d",
        "note_title=Over TLS",
        "-d",
        "note_description=Encrypted",
        &format!("{public}/api/notes"),
    ]);
    assert_eq!(status, 0, "{body}");
    let note: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(note["data"]["title"], "Over TLS", "{body}");

    // The certificate is the one made here (curl refuses it without --cacert)…
    let (status, _) = curl(&[&format!("{public}/healthz")]);
    assert_eq!(
        status, 60,
        "curl's 'peer certificate cannot be authenticated'"
    );
    // …plain HTTP is only a redirect to HTTPS, with HSTS on the answers over TLS…
    let (_, head) = curl(&[
        "-D",
        "-",
        "-o",
        "/dev/null",
        &format!("http://127.0.0.1:{http}/api/notes"),
    ]);
    assert!(head.starts_with("HTTP/1.1 308"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("location: https://127.0.0.1"),
        "{head}"
    );
    let (_, head) = curl(&["--cacert", &cacert, "-D", "-", "-o", "/dev/null", &ready]);
    assert!(
        head.to_ascii_lowercase()
            .contains("strict-transport-security: max-age=31536000"),
        "{head}"
    );
    // …and TLS 1.1 is refused.
    let (status, _) = curl(&["--cacert", &cacert, "--tls-max", "1.1", &ready]);
    assert_ne!(status, 0, "TLS 1.1 was accepted");
}
