//! Credit notes (API.md §18): `POST /api/invoices/{id}/credit-notes` issues one; the
//! `/api/credit-notes` routes read, list, render, email and link them. Nothing changes or
//! deletes a credit note.

use crm_core::conflict::Resource;
use crm_core::credit_note::{CreditNoteListQuery, NewCreditNote};
use crm_core::ids::{CreditNoteId, InvoiceId};

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::CreditNote;

/// `POST /api/invoices/{id}/credit-notes`: the invoice's 404 first, then the request's 422.
pub(crate) async fn issue(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let invoice = req.id(InvoiceId::from_path, Resource::Invoice)?;
    let target = Some((Resource::Invoice, invoice.get()));
    let cmd = valid(env.store, req.ctx, NewCreditNote::parse(&req.body), target).await?;
    let note = env.store.issue_credit_note(req.ctx, invoice, &cmd).await?;
    Reply::created(&note, "Credit note issued successfully.")
}

/// `GET /api/credit-notes`.
pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        CreditNoteListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.list_credit_notes(req.ctx, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Credit notes retrieved successfully.",
    )
}

/// `GET /api/credit-notes/{id}`.
pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CreditNoteId::from_path, R)?;
    Reply::ok(
        &env.store.credit_note(req.ctx, id).await?,
        "Credit note retrieved successfully.",
    )
}

/// `GET /api/credit-notes/{id}/pdf`: rendered once per version, with its `ETag`.
pub(crate) async fn pdf(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CreditNoteId::from_path, R)?;
    let pdf = env
        .documents
        .credit_note_pdf(env.store, id, req.ctx.today)
        .await?;
    Ok(Reply::pdf(pdf))
}

/// `POST /api/credit-notes/{id}/send-email`: queued, and composed after the commit.
pub(crate) async fn send_email(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CreditNoteId::from_path, R)?;
    let letterhead = env.documents.letterhead();
    let emailed = env
        .store
        .send_credit_note_email(req.ctx, id, letterhead)
        .await?;
    let note = env
        .documents
        .compose_credit_note(env.store, emailed)
        .await?;
    Reply::ok(&note, "Credit note email queued successfully.")
}

/// `POST /api/credit-notes/{id}/link`.
pub(crate) async fn make_link(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CreditNoteId::from_path, R)?;
    Reply::created(
        &env.store.make_credit_note_link(req.ctx, id).await?,
        "Credit note link created successfully.",
    )
}

/// `DELETE /api/credit-notes/{id}/link`.
pub(crate) async fn revoke_link(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CreditNoteId::from_path, R)?;
    Reply::ok(
        &env.store.revoke_credit_note_link(req.ctx, id).await?,
        "Credit note link revoked successfully.",
    )
}
