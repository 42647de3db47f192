//! `/api/emails` handlers: the outbox, read-only (API.md §10).

use crm_core::conflict::Resource;
use crm_core::ids::EmailId;
use crm_core::mail::EmailListQuery;

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Email;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(env.store, req.ctx, EmailListQuery::parse(&req.query), None).await?;
    let listed = env.store.list_emails(&query).await?;
    Reply::list(&listed, query.params.page, "Emails retrieved successfully.")
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EmailId::from_path, R)?;
    Reply::ok(&env.store.email(id).await?, "Email retrieved successfully.")
}
