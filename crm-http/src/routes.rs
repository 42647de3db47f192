//! Handlers: each one parses (crm-core), calls the store, and answers. No rules here. The
//! route table (`crate::router`) names the handler of every endpoint.

pub(crate) mod categories;
pub(crate) mod contracts;
pub(crate) mod docs;
pub(crate) mod emails;
pub(crate) mod estimates;
pub(crate) mod invoices;
pub(crate) mod milestones;
pub(crate) mod notes;

use crm_core::conflict::Resource;
use crm_core::input::RawMap;
use crm_core::validation::Rejected;
use crm_store_pg::Ctx;
use http::StatusCode;
use percent_encoding::percent_decode_str;

use crate::app::App;
use crate::error::ApiError;
use crate::response::Reply;

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

/// What `GET /` answers: where the reference, the description and the health checks are.
/// The links are relative to `/`, so they hold behind a proxy that mounts the service under
/// a path prefix.
const INDEX: &str = concat!(
    r#"{"name":"CRM business-records API","version":""#,
    env!("CARGO_PKG_VERSION"),
    r#"","message":"Requests under /api need an API key: Authorization: Bearer <key> "#,
    r#"(made with `crm keys create`). The links are relative to this address.","#,
    r#""links":{"reference":"docs","openapi":"api/openapi.json","health":"healthz","#,
    r#""ready":"readyz"}}"#
);

/// `GET /`: where to start (public: it holds no data), instead of a bare 404.
pub(crate) async fn index(_app: &App) -> Result<Reply, ApiError> {
    Ok(Reply::json(StatusCode::OK, INDEX.as_bytes().to_vec()))
}

/// `GET /healthz`: 200 when the database answers, else 503.
pub(crate) async fn health(app: &App) -> Result<Reply, ApiError> {
    app.store.ping().await.map_err(not_answering)?;
    Ok(Reply::json(StatusCode::OK, br#"{"status":"ok"}"#.to_vec()))
}

/// Any failure of a health or readiness check is a 503: the database does not answer as
/// it should (unreachable, dropped, refusing connections); the cause goes to the log.
fn not_answering(error: crm_store_pg::StoreError) -> ApiError {
    ApiError::Unavailable(error.to_string())
}

/// `GET /readyz`: 200 when a pooled connection is free at once and the database answers,
/// else 503 (an exhausted pool, or no database): a load balancer can send traffic
/// elsewhere while `/healthz`, which only asks the database, still says the process lives.
pub(crate) async fn ready(app: &App) -> Result<Reply, ApiError> {
    app.store.ready().await.map_err(not_answering)?;
    Ok(Reply::json(
        StatusCode::OK,
        br#"{"status":"ready"}"#.to_vec(),
    ))
}

/// `GET /api/openapi.json` (public: it holds no data).
pub(crate) async fn openapi(_app: &App) -> Result<Reply, ApiError> {
    Ok(Reply::asset(
        crate::response::JSON,
        &crate::openapi::BODY,
        "no-cache",
    ))
}

/// `GET /metrics`: the Prometheus text exposition (public, like health: it holds no
/// records, keys or bodies). With `--metrics-listen` it is served there instead, and this
/// path is not found.
pub(crate) async fn metrics(app: &App) -> Result<Reply, ApiError> {
    if !app.metrics_on_api_listener() {
        return Err(ApiError::RouteNotFound);
    }
    app.metrics_reply().await
}
