//! `/api/company` handlers (API.md §17).

use crm_core::company::CompanyUpdate;

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

pub(crate) async fn get(env: &Env<'_>, _req: Req<'_>) -> Result<Reply, ApiError> {
    Reply::ok(
        &env.store.company().await?,
        "Company retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(env.store, req.ctx, CompanyUpdate::parse(&req.body), None).await?;
    Reply::ok(
        &env.store.update_company(req.ctx, &cmd).await?,
        "Company updated successfully.",
    )
}
