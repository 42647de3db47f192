//! Webhook endpoints and their deliveries (API.md §13): the endpoints API, the delivery
//! history, and what the outbox worker claims and records for the `webhook` channel.
//! Events themselves are written by the changes they report ([`crate::events`]).

use std::collections::HashMap;

use base64::Engine as _;
use chrono::{DateTime, Utc};
use crm_core::activity::WebhookChange;
use crm_core::choice::Choice;
use crm_core::conflict::Resource;
use crm_core::ids::{ApiKeyId, WebhookDeliveryId, WebhookId};
use crm_core::scope::Scopes;
use crm_core::time::Timestamp;
use crm_core::webhook::fairness::{self, Breaker, Ended, Load, Slots, Transition};
use crm_core::webhook::{
    self, Delivery, DeliveryDates, DeliveryListQuery, DeliverySort, EventRef, EventType,
    NewWebhook, ROTATION_OVERLAP, SECRET_BYTES, SECRET_PREFIX, UrlRules, Webhook, WebhookDates,
    WebhookListQuery, WebhookSort, WebhookUpdate, WebhookWithSecret, disabled_reason,
};
use tokio_postgres::Row;
use tokio_postgres::types::Type;

use crate::db::Db;
use crate::error::StoreError;
use crate::events::{self, Event};
use crate::listed::Listed;
use crate::outbox::Outbox;
use crate::rows;
use crate::sql::{self, PageRequest, SortKey, Sql, micros_key};
use crate::store::Store;

/// A new message id (the `webhook-id`, API.md §13), as SQL: `msg_` and the 32 hex digits of
/// a random UUID.
macro_rules! new_message_id {
    () => {
        "'msg_' || replace(gen_random_uuid()::text, '-', '')"
    };
}

/// The message id the fan-out gives the event row `e`, as SQL: `msg_` and the first 32 hex
/// digits of the SHA-256 of its id and body. Derived from the row, not drawn: a copy of the
/// database (a backup restored) that fans the event out again gives it the id the old
/// database gave it, so a receiver that got it from both can drop the second by its
/// `webhook-id` (docs/deploy.md, Backups).
macro_rules! event_message_id {
    () => {
        "'msg_' || left(encode(sha256(convert_to(e.id::text || ':' || e.body, 'UTF8')), 'hex'), 32)"
    };
}

/// The fan-out's advisory lock key (`crm webhook fan-out`, a constant of this schema).
macro_rules! fan_out_lock {
    () => {
        "7221943530144153135"
    };
}
/// An endpoint's public columns.
const ENDPOINT_COLUMNS: &str = "SELECT w.id, w.url, w.description, w.events, w.enabled, \
     w.created_at, w.disabled_at, w.disabled_reason, w.breaker_timeouts, w.breaker_opened_at \
     FROM webhook_endpoints w";

const INSERT_SQL: &str = "INSERT INTO webhook_endpoints (url, description, events, enabled, secret, disabled_at, disabled_reason, key_id) \
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $4 THEN NULL ELSE now() END, CASE WHEN $4 THEN NULL ELSE $6 END, $7) \
     RETURNING id, url, description, events, enabled, created_at, disabled_at, disabled_reason";

const LOCK_SQL: &str = "SELECT id, events FROM webhook_endpoints WHERE id = $1 FOR UPDATE";

/// The scopes of a key that may act (not revoked, not expired), read with a share lock so
/// that a revocation waits for the endpoint it is about to disable to be written.
const KEY_SCOPES_SQL: &str = "SELECT scopes FROM api_keys WHERE id = $1 AND revoked_at IS NULL \
     AND (expires_at IS NULL OR expires_at > now()) FOR SHARE";

/// The scopes of the acting key `key`, which every endpoint it registers or takes over is
/// held to (a key that cannot act has none: it gets nothing).
async fn key_scopes(db: &impl Db, key: ApiKeyId) -> Result<Scopes, StoreError> {
    match db.row_opt(KEY_SCOPES_SQL, &[&key.get()]).await? {
        Some(row) => crate::keys::scopes(&row),
        None => Ok(Scopes::known([])),
    }
}

/// A delivery's public columns.
const DELIVERY_COLUMNS: &str = "SELECT d.id, d.endpoint_id, e.message_id, d.event_type, d.status, d.attempts, \
     d.last_status_code, d.last_error, d.created_at, \
     CASE WHEN d.status = 'pending' THEN d.next_attempt END AS next_attempt, d.delivered_at \
     FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id";

/// A new random secret: `whsec_` + base64 of 32 random bytes.
fn new_secret() -> Result<String, StoreError> {
    let mut bytes = [0u8; SECRET_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Internal(format!("no random bytes for a secret: {e}")))?;
    Ok(format!(
        "{SECRET_PREFIX}{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    ))
}

fn webhook_from_row(row: &Row) -> Result<Webhook, StoreError> {
    Ok(Webhook {
        id: rows::id(row, "id", WebhookId::new)?,
        url: rows::get(row, "url")?,
        description: rows::get(row, "description")?,
        events: rows::get(row, "events")?,
        enabled: rows::get(row, "enabled")?,
        dates: WebhookDates {
            created: rows::timestamp(row, "created_at")?,
            disabled: rows::opt_timestamp(row, "disabled_at")?,
        },
        disabled_reason: rows::get(row, "disabled_reason")?,
        breaker: breaker_from_row(row)?,
    })
}

/// An endpoint's breaker, from [`ENDPOINT_COLUMNS`]; a row without its columns (the one a
/// registration returns) is a new endpoint's, whose breaker is closed.
fn breaker_from_row(row: &Row) -> Result<Breaker, StoreError> {
    if !row.columns().iter().any(|c| c.name() == "breaker_timeouts") {
        return Ok(Breaker::CLOSED);
    }
    Ok(Breaker::stored(
        rows::get(row, "breaker_timeouts")?,
        rows::opt_timestamp(row, "breaker_opened_at")?,
    ))
}

fn delivery_from_row(row: &Row) -> Result<Delivery, StoreError> {
    Ok(Delivery {
        id: rows::id(row, "id", WebhookDeliveryId::new)?,
        event: EventRef {
            id: rows::get(row, "message_id")?,
            kind: rows::choice(row, "event_type")?,
        },
        status: rows::choice(row, "status")?,
        attempts: rows::get(row, "attempts")?,
        last_status_code: rows::get(row, "last_status_code")?,
        last_error: rows::get(row, "last_error")?,
        dates: DeliveryDates {
            created: rows::timestamp(row, "created_at")?,
            next_attempt: rows::opt_timestamp(row, "next_attempt")?,
            delivered: rows::opt_timestamp(row, "delivered_at")?,
        },
    })
}

async fn read_webhook(db: &impl Db, id: WebhookId) -> Result<Webhook, StoreError> {
    let sql = format!("{ENDPOINT_COLUMNS} WHERE w.id = $1");
    let row = db
        .row_opt(&sql, &[&id.get()])
        .await?
        .ok_or(StoreError::NotFound(Resource::Webhook))?;
    webhook_from_row(&row)
}

async fn read_delivery(
    db: &impl Db,
    endpoint: WebhookId,
    id: WebhookDeliveryId,
) -> Result<Delivery, StoreError> {
    let sql = format!("{DELIVERY_COLUMNS} WHERE d.id = $1 AND d.endpoint_id = $2");
    let row = db
        .row_opt(&sql, &[&id.get(), &endpoint.get()])
        .await?
        .ok_or(StoreError::NotFound(Resource::WebhookDelivery))?;
    delivery_from_row(&row)
}

impl Store {
    /// Where webhook endpoints may point (the service's `--webhook-allow-*` flags).
    pub fn webhook_rules(&self) -> UrlRules {
        self.inner.webhooks
    }

    /// Registers an endpoint for the key `by`, which it belongs to: it receives only the
    /// events that key may read (`*`: all of them), and listing a type the key may not read
    /// is invalid (`events`, naming them). The answer is the only one that shows its secret.
    pub async fn create_webhook(
        &self,
        by: ApiKeyId,
        cmd: &NewWebhook,
    ) -> Result<WebhookWithSecret, StoreError> {
        let secret = new_secret()?;
        let tx = self.begin().await?;
        cmd.events.check_readable(&key_scopes(&tx, by).await?)?;
        let row = tx
            .row(
                INSERT_SQL,
                &[
                    &cmd.url,
                    &cmd.description,
                    &cmd.events.texts(),
                    &cmd.enabled,
                    &secret,
                    &disabled_reason::BY_REQUEST,
                    &by.get(),
                ],
            )
            .await?;
        let webhook = webhook_from_row(&row)?;
        tx.record(WebhookChange::Created, webhook.id.get(), Some(&webhook))?;
        tx.commit().await?;
        Ok(WebhookWithSecret { webhook, secret })
    }

    /// One endpoint.
    pub async fn webhook(&self, id: WebhookId) -> Result<Webhook, StoreError> {
        read_webhook(&*self.reader().await?, id).await
    }

    /// The endpoints, paged as every list.
    pub async fn list_webhooks(&self, q: &WebhookListQuery) -> Result<Listed<Webhook>, StoreError> {
        let mut filtered = Sql::new(ENDPOINT_COLUMNS);
        filtered.push(" WHERE TRUE");
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(WebhookSort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page(&*self.reader().await?, filtered, None, sort, &request, "").await?;
        Listed::decoded(&found, webhook_from_row)
    }

    /// Changes what `cmd` names. Enabling a disabled endpoint clears its disabled date and
    /// reason and restarts its failure clock; disabling one records the date.
    ///
    /// A change of where events go or of which ones (`url`, `events`, `enabled=true`)
    /// makes the endpoint the key `by`'s: its events (the new ones, or those kept) must be
    /// readable by that key (else invalid, `events`, nothing written), and from then on it
    /// receives what that key may read. Any other change keeps its key.
    pub async fn update_webhook(
        &self,
        by: ApiKeyId,
        id: WebhookId,
        cmd: &WebhookUpdate,
    ) -> Result<Webhook, StoreError> {
        const SQL: &str = "UPDATE webhook_endpoints SET \
             url = COALESCE($2, url), \
             description = CASE WHEN $3 THEN $4 ELSE description END, \
             events = COALESCE($5, events), \
             enabled = COALESCE($6, enabled), \
             disabled_at = CASE WHEN $6 IS NULL OR $6 = enabled THEN disabled_at \
                                WHEN $6 THEN NULL ELSE now() END, \
             disabled_reason = CASE WHEN $6 IS NULL OR $6 = enabled THEN disabled_reason \
                                    WHEN $6 THEN NULL ELSE $7 END, \
             failing_since = CASE WHEN $6 AND NOT enabled THEN NULL ELSE failing_since END, \
             key_id = COALESCE($8, key_id), \
             updated_at = now() \
             WHERE id = $1";
        let tx = self.begin().await?;
        let locked = tx
            .row_opt(LOCK_SQL, &[&id.get()])
            .await?
            .ok_or(StoreError::NotFound(Resource::Webhook))?;
        tx.if_match(read_webhook(&tx, id)).await?;
        let takes_over = cmd.url.is_some() || cmd.events.is_some() || cmd.enabled == Some(true);
        let owner = if takes_over {
            let scopes = key_scopes(&tx, by).await?;
            match &cmd.events {
                Some(events) => events.check_readable(&scopes)?,
                None => {
                    let kept: Vec<String> = rows::get(&locked, "events")?;
                    webhook::Subscription::stored(&kept).check_readable(&scopes)?;
                }
            }
            Some(by.get())
        } else {
            None
        };
        let events = cmd.events.as_ref().map(webhook::Subscription::texts);
        let description = cmd.description.clone().flatten();
        tx.run(
            SQL,
            &[
                &id.get(),
                &cmd.url,
                &cmd.description.is_some(),
                &description,
                &events,
                &cmd.enabled,
                &disabled_reason::BY_REQUEST,
                &owner,
            ],
        )
        .await?;
        let webhook = read_webhook(&tx, id).await?;
        tx.record(WebhookChange::Updated, id.get(), Some(&webhook))?;
        tx.commit().await?;
        Ok(webhook)
    }

    /// Deletes an endpoint with its deliveries.
    pub async fn delete_webhook(&self, id: WebhookId) -> Result<(), StoreError> {
        let tx = self.begin().await?;
        tx.row_opt(LOCK_SQL, &[&id.get()])
            .await?
            .ok_or(StoreError::NotFound(Resource::Webhook))?;
        tx.if_match(read_webhook(&tx, id)).await?;
        tx.run("DELETE FROM webhook_endpoints WHERE id = $1", &[&id.get()])
            .await?;
        tx.record::<()>(WebhookChange::Deleted, id.get(), None)?;
        tx.commit().await
    }

    /// Gives an endpoint a new secret (shown once, in the answer); the old one still signs
    /// for [`ROTATION_OVERLAP`].
    pub async fn rotate_webhook_secret(
        &self,
        id: WebhookId,
    ) -> Result<WebhookWithSecret, StoreError> {
        const SQL: &str = "UPDATE webhook_endpoints SET previous_secret = secret, \
             previous_until = now() + make_interval(secs => $3), secret = $2, updated_at = now() \
             WHERE id = $1";
        let secret = new_secret()?;
        let overlap = ROTATION_OVERLAP.num_seconds() as f64;
        let tx = self.begin().await?;
        tx.row_opt(LOCK_SQL, &[&id.get()])
            .await?
            .ok_or(StoreError::NotFound(Resource::Webhook))?;
        tx.run(SQL, &[&id.get(), &secret, &overlap]).await?;
        let webhook = read_webhook(&tx, id).await?;
        tx.record(WebhookChange::SecretRotated, id.get(), Some(&webhook))?;
        tx.commit().await?;
        Ok(WebhookWithSecret { webhook, secret })
    }

    /// Queues a `webhook.test` event for this endpoint alone (whatever it subscribes to,
    /// enabled or not); the answer is its delivery.
    pub async fn test_webhook(&self, id: WebhookId) -> Result<Delivery, StoreError> {
        const SQL: &str = concat!(
            "WITH e AS (INSERT INTO webhook_events (message_id, type, record_key, body) \
             VALUES (",
            new_message_id!(),
            ", $2, $3, $4) RETURNING id, type, record_key) \
             INSERT INTO webhook_deliveries (event_id, endpoint_id, event_type, record_key) \
             SELECT e.id, $1, e.type, e.record_key FROM e RETURNING id"
        );
        let tx = self.begin().await?;
        let endpoint = {
            tx.row_opt(LOCK_SQL, &[&id.get()])
                .await?
                .ok_or(StoreError::NotFound(Resource::Webhook))?;
            read_webhook(&tx, id).await?
        };
        let event = Event::new(EventType::WebhookTest, id.get(), &endpoint, events::now())?;
        let row = tx
            .row(
                SQL,
                &[
                    &id.get(),
                    &event.kind.as_str(),
                    &event.record_key,
                    &event.body,
                ],
            )
            .await?;
        let delivery = rows::id(&row, "id", WebhookDeliveryId::new)?;
        tx.wake_workers();
        let answer = read_delivery(&tx, id, delivery).await?;
        tx.record::<()>(WebhookChange::Tested, id.get(), None)?;
        tx.commit().await?;
        Ok(answer)
    }

    /// An endpoint's deliveries, newest first by default, paged as every list.
    pub async fn webhook_deliveries(
        &self,
        id: WebhookId,
        q: &DeliveryListQuery,
    ) -> Result<Listed<Delivery>, StoreError> {
        let reader = self.reader().await?;
        read_webhook(&*reader, id).await?;
        let mut filtered = Sql::new(DELIVERY_COLUMNS);
        filtered.push_with(" WHERE d.endpoint_id = {}", id.get());
        if let Some(status) = q.filters.status {
            filtered.push_with(" AND d.status = {}", status.as_str());
        }
        if let Some(kind) = q.filters.event_type {
            filtered.push_with(" AND d.event_type = {}", kind.as_str());
        }
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(DeliverySort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page(&*reader, filtered, None, sort, &request, "").await?;
        Listed::decoded(&found, delivery_from_row)
    }

    /// Queues a delivery again now (whatever its state: a delivered one is sent again,
    /// with the same `webhook-id`).
    pub async fn retry_webhook_delivery(
        &self,
        id: WebhookId,
        delivery: WebhookDeliveryId,
    ) -> Result<Delivery, StoreError> {
        const SQL: &str = "UPDATE webhook_deliveries SET status = 'pending', next_attempt = now(), \
             leased_until = NULL, delivered_at = NULL WHERE id = $1 AND endpoint_id = $2";
        let tx = self.begin().await?;
        tx.row_opt(LOCK_SQL, &[&id.get()])
            .await?
            .ok_or(StoreError::NotFound(Resource::Webhook))?;
        if tx.run(SQL, &[&delivery.get(), &id.get()]).await? == 0 {
            return Err(StoreError::NotFound(Resource::WebhookDelivery));
        }
        tx.wake_workers();
        let answer = read_delivery(&tx, id, delivery).await?;
        tx.record::<()>(WebhookChange::DeliveryRetried, id.get(), None)?;
        tx.commit().await?;
        Ok(answer)
    }

    /// Deletes delivered and failed deliveries older than `days`, then the events left
    /// without a delivery; returns how many deliveries went.
    pub async fn prune_webhook_deliveries(&self, days: u32) -> Result<u64, StoreError> {
        const DELIVERIES_SQL: &str = "DELETE FROM webhook_deliveries \
             WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)";
        // The events are not indexed by time (an index a write would pay for): ids follow
        // time, so the old ones are those below the first young one, found by walking the
        // ids from the oldest (which passes over the rows to delete and stops).
        const EVENTS_SQL: &str = "DELETE FROM webhook_events v \
             WHERE v.id < COALESCE((SELECT y.id FROM webhook_events y \
                 WHERE y.created_at >= now() - make_interval(days => $1) ORDER BY y.id LIMIT 1), \
               (SELECT max(z.id) + 1 FROM webhook_events z)) \
             AND v.created_at < now() - make_interval(days => $1) \
             AND v.message_id IS NOT NULL \
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries x WHERE x.event_id = v.id)";
        let days = i32::try_from(days).unwrap_or(i32::MAX);
        let writer = self.writer().await?;
        let deleted = writer.run(DELIVERIES_SQL, &[&days]).await?;
        writer.run(EVENTS_SQL, &[&days]).await?;
        Ok(deleted)
    }
}

/// A delivery the worker claimed: what to send where, signed with which secrets.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookJob {
    /// The delivery.
    pub id: i64,
    /// Its endpoint.
    pub endpoint_id: i64,
    /// Attempts made before this one.
    pub attempts: i32,
    /// The `webhook-id`.
    pub message_id: String,
    /// The event's type.
    pub event_type: String,
    /// The body, exactly as signed.
    pub body: String,
    /// Where to post it.
    pub url: String,
    /// The current secret, and the previous one while it still signs.
    pub secrets: Vec<String>,
}

impl std::fmt::Debug for WebhookJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookJob")
            .field("id", &self.id)
            .field("endpoint_id", &self.endpoint_id)
            .field("attempts", &self.attempts)
            .field("message_id", &self.message_id)
            .field("event_type", &self.event_type)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// What an attempt came to, as the worker records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookAttempt {
    /// The answer's status code, if one came.
    pub status_code: Option<u16>,
    /// What went wrong, when it did.
    pub error: Option<String>,
    /// The next step ([`crm_core::webhook::next_step`]).
    pub next: webhook::Next,
    /// The endpoint answered 410: disable it.
    pub gone: bool,
    /// No answer came in time: the endpoint's breaker counts it
    /// ([`crm_core::webhook::fairness`]).
    pub timed_out: bool,
}

/// Fans the oldest events not yet fanned out into deliveries (at most 1,000 events, and at
/// most 5,000 divided by the number of enabled endpoints, so that one statement writes at
/// most about 5,000 deliveries and holds the lock briefly whatever the endpoints), in one
/// transaction sent as one message (the simple protocol, nothing prepared).
///
/// First, every enabled endpoint whose key can no longer act (revoked or deleted, expired,
/// or its user no longer an administrator) is disabled, with the reason, so the endpoints
/// still enabled for the next statement (which sees that update) are those whose key may
/// act. Then each event
/// gets its message id, and one delivery per endpoint that is enabled, subscribes to its
/// type, existed when the change began, and whose key may read it: the key's scopes allow
/// every area the event carries ([`EventType::needs`], as the `needs` rows below), and an
/// event private to a user (a private note) goes only to that user's keys. Each delivery
/// is due from the change's time. A transaction-level advisory lock, taken before the
/// statements' snapshots, runs fan-outs one at a time, so deliveries are numbered in the
/// events' order (which, for one record, is the order its changes committed) and no event
/// is fanned out twice. Gives the events and the deliveries it wrote.
static FAN_OUT_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    // One row per event type and area it needs, with the scopes that grant reading it.
    // Texts of this crate's own constants, never a request's.
    let needs: Vec<String> = <EventType as Choice>::CHOICES
        .iter()
        .flat_map(|(_, kind)| {
            kind.needs().iter().map(move |area| {
                let area = area.as_str();
                format!(
                    "('{}', ARRAY['read', 'write', '{area}:read', '{area}:write']::text[])",
                    kind.as_str()
                )
            })
        })
        .collect();
    format!(
        "BEGIN; SELECT pg_advisory_xact_lock({lock}); \
         UPDATE webhook_endpoints w SET enabled = false, disabled_at = now(), \
           disabled_reason = o.reason FROM (SELECT e.id, CASE \
             WHEN k.id IS NULL OR k.revoked_at IS NOT NULL THEN '{revoked}' \
             WHEN k.expires_at <= now() THEN '{expired}' \
             WHEN NOT (u.kind = 'team' AND u.is_admin) THEN '{demoted}' END AS reason \
           FROM webhook_endpoints e LEFT JOIN api_keys k ON k.id = e.key_id \
           LEFT JOIN users u ON u.id = k.user_id WHERE e.enabled) o \
         WHERE w.id = o.id AND o.reason IS NOT NULL; \
         WITH needs (type, grants) AS (VALUES {needs}), \
         new AS (SELECT id FROM webhook_events WHERE message_id IS NULL ORDER BY id \
           LIMIT LEAST(1000, GREATEST(1, 5000 / GREATEST(1, \
             (SELECT count(*) FROM webhook_endpoints WHERE enabled))))), \
         marked AS (UPDATE webhook_events e SET message_id = {message_id} \
           FROM new WHERE e.id = new.id AND e.message_id IS NULL \
           RETURNING e.id, e.type, e.record_key, e.created_at, e.private_to), \
         queued AS (INSERT INTO webhook_deliveries \
             (event_id, endpoint_id, event_type, record_key, next_attempt, created_at) \
           SELECT m.id, w.id, m.type, m.record_key, m.created_at, m.created_at FROM marked m \
           JOIN webhook_endpoints w ON w.enabled AND w.events && ARRAY[m.type, '*'] \
             AND w.created_at <= m.created_at \
           JOIN api_keys k ON k.id = w.key_id \
           WHERE (m.private_to IS NULL OR m.private_to = k.user_id) \
             AND EXISTS (SELECT 1 FROM needs n WHERE n.type = m.type) \
             AND NOT EXISTS (SELECT 1 FROM needs n WHERE n.type = m.type \
               AND NOT (k.scopes && n.grants)) \
           ORDER BY m.id, w.id RETURNING 1) \
         SELECT (SELECT count(*) FROM marked) AS events, (SELECT count(*) FROM queued) AS deliveries; \
         COMMIT",
        lock = fan_out_lock!(),
        message_id = event_message_id!(),
        needs = needs.join(", "),
        revoked = disabled_reason::KEY_REVOKED.replace('\'', "''"),
        expired = disabled_reason::KEY_EXPIRED.replace('\'', "''"),
        demoted = disabled_reason::KEY_DEMOTED.replace('\'', "''"),
    )
});

/// The endpoints a claim reads: enabled ones, and a disabled one while a test message
/// waits for it (its other deliveries wait for it to be enabled again).
macro_rules! claimable_endpoints {
    () => {
        "(w.enabled OR EXISTS (SELECT 1 FROM webhook_deliveries t \
       WHERE t.endpoint_id = w.id AND t.status = 'pending' AND t.event_type = 'webhook.test'))"
    };
}

/// A delivery `d` that may go now as far as its record's order is concerned: no earlier
/// delivery of the same record to the same endpoint is pending (leased, or waiting for a
/// retry).
macro_rules! first_of_its_record {
    () => {
        "NOT EXISTS (SELECT 1 FROM webhook_deliveries p \
       WHERE p.endpoint_id = d.endpoint_id AND p.record_key = d.record_key \
         AND p.status = 'pending' AND p.id < d.id)"
    };
}

/// The deliveries that may go now (`$1` due by, `$2` the most to read per endpoint): for
/// each endpoint, its oldest due deliveries that are first of their record and not leased
/// (at most `$2`, oldest first), each with its endpoint's deliveries leased by any worker
/// and whether its breaker is open. What [`fairness::plan`] shares the worker's slots by,
/// and what the claim then takes.
///
/// It walks endpoints, not the backlog: the leases are counted once per endpoint (over the
/// index of leased deliveries), and each endpoint reads only its oldest due deliveries (a
/// `LATERAL` subquery with a `LIMIT` over the endpoint's due index, migration 0023).
const LOAD_SQL: &str = concat!(
    "WITH leased AS (SELECT endpoint_id, count(*) AS n FROM webhook_deliveries \
       WHERE status = 'pending' AND leased_until IS NOT NULL AND leased_until > now() \
       GROUP BY endpoint_id) \
     SELECT w.id AS endpoint_id, COALESCE(l.n, 0) AS leased, \
       w.breaker_opened_at IS NOT NULL AS open, c.id, c.next_attempt \
     FROM webhook_endpoints w LEFT JOIN leased l ON l.endpoint_id = w.id \
       CROSS JOIN LATERAL (SELECT d.id, d.next_attempt FROM webhook_deliveries d \
         WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt <= $1 \
           AND (d.leased_until IS NULL OR d.leased_until <= now()) \
           AND (w.enabled OR d.event_type = 'webhook.test') AND ",
    first_of_its_record!(),
    " ORDER BY d.next_attempt, d.id LIMIT $2) c \
     WHERE ",
    claimable_endpoints!(),
    " ORDER BY w.id, c.next_attempt, c.id"
);

/// Leases the deliveries `$1` (read by [`LOAD_SQL`], chosen by the plan) for `$2` seconds,
/// those still pending, not leased and first of their record (another worker may have
/// taken some meanwhile); nothing stays locked. Gives what to send.
const CLAIM_SQL: &str = concat!(
    "WITH due AS (SELECT d.id FROM webhook_deliveries d \
       WHERE d.id = ANY($1) AND d.status = 'pending' \
         AND (d.leased_until IS NULL OR d.leased_until <= now()) AND ",
    first_of_its_record!(),
    " FOR UPDATE OF d SKIP LOCKED) \
     UPDATE webhook_deliveries d SET leased_until = now() + make_interval(secs => $2) \
     FROM due, webhook_events e, webhook_endpoints w \
     WHERE d.id = due.id AND e.id = d.event_id AND w.id = d.endpoint_id \
     RETURNING d.id, d.endpoint_id, d.attempts, e.message_id, e.type, e.body, w.url, w.secret, \
       CASE WHEN w.previous_until > now() THEN w.previous_secret END AS previous_secret, d.next_attempt"
);

/// Records a batch of attempts (`$1` deliveries, `$2` statuses, `$3` attempts after this
/// one, `$4` status codes, `$5` errors, `$6` next attempts, `$7` now, `$8` whether each
/// got no answer in time), each only while its delivery is pending, and each endpoint's
/// failure clock: cleared when any of its deliveries in the batch went through, else
/// started by the failures. Gives, per endpoint, its failure clock, whether it is enabled,
/// the deliveries recorded, and for its breaker: its count of timeouts in a row before the
/// batch, whether it is open, and the batch's timeouts and whether one was delivered (the
/// row is locked by the update until the transaction ends, so the breaker's write that
/// follows is not lost to another worker's).
const OUTCOME_SQL: &str = "WITH o AS (SELECT * FROM unnest($1::int8[], $2::text[], $3::int4[], \
       $4::int4[], $5::text[], $6::timestamptz[], $8::bool[]) \
       AS o(id, status, attempts, code, error, next_attempt, timed_out)), \
     d AS (UPDATE webhook_deliveries d SET status = o.status, attempts = o.attempts, \
       last_status_code = o.code, last_error = o.error, \
       next_attempt = COALESCE(o.next_attempt, d.next_attempt), \
       delivered_at = CASE WHEN o.status = 'delivered' THEN $7::timestamptz END, leased_until = NULL \
       FROM o WHERE d.id = o.id AND d.status = 'pending' \
       RETURNING d.id, d.endpoint_id, o.status, o.timed_out), \
     e AS (SELECT endpoint_id, bool_or(status = 'delivered') AS delivered, array_agg(id) AS ids, \
       count(*) FILTER (WHERE timed_out)::int4 AS timeouts FROM d GROUP BY endpoint_id) \
     UPDATE webhook_endpoints w SET failing_since = CASE WHEN e.delivered THEN NULL \
       ELSE COALESCE(w.failing_since, $7) END \
     FROM e WHERE w.id = e.endpoint_id RETURNING w.id, w.failing_since, w.enabled, e.ids, \
       w.breaker_timeouts, w.breaker_opened_at IS NOT NULL AS open, e.timeouts, e.delivered";

/// Sets endpoints' breakers (`$1` endpoints, `$2` timeouts in a row, `$3` `opens`,
/// `closes` or `stays`) at `$4`.
const BREAKER_SQL: &str = "UPDATE webhook_endpoints w SET breaker_timeouts = b.timeouts, \
     breaker_opened_at = CASE b.change WHEN 'opens' THEN $4::timestamptz \
       WHEN 'closes' THEN NULL ELSE w.breaker_opened_at END \
     FROM unnest($1::int8[], $2::int4[], $3::text[]) AS b(id, timeouts, change) WHERE w.id = b.id";

/// The enabled endpoints whose breaker is open (for `/metrics`).
const OPEN_BREAKERS_SQL: &str = "SELECT id FROM webhook_endpoints \
     WHERE enabled AND breaker_opened_at IS NOT NULL ORDER BY id";

/// Disables endpoints (`$1`) for reasons (`$2`) at `$3`; gives the ones it disabled.
const DISABLE_SQL: &str = "UPDATE webhook_endpoints w SET enabled = false, disabled_at = $3, \
     disabled_reason = r.reason FROM unnest($1::int8[], $2::text[]) AS r(id, reason) \
     WHERE w.id = r.id AND w.enabled RETURNING w.id";

/// When the worker should look again (`$1`: only what is due after then, or every time
/// with NULL): the oldest due delivery that is first of its record (a later one of the
/// same record waits for it, so it is not a reason to wake), the end of a lease, or now
/// while events wait to be fanned out, whichever comes first.
const NEXT_DUE_SQL: &str = concat!(
    "SELECT LEAST(\
       (SELECT min(h.next_attempt) FROM webhook_endpoints w CROSS JOIN LATERAL \
         (SELECT d.next_attempt FROM webhook_deliveries d \
          WHERE d.endpoint_id = w.id AND d.status = 'pending' \
            AND (d.leased_until IS NULL OR d.leased_until <= now()) \
            AND ($1::timestamptz IS NULL OR d.next_attempt > $1) \
            AND (w.enabled OR d.event_type = 'webhook.test') AND ",
    first_of_its_record!(),
    " ORDER BY d.next_attempt, d.id LIMIT 1) h WHERE ",
    claimable_endpoints!(),
    "), \
       (SELECT min(d.leased_until) FROM webhook_deliveries d \
          JOIN webhook_endpoints w ON w.id = d.endpoint_id \
          WHERE d.status = 'pending' AND d.leased_until IS NOT NULL \
            AND ($1::timestamptz IS NULL OR d.leased_until > $1) \
            AND (w.enabled OR d.event_type = 'webhook.test')), \
       (SELECT now() FROM webhook_events WHERE message_id IS NULL LIMIT 1)) AS due"
);

const RELEASE_SQL: &str =
    "UPDATE webhook_deliveries SET leased_until = NULL WHERE id = ANY($1) AND status = 'pending'";

/// The backlog: pending deliveries, and events not fanned out yet (counted once each: their
/// deliveries do not exist yet), the oldest of either dated by its change.
const BACKLOG_SQL: &str = "WITH new AS (SELECT count(*) AS n, min(created_at) AS oldest \
       FROM webhook_events WHERE message_id IS NULL) SELECT \
     (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') + new.n AS pending, \
     (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND next_attempt <= now()) \
       + new.n AS due, \
     (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed') AS failed, \
     extract(epoch FROM now() - LEAST(new.oldest, (SELECT min(created_at) FROM webhook_deliveries \
      WHERE status = 'pending')))::float8 AS oldest_pending FROM new";

impl Store {
    /// The enabled endpoints whose breaker is open, by id (for `/metrics`).
    pub async fn open_webhook_breakers(&self) -> Result<Vec<i64>, StoreError> {
        let found = self
            .checked(async { Ok(self.reader().await?.rows(OPEN_BREAKERS_SQL, &[]).await?) })
            .await?;
        found.iter().map(|row| rows::get(row, "id")).collect()
    }

    /// The webhook deliveries' backlog (for `/metrics`).
    pub async fn webhook_backlog(&self) -> Result<crate::outbox::OutboxBacklog, StoreError> {
        let row = self
            .checked(async { self.reader().await?.row(BACKLOG_SQL, &[]).await })
            .await?;
        crate::outbox::backlog_from_row(&row)
    }
}

/// The events and deliveries a fan-out wrote, from its messages.
fn fan_out_counts(
    messages: Vec<tokio_postgres::SimpleQueryMessage>,
) -> Result<(u64, u64), StoreError> {
    for message in messages {
        // The lock's row comes first; the fan-out's is the one with its counts.
        if let tokio_postgres::SimpleQueryMessage::Row(row) = message
            && row.columns().iter().any(|c| c.name() == "events")
        {
            let count = |column: &str| -> Result<u64, StoreError> {
                row.try_get(column)?
                    .and_then(|n: &str| n.parse().ok())
                    .ok_or_else(|| StoreError::Internal(format!("the fan-out's {column}")))
            };
            return Ok((count("events")?, count("deliveries")?));
        }
    }
    Err(StoreError::Internal("the fan-out gave no row".to_owned()))
}

impl Outbox {
    /// Turns the events written since the last fan-out into deliveries, at most 1,000
    /// events at a time (fewer with more than 5 enabled endpoints: about 5,000 deliveries
    /// at most) and one fan-out at a time across every worker and instance: each
    /// event gets its message id, and one delivery per endpoint that is enabled, subscribes
    /// to its type and existed when the change began, numbered in event order. Gives how
    /// many events and deliveries it wrote.
    pub async fn fan_out_webhooks(&mut self) -> Result<(u64, u64), StoreError> {
        let messages = self.client().await?.simple_query(&FAN_OUT_SQL).await?;
        fan_out_counts(messages)
    }

    /// Claims up to `max` due deliveries (due by `due_by`), at most `per_endpoint` leased
    /// per endpoint at once, each leased for `lease`, after fanning out the new events
    /// ([`Outbox::fan_out_webhooks`]): [`Outbox::claim_webhooks_fairly`] for a worker of
    /// `max` slots with nothing in flight.
    pub async fn claim_webhooks(
        &mut self,
        due_by: DateTime<Utc>,
        max: usize,
        lease: std::time::Duration,
        per_endpoint: usize,
    ) -> Result<Vec<WebhookJob>, StoreError> {
        let slots = Slots {
            total: max,
            free: max,
            per_endpoint,
        };
        self.claim_webhooks_fairly(due_by, slots, &HashMap::new(), lease)
            .await
    }

    /// Claims due deliveries (due by `due_by`) for a worker whose slots are `slots` and
    /// whose own sends in flight are `mine` (per endpoint), each leased for `lease`, after
    /// fanning out the new events ([`Outbox::fan_out_webhooks`]). How many each endpoint
    /// gives is [`fairness::plan`]'s: its share of the slots among the endpoints with work,
    /// the per-endpoint cap across workers, one at a time with its breaker open. The oldest
    /// due first, each the first pending one of its record.
    pub async fn claim_webhooks_fairly(
        &mut self,
        due_by: DateTime<Utc>,
        slots: Slots,
        mine: &HashMap<i64, usize>,
        lease: std::time::Duration,
    ) -> Result<Vec<WebhookJob>, StoreError> {
        let count_to = i64::try_from(slots.per_endpoint.max(1)).unwrap_or(i64::MAX);
        let lease = lease.as_secs_f64();
        if slots.free == 0 {
            self.fan_out_webhooks().await?;
            return Ok(Vec::new());
        }
        // The fan-out and the load are sent together (pipelined on the worker's connection,
        // run one after the other: the load sees what the fan-out committed), and the
        // statements go unnamed with their types given: one round trip for both, one for
        // the claim.
        let client = self.client().await?;
        let params: [(&(dyn tokio_postgres::types::ToSql + Sync), Type); 2] =
            [(&due_by, Type::TIMESTAMPTZ), (&count_to, Type::INT8)];
        let (fanned, found) = tokio::join!(
            client.simple_query(&FAN_OUT_SQL),
            client.query_typed(LOAD_SQL, &params),
        );
        fan_out_counts(fanned?)?;
        let found = found?;
        // Each endpoint's candidates, oldest first (the rows come by endpoint).
        let mut loads: Vec<Load> = Vec::new();
        let mut candidates: Vec<Vec<i64>> = Vec::new();
        for row in &found {
            let endpoint: i64 = rows::get(row, "endpoint_id")?;
            if loads.last().is_none_or(|l| l.endpoint != endpoint) {
                loads.push(Load {
                    endpoint,
                    mine: mine.get(&endpoint).copied().unwrap_or(0),
                    leased: usize::try_from(rows::get::<i64>(row, "leased")?).unwrap_or(0),
                    due: 0,
                    oldest: Some(rows::timestamp(row, "next_attempt")?),
                    open: rows::get(row, "open")?,
                });
                candidates.push(Vec::new());
            }
            if let (Some(load), Some(ids)) = (loads.last_mut(), candidates.last_mut()) {
                load.due += 1;
                ids.push(rows::get(row, "id")?);
            }
        }
        // The endpoints this worker sends to with nothing more due have work too.
        for (&endpoint, &n) in mine {
            if n > 0 && !loads.iter().any(|l| l.endpoint == endpoint) {
                loads.push(Load {
                    endpoint,
                    mine: n,
                    leased: n,
                    due: 0,
                    oldest: None,
                    open: false,
                });
            }
        }
        let plan = fairness::plan(&loads, slots);
        let chosen: Vec<i64> = plan
            .iter()
            .filter_map(|(endpoint, n)| {
                let at = loads.iter().position(|l| l.endpoint == *endpoint)?;
                Some(candidates.get(at)?.iter().take(*n).copied())
            })
            .flatten()
            .collect();
        if chosen.is_empty() {
            return Ok(Vec::new());
        }
        let found = self
            .client()
            .await?
            .query_typed(
                CLAIM_SQL,
                &[(&chosen, Type::INT8_ARRAY), (&lease, Type::FLOAT8)],
            )
            .await?;
        let mut claimed = found
            .iter()
            .map(|row| {
                let due: DateTime<Utc> = rows::get(row, "next_attempt")?;
                let mut secrets = vec![rows::get::<String>(row, "secret")?];
                if let Some(previous) = rows::get::<Option<String>>(row, "previous_secret")? {
                    secrets.push(previous);
                }
                let job = WebhookJob {
                    id: rows::get(row, "id")?,
                    endpoint_id: rows::get(row, "endpoint_id")?,
                    attempts: rows::get(row, "attempts")?,
                    message_id: rows::get(row, "message_id")?,
                    event_type: rows::get(row, "type")?,
                    body: rows::get(row, "body")?,
                    url: rows::get(row, "url")?,
                    secrets,
                };
                Ok((due, job))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        claimed.sort_by_key(|(due, job)| (*due, job.id));
        Ok(claimed.into_iter().map(|(_, job)| job).collect())
    }

    /// When the next webhook delivery is due (or its lease ends).
    pub async fn next_webhook_due(&mut self) -> Result<Option<DateTime<Utc>>, StoreError> {
        self.next_webhook_due_after(None).await
    }

    /// When the next webhook delivery becomes due after `after` (or a lease ends after it),
    /// or now while events wait to be fanned out; with `None`, [`Outbox::next_webhook_due`].
    /// What a worker with sends in flight sleeps until: a delivery due already that it did
    /// not claim waits for one of its sends to end, not for a time.
    pub async fn next_webhook_due_after(
        &mut self,
        after: Option<DateTime<Utc>>,
    ) -> Result<Option<DateTime<Utc>>, StoreError> {
        let row = self
            .client()
            .await?
            .query_one(NEXT_DUE_SQL, &[&after])
            .await?;
        rows::get(&row, "due")
    }

    /// Records a batch of attempts made by `now`, in one transaction (a delivery that is no
    /// longer pending, because the API put it back or its endpoint was deleted, is left
    /// alone): each delivery's state, and each endpoint's failure clock, cleared when any of
    /// its deliveries in the batch went through, else started by the failures. A `410`, or
    /// failures for [`crm_core::webhook::DISABLE_AFTER`], disable the endpoint. Returns the
    /// endpoints disabled, with the reason.
    pub async fn record_webhooks(
        &mut self,
        attempts: &[(&WebhookJob, &WebhookAttempt)],
        now: DateTime<Utc>,
    ) -> Result<Vec<(i64, &'static str)>, StoreError> {
        if attempts.is_empty() {
            return Ok(Vec::new());
        }
        let n = attempts.len();
        let (mut ids, mut statuses, mut counts, mut codes, mut errors, mut nexts) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let mut timed_out = Vec::with_capacity(n);
        for (job, attempt) in attempts {
            let (status, next_attempt) = match attempt.next {
                webhook::Next::Delivered => ("delivered", None),
                webhook::Next::RetryAt(at) => ("pending", Some(at.0)),
                webhook::Next::Failed => ("failed", None),
            };
            ids.push(job.id);
            statuses.push(status);
            counts.push(job.attempts.saturating_add(1));
            codes.push(attempt.status_code.map(i32::from));
            errors.push(attempt.error.as_deref());
            nexts.push(next_attempt);
            timed_out.push(attempt.timed_out);
        }
        let gone: std::collections::HashSet<i64> = attempts
            .iter()
            .filter(|(_, a)| a.gone)
            .map(|(job, _)| job.id)
            .collect();
        let client = self.client().await?;
        let tx = client.transaction().await?;
        let endpoints = tx
            .query(
                OUTCOME_SQL,
                &[
                    &ids, &statuses, &counts, &codes, &errors, &nexts, &now, &timed_out,
                ],
            )
            .await?;
        let (mut disable, mut reasons) = (Vec::new(), Vec::new());
        let (mut breakers, mut timeouts, mut changes) = (Vec::new(), Vec::new(), Vec::new());
        for row in &endpoints {
            let endpoint: i64 = rows::get(row, "id")?;
            // The breaker, by crm-core's rules; written only when it changes.
            let before = u32::try_from(rows::get::<i32>(row, "breaker_timeouts")?).unwrap_or(0);
            let open: bool = rows::get(row, "open")?;
            let ended = Ended {
                timeouts: u32::try_from(rows::get::<i32>(row, "timeouts")?).unwrap_or(0),
                delivered: rows::get(row, "delivered")?,
            };
            let after = fairness::timeouts_after(before, ended);
            let change = fairness::breaker_after(open, after);
            if after != before || change != Transition::Stays {
                breakers.push(endpoint);
                timeouts.push(i32::try_from(after).unwrap_or(i32::MAX));
                changes.push(match change {
                    Transition::Opens => {
                        tracing::warn!(
                            endpoint,
                            timeouts = after,
                            "webhook endpoint's breaker opened: one attempt at a time"
                        );
                        "opens"
                    }
                    Transition::Closes => {
                        tracing::info!(endpoint, "webhook endpoint's breaker closed");
                        "closes"
                    }
                    Transition::Stays => "stays",
                });
            }
            let recorded: Vec<i64> = rows::get(row, "ids")?;
            let failing_since: Option<DateTime<Utc>> = rows::get(row, "failing_since")?;
            let reason = if recorded.iter().any(|id| gone.contains(id)) {
                Some(disabled_reason::GONE)
            } else {
                failing_since
                    .filter(|since| webhook::disables(Timestamp(*since), Timestamp(now)))
                    .map(|_| disabled_reason::FAILING)
            };
            if let Some(reason) = reason {
                disable.push(endpoint);
                reasons.push(reason);
            }
        }
        if !breakers.is_empty() {
            tx.execute(BREAKER_SQL, &[&breakers, &timeouts, &changes, &now])
                .await?;
        }
        let mut disabled = Vec::new();
        if !disable.is_empty() {
            for row in tx.query(DISABLE_SQL, &[&disable, &reasons, &now]).await? {
                let endpoint: i64 = rows::get(&row, "id")?;
                let Some(at) = disable.iter().position(|e| *e == endpoint) else {
                    continue;
                };
                let reason = reasons[at];
                disabled.push((endpoint, reason));
            }
        }
        tx.commit().await?;
        Ok(disabled)
    }

    /// Gives back leased deliveries that were claimed but not sent.
    pub async fn release_webhooks(&mut self, ids: &[i64]) -> Result<(), StoreError> {
        if !ids.is_empty() {
            self.client().await?.execute(RELEASE_SQL, &[&ids]).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migration_disables_endpoints_without_a_key_with_the_reason_the_service_names() {
        let migration = include_str!("../migrations/0025_webhook_owners.sql");
        assert!(migration.contains(&disabled_reason::NO_OWNER.replace('\'', "''")));
    }

    #[test]
    fn the_fan_out_knows_what_every_event_type_needs() {
        for (_, kind) in <EventType as Choice>::CHOICES {
            assert!(
                FAN_OUT_SQL.contains(&format!("('{}', ARRAY['read', 'write'", kind.as_str())),
                "{kind:?}"
            );
        }
        assert!(FAN_OUT_SQL.contains(
            "('estimate.converted', ARRAY['read', 'write', 'invoices:read', 'invoices:write']::text[])"
        ));
    }
}
