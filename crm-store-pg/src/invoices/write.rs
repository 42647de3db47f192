//! Every invoice write: the shared bill writes ([`crate::bills`]) on the invoice tables,
//! and the invoice's own status rules (crm-core's [`crm_core::invoice`]).

use crm_core::bill::ItemsRequest;
use crm_core::conflict::Resource;
use crm_core::ids::InvoiceId;
use crm_core::invoice::{
    self, Invoice, InvoiceClone, InvoiceStatusChange, InvoiceUpdate, NewInvoice,
};
use crm_core::tags::TagSet;

use super::{SQL, lock, new_id, read};
use crate::bills::{LockMode, header, items};
use crate::conditions::{Tx, if_match};
use crate::db::Db;
use crate::{Ctx, Store, StoreError};

pub(super) const SET_STATUS_SQL: &str =
    "UPDATE invoices SET status_id = $2, updated_at = now() WHERE id = $1";

/// Publishing: the new stored status (Due).
const PUBLISH_SQL: &str = SET_STATUS_SQL;

/// Queues the email of `invoice` (as read inside the action's transaction).
async fn queue_email(db: &impl Db, invoice: &Invoice) -> Result<(), StoreError> {
    let mut dates = Vec::new();
    header::queue_email(db, &SQL, &invoice.mail_parts(&mut dates)).await
}

impl Store {
    /// Begins a write of invoice `id`: the transaction ([`Store::begin`]), the row locked
    /// `FOR UPDATE`, and the request's `If-Match` compared with the invoice as read under
    /// the lock ([`if_match`]: a mismatch is a 412 and nothing is written).
    async fn begin_on_invoice(&self, ctx: Ctx, id: InvoiceId) -> Result<Tx, StoreError> {
        let tx = self.begin().await?;
        if_match(async {
            lock(&tx, id, LockMode::Update).await?;
            read::load(&tx, id, ctx.today).await
        })
        .await?;
        Ok(tx)
    }
    /// `POST /invoices`: a Draft with no lines, due on the request's `bill_due_date` (by
    /// default `bill_date` + 30 days), created by `ctx.actor`. Client, category (of type
    /// invoice) and project are checked in its one statement (`header::create`).
    pub async fn create_invoice(&self, ctx: Ctx, cmd: &NewInvoice) -> Result<Invoice, StoreError> {
        let tx = self.begin_single().await?;
        let row = header::create(&tx, &SQL, cmd, ctx.actor, self.policy()).await?;
        let invoice = read::decode(&row, ctx.today)?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// `PATCH /invoices/{id}`: as for estimates (`header::update`); the status is kept.
    pub async fn update_invoice(
        &self,
        ctx: Ctx,
        id: InvoiceId,
        cmd: &InvoiceUpdate,
    ) -> Result<Invoice, StoreError> {
        let tx = self.begin_on_invoice(ctx, id).await?;
        header::update(&tx, &SQL, id.get(), cmd, self.policy()).await?;
        let invoice = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// `PUT /invoices/{id}/items`: the complete bill (`items::replace_items`).
    pub async fn replace_invoice_items(
        &self,
        ctx: Ctx,
        id: InvoiceId,
        req: ItemsRequest,
    ) -> Result<Invoice, StoreError> {
        let tx = self.begin_on_invoice(ctx, id).await?;
        items::replace_items(&tx, &SQL, id.get(), req, self.policy()).await?;
        let invoice = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// `DELETE /invoices/{id}`: the invoice with its lines, taxes and tags (cascades) and
    /// its pending queued emails; sent emails stay as history. The estimate it was
    /// converted from is no longer converted (its `converted` is read from `invoices`) and
    /// can be converted again.
    pub async fn delete_invoice(&self, ctx: Ctx, id: InvoiceId) -> Result<(), StoreError> {
        let tx = self.begin_on_invoice(ctx, id).await?;
        header::delete(&tx, &SQL, id.get()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// `PUT /invoices/{id}/status`: stores 1, 2, 4, 5 or 20, from any status.
    pub async fn set_invoice_status(
        &self,
        ctx: Ctx,
        id: InvoiceId,
        cmd: &InvoiceStatusChange,
    ) -> Result<Invoice, StoreError> {
        let tx = self.begin_on_invoice(ctx, id).await?;
        if tx
            .run(SET_STATUS_SQL, &[&id.get(), &cmd.status.id()])
            .await?
            == 0
        {
            return Err(StoreError::NotFound(Resource::Invoice));
        }
        let invoice = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// `PUT /invoices/{id}/tags`: replaces the tags with `tags`, in order.
    pub async fn set_invoice_tags(
        &self,
        ctx: Ctx,
        id: InvoiceId,
        tags: &TagSet,
    ) -> Result<Invoice, StoreError> {
        let tx = self.begin_on_invoice(ctx, id).await?;
        header::set_tags(&tx, &SQL, id.get(), tags, ctx.actor).await?;
        let invoice = read::load(&tx, id, ctx.today).await?;
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
        let invoice = read::load(&tx, copy, ctx.today).await?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// `PUT /invoices/{id}/publish`: a stored Draft becomes Due (409 otherwise) and its
    /// email is queued in the same transaction.
    pub async fn publish_invoice(&self, ctx: Ctx, id: InvoiceId) -> Result<Invoice, StoreError> {
        let tx = self.begin().await?;
        let (stored, _) = lock(&tx, id, LockMode::Update).await?;
        if_match(read::load(&tx, id, ctx.today)).await?;
        let published = invoice::publish(stored)?;
        tx.run(PUBLISH_SQL, &[&id.get(), &published.id()]).await?;
        let invoice = read::load(&tx, id, ctx.today).await?;
        queue_email(&tx, &invoice).await?;
        tx.commit().await?;
        Ok(invoice)
    }

    /// `POST /invoices/{id}/send-email`: queues the invoice's email (409 for a Draft); the
    /// invoice is unchanged.
    pub async fn send_invoice_email(&self, ctx: Ctx, id: InvoiceId) -> Result<Invoice, StoreError> {
        let tx = self.begin().await?;
        let (stored, _) = lock(&tx, id, LockMode::Share).await?;
        invoice::check_send_email(stored)?;
        let invoice = read::load(&tx, id, ctx.today).await?;
        queue_email(&tx, &invoice).await?;
        tx.commit().await?;
        Ok(invoice)
    }
}
