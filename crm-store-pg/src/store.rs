//! The store: a write pool and shared read connections to one database, what every
//! operation is called on ([`Store`]), and who acts ([`Ctx`]).

use std::sync::Arc;

use chrono::NaiveDate;
use crm_core::conflict::Resource;
use crm_core::ids::UserId;

use crate::db::Db;
use crate::error::StoreError;
use crate::pool::{Readers, StoreConfig};
use crate::replicas::{self, ReplicaStatus};
use crate::{pool, statements, wake};

/// Who is acting and what day it is: every operation that creates records (creator) or
/// derives a status from dates (today) takes one. The store has no clock of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ctx {
    /// The acting user (the API key's user).
    pub actor: UserId,
    /// Today's date in the server's time zone (UTC by default).
    pub today: NaiveDate,
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
    pub(crate) inner: Arc<Inner>,
}

/// What every clone of a [`Store`] shares.
#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) pool: deadpool_postgres::Pool,
    pub(crate) readers: Readers,
    pub(crate) policy: crm_core::totals::Policy,
    /// The client's side: where links point and how long they work.
    pub(crate) client: pool::ClientSide,
    /// Where webhook endpoints may point.
    pub(crate) webhooks: crm_core::webhook::UrlRules,
    /// The time a health, readiness or monitoring check, or the lookup of a key, gives the
    /// database to answer ([`Store::checked`]).
    pub(crate) check_timeout: std::time::Duration,
    /// Wakes the delivery workers after commits that queued webhook deliveries.
    pub(crate) waker: Arc<wake::Waker>,
    /// The streaming replicas single-statement reads may go to.
    pub(crate) replicas: Option<replicas::Replicas>,
}

impl Store {
    /// The company's name when its settings give no trading name (`--company-name`).
    pub(crate) fn company_name(&self) -> &str {
        &self.inner.client.company_name
    }
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
            webhooks: config.webhooks,
            check_timeout: config.connect_timeout,
            replicas: replicas::Replicas::new(config)?,
        });
        if inner.replicas.is_some() {
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn(watch_replicas(Arc::downgrade(&inner)));
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

    /// Whether the record `id` of `resource` exists and is visible to `ctx.actor` (a
    /// contract's backing estimate, a sticky note and another user's private note do not
    /// count: the areas' own reads decide). Used to answer 404 rather than 422 for a bad
    /// request to a missing record, so it runs only on that error path.
    pub async fn exists(&self, ctx: Ctx, resource: Resource, id: i64) -> Result<bool, StoreError> {
        use crm_core::bill::{EstimateKind, InvoiceKind};
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
                Some(id) => self.bills::<EstimateKind>().get(ctx, id).await.map(drop),
                None => return Ok(false),
            },
            Resource::RecurringInvoice => match crm_core::ids::RecurringInvoiceId::new(id) {
                Some(id) => self.recurring_invoice(id).await.map(drop),
                None => return Ok(false),
            },
            Resource::CreditNote => match crm_core::ids::CreditNoteId::new(id) {
                Some(id) => self.credit_note(ctx, id).await.map(drop),
                None => return Ok(false),
            },
            Resource::Invoice => match crm_core::ids::InvoiceId::new(id) {
                Some(id) => self.bills::<InvoiceKind>().get(ctx, id).await.map(drop),
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

    /// The totals policy new estimates and invoices are created with (a document keeps
    /// its own: `Locked::policy`).
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

/// Watches the replicas of the store behind `inner` until the store is dropped.
async fn watch_replicas(inner: std::sync::Weak<Inner>) {
    let mut tick = tokio::time::interval(replicas::WATCH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else {
            return;
        };
        if let Some(replicas) = &inner.replicas {
            replicas.check(&inner.readers).await;
        }
    }
}
