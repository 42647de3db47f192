//! `/api/payments` handlers (API.md §14).

use crm_core::conflict::Resource;
use crm_core::ids::PaymentId;
use crm_core::payment::{NewPayment, PaymentListQuery};

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Payment;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        PaymentListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.list_payments(req.ctx, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Payments retrieved successfully.",
    )
}

pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(env.store, req.ctx, NewPayment::parse(&req.body), None).await?;
    Reply::created(
        &env.store.record_payment(req.ctx, &cmd).await?,
        "Payment recorded successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(PaymentId::from_path, R)?;
    Reply::ok(
        &env.store.payment(req.ctx, id).await?,
        "Payment retrieved successfully.",
    )
}

pub(crate) async fn delete(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(PaymentId::from_path, R)?;
    env.store.delete_payment(req.ctx, id).await?;
    Reply::deleted(id.get(), "Payment deleted successfully.")
}
