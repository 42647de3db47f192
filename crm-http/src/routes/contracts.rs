//! `/api/contracts` handlers.

use crm_core::conflict::Resource;
use crm_core::contract::{ContractClone, ContractListQuery, ContractUpdate, NewContract};
use crm_core::ids::ContractId;
use crm_core::tags::TagSet;

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Contract;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        ContractListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.list_contracts(req.ctx, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Contracts retrieved successfully.",
    )
}

pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(env.store, req.ctx, NewContract::parse(&req.body), None).await?;
    Reply::created(
        &env.store.create_contract(req.ctx, &cmd).await?,
        "Contract created successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    Reply::ok(
        &env.store.contract(req.ctx, id).await?,
        "Contract retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    let cmd = valid(
        env.store,
        req.ctx,
        ContractUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &env.store.update_contract(req.ctx, id, &cmd).await?,
        "Contract updated successfully.",
    )
}

pub(crate) async fn delete(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    env.store.delete_contract(req.ctx, id).await?;
    Reply::deleted(id.get(), "Contract deleted successfully.")
}

pub(crate) async fn tags(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    let tags = valid(
        env.store,
        req.ctx,
        TagSet::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &env.store.set_contract_tags(req.ctx, id, &tags).await?,
        "Contract tags updated successfully.",
    )
}

pub(crate) async fn clone(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    let cmd = valid(
        env.store,
        req.ctx,
        ContractClone::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::created(
        &env.store.clone_contract(req.ctx, id, &cmd).await?,
        "Contract cloned successfully.",
    )
}
