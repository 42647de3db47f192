//! The handlers of every kind of bill (`/api/estimates`, `/api/invoices`), written once over
//! the kind: the route table names `bills::create::<EstimateKind>`. The messages name the
//! kind ("Invoice created successfully."); what differs between kinds is the store's and
//! crm-core's.

use crm_core::bill::{BillClone, BillUpdate, ItemsRequest, Kind, ListQueryOf, NewBill};
use crm_core::tags::TagSet;

use super::{Env, Req, valid};
use crate::documents::Shown;
use crate::error::ApiError;
use crate::response::Reply;

/// "`<Kind>` `<what>` successfully.", the kind's message for `what`.
fn said<K: Kind>(what: &str) -> String {
    format!("{} {what} successfully.", K::KIND.title())
}

/// The `{id}` of a request to a bill of kind `K` (a bad one is the kind's 404).
fn id<K: Kind>(req: &Req<'_>) -> Result<K::Id, ApiError> {
    req.id(K::id_from_path, K::RESOURCE)
}

/// The record the request addresses, for a 422's 404-first rule.
fn target<K: Kind>(id: K::Id) -> Option<(crm_core::conflict::Resource, i64)> {
    Some((K::RESOURCE, K::raw(id)))
}

/// `GET /api/<bills>`.
pub(crate) async fn list<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(
        env.store,
        req.ctx,
        ListQueryOf::<K>::parse(&req.query),
        None,
    )
    .await?;
    let listed = env.store.bills::<K>().list(req.ctx, &query).await?;
    let message = format!("{}s retrieved successfully.", K::KIND.title());
    Reply::list(&listed, query.params.page, &message)
}

/// `POST /api/<bills>`.
pub(crate) async fn create<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(env.store, req.ctx, NewBill::<K>::parse(&req.body), None).await?;
    let record = env.store.bills::<K>().create(req.ctx, &cmd).await?;
    Reply::created(&record, &said::<K>("created"))
}

/// `GET /api/<bills>/{id}`.
pub(crate) async fn get<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let record = env.store.bills::<K>().get(req.ctx, id::<K>(&req)?).await?;
    Reply::ok(&record, &said::<K>("retrieved"))
}

/// `PATCH /api/<bills>/{id}`.
pub(crate) async fn update<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = id::<K>(&req)?;
    let parsed = BillUpdate::<K>::parse(&req.body);
    let cmd = valid(env.store, req.ctx, parsed, target::<K>(id)).await?;
    let record = env.store.bills::<K>().update(req.ctx, id, &cmd).await?;
    Reply::ok(&record, &said::<K>("updated"))
}

/// `DELETE /api/<bills>/{id}`.
pub(crate) async fn delete<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = id::<K>(&req)?;
    env.store.bills::<K>().delete(req.ctx, id).await?;
    Reply::deleted(K::raw(id), &said::<K>("deleted"))
}

/// `PUT /api/<bills>/{id}/items`. The errors are reported by the store once the bill's
/// tax mode is known, with those that depend on it (every failing field at once; 404
/// first).
pub(crate) async fn items<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = id::<K>(&req)?;
    let request = ItemsRequest::read(&req.body);
    let record = env
        .store
        .bills::<K>()
        .replace_items(req.ctx, id, request)
        .await?;
    Reply::ok(&record, &said::<K>("items updated"))
}

/// `PUT /api/<bills>/{id}/status`.
pub(crate) async fn status<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = id::<K>(&req)?;
    let cmd = valid(
        env.store,
        req.ctx,
        K::status_change(&req.body),
        target::<K>(id),
    )
    .await?;
    let record = env.store.bills::<K>().set_status(req.ctx, id, &cmd).await?;
    Reply::ok(&record, &said::<K>("status updated"))
}

/// `PUT /api/<bills>/{id}/tags`.
pub(crate) async fn tags<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = id::<K>(&req)?;
    let tags = valid(
        env.store,
        req.ctx,
        TagSet::parse(&req.body),
        target::<K>(id),
    )
    .await?;
    let record = env.store.bills::<K>().set_tags(req.ctx, id, &tags).await?;
    Reply::ok(&record, &said::<K>("tags updated"))
}

/// `POST /api/<bills>/{id}/clone`.
pub(crate) async fn clone<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = id::<K>(&req)?;
    let parsed = BillClone::<K>::parse(&req.body);
    let cmd = valid(env.store, req.ctx, parsed, target::<K>(id)).await?;
    let record = env.store.bills::<K>().clone_bill(req.ctx, id, &cmd).await?;
    Reply::created(&record, &said::<K>("cloned"))
}

/// `PUT /api/<bills>/{id}/publish`: published, and its email composed after the commit.
pub(crate) async fn publish<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = id::<K>(&req)?;
    let letterhead = env.documents.letterhead();
    let emailed = env
        .store
        .bills::<K>()
        .publish(req.ctx, id, letterhead)
        .await?;
    let record = env.documents.compose::<K>(env.store, emailed).await?;
    Reply::ok(&record, &said::<K>("published"))
}

/// `POST /api/<bills>/{id}/send-email`: queued, and composed after the commit.
pub(crate) async fn send_email<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = id::<K>(&req)?;
    let letterhead = env.documents.letterhead();
    let emailed = env
        .store
        .bills::<K>()
        .send_email(req.ctx, id, letterhead)
        .await?;
    let record = env.documents.compose::<K>(env.store, emailed).await?;
    Reply::ok(&record, &said::<K>("email queued"))
}

/// `POST /api/<bills>/{id}/link`.
pub(crate) async fn make_link<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let record = env
        .store
        .bills::<K>()
        .make_link(req.ctx, id::<K>(&req)?)
        .await?;
    Reply::created(&record, &said::<K>("link created"))
}

/// `DELETE /api/<bills>/{id}/link`.
pub(crate) async fn revoke_link<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let record = env
        .store
        .bills::<K>()
        .revoke_link(req.ctx, id::<K>(&req)?)
        .await?;
    Reply::ok(&record, &said::<K>("link revoked"))
}

/// `GET /api/<bills>/{id}/pdf`: rendered once per version, with its `ETag`.
pub(crate) async fn pdf<K: Shown>(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let versioned = env
        .store
        .bills::<K>()
        .versioned(req.ctx.today, id::<K>(&req)?)
        .await?;
    Ok(Reply::pdf(env.documents.pdf(versioned).await?))
}
