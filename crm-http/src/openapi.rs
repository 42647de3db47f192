//! The OpenAPI 3.1 description of the service, served at `GET /api/openapi.json`.
//!
//! It is generated: the build script assembles it (`openapi/assemble/`) from the route table
//! and the definitions beside the handlers: `routes.openapi.json` and
//! `routes/<area>.openapi.json` (each endpoint's summary, description, success answer,
//! request body and examples, own query parameters and own answers), `openapi/document.json`
//! (`info`, `servers`, `tags`), `openapi/components.json` (the shared schemas, parameters,
//! answers and headers) and `openapi/bodies.json` (what every request body shares).
//! Everything an operation has because of its route (standard answers, condition headers,
//! response headers, the body's three encodings) is derived there.
//! `crm-http/snapshots/openapi.json` is the document as built, kept by a test for review.

use crate::encoding::StaticBody;

#[cfg(test)]
mod assemble;

/// The document, pretty-printed, as the build assembled it.
pub const DOCUMENT: &str = include_str!(concat!(env!("OUT_DIR"), "/openapi.json"));

/// The document as a body, with its compressed forms made at build time.
pub(crate) static BODY: StaticBody = StaticBody::new(
    DOCUMENT.as_bytes(),
    include_bytes!(concat!(env!("OUT_DIR"), "/openapi.json.br")),
    include_bytes!(concat!(env!("OUT_DIR"), "/openapi.json.gz")),
);

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::Value;

    use super::*;
    use crate::router::{Access, ROUTES};

    /// The route table as the build reads it.
    fn rows() -> Vec<assemble::RouteRow> {
        ROUTES
            .iter()
            .map(|r| assemble::RouteRow {
                method: r.method.as_str().to_owned(),
                path: r.path.to_owned(),
                operation_id: r.operation_id.to_owned(),
                public: r.access != Access::Key,
                need: r.need.map(|n| n.to_string()),
            })
            .collect()
    }

    /// Also: the build's reading of each route's scope is the router's
    /// (`crm_core::scope::Need::of_route`).
    #[test]
    fn the_build_reads_the_route_table_as_the_router_compiles_it() {
        let read = assemble::route_rows(include_str!("router.rs")).unwrap();
        assert_eq!(read, rows());
    }

    #[test]
    fn the_served_document_is_the_assembly_of_the_route_table_and_the_definitions() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let sources = assemble::read_sources(&src).unwrap();
        let assembled = assemble::assemble(&rows(), &sources).unwrap();
        let served: Value = serde_json::from_str(DOCUMENT).unwrap();
        assert!(assembled == served, "the build's document differs");
    }

    #[tokio::test]
    async fn the_document_compressed_at_build_time_is_the_served_bytes() {
        crate::encoding::tests::assert_build_time_encodings(&BODY).await;
    }
}
