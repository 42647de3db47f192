//! The OpenAPI 3.1 description of the service, served at `GET /api/openapi.json` and
//! tested against the route table.

/// The document (`openapi.json` beside this file).
pub const DOCUMENT: &str = include_str!("openapi.json");

/// The document as a body that is compressed once and kept.
pub(crate) static BODY: crate::encoding::StaticBody =
    crate::encoding::StaticBody::new(DOCUMENT.as_bytes());
