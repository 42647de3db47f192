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
//! What it shows is configured with [`ClientSide`] (the public URL, the company, the link
//! lifetime, the paper); [`Store::link_pdf`], [`Store::estimate_pdf`] and
//! [`Store::invoice_pdf`] serve PDFs from the cache of [`crate::pdfs`].

use chrono::NaiveDate;
use crm_core::bill::ClientLink;
use crm_core::bill::link;
use crm_core::estimate::decision::{self, Decided, DecisionRequest, Refusal};
use crm_core::estimate::{Decision, Estimate, StoredStatus};
use crm_core::ids::{EstimateId, InvoiceId};
use crm_core::invoice::Invoice;
use crm_core::webhook::EventType;
use crm_render::Document;
use crm_render::document::Context;

use crate::bills::kind::{BillId, StoredBill, View};
use crate::bills::link::render_error;
use crate::conditions::Tx;
use crate::db::Db;
use crate::pdfs::{Pdf, PdfCacheStatus};
use crate::{Ctx, Store, StoreError, rows};

pub use crate::pool::ClientSide;

/// The template name of the notice an estimate's creator gets.
pub const DECISION_TEMPLATE: &str = "estimate_decision";

/// A bill a link opens.
#[derive(Debug, Clone)]
pub enum Opened {
    /// An estimate.
    Estimate(Box<Estimate>),
    /// An invoice.
    Invoice(Box<Invoice>),
}

/// What a decision sent from the page did.
#[derive(Debug, Clone)]
pub enum DecisionOutcome {
    /// Recorded now, or the same decision was already recorded: the page shows it.
    Recorded,
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
 WHERE client_token = $1 AND client_token_expires_at > now()";

const LOCK_BY_TOKEN_SQL: &str = "\
SELECT id, status, expiry_date FROM estimates \
 WHERE client_token = $1 AND client_token_expires_at > now() AND NOT is_document FOR UPDATE";

const DECIDE_SQL: &str = "\
UPDATE estimates SET status = $2, client_decision = $3, client_reason = $4, \
 client_decided_at = now(), updated_at = now() WHERE id = $1";

/// The notice of a decision, with its own message on its row (one per decision: no
/// version of the estimate is sent twice, so nothing is shared with other rows).
const QUEUE_NOTICE_SQL: &str = "INSERT INTO email_queue (recipient, subject, template, \
     resource_type, resource_id, estimate_id, body_text, body_html) \
     VALUES ($1, $2, $3, 'estimate', $4, $4, $5, $6)";

const CREATOR_EMAIL_SQL: &str = "\
SELECT u.email FROM estimates e JOIN users u ON u.id = e.creator_id WHERE e.id = $1";

/// The bill a client link names.
enum Linked {
    Estimate(EstimateId),
    Invoice(InvoiceId),
}

/// The bill the live token `token` opens, read on `db` (`None`: unknown, rotated, revoked
/// or expired).
async fn linked(db: &impl Db, token: &str) -> Result<Option<Linked>, StoreError> {
    let Some(row) = db.row_opt(OPEN_SQL, &[&token]).await? else {
        return Ok(None);
    };
    let kind: String = rows::get(&row, "kind")?;
    let id: i64 = rows::get(&row, "id")?;
    Ok(Some(if kind == "estimate" {
        Linked::Estimate(
            EstimateId::new(id).ok_or_else(|| crate::error::corrupt("estimate id", id))?,
        )
    } else {
        Linked::Invoice(InvoiceId::new(id).ok_or_else(|| crate::error::corrupt("invoice id", id))?)
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

    /// The document of a record, for the page, the PDF and the emails.
    pub fn estimate_document(&self, estimate: &Estimate) -> Document {
        Document::estimate(estimate, self.context(estimate.client_link.as_ref()))
    }

    /// The document of an invoice.
    pub fn invoice_document(&self, invoice: &Invoice) -> Document {
        Document::invoice(invoice, self.context(invoice.client_link.as_ref()))
    }

    /// `GET /api/estimates/{id}/pdf`: the estimate's PDF, kept in memory when this version
    /// of it was rendered before, else rendered now on the blocking pool (once for every
    /// request that wants it meanwhile) and kept within the cache's budget
    /// ([`crate::pdfs`]). `NotFound` as its read.
    pub async fn estimate_pdf(&self, ctx: Ctx, id: EstimateId) -> Result<Pdf, StoreError> {
        let reader = self.reader().await?;
        self.bill_pdf(&*reader, id, self.view(ctx)).await
    }

    /// `GET /api/invoices/{id}/pdf`: as [`Store::estimate_pdf`].
    pub async fn invoice_pdf(&self, ctx: Ctx, id: InvoiceId) -> Result<Pdf, StoreError> {
        let reader = self.reader().await?;
        self.bill_pdf(&*reader, id, self.view(ctx)).await
    }

    /// `GET /c/{token}/pdf`: the PDF of the bill a live token opens, as
    /// [`Store::estimate_pdf`]; `None` for every bad link, as [`Store::open_link`].
    pub async fn link_pdf(&self, token: &str, today: NaiveDate) -> Result<Option<Pdf>, StoreError> {
        if !link::is_token(token) {
            return Ok(None);
        }
        let reader = self.reader().await?;
        let view = self.view_on(today);
        let pdf = match linked(&*reader, token).await? {
            None => return Ok(None),
            Some(Linked::Estimate(id)) => self.bill_pdf(&*reader, id, view).await,
            Some(Linked::Invoice(id)) => self.bill_pdf(&*reader, id, view).await,
        };
        unless_gone(pdf)
    }

    /// The PDF of bill `id` as `view` shows it: the cache's key is the bill's version
    /// (one statement on `db`, [`crate::bills::BillSql::version`]), today and the
    /// settings; the bill is read from `db`, and its document made, only to render. Both
    /// statements go to the same server, the read after the version, so a PDF is never
    /// kept under a version newer than the record it shows.
    async fn bill_pdf<I: BillId>(
        &self,
        db: &impl Db,
        id: I,
        view: View<'_>,
    ) -> Result<Pdf, StoreError> {
        let sql = I::Kind::sql();
        let row = db
            .row_opt(sql.version, &[&id.raw()])
            .await?
            .ok_or(StoreError::NotFound(sql.resource))?;
        let version: String = rows::get(&row, "version")?;
        let client = &self.inner.client;
        let key = crate::pdfs::key_of(&[
            <I::Kind as crm_core::bill::Kind>::KIND.template(),
            &id.raw().to_string(),
            &version,
            &view.today.to_string(),
            view.public_url,
            &client.company,
            client.paper.name(),
        ]);
        let document = async {
            let record = crate::bills::kind::load(db, id, view).await?;
            Ok(I::Kind::document(self, &record))
        };
        self.inner.pdfs.get(key, client.paper, document).await
    }

    /// The PDF cache's figures now (`/metrics`).
    pub fn pdf_cache_status(&self) -> PdfCacheStatus {
        self.inner.pdfs.status()
    }

    fn context<'a>(&'a self, link: Option<&'a ClientLink>) -> Context<'a> {
        Context {
            company: &self.inner.client.company,
            link: link.map(|l| l.url.as_str()),
        }
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
            Some(Linked::Estimate(id)) => crate::bills::kind::load(&*reader, id, view)
                .await
                .map(|e| Opened::Estimate(Box::new(e))),
            Some(Linked::Invoice(id)) => crate::bills::kind::load(&*reader, id, view)
                .await
                .map(|i| Opened::Invoice(Box::new(i))),
        };
        unless_gone(opened)
    }

    /// `POST /c/{token}/accept`, `/decline`: the client's decision, in one transaction
    /// with the estimate locked by its token; a new decision also queues the notice to the
    /// estimate's creator ("Estimate #12 accepted by Acme Ltd").
    pub async fn decide_by_link(
        &self,
        token: &str,
        request: &DecisionRequest,
        today: NaiveDate,
    ) -> Result<DecisionOutcome, StoreError> {
        if !link::is_token(token) {
            return Ok(DecisionOutcome::NotFound);
        }
        let tx = self.begin().await?;
        let Some(row) = tx.row_opt(LOCK_BY_TOKEN_SQL, &[&token]).await? else {
            return Ok(DecisionOutcome::NotFound);
        };
        let id: i64 = rows::get(&row, "id")?;
        let stored: StoredStatus = rows::choice(&row, "status")?;
        let expiry: Option<NaiveDate> = rows::get(&row, "expiry_date")?;
        let shown = crm_core::estimate::ShownStatus::derive(stored, expiry, today);
        match decision::decide(shown, request.decision) {
            Err(refusal) => Ok(DecisionOutcome::Refused(refusal)),
            Ok(Decided::AlreadyRecorded) => Ok(DecisionOutcome::Recorded),
            Ok(Decided::Record(status)) => {
                let reason = match request.decision {
                    Decision::Declined => request.reason.as_deref(),
                    Decision::Accepted => None,
                };
                tx.run(
                    DECIDE_SQL,
                    &[&id, &status.as_str(), &request.decision.as_str(), &reason],
                )
                .await?;
                let id =
                    EstimateId::new(id).ok_or_else(|| crate::error::corrupt("estimate id", id))?;
                let view = self.view_on(today);
                let estimate = crate::bills::kind::load(&tx, id, view).await?;
                self.queue_decision_notice(&tx, &estimate).await?;
                let kind = match request.decision {
                    Decision::Accepted => EventType::EstimateAccepted,
                    Decision::Declined => EventType::EstimateDeclined,
                };
                tx.emit(kind, id.get(), &estimate)?;
                tx.commit().await?;
                Ok(DecisionOutcome::Recorded)
            }
        }
    }

    /// Queues the notice of `estimate`'s decision to its creator, if the creator is still
    /// a user (every user has an address).
    async fn queue_decision_notice(&self, db: &Tx, estimate: &Estimate) -> Result<(), StoreError> {
        let Some(row) = db.row_opt(CREATOR_EMAIL_SQL, &[&estimate.id.get()]).await? else {
            return Ok(());
        };
        let recipient: String = rows::get(&row, "email")?;
        let doc = self.estimate_document(estimate);
        if let Some(notice) = crm_render::email::decision_notice(&doc).map_err(render_error)? {
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 6] = [
                &recipient,
                &notice.subject,
                &DECISION_TEMPLATE,
                &estimate.id.get(),
                &notice.text,
                &notice.html,
            ];
            db.run(QUEUE_NOTICE_SQL, &params).await?;
            db.wake_workers();
        }
        Ok(())
    }
}
