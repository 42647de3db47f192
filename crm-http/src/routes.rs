//! Handlers: each one parses (crm-core), calls the store, and answers. No rules here. The
//! route table (`crate::router`) names the handler of every endpoint.
//!
//! A handler takes the [`Env`] (the store, the documents, the metrics registry) and what
//! its route's access gives it: a keyed route's handler the authenticated request
//! ([`Req`]), a client link's handler the [`Visit`], a public route's nothing. Nothing here knows the service around it
//! (`crate::app`), which calls down into the route table.

pub(crate) mod activity;
pub(crate) mod bills;
pub(crate) mod categories;
pub(crate) mod client;
pub(crate) mod clients;
pub(crate) mod company;
pub(crate) mod contracts;
pub(crate) mod credit_notes;
pub(crate) mod docs;
pub(crate) mod einvoices;
pub(crate) mod emails;
pub(crate) mod estimates;
pub(crate) mod milestones;
pub(crate) mod notes;
pub(crate) mod payments;
pub(crate) mod projects;
pub(crate) mod recurring_invoices;
pub(crate) mod tax_rates;
pub(crate) mod users;
pub(crate) mod webhooks;

use crm_core::conflict::Resource;
use crm_core::ids::ApiKeyId;
use crm_core::input::RawMap;
use crm_core::validation::Rejected;
use crm_store_pg::{Ctx, Store};
use http::{HeaderValue, StatusCode, header};
use percent_encoding::percent_decode_str;

use crate::documents::Documents;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::response::Reply;

/// What the public routes read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Env<'a> {
    /// The database.
    pub store: &'a Store,
    /// What a person sees of records (the page, the PDF, the emails).
    pub documents: &'a Documents,
    /// The service's metrics.
    pub metrics: &'a Metrics,
    /// Whether `GET /metrics` is served by the API listener (not with `--metrics-listen`).
    pub metrics_on_api: bool,
}

/// A client link's request as its handlers see it (no key: the token is the credential).
#[derive(Debug)]
pub(crate) struct Visit<'a> {
    /// The `{token}` path segment, as sent.
    pub token: &'a str,
    /// The form body (empty for GET).
    pub body: RawMap,
    /// Today's date (the estimate's shown status depends on it).
    pub today: chrono::NaiveDate,
}

/// A request as handlers see it.
#[derive(Debug)]
pub(crate) struct Req<'a> {
    /// Who acts, and today's date.
    pub ctx: Ctx,
    /// The API key the request was made with.
    pub key: ApiKeyId,
    /// The `{id}` path segment, if the route has one.
    pub id: Option<&'a str>,
    /// The second path parameter's segment (`{delivery_id}`), if the route has one.
    pub sub_id: Option<&'a str>,
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

    /// The second path parameter as a `T`, read as [`Req::id`] reads the first.
    pub(crate) fn sub_id<T>(
        &self,
        parse: fn(&str) -> Option<T>,
        resource: Resource,
    ) -> Result<T, ApiError> {
        self.sub_id
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
    store: &Store,
    ctx: Ctx,
    parsed: Result<T, Rejected>,
    target: Option<(Resource, i64)>,
) -> Result<T, ApiError> {
    let rejected = match parsed {
        Ok(command) => return Ok(command),
        Err(rejected) => rejected,
    };
    if let Some((resource, id)) = target
        && !store.exists(ctx, resource, id).await?
    {
        return Err(ApiError::NotFound(resource));
    }
    let mut errors = rejected.errors;
    if let Ok(more) = store.check_references(&rejected.references, target).await {
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
pub(crate) async fn index(_env: &Env<'_>) -> Result<Reply, ApiError> {
    Ok(Reply::json(StatusCode::OK, INDEX.as_bytes().to_vec()))
}

/// `GET /healthz`: 200 when the database answers, else 503.
pub(crate) async fn health(env: &Env<'_>) -> Result<Reply, ApiError> {
    env.store.ping().await.map_err(not_answering)?;
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
pub(crate) async fn ready(env: &Env<'_>) -> Result<Reply, ApiError> {
    env.store.ready().await.map_err(not_answering)?;
    Ok(Reply::json(
        StatusCode::OK,
        br#"{"status":"ready"}"#.to_vec(),
    ))
}

/// `GET /api/openapi.json` (public: it holds no data).
pub(crate) async fn openapi(_env: &Env<'_>) -> Result<Reply, ApiError> {
    Ok(Reply::asset(
        crate::response::JSON,
        &crate::openapi::BODY,
        "no-cache",
    ))
}

/// `GET /metrics`: the Prometheus text exposition (public, like health: it holds no
/// records, keys or bodies). With `--metrics-listen` it is served there instead, and this
/// path is not found.
pub(crate) async fn metrics(env: &Env<'_>) -> Result<Reply, ApiError> {
    if !env.metrics_on_api {
        return Err(ApiError::RouteNotFound);
    }
    metrics_reply(env).await
}

/// The metrics answer, with the pool and the outbox read now (also what the metrics
/// listener of `--metrics-listen` serves).
pub(crate) async fn metrics_reply(env: &Env<'_>) -> Result<Reply, ApiError> {
    let read = async {
        Ok::<_, crm_store_pg::StoreError>(crate::metrics::Backlogs {
            email: env.store.outbox_backlog().await?,
            webhook: env.store.webhook_backlog().await?,
            open_breakers: env.store.open_webhook_breakers().await?,
        })
    };
    let outbox = match read.await {
        Ok(backlog) => Some(backlog),
        Err(e) => {
            tracing::warn!(error = %e, "metrics: cannot read the outbox backlog");
            None
        }
    };
    if env.store.has_replicas() {
        env.metrics
            .replicas(&env.store.replica_status(), env.store.primary_reads());
    }
    let text = env
        .metrics
        .render(
            env.store.pool_status(),
            outbox,
            env.documents.pdf_cache_status(),
        )
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut reply = Reply::json(StatusCode::OK, text.into_bytes());
    reply.content_type = crate::metrics::CONTENT_TYPE;
    reply
        .headers
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(reply)
}
