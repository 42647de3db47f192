//! The client's side (API.md §12): each estimate and invoice can have a link at which its
//! client reads it without an API key, and an estimate can be accepted or declined there.
//!
//! - A link is a random token on the bill's own row with its expiry, made on publish and
//!   email or on demand (`Store::make_estimate_link`, `Store::revoke_estimate_link` and
//!   the invoice twins; the store's `bills::link` module).
//! - [`Store::open_link`] finds what a live token opens; anything else (unknown, replaced,
//!   revoked, expired, deleted record) is `None`, one answer for all.
//! - [`Store::decide_by_link`] records the client's decision in one transaction: the row
//!   locked by its token, crm-core's rule ([`decision::decide`]), status and response
//!   written, the estimate read back, and the notice to its creator queued.
//!
//! Links are configured with [`ClientSide`] (the public URL, the link lifetime); what a
//! person sees of a bill (the page, the PDF, the emails) is the caller's to render:
//! [`Store::open_versioned`] gives a link's bill with its version, for a cache of rendered
//! documents, and a decision's notice is queued for the caller to compose
//! ([`crate::messages`]).

use crate::bills::handle::Versioned;
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::StoreError;
use crate::messages::{self, Letterhead, Template, ToCompose};
use crate::rows;
use crate::store::Store;
use chrono::NaiveDate;
use crm_core::activity::Actor;
use crm_core::bill::link;
use crm_core::bill::{EstimateKind, InvoiceKind, Kind};
use crm_core::credit_note::CreditNote;
use crm_core::estimate::decision::{self, Decided, DecisionRequest, Refusal};
use crm_core::estimate::{Decision, Estimate, StoredStatus};
use crm_core::ids::{CreditNoteId, EstimateId, InvoiceId};
use crm_core::invoice::Invoice;
use crm_core::webhook::EventType;

pub use crate::pool::ClientSide;

/// A bill a link opens.
#[derive(Debug, Clone)]
pub enum Opened {
    /// An estimate, with the version of its offer (read before it on the same connection,
    /// so never newer than what it shows: the version its page's forms send).
    Estimate(Box<Estimate>, String),
    /// An invoice.
    Invoice(Box<Invoice>),
    /// A credit note.
    CreditNote(Box<CreditNote>),
}

/// A link's bill with its version ([`Store::open_versioned`]).
#[derive(Debug)]
pub enum OpenedVersion<'s> {
    /// An estimate.
    Estimate(Versioned<'s, EstimateKind>),
    /// An invoice.
    Invoice(Versioned<'s, InvoiceKind>),
    /// A credit note, and its version ([`Store::credit_note_version`]).
    CreditNote(CreditNoteId, String),
}

/// The notice of a client's decision to the estimate's creator, to compose from the
/// estimate as decided ([`crate::messages`]).
#[derive(Debug, Clone)]
pub struct Notice {
    /// The estimate, as the decision left it.
    pub estimate: Box<Estimate>,
    /// The notice's message.
    pub compose: ToCompose,
}

/// What a decision sent from the page did.
#[derive(Debug, Clone)]
pub enum DecisionOutcome {
    /// Recorded now (with the notice to compose, when the estimate's creator is still a
    /// user), or the same decision was already recorded: the page shows it.
    Recorded(Option<Notice>),
    /// Refused: nothing changed, and why.
    Refused(Refusal),
    /// No live link of an estimate has this token (an invoice's link takes no decision).
    NotFound,
}

const OPEN_SQL: &str = "\
SELECT 'estimate' AS kind, id FROM estimates \
 WHERE client_token = $1 AND client_token_expires_at > now() AND NOT is_document \
UNION ALL \
SELECT 'invoice' AS kind, id FROM invoices \
 WHERE client_token = $1 AND client_token_expires_at > now() \
UNION ALL \
SELECT 'credit_note' AS kind, id FROM credit_notes \
 WHERE client_token = $1 AND client_token_expires_at > now()";

const LOCK_BY_TOKEN_SQL: &str = "\
SELECT id, status, expiry_date, estimate_agreed_digest(id) AS digest FROM estimates \
 WHERE client_token = $1 AND client_token_expires_at > now() AND NOT is_document FOR UPDATE";

/// Whether the estimate became an invoice; its own statement after the row's lock, so
/// that it sees a conversion that committed while the lock was awaited.
const CONVERTED_SQL: &str =
    "SELECT EXISTS (SELECT 1 FROM invoices WHERE estimate_id = $1) AS converted";

const DECIDE_SQL: &str = "\
UPDATE estimates SET status = $2, client_decision = $3, client_reason = $4, \
 client_decided_at = now(), updated_at = now() WHERE id = $1";

/// The decision kept with the offer it was made on: `$4` its digest, `$5` the estimate as
/// the API showed it after the decision (JSON text).
const KEEP_DECISION_SQL: &str = "\
INSERT INTO estimate_decisions (estimate_id, decision, reason, agreed_digest, record) \
 VALUES ($1, $2, $3, $4, $5::text::jsonb)";

/// The version of estimate `$1`'s offer, which its page's forms send with a decision.
const OFFER_SQL: &str = "SELECT estimate_agreed_digest($1) AS digest";

/// The notice of a decision; its message (`$3`) is composed after the commit.
const QUEUE_NOTICE_SQL: &str = "INSERT INTO email_queue (recipient, template, \
     resource_type, resource_id, estimate_id, body_id) \
     VALUES ($1, $2, 'estimate', $3, $3, $4)";

const CREATOR_EMAIL_SQL: &str = "\
SELECT u.email FROM estimates e JOIN users u ON u.id = e.creator_id WHERE e.id = $1";

/// The bill a client link names.
enum Linked {
    Estimate(EstimateId),
    Invoice(InvoiceId),
    CreditNote(CreditNoteId),
}

/// The bill the live token `token` opens, read on `db` (`None`: unknown, rotated, revoked
/// or expired).
async fn linked(db: &impl Db, token: &str) -> Result<Option<Linked>, StoreError> {
    let Some(row) = db.row_opt(OPEN_SQL, &[&token]).await? else {
        return Ok(None);
    };
    let kind: String = rows::get(&row, "kind")?;
    let id: i64 = rows::get(&row, "id")?;
    let bad = || crate::error::corrupt("linked id", id);
    Ok(Some(match kind.as_str() {
        "estimate" => Linked::Estimate(EstimateId::new(id).ok_or_else(bad)?),
        "invoice" => Linked::Invoice(InvoiceId::new(id).ok_or_else(bad)?),
        _ => Linked::CreditNote(CreditNoteId::new(id).ok_or_else(bad)?),
    }))
}

/// What a link's bill gave, or `None` when the bill was deleted between the token's
/// statement and its read: a bad link like any other.
fn unless_gone<T>(found: Result<T, StoreError>) -> Result<Option<T>, StoreError> {
    match found {
        Ok(found) => Ok(Some(found)),
        Err(StoreError::NotFound(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

impl Store {
    /// The client's side's settings.
    pub fn client_side(&self) -> &ClientSide {
        &self.inner.client
    }

    /// The bill a live token opens, with its version, both read on one connection
    /// ([`Versioned`]); `None` for every bad link, as [`Store::open_link`].
    pub async fn open_versioned(
        &self,
        token: &str,
        today: NaiveDate,
    ) -> Result<Option<OpenedVersion<'_>>, StoreError> {
        if !link::is_token(token) {
            return Ok(None);
        }
        let reader = self.reader().await?;
        let opened = match linked(&*reader, token).await? {
            None => return Ok(None),
            Some(Linked::Estimate(id)) => Versioned::read(self, reader, today, id)
                .await
                .map(OpenedVersion::Estimate),
            Some(Linked::Invoice(id)) => Versioned::read(self, reader, today, id)
                .await
                .map(OpenedVersion::Invoice),
            Some(Linked::CreditNote(id)) => {
                let raw = id.get();
                match reader
                    .row_opt(crate::credit_notes::VERSION_SQL, &[&raw])
                    .await?
                {
                    Some(row) => Ok(OpenedVersion::CreditNote(id, rows::get(&row, "version")?)),
                    None => return Ok(None),
                }
            }
        };
        unless_gone(opened)
    }

    /// `GET /c/{token}`: the bill a live token opens, read whole; `None` for every bad
    /// link. A text that is not a token's form is `None` without a query.
    pub async fn open_link(
        &self,
        token: &str,
        today: NaiveDate,
    ) -> Result<Option<Opened>, StoreError> {
        if !link::is_token(token) {
            return Ok(None);
        }
        let reader = self.reader().await?;
        let view = self.view_on(today);
        let opened = match linked(&*reader, token).await? {
            None => return Ok(None),
            Some(Linked::Estimate(id)) => {
                let version: String =
                    rows::get(&reader.row(OFFER_SQL, &[&id.get()]).await?, "digest")?;
                crate::bills::kind::load(&*reader, id, view)
                    .await
                    .map(|e| Opened::Estimate(Box::new(e), version))
            }
            Some(Linked::Invoice(id)) => crate::bills::kind::load(&*reader, id, view)
                .await
                .map(|i| Opened::Invoice(Box::new(i))),
            Some(Linked::CreditNote(id)) => crate::credit_notes::load(&*reader, id.get(), view)
                .await
                .map(|c| Opened::CreditNote(Box::new(c))),
        };
        unless_gone(opened)
    }

    /// `POST /c/{token}/accept`, `/decline`: the client's decision, in one transaction
    /// with the estimate locked by its token; a decision is recorded only on the offer the
    /// client saw (the form's `version` is the offer's now: [`Opened::Estimate`]) and
    /// kept with it (`estimate_decisions`: its version and the estimate as decided); a new
    /// decision also queues the notice to the estimate's creator ("Estimate #12 accepted
    /// by Acme Ltd").
    pub async fn decide_by_link(
        &self,
        token: &str,
        request: &DecisionRequest,
        today: NaiveDate,
        letterhead: &Letterhead,
    ) -> Result<DecisionOutcome, StoreError> {
        if !link::is_token(token) {
            return Ok(DecisionOutcome::NotFound);
        }
        let tx = self.begin().await?;
        let Some(row) = tx.row_opt(LOCK_BY_TOKEN_SQL, &[&token]).await? else {
            return Ok(DecisionOutcome::NotFound);
        };
        let id: i64 = rows::get(&row, "id")?;
        tx.act_as(Actor::ClientLink {
            resource_type: "estimate",
            id,
        });
        let stored: StoredStatus = rows::choice(&row, "status")?;
        let expiry: Option<NaiveDate> = rows::get(&row, "expiry_date")?;
        let shown = crm_core::estimate::ShownStatus::derive(stored, expiry, today);
        let converted: bool = rows::get(&tx.row(CONVERTED_SQL, &[&id]).await?, "converted")?;
        let digest: String = rows::get(&row, "digest")?;
        let seen_current = request.version.as_deref() == Some(digest.as_str());
        match decision::decide(shown, converted, request.decision, seen_current) {
            Err(refusal) => Ok(DecisionOutcome::Refused(refusal)),
            Ok(Decided::AlreadyRecorded) => Ok(DecisionOutcome::Recorded(None)),
            Ok(Decided::Record(status)) => {
                let reason = match request.decision {
                    Decision::Declined => request.reason.as_deref(),
                    Decision::Accepted => None,
                };
                let estimate_id =
                    EstimateId::new(id).ok_or_else(|| crate::error::corrupt("estimate id", id))?;
                tx.if_match(crate::bills::kind::load(
                    &tx,
                    estimate_id,
                    self.view_on(today),
                ))
                .await?;
                tx.run(
                    DECIDE_SQL,
                    &[&id, &status.as_str(), &request.decision.as_str(), &reason],
                )
                .await?;
                let id =
                    EstimateId::new(id).ok_or_else(|| crate::error::corrupt("estimate id", id))?;
                let view = self.view_on(today);
                let estimate = crate::bills::kind::load(&tx, id, view).await?;
                let kept = serde_json::to_string(&estimate)
                    .map_err(|e| StoreError::Internal(format!("decided estimate: {e}")))?;
                tx.run(
                    KEEP_DECISION_SQL,
                    &[
                        &id.get(),
                        &request.decision.as_str(),
                        &reason,
                        &digest,
                        &kept,
                    ],
                )
                .await?;
                let compose = queue_decision_notice(&tx, &estimate, letterhead).await?;
                let kind = match request.decision {
                    Decision::Accepted => EventType::EstimateAccepted,
                    Decision::Declined => EventType::EstimateDeclined,
                };
                tx.emit(kind, id.get(), &estimate)?;
                tx.commit().await?;
                Ok(DecisionOutcome::Recorded(compose.map(|compose| Notice {
                    estimate: Box::new(estimate),
                    compose,
                })))
            }
        }
    }
}

/// Queues the notice of `estimate`'s decision to its creator, if the creator is still a
/// user (every user has an address): its message is composed after the commit.
async fn queue_decision_notice(
    db: &Tx,
    estimate: &Estimate,
    letterhead: &Letterhead,
) -> Result<Option<ToCompose>, StoreError> {
    let id = EstimateKind::raw(estimate.id);
    let Some(row) = db.row_opt(CREATOR_EMAIL_SQL, &[&id]).await? else {
        return Ok(None);
    };
    let recipient: String = rows::get(&row, "email")?;
    let template = Template::EstimateDecision;
    let version = messages::version(template, estimate, letterhead)?;
    let body = messages::body(db, EstimateKind::KIND.template(), template, id, &version).await?;
    db.run(
        QUEUE_NOTICE_SQL,
        &[&recipient, &template.as_str(), &id, &body.id],
    )
    .await?;
    db.wake_workers();
    Ok(body.to_compose())
}
