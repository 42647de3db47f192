//! The harness itself (`crm_store_pg::testing`), run as a new user would run it: this test
//! binary runs one of its own database tests in a child process, with no
//! `CRM_TEST_DATABASE_URL` and the default address pointed at a port where nothing listens
//! (`CRM_TEST_PG_ADDRESS`), so that the test must get its server some other way.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A test of this binary that needs a database and is quick.
const DATABASE_TEST: &str = "foundation::the_first_migration_brings_the_system_defaults";

/// An address where nothing listens: a port the system gave us and we released.
fn silent_address() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    address.to_string()
}

/// Runs this test binary's tests matching `filter` with no configured server, `env` added.
fn run_without_a_server(filter: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(filter)
        .arg("--test-threads=4")
        .env_remove("CRM_TEST_DATABASE_URL")
        .env("CRM_TEST_PG_ADDRESS", silent_address());
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap()
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A folder of its own under the target folder, kept between runs (its cluster's data
/// folder is reused, as the harness's own is).
fn folder(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe.parent().unwrap().parent().unwrap().parent().unwrap();
    target.join(name)
}

/// Whether a server runs on the cluster's socket.
fn socket_exists(folder: &Path) -> bool {
    folder.join("data/.s.PGSQL.5432").exists()
}

#[test]
fn with_no_server_configured_or_answering_a_test_runs_on_a_private_cluster_that_then_stops() {
    let cluster = folder("crm-test-pg-harness");
    let cluster_arg = cluster.display().to_string();
    let output = run_without_a_server(
        &["--exact", DATABASE_TEST],
        &[("CRM_TEST_PG_FOLDER", &cluster_arg)],
    );
    let said = text(&output);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("1 passed"), "{said}");
    assert!(
        cluster.join("data/PG_VERSION").exists(),
        "the cluster lives in the given folder: {said}"
    );
    // Its last user has ended: the reaper stops it a few seconds later.
    let waited = Instant::now();
    while socket_exists(&cluster) && waited.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        !socket_exists(&cluster),
        "the private cluster is still running a minute after its last user ended"
    );
    // The next run reuses the data folder, and again leaves nothing running.
    let again = run_without_a_server(
        &["--exact", DATABASE_TEST],
        &[("CRM_TEST_PG_FOLDER", &cluster_arg)],
    );
    assert!(again.status.success(), "{}", text(&again));
}

#[test]
fn without_postgres_binaries_the_first_failing_test_says_what_to_install_and_the_others_do_not_repeat_it()
 {
    let empty = folder("crm-test-pg-no-binaries");
    std::fs::create_dir_all(&empty).unwrap();
    let empty_arg = empty.display().to_string();
    let output = run_without_a_server(
        &["foundation::"],
        &[
            ("PATH", empty_arg.as_str()),
            ("CRM_PG_VERSIONS_ROOT", empty_arg.as_str()),
            ("CRM_TEST_PG_FOLDER", empty_arg.as_str()),
        ],
    );
    let said = text(&output);
    assert!(!output.status.success(), "{said}");
    let advice = "no PostgreSQL binaries (initdb, pg_ctl) were found on PATH or under";
    assert_eq!(said.matches(advice).count(), 1, "{said}");
    assert!(
        said.contains(
            "install PostgreSQL 13 or later (Debian: apt-get install postgresql), running or \
             not, or set CRM_TEST_DATABASE_URL to the URL of a running server"
        ),
        "{said}"
    );
    assert!(
        said.contains("no PostgreSQL server for the tests (the first failing test says why)"),
        "{said}"
    );
}
