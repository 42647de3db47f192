//! Zero-configuration PostgreSQL: when no database URL is given and nothing answers on the
//! default address, `crm` runs a private cluster from the system's PostgreSQL binaries
//! (`initdb`, `pg_ctl`, found on `PATH` or under `/usr/lib/postgresql/*/bin`) in a data
//! folder (default `./.crm/pgdata`), listening only on a Unix socket inside that folder.
//! Started as root, the cluster runs as the `postgres` system user (PostgreSQL refuses to
//! run as root). The cluster is stopped when the command ends, if this command started it;
//! one that is already running (another `crm` process) is reused and left running.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::process::Command;

/// The port number that names the socket file (`.s.PGSQL.5432`); nothing listens on TCP.
const SOCKET_PORT: u16 = 5432;

/// A private cluster in a data folder.
#[derive(Debug)]
pub struct LocalPostgres {
    data_dir: PathBuf,
    bin: PathBuf,
    as_postgres_user: bool,
    started_here: bool,
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

/// The folder holding `initdb` and `pg_ctl`: `PATH` first, then the newest
/// `/usr/lib/postgresql/<version>/bin`.
pub fn find_binaries() -> Result<PathBuf, String> {
    find_binaries_in(
        std::env::var_os("PATH").as_deref(),
        Path::new("/usr/lib/postgresql"),
    )
}

/// [`find_binaries`] over an explicit `PATH` value and Debian-style version root.
pub fn find_binaries_in(
    path: Option<&std::ffi::OsStr>,
    versions_root: &Path,
) -> Result<PathBuf, String> {
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
    versions.pop().map(|(_, bin)| bin).ok_or_else(|| {
        "no PostgreSQL server answers on 127.0.0.1:5432 and no PostgreSQL binaries (initdb, pg_ctl) were found \
         on PATH or under /usr/lib/postgresql/*/bin; install PostgreSQL (Debian: apt-get install postgresql) \
         or set DATABASE_URL"
            .to_owned()
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
    /// Initialises the cluster in `data_dir` if needed and starts it (or finds it running).
    pub async fn start(data_dir: &Path) -> Result<LocalPostgres, String> {
        let bin = find_binaries()?;
        std::fs::create_dir_all(data_dir)
            .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
        let data_dir =
            std::fs::canonicalize(data_dir).map_err(|e| format!("{}: {e}", data_dir.display()))?;
        let mut cluster = LocalPostgres {
            data_dir,
            bin,
            as_postgres_user: running_as_root(),
            started_here: false,
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
        if cluster
            .run(
                "pg_ctl",
                &["-D", &cluster.data_dir.display().to_string(), "status"],
            )
            .await
            .is_ok()
        {
            tracing::info!("the private PostgreSQL cluster is already running; reusing it");
            return Ok(cluster);
        }
        let dir = cluster.data_dir.display().to_string();
        let log = cluster.data_dir.join("server.log").display().to_string();
        let options = format!("-c listen_addresses='' -k '{dir}' -p {SOCKET_PORT}");
        cluster
            .run(
                "pg_ctl",
                &[
                    "-D", &dir, "-l", &log, "-o", &options, "-w", "-t", "60", "start",
                ],
            )
            .await?;
        cluster.started_here = true;
        tracing::info!(socket = %dir, "private PostgreSQL cluster started");
        Ok(cluster)
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
        format!(
            "host='{}' port={SOCKET_PORT} user=postgres dbname=crm",
            self.data_dir.display()
        )
    }

    /// Stops the cluster if this process started it.
    pub async fn stop(self) -> Result<(), String> {
        if !self.started_here {
            return Ok(());
        }
        let dir = self.data_dir.display().to_string();
        self.run("pg_ctl", &["-D", &dir, "-m", "fast", "-w", "stop"])
            .await?;
        tracing::info!("private PostgreSQL cluster stopped");
        Ok(())
    }
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
        assert!(
            err.contains("no PostgreSQL binaries (initdb, pg_ctl) were found"),
            "{err}"
        );
        assert!(err.contains("set DATABASE_URL"), "{err}");
        std::fs::remove_dir_all(root).unwrap();
    }
}
