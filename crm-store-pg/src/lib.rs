//! PostgreSQL persistence of the CRM business-records API.
//!
//! [`Store`] is the handle the service uses: every operation of the seven areas, each
//! taking crm-core commands and returning crm-core records. Multi-step writes run in one
//! transaction; references and rules that depend on stored data are checked inside it and
//! come back as [`StoreError::Invalid`] (field errors) or [`StoreError::Conflict`].
//!
//! - [`migrate`]: the migration runner; `create_database_if_missing`.
//! - [`pool`]: configuration, the write pool and the shared pipelined readers.
//! - [`replicas`]: reads from streaming replicas with read-your-writes, and their lag.
//! - [`statements`]: the one switch that sends every statement unnamed (PgBouncer).
//! - [`error`]: the error type and the constraint-name mapping.
//! - `company`, `clients`, `tax_rates`, `projects`, `users` (API.md §17; `party`: the
//!   identity columns the company and clients share),
//!   `categories`, `contracts`, `estimates`, `invoices`, `milestones`, `notes`,
//!   `payments`: the areas' queries (an invoice's balance, which its payments drive, is
//!   read and locked in `payments`).
//! - [`conditions`]: idempotency claims and `If-Match` preconditions, and the write
//!   transaction every write opens through them.
//! - [`client`]: the client's side: links, what they open, the client's decision.
//! - [`keys`]: API keys (digests only).
//! - [`local`]: the zero-configuration private PostgreSQL cluster (the service's and the
//!   test harnesses').
//! - [`outbox`]: the email outbox: the API's list, the delivery worker's claims.
//! - [`pdfs`]: rendered PDFs kept in memory by the version of what they show.
//! - [`seed`]: the demo data set.
//! - `testing` (feature `testing`): a fresh migrated database per test.

pub mod client;
pub mod error;
pub mod keys;
pub mod local;
pub mod migrate;
pub mod outbox;
pub mod pdfs;
pub mod pool;
pub mod replicas;
pub mod seed;
pub mod settings;

#[macro_use]
mod bills;
mod categories;
mod clients;
mod company;
pub mod conditions;
mod contracts;
pub mod counts;
mod db;
mod estimates;
mod events;
mod invoices;
mod milestones;
mod notes;
mod party;
mod payments;
mod projects;
mod refs;
mod rows;
mod sql;
mod tags;
mod tax_rates;
mod users;
mod wake;
mod webhooks;

#[cfg(feature = "testing")]
pub mod testing;

/// How statements are sent: prepared and cached per connection, or unnamed behind
/// PgBouncer's transaction pooling (`--pgbouncer`; see the `db` module's notes).
pub mod statements {
    pub use crate::db::{unnamed_statements, use_unnamed_statements};
}

use std::sync::Arc;

use chrono::NaiveDate;
use crm_core::conflict::Resource;
use crm_core::ids::UserId;
use crm_core::validation::{FieldErrors, References};

pub use crate::bills::list::LIST_BYTE_BUDGET;
pub use crate::conditions::{
    Answer, Claim, Claimed, Conditions, IfMatch, Pending, Ticket, etag, etag_of_json,
};
use crate::db::Db;
pub use crate::error::StoreError;
use crate::pool::Readers;
pub use crate::pool::{ClientSide, StoreConfig};
pub use crate::replicas::{Needed, ReplicaStatus, in_session};
pub use crate::webhooks::{WebhookAttempt, WebhookJob};

/// Who is acting and what day it is: every operation that creates records (creator) or
/// derives a status from dates (today) takes one. The store has no clock of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ctx {
    /// The acting user (the API key's user).
    pub actor: UserId,
    /// Today's date in the server's time zone (UTC by default).
    pub today: NaiveDate,
}

/// One page of a list, and how many records match in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed<T> {
    /// The page's records.
    pub items: Vec<T>,
    /// Every matching record's count.
    pub total: u64,
    /// The page number and the cursors of the neighbouring pages.
    pub cursors: PageCursors,
    /// Whether the page stopped before its size because its records reached the list byte
    /// budget ([`LIST_BYTE_BUDGET`]); `cursors.next` then goes on right after the last one.
    pub truncated: bool,
}

/// Where a page is and how to reach its neighbours (`meta.current_page`,
/// `meta.next_cursor`, `meta.prev_cursor`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageCursors {
    /// The page number, when it differs from the requested one (a cursor's page).
    pub page: Option<u32>,
    /// The next page's cursor, `None` after the last page.
    pub next: Option<String>,
    /// The previous page's cursor, `None` on the first page.
    pub prev: Option<String>,
}

impl<T> Listed<T> {
    /// A page's records decoded from its rows by `decode`, with the total and cursors
    /// [`sql::page`] read.
    pub(crate) fn decoded(
        page: &sql::PageRows,
        decode: impl FnMut(&tokio_postgres::Row) -> Result<T, StoreError>,
    ) -> Result<Self, StoreError> {
        let items = page.rows.iter().map(decode).collect::<Result<_, _>>()?;
        Ok(Listed::paged(items, page))
    }

    /// A page's records with the total and cursors [`sql::page`] read.
    pub(crate) fn paged(items: Vec<T>, page: &sql::PageRows) -> Self {
        Listed {
            items,
            total: page.total,
            cursors: PageCursors {
                page: Some(page.page),
                next: page.next.clone(),
                prev: page.prev.clone(),
            },
            truncated: false,
        }
    }
}

/// The write pool's occupancy at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolStatus {
    /// The most connections the pool opens.
    pub max_size: usize,
    /// Connections open now.
    pub size: usize,
    /// Open connections not lent to a request.
    pub available: usize,
    /// Requests waiting for a connection.
    pub waiting: usize,
}

/// The store: a write pool and shared read connections to one database.
#[derive(Clone, Debug)]
pub struct Store {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    pool: deadpool_postgres::Pool,
    readers: Readers,
    policy: crm_core::totals::Policy,
    /// The client's side: links and what the client's documents show.
    client: pool::ClientSide,
    /// Rendered PDFs by document version.
    pdfs: pdfs::PdfCache,
    /// Where webhook endpoints may point.
    webhooks: crm_core::webhook::UrlRules,
    /// The time a health, readiness or monitoring check, or the lookup of a key, gives the
    /// database to answer ([`Store::checked`]).
    check_timeout: std::time::Duration,
    /// Wakes the delivery workers after commits that queued webhook deliveries.
    waker: Arc<wake::Waker>,
    /// The streaming replicas single-statement reads may go to.
    replicas: Option<replicas::Replicas>,
}

impl Store {
    /// A store for `config`. Connections open lazily; call [`Store::ping`] to check the
    /// database answers.
    pub fn new(config: &StoreConfig) -> Result<Store, StoreError> {
        if config.pgbouncer {
            statements::use_unnamed_statements();
        }
        let pool = pool::build_pool(config)?;
        let readers = Readers::new(config.pg_config()?, config.readers);
        let waker = wake::Waker::new(pool.clone());
        let inner = Arc::new(Inner {
            waker,
            pool,
            readers,
            policy: config.totals_policy,
            client: config.client.clone(),
            pdfs: pdfs::PdfCache::new(config.client.pdf_cache_bytes),
            webhooks: config.webhooks,
            check_timeout: config.connect_timeout,
            replicas: replicas::Replicas::new(config)?,
        });
        if inner.replicas.is_some() {
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn(replicas::watch(Arc::downgrade(&inner)));
                }
                Err(_) => {
                    return Err(StoreError::Config(
                        "a store with replicas is made inside the service's runtime".to_owned(),
                    ));
                }
            }
        }
        Ok(Store { inner })
    }

    /// Whether reads may go to replicas (`--replica-url`).
    pub fn has_replicas(&self) -> bool {
        self.inner.replicas.is_some()
    }

    /// Each replica's standing and reads served (empty without replicas).
    pub fn replica_status(&self) -> Vec<ReplicaStatus> {
        self.inner
            .replicas
            .as_ref()
            .map_or_else(Vec::new, replicas::Replicas::status)
    }

    /// Single-statement reads the primary answered while replicas were configured.
    pub fn primary_reads(&self) -> u64 {
        self.inner
            .replicas
            .as_ref()
            .map_or(0, replicas::Replicas::primary_reads)
    }

    /// The primary's write-ahead log position now: read after a write commits, it is at
    /// or past that write's end, so a replica that has replayed it has the write.
    pub async fn primary_position(&self) -> Result<crm_core::replica::Lsn, StoreError> {
        replicas::position(&self.inner.readers, replicas::PRIMARY_SQL)
            .await?
            .ok_or_else(|| StoreError::Internal("the primary reports no log position".to_owned()))
    }

    /// Checks that the database answers, within the connect timeout (a database that
    /// holds the connection without answering is `Unavailable` then, not a wait).
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.checked(self.ping_now()).await
    }

    async fn ping_now(&self) -> Result<(), StoreError> {
        let reader = self.inner.readers.get().await?;
        reader.rows("SELECT 1", &[]).await?;
        Ok(())
    }

    /// Checks that the service can take writes now: a pooled connection is free at once
    /// (no wait: an exhausted pool is "not ready", where a write would wait up to the pool's
    /// wait timeout and then fail) and the database answers on it and on a read
    /// connection, within the connect timeout. `Unavailable` otherwise.
    pub async fn ready(&self) -> Result<(), StoreError> {
        self.checked(self.ready_now()).await
    }

    /// `check`, or `Unavailable` when it takes longer than the check timeout (for the
    /// health, readiness and monitoring reads, which must answer while the database
    /// does not, and for key lookups, which run before a request's own timeout).
    pub(crate) async fn checked<T>(
        &self,
        check: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let limit = self.inner.check_timeout;
        tokio::time::timeout(limit, check)
            .await
            .unwrap_or_else(|_| {
                Err(StoreError::Unavailable(format!(
                    "the database did not answer within {} s",
                    limit.as_secs_f64()
                )))
            })
    }

    async fn ready_now(&self) -> Result<(), StoreError> {
        let no_wait = deadpool_postgres::Timeouts {
            wait: Some(std::time::Duration::ZERO),
            ..self.inner.pool.timeouts()
        };
        let writer = self
            .inner
            .pool
            .timeout_get(&no_wait)
            .await
            .map_err(|e| match e {
                deadpool_postgres::PoolError::Timeout(_) => {
                    StoreError::Unavailable("every pooled connection is in use".to_owned())
                }
                other => other.into(),
            })?;
        writer.rows("SELECT 1", &[]).await?;
        drop(writer);
        self.ping_now().await
    }

    /// Checks the references of a rejected request, so that a 422 lists every failing
    /// field at once ("The selected doc client id is invalid." beside a missing title).
    pub async fn check_references(
        &self,
        references: &References,
    ) -> Result<FieldErrors, StoreError> {
        if references.is_empty() {
            return Ok(FieldErrors::new());
        }
        let reader = self.inner.readers.get().await?;
        refs::invalid(&*reader, references).await
    }

    /// Whether the record `id` of `resource` exists and is visible to `ctx.actor` (a
    /// contract's backing estimate, a sticky note and another user's private note do not
    /// count: the areas' own reads decide). Used to answer 404 rather than 422 for a bad
    /// request to a missing record, so it runs only on that error path.
    pub async fn exists(&self, ctx: Ctx, resource: Resource, id: i64) -> Result<bool, StoreError> {
        use crm_core::ids::{CategoryId, ContractId, EstimateId, MilestoneId, NoteId};
        let found = match resource {
            Resource::Category => match CategoryId::new(id) {
                Some(id) => self.category(id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Contract => match ContractId::new(id) {
                Some(id) => self.contract(ctx, id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Estimate => match EstimateId::new(id) {
                Some(id) => self.estimate(ctx, id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Invoice => match crm_core::ids::InvoiceId::new(id) {
                Some(id) => self.invoice(ctx, id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Milestone => match MilestoneId::new(id) {
                Some(id) => self.milestone(id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Note => match NoteId::new(id) {
                Some(id) => self.note(ctx, id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Email => match crm_core::ids::EmailId::new(id) {
                Some(id) => self.email(id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Payment => match crm_core::ids::PaymentId::new(id) {
                Some(id) => self.payment(ctx, id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Webhook => match crm_core::ids::WebhookId::new(id) {
                Some(id) => self.webhook(id).await.map(drop),
                None => return Ok(false),
            },
            Resource::WebhookDelivery => return Ok(false),
            Resource::Client => match crm_core::ids::ClientId::new(id) {
                Some(id) => self.client(id).await.map(drop),
                None => return Ok(false),
            },
            Resource::TaxRate => match crm_core::ids::TaxRateId::new(id) {
                Some(id) => self.tax_rate(id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Project => match crm_core::ids::ProjectId::new(id) {
                Some(id) => self.project(id).await.map(drop),
                None => return Ok(false),
            },
        };
        match found {
            Ok(()) => Ok(true),
            Err(StoreError::NotFound(_)) => Ok(false),
            Err(other) => Err(other),
        }
    }

    /// The write pool's occupancy now (for metrics and readiness).
    pub fn pool_status(&self) -> PoolStatus {
        let status = self.inner.pool.status();
        PoolStatus {
            max_size: status.max_size,
            size: status.size,
            available: status.available,
            waiting: status.waiting,
        }
    }

    /// A pooled connection for writes and transactions (on the primary; the request's
    /// later reads go there too).
    pub(crate) async fn writer(&self) -> Result<deadpool_postgres::Object, StoreError> {
        replicas::note_write();
        Ok(self.inner.pool.get().await?)
    }

    /// The totals policy estimates are computed with.
    pub(crate) fn policy(&self) -> crm_core::totals::Policy {
        self.inner.policy
    }

    /// A shared read connection (single-statement reads only): a replica's when one may
    /// answer the request's reads ([`replicas`]), else the primary's.
    pub(crate) async fn reader(&self) -> Result<Arc<deadpool_postgres::ClientWrapper>, StoreError> {
        if let Some(replicas) = &self.inner.replicas {
            if let Some(client) = replicas.reader().await {
                return Ok(client);
            }
            replicas.count_primary();
        }
        self.inner.readers.get().await
    }

    /// A shared read connection to the primary, whatever the replicas (API keys: a key
    /// made a moment ago works at once on every instance).
    pub(crate) async fn primary_reader(
        &self,
    ) -> Result<Arc<deadpool_postgres::ClientWrapper>, StoreError> {
        self.inner.readers.get().await
    }
}
