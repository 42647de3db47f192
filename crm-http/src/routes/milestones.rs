//! `/api/milestones` handlers.

use crm_core::conflict::Resource;
use crm_core::ids::MilestoneId;
use crm_core::milestone::{
    MilestoneDeletion, MilestoneListQuery, MilestoneReorder, MilestoneUpdate, NewMilestone,
};

use super::{Req, valid};
use crate::app::App;
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Milestone;

pub(crate) async fn list(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(app, req.ctx, MilestoneListQuery::parse(&req.query), None).await?;
    let listed = app.store.list_milestones(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Milestones retrieved successfully.",
    )
}

pub(crate) async fn create(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(app, req.ctx, NewMilestone::parse(&req.body), None).await?;
    Reply::created(
        &app.store.create_milestone(req.ctx, &cmd).await?,
        "Milestone created successfully.",
    )
}

pub(crate) async fn get(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(MilestoneId::from_path, R)?;
    Reply::ok(
        &app.store.milestone(id).await?,
        "Milestone retrieved successfully.",
    )
}

pub(crate) async fn update(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(MilestoneId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        MilestoneUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &app.store.update_milestone(id, &cmd).await?,
        "Milestone updated successfully.",
    )
}

/// `delete_tasks` may come in the query string or the body.
pub(crate) async fn delete(app: &App, mut req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(MilestoneId::from_path, R)?;
    req.body.merge_missing(std::mem::take(&mut req.query));
    app.store
        .delete_milestone(id, MilestoneDeletion::parse(&req.body))
        .await?;
    Reply::deleted(id.get(), "Milestone deleted successfully.")
}

pub(crate) async fn reorder(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(app, req.ctx, MilestoneReorder::parse(&req.body), None).await?;
    Reply::ok(
        &app.store.reorder_milestones(&cmd).await?,
        "Milestone positions updated successfully.",
    )
}
