//! The API reference in a browser: `GET /docs` is a page that renders the OpenAPI document
//! with Redoc, whose script the binary carries (`assets/redoc/`, compressed by the build), so
//! the page loads with no network access beyond this service; `GET /docs/` redirects to it.
//! All are public, like the document itself.

use super::Env;
use crate::encoding::StaticBody;
use crate::error::ApiError;
use crate::response::Reply;

/// The page. Its URLs are relative, so it also works behind a proxy that mounts the
/// service under a path prefix. It is under `encoding::MIN_SIZE`, so it is never compressed.
static PAGE: StaticBody = StaticBody::small(
    br#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CRM business-records API reference</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="api/openapi.json"></redoc>
<script src="docs/redoc.standalone.js"></script>
</body>
</html>
"#,
);

/// Redoc's standalone bundle, with its forms compressed by the build script.
pub(crate) static SCRIPT: StaticBody = StaticBody::new(
    include_bytes!("../../assets/redoc/redoc.standalone.js"),
    include_bytes!(concat!(env!("OUT_DIR"), "/redoc.standalone.js.br")),
    include_bytes!(concat!(env!("OUT_DIR"), "/redoc.standalone.js.gz")),
);

/// What the page may load: its script and the document from this service, Redoc's inline
/// styles, fonts and images from this service or inline, and a worker from a blob (Redoc's
/// search index). Nothing from another host.
const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; \
connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
font-src 'self' data:; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; \
frame-ancestors 'none'";

/// `GET /docs`.
pub(crate) async fn page(_env: &Env<'_>) -> Result<Reply, ApiError> {
    let mut reply = Reply::asset("text/html; charset=utf-8", &PAGE, "no-cache");
    reply.headers.insert(
        http::header::CONTENT_SECURITY_POLICY,
        http::HeaderValue::from_static(PAGE_POLICY),
    );
    Ok(reply)
}

/// What `GET /docs/` answers besides its `Location`.
const MOVED: &[u8] = br#"{"message":"The API reference is at /docs."}"#;

/// `GET /docs/`: a permanent redirect to `/docs`, where the page's relative URLs hold. The
/// `Location` is relative too (`../docs`), so it holds behind a path prefix.
pub(crate) async fn redirect(_env: &Env<'_>) -> Result<Reply, ApiError> {
    let mut reply = Reply::json(http::StatusCode::PERMANENT_REDIRECT, MOVED.to_vec());
    reply.headers.insert(
        http::header::LOCATION,
        http::HeaderValue::from_static("../docs"),
    );
    Ok(reply)
}

/// `GET /docs/redoc.standalone.js`: cacheable for a day (it changes only with a release).
pub(crate) async fn script(_env: &Env<'_>) -> Result<Reply, ApiError> {
    Ok(Reply::asset(
        "application/javascript; charset=utf-8",
        &SCRIPT,
        "public, max-age=86400",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_small_enough_to_go_uncompressed() {
        assert!(PAGE.bytes().len() < crate::encoding::MIN_SIZE);
    }

    #[tokio::test]
    async fn the_script_compressed_at_build_time_is_the_served_bytes() {
        crate::encoding::tests::assert_build_time_encodings(&SCRIPT).await;
    }
}
