//! `/api/contracts` handlers.

use crm_core::conflict::Resource;
use crm_core::contract::{ContractClone, ContractListQuery, ContractUpdate, NewContract};
use crm_core::ids::ContractId;
use crm_core::tags::TagSet;

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

const R: Resource = Resource::Contract;

pub(crate) async fn list(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(store, req.ctx, ContractListQuery::parse(&req.query), None).await?;
    let listed = store.list_contracts(req.ctx, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Contracts retrieved successfully.",
    )
}

pub(crate) async fn create(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, NewContract::parse(&req.body), None).await?;
    Reply::created(
        &store.create_contract(req.ctx, &cmd).await?,
        "Contract created successfully.",
    )
}

pub(crate) async fn get(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    Reply::ok(
        &store.contract(req.ctx, id).await?,
        "Contract retrieved successfully.",
    )
}

pub(crate) async fn update(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        ContractUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.update_contract(req.ctx, id, &cmd).await?,
        "Contract updated successfully.",
    )
}

pub(crate) async fn delete(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    store.delete_contract(req.ctx, id).await?;
    Reply::deleted(id.get(), "Contract deleted successfully.")
}

pub(crate) async fn tags(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    let tags = valid(
        store,
        req.ctx,
        TagSet::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.set_contract_tags(req.ctx, id, &tags).await?,
        "Contract tags updated successfully.",
    )
}

pub(crate) async fn clone(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        ContractClone::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::created(
        &store.clone_contract(req.ctx, id, &cmd).await?,
        "Contract cloned successfully.",
    )
}
