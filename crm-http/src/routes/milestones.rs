//! `/api/milestones` handlers.

use crm_core::conflict::Resource;
use crm_core::ids::MilestoneId;
use crm_core::milestone::{
    MilestoneDeletion, MilestoneListQuery, MilestoneReorder, MilestoneUpdate, NewMilestone,
};

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Milestone;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        MilestoneListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.list_milestones(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Milestones retrieved successfully.",
    )
}

pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(env.store, req.ctx, NewMilestone::parse(&req.body), None).await?;
    Reply::created(
        &env.store.create_milestone(req.ctx, &cmd).await?,
        "Milestone created successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(MilestoneId::from_path, R)?;
    Reply::ok(
        &env.store.milestone(id).await?,
        "Milestone retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(MilestoneId::from_path, R)?;
    let cmd = valid(
        env.store,
        req.ctx,
        MilestoneUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &env.store.update_milestone(id, &cmd).await?,
        "Milestone updated successfully.",
    )
}

/// `delete_tasks` may come in the query string or the body.
pub(crate) async fn delete(env: &Env<'_>, mut req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(MilestoneId::from_path, R)?;
    req.body.merge_missing(std::mem::take(&mut req.query));
    env.store
        .delete_milestone(id, MilestoneDeletion::parse(&req.body))
        .await?;
    Reply::deleted(id.get(), "Milestone deleted successfully.")
}

pub(crate) async fn reorder(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(env.store, req.ctx, MilestoneReorder::parse(&req.body), None).await?;
    Reply::ok(
        &env.store.reorder_milestones(&cmd).await?,
        "Milestone positions updated successfully.",
    )
}
