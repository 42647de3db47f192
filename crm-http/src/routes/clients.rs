//! `/api/clients` handlers (API.md §17).

use crm_core::client::{ClientInput, ClientListQuery};
use crm_core::conflict::Resource;
use crm_core::ids::ClientId;

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

const R: Resource = Resource::Client;

pub(crate) async fn list(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(store, req.ctx, ClientListQuery::parse(&req.query), None).await?;
    let listed = store.list_clients(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Clients retrieved successfully.",
    )
}

pub(crate) async fn create(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, ClientInput::parse(&req.body, true), None).await?;
    Reply::created(
        &store.create_client(req.ctx, &cmd).await?,
        "Client created successfully.",
    )
}

pub(crate) async fn get(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ClientId::from_path, R)?;
    Reply::ok(&store.client(id).await?, "Client retrieved successfully.")
}

pub(crate) async fn update(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ClientId::from_path, R)?;
    let parsed = ClientInput::parse(&req.body, false);
    let cmd = valid(store, req.ctx, parsed, Some((R, id.get()))).await?;
    Reply::ok(
        &store.update_client(req.ctx, id, &cmd).await?,
        "Client updated successfully.",
    )
}

pub(crate) async fn delete(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ClientId::from_path, R)?;
    store.delete_client(req.ctx, id).await?;
    Reply::deleted(id.get(), "Client deleted successfully.")
}
