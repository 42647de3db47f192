//! `/api/milestones` handlers.

use crm_core::conflict::Resource;
use crm_core::ids::MilestoneId;
use crm_core::milestone::{
    MilestoneDeletion, MilestoneListQuery, MilestoneReorder, MilestoneUpdate, NewMilestone,
};

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

const R: Resource = Resource::Milestone;

pub(crate) async fn list(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(store, req.ctx, MilestoneListQuery::parse(&req.query), None).await?;
    let listed = store.list_milestones(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Milestones retrieved successfully.",
    )
}

pub(crate) async fn create(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, NewMilestone::parse(&req.body), None).await?;
    Reply::created(
        &store.create_milestone(req.ctx, &cmd).await?,
        "Milestone created successfully.",
    )
}

pub(crate) async fn get(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(MilestoneId::from_path, R)?;
    Reply::ok(
        &store.milestone(id).await?,
        "Milestone retrieved successfully.",
    )
}

pub(crate) async fn update(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(MilestoneId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        MilestoneUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.update_milestone(id, &cmd).await?,
        "Milestone updated successfully.",
    )
}

/// `delete_tasks` may come in the query string or the body.
pub(crate) async fn delete(store: &Store, mut req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(MilestoneId::from_path, R)?;
    req.body.merge_missing(std::mem::take(&mut req.query));
    store
        .delete_milestone(id, MilestoneDeletion::parse(&req.body))
        .await?;
    Reply::deleted(id.get(), "Milestone deleted successfully.")
}

pub(crate) async fn reorder(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, MilestoneReorder::parse(&req.body), None).await?;
    Reply::ok(
        &store.reorder_milestones(&cmd).await?,
        "Milestone positions updated successfully.",
    )
}
