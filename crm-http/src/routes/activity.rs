//! Activity (API.md §21): `GET /api/activity` and each record's `GET …/{id}/activity`.
//! Reading needs the `activity:read` scope (the route table gives a path ending
//! `/activity` that area).

use crm_core::activity::{ActivityListQuery, ResourceType, record_query};
use crm_core::conflict::Resource;

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const LISTED: &str = "Activity retrieved successfully.";

/// `GET /api/activity`: every entry the filters select.
pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        ActivityListQuery::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.activity(req.ctx, &query).await?;
    Reply::list(&listed, query.params.page, LISTED)
}

/// A record's own activity: the record must exist (and be visible to the key's user);
/// the history of a deleted one is `GET /api/activity?resource_type=…&resource_id=…`.
async fn of_record(
    env: &Env<'_>,
    req: Req<'_>,
    resource: Resource,
    resource_type: ResourceType,
) -> Result<Reply, ApiError> {
    let id = req.id(positive, resource)?;
    let query = valid(
        env.store,
        req.ctx,
        record_query(&req.query, resource_type, id),
        Some((resource, id)),
    )
    .await?;
    if !env.store.exists(req.ctx, resource, id).await? {
        return Err(ApiError::NotFound(resource));
    }
    let listed = env.store.activity(req.ctx, &query).await?;
    Reply::list(&listed, query.params.page, LISTED)
}

/// A path's id: the decimal digits of a positive 64-bit integer.
fn positive(segment: &str) -> Option<i64> {
    crm_core::ids::NoteId::from_path(segment).map(crm_core::ids::NoteId::get)
}

/// `GET …/{id}/activity` of a category.
pub(crate) async fn category(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Category, ResourceType::Category).await
}

/// `GET …/{id}/activity` of a contract.
pub(crate) async fn contract(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Contract, ResourceType::Contract).await
}

/// `GET …/{id}/activity` of an estimate.
pub(crate) async fn estimate(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Estimate, ResourceType::Estimate).await
}

/// `GET …/{id}/activity` of an invoice (with its payments' and credit notes' entries).
pub(crate) async fn invoice(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Invoice, ResourceType::Invoice).await
}

/// `GET …/{id}/activity` of a credit note.
pub(crate) async fn credit_note(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::CreditNote, ResourceType::CreditNote).await
}

/// `GET …/{id}/activity` of a recurring invoice.
pub(crate) async fn recurring_invoice(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(
        env,
        req,
        Resource::RecurringInvoice,
        ResourceType::RecurringInvoice,
    )
    .await
}

/// `GET …/{id}/activity` of a milestone.
pub(crate) async fn milestone(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Milestone, ResourceType::Milestone).await
}

/// `GET …/{id}/activity` of a note.
pub(crate) async fn note(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Note, ResourceType::Note).await
}

/// `GET …/{id}/activity` of a payment.
pub(crate) async fn payment(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Payment, ResourceType::Payment).await
}

/// `GET …/{id}/activity` of a client.
pub(crate) async fn client(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Client, ResourceType::Client).await
}

/// `GET …/{id}/activity` of a tax rate.
pub(crate) async fn tax_rate(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::TaxRate, ResourceType::TaxRate).await
}

/// `GET …/{id}/activity` of a project.
pub(crate) async fn project(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Project, ResourceType::Project).await
}

/// `GET …/{id}/activity` of a webhook endpoint.
pub(crate) async fn webhook(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    of_record(env, req, Resource::Webhook, ResourceType::Webhook).await
}
