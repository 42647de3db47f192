//! The OpenAPI 3.1 description of the service, served at `GET /api/openapi.json` and
//! tested against the route table.

/// The document (`openapi.json` beside this file).
pub const DOCUMENT: &str = include_str!("openapi.json");
