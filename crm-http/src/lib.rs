//! The CRM business-records HTTP service (hyper 1.x) wiring crm-core and crm-store-pg, and
//! the pieces of the `crm` command.
//!
//! - [`app`]: one request start to finish (id, route, auth, body, handler, envelope, log).
//! - [`server`]: accept loop, timeouts, header and connection limits, graceful shutdown.
//! - [`wire`]: a connection's bytes: CRLF-only request heads, the write timeout.
//! - [`limits`]: requests in progress per key, the rate limits (GCRA), the open-file limit.
//! - [`shared`]: what every instance shares in Redis (rate limits, write positions);
//!   [`positions`]: each key's last write position, for reads from replicas;
//!   [`forwarded`]: the client's address behind trusted proxies.
//! - [`router`]: the route table, 404 and 405.
//! - [`auth`]: API keys, the key cache, scopes and expiry for a route, and last use.
//! - [`body`]: form (brackets), JSON and multipart bodies and query strings → one input.
//! - [`response`]: success envelopes (single records with their `ETag`).
//! - [`conditional`]: `Idempotency-Key`, `If-Match`, `If-None-Match` for every route.
//! - [`error`]: the single error → status table.
//! - [`encoding`]: gzip and br answers; [`cors`]: browser clients; [`metrics`]: `/metrics`.
//! - `routes`: the handlers, one file per area (`bills`: every kind of bill's).
//! - [`documents`]: what a person sees of a record (page, PDF, emails), off the async
//!   workers.
//! - [`openapi`]: the API description.
//!
//! Beside the request path, [`ops`] holds the operator code: the `crm` command, the mail
//! transports, the outbox delivery worker and the periodic upkeep.

pub mod app;
pub mod auth;
pub mod body;
pub mod conditional;
pub mod cors;
pub mod documents;
pub mod encoding;
pub mod error;
pub mod fields;
pub mod forwarded;
pub mod limits;
pub mod metrics;
pub mod openapi;
pub mod ops;
pub mod positions;
pub mod response;
pub mod router;
mod routes;
pub mod server;
pub mod shared;
pub mod wire;

pub use app::{App, AppError, RequestLimits};
pub use server::{ServeOptions, serve, serve_metrics, shutdown_signal};
