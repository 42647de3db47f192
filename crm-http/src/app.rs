//! One request, start to finish: request id, the `Host` rule, CORS preflight, route,
//! authentication with the key's expiry and scopes (or, for the client's pages, the
//! per-address rate limit), the per-key rate limit, the per-key cap on requests in
//! progress, body (bounded in size and time), handler, response envelope, compression,
//! CORS headers, metrics, and the access log line.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use crm_core::ids::ApiKeyId;
use crm_core::input::RawMap;
use crm_core::scope::Need;
use crm_store_pg::{Ctx, Store, StoreError};
use http::{HeaderValue, Method, Request, Response, StatusCode, header};

use crate::auth::{CACHE_TTL, Keys};
use crate::body::{MAX_BODY, parse_body, parse_urlencoded, read_limited};
use crate::conditional;
use crate::cors::Cors;
use crate::documents::Documents;
use crate::encoding::{self, Coding};
use crate::error::ApiError;
use crate::forwarded::TrustedProxies;
use crate::limits::{ClientAddr, InFlight, InFlightGuard, Limiter, PeerAddr, Quota, Rate};
use crate::metrics::Metrics;
use crate::positions::Positions;
use crate::response::{JSON, Outgoing, Reply};
use crate::router::{self, Access, Given, Resolved, Router};
use crate::routes::{self, Env, Req, Visit};
use crate::shared::Shared;

/// The service: the store, the key verifier and the route table.
#[derive(Debug)]
pub struct App {
    /// The database.
    pub store: Store,
    /// What a person sees of records: the page, the PDF, the emails.
    pub documents: Documents,
    keys: Keys,
    router: Router,
    request_ids: RequestIds,
    in_flight: InFlight,
    rate_limiter: Option<Limiter>,
    public_limiter: Option<Limiter<ClientAddr>>,
    auth_failure_limiter: Option<Limiter<ClientAddr>>,
    /// Whose `X-Forwarded-For` names the client (`--trusted-proxy`).
    proxies: TrustedProxies,
    /// Each key's last write position, for reads from replicas.
    positions: Positions,
    body_timeout: Duration,
    handler_timeout: Duration,
    cors: Cors,
    metrics: Metrics,
    /// Whether `GET /metrics` is served by the API listener (not with `--metrics-listen`).
    metrics_on_api: bool,
}

/// Why the service cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The route table does not compile (a programming error, caught by the tests).
    #[error("the route table: {0}")]
    Routes(#[from] matchit::InsertError),
    /// The metrics registry cannot be set up.
    #[error(transparent)]
    Metrics(#[from] crate::metrics::MetricsError),
}

/// Per-request bounds (`crm serve --body-timeout`, `--request-timeout`,
/// `--max-in-flight-per-key`, `--rate-limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestLimits {
    /// Time a request's whole body may take to arrive, counted from its headers; past it
    /// the answer is 408 and the connection is closed.
    pub body_timeout: Duration,
    /// Time the service may take to answer a request once its body has arrived; past it,
    /// the answer is 503 with `Retry-After` (a database that holds its connections without
    /// answering must not hold the clients too). A key the cache does not hold is looked up
    /// within the store's connect timeout.
    pub handler_timeout: Duration,
    /// Requests one API key may have in progress at once; one more is a 429.
    pub max_in_flight_per_key: usize,
    /// Requests one API key may send per second or minute (a token bucket per key, in this
    /// process's memory); over it the answer is 429. `None`: no limit.
    pub rate_limit: Option<Rate>,
    /// Requests one client address may send to the client's pages (`/c/…`); over it the
    /// answer is the 429 page. `None`: no limit.
    pub public_rate_limit: Option<Rate>,
    /// Failed authentications (401s) one client address may have (an IPv6 address by its
    /// /64); past it, that address's requests to the API are answered 429 before any key is
    /// looked up, until the bucket refills. `None`: no limit.
    pub auth_failure_limit: Option<Rate>,
}

impl Default for RequestLimits {
    fn default() -> Self {
        RequestLimits {
            body_timeout: Duration::from_secs(30),
            handler_timeout: Duration::from_secs(30),
            max_in_flight_per_key: 64,
            rate_limit: None,
            public_rate_limit: Some(Rate {
                requests: 60,
                per: Duration::from_secs(60),
            }),
            auth_failure_limit: Some(Rate {
                requests: 120,
                per: Duration::from_secs(60),
            }),
        }
    }
}

/// `X-Request-Id` values: a random per-process prefix and a counter.
#[derive(Debug)]
struct RequestIds {
    prefix: String,
    next: AtomicU64,
}

impl RequestIds {
    fn new() -> Self {
        let mut bytes = [0u8; 6];
        let prefix = match getrandom::fill(&mut bytes) {
            Ok(()) => bytes.iter().map(|b| format!("{b:02x}")).collect(),
            Err(_) => format!("{:012x}", std::process::id()),
        };
        RequestIds {
            prefix,
            next: AtomicU64::new(1),
        }
    }

    /// The client's id when it sent a sensible one (visible ASCII, at most 200 bytes), else a
    /// new one.
    fn for_request(&self, sent: Option<&HeaderValue>) -> HeaderValue {
        if let Some(v) = sent.filter(|v| {
            !v.is_empty() && v.len() <= 200 && v.as_bytes().iter().all(|b| b.is_ascii_graphic())
        }) {
            return v.clone();
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        HeaderValue::from_str(&format!("{}-{n:08x}", self.prefix))
            .unwrap_or(HeaderValue::from_static("unknown"))
    }
}

impl App {
    /// The service over `store`, with the default [`RequestLimits`], CORS off and metrics
    /// at `GET /metrics`.
    pub fn new(store: Store) -> Result<App, AppError> {
        App::with_limits(store, RequestLimits::default())
    }

    /// The service over `store` with the given per-request bounds.
    pub fn with_limits(store: Store, limits: RequestLimits) -> Result<App, AppError> {
        let keys = Keys::new(store.clone(), CACHE_TTL);
        Ok(App {
            store,
            documents: Documents::default(),
            keys,
            router: Router::new()?,
            request_ids: RequestIds::new(),
            in_flight: InFlight::new(limits.max_in_flight_per_key),
            rate_limiter: limits.rate_limit.map(Limiter::new),
            public_limiter: limits.public_rate_limit.map(Limiter::new),
            auth_failure_limiter: limits.auth_failure_limit.map(Limiter::new),
            proxies: TrustedProxies::default(),
            positions: Positions::local(),
            body_timeout: limits.body_timeout,
            handler_timeout: limits.handler_timeout,
            cors: Cors::off(),
            metrics: Metrics::new()?,
            metrics_on_api: true,
        })
    }

    /// The same service presenting records with `documents` (the company, the paper, the
    /// PDF cache).
    pub fn with_documents(mut self, documents: Documents) -> App {
        self.documents = documents;
        self
    }

    /// The same service with the client's pages limited to `rate` per client address
    /// (`None`: unlimited).
    pub fn with_public_rate_limit(mut self, rate: Option<Rate>) -> App {
        self.public_limiter = rate.map(Limiter::new);
        self
    }

    /// The same service sharing its rate limits and its keys' write positions with every
    /// other instance through Redis (`--redis-url`); positions are trusted again once
    /// Redis has answered for `trust_after` after an outage.
    pub fn with_shared(mut self, shared: &std::sync::Arc<Shared>, trust_after: Duration) -> App {
        let arc = std::sync::Arc::clone;
        self.rate_limiter = self.rate_limiter.map(|l| l.shared(arc(shared), "key"));
        self.public_limiter = self.public_limiter.map(|l| l.shared(arc(shared), "page"));
        self.auth_failure_limiter = self
            .auth_failure_limiter
            .map(|l| l.shared(arc(shared), "authfail"));
        self.positions = Positions::shared(std::sync::Arc::clone(shared), trust_after);
        self
    }

    /// The same service believing `X-Forwarded-For` from `proxies` (`--trusted-proxy`).
    pub fn with_trusted_proxies(mut self, proxies: TrustedProxies) -> App {
        self.proxies = proxies;
        self
    }

    /// The same service answering browsers from the origins `cors` allows.
    pub fn with_cors(mut self, cors: Cors) -> App {
        self.cors = cors;
        self
    }

    /// The same service with `GET /metrics` left to another listener
    /// ([`crate::server::serve_metrics`]); the API listener answers 404 there.
    pub fn with_metrics_elsewhere(mut self) -> App {
        self.metrics_on_api = false;
        self
    }

    /// Whether `ip` is a trusted proxy's (`--trusted-proxy`): its connections speak for
    /// many clients, so the per-address connection cap does not apply to them.
    pub fn trusts_proxy(&self, ip: std::net::IpAddr) -> bool {
        self.proxies.trusts(ip)
    }

    /// The service's metrics (a delivery worker in the same process counts on them).
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Writes the minutes keys were last used since the last call, in one statement (see
    /// [`crate::auth::LastUse`]); `crm serve` calls it every
    /// [`crate::auth::RECORD_USE_EVERY`] and once more when it stops. Returns the rows
    /// changed.
    pub async fn record_key_use(&self) -> Result<u64, StoreError> {
        self.keys.record_use().await
    }

    /// What the route table's handlers read.
    fn env(&self) -> Env<'_> {
        Env {
            store: &self.store,
            documents: &self.documents,
            metrics: &self.metrics,
            metrics_on_api: self.metrics_on_api,
        }
    }

    /// Answers one request. Never fails: every error becomes its JSON answer.
    pub async fn handle<B>(&self, request: Request<B>) -> Response<Outgoing>
    where
        B: hyper::body::Body<Data = Bytes>,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let started = Instant::now();
        let request_id = self
            .request_ids
            .for_request(request.headers().get("x-request-id"));
        let method = request.method().clone();
        let body_deadline = started + self.body_timeout;
        let origin = request.headers().get(header::ORIGIN).cloned();
        let coding = encoding::negotiate(request.headers().get(header::ACCEPT_ENCODING));
        // CORS belongs to the API alone: the operational endpoints (`/metrics`, `/healthz`)
        // and the client's pages are never readable from another origin's scripts.
        let api = is_api(request.uri().path());
        let preflight = api && self.cors.is_preflight(&method, request.headers());
        let mut quota = None;
        let mut in_flight = None;
        let (outcome, template) = if preflight {
            self.preflight(origin.as_ref(), request.uri().path())
        } else {
            self.route(request, body_deadline, &mut quota, &mut in_flight)
                .await
        };
        let mut response = match outcome {
            Ok(reply) => self.respond(reply, coding).await,
            Err(error) => failure_response(&error, &request_id),
        };
        let status = response.status();
        let headers = response.headers_mut();
        if let Some(quota) = quota {
            rate_limit_headers(&quota, headers);
        }
        self.cors_headers(api, preflight, origin.as_ref(), headers);
        self.log_access(&method, template, status, started, &request_id);
        headers.insert("x-request-id", request_id);
        // The request keeps its place among its key's requests in progress until the
        // connection has taken the answer's last frame.
        response.map(|body| body.holding(in_flight))
    }

    /// The CORS headers of an answer: a preflight's own (its `Allow` becomes the allowed
    /// methods), or those of an API answer to an allowed origin; none elsewhere.
    fn cors_headers(
        &self,
        api: bool,
        preflight: bool,
        origin: Option<&HeaderValue>,
        headers: &mut http::HeaderMap,
    ) {
        if preflight && let Some(origin) = origin.filter(|o| self.cors.allows(o)) {
            let allow = headers
                .remove(header::ALLOW)
                .and_then(|v| v.to_str().ok().map(str::to_owned))
                .unwrap_or_default();
            self.cors.preflight_headers(origin, &allow, headers);
        } else if !preflight && api {
            self.cors.decorate(origin, headers);
        }
    }

    /// Counts the request in the metrics and writes its access log line (the route's
    /// template, never its path: a client link's token is not logged).
    fn log_access(
        &self,
        method: &Method,
        template: &'static str,
        status: StatusCode,
        started: Instant,
        request_id: &HeaderValue,
    ) {
        let latency = started.elapsed();
        self.metrics
            .observe(method, template, status, latency.as_secs_f64());
        tracing::info!(
            target: "crm::access",
            method = %method,
            route = template,
            status = status.as_u16(),
            latency_us = latency.as_micros() as u64,
            request_id = ?request_id,
        );
    }

    /// Answers one request on the metrics listener (`--metrics-listen`): `GET /metrics`,
    /// and 404 for anything else.
    pub async fn handle_metrics<B>(&self, request: Request<B>) -> Response<Outgoing> {
        let coding = encoding::negotiate(request.headers().get(header::ACCEPT_ENCODING));
        let wanted = matches!(*request.method(), Method::GET | Method::HEAD)
            && request.uri().path() == "/metrics";
        if !wanted {
            return error_response(&ApiError::RouteNotFound);
        }
        match routes::metrics_reply(&self.env()).await {
            Ok(reply) => self.respond(reply, coding).await,
            Err(error) => error_response(&error),
        }
    }

    /// The answer to a CORS preflight: 204 with the path's methods for an allowed origin,
    /// 403 for another; 404 for an unknown path.
    fn preflight(
        &self,
        origin: Option<&HeaderValue>,
        path: &str,
    ) -> (Result<Reply, ApiError>, &'static str) {
        let (allow, template) = match self.router.resolve(&Method::OPTIONS, path) {
            Resolved::MethodNotAllowed { allow, template } => (allow, template),
            Resolved::Found { route, .. } => (route.method.to_string(), route.path),
            Resolved::NotFound => return (Err(ApiError::RouteNotFound), "-"),
        };
        if !origin.is_some_and(|o| self.cors.allows(o)) {
            return (Err(ApiError::OriginNotAllowed), template);
        }
        let mut reply = Reply::json(StatusCode::NO_CONTENT, Vec::new());
        if let Ok(allow) = HeaderValue::from_str(&allow) {
            reply.headers.insert(header::ALLOW, allow);
        }
        (Ok(reply), template)
    }

    /// Turns a handler's reply into the response, compressed when the client asked for it
    /// and it pays.
    async fn respond(&self, reply: Reply, coding: Option<Coding>) -> Response<Outgoing> {
        let Reply {
            status,
            mut body,
            content_type,
            headers: own,
            precompressed,
        } = reply;
        let bodiless = matches!(status, StatusCode::NO_CONTENT | StatusCode::NOT_MODIFIED);
        let compressible = encoding::compressible(content_type) && !bodiless;
        let mut encoded_as = None;
        if let Some(coding) = coding.filter(|_| compressible && body.len() >= encoding::MIN_SIZE) {
            let encoded = match precompressed {
                Some(fixed) => fixed.encoded(coding).await,
                None => encoding::compress(coding, body.clone()).await,
            };
            if let Some(encoded) = encoded {
                body = encoded;
                encoded_as = Some(coding);
            }
        }
        let mut response = Response::new(Outgoing::new(body));
        *response.status_mut() = status;
        let headers = response.headers_mut();
        *headers = own;
        if !bodiless {
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        }
        if compressible {
            headers.append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        }
        if let Some(coding) = encoded_as {
            headers.insert(
                header::CONTENT_ENCODING,
                HeaderValue::from_static(coding.token()),
            );
        }
        response
    }

    /// Resolves and runs the request; returns the outcome and the route template, sets
    /// `quota` when the request was counted against its key's rate limit, and `in_flight`
    /// to its place among its key's requests in progress.
    async fn route<B>(
        &self,
        request: Request<B>,
        body_deadline: Instant,
        quota: &mut Option<Quota>,
        in_flight: &mut Option<InFlightGuard>,
    ) -> (Result<Reply, ApiError>, &'static str)
    where
        B: hyper::body::Body<Data = Bytes>,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        if !host_is_valid(&request) {
            return (
                Err(ApiError::BadRequest("The Host header is required.")),
                "-",
            );
        }
        if !transfer_codings_are_supported(request.headers()) {
            return (Err(ApiError::TransferCodingNotImplemented), "-");
        }
        let peer = request
            .extensions()
            .get::<PeerAddr>()
            .map(|p| self.proxies.client(p.0, request.headers()));
        let (parts, body) = request.into_parts();
        let path = parts.uri.path();
        let (route, id, sub_id) = match self.router.resolve(&parts.method, path) {
            Resolved::Found { route, id, sub_id } => {
                (route, id.map(str::to_owned), sub_id.map(str::to_owned))
            }
            Resolved::MethodNotAllowed { allow, template } => {
                return (Err(ApiError::MethodNotAllowed(allow)), template);
            }
            Resolved::NotFound => return (Err(ApiError::RouteNotFound), "-"),
        };
        let outcome = match route.access {
            Access::Public => {
                let env = self.env();
                self.bounded(router::dispatch(route.endpoint, &env, Given::Nothing))
                    .await
            }
            Access::Client => {
                self.serve_client(route, id.as_deref(), &parts, body, peer, body_deadline)
                    .await
            }
            Access::Key => {
                let ids = (id.as_deref(), sub_id.as_deref());
                let admitted = (quota, in_flight);
                self.serve_keyed(route, &parts, body, ids, peer, body_deadline, admitted)
                    .await
            }
        };
        (outcome, route.path)
    }

    /// A `Client` route (the client's pages): the per-address limit, the form body of a
    /// POST, then the handler under the request timeout, its reads on the primary when
    /// there are replicas (a link opened a moment after its record was published must find
    /// it, and the page carries no key whose writes could be followed).
    async fn serve_client<B>(
        &self,
        route: &'static router::Route,
        token: Option<&str>,
        parts: &http::request::Parts,
        body: B,
        peer: Option<std::net::IpAddr>,
        body_deadline: Instant,
    ) -> Result<Reply, ApiError>
    where
        B: hyper::body::Body<Data = Bytes>,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        if let Some(refused) = self.public_refusal(peer).await {
            return refused;
        }
        let token = token.ok_or(ApiError::RouteNotFound)?;
        let body = if parts.method == Method::POST {
            Box::pin(read_body(&parts.headers, body, body_deadline)).await?
        } else {
            RawMap::new()
        };
        let visit = Visit {
            token,
            body,
            today: today(),
        };
        let env = self.env();
        let work = self.bounded(conditional::visit(&env, route, visit, &parts.headers));
        if !self.store.has_replicas() {
            return work.await;
        }
        crm_store_pg::in_session(crm_store_pg::Needed::Primary, Box::pin(work))
            .await
            .0
    }

    /// A `Key` route: the key authenticated for the route's scope and admitted
    /// ([`App::authenticated`]; its standing and its place among the key's requests in
    /// progress go to `admitted`), then the handler through the request's conditions
    /// ([`conditional::run`]: its idempotency scope and `If-Match`) under the request
    /// timeout, its reads following the key's writes when there are replicas.
    #[allow(clippy::too_many_arguments)]
    async fn serve_keyed<B>(
        &self,
        route: &'static router::Route,
        parts: &http::request::Parts,
        body: B,
        ids: (Option<&str>, Option<&str>),
        peer: Option<std::net::IpAddr>,
        body_deadline: Instant,
        (quota, in_flight): (&mut Option<Quota>, &mut Option<InFlightGuard>),
    ) -> Result<Reply, ApiError>
    where
        B: hyper::body::Body<Data = Bytes>,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let need = route.need.ok_or_else(|| {
            ApiError::Internal(format!(
                "the keyed route {} {} has no scope",
                route.method, route.path
            ))
        })?;
        let (req, api_key, guard) = self
            .authenticated(parts, body, need, ids, peer, body_deadline, quota)
            .await?;
        *in_flight = Some(guard);
        let handling = crate::fields::check(route, &parts.headers, &req.query, &req.body)?;
        let env = self.env();
        let run = async {
            let run = conditional::run(&env, route, req, &parts.headers, api_key);
            self.bounded(run)
                .await
                .map(|reply| handling.annotate(reply))
        };
        if !self.store.has_replicas() {
            return run.await;
        }
        // Boxed: the handler's future is large, and the session's layers would otherwise
        // copy it on the stack.
        self.read_your_writes(api_key, Box::pin(run)).await
    }

    /// Runs a keyed request's `work` with its reads sent where they see the key's last
    /// write ([`crate::positions`]); when it wrote, keeps the primary's position as the
    /// key's before the answer leaves, so that the key's next read anywhere sees it.
    async fn read_your_writes<T>(
        &self,
        key: ApiKeyId,
        work: impl std::future::Future<Output = T>,
    ) -> T {
        let needed = self.positions.needed(key).await;
        let (outcome, wrote) = crm_store_pg::in_session(needed, work).await;
        if wrote {
            match self.store.primary_position().await {
                Ok(lsn) => self.positions.record(key, lsn).await,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read the primary's position after a write");
                }
            }
        }
        outcome
    }

    /// The 429 page when `peer` has used up its allowance of the client's pages, counted
    /// per address (an IPv6 address by its /64); `None` to go on. A request whose address is
    /// unknown (not through [`crate::serve`]) is not counted.
    async fn public_refusal(
        &self,
        peer: Option<std::net::IpAddr>,
    ) -> Option<Result<Reply, ApiError>> {
        let (limiter, peer) = (self.public_limiter.as_ref()?, peer?);
        let wait = limiter.check(ClientAddr::of(peer)).await.retry_after?;
        let html =
            crm_render::page::too_many_requests(&self.documents.presentation().company, wait);
        Some(
            html.map_err(|e| ApiError::Internal(e.to_string()))
                .map(|html| {
                    let mut reply = Reply::page(StatusCode::TOO_MANY_REQUESTS, html);
                    reply
                        .headers
                        .insert(header::RETRY_AFTER, HeaderValue::from(wait));
                    reply
                }),
        )
    }

    /// `work`, or a 503 when it takes longer than the handler timeout. Dropping `work`
    /// drops what it held: a write's transaction rolls back on its own (see the store's
    /// `Tx`), and the rest of the service goes on.
    async fn bounded<T>(
        &self,
        work: impl std::future::Future<Output = Result<T, ApiError>>,
    ) -> Result<T, ApiError> {
        let limit = self.handler_timeout;
        tokio::time::timeout(limit, work).await.unwrap_or_else(|_| {
            Err(ApiError::Unavailable(format!(
                "no answer within the request timeout ({} s)",
                limit.as_secs_f64()
            )))
        })
    }

    /// The request of a `Key` route needing `need`: the acting user (from the key), the
    /// query and the body; the key; and the request's place among its key's requests in
    /// progress. An address past its failed-authentication limit is refused first, before
    /// any key is looked up; then the key is checked, with its expiry and scopes (401, 403:
    /// from the key cache, so a refusal costs no database round trip); then the key's rate
    /// limit is applied (a refused request takes no place), and its standing left in
    /// `quota`. Only then is the body read: a refused request has written nothing and
    /// read nothing but its head.
    #[allow(clippy::too_many_arguments)]
    async fn authenticated<'a, B>(
        &self,
        parts: &http::request::Parts,
        body: B,
        need: Need,
        (id, sub_id): (Option<&'a str>, Option<&'a str>),
        peer: Option<std::net::IpAddr>,
        body_deadline: Instant,
        quota: &mut Option<Quota>,
    ) -> Result<(Req<'a>, ApiKeyId, InFlightGuard), ApiError>
    where
        B: hyper::body::Body<Data = Bytes>,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let failures = self
            .auth_failure_limiter
            .as_ref()
            .zip(peer.map(ClientAddr::of));
        let verified = self.verify(parts, need, failures).await?;
        if let Some(limiter) = &self.rate_limiter {
            let standing = limiter.check(verified.key).await;
            *quota = Some(standing);
            if let Some(seconds) = standing.retry_after {
                return Err(ApiError::RateLimited(seconds));
            }
        }
        let guard = self.in_flight.enter(verified.key)?;
        let body = if matches!(parts.method, Method::GET | Method::HEAD) {
            RawMap::new()
        } else {
            // Boxed: the body's reading and decoding (multipart among them) is a large
            // future that a GET would carry too.
            Box::pin(read_body(&parts.headers, body, body_deadline)).await?
        };
        let query = parse_urlencoded(parts.uri.query().unwrap_or("").as_bytes())?;
        let req = Req {
            ctx: Ctx {
                actor: verified.user,
                today: today(),
            },
            key: verified.key,
            id,
            sub_id,
            query,
            body,
        };
        Ok((req, verified.key, guard))
    }

    /// The request's key, checked with its expiry and the scope `need`: an address past
    /// its failed-authentication limit (`failures`) is refused first, before any key is
    /// looked up, and a failure counts against it. The scope is decided with the key and
    /// before the rate limit: a refusal is answered from memory, like the router's 404 and
    /// 405, holds no place among the key's requests in progress, and spends none of the
    /// key's tokens (a client finding out what its key may do keeps its rate for what it
    /// may).
    async fn verify(
        &self,
        parts: &http::request::Parts,
        need: Need,
        failures: Option<(&Limiter<ClientAddr>, ClientAddr)>,
    ) -> Result<crate::auth::Verified, ApiError> {
        if let Some((limiter, addr)) = failures
            && let Some(wait) = limiter.exhausted(addr).await
        {
            self.metrics.auth_failed(true);
            return Err(ApiError::AuthFailuresLimited(wait));
        }
        let verified = self
            .keys
            .authenticate(&parts.headers, need, chrono::Utc::now())
            .await;
        if let Err(ApiError::Unauthorized(_)) = verified {
            self.metrics.auth_failed(false);
            if let Some((limiter, addr)) = failures {
                limiter.check(addr).await;
            }
        }
        verified
    }
}

/// The answer of a failed request: an internal fault or an unavailable database is
/// logged with the request's id first.
fn failure_response(error: &ApiError, request_id: &HeaderValue) -> Response<Outgoing> {
    if let ApiError::Internal(cause) = error {
        tracing::error!(request_id = ?request_id, error = %cause, "request failed");
    } else if let ApiError::Unavailable(cause) = error {
        tracing::warn!(request_id = ?request_id, error = %cause, "database unavailable");
    }
    error_response(error)
}

/// The JSON answer of an error, with the headers it calls for.
fn error_response(error: &ApiError) -> Response<Outgoing> {
    let mut response = Response::new(Outgoing::new(Bytes::from(error.body())));
    *response.status_mut() = error.status();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(JSON));
    for (name, value) in error.headers() {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
    response
}

/// The `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers of an answer
/// to a request counted against its key's rate limit.
fn rate_limit_headers(quota: &Quota, headers: &mut http::HeaderMap) {
    headers.insert("ratelimit-limit", HeaderValue::from(quota.limit));
    headers.insert("ratelimit-remaining", HeaderValue::from(quota.remaining));
    headers.insert("ratelimit-reset", HeaderValue::from(quota.reset));
}

/// Today's date in the server's time zone: `TZ`, else the system's (`/etc/localtime`),
/// else UTC. It decides when an estimate expires and dates converted invoices; timestamps
/// are always UTC.
pub(crate) fn today() -> chrono::NaiveDate {
    chrono::Local::now().date_naive()
}

/// Whether `path` is the API's (`/api` and below), the only paths CORS applies to.
fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// RFC 9112 §3.2: an HTTP/1.1 request has exactly one `Host` header, and no request has
/// more than one.
fn host_is_valid<B>(request: &Request<B>) -> bool {
    let hosts = request.headers().get_all(header::HOST).iter().count();
    match request.version() {
        http::Version::HTTP_11 => hosts == 1,
        _ => hosts <= 1,
    }
}

/// RFC 9112 §6.1: a request whose `Transfer-Encoding` names any coding but `chunked`
/// (`gzip, chunked`, say) is answered 501: hyper would read it as chunked and hand on the
/// still-compressed bytes, and a proxy in front may frame it differently.
fn transfer_codings_are_supported(headers: &http::HeaderMap) -> bool {
    headers
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .all(|value| {
            value.to_str().is_ok_and(|codings| {
                codings
                    .split(',')
                    .all(|coding| coding.trim().eq_ignore_ascii_case("chunked"))
            })
        })
}

/// Reads and decodes a body of at most [`MAX_BODY`] bytes that must have arrived by
/// `deadline` (else 408).
async fn read_body<B>(
    headers: &http::HeaderMap,
    body: B,
    deadline: Instant,
) -> Result<RawMap, ApiError>
where
    B: hyper::body::Body<Data = Bytes>,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(ApiError::PayloadTooLarge);
    }
    let read = read_limited(body, declared, MAX_BODY);
    let bytes = match tokio::time::timeout_at(deadline.into(), read).await {
        Ok(read) => Bytes::from(read?),
        Err(_elapsed) => return Err(ApiError::BodyTimeout),
    };
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    parse_body(content_type, bytes).await
}
