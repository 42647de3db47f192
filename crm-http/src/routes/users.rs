//! `/api/users/me` handlers (API.md §17): the key's own user.

use crm_core::user::UserUpdate;

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

pub(crate) async fn me(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    Reply::ok(
        &env.store.me(req.ctx).await?,
        "User retrieved successfully.",
    )
}

pub(crate) async fn update_me(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(env.store, req.ctx, UserUpdate::parse(&req.body), None).await?;
    Reply::ok(
        &env.store.update_me(req.ctx, &cmd).await?,
        "User updated successfully.",
    )
}
