//! The outbox (`email_queue`, API.md §10): the read-only list for the API, and the delivery
//! worker's side — claiming due rows, recording outcomes, and waking on notifications.
//!
//! The worker never uses the service's pool: [`Outbox`] and [`listen`] open their own
//! connections, so a slow or dead mail server, which keeps a claim's transaction open, never
//! holds a connection the API needs.
//!
//! Claiming: one statement takes up to N due rows that no one holds (`FOR UPDATE SKIP
//! LOCKED` for the statement's instant only) and leases them: `leased_until` marks each taken
//! until the lease ends (migration 0019). Nothing stays locked while a message is on the
//! network, so no request ever waits on a delivery. Any number of workers (and instances)
//! never send one row at the same time while its lease runs; a worker that dies mid-send
//! leaves its row pending, claimable again when the lease has passed, so delivery is at
//! least once, with the row's fixed Message-ID. An outcome clears the lease; it is written
//! only while the row is still pending (a row deleted meanwhile, with its estimate, stays
//! deleted).

use crate::activity::{self, Recorder};
use crm_core::activity::{Actor, SystemPart};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use crm_core::conflict::Resource;
use crm_core::ids::EmailId;
use crm_core::mail::{Email, EmailDates, EmailListQuery, EmailResource, EmailSort};
use tokio_postgres::{AsyncMessage, Client, Row};

use crate::db::Db;
use crate::error::StoreError;
use crate::events::Event;
use crate::listed::Listed;
use crate::messages::Attached;
use crate::pool::StoreConfig;
use crate::rows;
use crate::sql::{self, PageRequest, SortKey, Sql, micros_key};
use crate::store::Store;
use crate::wake::NOTIFY_AFTER_COMMIT;
use crm_core::webhook::EventType;

/// The notification channel: `NOTIFY_AFTER_COMMIT` (`crate::wake`) after the commits that queued emails or
/// wrote webhook events (folded across concurrent writes by the store's waker), and after
/// the worker's own commits that wrote events.
pub const CHANNEL: &str = "crm_outbox";

/// What an email carries, as the API shows it (`has_pdf`, `einvoice_name`): read from its
/// stored message (a row from before migration 0028 carries its own PDF).
macro_rules! attachment_columns {
    () => {
        "CASE WHEN q.body_id IS NULL THEN q.attachment IS NOT NULL \
         ELSE EXISTS (SELECT 1 FROM email_bodies b WHERE b.id = q.body_id AND b.attachment IS NOT NULL) \
         END AS has_pdf, \
         (SELECT b.einvoice_name FROM email_bodies b WHERE b.id = q.body_id) AS einvoice_name"
    };
}

/// An email as the API shows it.
const EMAIL_COLUMNS: &str = concat!(
    "SELECT q.id, q.recipient, q.subject, q.status, q.attempts, q.last_error, \
     q.resource_type, q.resource_id, q.created_at, \
     CASE WHEN q.status = 'pending' THEN q.next_attempt_at END AS next_attempt_at, q.sent_at, ",
    attachment_columns!(),
    " FROM email_queue q"
);

/// The message is the row's stored body (`body_id`, migration 0028: shared by the rows of
/// one version of a bill), or the row's own columns (rows from before); a row whose body is
/// not composed yet waits (migration 0029).
const CLAIM_SQL: &str = "WITH due AS (SELECT id FROM email_queue \
     WHERE status = 'pending' AND next_attempt_at <= $1 AND (leased_until IS NULL OR leased_until <= now()) \
     AND NOT EXISTS (SELECT 1 FROM email_bodies u WHERE u.id = email_queue.body_id AND u.body_text IS NULL) \
     ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED), \
     claimed AS (UPDATE email_queue q SET leased_until = now() + make_interval(secs => $3) FROM due WHERE q.id = due.id \
     RETURNING q.id, q.recipient, q.subject, q.body_text, q.body_html, q.message_id, q.created_at, \
     q.attempts, q.resource_type, q.resource_id, q.attachment, q.next_attempt_at, q.body_id) \
     SELECT c.id, c.recipient, COALESCE(b.subject, c.subject) AS subject, COALESCE(b.body_text, c.body_text) AS body_text, \
     COALESCE(b.body_html, c.body_html) AS body_html, c.message_id, c.created_at, c.attempts, \
     c.resource_type, c.resource_id, CASE WHEN b.id IS NULL THEN c.attachment ELSE b.attachment END AS attachment, \
     b.einvoice, b.einvoice_name, b.einvoice_media_type, \
     c.next_attempt_at FROM claimed c LEFT JOIN email_bodies b ON b.id = c.body_id";

const SENT_SQL: &str = concat!(
    "UPDATE email_queue q SET status = 'sent', sent_at = $2, attempts = attempts + 1, \
     next_attempt_at = NULL, last_error = NULL, leased_until = NULL WHERE id = $1 AND status = 'pending' \
     RETURNING q.id, q.recipient, q.subject, q.status, q.attempts, q.last_error, q.resource_type, \
     q.resource_id, q.created_at, NULL::timestamptz AS next_attempt_at, q.sent_at, ",
    attachment_columns!()
);

const RETRY_SQL: &str = "UPDATE email_queue SET attempts = attempts + 1, next_attempt_at = $2, last_error = $3, \
     leased_until = NULL WHERE id = $1 AND status = 'pending'";

const FAILED_SQL: &str = concat!(
    "UPDATE email_queue q SET status = 'failed', attempts = attempts + 1, \
     next_attempt_at = NULL, last_error = $2, leased_until = NULL WHERE id = $1 AND status = 'pending' \
     RETURNING q.id, q.recipient, q.subject, q.status, q.attempts, q.last_error, q.resource_type, \
     q.resource_id, q.created_at, NULL::timestamptz AS next_attempt_at, q.sent_at, ",
    attachment_columns!()
);

const RELEASE_SQL: &str =
    "UPDATE email_queue SET leased_until = NULL WHERE id = ANY($1) AND status = 'pending'";

const BACKLOG_SQL: &str = "SELECT \
     (SELECT count(*) FROM email_queue WHERE status = 'pending') AS pending, \
     (SELECT count(*) FROM email_queue WHERE status = 'pending' AND next_attempt_at <= now()) AS due, \
     (SELECT count(*) FROM email_queue WHERE status = 'failed') AS failed, \
     (SELECT extract(epoch FROM now() - min(created_at))::float8 FROM email_queue \
      WHERE status = 'pending') AS oldest_pending";

/// A leased row is due again when its lease ends, if that is later (GREATEST skips NULLs).
const NEXT_DUE_SQL: &str = "SELECT min(GREATEST(next_attempt_at, leased_until)) AS due \
     FROM email_queue WHERE status = 'pending'";

impl Store {
    /// `GET /emails`: one page of the outbox.
    pub async fn list_emails(&self, q: &EmailListQuery) -> Result<Listed<Email>, StoreError> {
        let mut filtered = Sql::new(EMAIL_COLUMNS);
        filtered.push(" WHERE TRUE");
        if let Some(status) = q.filters.status {
            filtered.push_with(" AND q.status = {}", status.as_str());
        }
        if let Some(kind) = q.filters.resource_type {
            filtered.push_with(" AND q.resource_type = {}", kind.as_str());
        }
        if let Some(id) = q.filters.resource_id {
            filtered.push_with(" AND q.resource_id = {}", id);
        }
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(EmailSort::Created) => SortKey::timestamp("created_at", micros_key!("created_at")),
            Some(EmailSort::Sent) => {
                SortKey::timestamp("sent_at", micros_key!("sent_at")).nullable()
            }
        };
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page(&*self.reader().await?, filtered, None, sort, &request, "").await?;
        Listed::decoded(&found, email_from_row)
    }

    /// The outbox's backlog now, for the metrics: each count reads only the rows of its
    /// status through an index (sent rows, the bulk of the table, are never counted).
    /// `Unavailable` when the database does not answer within the connect timeout.
    pub async fn outbox_backlog(&self) -> Result<OutboxBacklog, StoreError> {
        let row = self
            .checked(async { self.reader().await?.row(BACKLOG_SQL, &[]).await })
            .await?;
        backlog_from_row(&row)
    }

    /// `GET /emails/{id}`.
    pub async fn email(&self, id: EmailId) -> Result<Email, StoreError> {
        let sql = format!("{EMAIL_COLUMNS} WHERE q.id = $1");
        let row = self
            .reader()
            .await?
            .row_opt(&sql, &[&id.get()])
            .await?
            .ok_or(StoreError::NotFound(Resource::Email))?;
        email_from_row(&row)
    }
}

/// A backlog row (`pending`, `due`, `failed`, `oldest_pending`), of either channel.
pub(crate) fn backlog_from_row(row: &Row) -> Result<OutboxBacklog, StoreError> {
    let count = |name: &str| -> Result<u64, StoreError> {
        let n: i64 = rows::get(row, name)?;
        Ok(u64::try_from(n).unwrap_or(0))
    };
    let oldest: Option<f64> = rows::get(row, "oldest_pending")?;
    Ok(OutboxBacklog {
        pending: count("pending")?,
        due: count("due")?,
        failed: count("failed")?,
        oldest_pending_seconds: oldest.map(|s| s.max(0.0)),
    })
}

fn email_from_row(row: &Row) -> Result<Email, StoreError> {
    let resource_type: String = rows::get(row, "resource_type")?;
    let resource_id: i64 = rows::get(row, "resource_id")?;
    let mut attachments = Vec::new();
    if rows::get::<bool>(row, "has_pdf")? {
        attachments.push(pdf_name(&resource_type, resource_id));
    }
    attachments.extend(rows::get::<Option<String>>(row, "einvoice_name")?);
    Ok(Email {
        attachments,
        id: rows::get(row, "id")?,
        recipient: rows::get(row, "recipient")?,
        subject: rows::get(row, "subject")?,
        status: rows::choice(row, "status")?,
        attempts: rows::get(row, "attempts")?,
        last_error: rows::get(row, "last_error")?,
        resource: EmailResource {
            resource_type,
            id: resource_id,
        },
        dates: EmailDates {
            created: rows::timestamp(row, "created_at")?,
            next_attempt: rows::opt_timestamp(row, "next_attempt_at")?,
            sent: rows::opt_timestamp(row, "sent_at")?,
        },
    })
}

/// How many outbox rows wait, are due, and have failed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct OutboxBacklog {
    /// Pending rows (due now or waiting for a retry).
    pub pending: u64,
    /// Pending rows whose time has come: a number that keeps growing means the workers do
    /// not keep up (or none runs).
    pub due: u64,
    /// Rows that will not be sent.
    pub failed: u64,
    /// How long ago the oldest pending row was queued, in seconds; `None` with none
    /// pending. It grows without bound when delivery is stuck.
    pub oldest_pending_seconds: Option<f64>,
}

/// A claimed outbox row: what to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxMessage {
    /// Row id.
    pub id: i64,
    /// The To address.
    pub recipient: String,
    /// The subject.
    pub subject: String,
    /// The text/plain alternative.
    pub text: String,
    /// The text/html alternative.
    pub html: String,
    /// The row's Message-ID (`<…@…>`), the same on every attempt.
    pub message_id: String,
    /// When it was queued (the Date header; the start of the retry window).
    pub created: DateTime<Utc>,
    /// Attempts made before this one.
    pub attempts: i32,
    /// What it is about: `estimate`, `invoice`.
    pub resource_type: String,
    /// The record's id (its number).
    pub resource_id: i64,
    /// The files the email carries, in order: the record's PDF (`--mail-attach-pdf`), its
    /// e-invoice (`--mail-attach-einvoice`).
    pub attachments: Vec<Attached>,
}

impl OutboxMessage {
    /// A file name for the message: the record's kind and number, then the row's id
    /// (`estimate-12-email-34.eml`), so an operator finds a client's email among many.
    pub fn file_name(&self) -> String {
        format!("{}-email-{}.eml", self.record_name(), self.id)
    }

    /// The PDF's file name: `estimate-12.pdf`.
    pub fn pdf_name(&self) -> String {
        pdf_name(&self.resource_type, self.resource_id)
    }

    /// `estimate-12`: the kind (letters and digits only) and the number.
    fn record_name(&self) -> String {
        record_name(&self.resource_type, self.resource_id)
    }
}

/// `estimate-12`: a record's kind (letters and digits only) and its id.
fn record_name(resource_type: &str, id: i64) -> String {
    let kind: String = resource_type
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    format!("{kind}-{id}")
}

/// The file name of a record's PDF in its email: `estimate-12.pdf`.
fn pdf_name(resource_type: &str, id: i64) -> String {
    format!("{}.pdf", record_name(resource_type, id))
}

/// The delivery worker's own database connection (reopened after an error).
pub struct Outbox {
    config: tokio_postgres::Config,
    client: Option<WorkerClient>,
}

/// The worker's connection, whose statements outside a transaction go through the
/// statement switch ([`crate::db::use_unnamed_statements`]): behind PgBouncer none is
/// prepared under a name that could outlive it. (Inside a transaction, a statement
/// prepared for one call is closed before the transaction ends.)
pub(crate) struct WorkerClient(Client);

impl WorkerClient {
    /// Runs `sql` and returns its rows.
    pub(crate) async fn query(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<Row>, tokio_postgres::Error> {
        crate::db::plain_rows(&self.0, sql, params).await
    }

    /// Runs `sql` unnamed, its parameters' types given: one round trip, nothing prepared
    /// (behind PgBouncer too).
    pub(crate) async fn query_typed(
        &self,
        sql: &str,
        params: &[(
            &(dyn tokio_postgres::types::ToSql + Sync),
            tokio_postgres::types::Type,
        )],
    ) -> Result<Vec<Row>, tokio_postgres::Error> {
        self.0.query_typed(sql, params).await
    }

    /// Runs `sql` and returns its one row (an error otherwise).
    pub(crate) async fn query_one(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Row, StoreError> {
        self.query_opt(sql, params)
            .await?
            .ok_or_else(|| StoreError::Internal(format!("no row returned by: {sql}")))
    }

    /// Runs `sql` and returns its first row, if any.
    pub(crate) async fn query_opt(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Option<Row>, tokio_postgres::Error> {
        Ok(self.query(sql, params).await?.into_iter().next())
    }

    /// Runs `sql` and returns the number of rows it changed.
    pub(crate) async fn execute(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<u64, tokio_postgres::Error> {
        crate::db::plain_run(&self.0, sql, params).await
    }

    /// Runs statements by the simple protocol (nothing is prepared).
    pub(crate) async fn batch_execute(&self, sql: &str) -> Result<(), tokio_postgres::Error> {
        self.0.batch_execute(sql).await
    }

    /// Runs statements by the simple protocol and gives their messages (rows as text).
    pub(crate) async fn simple_query(
        &self,
        sql: &str,
    ) -> Result<Vec<tokio_postgres::SimpleQueryMessage>, tokio_postgres::Error> {
        self.0.simple_query(sql).await
    }

    /// Opens a transaction.
    pub(crate) async fn transaction(
        &mut self,
    ) -> Result<tokio_postgres::Transaction<'_>, tokio_postgres::Error> {
        self.0.transaction().await
    }

    fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outbox")
            .field("connected", &self.client.is_some())
            .finish_non_exhaustive()
    }
}

async fn open(config: &tokio_postgres::Config) -> Result<Client, StoreError> {
    let (client, connection) = crate::pool::handshake(config).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!(error = %e, "outbox connection closed");
        }
    });
    Ok(client)
}

impl Outbox {
    /// A worker connection to `config`'s database (opened on first use).
    pub fn new(config: &StoreConfig) -> Result<Outbox, StoreError> {
        let mut pg = config.pg_config()?;
        pg.application_name("crm-outbox");
        Ok(Outbox {
            config: pg,
            client: None,
        })
    }

    pub(crate) async fn client(&mut self) -> Result<&mut WorkerClient, StoreError> {
        if self.client.as_ref().is_none_or(WorkerClient::is_closed) {
            self.client = Some(WorkerClient(open(&self.config).await?));
        }
        self.client
            .as_mut()
            .ok_or_else(|| StoreError::Internal("no outbox connection".to_owned()))
    }

    /// Forgets the connection (after an error); the next call opens a new one.
    pub fn reset(&mut self) {
        self.client = None;
    }

    /// Claims up to `max` of the oldest due pending rows (`next_attempt_at <= due_by`) that
    /// no one holds, leasing each for `lease` (it must outlast a send); oldest due first.
    /// Nothing stays locked: the outcome methods below clear the lease, and a row whose
    /// worker died is claimable again when its lease has passed.
    pub async fn claim(
        &mut self,
        due_by: DateTime<Utc>,
        max: usize,
        lease: std::time::Duration,
    ) -> Result<Vec<OutboxMessage>, StoreError> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let lease = lease.as_secs_f64();
        let found = self
            .client()
            .await?
            .query(CLAIM_SQL, &[&due_by, &max, &lease])
            .await?;
        let mut claimed = found
            .iter()
            .map(|row| {
                let due: DateTime<Utc> = rows::get(row, "next_attempt_at")?;
                let mut message = OutboxMessage {
                    id: rows::get(row, "id")?,
                    recipient: rows::get(row, "recipient")?,
                    subject: rows::get(row, "subject")?,
                    text: rows::get(row, "body_text")?,
                    html: rows::get(row, "body_html")?,
                    message_id: rows::get(row, "message_id")?,
                    created: rows::get(row, "created_at")?,
                    attempts: rows::get(row, "attempts")?,
                    resource_type: rows::get(row, "resource_type")?,
                    resource_id: rows::get(row, "resource_id")?,
                    attachments: Vec::new(),
                };
                if let Some(pdf) = rows::get::<Option<Vec<u8>>>(row, "attachment")? {
                    message.attachments.push(Attached {
                        name: message.pdf_name(),
                        media_type: "application/pdf".to_owned(),
                        data: pdf,
                    });
                }
                if let Some(data) = rows::get::<Option<Vec<u8>>>(row, "einvoice")? {
                    message.attachments.push(Attached {
                        name: rows::get(row, "einvoice_name")?,
                        media_type: rows::get(row, "einvoice_media_type")?,
                        data,
                    });
                }
                Ok((due, message))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        claimed.sort_by_key(|(due, message)| (*due, message.id));
        Ok(claimed.into_iter().map(|(_, message)| message).collect())
    }

    /// When the earliest pending row is due (a leased one when its lease ends), if there is
    /// one.
    pub async fn next_due(&mut self) -> Result<Option<DateTime<Utc>>, StoreError> {
        let row = self.client().await?.query_one(NEXT_DUE_SQL, &[]).await?;
        rows::get(&row, "due")
    }

    /// Row `id` was accepted by the server at `now`.
    pub async fn sent(&mut self, id: i64, now: DateTime<Utc>) -> Result<(), StoreError> {
        self.finish_with_event(SENT_SQL, &[&id, &now], EventType::EmailSent)
            .await
    }

    /// A temporary failure of row `id`: try again at `at`.
    pub async fn retry(
        &mut self,
        id: i64,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(RETRY_SQL, &[&id, &at, &error])
            .await?;
        Ok(())
    }

    /// A permanent failure of row `id` (or its retry window is over).
    pub async fn failed(&mut self, id: i64, error: &str) -> Result<(), StoreError> {
        self.finish_with_event(FAILED_SQL, &[&id, &error], EventType::EmailFailed)
            .await
    }

    /// Runs an outcome statement that returns the email as it is after it (none: the row
    /// was no longer pending) and reports the email's event and its activity entry (the
    /// outbox's), in one transaction.
    async fn finish_with_event(
        &mut self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
        kind: EventType,
    ) -> Result<(), StoreError> {
        let client = self.client().await?;
        let tx = client.transaction().await?;
        let mut queued = 0;
        if let Some(row) = tx.query_opt(sql, params).await? {
            let email = email_from_row(&row)?;
            let event = Event::new(kind, email.id, &email, crate::events::now())?;
            let columns = crate::events::columns(std::slice::from_ref(&event));
            queued = tx
                .execute(crate::events::INSERT_EVENTS_SQL, &columns.params())
                .await?;
            // Its activity entry: the outbox's (API.md §21).
            let mut recorder = Recorder::new(Actor::System(SystemPart::Outbox));
            recorder.changed(kind.into(), email.id, None, None);
            if let Some(entry) = recorder.take(activity::now()) {
                let params = activity::Params::of(&entry, None);
                tx.execute(activity::INSERT_SQL, &params.params()).await?;
            }
        }
        tx.commit().await?;
        if queued > 0 {
            client.batch_execute(NOTIFY_AFTER_COMMIT).await?;
        }
        Ok(())
    }

    /// Gives back claimed rows that were not sent (a stop between the claim and the send):
    /// they are due again at once.
    pub async fn release(&mut self, ids: &[i64]) -> Result<(), StoreError> {
        if !ids.is_empty() {
            self.client().await?.execute(RELEASE_SQL, &[&ids]).await?;
        }
        Ok(())
    }
}

/// Opens a connection that `LISTEN`s on [`CHANNEL`] and wakes `wake` on every
/// notification. The returned task ends when the connection does (the worker then polls
/// and listens again); aborting it closes the connection.
///
/// A `LISTEN` needs a session of its own: it uses `--listen-database-url` when given (a
/// direct connection to the primary). Behind PgBouncer in transaction pooling mode without
/// one, nothing listens (PgBouncer would hand the session to others and lose the
/// notifications): the returned task never ends, and the worker finds new rows by polling
/// (every 5 s by default, `WorkerOptions::poll` in crm-http).
pub async fn listen(
    config: &StoreConfig,
    wake: Arc<tokio::sync::Notify>,
) -> Result<tokio::task::JoinHandle<()>, StoreError> {
    let mut pg = match (&config.listen_database_url, config.pgbouncer) {
        (Some(url), _) => config.pg_config_of(url)?,
        (None, false) => config.pg_config()?,
        (None, true) => {
            static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
            if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
                tracing::info!(
                    "behind PgBouncer without --listen-database-url: the outbox worker polls \
                     for new rows instead of listening"
                );
            }
            drop(wake);
            return Ok(tokio::spawn(std::future::pending()));
        }
    };
    pg.application_name("crm-outbox-listen");
    let (client, mut connection) = crate::pool::handshake(&pg).await?;
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(_))) => wake.notify_one(),
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::debug!(error = %e, "outbox listener closed");
                    break;
                }
                None => break,
            }
        }
    });
    if let Err(e) = client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
        driver.abort();
        return Err(e.into());
    }
    Ok(tokio::spawn(async move {
        // The connection lives as long as its client: keep it until the driver ends.
        let _client = client;
        let _ = driver.await;
    }))
}
