//! `/api/projects` handlers (API.md §17).

use crm_core::conflict::Resource;
use crm_core::ids::ProjectId;
use crm_core::project::{ProjectInput, ProjectListQuery};

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Project;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        ProjectListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.list_projects(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Projects retrieved successfully.",
    )
}

pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(
        env.store,
        req.ctx,
        ProjectInput::parse(&req.body, true),
        None,
    )
    .await?;
    Reply::created(
        &env.store.create_project(req.ctx, &cmd).await?,
        "Project created successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ProjectId::from_path, R)?;
    Reply::ok(
        &env.store.project(id).await?,
        "Project retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ProjectId::from_path, R)?;
    let parsed = ProjectInput::parse(&req.body, false);
    let cmd = valid(env.store, req.ctx, parsed, Some((R, id.get()))).await?;
    Reply::ok(
        &env.store.update_project(req.ctx, id, &cmd).await?,
        "Project updated successfully.",
    )
}

pub(crate) async fn delete(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(ProjectId::from_path, R)?;
    env.store.delete_project(req.ctx, id).await?;
    Reply::deleted(id.get(), "Project deleted successfully.")
}
