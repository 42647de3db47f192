//! `/api/tax-rates` handlers (API.md §17).

use crm_core::conflict::Resource;
use crm_core::ids::TaxRateId;
use crm_core::tax_rate::{TaxRateInput, TaxRateListQuery};

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::TaxRate;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        TaxRateListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.list_tax_rates(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Tax rates retrieved successfully.",
    )
}

pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(
        env.store,
        req.ctx,
        TaxRateInput::parse(&req.body, true),
        None,
    )
    .await?;
    Reply::created(
        &env.store.create_tax_rate(req.ctx, &cmd).await?,
        "Tax rate created successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(TaxRateId::from_path, R)?;
    Reply::ok(
        &env.store.tax_rate(id).await?,
        "Tax rate retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(TaxRateId::from_path, R)?;
    let parsed = TaxRateInput::parse(&req.body, false);
    let cmd = valid(env.store, req.ctx, parsed, Some((R, id.get()))).await?;
    Reply::ok(
        &env.store.update_tax_rate(req.ctx, id, &cmd).await?,
        "Tax rate updated successfully.",
    )
}

pub(crate) async fn delete(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(TaxRateId::from_path, R)?;
    env.store.delete_tax_rate(req.ctx, id).await?;
    Reply::deleted(id.get(), "Tax rate deleted successfully.")
}
