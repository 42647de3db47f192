//! `/api/contracts` handlers.

use crm_core::conflict::Resource;
use crm_core::contract::{ContractClone, ContractListQuery, ContractUpdate, NewContract};
use crm_core::ids::ContractId;
use crm_core::tags::TagSet;

use super::{Req, valid};
use crate::app::App;
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Contract;

pub(crate) async fn list(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(app, req.ctx, ContractListQuery::parse(&req.query), None).await?;
    let listed = app.store.list_contracts(req.ctx, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Contracts retrieved successfully.",
    )
}

pub(crate) async fn create(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(app, req.ctx, NewContract::parse(&req.body), None).await?;
    Reply::created(
        &app.store.create_contract(req.ctx, &cmd).await?,
        "Contract created successfully.",
    )
}

pub(crate) async fn get(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    Reply::ok(
        &app.store.contract(req.ctx, id).await?,
        "Contract retrieved successfully.",
    )
}

pub(crate) async fn update(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        ContractUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &app.store.update_contract(req.ctx, id, &cmd).await?,
        "Contract updated successfully.",
    )
}

pub(crate) async fn delete(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    app.store.delete_contract(req.ctx, id).await?;
    Reply::deleted(id.get(), "Contract deleted successfully.")
}

pub(crate) async fn tags(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    let tags = valid(app, req.ctx, TagSet::parse(&req.body), Some((R, id.get()))).await?;
    Reply::ok(
        &app.store.set_contract_tags(req.ctx, id, &tags).await?,
        "Contract tags updated successfully.",
    )
}

pub(crate) async fn clone(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ContractId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        ContractClone::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::created(
        &app.store.clone_contract(req.ctx, id, &cmd).await?,
        "Contract cloned successfully.",
    )
}
