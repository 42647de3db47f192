//! `/api/company` handlers (API.md §17).

use crm_core::company::CompanyUpdate;

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

pub(crate) async fn get(store: &Store, _req: Req<'_>) -> Result<Reply, ApiError> {
    Reply::ok(&store.company().await?, "Company retrieved successfully.")
}

pub(crate) async fn update(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, CompanyUpdate::parse(&req.body), None).await?;
    Reply::ok(
        &store.update_company(req.ctx, &cmd).await?,
        "Company updated successfully.",
    )
}
