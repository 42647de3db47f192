//! A fresh, migrated database per test (feature `testing`).
//!
//! The first test of a run migrates a template database named after the migrations'
//! fingerprint (`crm_test_tpl_<hash>`), under an advisory lock so that parallel test
//! processes build it once. Every test then gets `CREATE DATABASE … TEMPLATE …` (a file
//! copy, milliseconds) and drops it when the [`TestDb`] is dropped, even when the test
//! panics. The server is, once per process ([`server_url`]):
//!
//! 1. `CRM_TEST_DATABASE_URL`'s, when it is set (its user must be allowed to create
//!    databases);
//! 2. else the one answering on 127.0.0.1:5432 (`CRM_TEST_PG_ADDRESS` names another address),
//!    as user `postgres`;
//! 3. else a private cluster started from the system's PostgreSQL binaries, as `crm serve`
//!    does, in `target/crm-test-pg/`, shared by every test binary and thread of the run and
//!    stopped a few seconds after the last of them ends ([`crate::local::shared`]); the next
//!    run reuses its data folder (and its migrated template).
//!
//! When none can be had, the first test that asks says in one sentence what to install or
//! set; the others say only that there is no server, instead of repeating it hundreds of
//! times.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::StoreError;
use crate::local::{self, SharedCluster};
use crate::migrate::{migrate, quote_ident, schema_fingerprint};
use crate::pool::StoreConfig;
use crate::pool::connect;
use crate::store::Store;

/// The address whose server is used when `CRM_TEST_DATABASE_URL` is not set and
/// `CRM_TEST_PG_ADDRESS` does not name another.
pub const DEFAULT_TEST_ADDRESS: &str = "127.0.0.1:5432";

/// The advisory lock key held while building the template ("crm-tmpl").
const TEMPLATE_LOCK: i64 = i64::from_be_bytes(*b"crm-tmpl");

/// A database that exists for one test.
#[derive(Debug)]
pub struct TestDb {
    admin: tokio_postgres::Config,
    name: String,
    config: StoreConfig,
}

/// The server the tests of this process use.
#[derive(Debug)]
struct Server {
    url: String,
    /// The hold on the shared private cluster, when that is the server.
    _cluster: Option<SharedCluster>,
}

/// The URL of the server the tests of this process use (see the module documentation),
/// found once.
pub async fn server_url() -> Result<&'static str, StoreError> {
    static SERVER: tokio::sync::OnceCell<Result<Server, String>> =
        tokio::sync::OnceCell::const_new();
    static REPORTED: AtomicBool = AtomicBool::new(false);
    match SERVER.get_or_init(find_server).await {
        Ok(server) => Ok(&server.url),
        Err(advice) if !REPORTED.swap(true, Ordering::Relaxed) => {
            Err(StoreError::Config(advice.clone()))
        }
        Err(_) => Err(StoreError::Config(
            "no PostgreSQL server for the tests (the first failing test says why)".to_owned(),
        )),
    }
}

async fn find_server() -> Result<Server, String> {
    if let Some(url) = std::env::var("CRM_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
    {
        return Ok(Server {
            url,
            _cluster: None,
        });
    }
    let address = std::env::var("CRM_TEST_PG_ADDRESS")
        .ok()
        .filter(|a| !a.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_TEST_ADDRESS.to_owned());
    if local::answers(&address).await {
        return Ok(Server {
            url: format!("postgres://postgres@{address}/postgres"),
            _cluster: None,
        });
    }
    if let Err(missing) = local::find_binaries() {
        return Err(missing.advice(Some(&address), "CRM_TEST_DATABASE_URL"));
    }
    let cluster = local::shared(&cluster_folder())
        .await
        .map_err(|e| format!("cannot start a private PostgreSQL cluster for the tests: {e}"))?;
    Ok(Server {
        url: cluster.url.clone(),
        _cluster: Some(cluster),
    })
}

/// `CRM_TEST_PG_FOLDER` when set; else `target/crm-test-pg` (the test binary runs from
/// `target/<profile>/deps/`); else (a test binary copied out of the target folder) a folder
/// under the system's temporary folder.
fn cluster_folder() -> PathBuf {
    if let Some(folder) = std::env::var_os("CRM_TEST_PG_FOLDER").filter(|f| !f.is_empty()) {
        return PathBuf::from(folder);
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            let deps = exe.parent()?;
            (deps.file_name()? == "deps").then(|| deps.parent()?.parent().map(PathBuf::from))?
        })
        .map_or_else(
            || std::env::temp_dir().join("crm-test-pg"),
            |target| target.join("crm-test-pg"),
        )
}

async fn admin_config() -> Result<tokio_postgres::Config, StoreError> {
    StoreConfig::new(server_url().await?).pg_config()
}

impl TestDb {
    /// Creates a fresh database from the migrated template.
    pub async fn new() -> Result<TestDb, StoreError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let admin = admin_config().await?;
        let template = ensure_template(&admin).await?;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let name = format!(
            "crm_test_{}_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed),
            nanos
        );
        let client = connect(&admin).await?;
        client
            .batch_execute(&format!(
                "CREATE DATABASE {} TEMPLATE {}",
                quote_ident(&name),
                quote_ident(&template)
            ))
            .await?;
        let mut config = admin.clone();
        config.dbname(&name);
        let store_config = StoreConfig {
            pool_size: 8,
            readers: 2,
            ..StoreConfig::new(url_of(&config))
        };
        Ok(TestDb {
            admin,
            name,
            config: store_config,
        })
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A connection string for another database, `name`, on this test database's server
    /// (the same host or socket, port and user), for tests that make databases of their
    /// own.
    pub fn url_for(&self, name: &str) -> Result<String, StoreError> {
        let mut config = self.config.pg_config()?;
        config.dbname(name);
        Ok(url_of(&config))
    }

    /// A store configuration pointing at this database.
    pub fn config(&self) -> &StoreConfig {
        &self.config
    }

    /// A store on this database.
    pub fn store(&self) -> Result<Store, StoreError> {
        Store::new(&self.config)
    }

    /// A plain connection to this database, for tests that inspect or prepare rows.
    pub async fn client(&self) -> Result<tokio_postgres::Client, StoreError> {
        let (client, connection) = self
            .config
            .pg_config()?
            .connect(tokio_postgres::NoTls)
            .await?;
        tokio::spawn(connection);
        Ok(client)
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let admin = self.admin.clone();
        let name = self.name.clone();
        // Drop runs inside the test's runtime: use a thread with a runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            runtime.block_on(async move {
                let client = connect(&admin).await.map_err(std::io::Error::other)?;
                client
                    .batch_execute(&format!(
                        "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                        quote_ident(&name)
                    ))
                    .await
                    .map_err(std::io::Error::other)
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("warning: could not drop test database {}", self.name);
        }
    }
}

/// A URL for a parsed configuration (host, port, user, database).
fn url_of(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        Some(tokio_postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".to_owned(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let mut s = format!(
        "host='{}' port={port} dbname='{}'",
        host.replace('\'', "\\'"),
        config.get_dbname().unwrap_or("postgres")
    );
    if let Some(user) = config.get_user() {
        s.push_str(&format!(" user='{}'", user.replace('\'', "\\'")));
    }
    if let Some(password) = config.get_password() {
        s.push_str(&format!(
            " password='{}'",
            String::from_utf8_lossy(password).replace('\'', "\\'")
        ));
    }
    s
}

/// Builds the template for the current migrations once per server; returns its name.
async fn ensure_template(admin: &tokio_postgres::Config) -> Result<String, StoreError> {
    let template = format!("crm_test_tpl_{}", &schema_fingerprint()[..16]);
    let client = connect(admin).await?;
    let ready = "SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate";
    if client.query_opt(ready, &[&template]).await?.is_some() {
        return Ok(template);
    }
    client
        .execute("SELECT pg_advisory_lock($1)", &[&TEMPLATE_LOCK])
        .await?;
    let built = async {
        if client.query_opt(ready, &[&template]).await?.is_some() {
            return Ok(());
        }
        client
            .batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                quote_ident(&template)
            ))
            .await?;
        client
            .batch_execute(&format!("CREATE DATABASE {}", quote_ident(&template)))
            .await?;
        let mut config = admin.clone();
        config.dbname(&template);
        migrate(&StoreConfig::new(url_of(&config))).await?;
        client
            .batch_execute(&format!(
                "ALTER DATABASE {} IS_TEMPLATE true",
                quote_ident(&template)
            ))
            .await?;
        Ok::<(), StoreError>(())
    }
    .await;
    client
        .execute("SELECT pg_advisory_unlock($1)", &[&TEMPLATE_LOCK])
        .await?;
    built?;
    Ok(template)
}
