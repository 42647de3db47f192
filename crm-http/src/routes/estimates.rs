//! `/api/estimates`'s own handler: converting one to an invoice. Everything else an
//! estimate does is every bill's ([`super::bills`]).

use crm_core::conflict::Resource;
use crm_core::ids::EstimateId;

use super::{Env, Req};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Estimate;

/// `POST /api/estimates/{id}/convert-to-invoice`.
pub(crate) async fn convert(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(EstimateId::from_path, R)?;
    Reply::created(
        &env.store.convert_estimate(req.ctx, id).await?,
        "Estimate converted to invoice successfully.",
    )
}
