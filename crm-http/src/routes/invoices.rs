//! `/api/invoices` handlers (API.md §9).

use crm_core::bill::ItemsRequest;
use crm_core::conflict::Resource;
use crm_core::ids::InvoiceId;
use crm_core::invoice::{
    InvoiceClone, InvoiceListQuery, InvoiceStatusChange, InvoiceUpdate, NewInvoice,
};
use crm_core::tags::TagSet;

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

const R: Resource = Resource::Invoice;

pub(crate) async fn list(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(store, req.ctx, InvoiceListQuery::parse(&req.query), None).await?;
    let listed = store.list_invoices(req.ctx, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Invoices retrieved successfully.",
    )
}

pub(crate) async fn create(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, NewInvoice::parse(&req.body), None).await?;
    Reply::created(
        &store.create_invoice(req.ctx, &cmd).await?,
        "Invoice created successfully.",
    )
}

pub(crate) async fn get(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    Reply::ok(
        &store.invoice(req.ctx, id).await?,
        "Invoice retrieved successfully.",
    )
}

pub(crate) async fn update(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        InvoiceUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.update_invoice(req.ctx, id, &cmd).await?,
        "Invoice updated successfully.",
    )
}

pub(crate) async fn delete(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    store.delete_invoice(req.ctx, id).await?;
    Reply::deleted(id.get(), "Invoice deleted successfully.")
}

pub(crate) async fn items(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    // As for estimates: the errors are reported by the store once the tax mode is known.
    let request = ItemsRequest::read(&req.body);
    Reply::ok(
        &store.replace_invoice_items(req.ctx, id, request).await?,
        "Invoice items updated successfully.",
    )
}

pub(crate) async fn status(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        InvoiceStatusChange::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.set_invoice_status(req.ctx, id, &cmd).await?,
        "Invoice status updated successfully.",
    )
}

pub(crate) async fn tags(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    let tags = valid(
        store,
        req.ctx,
        TagSet::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.set_invoice_tags(req.ctx, id, &tags).await?,
        "Invoice tags updated successfully.",
    )
}

pub(crate) async fn clone(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        InvoiceClone::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::created(
        &store.clone_invoice(req.ctx, id, &cmd).await?,
        "Invoice cloned successfully.",
    )
}

pub(crate) async fn publish(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    Reply::ok(
        &store.publish_invoice(req.ctx, id).await?,
        "Invoice published successfully.",
    )
}

pub(crate) async fn send_email(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    Reply::ok(
        &store.send_invoice_email(req.ctx, id).await?,
        "Invoice email queued successfully.",
    )
}

pub(crate) async fn make_link(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    Reply::created(
        &store.make_invoice_link(req.ctx, id).await?,
        "Invoice link created successfully.",
    )
}

pub(crate) async fn revoke_link(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    Reply::ok(
        &store.revoke_invoice_link(req.ctx, id).await?,
        "Invoice link revoked successfully.",
    )
}

pub(crate) async fn pdf(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, R)?;
    Ok(Reply::pdf(store.invoice_pdf(req.ctx, id).await?))
}
