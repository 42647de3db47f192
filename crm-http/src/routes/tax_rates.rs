//! `/api/tax-rates` handlers (API.md §17).

use crm_core::conflict::Resource;
use crm_core::ids::TaxRateId;
use crm_core::tax_rate::{TaxRateInput, TaxRateListQuery};

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

const R: Resource = Resource::TaxRate;

pub(crate) async fn list(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(store, req.ctx, TaxRateListQuery::parse(&req.query), None).await?;
    let listed = store.list_tax_rates(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Tax rates retrieved successfully.",
    )
}

pub(crate) async fn create(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, TaxRateInput::parse(&req.body, true), None).await?;
    Reply::created(
        &store.create_tax_rate(req.ctx, &cmd).await?,
        "Tax rate created successfully.",
    )
}

pub(crate) async fn get(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(TaxRateId::from_path, R)?;
    Reply::ok(
        &store.tax_rate(id).await?,
        "Tax rate retrieved successfully.",
    )
}

pub(crate) async fn update(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(TaxRateId::from_path, R)?;
    let parsed = TaxRateInput::parse(&req.body, false);
    let cmd = valid(store, req.ctx, parsed, Some((R, id.get()))).await?;
    Reply::ok(
        &store.update_tax_rate(req.ctx, id, &cmd).await?,
        "Tax rate updated successfully.",
    )
}

pub(crate) async fn delete(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(TaxRateId::from_path, R)?;
    store.delete_tax_rate(req.ctx, id).await?;
    Reply::deleted(id.get(), "Tax rate deleted successfully.")
}
