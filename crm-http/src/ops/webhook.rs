//! The webhook sender (API.md §13): one HTTP attempt to deliver one message to one endpoint,
//! as the Standard Webhooks 1.0 specification defines it, and its [`Outcome`]. The outbox
//! worker owns everything around an attempt (which message, when, the retry schedule, the
//! endpoint's state); this module owns the request itself.
//!
//! - `POST` of the body as it is, with `content-type: application/json`, `webhook-id`,
//!   `webhook-timestamp` (Unix seconds of the attempt) and `webhook-signature` ([`signature`]:
//!   one `v1,<base64>` per secret, space-separated, so that during a rotation a receiver
//!   holding either secret verifies it).
//! - Success is a 2xx answer, its body read, within [`SenderOptions::timeout`] (15 s).
//!   Redirects are not followed (a 3xx is a failure), proxies from the environment are not
//!   used.
//! - `https` only, unless [`SenderOptions::allow_http`]. Unless
//!   [`SenderOptions::allow_private`], a host that is, or resolves to, an address
//!   [`forbidden`] says no to is refused before anything is sent: the check is made on the
//!   addresses the connection is made to, by the client's own resolver, at every attempt (a
//!   name that changes its answers between attempts, or between a check and a connection,
//!   gains nothing).
//!
//! One [`Sender`] holds one HTTP client (its connection pool); clone it freely.
//!
//! TLS is rustls with the *ring* provider and the Mozilla root certificates (webpki-roots),
//! configured here. Because this crate turns on reqwest's rustls support, any *other*
//! `reqwest::Client` built in the same process needs a process-wide rustls provider:
//! [`install_crypto_provider`].

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use hmac::{Hmac, KeyInit, Mac};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::{StatusCode, Url, header};
use sha2::Sha256;

/// The longest wait a `Retry-After` answer can ask for: a longer one is cut to this.
pub const RETRY_AFTER_MAX: Duration = Duration::from_secs(24 * 60 * 60);

/// How much of an answer's body is read (then the rest is dropped, with the connection).
const ANSWER_BODY_MAX: usize = 64 * 1024;

/// The prefix of a Standard Webhooks secret.
const SECRET_PREFIX: &str = "whsec_";

/// Settings of the sender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SenderOptions {
    /// Allow `http://` endpoints (`--webhook-allow-http`); otherwise `https://` only.
    pub allow_http: bool,
    /// Allow endpoints on addresses [`forbidden`] refuses (`--webhook-allow-private`).
    pub allow_private: bool,
    /// The limit of one attempt, from the start of the connection to the end of the
    /// answer's body (API.md: 15 s).
    pub timeout: Duration,
    /// The `user-agent` header.
    pub user_agent: String,
}

impl Default for SenderOptions {
    /// https only, public addresses only, 15 s, `crm-webhooks/<version>`.
    fn default() -> Self {
        Self {
            allow_http: false,
            allow_private: false,
            timeout: Duration::from_secs(15),
            user_agent: format!("crm-webhooks/{}", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// One message to one endpoint.
#[derive(Clone, Copy)]
pub struct Message<'a> {
    /// The endpoint's URL.
    pub url: &'a str,
    /// The event's id (`webhook-id`): the same on every attempt.
    pub id: &'a str,
    /// The JSON body, sent byte for byte as signed.
    pub body: &'a [u8],
    /// The endpoint's secrets (`whsec_<base64>`): one, or two during a rotation; each gives
    /// a signature.
    pub secrets: &'a [&'a str],
}

impl fmt::Debug for Message<'_> {
    /// Everything but the secrets (their number only).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Message")
            .field("url", &self.url)
            .field("id", &self.id)
            .field("body_len", &self.body.len())
            .field("secrets", &self.secrets.len())
            .finish()
    }
}

/// What became of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A 2xx answer, within the time limit.
    Delivered {
        /// The answer's status.
        status: u16,
    },
    /// Any answer but a 2xx or a 410, a timeout, a connection or TLS error: to be retried.
    Failed {
        /// The answer's status, when there was one.
        status: Option<u16>,
        /// What went wrong, for the delivery's `last_error` (never a secret).
        error: String,
        /// The wait a 429 or 503 asked for with `Retry-After` (seconds or an HTTP date; at
        /// most [`RETRY_AFTER_MAX`]; zero for a date already past).
        retry_after: Option<Duration>,
    },
    /// 410 Gone: the endpoint must be disabled at once.
    Gone,
    /// No complete answer within the time limit (the connection, the answer or its body
    /// took too long): a failure to be retried, which the endpoint's circuit breaker counts
    /// (issue 47: an endpoint that never answers holds a sending slot for the whole limit).
    TimedOut {
        /// What took too long, for the delivery's `last_error`.
        error: String,
    },
    /// Refused before sending: the URL is not allowed (its scheme, or a host that is or
    /// resolves to a [`forbidden`] address), or the message cannot be signed (a secret that
    /// is not `whsec_<base64>`). Also a failed attempt; `error` says why (never a secret).
    Refused {
        /// Why.
        error: String,
    },
}

/// Sends webhook messages; one HTTP client inside (connection reuse, a pool whose idle
/// connections close after 90 s). Cheap to clone: the clones share the client.
#[derive(Debug, Clone)]
pub struct Sender {
    http: reqwest::Client,
    options: Arc<SenderOptions>,
}

impl Sender {
    /// A sender with these settings. Fails only if the HTTP client cannot be built.
    pub fn new(options: SenderOptions) -> Result<Self, String> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let mut tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("webhook sender TLS: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        // HTTP/1.1 is what the client speaks (reqwest is built without HTTP/2).
        tls.alpn_protocols = vec![b"http/1.1".to_vec()];
        let http = reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .dns_resolver(Arc::new(CheckingResolver {
                allow_private: options.allow_private,
            }))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .timeout(options.timeout)
            .connect_timeout(options.timeout)
            .pool_idle_timeout(Duration::from_secs(90))
            .user_agent(options.user_agent.clone())
            .build()
            .map_err(|e| format!("webhook sender: {}", describe(&e)))?;
        Ok(Self {
            http,
            options: Arc::new(options),
        })
    }

    /// The sender's settings.
    pub fn options(&self) -> &SenderOptions {
        &self.options
    }

    /// One attempt to deliver `msg`, signed for `timestamp` (Unix seconds of the attempt,
    /// also sent as `webhook-timestamp`, and the "now" a `Retry-After` date is measured
    /// from). Never panics, never returns an error: every way it can end is an [`Outcome`].
    pub async fn send(&self, msg: &Message<'_>, timestamp: i64) -> Outcome {
        let url = match self.check_url(msg.url) {
            Ok(url) => url,
            Err(error) => return Outcome::Refused { error },
        };
        let signature = match signature(msg.secrets, msg.id, timestamp, msg.body) {
            Ok(signature) => signature,
            Err(error) => return Outcome::Refused { error },
        };
        let request = self
            .http
            .post(url)
            .header(header::CONTENT_TYPE, "application/json")
            .header("webhook-id", msg.id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(msg.body.to_vec());
        // reqwest's own timeout covers the same span; this one is the guarantee.
        match tokio::time::timeout(self.options.timeout, attempt(request, timestamp)).await {
            Ok(outcome) => outcome,
            Err(_) => Outcome::TimedOut {
                error: format!("no answer within {}", seconds(self.options.timeout)),
            },
        }
    }

    /// The URL if it may be sent to: it parses, its scheme is allowed, and a host given as
    /// an address is allowed (a name is checked when it is resolved, at the connection).
    fn check_url(&self, url: &str) -> Result<Url, String> {
        let url = Url::parse(url).map_err(|e| format!("invalid URL: {e}"))?;
        match url.scheme() {
            "https" => {}
            "http" if self.options.allow_http => {}
            "http" => return Err("http:// URLs are not allowed (https only)".to_owned()),
            other => return Err(format!("URL scheme {other:?} is not allowed")),
        }
        // The parser writes an address in its canonical form (IPv6 in brackets), whatever
        // form it was given in (`2130706433` and `0x7f.1` are 127.0.0.1).
        let Some(host) = url.host_str() else {
            return Err("the URL has no host".to_owned());
        };
        let literal = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        let Ok(ip) = literal.parse::<IpAddr>() else {
            return Ok(url);
        };
        if !self.options.allow_private && forbidden(ip) {
            return Err(forbidden_message(ip));
        }
        Ok(url)
    }
}

/// Sends the request and reads the answer's body (up to [`ANSWER_BODY_MAX`]).
async fn attempt(request: reqwest::RequestBuilder, now: i64) -> Outcome {
    let mut response = match request.send().await {
        Ok(response) => response,
        Err(e) => return failure(&e),
    };
    let status = response.status();
    // The body is part of the answer (and reading it lets the connection be reused).
    let mut read = 0;
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                read += chunk.len();
                if read > ANSWER_BODY_MAX {
                    break;
                }
            }
            Ok(None) => break,
            Err(e) if e.is_timeout() => {
                return Outcome::TimedOut {
                    error: format!("reading the answer: {}", describe(&e)),
                };
            }
            Err(e) => {
                return Outcome::Failed {
                    status: Some(status.as_u16()),
                    error: format!("reading the answer: {}", describe(&e)),
                    retry_after: None,
                };
            }
        }
    }
    if status.is_success() {
        return Outcome::Delivered {
            status: status.as_u16(),
        };
    }
    if status == StatusCode::GONE {
        return Outcome::Gone;
    }
    let retry_after =
        if status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers()
                .get(header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| parse_retry_after(v, now))
        } else {
            None
        };
    let error = if status.is_redirection() {
        match response
            .headers()
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
        {
            Some(location) => format!("HTTP {status} (redirects are not followed; to {location})"),
            None => format!("HTTP {status} (redirects are not followed)"),
        }
    } else {
        format!("HTTP {status}")
    };
    Outcome::Failed {
        status: Some(status.as_u16()),
        error,
        retry_after,
    }
}

/// The outcome of a request that got no answer: refused if the resolver found a forbidden
/// address, failed otherwise.
fn failure(e: &reqwest::Error) -> Outcome {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if let Some(refusal) = err.downcast_ref::<ForbiddenAddress>() {
            return Outcome::Refused {
                error: refusal.to_string(),
            };
        }
        source = err.source();
    }
    if e.is_timeout() {
        return Outcome::TimedOut {
            error: "no answer in time".to_owned(),
        };
    }
    Outcome::Failed {
        status: None,
        error: describe(e),
        retry_after: None,
    }
}

/// An error and its causes, without the URL (which reqwest would add: the worker knows it,
/// and a URL may carry credentials of the receiver's).
fn describe(e: &reqwest::Error) -> String {
    let mut text = String::new();
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    let mut first = true;
    while let Some(err) = source {
        let part = if first {
            // reqwest's own text names the URL; its kind is enough.
            if e.is_connect() {
                "connection failed".to_owned()
            } else if e.is_timeout() {
                "timed out".to_owned()
            } else if e.is_request() {
                "request failed".to_owned()
            } else if e.is_body() || e.is_decode() {
                "bad answer body".to_owned()
            } else {
                "HTTP client error".to_owned()
            }
        } else {
            err.to_string()
        };
        first = false;
        // Causes often repeat their own cause's text.
        if !text.contains(&part) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&part);
        }
        source = err.source();
    }
    text
}

fn seconds(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

fn forbidden_message(ip: IpAddr) -> String {
    format!(
        "address {ip} is not allowed (loopback, private, link-local, multicast, unspecified or \
         reserved; --webhook-allow-private allows it)"
    )
}

/// The resolver's refusal: a name resolved to a [`forbidden`] address.
#[derive(Debug)]
struct ForbiddenAddress {
    host: String,
    ip: IpAddr,
}

impl fmt::Display for ForbiddenAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "host {} resolves to {}",
            self.host,
            forbidden_message(self.ip)
        )
    }
}

impl std::error::Error for ForbiddenAddress {}

/// The client's resolver: the system's (tokio's `lookup_host`), refusing a name with any
/// forbidden address among its answers unless private addresses are allowed.
struct CheckingResolver {
    allow_private: bool,
}

impl Resolve for CheckingResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if !allow_private && let Some(bad) = addrs.iter().find(|a| forbidden(a.ip())) {
                return Err(Box::new(ForbiddenAddress { host, ip: bad.ip() }) as _);
            }
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// The `webhook-signature` header for a message: `v1,<base64 of HMAC-SHA256(key,
/// "{id}.{timestamp}.{body}")>` for each secret, space-separated (the Standard Webhooks
/// form), in the order given. The key is the base64 after `whsec_` (the prefix is optional,
/// padding too, as the official libraries read it). The error names the secret by its
/// position, never by its content.
pub fn signature(
    secrets: &[&str],
    id: &str,
    timestamp: i64,
    body: &[u8],
) -> Result<String, String> {
    if secrets.is_empty() {
        return Err("no webhook secret to sign with".to_owned());
    }
    let mut header = String::new();
    for (n, secret) in secrets.iter().enumerate() {
        let key = secret_key(secret)
            .map_err(|why| format!("webhook secret {} of {}: {why}", n + 1, secrets.len()))?;
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&key)
            .map_err(|_| "webhook secret: unusable key".to_owned())?;
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        if !header.is_empty() {
            header.push(' ');
        }
        header.push_str("v1,");
        header.push_str(&STANDARD.encode(mac.finalize().into_bytes()));
    }
    Ok(header)
}

/// The key bytes of a `whsec_<base64>` secret.
fn secret_key(secret: &str) -> Result<Vec<u8>, &'static str> {
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let encoded = secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret);
    let key = LENIENT
        .decode(encoded.trim())
        .map_err(|_| "not whsec_ followed by base64")?;
    if key.is_empty() {
        return Err("empty key");
    }
    Ok(key)
}

/// Whether a webhook may not be sent to this address unless private addresses are allowed
/// (the rule is crm-core's, which also judges address literals when an endpoint is saved).
pub use crm_core::webhook::forbidden;

/// A `Retry-After` value as a wait: delay-seconds, or an HTTP date (IMF-fixdate, or the
/// obsolete RFC 850 and asctime forms) measured from `now` (Unix seconds; a date already
/// past is zero). At most [`RETRY_AFTER_MAX`]; `None` if it is neither.
pub fn parse_retry_after(value: &str, now: i64) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // All digits: seconds (a number too large for u64 is at least the maximum).
        let secs = value.parse::<u64>().unwrap_or(u64::MAX);
        return Some(Duration::from_secs(secs).min(RETRY_AFTER_MAX));
    }
    let at = chrono::DateTime::parse_from_rfc2822(value)
        .map(|d| d.timestamp())
        .or_else(|_| {
            chrono::NaiveDateTime::parse_from_str(value, "%A, %d-%b-%y %H:%M:%S GMT")
                .map(|d| d.and_utc().timestamp())
        })
        .or_else(|_| {
            chrono::NaiveDateTime::parse_from_str(value, "%a %b %e %H:%M:%S %Y")
                .map(|d| d.and_utc().timestamp())
        })
        .ok()?;
    let wait = u64::try_from(at.saturating_sub(now)).unwrap_or(0);
    Some(Duration::from_secs(wait).min(RETRY_AFTER_MAX))
}

/// Makes *ring* the process's default rustls provider, if none is set yet (then it does
/// nothing). reqwest is built with rustls and no provider of its own: a `reqwest::Client`
/// built without a preconfigured TLS configuration (unlike [`Sender`]'s) needs it, or its
/// construction panics. Tests and tools that build their own clients call this first.
pub fn install_crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Losing a race with another thread installing one is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The Standard Webhooks specification's test vector (its reference libraries' tests).
    const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const TIMESTAMP: i64 = 1_614_265_330;
    const BODY: &[u8] = br#"{"test": 2432232314}"#;
    const EXPECTED: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    #[test]
    fn signature_matches_the_standard_webhooks_test_vector() {
        assert_eq!(signature(&[SECRET], ID, TIMESTAMP, BODY).unwrap(), EXPECTED);
        // The prefix is optional, like the official libraries read it.
        assert_eq!(
            signature(&["MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], ID, TIMESTAMP, BODY).unwrap(),
            EXPECTED
        );
    }

    #[test]
    fn two_secrets_give_two_space_separated_signatures_in_order() {
        let other = "whsec_c2VjcmV0LW9mLWEtcm90YXRlZC1lbmRwb2ludA==";
        let both = signature(&[other, SECRET], ID, TIMESTAMP, BODY).unwrap();
        let alone = signature(&[other], ID, TIMESTAMP, BODY).unwrap();
        assert_eq!(both, format!("{alone} {EXPECTED}"));
        // Unpadded base64 reads the same as padded.
        let unpadded = "whsec_c2VjcmV0LW9mLWEtcm90YXRlZC1lbmRwb2ludA";
        assert_eq!(signature(&[unpadded], ID, TIMESTAMP, BODY).unwrap(), alone);
    }

    #[test]
    fn a_changed_part_changes_the_signature() {
        assert_ne!(
            signature(&[SECRET], "msg_other", TIMESTAMP, BODY).unwrap(),
            EXPECTED
        );
        assert_ne!(
            signature(&[SECRET], ID, TIMESTAMP + 1, BODY).unwrap(),
            EXPECTED
        );
        assert_ne!(
            signature(&[SECRET], ID, TIMESTAMP, br#"{"test": 2432232315}"#).unwrap(),
            EXPECTED
        );
    }

    #[test]
    fn bad_secrets_are_errors_that_do_not_show_them() {
        let bad = "whsec_not*base64!";
        let error = signature(&[SECRET, bad], ID, TIMESTAMP, BODY).unwrap_err();
        assert!(error.contains("secret 2 of 2"), "{error}");
        assert!(!error.contains("not*base64"), "{error}");
        assert!(!error.contains("MfKQ9r8"), "{error}");
        assert!(signature(&["whsec_"], ID, TIMESTAMP, BODY).is_err());
        assert!(signature(&[], ID, TIMESTAMP, BODY).is_err());
    }

    #[test]
    fn forbidden_addresses() {
        let forbidden_ones = [
            "0.0.0.0",
            "0.1.2.3",
            "10.0.0.1",
            "10.255.255.255",
            "100.64.0.1",
            "100.127.255.254",
            "127.0.0.1",
            "127.1.2.3",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::ffff:169.254.169.254",
            "::ffff:192.168.0.1",
            "::ffff:0.0.0.0",
            "::127.0.0.1",
            "::8.8.8.8",
            "64:ff9b::127.0.0.1",
            "64:ff9b::10.0.0.1",
            "64:ff9b:1::1",
            "100::1",
            "2001::1",
            "2001:2::1",
            "2001:db8::1",
            "2002:7f00:1::1",
            "2002:c0a8:101::1",
            "3fff::1",
            "fc00::1",
            "fd12:3456:789a::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "ff02::1",
            "ff0e::1",
        ];
        for ip in forbidden_ones {
            assert!(forbidden(ip.parse().unwrap()), "{ip} should be forbidden");
        }
        let allowed = [
            "1.1.1.1",
            "8.8.8.8",
            "9.255.255.255",
            "11.0.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "172.15.255.255",
            "172.32.0.1",
            "169.253.1.1",
            "192.0.1.1",
            "192.169.0.1",
            "198.17.0.1",
            "198.20.0.1",
            "203.0.114.1",
            "223.255.255.255",
            "::ffff:8.8.8.8",
            "::ffff:93.184.216.34",
            "64:ff9b::8.8.8.8",
            "2002:808:808::1",
            "2001:4860:4860::8888",
            "2606:4700:4700::1111",
            "2a00:1450:4001:80b::200e",
            "4000::1",
        ];
        for ip in allowed {
            assert!(!forbidden(ip.parse().unwrap()), "{ip} should be allowed");
        }
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        // Wed, 21 Oct 2015 07:28:00 GMT
        let now = 1_445_412_480;
        assert_eq!(parse_retry_after("7", now), Some(Duration::from_secs(7)));
        assert_eq!(
            parse_retry_after(" 120 ", now),
            Some(Duration::from_secs(120))
        );
        assert_eq!(parse_retry_after("0", now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("999999999", now), Some(RETRY_AFTER_MAX));
        assert_eq!(
            parse_retry_after("99999999999999999999999", now),
            Some(RETRY_AFTER_MAX)
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            parse_retry_after("Wednesday, 21-Oct-15 07:29:00 GMT", now),
            Some(Duration::from_secs(60))
        );
        assert_eq!(
            parse_retry_after("Wed Oct 21 07:38:00 2015", now),
            Some(Duration::from_secs(600))
        );
        // A date already past: no wait.
        assert_eq!(
            parse_retry_after("Tue, 20 Oct 2015 07:28:00 GMT", now),
            Some(Duration::ZERO)
        );
        // Far in the future: the maximum.
        assert_eq!(
            parse_retry_after("Fri, 01 Jan 2100 00:00:00 GMT", now),
            Some(RETRY_AFTER_MAX)
        );
        for bad in [
            "",
            "-5",
            "1.5",
            "soon",
            "7 s",
            "Wed, 32 Oct 2015 07:28:00 GMT",
        ] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad:?}");
        }
    }

    #[test]
    fn urls_are_checked_before_sending() {
        install_crypto_provider();
        let strict = Sender::new(SenderOptions::default()).unwrap();
        for url in [
            "http://example.com/hook",
            "ftp://example.com/hook",
            "https://127.0.0.1/hook",
            "https://[::1]/hook",
            "https://[::ffff:127.0.0.1]/hook",
            "https://10.0.0.1/hook",
            "https://169.254.169.254/latest",
            "https://2130706433/hook",
            "https://0x7f.1/hook",
            "not a url",
        ] {
            assert!(strict.check_url(url).is_err(), "{url}");
        }
        for url in ["https://example.com/hook", "https://8.8.8.8/hook"] {
            assert!(strict.check_url(url).is_ok(), "{url}");
        }
        let open = Sender::new(SenderOptions {
            allow_http: true,
            allow_private: true,
            ..SenderOptions::default()
        })
        .unwrap();
        for url in [
            "http://127.0.0.1:9/hook",
            "https://[::1]/hook",
            "http://localhost/",
        ] {
            assert!(open.check_url(url).is_ok(), "{url}");
        }
        assert!(open.check_url("ftp://127.0.0.1/").is_err());
    }
}
