//! The whole deployment of `scripts/cluster` (API.md §16, docs/deploy.md): a primary and a
//! streaming replica applying the log 2 s late, PgBouncer in transaction pooling mode,
//! Redis, three `crm serve` instances behind HAProxy. One test drives it through its
//! stages, in order, since each stage breaks something the next ones live with:
//!
//! 1. the walkthrough's operations through HAProxy;
//! 2. a key's write read at once through another instance (read-your-writes while the
//!    replica is 2 s behind), and reads served by the replica for a key that wrote nothing;
//! 3. one rate limit shared by the instances;
//! 4. the replica stopped: reads keep answering;
//! 5. the primary restarted: 503 with Retry-After meanwhile, then recovery, no
//!    acknowledged write lost;
//! 6. an instance killed under load: HAProxy routes around it, no acknowledged write lost;
//! 7. Redis stopped: limits fall back to each instance, requests keep working.
//!
//! The tools come from Debian's packages (scripts/install-cluster-tools); without them the
//! test fails and says so.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod http;

use http::{Answer, call, metric};

const CRM: &str = env!("CARGO_BIN_EXE_crm");

/// The rate limit every instance applies (per key, shared through Redis).
const RATE: &str = "600/min";

/// A running deployment, stopped (`scripts/cluster down`) when dropped.
struct Deployment {
    root: PathBuf,
    dir: PathBuf,
    env: HashMap<String, String>,
}

impl Deployment {
    fn script(&self, args: &[&str]) -> std::process::Output {
        Command::new(self.root.join("scripts/cluster"))
            .args(args)
            .env("CRM_CLUSTER_DIR", &self.dir)
            .output()
            .expect("scripts/cluster runs")
    }

    fn port(&self, name: &str) -> u16 {
        self.env[name].parse().unwrap()
    }

    fn haproxy(&self) -> u16 {
        self.port("CRM_HAPROXY_PORT")
    }

    fn instance(&self, n: usize) -> u16 {
        self.port(&format!("CRM_PORT_{n}"))
    }

    fn instances(&self) -> Vec<u16> {
        (1..=3).map(|n| self.instance(n)).collect()
    }

    /// A new API key (through the direct connection), with its Authorization value.
    fn key(&self, name: &str) -> String {
        let out = Command::new(CRM)
            .args(["keys", "create", "--name", name])
            .env("DATABASE_URL", &self.env["CRM_DIRECT_URL"])
            .env("RUST_LOG", "warn")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        format!("Bearer {}", String::from_utf8(out.stdout).unwrap().trim())
    }

    /// Runs a PostgreSQL tool as the postgres user (as root) on one of the data folders.
    fn pg_ctl(&self, data: &str, action: &[&str]) {
        let pg_ctl = Path::new(&self.env["PG_BIN"]).join("pg_ctl");
        let data = self.dir.join(data);
        let mut command = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(pg_ctl);
            c
        } else {
            Command::new(pg_ctl)
        };
        let log = self.dir.join(format!(
            "{}.log",
            data.file_name().unwrap().to_string_lossy()
        ));
        let status = command
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(log)
            .args(["-w", "-m", "fast"])
            .args(action)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "pg_ctl {action:?} on {}", data.display());
    }

    fn kill(&self, pidfile: &str, signal: &str) {
        let pid = std::fs::read_to_string(self.dir.join(pidfile)).unwrap();
        let status = Command::new("kill")
            .args([signal, pid.trim()])
            .status()
            .unwrap();
        assert!(status.success(), "kill {signal} {pidfile}");
    }

    /// Waits (at most 20 s) until HAProxy's health checks have marked the instance `server`
    /// (`crm2`) down, as its stats socket (`show stat`) reports it.
    fn wait_down(&self, server: &str) {
        use std::io::{Read, Write};
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let mut socket =
                std::os::unix::net::UnixStream::connect(self.dir.join("haproxy.sock")).unwrap();
            socket.write_all(b"show stat\n").unwrap();
            let mut stat = String::new();
            socket.read_to_string(&mut stat).unwrap();
            // CSV: proxy, server, …, the status is the 18th field.
            let down = stat.lines().any(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                fields.len() > 17
                    && fields[0] == "crm"
                    && fields[1] == server
                    && fields[17].starts_with("DOWN")
            });
            if down {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "HAProxy never marked {server} down"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Sends `SIGTERM` to the process of `pidfile` and waits (at most 10 s) until it has
    /// exited: what comes next must not still be served by it.
    fn stop(&self, pidfile: &str) {
        self.kill(pidfile, "-TERM");
        let pid = std::fs::read_to_string(self.dir.join(pidfile)).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        // Gone, or a zombie whose parent has not reaped it yet.
        let running = || {
            std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).is_ok_and(|stat| {
                stat.rsplit(')')
                    .next()
                    .is_some_and(|s| !s.starts_with(" Z"))
            })
        };
        while running() {
            assert!(Instant::now() < deadline, "{pidfile} did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Deployment {
    fn drop(&mut self) {
        let _ = self.script(&["down"]);
        // A failed run keeps its folder (the logs of every piece); a passing one does not
        // leave two data folders behind.
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Starts the deployment (fails, naming the install script, when its tools are missing).
fn up() -> Deployment {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned();
    let target = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.to_owned()))
        .unwrap_or_else(|| root.join("target"));
    let dir = target.join(format!("cluster-test-{}", std::process::id()));
    let out = Command::new(root.join("scripts/cluster"))
        .args(["up", "3"])
        .env("CRM_CLUSTER_DIR", &dir)
        .env("CRM_BIN", CRM)
        .env("CRM_CLUSTER_APPLY_DELAY", "2s")
        .env("CRM_CLUSTER_RATE_LIMIT", RATE)
        .output()
        .expect("scripts/cluster runs");
    let mut deployment = Deployment {
        root,
        dir: dir.clone(),
        env: HashMap::new(),
    };
    assert!(
        out.status.success(),
        "scripts/cluster up failed (the tools come from scripts/install-cluster-tools; \
         .ci/run calls it): {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let env = std::fs::read_to_string(dir.join("env")).unwrap();
    deployment.env = env
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.trim_matches('\'').to_owned()))
        .collect();
    deployment
}

fn wait_until(what: &str, patience: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + patience;
    while !ready() {
        assert!(Instant::now() < deadline, "{what}: not within {patience:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn get(port: u16, path: &str, auth: &str) -> Answer {
    call(port, "GET", path, &[("Authorization", auth)], "")
}

fn send(port: u16, method: &str, path: &str, auth: &str, form: &str) -> Answer {
    call(port, method, path, &[("Authorization", auth)], form)
}

fn ok(answer: Answer, expected: u16) -> Answer {
    assert_eq!(answer.status, expected, "{}", answer.body);
    answer
}

fn today() -> String {
    chrono::Utc::now().date_naive().to_string()
}

#[test]
fn a_whole_deployment_behind_haproxy_keeps_working_while_its_parts_fail() {
    let cluster = up();
    walkthrough(&cluster);
    read_your_writes(&cluster);
    shared_limit(&cluster);
    replica_stopped(&cluster);
    primary_restarted(&cluster);
    instance_killed(&cluster);
    redis_stopped(&cluster);
}

/// The README walkthrough's operations, every request through HAProxy.
fn walkthrough(cluster: &Deployment) {
    let lb = cluster.haproxy();
    let auth = cluster.key("walkthrough");
    let seed = Command::new(CRM)
        .args(["seed", "--json"])
        .env("DATABASE_URL", &cluster.env["CRM_DIRECT_URL"])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(seed.status.success());
    let seed: serde_json::Value = serde_json::from_slice(&seed.stdout).unwrap();
    let client = seed["clients"][0]["id"].as_i64().unwrap();
    let vat = seed["tax_rates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["rate"] == "20.00")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let category = ok(
        send(
            lb,
            "POST",
            "/api/categories",
            &auth,
            "category_name=Cluster&category_type=estimate",
        ),
        201,
    )
    .id();
    let estimate = ok(
        send(
            lb,
            "POST",
            "/api/estimates",
            &auth,
            &format!(
                "bill_clientid={client}&bill_categoryid={category}&bill_date={}&bill_expiry_date={}",
                today(),
                today()
            ),
        ),
        201,
    )
    .id();
    let items = ok(
        send(
            lb,
            "PUT",
            &format!("/api/estimates/{estimate}/items"),
            &auth,
            &format!(
                "items[0][description]=Design&items[0][quantity]=1.5&items[0][rate]=1385.27&\
                 items[1][description]=Hosting&items[1][quantity]=12&items[1][rate]=9.99&\
                 tax_rate_ids[]={vat}"
            ),
        ),
        200,
    );
    assert_eq!(items.json()["data"]["totals"]["final_amount"], "2637.34");
    ok(
        send(
            lb,
            "PUT",
            &format!("/api/estimates/{estimate}/publish"),
            &auth,
            "",
        ),
        200,
    );
    // The published estimate read at once, through whichever instance: its link is there.
    let link = ok(get(lb, &format!("/api/estimates/{estimate}"), &auth), 200).json()["data"]
        ["client_link"]["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let page = link.split_once("/c/").unwrap().1;
    assert_eq!(call(lb, "GET", &format!("/c/{page}"), &[], "").status, 200);
    // A safe retry lands on other instances and still gets the first answer.
    let convert = format!("/api/estimates/{estimate}/convert-to-invoice");
    let idem = [
        ("Authorization", auth.as_str()),
        ("Idempotency-Key", "cluster-convert"),
    ];
    let first = call(lb, "POST", &convert, &idem, "");
    let again = call(lb, "POST", &convert, &idem, "");
    assert_eq!((first.status, again.status), (201, 201), "{}", again.body);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(first.body, again.body);
    let invoice = first.id();
    ok(
        send(
            lb,
            "PUT",
            &format!("/api/invoices/{invoice}/publish"),
            &auth,
            "",
        ),
        200,
    );
    let due = ok(get(lb, &format!("/api/invoices/{invoice}"), &auth), 200).json()["data"]["totals"]
        ["amount_due"]
        .as_str()
        .unwrap()
        .to_owned();
    ok(
        send(
            lb,
            "POST",
            "/api/payments",
            &auth,
            &format!(
                "payment_invoiceid={invoice}&payment_amount={due}&payment_date={}&payment_method=Bank",
                today()
            ),
        ),
        201,
    );
    let paid = ok(get(lb, &format!("/api/invoices/{invoice}"), &auth), 200).json();
    assert_eq!(paid["data"]["totals"]["amount_due"], "0.00");
    // A conditional update from one version: the second is refused.
    let note = ok(
        send(
            lb,
            "POST",
            "/api/notes",
            &auth,
            "note_title=Call&note_description=x",
        ),
        201,
    )
    .id();
    let etag = get(lb, &format!("/api/notes/{note}"), &auth)
        .header("etag")
        .unwrap()
        .to_owned();
    let patch = |title: &str| {
        call(
            lb,
            "PATCH",
            &format!("/api/notes/{note}"),
            &[
                ("Authorization", auth.as_str()),
                ("If-Match", etag.as_str()),
            ],
            &format!("note_title={title}&note_description=Agreed"),
        )
        .status
    };
    assert_eq!((patch("Mine"), patch("Theirs")), (200, 412));
}

/// The replica sums of `crm_db_reads` over the instances: (primary, replica).
fn reads(cluster: &Deployment) -> (f64, f64) {
    let replica = format!("server=\"127.0.0.1:{}\"", cluster.env["CRM_REPLICA_PORT"]);
    let mut sums = (0.0, 0.0);
    for port in cluster.instances() {
        let text = call(port, "GET", "/metrics", &[], "").body;
        sums.0 += metric(&text, "crm_db_reads", "server=\"primary\"").unwrap_or(0.0);
        sums.1 += metric(&text, "crm_db_reads", &replica).unwrap_or(0.0);
    }
    sums
}

/// A write read back at once through another instance while the replica applies the log
/// 2 s late; and reads that need no write served by the replica.
fn read_your_writes(cluster: &Deployment) {
    let auth = cluster.key("ryw");
    let (one, two, three) = (
        cluster.instance(1),
        cluster.instance(2),
        cluster.instance(3),
    );
    for round in 0..5 {
        let note = ok(
            send(
                one,
                "POST",
                "/api/notes",
                &auth,
                &format!("note_title=Round{round}&note_description=x"),
            ),
            201,
        )
        .id();
        let read = ok(get(two, &format!("/api/notes/{note}"), &auth), 200);
        assert_eq!(read.json()["data"]["title"], format!("Round{round}"));
        ok(
            send(
                three,
                "PATCH",
                &format!("/api/notes/{note}"),
                &auth,
                "note_title=Changed&note_description=y",
            ),
            200,
        );
        let read = ok(get(one, &format!("/api/notes/{note}"), &auth), 200);
        assert_eq!(read.json()["data"]["title"], "Changed", "round {round}");
        let listed = ok(get(two, "/api/notes?limit=100", &auth), 200);
        assert!(listed.body.contains("Changed"));
    }
    // A key that wrote nothing reads from the replica (reachable, and less than 5 s
    // behind even with its 2 s delay).
    let reader = cluster.key("reader");
    let replica = format!("replica=\"127.0.0.1:{}\"", cluster.env["CRM_REPLICA_PORT"]);
    for port in cluster.instances() {
        wait_until(
            "the replica is known and usable",
            Duration::from_secs(20),
            || {
                let text = call(port, "GET", "/metrics", &[], "").body;
                metric(&text, "crm_replica_reachable", &replica) == Some(1.0)
                    && metric(&text, "crm_replica_lag_seconds", &replica).is_some_and(|l| l < 5.0)
            },
        );
    }
    let before = reads(cluster);
    for _ in 0..30 {
        ok(get(cluster.haproxy(), "/api/notes?limit=5", &reader), 200);
    }
    let after = reads(cluster);
    assert!(
        after.1 - before.1 >= 15.0,
        "the replica served {} of the 30 reads (primary: {})",
        after.1 - before.1,
        after.0 - before.0
    );
}

/// One bucket for a key across the three instances.
fn shared_limit(cluster: &Deployment) {
    let auth = cluster.key("limited");
    let started = Instant::now();
    let mut allowed = 0;
    let mut refused = 0;
    // 900 requests round the instances: three separate buckets of 600 would allow all.
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..6)
            .map(|w| {
                let auth = auth.as_str();
                s.spawn(move || {
                    let mut counts = (0, 0);
                    for i in 0..150 {
                        let port = cluster.instance(1 + (w + i) % 3);
                        match get(port, "/api/notes?limit=1", auth).status {
                            200 => counts.0 += 1,
                            429 => counts.1 += 1,
                            other => panic!("status {other}"),
                        }
                    }
                    counts
                })
            })
            .collect();
        for worker in workers {
            let (a, r) = worker.join().unwrap();
            allowed += a;
            refused += r;
        }
    });
    // 600/min: one token back every 100 ms.
    let refills = (started.elapsed().as_millis() / 100) as usize;
    assert!(refused > 0, "no request refused");
    assert!(
        allowed <= 600 + refills + 1,
        "{allowed} allowed in {:?} by three instances sharing {RATE}",
        started.elapsed()
    );
}

/// The replica stops: once each instance has seen it gone, reads are answered by the
/// primary.
fn replica_stopped(cluster: &Deployment) {
    let auth = cluster.key("after-replica");
    cluster.pg_ctl("replica", &["stop"]);
    let replica = format!("replica=\"127.0.0.1:{}\"", cluster.env["CRM_REPLICA_PORT"]);
    for port in cluster.instances() {
        wait_until(
            "the instance sees the replica gone",
            Duration::from_secs(20),
            || {
                let text = call(port, "GET", "/metrics", &[], "").body;
                metric(&text, "crm_replica_reachable", &replica) == Some(0.0)
            },
        );
    }
    for _ in 0..30 {
        ok(get(cluster.haproxy(), "/api/notes?limit=5", &auth), 200);
    }
}

/// Writes acknowledged (201) through `port` with `auth`: their ids.
fn write_notes(port: u16, auth: &str, count: usize, tag: &str) -> (Vec<i64>, Vec<u16>) {
    let mut acknowledged = Vec::new();
    let mut statuses = Vec::new();
    for i in 0..count {
        let answer = send(
            port,
            "POST",
            "/api/notes",
            auth,
            &format!("note_title={tag}{i}&note_description=x"),
        );
        statuses.push(answer.status);
        if answer.status == 201 {
            acknowledged.push(answer.id());
        }
    }
    (acknowledged, statuses)
}

fn all_present(cluster: &Deployment, auth: &str, ids: &[i64]) {
    for id in ids {
        ok(
            get(cluster.haproxy(), &format!("/api/notes/{id}"), auth),
            200,
        );
    }
}

/// The primary stops and starts again: meanwhile a write is answered 503 with
/// Retry-After; afterwards writes work and nothing acknowledged is lost.
fn primary_restarted(cluster: &Deployment) {
    let auth = cluster.key("restart");
    let (before, _) = write_notes(cluster.haproxy(), &auth, 10, "Before");
    assert_eq!(before.len(), 10);
    cluster.pg_ctl("primary", &["stop"]);
    let down = send(
        cluster.instance(1),
        "POST",
        "/api/notes",
        &auth,
        "note_title=Down&note_description=x",
    );
    assert_eq!(down.status, 503, "{}", down.body);
    assert!(down.header("retry-after").is_some(), "{:?}", down.headers);
    cluster.pg_ctl("primary", &["start"]);
    wait_until(
        "HAProxy finds a ready instance",
        Duration::from_secs(40),
        || call(cluster.haproxy(), "GET", "/readyz", &[], "").status == 200,
    );
    let mut after = Vec::new();
    wait_until("writes are taken again", Duration::from_secs(40), || {
        let (ids, _) = write_notes(cluster.haproxy(), &auth, 1, "After");
        after.extend(ids);
        !after.is_empty()
    });
    let (more, _) = write_notes(cluster.haproxy(), &auth, 10, "Again");
    after.extend(more);
    all_present(cluster, &auth, &before);
    all_present(cluster, &auth, &after);
}

/// One instance is killed while writes flow through HAProxy: writes go on through the
/// others, and every acknowledged one is there.
fn instance_killed(cluster: &Deployment) {
    let auth = cluster.key("kill");
    let (acknowledged, statuses) = std::thread::scope(|s| {
        let writers: Vec<_> = (0..3)
            .map(|w| {
                let auth = auth.as_str();
                s.spawn(move || write_notes(cluster.haproxy(), auth, 40, &format!("W{w}-")))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        cluster.kill("crm-2.pid", "-KILL");
        let mut ids = Vec::new();
        let mut statuses = Vec::new();
        for writer in writers {
            let (i, s) = writer.join().unwrap();
            ids.extend(i);
            statuses.extend(s);
        }
        (ids, statuses)
    });
    let failed = statuses.iter().filter(|s| **s != 201).count();
    assert!(failed <= 6, "{failed} of 120 writes failed: {statuses:?}");
    // Once HAProxy's checks have found it dead (a request racing the check may meet a
    // connection it kept to the killed instance, which it does not retry for a POST), every
    // write goes through the remaining instances.
    cluster.wait_down("crm2");
    let (later, _) = write_notes(cluster.haproxy(), &auth, 12, "Later");
    assert_eq!(later.len(), 12, "HAProxy routes around the dead instance");
    all_present(cluster, &auth, &acknowledged);
    all_present(cluster, &auth, &later);
}

/// Redis stops: requests keep working, each instance limiting on its own.
fn redis_stopped(cluster: &Deployment) {
    let auth = cluster.key("no-redis");
    // Redis finishes what it is serving before it exits: wait, so that the requests below
    // meet no Redis at all.
    cluster.stop("redis/redis.pid");
    for _ in 0..20 {
        let answer = ok(get(cluster.haproxy(), "/api/notes?limit=1", &auth), 200);
        assert!(answer.header("ratelimit-remaining").is_some());
    }
    let (written, _) = write_notes(cluster.haproxy(), &auth, 5, "NoRedis");
    assert_eq!(written.len(), 5);
    all_present(cluster, &auth, &written);
    for port in [cluster.instance(1), cluster.instance(3)] {
        let text = call(port, "GET", "/metrics", &[], "").body;
        assert_eq!(metric(&text, "crm_redis_up", ""), Some(0.0));
        assert!(metric(&text, "crm_rate_limit_fallback_total", "").unwrap_or(0.0) >= 1.0);
    }
}
