//! The API reference in a browser: `GET /docs` is a page that renders the OpenAPI document
//! with Redoc, whose script the binary carries (`assets/redoc/`), so the page loads with no
//! network access beyond this service. Both are public, like the document itself.

use super::Env;
use crate::encoding::StaticBody;
use crate::error::ApiError;
use crate::response::Reply;

/// The page. Its URLs are relative, so it also works behind a proxy that mounts the
/// service under a path prefix.
static PAGE: StaticBody = StaticBody::new(
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

/// Redoc's standalone bundle.
static SCRIPT: StaticBody =
    StaticBody::new(include_bytes!("../../assets/redoc/redoc.standalone.js"));

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

/// `GET /docs/redoc.standalone.js`: cacheable for a day (it changes only with a release).
pub(crate) async fn script(_env: &Env<'_>) -> Result<Reply, ApiError> {
    Ok(Reply::asset(
        "application/javascript; charset=utf-8",
        &SCRIPT,
        "public, max-age=86400",
    ))
}
