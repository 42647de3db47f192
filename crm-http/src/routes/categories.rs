//! `/api/categories` handlers.

use crm_core::category::{
    CategoryListQuery, CategoryMigration, CategoryTeam, CategoryUpdate, NewCategory,
};
use crm_core::conflict::Resource;
use crm_core::ids::CategoryId;

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

const R: Resource = Resource::Category;

pub(crate) async fn list(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(store, req.ctx, CategoryListQuery::parse(&req.query), None).await?;
    let listed = store.list_categories(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Categories retrieved successfully.",
    )
}

pub(crate) async fn create(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, NewCategory::parse(&req.body), None).await?;
    Reply::created(
        &store.create_category(req.ctx, &cmd).await?,
        "Category created successfully.",
    )
}

pub(crate) async fn get(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    Reply::ok(
        &store.category(id).await?,
        "Category retrieved successfully.",
    )
}

pub(crate) async fn update(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        CategoryUpdate::parse(&req.body, id),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.update_category(id, &cmd).await?,
        "Category updated successfully.",
    )
}

pub(crate) async fn delete(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    store.delete_category(id).await?;
    Reply::deleted(id.get(), "Category deleted successfully.")
}

pub(crate) async fn team(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        CategoryTeam::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.set_category_team(id, &cmd).await?,
        "Category team updated successfully.",
    )
}

pub(crate) async fn migrate(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CategoryId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        CategoryMigration::parse(&req.body, id),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.migrate_category(id, &cmd).await?,
        "Category resources migrated successfully.",
    )
}
