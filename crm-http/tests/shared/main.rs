//! Instances that share: two `crm serve` processes limiting one API key together through a
//! real Redis (started here on a free port, nothing on disk), each falling back to its own
//! limiter while Redis is stopped and sharing again when it returns; and the client's
//! address taken from `X-Forwarded-For` only behind a trusted proxy (API.md §16); and the
//! recurring invoices' scheduler shared by instances and a worker (API.md §20, [`scheduler`]).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crm_store_pg::testing::TestDb;

#[path = "../cluster/http.rs"]
#[allow(dead_code)]
mod http;
mod scheduler;

use http::{call, metric};

const CRM: &str = env!("CARGO_BIN_EXE_crm");

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child process stopped (SIGTERM, then SIGKILL) when dropped.
struct Running(Child);

impl Running {
    fn stop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
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
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Waits until `ready` holds, up to `patience`.
fn wait_until(what: &str, patience: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + patience;
    while !ready() {
        assert!(Instant::now() < deadline, "{what}: not within {patience:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A Redis server of this test's own on `port`: no file written.
fn redis(port: u16) -> Running {
    let server = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .spawn()
        .expect("redis-server runs (scripts/install-cluster-tools installs it)");
    let running = Running(server);
    wait_until("redis-server listens", Duration::from_secs(20), || {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    running
}

/// `crm serve` on `port` with `args`, once /readyz answers.
fn serve(db: &TestDb, port: u16, args: &[&str]) -> Running {
    let server = Command::new(CRM)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .args(args)
        .env("DATABASE_URL", &db.config().database_url)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("crm serve starts");
    let mut running = Running(server);
    wait_until("crm serve is ready", Duration::from_secs(60), || {
        assert!(
            matches!(running.0.try_wait(), Ok(None)),
            "crm serve exited early"
        );
        call(port, "GET", "/readyz", &[], "").status == 200
    });
    running
}

fn key(db: &TestDb) -> String {
    let out = Command::new(CRM)
        .args(["keys", "create", "--name", "shared"])
        .env("DATABASE_URL", &db.config().database_url)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn metrics(port: u16) -> String {
    call(port, "GET", "/metrics", &[], "").body
}

#[test]
fn two_instances_share_one_limit_through_redis_and_fall_back_while_it_is_stopped() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let db = runtime.block_on(TestDb::new()).unwrap();
    let redis_port = free_port();
    let mut store = redis(redis_port);
    let url = format!("redis://127.0.0.1:{redis_port}/0");
    let limit = ["--rate-limit", "10/min", "--redis-url", url.as_str()];
    let (a, b) = (free_port(), free_port());
    let _one = serve(&db, a, &limit);
    let _two = serve(&db, b, &limit);
    let key = key(&db);
    let auth = format!("Bearer {key}");
    let headers = [("Authorization", auth.as_str())];
    // 30 requests alternating between the instances: one bucket of 10 for both (a token
    // comes back every 6 s, so a run of any reasonable speed gets 10 or 11).
    let started = Instant::now();
    let mut allowed = 0;
    for i in 0..30 {
        let port = if i % 2 == 0 { a } else { b };
        let answer = call(port, "GET", "/api/notes", &headers, "");
        assert!(
            matches!(answer.status, 200 | 429),
            "{} {}",
            answer.status,
            answer.body
        );
        assert_eq!(answer.header("ratelimit-limit"), Some("10"));
        if answer.status == 200 {
            allowed += 1;
        } else {
            assert!(answer.header("retry-after").is_some());
        }
    }
    let refills = (started.elapsed().as_secs() / 6) as usize;
    assert!(
        (10..=10 + refills + 1).contains(&allowed),
        "{allowed} of 30 allowed by two instances sharing 10/min"
    );
    assert_eq!(metric(&metrics(a), "crm_redis_up", ""), Some(1.0));

    // Redis stops: requests keep being answered, each instance limits on its own.
    store.stop();
    let other = self::key(&db);
    let auth = format!("Bearer {other}");
    let headers = [("Authorization", auth.as_str())];
    for port in [a, b] {
        for _ in 0..3 {
            let answer = call(port, "GET", "/api/notes", &headers, "");
            assert_eq!(answer.status, 200, "{}", answer.body);
            assert_eq!(answer.header("ratelimit-limit"), Some("10"));
        }
        let text = metrics(port);
        assert_eq!(metric(&text, "crm_redis_up", ""), Some(0.0), "{text}");
        assert!(metric(&text, "crm_rate_limit_fallback_total", "").unwrap() >= 1.0);
    }
    // Two separate buckets of 10 now: 10 more on each instance (13 in all each).
    let mut alone = 0;
    for port in [a, b] {
        for _ in 0..10 {
            if call(port, "GET", "/api/notes", &headers, "").status == 200 {
                alone += 1;
            }
        }
    }
    assert!(alone >= 14, "{alone}: each instance kept its own bucket");

    // Redis returns: the instances notice it and share again.
    let _back = redis(redis_port);
    for port in [a, b] {
        wait_until(
            "the instance finds Redis again",
            Duration::from_secs(30),
            || metric(&metrics(port), "crm_redis_up", "") == Some(1.0),
        );
    }
    let third = self::key(&db);
    let auth = format!("Bearer {third}");
    let headers = [("Authorization", auth.as_str())];
    let started = Instant::now();
    let allowed = (0..24)
        .filter(|i| {
            let port = if i % 2 == 0 { a } else { b };
            call(port, "GET", "/api/notes", &headers, "").status == 200
        })
        .count();
    let refills = (started.elapsed().as_secs() / 6) as usize;
    assert!((10..=10 + refills + 1).contains(&allowed), "{allowed}");
}

#[test]
fn forwarded_for_is_believed_only_from_trusted_proxies() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let db = runtime.block_on(TestDb::new()).unwrap();
    let failures = ["--auth-failure-limit", "3/min"];
    let behind = free_port();
    let _behind = serve(
        &db,
        behind,
        &[failures[0], failures[1], "--trusted-proxy", "127.0.0.0/8"],
    );
    let bad = [("Authorization", "Bearer crm_1_nope")];
    let from = |port: u16, client: &str| {
        let mut headers = bad.to_vec();
        headers.push(("X-Forwarded-For", client));
        call(port, "GET", "/api/notes", &headers, "").status
    };
    // Behind the trusted proxy, each client has its own failure allowance.
    for _ in 0..3 {
        assert_eq!(from(behind, "203.0.113.1"), 401);
    }
    assert_eq!(
        from(behind, "203.0.113.1"),
        429,
        "the first client is limited"
    );
    assert_eq!(from(behind, "203.0.113.2"), 401, "another client is not");
    // What a client writes left of the proxy's entry is not believed.
    assert_eq!(from(behind, "203.0.113.2, 203.0.113.1"), 429);

    // Without --trusted-proxy the header is ignored: everyone here is 127.0.0.1.
    let direct = free_port();
    let _direct = serve(&db, direct, &failures);
    for _ in 0..3 {
        assert_eq!(from(direct, "203.0.113.1"), 401);
    }
    assert_eq!(
        from(direct, "203.0.113.2"),
        429,
        "one address, one allowance"
    );
}

#[test]
fn bad_flags_of_the_deployment_are_refused_naming_the_flag() {
    for (args, flag) in [
        (
            &["serve", "--trusted-proxy", "proxy.example"][..],
            "--trusted-proxy",
        ),
        (
            &["serve", "--redis-url", "http://cache:6379"],
            "--redis-url",
        ),
        (&["serve", "--replica-max-lag", "0"], "--replica-max-lag"),
        (&["serve", "--replica-max-lag", "2h"], "--replica-max-lag"),
    ] {
        let out = Command::new(CRM)
            .args(args)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
    }
}

#[test]
fn the_redis_password_is_never_logged() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let db = runtime.block_on(TestDb::new()).unwrap();
    let port = free_port();
    let log = std::env::temp_dir().join(format!("crm-redis-log-{port}.txt"));
    // Nothing listens on the Redis port: the first request finds it unreachable and the
    // instance says so, naming the server.
    let server = Command::new(CRM)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .args(["--rate-limit", "5/s"])
        .args([
            "--redis-url",
            &format!("redis://:topsecret@127.0.0.1:{}/0", free_port()),
        ])
        .env("DATABASE_URL", &db.config().database_url)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let mut running = Running(server);
    wait_until("crm serve is ready", Duration::from_secs(60), || {
        call(port, "GET", "/readyz", &[], "").status == 200
    });
    let auth = format!("Bearer {}", key(&db));
    let answer = call(
        port,
        "GET",
        "/api/notes",
        &[("Authorization", auth.as_str())],
        "",
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.header("ratelimit-limit"), Some("5"));
    running.stop();
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert!(text.contains("Redis cannot be reached"), "{text}");
    assert!(!text.contains("topsecret"), "{text}");
}
