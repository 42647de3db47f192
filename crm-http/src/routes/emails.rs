//! `/api/emails` handlers: the outbox, read-only (API.md §10).

use crm_core::conflict::Resource;
use crm_core::ids::EmailId;
use crm_core::mail::EmailListQuery;

use super::{Req, valid};
use crate::app::App;
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Email;

pub(crate) async fn list(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(app, req.ctx, EmailListQuery::parse(&req.query), None).await?;
    let listed = app.store.list_emails(&query).await?;
    Reply::list(&listed, query.params.page, "Emails retrieved successfully.")
}

pub(crate) async fn get(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EmailId::from_path, R)?;
    Reply::ok(&app.store.email(id).await?, "Email retrieved successfully.")
}
