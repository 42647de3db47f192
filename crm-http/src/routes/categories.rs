//! `/api/categories` handlers.

use crm_core::category::{
    CategoryListQuery, CategoryMigration, CategoryTeam, CategoryUpdate, NewCategory,
};
use crm_core::conflict::Resource;
use crm_core::ids::CategoryId;

use super::{Req, valid};
use crate::app::App;
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Category;

pub(crate) async fn list(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(app, req.ctx, CategoryListQuery::parse(&req.query), None).await?;
    let listed = app.store.list_categories(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Categories retrieved successfully.",
    )
}

pub(crate) async fn create(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(app, req.ctx, NewCategory::parse(&req.body), None).await?;
    Reply::created(
        &app.store.create_category(req.ctx, &cmd).await?,
        "Category created successfully.",
    )
}

pub(crate) async fn get(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    Reply::ok(
        &app.store.category(id).await?,
        "Category retrieved successfully.",
    )
}

pub(crate) async fn update(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        CategoryUpdate::parse(&req.body, id),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &app.store.update_category(id, &cmd).await?,
        "Category updated successfully.",
    )
}

pub(crate) async fn delete(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    app.store.delete_category(id).await?;
    Reply::deleted(id.get(), "Category deleted successfully.")
}

pub(crate) async fn team(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        CategoryTeam::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &app.store.set_category_team(id, &cmd).await?,
        "Category team updated successfully.",
    )
}

pub(crate) async fn migrate(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        CategoryMigration::parse(&req.body, id),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &app.store.migrate_category(id, &cmd).await?,
        "Category resources migrated successfully.",
    )
}
