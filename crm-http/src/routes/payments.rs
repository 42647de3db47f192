//! `/api/payments` handlers (API.md §14).

use crm_core::conflict::Resource;
use crm_core::ids::PaymentId;
use crm_core::payment::{NewPayment, PaymentListQuery};

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

const R: Resource = Resource::Payment;

pub(crate) async fn list(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(store, req.ctx, PaymentListQuery::parse(&req.query), None).await?;
    let listed = store.list_payments(req.ctx, &query).await?;
    Reply::list(
        &listed,
        query.params.page,
        "Payments retrieved successfully.",
    )
}

pub(crate) async fn create(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, NewPayment::parse(&req.body), None).await?;
    Reply::created(
        &store.record_payment(req.ctx, &cmd).await?,
        "Payment recorded successfully.",
    )
}

pub(crate) async fn get(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(PaymentId::from_path, R)?;
    Reply::ok(
        &store.payment(req.ctx, id).await?,
        "Payment retrieved successfully.",
    )
}

pub(crate) async fn delete(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(PaymentId::from_path, R)?;
    store.delete_payment(req.ctx, id).await?;
    Reply::deleted(id.get(), "Payment deleted successfully.")
}
