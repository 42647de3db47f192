//! The one place where errors become HTTP statuses and bodies.
//!
//! | error | status | body `message` |
//! |---|---|---|
//! | malformed body / JSON | 400 | "The request body is not valid JSON." (or what is wrong) |
//! | HTTP/1.1 without one `Host` | 400 | "The Host header is required." |
//! | missing, bad, revoked or expired key | 401 + `WWW-Authenticate: Bearer` | "Unauthorized. A valid API key is required." and, past a missing key, what was wrong ([`Unauthenticated`]) |
//! | a key whose scopes do not grant the route | 403 + `WWW-Authenticate` (`insufficient_scope`) | "This API key is not allowed to do this." and the scope it needs |
//! | CORS preflight from an origin not allowed | 403 | "This origin is not allowed." |
//! | unknown record / id | 404 | `"<Resource> not found."` |
//! | unknown path | 404 | "Route not found." |
//! | wrong method | 405 + `Allow` | "Method not allowed." |
//! | body not received in time | 408 + `Connection: close` | "The request body was not received in time." |
//! | business conflict | 409 | the conflict's message |
//! | `Idempotency-Key` of a request still in progress | 409 | "A request with this idempotency key is still in progress." |
//! | `If-Match` not naming the current representation | 412 | "The record was changed by someone else. Read it again and retry." |
//! | `Idempotency-Key` used for another request | 422 | "The idempotency key was already used for a different request." + `errors` |
//! | body over 1 MiB | 413 | "The request body is too large." |
//! | other content type | 415 | "Unsupported content type." and the accepted types |
//! | validation | 422 | "The given data was invalid." + `errors` |
//! | too many requests in progress for the key | 429 + `Retry-After` | "Too many requests in progress for this API key." |
//! | unexpected | 500 | "Server error." (details only in the log, with the request id) |
//! | database unreachable | 503 + `Retry-After` | "Service temporarily unavailable." |

use crm_core::conflict::{Conflict, Resource};
use crm_core::scope::Need;
use crm_core::validation::FieldErrors;
use crm_store_pg::StoreError;
use http::StatusCode;
use serde::Serialize;

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body cannot be read as its content type says (400).
    #[error("bad request: {0}")]
    BadRequest(&'static str),
    /// The JSON body is malformed (400).
    #[error("malformed JSON")]
    BadJson,
    /// No valid API key (401), and what was wrong with what was sent.
    #[error("unauthorized: {0:?}")]
    Unauthorized(Unauthenticated),
    /// A valid key whose scopes do not grant the route (403), decided before the request's
    /// body is read; what the route needs.
    #[error("out of the key's scopes: {0} needed")]
    OutOfScope(Need),
    /// A CORS preflight from an origin that is not configured (403).
    #[error("origin not allowed")]
    OriginNotAllowed,
    /// An unknown record or id (404).
    #[error("{} not found", .0.not_found_message())]
    NotFound(Resource),
    /// An unknown path (404).
    #[error("route not found")]
    RouteNotFound,
    /// A known path with another method (405); the allowed methods.
    #[error("method not allowed")]
    MethodNotAllowed(String),
    /// A business conflict (409).
    #[error("conflict: {0}")]
    Conflict(Conflict),
    /// The whole body did not arrive within the body timeout (408); the connection is
    /// closed.
    #[error("body timeout")]
    BodyTimeout,
    /// Body over the limit (413).
    #[error("body too large")]
    PayloadTooLarge,
    /// A body of an unsupported content type (415).
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// Field errors (422).
    #[error("invalid: {0}")]
    Invalid(FieldErrors),
    /// An e-invoice export of a document that is not ready for the format (422): every
    /// business term missing and every figure EN 16931 cannot state, as the readiness
    /// check lists them (API.md §19).
    #[error("not ready for the e-invoice format")]
    NotReady(Vec<crm_einvoice::Missing>),
    /// A request with the same idempotency key is still in progress (409).
    #[error("idempotency key in progress")]
    IdempotencyInProgress,
    /// The idempotency key was used for another request (422).
    #[error("idempotency key reused")]
    IdempotencyKeyReused,
    /// `If-Match` does not name the current representation (412).
    #[error("precondition failed")]
    PreconditionFailed,
    /// The key already has its maximum of requests in progress (429).
    #[error("too many requests in flight for one key")]
    TooManyInFlight,
    /// The key is over its rate limit (429); one more request is allowed after this many
    /// seconds.
    #[error("rate limited for {0} s")]
    RateLimited(u64),
    /// Too many failed authentications from the client's address (429): refused before any
    /// key is looked up; one more attempt is allowed after this many seconds.
    #[error("too many failed authentications; retry in {0} s")]
    AuthFailuresLimited(u64),
    /// A request body in a transfer coding other than `chunked` (501, RFC 9112 §6.1); the
    /// connection is closed, since its body cannot be read.
    #[error("transfer coding not implemented")]
    TransferCodingNotImplemented,
    /// The database cannot be reached (503).
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// Anything unexpected (500); the cause is logged, never shown.
    #[error("internal: {0}")]
    Internal(String),
}

/// Why a request has no valid API key: each case is its own sentence after the contract's
/// "Unauthorized. A valid API key is required.", so that a client sees what to fix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unauthenticated {
    /// No `Authorization` header (and no `X-Api-Key`).
    Missing,
    /// The key was sent in an `X-Api-Key` header instead of `Authorization`.
    KeyHeader,
    /// An `Authorization` header of another scheme than `Bearer` (`Basic`, a bare key).
    OtherScheme,
    /// A bearer token that is not a key of this service (`crm_<id>_<secret>`).
    Malformed,
    /// A well-formed key that is unknown, revoked, or whose user is no longer an
    /// administrator (one answer: which one is not told to whoever holds a key).
    Refused,
    /// A key past its expiry.
    Expired,
}

impl Unauthenticated {
    /// The sentence added to the contract's message; `None` for a missing key, which gets
    /// the contract's message alone.
    fn detail(self) -> Option<&'static str> {
        match self {
            Unauthenticated::Missing => None,
            Unauthenticated::KeyHeader => Some(
                "The key goes in the Authorization header as \"Bearer <key>\", not in X-Api-Key.",
            ),
            Unauthenticated::OtherScheme => {
                Some("The Authorization header must read \"Bearer <key>\".")
            }
            Unauthenticated::Malformed => {
                Some("The bearer token is not an API key of this service (crm_<id>_<secret>).")
            }
            Unauthenticated::Refused => Some("This API key is unknown or was revoked."),
            Unauthenticated::Expired => Some("This API key has expired."),
        }
    }

    /// The `WWW-Authenticate` challenge (RFC 6750 §3): the scheme alone for a request
    /// without credentials, `invalid_request` for a header of the wrong form,
    /// `invalid_token` for a key that is not accepted.
    fn challenge(self) -> String {
        let error = match self {
            Unauthenticated::Missing => return format!("Bearer realm=\"{REALM}\""),
            Unauthenticated::KeyHeader | Unauthenticated::OtherScheme => "invalid_request",
            Unauthenticated::Malformed | Unauthenticated::Refused | Unauthenticated::Expired => {
                "invalid_token"
            }
        };
        format!("Bearer realm=\"{REALM}\", error=\"{error}\"")
    }
}

/// The realm of the `WWW-Authenticate` challenges.
const REALM: &str = "crm";

/// The media types a request body may have, as a 415 lists them.
pub const ACCEPTED_TYPES: &str =
    "application/json, application/x-www-form-urlencoded, multipart/form-data";

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::NotFound(resource) => ApiError::NotFound(resource),
            StoreError::Invalid(errors) => ApiError::Invalid(errors),
            StoreError::Conflict(conflict) => ApiError::Conflict(conflict),
            StoreError::Unavailable(cause) => ApiError::Unavailable(cause),
            StoreError::PreconditionFailed => ApiError::PreconditionFailed,
            other => ApiError::Internal(other.to_string()),
        }
    }
}

#[derive(Serialize)]
struct Body<'a> {
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<&'a FieldErrors>,
    /// An e-invoice's readiness list (a [`ApiError::NotReady`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<&'a [crm_einvoice::Missing]>,
}

/// The contract's message of every 401 (API.md §1), which a sentence saying what was
/// wrong follows.
const UNAUTHORIZED: &str = "Unauthorized. A valid API key is required.";

/// The request header of a retry-safe `POST` (and the field its 422 names).
pub const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

/// The answer to an idempotency key sent again with another request.
const KEY_REUSED: &str = "The idempotency key was already used for a different request.";

/// Seconds a client should wait before retrying a 503.
pub const RETRY_AFTER_SECONDS: u32 = 5;

/// Seconds a client should wait before retrying a 429 (requests in progress end quickly).
pub const BUSY_RETRY_AFTER_SECONDS: u32 = 1;

impl ApiError {
    /// The status code.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::BadJson => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::OutOfScope(_) | ApiError::OriginNotAllowed => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) | ApiError::RouteNotFound => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) | ApiError::IdempotencyInProgress => StatusCode::CONFLICT,
            ApiError::PreconditionFailed => StatusCode::PRECONDITION_FAILED,
            ApiError::IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Invalid(_) | ApiError::NotReady(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooManyInFlight
            | ApiError::RateLimited(_)
            | ApiError::AuthFailuresLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::TransferCodingNotImplemented => StatusCode::NOT_IMPLEMENTED,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Whether this is a handler's refusal of the request itself — validation (422), an
    /// unknown record (404), a business conflict (409) — as opposed to the service's own
    /// condition (a key in progress or reused, the database, a bug). A refusal
    /// is stored under the request's idempotency key like any answer.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            ApiError::Invalid(_)
                | ApiError::NotReady(_)
                | ApiError::NotFound(_)
                | ApiError::Conflict(_)
        )
    }

    /// The `message` shown to the client.
    pub fn message(&self) -> String {
        match self {
            ApiError::BadRequest(m) => (*m).to_owned(),
            ApiError::BadJson => "The request body is not valid JSON.".to_owned(),
            ApiError::Unauthorized(why) => match why.detail() {
                Some(detail) => format!("{UNAUTHORIZED} {detail}"),
                None => UNAUTHORIZED.to_owned(),
            },
            ApiError::OutOfScope(need) => format!(
                "This API key is not allowed to do this: it needs the {need} scope (or {}).",
                need.level
            ),
            ApiError::OriginNotAllowed => "This origin is not allowed.".to_owned(),
            ApiError::NotFound(resource) => resource.not_found_message().to_owned(),
            ApiError::RouteNotFound => "Route not found.".to_owned(),
            ApiError::MethodNotAllowed(_) => "Method not allowed.".to_owned(),
            ApiError::Conflict(conflict) => conflict.message(),
            ApiError::BodyTimeout => "The request body was not received in time.".to_owned(),
            ApiError::PayloadTooLarge => "The request body is too large.".to_owned(),
            ApiError::UnsupportedMediaType => {
                format!("Unsupported content type. Send {ACCEPTED_TYPES}.")
            }
            ApiError::Invalid(_) => "The given data was invalid.".to_owned(),
            ApiError::NotReady(_) => {
                "The document is not ready for this e-invoice format.".to_owned()
            }
            ApiError::IdempotencyInProgress => {
                "A request with this idempotency key is still in progress.".to_owned()
            }
            ApiError::IdempotencyKeyReused => KEY_REUSED.to_owned(),
            ApiError::PreconditionFailed => {
                "The record was changed by someone else. Read it again and retry.".to_owned()
            }
            ApiError::TooManyInFlight => {
                "Too many requests in progress for this API key.".to_owned()
            }
            ApiError::RateLimited(_) => "Too many requests.".to_owned(),
            ApiError::AuthFailuresLimited(_) => {
                "Too many failed authentications from this address.".to_owned()
            }
            ApiError::TransferCodingNotImplemented => {
                "Only the chunked transfer coding is supported.".to_owned()
            }
            ApiError::Unavailable(_) => "Service temporarily unavailable.".to_owned(),
            ApiError::Internal(_) => "Server error.".to_owned(),
        }
    }

    /// The JSON body.
    pub fn body(&self) -> Vec<u8> {
        let message = self.message();
        let reused;
        let listed;
        let errors = match self {
            ApiError::Invalid(errors) => Some(errors),
            ApiError::NotReady(missing) => {
                let mut errors = FieldErrors::new();
                for m in missing {
                    errors.add(&m.field, format!("{}: {}", m.term, m.message));
                }
                listed = errors;
                Some(&listed)
            }
            ApiError::IdempotencyKeyReused => {
                reused = FieldErrors::single(IDEMPOTENCY_KEY, KEY_REUSED.to_owned());
                Some(&reused)
            }
            _ => None,
        };
        let missing = match self {
            ApiError::NotReady(missing) => Some(missing.as_slice()),
            _ => None,
        };
        serde_json::to_vec(&Body {
            message: &message,
            errors,
            missing,
        })
        .unwrap_or_else(|_| b"{\"message\":\"Server error.\"}".to_vec())
    }

    /// Extra headers: `Allow` on 405, `Retry-After` on 429 and 503 (the `RateLimit-*` headers
    /// of a rate-limited key are added by [`crate::app`] to every answer), `Connection: close` on
    /// 408 (the rest of the body may still be on its way: the connection cannot be reused).
    pub fn headers(&self) -> Vec<(http::header::HeaderName, String)> {
        match self {
            ApiError::MethodNotAllowed(allow) => vec![(http::header::ALLOW, allow.clone())],
            ApiError::Unauthorized(why) => vec![(http::header::WWW_AUTHENTICATE, why.challenge())],
            ApiError::OutOfScope(need) => vec![(
                http::header::WWW_AUTHENTICATE,
                format!(
                    "Bearer realm=\"{REALM}\", error=\"insufficient_scope\", scope=\"{need} {}\"",
                    need.level
                ),
            )],

            ApiError::BodyTimeout | ApiError::TransferCodingNotImplemented => {
                vec![(http::header::CONNECTION, "close".to_owned())]
            }
            ApiError::TooManyInFlight => vec![(
                http::header::RETRY_AFTER,
                BUSY_RETRY_AFTER_SECONDS.to_string(),
            )],
            ApiError::RateLimited(seconds) | ApiError::AuthFailuresLimited(seconds) => {
                vec![(http::header::RETRY_AFTER, seconds.to_string())]
            }
            ApiError::Unavailable(_) => {
                vec![(http::header::RETRY_AFTER, RETRY_AFTER_SECONDS.to_string())]
            }
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(e: &ApiError) -> serde_json::Value {
        serde_json::from_slice(&e.body()).unwrap()
    }

    #[test]
    fn validation_errors_are_422_with_every_field() {
        let e = ApiError::Invalid(FieldErrors::single(
            "doc_title",
            "The doc title field is required.".into(),
        ));
        assert_eq!(e.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            json(&e),
            serde_json::json!({"message": "The given data was invalid.", "errors": {"doc_title": ["The doc title field is required."]}})
        );
    }

    #[test]
    fn a_key_out_of_its_scopes_is_403_naming_the_scope_it_needs() {
        let need = Need::of_route("POST", "/api/estimates").unwrap();
        let e = ApiError::OutOfScope(need);
        assert_eq!(e.status(), StatusCode::FORBIDDEN);
        assert_eq!(
            json(&e),
            serde_json::json!({"message": "This API key is not allowed to do this: it needs the estimates:write scope (or write)."})
        );
        assert_eq!(
            e.headers(),
            vec![(
                http::header::WWW_AUTHENTICATE,
                "Bearer realm=\"crm\", error=\"insufficient_scope\", scope=\"estimates:write write\""
                    .to_owned()
            )]
        );
        assert!(!e.is_refusal(), "not stored under an idempotency key");
    }

    #[test]
    fn each_401_says_what_was_wrong_and_challenges_for_a_bearer_key() {
        use Unauthenticated::*;
        let cases = [Missing, KeyHeader, OtherScheme, Malformed, Refused, Expired];
        let messages: std::collections::BTreeSet<String> = cases
            .iter()
            .map(|why| ApiError::Unauthorized(*why).message())
            .collect();
        assert_eq!(messages.len(), cases.len(), "one sentence per case");
        for why in cases {
            let e = ApiError::Unauthorized(why);
            assert_eq!(e.status(), StatusCode::UNAUTHORIZED);
            assert!(e.message().starts_with(UNAUTHORIZED), "{}", e.message());
            let headers = e.headers();
            assert_eq!(headers[0].0, http::header::WWW_AUTHENTICATE);
            assert!(
                headers[0].1.starts_with("Bearer realm=\"crm\""),
                "{headers:?}"
            );
        }
        assert_eq!(ApiError::Unauthorized(Missing).message(), UNAUTHORIZED);
        assert!(
            ApiError::Unauthorized(KeyHeader)
                .message()
                .contains("not in X-Api-Key")
        );
    }

    #[test]
    fn a_415_lists_the_accepted_types() {
        let e = ApiError::UnsupportedMediaType;
        assert_eq!(
            e.message(),
            "Unsupported content type. Send application/json, application/x-www-form-urlencoded, multipart/form-data."
        );
    }

    #[test]
    fn server_errors_never_show_their_cause() {
        let e = ApiError::Internal("relation \"secret\" does not exist".into());
        assert_eq!(e.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(json(&e), serde_json::json!({"message": "Server error."}));
    }

    #[test]
    fn an_unreachable_database_is_503_with_retry_after() {
        let e: ApiError = StoreError::Unavailable("connection refused".into()).into();
        assert_eq!(e.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            json(&e),
            serde_json::json!({"message": "Service temporarily unavailable."})
        );
        assert_eq!(e.headers()[0].0, http::header::RETRY_AFTER);
    }

    #[test]
    fn store_outcomes_map_to_their_statuses() {
        let nf: ApiError = StoreError::NotFound(Resource::Note).into();
        assert_eq!(
            (nf.status(), nf.message()),
            (StatusCode::NOT_FOUND, "Note not found.".to_owned())
        );
        let c: ApiError = StoreError::Conflict(Conflict::DefaultMilestone).into();
        assert_eq!(
            (c.status(), c.message()),
            (
                StatusCode::CONFLICT,
                "You cannot delete the default milestone.".to_owned()
            )
        );
    }

    #[test]
    fn fixed_messages_match_the_contract() {
        assert_eq!(
            ApiError::Unauthorized(Unauthenticated::Missing).message(),
            "Unauthorized. A valid API key is required."
        );
        assert_eq!(ApiError::RouteNotFound.message(), "Route not found.");
        assert_eq!(
            ApiError::PayloadTooLarge.message(),
            "The request body is too large."
        );
        assert_eq!(
            ApiError::BadJson.message(),
            "The request body is not valid JSON."
        );
        assert_eq!(
            ApiError::BodyTimeout.message(),
            "The request body was not received in time."
        );
    }

    #[test]
    fn resource_limits_have_their_statuses_and_headers() {
        assert_eq!(ApiError::BodyTimeout.status(), StatusCode::REQUEST_TIMEOUT);
        assert_eq!(
            ApiError::BodyTimeout.headers(),
            vec![(http::header::CONNECTION, "close".to_owned())]
        );
        assert_eq!(
            ApiError::TooManyInFlight.status(),
            StatusCode::TOO_MANY_REQUESTS
        );
        assert_eq!(
            ApiError::TooManyInFlight.headers(),
            vec![(http::header::RETRY_AFTER, "1".to_owned())]
        );
    }
}
