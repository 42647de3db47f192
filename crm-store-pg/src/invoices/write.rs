//! Every invoice write: the shared bill writes ([`crate::bills`]) on the invoice tables,
//! and the invoice's own status rules (crm-core's [`crm_core::invoice`]). Publishing and
//! emailing give the invoice its client link when it has none (API.md §12).

use crm_core::conflict::Resource;
use crm_core::ids::InvoiceId;
use crm_core::invoice::{self, Invoice, InvoiceClone, InvoiceStatusChange};
use crm_core::webhook::EventType;

use super::{SQL, lock, new_id, read};
use crate::bills::header::EmailAction;
use crate::bills::link::Queued;
use crate::bills::{LockMode, header};
use crate::conditions::if_match;
use crate::db::Db;
use crate::{Ctx, Store, StoreError};

pub(super) const SET_STATUS_SQL: &str =
    "UPDATE invoices SET status_id = $2, updated_at = now() WHERE id = $1";

/// Publishing: the new stored status (Due).
const PUBLISH_SQL: &str = SET_STATUS_SQL;

impl Store {
    /// `PUT /invoices/{id}/status`: stores 1, 2, 4, 5 or 20 as far as the invoice's
    /// payments allow ([`crm_core::invoice::Balance::set_status`]: an invoice with payments is not
    /// set back to Draft or Cancelled, and Due, Part Paid and Paid must agree with what was
    /// paid), with the invoice row locked.
    pub async fn set_invoice_status(
        &self,
        ctx: Ctx,
        id: InvoiceId,
        cmd: &InvoiceStatusChange,
    ) -> Result<Invoice, StoreError> {
        let tx = self.begin_on_bill(ctx, id).await?;
        let locked = crate::payments::lock_invoice(&tx, id.get())
            .await?
            .ok_or(StoreError::NotFound(Resource::Invoice))?;
        let after = locked.balance.set_status(cmd.status)?;
        tx.run(SET_STATUS_SQL, &[&id.get(), &after.status.id()])
            .await?;
        let invoice = read::load(&tx, id, self.view(ctx)).await?;
        tx.emit(EventType::InvoiceUpdated, id.get(), &invoice)?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// `POST /invoices/{id}/clone`: a new Draft with client, dates and project from the
    /// request, and the source's category, tax type, discount, adjustment, notes, terms,
    /// totals, line items and tax records copied (not its tags, status or estimate link).
    pub async fn clone_invoice(
        &self,
        ctx: Ctx,
        id: InvoiceId,
        cmd: &InvoiceClone,
    ) -> Result<Invoice, StoreError> {
        let tx = self.begin().await?;
        let copy = new_id(header::clone(&tx, &SQL, id.get(), cmd, ctx.actor).await?)?;
        let invoice = read::load(&tx, copy, self.view(ctx)).await?;
        tx.emit(EventType::InvoiceCreated, copy.get(), &invoice)?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// `PUT /invoices/{id}/publish`: a stored Draft becomes Due (409 otherwise) and its
    /// email is queued in the same transaction.
    pub async fn publish_invoice(&self, ctx: Ctx, id: InvoiceId) -> Result<Invoice, StoreError> {
        let tx = self.begin().await?;
        let (stored, _) = lock(&tx, id, LockMode::Update).await?;
        if_match(read::load(&tx, id, self.view(ctx))).await?;
        let published = invoice::publish(stored)?;
        tx.run(PUBLISH_SQL, &[&id.get(), &published.id()]).await?;
        let (invoice, _) = self
            .link_and_email(&tx, ctx, id, EmailAction::Publish)
            .await?;
        tx.emit(EventType::InvoicePublished, id.get(), &invoice)?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// `POST /invoices/{id}/send-email`: queues the invoice's email (409 for a Draft), or
    /// joins the same message still waiting on an earlier send-email's row (see
    /// `link_and_email`); the invoice is unchanged but for a client link if it had no
    /// working one.
    pub async fn send_invoice_email(&self, ctx: Ctx, id: InvoiceId) -> Result<Invoice, StoreError> {
        let tx = self.begin().await?;
        // FOR UPDATE, not FOR SHARE: the link may be written, and two sharers that both
        // write would deadlock.
        let (stored, _) = lock(&tx, id, LockMode::Update).await?;
        invoice::check_send_email(stored)?;
        let (invoice, queued) = self
            .link_and_email(&tx, ctx, id, EmailAction::SendEmail)
            .await?;
        // Joining an email still waiting queues nothing: no change, so no event.
        if queued != Queued::Joined {
            tx.emit(EventType::InvoiceEmailed, id.get(), &invoice)?;
        }
        tx.commit().await?;
        Ok(invoice)
    }
}
