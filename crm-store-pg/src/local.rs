//! Zero-configuration PostgreSQL: when no database URL is given and nothing answers on the
//! default address, `crm` runs a private cluster from the system's PostgreSQL binaries
//! (`initdb`, `pg_ctl`, found on `PATH` or under `/usr/lib/postgresql/*/bin`) in a data
//! folder (default `./.crm/pgdata`), listening only on a Unix socket inside that folder.
//! Started as root, the cluster runs as the `postgres` system user (PostgreSQL refuses to
//! run as root).
//!
//! Ownership: the `crm` process that starts the cluster owns it and stops it when it ends.
//! The owner holds an exclusive lock on `crm-owner.lock` in the data folder (its process id
//! written inside); the kernel releases that lock however the process ends, even by
//! `kill -9`. A command that finds the cluster running while another live `crm` process
//! holds the lock reuses it and leaves it running (`crm keys create` beside `crm serve`); one
//! that finds it running with the lock free (its owner died without stopping it) adopts it:
//! it takes the lock and stops the cluster when it ends, so nothing is left running after
//! a clean stop. `crm local-postgres status|stop` ([`state`], [`stop_unowned`]) show and
//! stop a cluster without starting one.
//!
//! The test harness (`crate::testing`) shares one cluster among the processes of a test
//! run instead ([`shared`]): each holds a shared lock for as long as it lives, and a small
//! reaper process stops the cluster once none has held it for a few seconds.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tokio::process::Command;

/// The port number that names the socket file (`.s.PGSQL.5432`); nothing listens on TCP.
const SOCKET_PORT: u16 = 5432;

/// The lock file an owning `crm` process holds, in the data folder.
const OWNER_FILE: &str = "crm-owner.lock";

/// How long a command waits for a cluster whose owner is starting or stopping it.
const OWNER_PATIENCE: Duration = Duration::from_secs(60);

/// A private cluster in a data folder.
#[derive(Debug)]
pub struct LocalPostgres {
    data_dir: PathBuf,
    bin: PathBuf,
    as_postgres_user: bool,
    /// The owner lock, held while this process owns the cluster (it stops it in [`stop`]).
    ///
    /// [`stop`]: LocalPostgres::stop
    owner: Option<std::fs::File>,
}

/// What [`state`] finds in a data folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClusterState {
    /// The folder holds no cluster.
    Absent,
    /// A cluster that is not running.
    Stopped,
    /// A running cluster owned by the `crm` process with this id.
    Owned(u32),
    /// A running cluster no live `crm` process owns (its owner was killed).
    Orphaned,
}

impl std::fmt::Display for ClusterState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClusterState::Absent => f.write_str("no private cluster in this folder"),
            ClusterState::Stopped => f.write_str("not running"),
            ClusterState::Owned(pid) => write!(
                f,
                "running, owned by crm process {pid} (stopped when that process ends)"
            ),
            ClusterState::Orphaned => f.write_str(
                "running, owned by no crm process (its owner ended without stopping it); \
                 `crm local-postgres stop` stops it, the next crm command adopts it",
            ),
        }
    }
}

/// Takes the owner lock of `data_dir` if no live process holds it, writing our process id.
fn try_own(data_dir: &Path) -> Result<Option<std::fs::File>, String> {
    let path = data_dir.join(OWNER_FILE);
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {
            let written = file
                .set_len(0)
                .and_then(|()| write!(file, "{}", std::process::id()))
                .and_then(|()| file.flush());
            written.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok(Some(file))
        }
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock {}: {e}", path.display())),
    }
}

/// The process id written in the owner lock file (meaningful while the lock is held).
fn owner_pid(data_dir: &Path) -> Option<u32> {
    std::fs::read_to_string(data_dir.join(OWNER_FILE))
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// The state of the private cluster in `data_dir`, without starting or stopping anything.
pub async fn state(data_dir: &Path) -> Result<ClusterState, String> {
    let Some(cluster) = LocalPostgres::open(data_dir)? else {
        return Ok(ClusterState::Absent);
    };
    if !cluster.is_running().await {
        return Ok(ClusterState::Stopped);
    }
    Ok(match try_own(&cluster.data_dir)? {
        Some(_released_on_drop) => ClusterState::Orphaned,
        None => ClusterState::Owned(owner_pid(&cluster.data_dir).unwrap_or(0)),
    })
}

/// Stops the private cluster in `data_dir` unless a live `crm` process owns it (that process
/// stops it when it ends). Returns the state found.
pub async fn stop_unowned(data_dir: &Path) -> Result<ClusterState, String> {
    let Some(mut cluster) = LocalPostgres::open(data_dir)? else {
        return Ok(ClusterState::Absent);
    };
    if !cluster.is_running().await {
        return Ok(ClusterState::Stopped);
    }
    match try_own(&cluster.data_dir)? {
        Some(lock) => {
            cluster.owner = Some(lock);
            cluster.stop().await?;
            Ok(ClusterState::Orphaned)
        }
        None => {
            let pid = owner_pid(&cluster.data_dir).unwrap_or(0);
            Err(format!(
                "the private cluster is in use by crm process {pid}; stop that process (SIGTERM) \
                 and it stops the cluster"
            ))
        }
    }
}

/// Whether something accepts TCP connections on `address` within a second.
pub async fn answers(address: &str) -> bool {
    matches!(
        tokio::time::timeout(
            Duration::from_secs(1),
            tokio::net::TcpStream::connect(address)
        )
        .await,
        Ok(Ok(_))
    )
}

/// Where Debian-style packages keep one folder per PostgreSQL version
/// (`<root>/<version>/bin`); `CRM_PG_VERSIONS_ROOT` names another.
const VERSIONS_ROOT: &str = "/usr/lib/postgresql";

/// The oldest PostgreSQL the service supports (`DROP DATABASE … WITH (FORCE)` and the
/// migrations' features).
pub const MIN_VERSION: u32 = 13;

/// No PostgreSQL binaries were found: what was looked for, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no PostgreSQL binaries (initdb, pg_ctl) were found on PATH or under {versions_root}/*/bin"
)]
pub struct NoBinaries {
    /// The folder of versioned binaries that was searched.
    pub versions_root: String,
}

impl NoBinaries {
    /// The one sentence a person reads: that nothing answers on `address` (when that is
    /// why a private cluster was wanted), that no binaries were found, what to install,
    /// and the `variable` that points at a running server instead.
    pub fn advice(&self, address: Option<&str>, variable: &str) -> String {
        let nothing_answers = address
            .map(|a| format!("no PostgreSQL server answers on {a} and "))
            .unwrap_or_default();
        format!(
            "{nothing_answers}{self}: install PostgreSQL {MIN_VERSION} or later (Debian: \
             apt-get install postgresql), running or not, or set {variable} to the URL of a \
             running server"
        )
    }
}

/// The folder holding `initdb` and `pg_ctl`: `PATH` first, then the newest
/// `/usr/lib/postgresql/<version>/bin` (or under `CRM_PG_VERSIONS_ROOT`).
pub fn find_binaries() -> Result<PathBuf, NoBinaries> {
    let root = std::env::var_os("CRM_PG_VERSIONS_ROOT")
        .map_or_else(|| PathBuf::from(VERSIONS_ROOT), PathBuf::from);
    find_binaries_in(std::env::var_os("PATH").as_deref(), &root)
}

/// [`find_binaries`] over an explicit `PATH` value and Debian-style version root.
pub fn find_binaries_in(
    path: Option<&std::ffi::OsStr>,
    versions_root: &Path,
) -> Result<PathBuf, NoBinaries> {
    let has_both = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Some(dir) = path
        .into_iter()
        .flat_map(std::env::split_paths)
        .find(|d| has_both(d))
    {
        return Ok(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(versions_root)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let version = e.file_name().to_str()?.parse::<u32>().ok()?;
                    let bin = e.path().join("bin");
                    has_both(&bin).then_some((version, bin))
                })
                .collect()
        })
        .unwrap_or_default();
    versions.sort();
    versions
        .pop()
        .map(|(_, bin)| bin)
        .ok_or_else(|| NoBinaries {
            versions_root: versions_root.display().to_string(),
        })
}

fn running_as_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout.trim_ascii() == b"0")
        .unwrap_or(false)
}

impl LocalPostgres {
    /// The cluster in an existing data folder, neither started nor owned (`None` when the
    /// folder holds no cluster).
    fn open(data_dir: &Path) -> Result<Option<LocalPostgres>, String> {
        if !data_dir.join("PG_VERSION").exists() {
            return Ok(None);
        }
        let data_dir =
            std::fs::canonicalize(data_dir).map_err(|e| format!("{}: {e}", data_dir.display()))?;
        Ok(Some(LocalPostgres {
            data_dir,
            bin: find_binaries().map_err(|e| e.to_string())?,
            as_postgres_user: running_as_root(),
            owner: None,
        }))
    }

    /// Initialises the cluster in `data_dir` if needed and starts it, or finds it running:
    /// reused if a live `crm` process owns it, adopted (owned by this process) if none does.
    pub async fn start(data_dir: &Path) -> Result<LocalPostgres, String> {
        let mut cluster = LocalPostgres::prepare(data_dir).await?;
        let waiting_since = Instant::now();
        loop {
            let lock = try_own(&cluster.data_dir)?;
            let running = cluster.is_running().await;
            match (running, lock) {
                (true, Some(lock)) => {
                    tracing::warn!(
                        "found the private PostgreSQL cluster running with no crm process owning it \
                         (its owner ended without stopping it); this command adopts it and stops it when it ends"
                    );
                    cluster.owner = Some(lock);
                    return Ok(cluster);
                }
                (true, None) => {
                    tracing::info!(
                        owner = owner_pid(&cluster.data_dir).unwrap_or(0),
                        "the private PostgreSQL cluster is running, owned by another crm process; reusing it"
                    );
                    return Ok(cluster);
                }
                (false, Some(lock)) => {
                    cluster.owner = Some(lock);
                    cluster.start_server().await?;
                    return Ok(cluster);
                }
                (false, None) if waiting_since.elapsed() < OWNER_PATIENCE => {
                    // The owner is starting or stopping the cluster: wait for either.
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                (false, None) => {
                    return Err(format!(
                        "crm process {} holds the private cluster in {} but it is not running; stop that process",
                        owner_pid(&cluster.data_dir).unwrap_or(0),
                        cluster.data_dir.display()
                    ));
                }
            }
        }
    }

    /// The cluster in `data_dir` (created and initialised when missing), neither started
    /// nor owned: the binaries found, the folder handed to the `postgres` user when we are
    /// root.
    async fn prepare(data_dir: &Path) -> Result<LocalPostgres, String> {
        let bin = find_binaries().map_err(|e| e.to_string())?;
        std::fs::create_dir_all(data_dir)
            .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
        let data_dir =
            std::fs::canonicalize(data_dir).map_err(|e| format!("{}: {e}", data_dir.display()))?;
        let cluster = LocalPostgres {
            data_dir,
            bin,
            as_postgres_user: running_as_root(),
            owner: None,
        };
        if cluster.as_postgres_user {
            cluster.hand_over_to_postgres_user().await?;
        }
        if !cluster.data_dir.join("PG_VERSION").exists() {
            tracing::info!(data_dir = %cluster.data_dir.display(), "initialising a private PostgreSQL cluster");
            let dir = cluster.data_dir.display().to_string();
            cluster
                .run(
                    "initdb",
                    &[
                        "-D",
                        &dir,
                        "-U",
                        "postgres",
                        "-A",
                        "trust",
                        "-E",
                        "UTF8",
                        "--no-sync",
                    ],
                )
                .await?;
        }
        Ok(cluster)
    }

    /// Whether the cluster's server is running (`pg_ctl status`).
    async fn is_running(&self) -> bool {
        let dir = self.data_dir.display().to_string();
        self.run("pg_ctl", &["-D", &dir, "status"]).await.is_ok()
    }

    /// Starts the server on a socket in the data folder, waiting until it accepts connections.
    async fn start_server(&self) -> Result<(), String> {
        let dir = self.data_dir.display().to_string();
        let log = self.data_dir.join("server.log").display().to_string();
        let options = format!("-c listen_addresses='' -k '{dir}' -p {SOCKET_PORT}");
        self.run(
            "pg_ctl",
            &[
                "-D", &dir, "-l", &log, "-o", &options, "-w", "-t", "60", "start",
            ],
        )
        .await?;
        tracing::info!(socket = %dir, "private PostgreSQL cluster started");
        Ok(())
    }

    /// Gives the data folder to the `postgres` user and checks that user can reach it.
    async fn hand_over_to_postgres_user(&self) -> Result<(), String> {
        let dir = self.data_dir.display().to_string();
        let status = Command::new("chown")
            .args(["-R", "postgres:postgres", &dir])
            .status()
            .await;
        if !matches!(status, Ok(s) if s.success()) {
            return Err(format!(
                "cannot give {dir} to the postgres user (is there a postgres system user?)"
            ));
        }
        let reachable = Command::new("runuser")
            .args(["-u", "postgres", "--", "test", "-w", &dir])
            .status()
            .await;
        if !matches!(reachable, Ok(s) if s.success()) {
            return Err(format!(
                "the postgres user cannot reach {dir}; choose a data folder it can reach with --data-dir (or CRM_PGDATA)"
            ));
        }
        Ok(())
    }

    /// Runs one of the binaries (as `postgres` when we are root).
    async fn run(&self, program: &str, args: &[&str]) -> Result<(), String> {
        let path = self.bin.join(program);
        let mut command = if self.as_postgres_user {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        command
            .args(args)
            .current_dir(&self.data_dir)
            .stdin(std::process::Stdio::null());
        let output = command
            .output()
            .await
            .map_err(|e| format!("cannot run {}: {e}", path.display()))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{program} failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        }
    }

    /// The URL of the `crm` database on this cluster.
    pub fn database_url(&self) -> String {
        self.url_of("crm")
    }

    /// The URL of the database `dbname` on this cluster (its socket folder, as `postgres`).
    fn url_of(&self, dbname: &str) -> String {
        format!(
            "host='{}' port={SOCKET_PORT} user=postgres dbname={dbname}",
            self.data_dir.display()
        )
    }

    /// The command that stops the server (`pg_ctl stop`, as `postgres` when we are root).
    fn stop_command(&self) -> Vec<String> {
        let mut command = Vec::new();
        if self.as_postgres_user {
            command.extend(["runuser", "-u", "postgres", "--"].map(str::to_owned));
        }
        command.push(self.bin.join("pg_ctl").display().to_string());
        command.extend(["-D".to_owned(), self.data_dir.display().to_string()]);
        command.extend(["-m", "fast", "-w", "stop"].map(str::to_owned));
        command
    }

    /// Whether this process owns the cluster (and so stops it in [`stop`]).
    ///
    /// [`stop`]: LocalPostgres::stop
    pub fn owned(&self) -> bool {
        self.owner.is_some()
    }

    /// Stops the cluster if this process owns it, then gives up ownership.
    pub async fn stop(self) -> Result<(), String> {
        if self.owner.is_none() {
            return Ok(());
        }
        let dir = self.data_dir.display().to_string();
        self.run("pg_ctl", &["-D", &dir, "-m", "fast", "-w", "stop"])
            .await?;
        tracing::info!("private PostgreSQL cluster stopped");
        // `self.owner` is dropped here, releasing the lock after the server is down.
        Ok(())
    }
}

/// One user's hold on a [`shared`] cluster: the URL of its `postgres` database, and the
/// shared lock that keeps the cluster running while this value (normally, the process)
/// lives.
#[derive(Debug)]
pub struct SharedCluster {
    /// The URL of the cluster's `postgres` database.
    pub url: String,
    _user: std::fs::File,
}

/// Runs the reaper of a [`shared`] cluster: `sh -c REAPER crm-local-reaper <folder> <stop
/// command…>`. It waits until no process holds `users.lock` (an exclusive lock can be had),
/// waits [`REAPER_GRACE_SECS`] more so that the next test binary of the run finds the
/// cluster still up, and when the lock is still free then, stops the server while holding
/// both locks, so that a user arriving meanwhile waits and then starts it again.
const REAPER: &str = r#"dir=$1; shift
exec 8>>"$dir/users.lock" 9>>"$dir/start.lock"
while :; do
  flock -x 8 && flock -u 8
  sleep "$CRM_REAPER_GRACE"
  if flock -n -x 8; then
    flock -x 9
    "$@" >/dev/null 2>&1
    exit 0
  fi
done"#;

/// Seconds a [`shared`] cluster stays up after its last user ended.
const REAPER_GRACE_SECS: u32 = 3;

/// The private cluster in `folder/data`, shared by every process that calls this (the
/// processes and threads of one test run): started when none runs, reused when one does,
/// and stopped by a reaper process a few seconds after the last user ended, however it
/// ended. The folder holds two lock files: `users.lock`, which every user holds shared for
/// as long as the returned [`SharedCluster`] lives, and `start.lock`, held while the server
/// is checked and started or stopped.
pub async fn shared(folder: &Path) -> Result<SharedCluster, String> {
    let folder = folder.to_path_buf();
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let open = |name: &str| {
        let path = folder.join(name);
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))
    };
    let user = open("users.lock")?;
    let start = open("start.lock")?;
    // Both waits are short (a start or a stop in progress) but block a thread.
    let (user, start) = tokio::task::spawn_blocking(move || {
        user.lock_shared()?;
        start.lock()?;
        Ok::<_, std::io::Error>((user, start))
    })
    .await
    .map_err(|e| e.to_string())?
    .map_err(|e| format!("cannot lock {}: {e}", folder.display()))?;
    let cluster = LocalPostgres::prepare(&folder.join("data")).await?;
    if !cluster.is_running().await {
        cluster.start_server().await?;
        spawn_reaper(&folder, &cluster)?;
    }
    drop(start);
    Ok(SharedCluster {
        url: cluster.url_of("postgres"),
        _user: user,
    })
}

/// Starts the reaper of a shared cluster ([`REAPER`]) in a process group of its own, so that
/// an interrupt of the test run (Ctrl-C) ends the users, not the reaper.
fn spawn_reaper(folder: &Path, cluster: &LocalPostgres) -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    std::process::Command::new("sh")
        .arg("-c")
        .arg(REAPER)
        .arg("crm-local-reaper")
        .arg(folder)
        .args(cluster.stop_command())
        .env("CRM_REAPER_GRACE", REAPER_GRACE_SECS.to_string())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .map(drop)
        .map_err(|e| format!("cannot start the cluster's reaper (sh, flock): {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("crm-local-pg-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn fake_binaries(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("initdb"), "").unwrap();
        std::fs::write(dir.join("pg_ctl"), "").unwrap();
    }

    #[test]
    fn binaries_on_path_come_first() {
        let root = scratch("path");
        fake_binaries(&root.join("bin"));
        fake_binaries(&root.join("lib/16/bin"));
        let path = std::env::join_paths([root.join("nothing"), root.join("bin")]).unwrap();
        assert_eq!(
            find_binaries_in(Some(&path), &root.join("lib")).unwrap(),
            root.join("bin")
        );
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn the_newest_debian_version_is_used_when_path_has_none() {
        let root = scratch("versions");
        fake_binaries(&root.join("lib/9/bin"));
        fake_binaries(&root.join("lib/15/bin"));
        std::fs::create_dir_all(root.join("lib/17/bin")).unwrap();
        assert_eq!(
            find_binaries_in(None, &root.join("lib")).unwrap(),
            root.join("lib/15/bin")
        );
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn without_binaries_the_error_says_what_to_do() {
        let root = scratch("none");
        let err = find_binaries_in(Some(root.as_os_str()), &root.join("lib")).unwrap_err();
        let advice = err.advice(Some("127.0.0.1:5432"), "DATABASE_URL");
        assert!(
            advice.starts_with(
                "no PostgreSQL server answers on 127.0.0.1:5432 and no PostgreSQL binaries \
                 (initdb, pg_ctl) were found"
            ),
            "{advice}"
        );
        assert!(
            advice.contains("install PostgreSQL 13 or later (Debian: apt-get install postgresql)"),
            "{advice}"
        );
        assert!(advice.contains("set DATABASE_URL"), "{advice}");
        std::fs::remove_dir_all(root).unwrap();
    }
}
