//! `/api/webhooks` handlers (API.md §13): endpoints, their secret, a test event, and
//! their delivery history.

use crm_core::conflict::Resource;
use crm_core::ids::{WebhookDeliveryId, WebhookId};
use crm_core::webhook::{DeliveryListQuery, NewWebhook, WebhookListQuery, WebhookUpdate};

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Webhook;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        WebhookListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.list_webhooks(&query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Webhooks retrieved successfully.",
    )
}

pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let rules = env.store.webhook_rules();
    let cmd = valid(
        env.store,
        req.ctx,
        NewWebhook::parse(&req.body, rules),
        None,
    )
    .await?;
    Reply::created(
        &env.store.create_webhook(req.key, &cmd).await?,
        "Webhook created successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(WebhookId::from_path, R)?;
    Reply::ok(
        &env.store.webhook(id).await?,
        "Webhook retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(WebhookId::from_path, R)?;
    let rules = env.store.webhook_rules();
    let cmd = valid(
        env.store,
        req.ctx,
        WebhookUpdate::parse(&req.body, rules),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &env.store.update_webhook(req.key, id, &cmd).await?,
        "Webhook updated successfully.",
    )
}

pub(crate) async fn delete(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(WebhookId::from_path, R)?;
    env.store.delete_webhook(id).await?;
    Reply::deleted(id.get(), "Webhook deleted successfully.")
}

pub(crate) async fn rotate_secret(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(WebhookId::from_path, R)?;
    Reply::ok(
        &env.store.rotate_webhook_secret(id).await?,
        "Webhook secret rotated successfully.",
    )
}

pub(crate) async fn test(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(WebhookId::from_path, R)?;
    Reply::created(
        &env.store.test_webhook(id).await?,
        "Test event queued successfully.",
    )
}

pub(crate) async fn deliveries(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(WebhookId::from_path, R)?;
    let query = valid(
        env.store,
        req.ctx,
        DeliveryListQuery::parse(&req.query),
        Some((R, id.get())),
    )
    .await?;
    let listed = env.store.webhook_deliveries(id, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Deliveries retrieved successfully.",
    )
}

pub(crate) async fn retry_delivery(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(WebhookId::from_path, R)?;
    let delivery = req.sub_id(WebhookDeliveryId::from_path, Resource::WebhookDelivery)?;
    Reply::ok(
        &env.store.retry_webhook_delivery(id, delivery).await?,
        "Delivery queued successfully.",
    )
}
