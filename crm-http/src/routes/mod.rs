//! Handlers: each one parses (crm-core), calls the store, and answers. No rules here.

mod categories;
mod contracts;
mod estimates;
mod milestones;
mod notes;

use crm_core::conflict::Resource;
use crm_core::input::RawMap;
use crm_core::validation::Rejected;
use crm_store_pg::Ctx;
use http::StatusCode;
use percent_encoding::percent_decode_str;

use crate::app::App;
use crate::error::ApiError;
use crate::response::Reply;
use crate::router::Endpoint;

/// A request as handlers see it.
#[derive(Debug)]
pub(crate) struct Req<'a> {
    /// Who acts, and today's date.
    pub ctx: Ctx,
    /// The `{id}` path segment, if the route has one.
    pub id: Option<&'a str>,
    /// The query string.
    pub query: RawMap,
    /// The body (empty for GET).
    pub body: RawMap,
}

impl Req<'_> {
    /// The `{id}` as a `T`, percent-decoded first (`%31` is `1`, as Laravel reads it); a
    /// non-numeric or out-of-range id is the resource's 404.
    pub(crate) fn id<T>(
        &self,
        parse: fn(&str) -> Option<T>,
        resource: Resource,
    ) -> Result<T, ApiError> {
        self.id
            .and_then(|raw| percent_decode_str(raw).decode_utf8().ok())
            .and_then(|id| parse(&id))
            .ok_or(ApiError::NotFound(resource))
    }
}

/// Turns a parse result into the command, or the 422 that lists every failing field: the
/// references that did parse are checked too, so "The selected doc client id is invalid."
/// comes with "The doc title field is required.". When the request addresses a record
/// (`target`) that does not exist, 404 wins, as in the CRM.
pub(crate) async fn valid<T>(
    app: &App,
    ctx: Ctx,
    parsed: Result<T, Rejected>,
    target: Option<(Resource, i64)>,
) -> Result<T, ApiError> {
    let rejected = match parsed {
        Ok(command) => return Ok(command),
        Err(rejected) => rejected,
    };
    if let Some((resource, id)) = target
        && !app.store.exists(ctx, resource, id).await?
    {
        return Err(ApiError::NotFound(resource));
    }
    let mut errors = rejected.errors;
    if let Ok(more) = app.store.check_references(&rejected.references).await {
        errors.merge(more);
    }
    Err(ApiError::Invalid(errors))
}

/// `GET /healthz`: 200 when the database answers, else 503.
pub(crate) async fn health(app: &App) -> Result<Reply, ApiError> {
    app.store.ping().await?;
    Ok(Reply {
        status: StatusCode::OK,
        body: br#"{"status":"ok"}"#.to_vec(),
    })
}

/// `GET /api/openapi.json`.
pub(crate) fn openapi() -> Result<Reply, ApiError> {
    Ok(Reply {
        status: StatusCode::OK,
        body: crate::openapi::DOCUMENT.as_bytes().to_vec(),
    })
}

/// Runs the endpoint's handler.
pub(crate) async fn dispatch(
    endpoint: Endpoint,
    app: &App,
    req: Req<'_>,
) -> Result<Reply, ApiError> {
    use Endpoint as E;
    match endpoint {
        E::Health => health(app).await,
        E::OpenApi => openapi(),
        E::ListCategories => categories::list(app, req).await,
        E::CreateCategory => categories::create(app, req).await,
        E::GetCategory => categories::get(app, req).await,
        E::UpdateCategory => categories::update(app, req).await,
        E::DeleteCategory => categories::delete(app, req).await,
        E::SetCategoryTeam => categories::team(app, req).await,
        E::MigrateCategory => categories::migrate(app, req).await,
        E::ListContracts => contracts::list(app, req).await,
        E::CreateContract => contracts::create(app, req).await,
        E::GetContract => contracts::get(app, req).await,
        E::UpdateContract => contracts::update(app, req).await,
        E::DeleteContract => contracts::delete(app, req).await,
        E::SetContractTags => contracts::tags(app, req).await,
        E::CloneContract => contracts::clone(app, req).await,
        E::ListEstimates => estimates::list(app, req).await,
        E::CreateEstimate => estimates::create(app, req).await,
        E::GetEstimate => estimates::get(app, req).await,
        E::UpdateEstimate => estimates::update(app, req).await,
        E::DeleteEstimate => estimates::delete(app, req).await,
        E::SetEstimateItems => estimates::items(app, req).await,
        E::SetEstimateStatus => estimates::status(app, req).await,
        E::SetEstimateTags => estimates::tags(app, req).await,
        E::CloneEstimate => estimates::clone(app, req).await,
        E::PublishEstimate => estimates::publish(app, req).await,
        E::SendEstimateEmail => estimates::send_email(app, req).await,
        E::ConvertEstimate => estimates::convert(app, req).await,
        E::ListMilestones => milestones::list(app, req).await,
        E::CreateMilestone => milestones::create(app, req).await,
        E::GetMilestone => milestones::get(app, req).await,
        E::UpdateMilestone => milestones::update(app, req).await,
        E::DeleteMilestone => milestones::delete(app, req).await,
        E::ReorderMilestones => milestones::reorder(app, req).await,
        E::ListNotes => notes::list(app, req).await,
        E::CreateNote => notes::create(app, req).await,
        E::GetNote => notes::get(app, req).await,
        E::UpdateNote => notes::update(app, req).await,
        E::DeleteNote => notes::delete(app, req).await,
        E::SetNoteTags => notes::tags(app, req).await,
    }
}
