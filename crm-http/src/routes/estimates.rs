//! `/api/estimates` handlers.

use crm_core::bill::ItemsRequest;
use crm_core::conflict::Resource;
use crm_core::estimate::{
    EstimateClone, EstimateListQuery, EstimateUpdate, NewEstimate, StatusChange,
};
use crm_core::ids::EstimateId;
use crm_core::tags::TagSet;

use super::{Req, valid};
use crate::app::App;
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Estimate;

pub(crate) async fn list(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(app, req.ctx, EstimateListQuery::parse(&req.query), None).await?;
    let listed = app.store.list_estimates(req.ctx, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Estimates retrieved successfully.",
    )
}

pub(crate) async fn create(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(app, req.ctx, NewEstimate::parse(&req.body), None).await?;
    Reply::created(
        &app.store.create_estimate(req.ctx, &cmd).await?,
        "Estimate created successfully.",
    )
}

pub(crate) async fn get(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::ok(
        &app.store.estimate(req.ctx, id).await?,
        "Estimate retrieved successfully.",
    )
}

pub(crate) async fn update(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        EstimateUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &app.store.update_estimate(req.ctx, id, &cmd).await?,
        "Estimate updated successfully.",
    )
}

pub(crate) async fn delete(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    app.store.delete_estimate(req.ctx, id).await?;
    Reply::deleted(id.get(), "Estimate deleted successfully.")
}

pub(crate) async fn items(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    // The errors are reported by the store once the estimate's tax mode is known, with
    // those that depend on it (every failing field at once; 404 first).
    let request = ItemsRequest::read(&req.body);
    Reply::ok(
        &app.store
            .replace_estimate_items(req.ctx, id, request)
            .await?,
        "Estimate items updated successfully.",
    )
}

pub(crate) async fn status(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        StatusChange::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &app.store.set_estimate_status(req.ctx, id, &cmd).await?,
        "Estimate status updated successfully.",
    )
}

pub(crate) async fn tags(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    let tags = valid(app, req.ctx, TagSet::parse(&req.body), Some((R, id.get()))).await?;
    Reply::ok(
        &app.store.set_estimate_tags(req.ctx, id, &tags).await?,
        "Estimate tags updated successfully.",
    )
}

pub(crate) async fn clone(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        EstimateClone::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::created(
        &app.store.clone_estimate(req.ctx, id, &cmd).await?,
        "Estimate cloned successfully.",
    )
}

pub(crate) async fn publish(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::ok(
        &app.store.publish_estimate(req.ctx, id).await?,
        "Estimate published successfully.",
    )
}

pub(crate) async fn send_email(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::ok(
        &app.store.send_estimate_email(req.ctx, id).await?,
        "Estimate email queued successfully.",
    )
}

pub(crate) async fn convert(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::created(
        &app.store.convert_estimate(req.ctx, id).await?,
        "Estimate converted to invoice successfully.",
    )
}
