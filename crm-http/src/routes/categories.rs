//! `/api/categories` handlers.

use crm_core::category::{
    CategoryListQuery, CategoryMigration, CategoryTeam, CategoryUpdate, NewCategory,
};
use crm_core::conflict::Resource;
use crm_core::ids::CategoryId;

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Category;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        CategoryListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.list_categories(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Categories retrieved successfully.",
    )
}

pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(env.store, req.ctx, NewCategory::parse(&req.body), None).await?;
    Reply::created(
        &env.store.create_category(req.ctx, &cmd).await?,
        "Category created successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    Reply::ok(
        &env.store.category(id).await?,
        "Category retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    let cmd = valid(
        env.store,
        req.ctx,
        CategoryUpdate::parse(&req.body, id),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &env.store.update_category(id, &cmd).await?,
        "Category updated successfully.",
    )
}

pub(crate) async fn delete(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    env.store.delete_category(id).await?;
    Reply::deleted(id.get(), "Category deleted successfully.")
}

pub(crate) async fn team(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    let cmd = valid(
        env.store,
        req.ctx,
        CategoryTeam::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &env.store.set_category_team(id, &cmd).await?,
        "Category team updated successfully.",
    )
}

pub(crate) async fn migrate(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    let cmd = valid(
        env.store,
        req.ctx,
        CategoryMigration::parse(&req.body, id),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &env.store.migrate_category(id, &cmd).await?,
        "Category resources migrated successfully.",
    )
}
