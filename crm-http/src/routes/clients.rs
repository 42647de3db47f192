//! `/api/clients` handlers (API.md §17).

use crm_core::client::{ClientInput, ClientListQuery};
use crm_core::conflict::Resource;
use crm_core::ids::ClientId;

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Client;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(env.store, req.ctx, ClientListQuery::parse(&req.query), None).await?;
    let listed = env.store.list_clients(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Clients retrieved successfully.",
    )
}

pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(
        env.store,
        req.ctx,
        ClientInput::parse(&req.body, true),
        None,
    )
    .await?;
    Reply::created(
        &env.store.create_client(req.ctx, &cmd).await?,
        "Client created successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ClientId::from_path, R)?;
    Reply::ok(
        &env.store.client(id).await?,
        "Client retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ClientId::from_path, R)?;
    let parsed = ClientInput::parse(&req.body, false);
    let cmd = valid(env.store, req.ctx, parsed, Some((R, id.get()))).await?;
    Reply::ok(
        &env.store.update_client(req.ctx, id, &cmd).await?,
        "Client updated successfully.",
    )
}

pub(crate) async fn delete(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ClientId::from_path, R)?;
    env.store.delete_client(req.ctx, id).await?;
    Reply::deleted(id.get(), "Client deleted successfully.")
}
