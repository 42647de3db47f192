//! What a request may ask of the writes it causes: an idempotency claim (`Idempotency-Key`)
//! and a precondition (`If-Match`), and the one seam every write goes through, `Tx`.
//!
//! The HTTP layer runs a handler inside [`Store::within`] with the request's
//! [`Conditions`]; they are kept in a task-local scope, so no store method's signature
//! carries them. Every write opens its transaction with `Store::begin` and ends it with
//! `Tx::commit`:
//!
//! - **Idempotency.** Before the request runs, [`Store::claim`] opens a transaction that
//!   takes a transaction-scoped advisory lock on (API key, idempotency key) and looks for a
//!   stored answer under it (answers older than [`RETENTION_HOURS`] are deleted). What it
//!   finds is an ordinary [`Claimed`] value: the lock held by someone else
//!   ([`Claimed::InProgress`]), the same request's answer ([`Claimed::Replay`]), another
//!   request's ([`Claimed::KeyReused`]), or nothing: then the request is this key's, and the
//!   [`Ticket`] carries the open transaction into [`Store::within`]. The first write begun
//!   in that scope takes the ticket's transaction; its `commit` does not commit: the
//!   transaction is parked in the scope, and [`Pending::commit`] stores the answer the
//!   handler built in it and commits both at once, or rolls both back. A crash at any point
//!   leaves the effect and its record together or neither.
//! - **Preconditions.** A write calls `Tx::if_match` with the record's current
//!   representation read inside its transaction, after it has locked the row: when the
//!   request has an `If-Match` that does not name that representation's [`etag`], the write
//!   stops with [`StoreError::PreconditionFailed`] and its transaction rolls back. The read
//!   is made without `If-Match` too: it is the record's state before the change, which
//!   the change's activity entry compares with the state after.
//! - **Activity** (API.md §21, the `activity` module): the change a write reports
//!   (`Tx::emit`, as a webhook event, or `Tx::record`) is its activity entry, inserted
//!   with the events at the commit, by the actor [`Store::acting`] names.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use deadpool_postgres::{ClientWrapper, Object};
use serde::Serialize;
use sha2::{Digest, Sha256};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Error, Row};

use crate::activity::{self, Recorder, chain};
use crate::db::Db;
use crate::error::StoreError;
use crate::events::{self, Event};
use crate::rows;
use crate::store::Store;
use crm_core::activity::{ActivityType, Actor, WebhookChange};
use crm_core::webhook::{Audience, EventType};

/// How long a stored answer is kept (API.md §11: 24 hours).
pub const RETENTION_HOURS: i32 = 24;

/// The strong entity tag of a record's representation: the quoted hex of the first 16
/// bytes of the SHA-256 of its JSON serialisation (the `data` member of the answer).
pub fn etag<T: Serialize + ?Sized>(value: &T) -> Result<String, StoreError> {
    let json = serde_json::to_vec(value)
        .map_err(|e| StoreError::Internal(format!("cannot serialise a record: {e}")))?;
    Ok(etag_of_json(&json))
}

/// [`etag`] of a representation already serialised (`json` is the record's JSON), for a
/// caller that writes those bytes into its answer and need not serialise the record twice.
pub fn etag_of_json(json: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(json);
    let mut tag = String::with_capacity(34);
    tag.push('"');
    for byte in &digest[..16] {
        tag.push(char::from(HEX[usize::from(byte >> 4)]));
        tag.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    tag.push('"');
    tag
}

/// An `Idempotency-Key` claim: who sent it, the key, and the digest of the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The API key's id (keys are scoped to it).
    pub api_key: i64,
    /// The client's idempotency key (1 to 255 visible ASCII characters).
    pub key: String,
    /// The digest of the method, the route and the parsed request.
    pub fingerprint: Vec<u8>,
}

/// A stored (or to be stored) answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: Vec<u8>,
    /// The `ETag` it carried, if any.
    pub etag: Option<String>,
}

impl Answer {
    /// The status as the `idempotency_keys.status` column (`smallint`) holds it.
    fn stored_status(&self) -> Result<i16, StoreError> {
        i16::try_from(self.status)
            .map_err(|_| StoreError::Internal(format!("status {}", self.status)))
    }
}

/// An `If-Match` precondition (RFC 9110 §13.1.1; strong comparison).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IfMatch {
    /// `*`: any current representation.
    Any,
    /// A list of entity tags, each with its quotes (`"…"` or `W/"…"`).
    Tags(Vec<String>),
}

impl IfMatch {
    /// Whether the precondition holds for the current representation's strong `etag`: a
    /// weak tag never matches.
    pub fn matches(&self, etag: &str) -> bool {
        match self {
            IfMatch::Any => true,
            IfMatch::Tags(tags) => tags.iter().any(|t| t == etag),
        }
    }
}

/// What a request asks of its writes.
#[derive(Debug, Default)]
pub struct Conditions {
    /// The idempotency key this request holds ([`Store::claim`]), for `POST`s that sent one.
    pub ticket: Option<Ticket>,
    /// `If-Match` (PATCH, PUT, DELETE).
    pub if_match: Option<IfMatch>,
}

/// What [`Store::claim`] found for an idempotency key.
#[derive(Debug)]
pub enum Claimed {
    /// The key is this request's: run it with this ticket in its [`Conditions`].
    Taken(Ticket),
    /// The same request was answered before: its answer, to give again.
    Replay(Answer),
    /// The key was used for another request.
    KeyReused,
    /// Another request with the key is in progress.
    InProgress,
}

/// An idempotency key held by a request: the open transaction that holds the key's lock,
/// which the request's first write takes over (so the effect and its answer commit
/// together). Dropped unused, it rolls back and frees the key.
#[derive(Debug)]
pub struct Ticket {
    claim: Claim,
    /// Boxed: a pooled connection is large, and a ticket travels by value.
    tx: Box<Tx>,
}

tokio::task_local! {
    static SCOPE: Arc<Scope>;
    /// Who the writes of the task act for (the request's key; the outbox; the scheduler).
    static ACTOR: Actor;
}

/// Who the current task's writes act for: what [`Store::acting`] set, else the service.
fn current_actor() -> Actor {
    ACTOR.try_with(|actor| *actor).unwrap_or(Actor::SERVICE)
}

#[derive(Debug)]
struct Scope {
    /// The claim of the request's ticket, if it holds one.
    claim: Option<Claim>,
    /// The request's `If-Match`.
    if_match: Option<IfMatch>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The ticket's transaction, until the request's first write takes it.
    ticket: Option<Tx>,
    /// The claimed transaction, its effect done, waiting for the answer.
    parked: Option<Tx>,
    /// A write compared the precondition.
    checked: bool,
}

impl Scope {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The outcome of [`Store::within`]: the claimed transaction, if a write parked one.
#[derive(Debug)]
pub struct Pending {
    scope: Arc<Scope>,
}

impl Pending {
    /// Whether a write's transaction waits for [`Pending::commit`].
    pub fn is_open(&self) -> bool {
        self.scope.state().parked.is_some()
    }

    /// The transaction that holds the request's claim: parked by its write, or still the
    /// ticket's when no write took it (the request had no effect, and its answer is stored
    /// alone).
    fn claimed_tx(&self) -> Option<Tx> {
        let mut state = self.scope.state();
        state.parked.take().or_else(|| state.ticket.take())
    }

    /// Whether a write compared the `If-Match` precondition.
    pub fn precondition_checked(&self) -> bool {
        self.scope.state().checked
    }

    /// Stores `answer` with the claim (when `Some`) in the parked transaction and commits
    /// it: the effect and its answer become visible together, or neither does.
    pub async fn commit(self, answer: Option<&Answer>) -> Result<(), StoreError> {
        let Some(tx) = self.claimed_tx() else {
            return Ok(());
        };
        if let (Some(answer), Some(claim)) = (answer, self.scope.claim.as_ref()) {
            const INSERT_SQL: &str = "INSERT INTO idempotency_keys \
                 (api_key_id, idempotency_key, fingerprint, status, body, etag) \
                 VALUES ($1, $2, $3, $4, $5, $6)";
            let status = answer.stored_status()?;
            tx.run(
                INSERT_SQL,
                &[
                    &claim.api_key,
                    &claim.key,
                    &claim.fingerprint,
                    &status,
                    &answer.body,
                    &answer.etag,
                ],
            )
            .await?;
        }
        tx.finish().await
    }

    /// Rolls the parked transaction back (its effect is undone, nothing is stored).
    pub async fn rollback(self) {
        if let Some(tx) = self.claimed_tx() {
            tx.abort().await;
        }
    }
}

/// The lock key of a claim: the first 8 bytes of the SHA-256 of the API key's id and the
/// idempotency key (a collision could only give a spurious 409 while both are in progress).
fn lock_key(claim: &Claim) -> i64 {
    let mut hasher = Sha256::new();
    hasher.update(b"crm-idempotency\0");
    hasher.update(claim.api_key.to_be_bytes());
    hasher.update(claim.key.as_bytes());
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(first)
}

/// The unexpired answer stored for the claim's key, if any.
const FIND_SQL: &str = "SELECT fingerprint, status, body, etag FROM idempotency_keys \
     WHERE api_key_id = $1 AND idempotency_key = $2 \
       AND created_at > now() - make_interval(hours => $3)";

/// Deletes the claim's key when it has expired.
const DELETE_EXPIRED_KEY_SQL: &str = "DELETE FROM idempotency_keys \
     WHERE api_key_id = $1 AND idempotency_key = $2 \
       AND created_at <= now() - make_interval(hours => $3)";

/// What is stored for the claim's key: [`Claimed::Replay`] or [`Claimed::KeyReused`].
async fn find(db: &impl Db, claim: &Claim) -> Result<Option<Claimed>, StoreError> {
    let Some(row) = db
        .row_opt(FIND_SQL, &[&claim.api_key, &claim.key, &RETENTION_HOURS])
        .await?
    else {
        return Ok(None);
    };
    Ok(Some(recorded(&row, claim)?))
}

fn recorded(row: &Row, claim: &Claim) -> Result<Claimed, StoreError> {
    let fingerprint: Vec<u8> = rows::get(row, "fingerprint")?;
    if fingerprint != claim.fingerprint {
        return Ok(Claimed::KeyReused);
    }
    let status: i16 = rows::get(row, "status")?;
    Ok(Claimed::Replay(Answer {
        status: u16::try_from(status)
            .map_err(|_| StoreError::Internal(format!("stored status {status}")))?,
        body: rows::get(row, "body")?,
        etag: rows::get(row, "etag")?,
    }))
}

impl Store {
    /// Runs `work` with its writes made by `actor`: the actor of their activity entries
    /// (API.md §21). The service runs every keyed request so, and the delivery worker and
    /// the scheduler their writes; a write made outside is the service's own.
    pub async fn acting<F: Future>(&self, actor: Actor, work: F) -> F::Output {
        ACTOR.scope(actor, work).await
    }

    /// Runs `work` (a handler calling store methods) with the request's `conditions`, and
    /// gives its output and what it left [`Pending`]: the caller must [`Pending::commit`]
    /// or [`Pending::rollback`] it (dropping it rolls back).
    pub async fn within<F: Future>(&self, conditions: Conditions, work: F) -> (F::Output, Pending) {
        let (claim, ticket) = match conditions.ticket {
            Some(Ticket { claim, tx }) => (Some(claim), Some(*tx)),
            None => (None, None),
        };
        let scope = Arc::new(Scope {
            claim,
            if_match: conditions.if_match,
            state: Mutex::new(State {
                ticket,
                ..State::default()
            }),
        });
        let output = SCOPE.scope(Arc::clone(&scope), work).await;
        (output, Pending { scope })
    }

    /// Takes `claim`'s idempotency key for a request about to run: in a transaction, the
    /// key's advisory lock (held by another request: [`Claimed::InProgress`]), the removal
    /// of an answer past [`RETENTION_HOURS`], and the look for one within them
    /// ([`Claimed::Replay`] or [`Claimed::KeyReused`]). When there is none, the transaction
    /// stays open in the [`Ticket`], holding the lock until the request's answer is stored.
    pub async fn claim(&self, claim: Claim) -> Result<Claimed, StoreError> {
        let tx = self.open_tx().await?;
        let locked: bool = rows::get(
            &tx.row(
                "SELECT pg_try_advisory_xact_lock($1) AS locked",
                &[&lock_key(&claim)],
            )
            .await?,
            "locked",
        )?;
        if !locked {
            tx.abort().await;
            return Ok(Claimed::InProgress);
        }
        tx.run(
            DELETE_EXPIRED_KEY_SQL,
            &[&claim.api_key, &claim.key, &RETENTION_HOURS],
        )
        .await?;
        match find(&tx, &claim).await? {
            None => Ok(Claimed::Taken(Ticket {
                claim,
                tx: Box::new(tx),
            })),
            Some(stored) => {
                tx.abort().await;
                Ok(stored)
            }
        }
    }

    /// Stores `answer`, a refusal (4xx) that had no effect, as the answer to `claim`, so
    /// that the key gives it again like any answer (API.md §11: only 5xx answers are not
    /// stored). One statement, taken only while no other request holds the key's lock;
    /// when one does, or an unexpired answer is stored already, nothing is stored (that
    /// request's answer is the key's). An expired answer is replaced.
    pub async fn record_refusal(&self, claim: &Claim, answer: &Answer) -> Result<(), StoreError> {
        const SQL: &str = "INSERT INTO idempotency_keys \
             (api_key_id, idempotency_key, fingerprint, status, body, etag) \
             SELECT $1, $2, $3, $4, $5, $6 WHERE pg_try_advisory_xact_lock($7) \
             ON CONFLICT (api_key_id, idempotency_key) DO UPDATE \
             SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status, \
                 body = EXCLUDED.body, etag = EXCLUDED.etag, created_at = now() \
             WHERE idempotency_keys.created_at <= now() - make_interval(hours => $8)";
        let status = answer.stored_status()?;
        self.writer()
            .await?
            .run(
                SQL,
                &[
                    &claim.api_key,
                    &claim.key,
                    &claim.fingerprint,
                    &status,
                    &answer.body,
                    &answer.etag,
                    &lock_key(claim),
                    &RETENTION_HOURS,
                ],
            )
            .await?;
        Ok(())
    }

    /// Deletes the stored answers older than [`RETENTION_HOURS`]; returns how many.
    pub async fn purge_expired_idempotency_keys(&self) -> Result<u64, StoreError> {
        const SQL: &str = "DELETE FROM idempotency_keys \
             WHERE created_at <= now() - make_interval(hours => $1)";
        Ok(self.writer().await?.run(SQL, &[&RETENTION_HOURS]).await?)
    }

    /// Begins a write's transaction: the seam every write of the API goes through, and the
    /// one place the request's idempotency scope reaches the store. A request run inside
    /// [`Store::within`] (crm-http's `conditional::run` runs every keyed request so) has
    /// a task-local `Scope`: when it holds an idempotency key, its claim's transaction
    /// (the ticket) is taken here by the first write, which then commits together with the
    /// stored answer instead of alone; `If-Match` is read from the same scope by
    /// [`Tx::if_match`]. Outside such a scope (the store used as a library, the seed, the
    /// workers) every write opens its own transaction. See the module documentation.
    pub(crate) async fn begin(&self) -> Result<Tx, StoreError> {
        let ticket = SCOPE
            .try_with(|scope| scope.state().ticket.take())
            .ok()
            .flatten();
        match ticket {
            Some(mut tx) => {
                tx.parks = true;
                tx.act_as(current_actor());
                Ok(tx)
            }
            None => self.open_tx().await,
        }
    }

    /// A new transaction on a pooled connection (its `BEGIN` goes with its first
    /// statement).
    async fn open_tx(&self) -> Result<Tx, StoreError> {
        let conn = self.writer().await?;
        Ok(Tx {
            conn: Some(conn),
            parks: false,
            begun: AtomicBool::new(false),
            events: Mutex::new(Vec::new()),
            activity: Mutex::new(Recorder::new(current_actor())),
            wake: AtomicBool::new(false),
            waker: Arc::clone(&self.inner.waker),
        })
    }
}

/// `value` as JSON, for an activity entry.
fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<serde_json::Value, StoreError> {
    serde_json::to_value(value)
        .map_err(|e| StoreError::Internal(format!("cannot serialise a record: {e}")))
}

/// Where a transaction's collected events and activity stood at a savepoint
/// ([`Tx::mark_events`]).
#[derive(Debug, Clone)]
pub(crate) struct EventsMark {
    events: usize,
    activity: crate::activity::RecorderMark,
}

/// A write's transaction on a pooled connection. `BEGIN` is sent with its first statement
/// (pipelined: no round trip of its own); [`Tx::commit`] commits it (or parks it for its
/// idempotency record) together with the events it emitted; dropped without committing,
/// it rolls back.
#[derive(Debug)]
pub(crate) struct Tx {
    conn: Option<Object>,
    /// It holds an idempotency claim: `commit` parks it in the request's scope.
    parks: bool,
    /// `BEGIN` was sent.
    begun: AtomicBool,
    /// The webhook events of its changes, inserted at the commit.
    events: Mutex<Vec<Event>>,
    /// Its activity: who acts, the records read before the change, the entry.
    activity: Mutex<Recorder>,
    /// Wake the delivery workers once it has committed (it wrote events, queued emails or
    /// queued deliveries itself).
    wake: AtomicBool,
    /// What wakes them (`NOTIFY` after the commit, not inside it: see `wake.rs`).
    waker: Arc<crate::wake::Waker>,
}

impl Tx {
    /// Compares the request's `If-Match` (if any) with the record's current
    /// representation, which `current` reads (call it after locking the row), and keeps
    /// that representation as the record's state before the change, for its activity
    /// entry: the read is made with or without `If-Match`.
    pub(crate) async fn if_match<T, F>(&self, current: F) -> Result<(), StoreError>
    where
        T: Serialize,
        F: Future<Output = Result<T, StoreError>>,
    {
        let current = current.await?;
        self.recorder().before(to_value(&current)?);
        let wanted = SCOPE
            .try_with(|scope| scope.if_match.clone())
            .ok()
            .flatten();
        let Some(wanted) = wanted else {
            return Ok(());
        };
        let current = etag(&current)?;
        let _ = SCOPE.try_with(|scope| scope.state().checked = true);
        if wanted.matches(&current) {
            Ok(())
        } else {
            Err(StoreError::PreconditionFailed)
        }
    }

    /// Reports a change to the record `id` of `kind`'s area: `data` is the record as the
    /// API answers after the change. The event is inserted when the transaction commits,
    /// or dropped with it; so is the change's activity entry.
    pub(crate) fn emit<T: Serialize>(
        &self,
        kind: EventType,
        id: i64,
        data: &T,
    ) -> Result<(), StoreError> {
        self.push(Event::new(kind, id, data, events::now())?);
        self.changed(kind.into(), id, Some(data), None)
    }

    /// Reports the deletion of the record `id` (`data` is `{"id"}`).
    pub(crate) fn emit_deleted(&self, kind: EventType, id: i64) -> Result<(), StoreError> {
        self.push(Event::deleted(kind, id, events::now())?);
        self.changed::<()>(kind.into(), id, None, None)
    }

    /// Records a webhook endpoint's change (which is no event): `data` is the endpoint as
    /// the API shows it after the change (`None`: deleted, or nothing of it to show).
    pub(crate) fn record<T: Serialize>(
        &self,
        change: WebhookChange,
        id: i64,
        data: Option<&T>,
    ) -> Result<(), StoreError> {
        self.changed(change.into(), id, data, None)
    }

    /// Makes `actor` the actor of the transaction's entry (a client's decision through a
    /// link is made by the client, not by the service).
    pub(crate) fn act_as(&self, actor: Actor) {
        self.recorder().act_as(actor);
    }

    fn changed<T: Serialize>(
        &self,
        kind: ActivityType,
        id: i64,
        after: Option<&T>,
        private_to: Option<Audience>,
    ) -> Result<(), StoreError> {
        let after = after.map(to_value).transpose()?;
        let private_to = private_to.and_then(|a| a.private_to()).map(|u| u.get());
        self.recorder().changed(kind, id, after, private_to);
        Ok(())
    }

    fn recorder(&self) -> std::sync::MutexGuard<'_, Recorder> {
        self.activity.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reports a change as [`Tx::emit`] does, to `audience` alone (a private note's
    /// creator): other users' endpoints never receive it.
    pub(crate) fn emit_to<T: Serialize>(
        &self,
        audience: Audience,
        kind: EventType,
        id: i64,
        data: &T,
    ) -> Result<(), StoreError> {
        self.push(Event::new(kind, id, data, events::now())?.for_audience(audience));
        self.changed(kind.into(), id, Some(data), Some(audience))
    }

    /// Reports a deletion as [`Tx::emit_deleted`] does, to `audience` alone.
    pub(crate) fn emit_deleted_to(
        &self,
        audience: Audience,
        kind: EventType,
        id: i64,
    ) -> Result<(), StoreError> {
        self.push(Event::deleted(kind, id, events::now())?.for_audience(audience));
        self.changed::<()>(kind.into(), id, None, Some(audience))
    }

    /// Wakes the delivery workers once this transaction has committed (it queued or put
    /// back deliveries or queued emails; a transaction that wrote events does this on its
    /// own).
    pub(crate) fn wake_workers(&self) {
        self.wake.store(true, Ordering::Release);
    }

    /// What it has collected so far (its events, and what its activity entry knows): a
    /// mark that [`Tx::forget_events_since`] goes back to when the statements after it are
    /// rolled back to a savepoint.
    pub(crate) fn mark_events(&self) -> EventsMark {
        EventsMark {
            events: self
                .events
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .len(),
            activity: self.recorder().mark(),
        }
    }

    /// Drops the events and the activity collected after `mark` ([`Tx::mark_events`]):
    /// their changes were rolled back to a savepoint, and neither an event nor an entry is
    /// ever written without its change.
    pub(crate) fn forget_events_since(&self, mark: EventsMark) {
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .truncate(mark.events);
        self.recorder().go_back(mark.activity);
    }

    fn push(&self, event: Event) {
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(event);
    }

    /// Commits the write: at once, or, for the transaction holding the request's
    /// idempotency claim, together with the answer ([`Pending::commit`]).
    pub(crate) async fn commit(self) -> Result<(), StoreError> {
        if self.parks {
            let scope = SCOPE.try_with(Arc::clone).map_err(|_| {
                StoreError::Internal("a claimed transaction outside its request".to_owned())
            })?;
            scope.state().parked = Some(self);
            return Ok(());
        }
        self.finish().await
    }

    /// Whether `BEGIN` was sent (the transaction has something to commit or roll back).
    fn has_begun(&self) -> bool {
        self.begun.load(Ordering::Acquire)
    }

    /// The `BEGIN` to send before the next statement, if it was not sent yet.
    fn begin_first<'a>(
        &self,
        conn: &'a ClientWrapper,
    ) -> Option<impl Future<Output = Result<(), Error>> + 'a> {
        (!self.begun.swap(true, Ordering::AcqRel)).then(|| conn.batch_execute("BEGIN"))
    }

    /// Inserts the activity entry and the events and sends `COMMIT`, pipelined: the
    /// inserts are on the wire before the `COMMIT`, and if one fails PostgreSQL turns the
    /// `COMMIT` into a rollback. An entry of the chain of issued documents first locks the
    /// chain's head (one round trip, only for those) to learn the hash it holds.
    async fn finish(mut self) -> Result<(), StoreError> {
        let events =
            std::mem::take(&mut *self.events.lock().unwrap_or_else(PoisonError::into_inner));
        let entry = self.recorder().take(activity::now());
        let Some(conn) = self.conn.as_deref() else {
            return Ok(());
        };
        if !self.has_begun() {
            // No statement ran: nothing to commit.
            self.conn = None;
            return Ok(());
        }
        let mut queued = self.wake.load(Ordering::Acquire);
        let link = match &entry {
            Some(entry) if entry.chained => {
                let (seq, prev) = chain::lock_head(&self).await?;
                let hash = chain::digest(&chain::canonical(seq, &prev, entry.fields()));
                Some((seq, prev, hash))
            }
            _ => None,
        };
        let entry = entry
            .as_ref()
            .map(|e| activity::Params::of(e, link.map(|(seq, prev, _)| (seq, prev))));
        let head = link.map(|(seq, _, hash)| (seq, hash.to_vec()));
        let columns = (!events.is_empty()).then(|| events::columns(&events));
        if crate::db::unnamed_statements() {
            // Unnamed (PgBouncer): each statement's types are learnt first, inside this
            // transaction, so that each is one message group sent ahead of the COMMIT.
            if let Some(entry) = &entry {
                crate::db::run_on(conn, activity::INSERT_SQL, &entry.params(), true).await?;
            }
            if let Some((seq, hash)) = &head {
                crate::db::run_on(conn, chain::MOVE_HEAD_SQL, &[seq, hash], true).await?;
            }
            if let Some(columns) = &columns {
                let params = columns.params();
                let inserted =
                    crate::db::run_on(conn, events::INSERT_EVENTS_SQL, &params, true).await?;
                queued |= inserted > 0;
            }
            conn.batch_execute("COMMIT").await?;
        } else {
            // Prepared first (cached after the first time), so that each insert's
            // messages are sent when its future is first polled, ahead of the COMMIT's.
            let insert_entry = match entry {
                Some(_) => Some(conn.prepare_cached(activity::INSERT_SQL).await?),
                None => None,
            };
            let move_head = match head {
                Some(_) => Some(conn.prepare_cached(chain::MOVE_HEAD_SQL).await?),
                None => None,
            };
            let insert_events = match columns {
                Some(_) => Some(conn.prepare_cached(events::INSERT_EVENTS_SQL).await?),
                None => None,
            };
            let entry_written = async {
                match (&insert_entry, &entry) {
                    (Some(statement), Some(entry)) => {
                        conn.execute(statement, &entry.params()).await
                    }
                    _ => Ok(0),
                }
            };
            let head_moved = async {
                match (&move_head, &head) {
                    (Some(statement), Some((seq, hash))) => {
                        conn.execute(statement, &[seq, hash]).await
                    }
                    _ => Ok(0),
                }
            };
            let events_written = async {
                match (&insert_events, &columns) {
                    (Some(statement), Some(columns)) => {
                        conn.execute(statement, &columns.params()).await
                    }
                    _ => Ok(0),
                }
            };
            let (written, moved, inserted, committed) = futures_util::future::join4(
                entry_written,
                head_moved,
                events_written,
                conn.batch_execute("COMMIT"),
            )
            .await;
            written?;
            moved?;
            queued |= inserted? > 0;
            committed?;
        }
        self.conn = None;
        if queued {
            self.waker.wake();
        }
        Ok(())
    }

    /// Sends `ROLLBACK` and gives the connection back to the pool (or discards it when the
    /// rollback fails).
    async fn abort(mut self) {
        if let Some(conn) = self.conn.take()
            && self.has_begun()
            && conn.batch_execute("ROLLBACK").await.is_err()
        {
            drop(Object::take(conn));
        }
    }
}

impl Drop for Tx {
    fn drop(&mut self) {
        let Some(conn) = self.conn.take() else {
            return;
        };
        if !self.has_begun() {
            return;
        }
        // The connection goes back to the pool only once its transaction is rolled back.
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    if conn.batch_execute("ROLLBACK").await.is_err() {
                        drop(Object::take(conn));
                    }
                });
            }
            Err(_) => drop(Object::take(conn)),
        }
    }
}

// `conn` is `None` only once the transaction has ended, and `finish` and `abort` consume
// it: a statement never meets an ended transaction (it would find no rows).
impl Db for Tx {
    fn rows<'a>(
        &'a self,
        sql: &'a str,
        params: &'a [&'a (dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Vec<Row>, Error>> + Send + 'a {
        let conn: Option<&'a ClientWrapper> = self.conn.as_deref();
        async move {
            let Some(conn) = conn else {
                return Ok(Vec::new());
            };
            match self.begin_first(conn) {
                None => crate::db::rows_on(conn, sql, params, true).await,
                Some(begin) => {
                    let (begun, rows) = futures_util::future::join(
                        begin,
                        crate::db::rows_on(conn, sql, params, true),
                    )
                    .await;
                    begun?;
                    rows
                }
            }
        }
    }

    fn run<'a>(
        &'a self,
        sql: &'a str,
        params: &'a [&'a (dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<u64, Error>> + Send + 'a {
        let conn: Option<&'a ClientWrapper> = self.conn.as_deref();
        async move {
            let Some(conn) = conn else {
                return Ok(0);
            };
            match self.begin_first(conn) {
                None => crate::db::run_on(conn, sql, params, true).await,
                Some(begin) => {
                    let (begun, count) = futures_util::future::join(
                        begin,
                        crate::db::run_on(conn, sql, params, true),
                    )
                    .await;
                    begun?;
                    count
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_etag_is_the_quoted_hex_of_the_first_half_of_the_sha256_of_the_json() {
        // `printf '{"id":1}' | sha256sum` → 037c9214eef74cc3887f3a4f085b4e17d762…
        let expected = "\"037c9214eef74cc3887f3a4f085b4e17\"";
        assert_eq!(etag_of_json(br#"{"id":1}"#), expected);
        #[derive(Serialize)]
        struct Record {
            id: i64,
        }
        assert_eq!(etag(&Record { id: 1 }).unwrap(), expected);
    }
}
