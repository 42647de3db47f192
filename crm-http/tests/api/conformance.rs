//! Every answer the tests receive is held to the OpenAPI document: the status must be one
//! the operation documents, and a JSON body must validate against the schema the document
//! declares for that operation and status. The record schemas are closed
//! (`additionalProperties: false`), so a handler that adds, drops or retypes a member fails
//! every test that reads it, not only the ones that look at that member.
//!
//! The operation is found through the service's own route table (so `/api/notes/12` is
//! `GET /api/notes/{id}`); unknown paths and methods (404 "Route not found.", 405) have no
//! operation and are checked by the routing tests instead.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crm_http::openapi::DOCUMENT;
use crm_http::router::{Resolved, Router};
use jsonschema::Validator;
use reqwest::{Method, StatusCode};
use serde_json::Value;

/// The document, parsed once.
pub(crate) fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| serde_json::from_str(DOCUMENT).expect("openapi.json is JSON"))
}

/// The route table, compiled once.
fn router() -> &'static Router {
    static ROUTER: OnceLock<Router> = OnceLock::new();
    ROUTER.get_or_init(|| Router::new().expect("the route table compiles"))
}

/// A validator per schema location, built on first use.
fn validator(pointer: &str) -> Arc<Validator> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Validator>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(v) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(pointer) {
        return Arc::clone(v);
    }
    // The whole document is the root resource, so the schema's local references
    // (`#/components/schemas/Note`) resolve; its other members are unknown keywords.
    let mut root = document().clone();
    let object = root.as_object_mut().expect("the document is an object");
    // A pointer in a URI fragment is percent-encoded (`{id}` → `%7Bid%7D`).
    let fragment = pointer.replace('{', "%7B").replace('}', "%7D");
    object.insert("$ref".into(), Value::String(format!("#{fragment}")));
    object.insert(
        "$schema".into(),
        Value::String("https://json-schema.org/draft/2020-12/schema".into()),
    );
    let built = Arc::new(
        jsonschema::validator_for(&root)
            .unwrap_or_else(|e| panic!("the schema at {pointer} does not compile: {e}")),
    );
    cache
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(pointer.to_owned(), Arc::clone(&built));
    built
}

/// Escapes one JSON pointer segment.
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The pointer a `$ref` names, or `at` itself when the value there is not a reference.
fn follow(at: String) -> String {
    let doc = document();
    match doc
        .pointer(&at)
        .and_then(|v| v.get("$ref"))
        .and_then(Value::as_str)
    {
        Some(target) => follow(target.trim_start_matches('#').to_owned()),
        None => at,
    }
}

/// Checks one answer against the document; panics naming the operation and every
/// violation. `body` is the raw body (HEAD and 304 answers have none).
pub fn check(method: &Method, path: &str, status: StatusCode, body: &[u8]) {
    if let Err(violation) = conformance(method, path, status, body) {
        panic!("{violation}");
    }
}

/// What [`check`] checks, as an error instead of a panic.
pub fn conformance(
    method: &Method,
    path: &str,
    status: StatusCode,
    body: &[u8],
) -> Result<(), String> {
    let wanted = if method == Method::HEAD {
        Method::GET
    } else {
        method.clone()
    };
    let route = match router().resolve(&wanted, path) {
        Resolved::Found { route, .. } => route,
        Resolved::MethodNotAllowed { .. } | Resolved::NotFound => return Ok(()),
    };
    let operation = format!(
        "/paths/{}/{}",
        escape(route.path),
        route.method.as_str().to_ascii_lowercase()
    );
    let responses = format!("{operation}/responses");
    let Some(documented) = document().pointer(&responses).and_then(Value::as_object) else {
        return Err(format!(
            "{} {}: no responses documented",
            route.method, route.path
        ));
    };
    if !documented.contains_key(status.as_str()) {
        return Err(format!(
            "{} {} answered {status}, which its operation does not document (documented: {:?})",
            route.method,
            route.path,
            documented.keys().collect::<Vec<_>>()
        ));
    }
    if method == Method::HEAD || body.is_empty() {
        return Ok(());
    }
    let response = follow(format!("{responses}/{}", status.as_str()));
    let schema = format!("{response}/content/application~1json/schema");
    if document().pointer(&schema).is_none() {
        return Ok(());
    }
    let instance: Value = serde_json::from_slice(body).map_err(|e| {
        format!(
            "{} {} {status}: the body is not JSON ({e})",
            route.method, route.path
        )
    })?;
    let validator = validator(&schema);
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| format!("  at {}: {e}", e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} {} {status}: the body does not match the OpenAPI schema {schema}:\n{}\nbody: {instance}",
            route.method,
            route.path,
            errors.join("\n")
        ))
    }
}
