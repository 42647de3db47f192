//! The client's side (API.md §12): each estimate and invoice can have a link at which its
//! client reads it without an API key, and an estimate can be accepted or declined there.
//!
//! - A link is a random token on the bill's own row (migration 0016) with its expiry. It
//!   is made when the bill is first published or emailed (`Store::link_and_email`, in
//!   that action's transaction, so the email carries it), or on demand (`Store::make_estimate_link`,
//!   which replaces any old one), and removed by `Store::revoke_estimate_link` (and the invoice twins).
//! - [`Store::open_link`] finds what a live token opens; anything else (unknown, replaced,
//!   revoked, expired, deleted record) is `None`, one answer for all.
//! - [`Store::decide_by_link`] records the client's decision in one transaction: the row
//!   locked by its token, crm-core's rule ([`decision::decide`]), status and response
//!   written, the estimate read back, and the notice to its creator queued.
//!
//! The record's `client_link` needs the public address of the service, which the store is
//! configured with ([`ClientSide`]); reads get it through a `View`.

use chrono::NaiveDate;
use crm_core::bill::Kind;
use crm_core::bill::link::{self, ClientLink, TOKEN_BYTES};
use crm_core::estimate::decision::{self, Decided, DecisionRequest, Refusal};
use crm_core::estimate::{ClientResponse, Decision, Estimate, StoredStatus};
use crm_core::ids::{EstimateId, InvoiceId};
use crm_core::invoice::Invoice;
use crm_render::Document;
use crm_render::document::Context;
use tokio_postgres::Row;

use crate::bills::BillSql;
use crate::bills::kind::{BillId, RecordOf, StoredBill};
use crate::db::Db;
use crate::{Ctx, Store, StoreError, rows};

/// What the client's side is configured with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientSide {
    /// The base of every link (`--public-url`): `https://crm.example.com`, or a path under
    /// it; links are `<public url>/c/<token>`.
    pub public_url: String,
    /// The company's name, shown on the page, the PDF and in emails (`--company-name`).
    pub company: String,
    /// How many days a link works after it is made (`--link-ttl`, 1 to 3650).
    pub link_ttl_days: u32,
}

impl Default for ClientSide {
    fn default() -> ClientSide {
        ClientSide {
            public_url: "http://127.0.0.1:8080".to_owned(),
            company: "CRM".to_owned(),
            link_ttl_days: link::DEFAULT_TTL_DAYS,
        }
    }
}

/// What a read needs besides the row: the day the shown status is derived for, and the
/// public address links are written under.
#[derive(Debug, Clone, Copy)]
pub(crate) struct View<'a> {
    /// Today's date.
    pub today: NaiveDate,
    /// The public URL.
    pub public_url: &'a str,
}

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

/// The record's link from its row (`client_token` is NULL unless live, see
/// `records_sql!`).
pub(crate) fn link_of(row: &Row, public_url: &str) -> Result<Option<ClientLink>, StoreError> {
    let token: Option<String> = rows::get(row, "client_token")?;
    let Some(token) = token else {
        return Ok(None);
    };
    let expires = rows::timestamp(row, "client_token_expires_at")?;
    Ok(Some(ClientLink::new(public_url, &token, expires)))
}

/// An estimate's `client_response` from its row.
pub(crate) fn response_of(row: &Row) -> Result<Option<ClientResponse>, StoreError> {
    let decision: Option<String> = rows::get(row, "client_decision")?;
    if decision.is_none() {
        return Ok(None);
    }
    Ok(Some(ClientResponse {
        decision: rows::choice(row, "client_decision")?,
        reason: rows::get(row, "client_reason")?,
        at: rows::timestamp(row, "client_decided_at")?,
    }))
}

/// A new token: [`TOKEN_BYTES`] from the operating system's generator.
fn new_token() -> Result<String, StoreError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Internal(format!("no random bytes for a link: {e}")))?;
    Ok(link::token_text(&bytes))
}

/// Gives bill `id` a link unless it has a working one (publish and email, in their
/// transaction, with the row locked).
async fn ensure_link(
    db: &impl Db,
    sql: &BillSql,
    id: i64,
    ttl_days: u32,
) -> Result<(), StoreError> {
    db.run(sql.ensure_link, &[&id, &new_token()?, &ttl(ttl_days)])
        .await?;
    Ok(())
}

/// The lifetime as the statements take it (`make_interval(days => int)`).
fn ttl(days: u32) -> i32 {
    i32::try_from(days.min(link::MAX_TTL_DAYS)).unwrap_or(i32::MAX)
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

const CREATOR_EMAIL_SQL: &str = "\
SELECT u.email FROM estimates e JOIN users u ON u.id = e.creator_id WHERE e.id = $1";

impl Store {
    /// The client's side's settings.
    pub fn client_side(&self) -> &ClientSide {
        &self.inner.client
    }

    /// The view of records for `ctx`.
    pub(crate) fn view(&self, ctx: Ctx) -> View<'_> {
        View {
            today: ctx.today,
            public_url: &self.inner.client.public_url,
        }
    }

    /// The document of a record, for the page, the PDF and the emails.
    pub fn estimate_document(&self, estimate: &Estimate) -> Document {
        Document::estimate(estimate, self.context(estimate.client_link.as_ref()))
    }

    /// The document of an invoice.
    pub fn invoice_document(&self, invoice: &Invoice) -> Document {
        Document::invoice(invoice, self.context(invoice.client_link.as_ref()))
    }

    fn context<'a>(&'a self, link: Option<&'a ClientLink>) -> Context<'a> {
        Context {
            company: &self.inner.client.company,
            link: link.map(|l| l.url.as_str()),
        }
    }

    /// Gives bill `id` a link unless it has a working one, reads it back, and queues its
    /// email rendered from that record: publish and send-email, in their transaction with
    /// the row locked `FOR UPDATE`.
    pub(crate) async fn link_and_email<I: BillId>(
        &self,
        db: &impl Db,
        ctx: Ctx,
        id: I,
    ) -> Result<RecordOf<I>, StoreError> {
        let sql = I::Kind::sql();
        ensure_link(db, sql, id.raw(), self.inner.client.link_ttl_days).await?;
        let record = crate::bills::kind::load(db, id, self.view(ctx)).await?;
        let email =
            crm_render::email::render(&I::Kind::document(self, &record)).map_err(render_error)?;
        crate::bills::header::queue_email(db, sql, <I::Kind as Kind>::KIND, id.raw(), &email)
            .await?;
        Ok(record)
    }

    /// `POST /estimates/{id}/link`, `POST /invoices/{id}/link`: a new link (any old one
    /// stops working at once), expiring `link_ttl_days` from now.
    pub(crate) async fn make_link<I: BillId>(
        &self,
        ctx: Ctx,
        id: I,
    ) -> Result<RecordOf<I>, StoreError> {
        let sql = I::Kind::sql();
        let tx = self.begin_on_bill(ctx, id).await?;
        let ttl = ttl(self.inner.client.link_ttl_days);
        tx.run(sql.set_link, &[&id.raw(), &new_token()?, &ttl])
            .await?;
        let record = crate::bills::kind::load(&tx, id, self.view(ctx)).await?;
        tx.commit().await?;
        Ok(record)
    }

    /// `DELETE /estimates/{id}/link`, `DELETE /invoices/{id}/link`: the link stops working.
    pub(crate) async fn revoke_link<I: BillId>(
        &self,
        ctx: Ctx,
        id: I,
    ) -> Result<RecordOf<I>, StoreError> {
        let tx = self.begin_on_bill(ctx, id).await?;
        tx.run(I::Kind::sql().clear_link, &[&id.raw()]).await?;
        let record = crate::bills::kind::load(&tx, id, self.view(ctx)).await?;
        tx.commit().await?;
        Ok(record)
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
        let Some(row) = reader.row_opt(OPEN_SQL, &[&token]).await? else {
            return Ok(None);
        };
        let kind: String = rows::get(&row, "kind")?;
        let id: i64 = rows::get(&row, "id")?;
        let view = View {
            today,
            public_url: &self.inner.client.public_url,
        };
        let opened = if kind == "estimate" {
            let id = EstimateId::new(id).ok_or_else(|| crate::error::corrupt("estimate id", id))?;
            crate::bills::kind::load(&*reader, id, view)
                .await
                .map(|e| Opened::Estimate(Box::new(e)))
        } else {
            let id = InvoiceId::new(id).ok_or_else(|| crate::error::corrupt("invoice id", id))?;
            crate::bills::kind::load(&*reader, id, view)
                .await
                .map(|i| Opened::Invoice(Box::new(i)))
        };
        match opened {
            Ok(opened) => Ok(Some(opened)),
            // Deleted between the two statements: a bad link like any other.
            Err(StoreError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
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
                let view = View {
                    today,
                    public_url: &self.inner.client.public_url,
                };
                let estimate = crate::bills::kind::load(&tx, id, view).await?;
                self.queue_decision_notice(&tx, &estimate).await?;
                tx.commit().await?;
                Ok(DecisionOutcome::Recorded)
            }
        }
    }

    /// Queues the notice of `estimate`'s decision to its creator, if the creator is still
    /// a user (every user has an address).
    async fn queue_decision_notice(
        &self,
        db: &impl Db,
        estimate: &Estimate,
    ) -> Result<(), StoreError> {
        let Some(row) = db.row_opt(CREATOR_EMAIL_SQL, &[&estimate.id.get()]).await? else {
            return Ok(());
        };
        let recipient: String = rows::get(&row, "email")?;
        let doc = self.estimate_document(estimate);
        if let Some(notice) = crm_render::email::decision_notice(&doc).map_err(render_error)? {
            crate::bills::header::queue_rendered(
                db,
                <crm_core::bill::EstimateKind as StoredBill>::sql(),
                &recipient,
                DECISION_TEMPLATE,
                estimate.id.get(),
                &notice,
            )
            .await?;
        }
        Ok(())
    }
}

/// A rendering failure (a template could not write to a string): an internal fault.
pub(crate) fn render_error(e: crm_render::RenderError) -> StoreError {
    StoreError::Internal(format!("rendering: {e}"))
}
