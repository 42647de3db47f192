//! The messages the store queues, composed by its caller (issue 46): the store renders
//! nothing, and nothing is rendered inside a transaction.
//!
//! A write that emails (publish, send-email, a client's decision) stores, in its
//! transaction, the message's place: one `email_bodies` row per version of what it shows
//! (its version: the record as the API shows it, the [`Template`] and the caller's
//! [`Letterhead`]), empty until composed, and the outbox rows that send it. After the commit
//! the caller composes the message from the record the write returned (the record as
//! committed) and stores it with [`Store::compose`], off the row's lock; the delivery
//! workers claim only rows whose message is composed. A write whose version was composed
//! before reuses the message and composes nothing.
//!
//! Should the process stop between the commit and the composing, the message is composed
//! later by whoever runs [`Store::uncomposed`] (`crm serve`'s upkeep, every few seconds),
//! from the record as it is then (see docs/decisions.md).

use std::time::Duration;

use crm_core::bill::BillKind;
use serde::Serialize;
use sha2::{Digest, Sha256};
use tokio_postgres::Row;

use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::store::Store;

/// What a composed message depends on besides its record, as a digest: the caller's
/// presentation settings (the company, the paper, whether the PDF is attached). It is part
/// of every message's version, so that a change of them composes new messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Letterhead(pub [u8; 32]);

/// What a message is: the email of an estimate or an invoice to its client, or the notice
/// to an estimate's creator of the client's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Template {
    /// An estimate's email to its client.
    Estimate,
    /// An invoice's email to its client.
    Invoice,
    /// The notice of a client's decision to the estimate's creator.
    EstimateDecision,
    /// A credit note's email to its client.
    CreditNote,
}

impl Template {
    /// The email of a bill of `kind`.
    pub fn of(kind: BillKind) -> Template {
        match kind {
            BillKind::Estimate => Template::Estimate,
            BillKind::Invoice => Template::Invoice,
            BillKind::CreditNote => Template::CreditNote,
        }
    }

    /// Its name in the outbox (`email_queue.template`, `email_bodies.template`).
    pub fn as_str(self) -> &'static str {
        match self {
            Template::Estimate => "estimate",
            Template::Invoice => "invoice",
            Template::EstimateDecision => "estimate_decision",
            Template::CreditNote => "credit_note",
        }
    }

    /// The template named `name`.
    pub fn from_name(name: &str) -> Option<Template> {
        [
            Template::Estimate,
            Template::Invoice,
            Template::EstimateDecision,
            Template::CreditNote,
        ]
        .into_iter()
        .find(|t| t.as_str() == name)
    }
}

/// A message a write queued whose content its caller composes after the commit
/// ([`Store::compose`]); until then its rows wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "a queued message leaves only once it is composed"]
pub struct ToCompose {
    /// The stored message (`email_bodies.id`).
    pub body: i64,
    /// What to compose.
    pub template: Template,
}

/// A composed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The subject (one line).
    pub subject: String,
    /// The `text/plain` part.
    pub text: String,
    /// The `text/html` part.
    pub html: String,
    /// The PDF attached, if any.
    pub attachment: Option<Vec<u8>>,
    /// The e-invoice attached, if any (`--mail-attach-einvoice`).
    pub einvoice: Option<Attached>,
}

/// A file a message carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attached {
    /// Its file name.
    pub name: String,
    /// Its media type (`application/pdf`, `application/xml`).
    pub media_type: String,
    /// Its bytes.
    pub data: Vec<u8>,
}

/// What an emailing write gives: the record as committed, and the message to compose
/// from it, if the write queued one that is not composed yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emailed<R> {
    /// The record, as committed.
    pub record: R,
    /// The message to compose (`None`: nothing was queued, or the message of this version
    /// was composed before).
    pub compose: Option<ToCompose>,
}

/// A message left uncomposed ([`Store::uncomposed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uncomposed {
    /// What to compose.
    pub to: ToCompose,
    /// The record it is about (an estimate's or invoice's id).
    pub resource_id: i64,
}

/// What became of the email of a publish or send-email.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Queued {
    /// The bill's client has no contact address: nothing is queued (the action succeeds).
    NoRecipient,
    /// A new outbox row, whose message is to be composed (`Some`) or was composed before.
    New(Option<ToCompose>),
    /// A send-email joined a send-email's row still waiting with the same message for the
    /// same recipient: nothing new is queued, and nothing changed.
    Joined,
}

impl Queued {
    /// What the write gives its caller with `record`.
    pub(crate) fn emailed<R>(self, record: R) -> Emailed<R> {
        Emailed {
            record,
            compose: match self {
                Queued::New(compose) => compose,
                Queued::NoRecipient | Queued::Joined => None,
            },
        }
    }
}

/// A message's place (`email_bodies`): its id, and its subject once composed.
#[derive(Debug)]
pub(crate) struct Body {
    /// `email_bodies.id`.
    pub id: i64,
    /// The subject, once composed (the row's copy, which the list shows).
    pub subject: Option<String>,
    template: Template,
}

impl Body {
    /// What its caller composes after the commit: `None` when it was composed before.
    pub(crate) fn to_compose(&self) -> Option<ToCompose> {
        self.subject.is_none().then_some(ToCompose {
            body: self.id,
            template: self.template,
        })
    }

    /// What a write that queued this body gives its caller.
    pub(crate) fn queued(&self) -> Queued {
        Queued::New(self.to_compose())
    }
}

/// The message's place, found or made: the caller's row lock on the record means no other
/// transaction stores this version at the same time; the conflict clause only keeps a
/// surprise from being an error.
const BODY_SQL: &str = "INSERT INTO email_bodies (resource_type, resource_id, version, template) \
     VALUES ($1, $2, $3, $4) \
     ON CONFLICT ON CONSTRAINT email_bodies_version_key DO UPDATE SET version = EXCLUDED.version \
     RETURNING id, subject";

/// The composed message; only the first composing counts (every composing of one version
/// gives the same message).
const COMPOSE_SQL: &str = "UPDATE email_bodies SET subject = $2, body_text = $3, body_html = $4, \
     attachment = $5, einvoice = $6, einvoice_name = $7, einvoice_media_type = $8 \
     WHERE id = $1 AND body_text IS NULL";

/// The subject on the message's rows (the list shows it), whichever composing set it.
const ROW_SUBJECTS_SQL: &str = "UPDATE email_queue q SET subject = b.subject FROM email_bodies b \
     WHERE b.id = $1 AND q.body_id = b.id AND q.subject IS NULL AND b.subject IS NOT NULL";

/// Messages that pending rows wait for, left uncomposed longer than `$1` seconds.
const UNCOMPOSED_SQL: &str = "SELECT b.id, b.template, b.resource_id FROM email_bodies b \
     WHERE b.body_text IS NULL AND b.created_at < now() - make_interval(secs => $1) \
     AND EXISTS (SELECT 1 FROM email_queue q WHERE q.body_id = b.id AND q.status = 'pending') \
     ORDER BY b.id LIMIT $2";

/// The bodies of a record that no row refers to any more (after its pending emails went).
const PRUNE_SQL: &str = "DELETE FROM email_bodies b WHERE b.resource_type = $1 \
     AND b.resource_id = $2 AND NOT EXISTS (SELECT 1 FROM email_queue q WHERE q.body_id = b.id)";

/// The version of the message `template` of `record` with `letterhead`: the SHA-256 of
/// each, length-prefixed.
pub(crate) fn version<T: Serialize>(
    template: Template,
    record: &T,
    letterhead: &Letterhead,
) -> Result<Vec<u8>, StoreError> {
    let json = serde_json::to_vec(record)
        .map_err(|e| StoreError::Internal(format!("cannot serialise a record: {e}")))?;
    let mut hasher = Sha256::new();
    for part in [
        template.as_str().as_bytes(),
        json.as_slice(),
        letterhead.0.as_slice(),
    ] {
        hasher.update(u64::try_from(part.len()).unwrap_or(u64::MAX).to_be_bytes());
        hasher.update(part);
    }
    Ok(hasher.finalize().to_vec())
}

/// The place of version `version` of message `template` about record `id` (of
/// `resource`: `estimate`, `invoice`), made if new.
pub(crate) async fn body(
    db: &impl Db,
    resource: &str,
    template: Template,
    id: i64,
    version: &[u8],
) -> Result<Body, StoreError> {
    let row = db
        .row(BODY_SQL, &[&resource, &id, &version, &template.as_str()])
        .await?;
    body_of(&row, template)
}

fn body_of(row: &Row, template: Template) -> Result<Body, StoreError> {
    Ok(Body {
        id: rows::get(row, "id")?,
        subject: rows::get(row, "subject")?,
        template,
    })
}

/// Deletes the messages of record `id` (of `resource`) that no row refers to any more.
pub(crate) async fn prune(db: &impl Db, resource: &str, id: i64) -> Result<(), StoreError> {
    db.run(PRUNE_SQL, &[&resource, &id]).await?;
    Ok(())
}

impl Store {
    /// Stores the composed `message` of `to` (the first composing of a version counts) and
    /// wakes the delivery workers: its rows can leave.
    pub async fn compose(&self, to: &ToCompose, message: &Message) -> Result<(), StoreError> {
        let writer = self.writer().await?;
        let einvoice = message.einvoice.as_ref();
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 8] = [
            &to.body,
            &message.subject,
            &message.text,
            &message.html,
            &message.attachment,
            &einvoice.map(|e| e.data.as_slice()),
            &einvoice.map(|e| e.name.as_str()),
            &einvoice.map(|e| e.media_type.as_str()),
        ];
        writer.run(COMPOSE_SQL, &params).await?;
        writer.run(ROW_SUBJECTS_SQL, &[&to.body]).await?;
        drop(writer);
        self.inner.waker.wake();
        Ok(())
    }

    /// Up to `limit` messages that pending rows have waited for longer than `older_than`
    /// (their composing never happened: the process stopped after the commit).
    pub async fn uncomposed(
        &self,
        older_than: Duration,
        limit: i64,
    ) -> Result<Vec<Uncomposed>, StoreError> {
        let reader = self.primary_reader().await?;
        let found = reader
            .rows(UNCOMPOSED_SQL, &[&older_than.as_secs_f64(), &limit])
            .await?;
        found
            .iter()
            .map(|row| {
                let name: String = rows::get(row, "template")?;
                let template = Template::from_name(&name)
                    .ok_or_else(|| crate::error::corrupt("message template", name))?;
                Ok(Uncomposed {
                    to: ToCompose {
                        body: rows::get(row, "id")?,
                        template,
                    },
                    resource_id: rows::get(row, "resource_id")?,
                })
            })
            .collect()
    }
}
