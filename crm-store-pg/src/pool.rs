//! Connections: a deadpool pool for writes and transactions, and a few shared read
//! connections on which concurrent single-statement reads are pipelined.
//!
//! tokio-postgres pipelines the queries that several tasks issue on one client: they are
//! written back to back and answered in order, so many requests share a few connections
//! without a pool checkout each. Reads that are one statement (get one, list a page) use
//! `Readers`; everything that writes or needs a transaction uses the pool. A reader whose
//! connection was lost is reconnected by the next request that picks it.

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deadpool_postgres::{ClientWrapper, Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

use crate::error::StoreError;

/// How to reach the database and how many connections to use. Its `Debug` form shows the
/// URL with any password replaced by `***` ([`redact_password`]).
#[derive(Clone, PartialEq, Eq)]
pub struct StoreConfig {
    /// A libpq-style URL or key-value string (`postgres://user@host:5432/db`,
    /// `host=/run/postgresql dbname=crm`).
    pub database_url: String,
    /// Largest number of pooled connections (writes and transactions); 0 counts as 1.
    pub pool_size: usize,
    /// Number of shared read connections; 0 counts as 1.
    pub readers: usize,
    /// Time allowed to open a connection.
    pub connect_timeout: Duration,
    /// Time a request may wait for a pooled connection before the database counts as
    /// unavailable.
    pub wait_timeout: Duration,
    /// The arithmetic of new estimates and invoices (`--totals-policy`; `CrmParity`, the
    /// CRM's figures, by default). Each document keeps the one it was created with.
    pub totals_policy: crm_core::totals::Policy,
    /// The client's side: the public address of links and their lifetime.
    pub client: ClientSide,
    /// Where webhook endpoints may point (`--webhook-allow-http`, `--webhook-allow-private`).
    pub webhooks: crm_core::webhook::UrlRules,
    /// Streaming replicas that single-statement reads may go to (`--replica-url`), as
    /// libpq-style URLs; empty: every read goes to the primary.
    pub replica_urls: Vec<String>,
    /// A replica further behind than this is skipped (`--replica-max-lag`).
    pub replica_max_lag: Duration,
    /// Behind PgBouncer in transaction pooling mode (`--pgbouncer`): statements are sent
    /// unnamed, and the outbox worker listens only over [`StoreConfig::listen_database_url`].
    pub pgbouncer: bool,
    /// A direct connection to the primary for the outbox worker's `LISTEN`
    /// (`--listen-database-url`); with `pgbouncer` and without it, the worker polls.
    pub listen_database_url: Option<String>,
}

/// What the client's side is configured with: where links point and how long they work.
/// What a person sees of a record (the company, the paper) is the caller's: the store
/// renders nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientSide {
    /// The base of every link (`--public-url`): `https://crm.example.com`, or a path under
    /// it; links are `<public url>/c/<token>`.
    pub public_url: String,
    /// How many days a link works after it is made (`--link-ttl`, 1 to 3650).
    pub link_ttl_days: u32,
    /// The company's trading name until `PATCH /api/company` sets one (`--company-name`):
    /// the company record shows it (API.md §17).
    pub company_name: String,
}

impl Default for ClientSide {
    fn default() -> ClientSide {
        ClientSide {
            public_url: "http://127.0.0.1:8080".to_owned(),
            link_ttl_days: crm_core::bill::link::DEFAULT_TTL_DAYS,
            company_name: "CRM".to_owned(),
        }
    }
}

impl std::fmt::Debug for StoreConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreConfig")
            .field("database_url", &redact_password(&self.database_url))
            .field("pool_size", &self.pool_size)
            .field("readers", &self.readers)
            .field("connect_timeout", &self.connect_timeout)
            .field("wait_timeout", &self.wait_timeout)
            .field("totals_policy", &self.totals_policy)
            .field("client", &self.client)
            .field(
                "replica_urls",
                &self
                    .replica_urls
                    .iter()
                    .map(|url| redact_password(url))
                    .collect::<Vec<_>>(),
            )
            .field("replica_max_lag", &self.replica_max_lag)
            .field("pgbouncer", &self.pgbouncer)
            .field(
                "listen_database_url",
                &self.listen_database_url.as_deref().map(redact_password),
            )
            .finish()
    }
}

/// A database URL fit to print: the password of `scheme://user:password@host…`, and the
/// value of a `password=` parameter (URL query or key-value form, quoted or not), become
/// `***`. Secrets are never printed, and a URL is the one place a password travels.
pub fn redact_password(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    let mut rest = url;
    if let Some(scheme_end) = url.find("://") {
        let authority_start = scheme_end + 3;
        let after = &url[authority_start..];
        let authority_len = after.find(['/', '?']).unwrap_or(after.len());
        let authority = &after[..authority_len];
        if let Some(at) = authority.rfind('@')
            && let Some(colon) = authority[..at].find(':')
        {
            out.push_str(&url[..authority_start + colon + 1]);
            out.push_str("***");
            rest = &url[authority_start + at..];
        }
    }
    // `password=` in a query string or a key-value string: up to `&`, or blank, or the
    // closing quote.
    while let Some(i) = rest.find("password=") {
        let value_start = i + "password=".len();
        let preceded_ok = i == 0 || matches!(rest.as_bytes()[i - 1], b'?' | b'&' | b' ' | b'\t');
        out.push_str(&rest[..value_start]);
        rest = &rest[value_start..];
        if !preceded_ok {
            continue;
        }
        let end = if let Some(quoted) = rest.strip_prefix('\'') {
            // A quoted value ends at the first quote not escaped by a backslash.
            let mut escaped = false;
            let mut end = rest.len();
            for (j, c) in quoted.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '\'' => {
                        end = j + 2;
                        break;
                    }
                    _ => {}
                }
            }
            end
        } else {
            rest.find(['&', ' ', '\t']).unwrap_or(rest.len())
        };
        out.push_str("***");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

impl StoreConfig {
    /// Defaults for `database_url`: a pool of 16, 4 readers, 5 s timeouts, CRM-parity totals,
    /// the client's side's defaults.
    pub fn new(database_url: impl Into<String>) -> Self {
        StoreConfig {
            database_url: database_url.into(),
            pool_size: 16,
            readers: 4,
            connect_timeout: Duration::from_secs(5),
            wait_timeout: Duration::from_secs(5),
            totals_policy: crm_core::totals::Policy::CrmParity,
            client: ClientSide::default(),
            webhooks: crm_core::webhook::UrlRules::default(),
            replica_urls: Vec::new(),
            replica_max_lag: Duration::from_secs(5),
            pgbouncer: false,
            listen_database_url: None,
        }
    }

    /// The parsed connection settings, with the connect timeout applied.
    pub fn pg_config(&self) -> Result<tokio_postgres::Config, StoreError> {
        self.pg_config_of(&self.database_url)
    }

    /// Where the database URL leads, for the log and messages: the server, the user and
    /// the database, never the password.
    pub fn target(&self) -> Result<String, StoreError> {
        Ok(target(&self.pg_config()?))
    }

    /// The parsed connection settings of another URL of the deployment (a replica's, the
    /// listening connection's), with this configuration's connect timeout applied.
    pub fn pg_config_of(&self, url: &str) -> Result<tokio_postgres::Config, StoreError> {
        // `postgres:/host/db` or `postgresql:host`: meant as a URL, but read as key-value
        // settings it would fail with a bare "unexpected EOF".
        let lowered = url.trim_start().to_ascii_lowercase();
        if let Some(rest) = ["postgresql:", "postgres:"]
            .iter()
            .find_map(|s| lowered.strip_prefix(s))
            && !rest.starts_with("//")
        {
            return Err(StoreError::Config(
                "invalid database URL: it starts with postgres: but not postgres:// (two \
                 slashes): write postgres://user@host:port/name"
                    .to_owned(),
            ));
        }
        if let Some((scheme, _)) = url.trim_start().split_once("://")
            && !matches!(scheme, "postgres" | "postgresql")
        {
            let named = if !scheme.is_empty()
                && scheme.len() <= 16
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+')
            {
                format!("a {scheme}:// URL")
            } else {
                "another kind of URL".to_owned()
            };
            return Err(StoreError::Config(format!(
                "invalid database URL: {named}; the database is PostgreSQL: postgres://user@host:port/name, or key-value settings (host=… dbname=…)"
            )));
        }
        let mut config = tokio_postgres::Config::from_str(url).map_err(|e| {
            StoreError::Config(format!("invalid database URL: {}", parse_error(&e)))
        })?;
        config.connect_timeout(self.connect_timeout);
        if config.get_application_name().is_none() {
            config.application_name("crm");
        }
        Ok(config)
    }
}

/// Why a database URL could not be parsed, in words that never repeat the URL's text.
///
/// tokio-postgres names a known option whose value is invalid (`port`, `sslmode`: names of
/// its own), but an unknown option's name and an unexpected character are the input's own
/// text, which a password holding a space turns into a piece of the password
/// (`password=my secret=…`). Only the messages known to hold no input pass through.
fn parse_error(error: &tokio_postgres::Error) -> String {
    let mut cause: &dyn std::error::Error = error;
    while let Some(inner) = cause.source() {
        cause = inner;
    }
    let cause = cause.to_string();
    const SAFE: [&str; 4] = [
        "invalid value for option `",
        "unexpected EOF",
        "unterminated",
        "invalid utf-8",
    ];
    if SAFE.iter().any(|prefix| cause.starts_with(prefix)) {
        return cause;
    }
    let hint = "a value holding a space or a quote goes in single quotes, as password='a b' \
                (or use the postgres:// form, percent-encoded)";
    if cause.starts_with("unknown option") {
        format!("an unknown option; {hint}")
    } else {
        format!("malformed; {hint}")
    }
}

/// Builds the pool (connections are opened lazily, on first use).
pub(crate) fn build_pool(config: &StoreConfig) -> Result<Pool, StoreError> {
    let manager = Manager::from_config(
        config.pg_config()?,
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(config.pool_size.max(1))
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(config.wait_timeout))
        .create_timeout(Some(config.connect_timeout))
        .recycle_timeout(Some(config.connect_timeout))
        .build()
        .map_err(|e| StoreError::Internal(format!("cannot build the connection pool: {e}")))
}

/// The time allowed to open a connection when the configuration sets none.
const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Opens a connection: the socket, the startup and the authentication, all within the
/// configuration's connect timeout. (tokio-postgres applies that timeout to the socket
/// alone, so a server that accepts the socket and never answers — a hung database, a
/// proxy whose database is gone — would otherwise hold the caller forever.)
pub(crate) async fn handshake(
    config: &tokio_postgres::Config,
) -> Result<
    (
        tokio_postgres::Client,
        tokio_postgres::Connection<tokio_postgres::Socket, tokio_postgres::tls::NoTlsStream>,
    ),
    StoreError,
> {
    let limit = config
        .get_connect_timeout()
        .copied()
        .unwrap_or(DEFAULT_CONNECT_TIMEOUT);
    match tokio::time::timeout(limit, config.connect(NoTls)).await {
        Ok(connected) => connected.map_err(|e| {
            StoreError::Unavailable(format!(
                "cannot connect to PostgreSQL at {}: {}",
                target(config),
                crate::error::describe(&e)
            ))
        }),
        Err(_) => Err(StoreError::Unavailable(format!(
            "PostgreSQL at {} did not complete a connection within {} s",
            target(config),
            limit.as_secs_f64()
        ))),
    }
}

/// Where a configuration connects, for messages: `host:port` (or the socket folder and
/// port), the user and the database. Never the password.
pub(crate) fn target(config: &tokio_postgres::Config) -> String {
    use tokio_postgres::config::Host;
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
            match host {
                Host::Tcp(name) if name.contains(':') => format!("[{name}]:{port}"),
                Host::Tcp(name) => format!("{name}:{port}"),
                Host::Unix(folder) => format!("the socket in {} (port {port})", folder.display()),
            }
        })
        .collect();
    let hosts = if hosts.is_empty() {
        "no host".to_owned()
    } else {
        hosts.join(", ")
    };
    let user = config.get_user().unwrap_or("(the system user)");
    let database = config.get_dbname().unwrap_or(user);
    format!("{hosts} (user {user}, database {database})")
}

/// Opens one connection ([`handshake`]) and spawns its driver task.
pub(crate) async fn connect(config: &tokio_postgres::Config) -> Result<ClientWrapper, StoreError> {
    let (client, connection) = handshake(config).await?;
    let task = tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!(error = %e, "database connection closed");
        }
    });
    Ok(ClientWrapper::new(client, task))
}

/// A slot holding one shared read connection.
#[derive(Default)]
struct Slot {
    current: Mutex<Option<Arc<ClientWrapper>>>,
    reconnecting: tokio::sync::Mutex<()>,
}

/// The shared read connections, used round-robin.
pub(crate) struct Readers {
    config: tokio_postgres::Config,
    slots: Vec<Slot>,
    next: AtomicUsize,
}

impl std::fmt::Debug for Readers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Readers")
            .field("slots", &self.slots.len())
            .finish()
    }
}

impl Readers {
    /// `count` slots; connections open on first use.
    pub(crate) fn new(config: tokio_postgres::Config, count: usize) -> Self {
        Readers {
            config,
            slots: (0..count.max(1)).map(|_| Slot::default()).collect(),
            next: AtomicUsize::new(0),
        }
    }

    fn cached(slot: &Slot) -> Option<Arc<ClientWrapper>> {
        let guard = slot
            .current
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        guard.as_ref().filter(|c| !c.is_closed()).cloned()
    }

    /// A live read connection (reconnecting its slot if the connection was lost).
    pub(crate) async fn get(&self) -> Result<Arc<ClientWrapper>, StoreError> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.slots.len();
        let slot = &self.slots[i];
        if let Some(client) = Self::cached(slot) {
            return Ok(client);
        }
        let _one_at_a_time = slot.reconnecting.lock().await;
        if let Some(client) = Self::cached(slot) {
            return Ok(client);
        }
        let client = Arc::new(connect(&self.config).await?);
        *slot
            .current
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(Arc::clone(&client));
        Ok(client)
    }
}

#[cfg(test)]
mod redaction_tests {
    use super::*;

    #[test]
    fn a_malformed_url_is_described_without_its_text() {
        for (url, says) in [
            (
                "postgres://app:pw@127.0.0.1:notaport/crm",
                "invalid value for option `port`",
            ),
            (
                "host=h password=top secretword=x",
                "an unknown option; a value holding",
            ),
            (
                "host=h password=top secret word",
                "malformed; a value holding",
            ),
            ("host=h password='top secret", "unterminated quoted"),
        ] {
            let Err(StoreError::Config(e)) = StoreConfig::new(url).pg_config() else {
                panic!("{url} was accepted");
            };
            assert!(e.starts_with("invalid database URL: "), "{e}");
            assert!(e.contains(says), "{url}: {e}");
            assert!(!e.contains("secret"), "{url}: {e}");
            assert!(!e.contains("pw"), "{url}: {e}");
        }
    }

    #[test]
    fn passwords_are_redacted_in_every_url_form() {
        let cases = [
            (
                "postgres://app:s3cr3t@db.example:5432/crm",
                "postgres://app:***@db.example:5432/crm",
            ),
            (
                "postgresql://app:p%40ss@db/crm?sslmode=disable",
                "postgresql://app:***@db/crm?sslmode=disable",
            ),
            ("postgres://app@db/crm", "postgres://app@db/crm"),
            (
                "postgres://db/crm?user=app&password=s3cr3t&sslmode=require",
                "postgres://db/crm?user=app&password=***&sslmode=require",
            ),
            (
                "host=db user=app password=s3cr3t dbname=crm",
                "host=db user=app password=*** dbname=crm",
            ),
            (
                "host=db password='s3 cr\\'3t' dbname=crm",
                "host=db password=*** dbname=crm",
            ),
            ("host=/tmp dbname=crm", "host=/tmp dbname=crm"),
        ];
        for (url, shown) in cases {
            assert_eq!(redact_password(url), shown, "{url}");
        }
        let debug = format!(
            "{:?}",
            StoreConfig::new("postgres://app:s3cr3t@db/crm password=other")
        );
        assert!(
            !debug.contains("s3cr3t") && !debug.contains("other"),
            "{debug}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_of_another_database_is_named_as_such_without_its_text() {
        let error = StoreConfig::new("mysql://root:secret@db/crm")
            .pg_config()
            .unwrap_err()
            .to_string();
        assert!(error.contains("a mysql:// URL"), "{error}");
        assert!(error.contains("postgres://user@host:port/name"), "{error}");
        assert!(
            !error.contains("secret") && !error.contains("root"),
            "{error}"
        );
    }

    #[test]
    fn the_target_names_host_port_user_and_database_never_the_password() {
        let config = StoreConfig::new("postgres://alice:secret@db.example:6543/crm")
            .pg_config()
            .unwrap();
        assert_eq!(
            target(&config),
            "db.example:6543 (user alice, database crm)"
        );
        let socket = StoreConfig::new("host=/run/pg port=5433 user=postgres dbname=crm")
            .pg_config()
            .unwrap();
        assert_eq!(
            target(&socket),
            "the socket in /run/pg (port 5433) (user postgres, database crm)"
        );
    }
}
