//! Connections: a deadpool pool for writes and transactions, and a few shared read
//! connections on which concurrent single-statement reads are pipelined.
//!
//! tokio-postgres pipelines the queries that several tasks issue on one client: they are
//! written back to back and answered in order, so many requests share a few connections
//! without a pool checkout each. Reads that are one statement (get one, list a page) use
//! [`Readers`]; everything that writes or needs a transaction uses the pool. A reader whose
//! connection was lost is reconnected by the next request that picks it.

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deadpool_postgres::{ClientWrapper, Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

use crate::StoreError;

/// How to reach the database and how many connections to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreConfig {
    /// A libpq-style URL or key-value string (`postgres://user@host:5432/db`,
    /// `host=/run/postgresql dbname=crm`).
    pub database_url: String,
    /// Largest number of pooled connections (writes and transactions).
    pub pool_size: usize,
    /// Number of shared read connections.
    pub readers: usize,
    /// Time allowed to open a connection.
    pub connect_timeout: Duration,
    /// Time a request may wait for a pooled connection before the database counts as
    /// unavailable.
    pub wait_timeout: Duration,
    /// The arithmetic of estimate totals (the service uses `CrmParity`, the CRM's figures).
    pub totals_policy: crm_core::totals::Policy,
}

impl StoreConfig {
    /// Defaults for `database_url`: a pool of 16, 4 readers, 5 s timeouts, CRM-parity totals.
    pub fn new(database_url: impl Into<String>) -> Self {
        StoreConfig {
            database_url: database_url.into(),
            pool_size: 16,
            readers: 4,
            connect_timeout: Duration::from_secs(5),
            wait_timeout: Duration::from_secs(5),
            totals_policy: crm_core::totals::Policy::CrmParity,
        }
    }

    /// The parsed connection settings, with the connect timeout applied.
    pub fn pg_config(&self) -> Result<tokio_postgres::Config, StoreError> {
        let mut config = tokio_postgres::Config::from_str(&self.database_url)
            .map_err(|e| StoreError::Internal(format!("invalid database URL: {e}")))?;
        config.connect_timeout(self.connect_timeout);
        if config.get_application_name().is_none() {
            config.application_name("crm");
        }
        Ok(config)
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

/// Opens one connection and spawns its driver task.
pub(crate) async fn connect(config: &tokio_postgres::Config) -> Result<ClientWrapper, StoreError> {
    let (client, connection) = config
        .connect(NoTls)
        .await
        .map_err(|e| StoreError::Unavailable(crate::error::describe(&e)))?;
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
