//! `/api/recurring-invoices` handlers (API.md §20).

use crm_core::conflict::Resource;
use crm_core::ids::RecurringInvoiceId;
use crm_core::invoice::InvoiceListQuery;
use crm_core::recurring::{RecurringInput, RecurringListQuery};

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::RecurringInvoice;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        RecurringListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.list_recurring_invoices(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Recurring invoices retrieved successfully.",
    )
}

/// The schedule's fields and its template are checked together in the store (the
/// template by making its invoice), so the input is passed on whole.
pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let input = RecurringInput::parse(&req.body, true);
    Reply::created(
        &env.store.create_recurring_invoice(req.ctx, &input).await?,
        "Recurring invoice created successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(RecurringInvoiceId::from_path, R)?;
    Reply::ok(
        &env.store.recurring_invoice(id).await?,
        "Recurring invoice retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(RecurringInvoiceId::from_path, R)?;
    let input = RecurringInput::parse(&req.body, false);
    Reply::ok(
        &env.store
            .update_recurring_invoice(req.ctx, id, &input)
            .await?,
        "Recurring invoice updated successfully.",
    )
}

pub(crate) async fn delete(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(RecurringInvoiceId::from_path, R)?;
    env.store.delete_recurring_invoice(req.ctx, id).await?;
    Reply::deleted(id.get(), "Recurring invoice deleted successfully.")
}

pub(crate) async fn invoices(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(RecurringInvoiceId::from_path, R)?;
    let query = valid(
        env.store,
        req.ctx,
        InvoiceListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env
        .store
        .recurring_invoices_made(req.ctx, id, &query)
        .await?;
    Reply::list(
        &listed,
        query.params.page,
        "Invoices retrieved successfully.",
    )
}
