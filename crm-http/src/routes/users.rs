//! `/api/users/me` handlers (API.md §17): the key's own user.

use crm_core::user::UserUpdate;

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

pub(crate) async fn me(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    Reply::ok(&store.me(req.ctx).await?, "User retrieved successfully.")
}

pub(crate) async fn update_me(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, UserUpdate::parse(&req.body), None).await?;
    Reply::ok(
        &store.update_me(req.ctx, &cmd).await?,
        "User updated successfully.",
    )
}
