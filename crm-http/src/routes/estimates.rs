//! `/api/estimates` handlers.

use crm_core::bill::ItemsRequest;
use crm_core::conflict::Resource;
use crm_core::estimate::{
    EstimateClone, EstimateListQuery, EstimateUpdate, NewEstimate, StatusChange,
};
use crm_core::ids::EstimateId;
use crm_core::tags::TagSet;

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

const R: Resource = Resource::Estimate;

pub(crate) async fn list(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(store, req.ctx, EstimateListQuery::parse(&req.query), None).await?;
    let listed = store.list_estimates(req.ctx, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Estimates retrieved successfully.",
    )
}

pub(crate) async fn create(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, NewEstimate::parse(&req.body), None).await?;
    Reply::created(
        &store.create_estimate(req.ctx, &cmd).await?,
        "Estimate created successfully.",
    )
}

pub(crate) async fn get(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::ok(
        &store.estimate(req.ctx, id).await?,
        "Estimate retrieved successfully.",
    )
}

pub(crate) async fn update(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        EstimateUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.update_estimate(req.ctx, id, &cmd).await?,
        "Estimate updated successfully.",
    )
}

pub(crate) async fn delete(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    store.delete_estimate(req.ctx, id).await?;
    Reply::deleted(id.get(), "Estimate deleted successfully.")
}

pub(crate) async fn items(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    // The errors are reported by the store once the estimate's tax mode is known, with
    // those that depend on it (every failing field at once; 404 first).
    let request = ItemsRequest::read(&req.body);
    Reply::ok(
        &store.replace_estimate_items(req.ctx, id, request).await?,
        "Estimate items updated successfully.",
    )
}

pub(crate) async fn status(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        StatusChange::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.set_estimate_status(req.ctx, id, &cmd).await?,
        "Estimate status updated successfully.",
    )
}

pub(crate) async fn tags(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    let tags = valid(
        store,
        req.ctx,
        TagSet::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.set_estimate_tags(req.ctx, id, &tags).await?,
        "Estimate tags updated successfully.",
    )
}

pub(crate) async fn clone(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        EstimateClone::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::created(
        &store.clone_estimate(req.ctx, id, &cmd).await?,
        "Estimate cloned successfully.",
    )
}

pub(crate) async fn publish(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::ok(
        &store.publish_estimate(req.ctx, id).await?,
        "Estimate published successfully.",
    )
}

pub(crate) async fn send_email(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::ok(
        &store.send_estimate_email(req.ctx, id).await?,
        "Estimate email queued successfully.",
    )
}

pub(crate) async fn convert(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::created(
        &store.convert_estimate(req.ctx, id).await?,
        "Estimate converted to invoice successfully.",
    )
}

pub(crate) async fn make_link(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::created(
        &store.make_estimate_link(req.ctx, id).await?,
        "Estimate link created successfully.",
    )
}

pub(crate) async fn revoke_link(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::ok(
        &store.revoke_estimate_link(req.ctx, id).await?,
        "Estimate link revoked successfully.",
    )
}

pub(crate) async fn pdf(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Ok(Reply::pdf(store.estimate_pdf(req.ctx, id).await?))
}
