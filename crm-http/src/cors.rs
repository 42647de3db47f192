//! Cross-origin access for browser clients (the Fetch standard's CORS protocol), off unless
//! origins are configured (`--cors-origin`, `CRM_CORS_ORIGINS`).
//!
//! - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an
//!   allowed origin is answered 204 with the methods of that path and the request headers
//!   the API reads (`Authorization`, `Content-Type`, `Idempotency-Key`, `If-Match`,
//!   `If-None-Match`, `X-Request-Id`), cacheable for 10 minutes. From another origin it is
//!   answered 403 without CORS headers, so the browser refuses the request.
//! - Any other answer to an allowed origin carries `Access-Control-Allow-Origin` and exposes
//!   the response headers a client may need (`X-Request-Id`, `Retry-After`, `Allow`,
//!   `ETag`, `Location`, the `RateLimit-*` family, `Idempotent-Replayed`).
//! - Credentials (cookies) are never allowed: the API authenticates by bearer key only.
//!
//! Without configuration nothing changes: no CORS header is ever sent and `OPTIONS` is an
//! unsupported method (405) like any other.

use http::{HeaderMap, HeaderValue, header};

/// The request headers a browser client may send.
const ALLOW_HEADERS: &str = "Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, \
Prefer, X-Request-Id";

/// The response headers a browser client may read.
const EXPOSE_HEADERS: &str = "X-Request-Id, Retry-After, Allow, ETag, Location, \
RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotent-Replayed, Ignored-Fields, \
Preference-Applied, WWW-Authenticate";

/// How long a browser may cache a preflight answer, in seconds.
const MAX_AGE: &str = "600";

/// A configured origin list that cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "invalid CORS origin {0:?}: give `*` or origins as scheme://host[:port] (no path, no trailing slash)"
)]
pub struct InvalidOrigin(pub String);

/// The allowed origins.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cors {
    /// `*` was configured: any origin.
    any: bool,
    /// Exact origins, lower-cased (`https://app.example.com`).
    origins: Vec<String>,
}

impl Cors {
    /// CORS off.
    pub fn off() -> Cors {
        Cors::default()
    }

    /// The policy for `origins`: each `*` or `scheme://host[:port]`. Empty entries are
    /// skipped, so `CRM_CORS_ORIGINS=""` is "off".
    pub fn new<I, S>(origins: I) -> Result<Cors, InvalidOrigin>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut cors = Cors::default();
        for origin in origins {
            let origin = origin.as_ref().trim();
            if origin.is_empty() {
                continue;
            }
            if origin == "*" {
                cors.any = true;
                continue;
            }
            if !valid_origin(origin) {
                return Err(InvalidOrigin(origin.to_owned()));
            }
            cors.origins.push(origin.to_ascii_lowercase());
        }
        Ok(cors)
    }

    /// Whether any origin is allowed at all.
    pub fn enabled(&self) -> bool {
        self.any || !self.origins.is_empty()
    }

    /// Whether `origin` (the request's `Origin` header) is allowed.
    pub fn allows(&self, origin: &HeaderValue) -> bool {
        if self.any {
            return true;
        }
        origin.to_str().is_ok_and(|o| {
            self.origins
                .iter()
                .any(|allowed| allowed.eq_ignore_ascii_case(o))
        })
    }

    /// Whether the request is a preflight this policy answers.
    pub fn is_preflight(&self, method: &http::Method, headers: &HeaderMap) -> bool {
        self.enabled()
            && method == http::Method::OPTIONS
            && headers.contains_key(header::ORIGIN)
            && headers.contains_key(header::ACCESS_CONTROL_REQUEST_METHOD)
    }

    /// The headers of a preflight answer for an allowed `origin`; `methods` are the
    /// methods of the requested path.
    pub fn preflight_headers(&self, origin: &HeaderValue, methods: &str, out: &mut HeaderMap) {
        self.allow_origin(origin, out);
        if let Ok(methods) = HeaderValue::from_str(methods) {
            out.insert(header::ACCESS_CONTROL_ALLOW_METHODS, methods);
        }
        out.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static(ALLOW_HEADERS),
        );
        out.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static(MAX_AGE),
        );
    }

    /// Adds the CORS headers of an ordinary answer when the request came from an allowed
    /// origin (and `Vary: Origin` whenever CORS is on, since the answer depends on it).
    pub fn decorate(&self, origin: Option<&HeaderValue>, out: &mut HeaderMap) {
        if !self.enabled() {
            return;
        }
        match origin {
            Some(origin) if self.allows(origin) => {
                self.allow_origin(origin, out);
                out.insert(
                    header::ACCESS_CONTROL_EXPOSE_HEADERS,
                    HeaderValue::from_static(EXPOSE_HEADERS),
                );
            }
            _ => {
                if !self.any {
                    out.append(header::VARY, HeaderValue::from_static("Origin"));
                }
            }
        }
    }

    fn allow_origin(&self, origin: &HeaderValue, out: &mut HeaderMap) {
        if self.any {
            out.insert(
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                HeaderValue::from_static("*"),
            );
        } else {
            out.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
            out.append(header::VARY, HeaderValue::from_static("Origin"));
        }
    }
}

/// `scheme://host[:port]` with an http(s) scheme and nothing else: no user, no path, no
/// trailing slash (the form browsers send in `Origin`).
fn valid_origin(origin: &str) -> bool {
    let Ok(uri) = origin.parse::<http::Uri>() else {
        return false;
    };
    matches!(uri.scheme_str(), Some("http" | "https"))
        && uri
            .authority()
            .is_some_and(|a| !a.host().is_empty() && valid_port(a.as_str(), a.host()))
        && uri.path() == "/"
        && uri.query().is_none()
        && !origin.ends_with('/')
}

/// What follows the host in an authority: nothing, or `:` and a port number (the URI
/// parser lets `host:port` through with no port).
fn valid_port(authority: &str, host: &str) -> bool {
    match authority.strip_prefix(host) {
        Some("") => true,
        Some(rest) => rest
            .strip_prefix(':')
            .is_some_and(|port| port.parse::<u16>().is_ok()),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: &str) -> HeaderValue {
        HeaderValue::from_str(s).unwrap()
    }

    #[test]
    fn origins_are_scheme_host_and_port_only() {
        assert!(Cors::new(["https://app.example.com"]).is_ok());
        assert!(Cors::new(["http://localhost:5173", "*"]).is_ok());
        assert!(Cors::new(["http://[::1]:3000"]).is_ok());
        for bad in [
            "app.example.com",
            "https://app.example.com/",
            "https://app.example.com/path",
            "ftp://example.com",
            "https://",
            "https://host:port",
            "https://ho st",
            "https://user@example.com",
        ] {
            assert_eq!(
                Cors::new([bad]),
                Err(InvalidOrigin(bad.to_owned())),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_empty_list_is_off() {
        let cors = Cors::new(["", " "]).unwrap();
        assert!(!cors.enabled());
        let mut headers = HeaderMap::new();
        cors.decorate(Some(&value("https://a.example")), &mut headers);
        assert!(headers.is_empty());
    }

    #[test]
    fn only_listed_origins_are_allowed_ignoring_case() {
        let cors = Cors::new(["https://App.example.com"]).unwrap();
        assert!(cors.allows(&value("https://app.example.com")));
        assert!(!cors.allows(&value("https://evil.example.com")));
        assert!(!cors.allows(&value("https://app.example.com.evil.example")));
    }

    #[test]
    fn an_allowed_origin_is_echoed_with_vary_and_exposed_headers() {
        let cors = Cors::new(["https://app.example.com"]).unwrap();
        let mut headers = HeaderMap::new();
        cors.decorate(Some(&value("https://app.example.com")), &mut headers);
        assert_eq!(
            headers[header::ACCESS_CONTROL_ALLOW_ORIGIN],
            "https://app.example.com"
        );
        assert_eq!(headers[header::VARY], "Origin");
        assert!(
            headers[header::ACCESS_CONTROL_EXPOSE_HEADERS]
                .to_str()
                .unwrap()
                .contains("X-Request-Id")
        );
        assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_CREDENTIALS));

        let mut headers = HeaderMap::new();
        cors.decorate(Some(&value("https://evil.example.com")), &mut headers);
        assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));
        assert_eq!(headers[header::VARY], "Origin");
    }

    #[test]
    fn a_wildcard_answers_star() {
        let cors = Cors::new(["*"]).unwrap();
        let mut headers = HeaderMap::new();
        cors.preflight_headers(&value("https://x.example"), "GET, HEAD", &mut headers);
        assert_eq!(headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
        assert_eq!(headers[header::ACCESS_CONTROL_ALLOW_METHODS], "GET, HEAD");
        assert!(
            headers[header::ACCESS_CONTROL_ALLOW_HEADERS]
                .to_str()
                .unwrap()
                .contains("Idempotency-Key")
        );
        assert_eq!(headers[header::ACCESS_CONTROL_MAX_AGE], "600");
    }
}
