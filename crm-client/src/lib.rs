//! A Rust client of the CRM business-records API.
//!
//! [`Client`] sends JSON requests with a Bearer key and reads the answers into typed values:
//! crm-core's own types where they exist and read back what the service writes
//! ([`Note`](crm_core::note::Note), [`Client`](crm_core::client::Client),
//! [`TaxRate`](crm_core::tax_rate::TaxRate), the ids, the amounts, the
//! [`FieldErrors`] of a 422, a list's
//! [`PageMeta`]), and this crate's [`views`] of the records whose
//! crm-core type is written by hand for the service and has no reader (estimates, invoices,
//! payments, categories). The request bodies are in [`requests`]; [`webhooks::verify`]
//! checks a webhook delivery's signature.
//!
//! ```no_run
//! # async fn demo() -> Result<(), crm_client::Error> {
//! use crm_client::{Client, Options, requests::NewNote};
//!
//! let api = Client::new("http://127.0.0.1:8080", "crm_1_secret")?;
//! let note = api.create_note(&NewNote::new("Call", "Renewal"), &Options::default()).await?;
//! let id = note.body.data.id; // a crm_core::ids::NoteId
//! let shown = api.get_note(id).await?;
//! // A conditional update: refused with a 412 (Error::Refused) if someone changed it since.
//! let version = Options::if_match(shown.etag()?);
//! let changed = api.update_note(id, &NewNote::new("Call back", "Renewal"), &version).await?;
//! assert_eq!(changed.body.data.title, "Call back");
//! # Ok(()) }
//! ```
//!
//! Every request opens its own HTTP/1.1 connection (plain or TLS with the Mozilla roots), so
//! a [`Client`] is cheap to clone and share; it needs a tokio runtime.

use std::sync::Arc;

use bytes::Bytes;
use crm_core::ids::{CategoryId, ClientId, EstimateId, InvoiceId, NoteId, PaymentId, TaxRateId};
use crm_core::listing::PageMeta;
use crm_core::validation::FieldErrors;
use http::header::{ACCEPT, AUTHORIZATION, CONNECTION, CONTENT_TYPE, HOST, USER_AGENT};
use http::{HeaderMap, Method, StatusCode, Uri};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde::Serialize;
use serde::de::DeserializeOwned;

pub mod requests;
pub mod views;
pub mod webhooks;

/// What went wrong with a request.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The service refused the request's fields (422): its message and each failing field
    /// with its messages.
    #[error("{message} ({} field(s) refused)", errors.iter().count())]
    Invalid {
        /// `The given data was invalid.`
        message: String,
        /// The messages of each refused field (`items.0.rate`, …).
        errors: FieldErrors,
    },
    /// Any other answer that is not a success: its status and its `message`.
    #[error("{status}: {message}")]
    Refused {
        /// The status (401, 403, 404, 409, 412, 429, …).
        status: StatusCode,
        /// The answer's `message`.
        message: String,
    },
    /// No answer: the address, the connection or TLS failed.
    #[error("no answer: {0}")]
    Transport(String),
    /// An answer this client cannot read (not the JSON the document describes).
    #[error("an answer that does not read as expected ({status}): {reason}")]
    Unreadable {
        /// Its status.
        status: StatusCode,
        /// Why.
        reason: String,
    },
    /// A base URL or an argument this client cannot use.
    #[error("{0}")]
    Usage(String),
}

/// A successful answer: its status, its headers and its body read as `T`.
#[derive(Debug, Clone)]
pub struct Answer<T> {
    /// 200 or 201.
    pub status: StatusCode,
    /// Every header of the answer.
    pub headers: HeaderMap,
    /// The body.
    pub body: T,
}

impl<T> Answer<T> {
    /// The record's `ETag` (for [`Options::if_match`]), or a usage error when the answer
    /// has none (a list, a deletion).
    pub fn etag(&self) -> Result<String, Error> {
        self.headers
            .get(http::header::ETAG)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| Error::Usage("the answer has no ETag".to_owned()))
    }

    /// Whether this is a stored answer given again for a repeated `Idempotency-Key`
    /// (`Idempotent-Replayed: true`).
    pub fn replayed(&self) -> bool {
        self.headers
            .get("idempotent-replayed")
            .is_some_and(|v| v.as_bytes() == b"true")
    }
}

/// The envelope of a record: `{"data": …, "message": …}`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Record<T> {
    /// The record.
    pub data: T,
    /// What was done (`Note created successfully.`), on writes.
    #[serde(default)]
    pub message: Option<String>,
}

/// A page of a list: its records and where the next one starts.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Page<T> {
    /// The records of this page.
    pub data: Vec<T>,
    /// Counts and cursors ([`PageMeta::next_cursor`] is `None` after the last page).
    pub meta: PageMeta,
}

/// The conditions of a request: the headers that make it safe to retry or to race.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `Idempotency-Key` (POST): a retry with the same key and body gets the first answer
    /// again, with no second effect.
    pub idempotency_key: Option<String>,
    /// `If-Match` (PUT, PATCH, DELETE): the request applies only to the version with this
    /// ETag; another is a 412.
    pub if_match: Option<String>,
}

impl Options {
    /// Only an `Idempotency-Key`.
    pub fn idempotency_key(key: impl Into<String>) -> Options {
        Options {
            idempotency_key: Some(key.into()),
            ..Options::default()
        }
    }

    /// Only an `If-Match`.
    pub fn if_match(etag: impl Into<String>) -> Options {
        Options {
            if_match: Some(etag.into()),
            ..Options::default()
        }
    }
}

/// A client of one service with one API key. The key is never shown (`Debug` leaves it out).
#[derive(Clone)]
pub struct Client {
    base: Base,
    authorization: String,
    tls: Option<Arc<rustls::ClientConfig>>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.base)
            .field("key", &"…")
            .finish()
    }
}

/// Where the service is.
#[derive(Debug, Clone)]
struct Base {
    host: String,
    port: u16,
    /// `host` or `host:port`, for the `Host` header.
    authority: String,
    /// The path before `/api/…` (empty, or `/crm` behind a proxy), without a final `/`.
    prefix: String,
}

impl Client {
    /// A client of the service at `base_url` (`http://127.0.0.1:8080`,
    /// `https://crm.example.com`), authenticated with `api_key` (`crm_<id>_<secret>`).
    pub fn new(base_url: &str, api_key: &str) -> Result<Client, Error> {
        let uri: Uri = base_url
            .parse()
            .map_err(|e| Error::Usage(format!("the base URL {base_url:?}: {e}")))?;
        let secure = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => {
                return Err(Error::Usage(format!(
                    "the base URL {base_url:?} is neither http:// nor https://"
                )));
            }
        };
        let authority = uri
            .authority()
            .ok_or_else(|| Error::Usage(format!("the base URL {base_url:?} has no host")))?;
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let port = authority
            .port_u16()
            .unwrap_or(if secure { 443 } else { 80 });
        if api_key.is_empty() || api_key.chars().any(|c| c.is_control() || c == ' ') {
            return Err(Error::Usage(
                "the API key is empty or holds spaces or control characters".to_owned(),
            ));
        }
        let tls = if secure {
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            let roots = rustls::RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            };
            let mut config = rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .map_err(|e| Error::Usage(format!("TLS: {e}")))?
                .with_root_certificates(roots)
                .with_no_client_auth();
            config.alpn_protocols = vec![b"http/1.1".to_vec()];
            Some(Arc::new(config))
        } else {
            None
        };
        Ok(Client {
            base: Base {
                host,
                port,
                authority: authority.as_str().to_owned(),
                prefix: uri.path().trim_end_matches('/').to_owned(),
            },
            authorization: format!("Bearer {api_key}"),
            tls,
        })
    }

    /// Sends `method path` (`/api/…`, with its query) with `body` as JSON and the headers of
    /// `options`, and reads a successful answer as `T`. Every typed method below is this;
    /// use it for the operations they do not name (the OpenAPI document lists them all).
    pub async fn send<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<&B>,
        options: &Options,
    ) -> Result<Answer<T>, Error> {
        let body = body
            .map(serde_json::to_vec)
            .transpose()
            .map_err(|e| Error::Usage(format!("the request body: {e}")))?;
        let (status, headers, bytes) = self.exchange(method, path, body, options).await?;
        if status.is_success() {
            let body = serde_json::from_slice(&bytes).map_err(|e| Error::Unreadable {
                status,
                reason: e.to_string(),
            })?;
            return Ok(Answer {
                status,
                headers,
                body,
            });
        }
        #[derive(serde::Deserialize)]
        struct Failure {
            message: String,
            #[serde(default)]
            errors: Option<FieldErrors>,
        }
        let failure: Failure = serde_json::from_slice(&bytes).map_err(|e| Error::Unreadable {
            status,
            reason: format!("{e}: {}", String::from_utf8_lossy(&bytes)),
        })?;
        Err(match (status, failure.errors) {
            (StatusCode::UNPROCESSABLE_ENTITY, Some(errors)) => Error::Invalid {
                message: failure.message,
                errors,
            },
            _ => Error::Refused {
                status,
                message: failure.message,
            },
        })
    }

    /// One request on a connection of its own: the status, headers and body of the answer.
    async fn exchange(
        &self,
        method: Method,
        path: &str,
        body: Option<Vec<u8>>,
        options: &Options,
    ) -> Result<(StatusCode, HeaderMap, Bytes), Error> {
        if !path.starts_with('/') {
            return Err(Error::Usage(format!(
                "the path {path:?} does not start with /"
            )));
        }
        let mut request = http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base.prefix))
            .header(HOST, &self.base.authority)
            .header(AUTHORIZATION, &self.authorization)
            .header(ACCEPT, "application/json")
            .header(
                USER_AGENT,
                concat!("crm-client/", env!("CARGO_PKG_VERSION")),
            )
            .header(CONNECTION, "close");
        if body.is_some() {
            request = request.header(CONTENT_TYPE, "application/json");
        }
        if let Some(key) = &options.idempotency_key {
            request = request.header("Idempotency-Key", key);
        }
        if let Some(etag) = &options.if_match {
            request = request.header(http::header::IF_MATCH, etag);
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| Error::Usage(format!("the request: {e}")))?;
        let stream = tokio::net::TcpStream::connect((self.base.host.as_str(), self.base.port))
            .await
            .map_err(|e| Error::Transport(format!("{}:{}: {e}", self.base.host, self.base.port)))?;
        match &self.tls {
            None => one_exchange(TokioIo::new(stream), request).await,
            Some(config) => {
                let name = rustls::pki_types::ServerName::try_from(self.base.host.clone())
                    .map_err(|e| Error::Usage(format!("the host {}: {e}", self.base.host)))?;
                let stream = tokio_rustls::TlsConnector::from(config.clone())
                    .connect(name, stream)
                    .await
                    .map_err(|e| Error::Transport(format!("TLS: {e}")))?;
                one_exchange(TokioIo::new(stream), request).await
            }
        }
    }
}

/// Sends `request` on a new HTTP/1.1 connection over `io` and reads the whole answer.
async fn one_exchange<I>(
    io: I,
    request: http::Request<Full<Bytes>>,
) -> Result<(StatusCode, HeaderMap, Bytes), Error>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let failed = |e: hyper::Error| Error::Transport(e.to_string());
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(failed)?;
    let driver = tokio::spawn(connection);
    let response = sender.send_request(request).await.map_err(failed)?;
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.map_err(failed)?.to_bytes();
    drop(sender);
    // The connection ends with the answer (`Connection: close`); its own error, if any,
    // came too late to matter.
    let _ = driver.await;
    Ok((parts.status, parts.headers, bytes))
}

/// A path segment of an id.
fn id_path(kind: &str, id: impl std::fmt::Display, rest: &str) -> String {
    format!("/api/{kind}/{id}{rest}")
}

/// The typed operations of the walkthrough (the README's), each one request.
impl Client {
    /// `PATCH /api/company`: the fields sent change, the others stay.
    pub async fn update_company(
        &self,
        company: &requests::CompanyUpdate,
    ) -> Result<Answer<Record<serde_json::Value>>, Error> {
        self.send(
            Method::PATCH,
            "/api/company",
            Some(company),
            &Options::default(),
        )
        .await
    }

    /// `POST /api/clients`.
    pub async fn create_client(
        &self,
        client: &requests::NewClient,
        options: &Options,
    ) -> Result<Answer<Record<crm_core::client::Client>>, Error> {
        self.send(Method::POST, "/api/clients", Some(client), options)
            .await
    }

    /// `GET /api/clients/{id}`.
    pub async fn get_client(
        &self,
        id: ClientId,
    ) -> Result<Answer<Record<crm_core::client::Client>>, Error> {
        self.send::<(), _>(
            Method::GET,
            &id_path("clients", id, ""),
            None,
            &Options::default(),
        )
        .await
    }

    /// `POST /api/tax-rates`.
    pub async fn create_tax_rate(
        &self,
        rate: &requests::NewTaxRate,
        options: &Options,
    ) -> Result<Answer<Record<crm_core::tax_rate::TaxRate>>, Error> {
        self.send(Method::POST, "/api/tax-rates", Some(rate), options)
            .await
    }

    /// `GET /api/tax-rates/{id}`.
    pub async fn get_tax_rate(
        &self,
        id: TaxRateId,
    ) -> Result<Answer<Record<crm_core::tax_rate::TaxRate>>, Error> {
        self.send::<(), _>(
            Method::GET,
            &id_path("tax-rates", id, ""),
            None,
            &Options::default(),
        )
        .await
    }

    /// `POST /api/categories`.
    pub async fn create_category(
        &self,
        category: &requests::NewCategory,
        options: &Options,
    ) -> Result<Answer<Record<views::Category>>, Error> {
        self.send(Method::POST, "/api/categories", Some(category), options)
            .await
    }

    /// `GET /api/categories/{id}`.
    pub async fn get_category(
        &self,
        id: CategoryId,
    ) -> Result<Answer<Record<views::Category>>, Error> {
        self.send::<(), _>(
            Method::GET,
            &id_path("categories", id, ""),
            None,
            &Options::default(),
        )
        .await
    }

    /// `POST /api/estimates`: a draft.
    pub async fn create_estimate(
        &self,
        estimate: &requests::NewBill,
        options: &Options,
    ) -> Result<Answer<Record<views::Estimate>>, Error> {
        self.send(Method::POST, "/api/estimates", Some(estimate), options)
            .await
    }

    /// `GET /api/estimates/{id}`.
    pub async fn get_estimate(
        &self,
        id: EstimateId,
    ) -> Result<Answer<Record<views::Estimate>>, Error> {
        self.send::<(), _>(
            Method::GET,
            &id_path("estimates", id, ""),
            None,
            &Options::default(),
        )
        .await
    }

    /// `PUT /api/estimates/{id}/items`: the lines (and the summary taxes), totals recomputed
    /// by the service.
    pub async fn set_estimate_items(
        &self,
        id: EstimateId,
        items: &requests::Items,
        options: &Options,
    ) -> Result<Answer<Record<views::Estimate>>, Error> {
        self.send(
            Method::PUT,
            &id_path("estimates", id, "/items"),
            Some(items),
            options,
        )
        .await
    }

    /// `PUT /api/estimates/{id}/publish`: draft → new, with its number and client link.
    pub async fn publish_estimate(
        &self,
        id: EstimateId,
        options: &Options,
    ) -> Result<Answer<Record<views::Estimate>>, Error> {
        self.send::<(), _>(
            Method::PUT,
            &id_path("estimates", id, "/publish"),
            None,
            options,
        )
        .await
    }

    /// `POST /api/estimates/{id}/convert-to-invoice`: a draft invoice with its lines. Give
    /// an [`Options::idempotency_key`] to retry it safely.
    pub async fn convert_estimate(
        &self,
        id: EstimateId,
        options: &Options,
    ) -> Result<Answer<Record<views::Invoice>>, Error> {
        self.send::<(), _>(
            Method::POST,
            &id_path("estimates", id, "/convert-to-invoice"),
            None,
            options,
        )
        .await
    }

    /// `GET /api/invoices/{id}`.
    pub async fn get_invoice(
        &self,
        id: InvoiceId,
    ) -> Result<Answer<Record<views::Invoice>>, Error> {
        self.send::<(), _>(
            Method::GET,
            &id_path("invoices", id, ""),
            None,
            &Options::default(),
        )
        .await
    }

    /// `PUT /api/invoices/{id}/items` (a draft's only: an issued invoice is a 409).
    pub async fn set_invoice_items(
        &self,
        id: InvoiceId,
        items: &requests::Items,
        options: &Options,
    ) -> Result<Answer<Record<views::Invoice>>, Error> {
        self.send(
            Method::PUT,
            &id_path("invoices", id, "/items"),
            Some(items),
            options,
        )
        .await
    }

    /// `PUT /api/invoices/{id}/publish`: issued, with its number; its email is queued.
    pub async fn publish_invoice(
        &self,
        id: InvoiceId,
        options: &Options,
    ) -> Result<Answer<Record<views::Invoice>>, Error> {
        self.send::<(), _>(
            Method::PUT,
            &id_path("invoices", id, "/publish"),
            None,
            options,
        )
        .await
    }

    /// `POST /api/payments`: the invoice's status follows (Part Paid, Paid).
    pub async fn record_payment(
        &self,
        payment: &requests::NewPayment,
        options: &Options,
    ) -> Result<Answer<Record<views::Payment>>, Error> {
        self.send(Method::POST, "/api/payments", Some(payment), options)
            .await
    }

    /// `GET /api/payments/{id}`.
    pub async fn get_payment(
        &self,
        id: PaymentId,
    ) -> Result<Answer<Record<views::Payment>>, Error> {
        self.send::<(), _>(
            Method::GET,
            &id_path("payments", id, ""),
            None,
            &Options::default(),
        )
        .await
    }

    /// `POST /api/notes`.
    pub async fn create_note(
        &self,
        note: &requests::NewNote,
        options: &Options,
    ) -> Result<Answer<Record<crm_core::note::Note>>, Error> {
        self.send(Method::POST, "/api/notes", Some(note), options)
            .await
    }

    /// `GET /api/notes/{id}` (its [`Answer::etag`] is the version to update).
    pub async fn get_note(
        &self,
        id: NoteId,
    ) -> Result<Answer<Record<crm_core::note::Note>>, Error> {
        self.send::<(), _>(
            Method::GET,
            &id_path("notes", id, ""),
            None,
            &Options::default(),
        )
        .await
    }

    /// `PATCH /api/notes/{id}`; with [`Options::if_match`], only if unchanged since.
    pub async fn update_note(
        &self,
        id: NoteId,
        note: &requests::NewNote,
        options: &Options,
    ) -> Result<Answer<Record<crm_core::note::Note>>, Error> {
        self.send(
            Method::PATCH,
            &id_path("notes", id, ""),
            Some(note),
            options,
        )
        .await
    }

    /// `GET /api/notes`: one page of at most `limit` notes (100 at most), from `cursor`
    /// (`None`: the first); follow [`PageMeta::next_cursor`] for the next.
    pub async fn list_notes(
        &self,
        limit: u32,
        cursor: Option<&str>,
    ) -> Result<Answer<Page<crm_core::note::Note>>, Error> {
        self.send::<(), _>(
            Method::GET,
            &list_path("/api/notes", limit, cursor),
            None,
            &Options::default(),
        )
        .await
    }
}

/// `path?limit=N[&cursor=…]`, the cursor percent-encoded.
fn list_path(path: &str, limit: u32, cursor: Option<&str>) -> String {
    match cursor {
        None => format!("{path}?limit={limit}"),
        Some(cursor) => format!(
            "{path}?limit={limit}&cursor={}",
            percent_encoding::utf8_percent_encode(cursor, percent_encoding::NON_ALPHANUMERIC)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_url_gives_host_port_and_prefix_and_the_key_is_not_shown() {
        let api = Client::new("https://crm.example.com/crm/", "crm_1_secret").unwrap();
        assert_eq!(
            (
                api.base.host.as_str(),
                api.base.port,
                api.base.prefix.as_str()
            ),
            ("crm.example.com", 443, "/crm")
        );
        assert!(api.tls.is_some());
        assert!(!format!("{api:?}").contains("secret"));
        let local = Client::new("http://127.0.0.1:8181", "k").unwrap();
        assert_eq!((local.base.port, local.base.prefix.as_str()), (8181, ""));
        assert!(local.tls.is_none());
        for refused in ["ftp://x", "127.0.0.1:8080", "http://"] {
            assert!(Client::new(refused, "k").is_err(), "{refused}");
        }
        assert!(Client::new("http://x", "two words").is_err());
    }

    #[test]
    fn a_cursor_is_percent_encoded_in_the_query() {
        assert_eq!(list_path("/api/notes", 2, None), "/api/notes?limit=2");
        assert_eq!(
            list_path("/api/notes", 2, Some("a+b/c=")),
            "/api/notes?limit=2&cursor=a%2Bb%2Fc%3D"
        );
    }
}
