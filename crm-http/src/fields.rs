//! Fields a request sends that its operation does not know, and what is done with them
//! (issue 53, docs/decisions.md "Unknown fields: ignored and listed, or refused").
//!
//! The contract ignores unknown fields, as Laravel does, so a typo in an optional field
//! (`tax_rate_id[]` for `tax_rate_ids[]`) is silently dropped. Two answers make it visible:
//!
//! - by default the request goes on as before, and its answer carries `Ignored-Fields`,
//!   the unknown fields' names (nested ones with dots: `items.0.colour`);
//! - with `Prefer: handling=strict` (RFC 7240 §4.4), the request is refused with a 422
//!   naming every unknown field, before anything is read or written, and a request that
//!   had none gets `Preference-Applied: handling=strict`.
//!
//! What an operation knows is derived from the served OpenAPI document
//! ([`crate::openapi::DOCUMENT`]), never listed by hand: the properties of its request
//! body's JSON schema (the same names in all three encodings), nested through objects,
//! arrays and `anyOf`/`oneOf`/`allOf`, and its query parameters. A schema open to any
//! property (`additionalProperties`) accepts anything below it.

use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use crm_core::input::{RawMap, RawValue};
use crm_core::validation::FieldErrors;
use http::{HeaderMap, HeaderValue};
use serde_json::Value;

use crate::error::ApiError;
use crate::response::Reply;
use crate::router::{Endpoint, ROUTES, Route};

/// The answer header listing the unknown fields a request sent and that were ignored.
pub const IGNORED_FIELDS: &str = "ignored-fields";

/// What a field may hold, as far as its names go.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    /// A value with no fields of its own (text, number, date…).
    Scalar,
    /// Anything: a schema open to any property.
    Open,
    /// An object: its fields by name.
    Object(BTreeMap<String, Shape>),
    /// An array of elements of one shape.
    List(Box<Shape>),
}

/// What one operation accepts: its body's fields (`None`: it takes no body) and its
/// query parameters.
#[derive(Debug, Clone, Default)]
struct Accepted {
    body: Option<Shape>,
    query: Vec<String>,
}

/// Every route's accepted fields, read once from the served document (by the route's
/// endpoint, so that a request's lookup allocates nothing).
static ACCEPTED: LazyLock<HashMap<Endpoint, Accepted>> = LazyLock::new(|| {
    let mut by_operation = accepted(crate::openapi::DOCUMENT);
    ROUTES
        .iter()
        .filter_map(|route| {
            let key = (route.method.as_str().to_owned(), route.path.to_owned());
            by_operation.remove(&key).map(|a| (route.endpoint, a))
        })
        .collect()
});

/// What a request asked of its unknown fields, and found: applied to its answer.
#[derive(Debug, Clone, Default)]
pub struct Handling {
    strict: bool,
    ignored: Vec<String>,
}

impl Handling {
    /// Adds `Ignored-Fields` (lenient handling, when some were ignored) or
    /// `Preference-Applied: handling=strict` to `reply`.
    pub fn annotate(&self, mut reply: Reply) -> Reply {
        if self.strict {
            reply.headers.insert(
                "preference-applied",
                HeaderValue::from_static("handling=strict"),
            );
        } else if !self.ignored.is_empty()
            && let Ok(value) = HeaderValue::from_str(&self.ignored.join(", "))
        {
            reply.headers.insert(IGNORED_FIELDS, value);
        }
        reply
    }
}

/// Checks a keyed request's query and body against what `route` accepts: a 422 naming
/// every unknown field when the request prefers strict handling, else the fields to list
/// in its answer.
pub fn check(
    route: &Route,
    headers: &HeaderMap,
    query: &RawMap,
    body: &RawMap,
) -> Result<Handling, ApiError> {
    let strict = prefers_strict(headers);
    let Some(accepted) = ACCEPTED.get(&route.endpoint) else {
        // Not in the document (it would fail the document's own tests): nothing to judge.
        return Ok(Handling::default());
    };
    let unknown = unknown(accepted, query, body);
    if strict && !unknown.is_empty() {
        let mut errors = FieldErrors::new();
        for field in &unknown {
            errors.add(field, format!("The field {field} is unknown."));
        }
        return Err(ApiError::Invalid(errors));
    }
    Ok(Handling {
        strict,
        ignored: unknown,
    })
}

/// Whether the request's `Prefer` headers ask for `handling=strict` (RFC 7240: comma
/// separated preferences, names case-insensitive, a value optionally quoted, parameters
/// after `;`; the first `handling` wins).
pub fn prefers_strict(headers: &HeaderMap) -> bool {
    headers
        .get_all("prefer")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|preference| {
            let token = preference.split(';').next()?.trim();
            let (name, value) = token.split_once('=').unwrap_or((token, ""));
            name.trim()
                .eq_ignore_ascii_case("handling")
                .then(|| value.trim().trim_matches('"').to_ascii_lowercase())
        })
        .next()
        .is_some_and(|value| value == "strict")
}

/// The names, in order, of the fields of `query` and `body` that `accepted` does not
/// know. A query field may also be a body field (a handler may read either).
fn unknown(accepted: &Accepted, query: &RawMap, body: &RawMap) -> Vec<String> {
    let mut found = Vec::new();
    let body_fields = match &accepted.body {
        Some(Shape::Object(fields)) => Some(fields),
        _ => None,
    };
    for (name, _) in query.iter() {
        let known = accepted.query.iter().any(|q| q == name)
            || body_fields.is_some_and(|f| f.contains_key(name))
            || matches!(accepted.body, Some(Shape::Open));
        if !known {
            found.push(name.to_owned());
        }
    }
    match &accepted.body {
        None => found.extend(body.iter().map(|(name, _)| name.to_owned())),
        Some(shape) => {
            for (name, value) in body.iter() {
                match shape {
                    Shape::Object(fields) => match fields.get(name) {
                        Some(inner) => walk(value, inner, name, &mut found),
                        None => found.push(name.to_owned()),
                    },
                    Shape::Open => {}
                    Shape::Scalar | Shape::List(_) => found.push(name.to_owned()),
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// Adds the unknown fields below `value` (at `path`) to `found`. A value of another
/// shape than its schema's is validation's to refuse, not an unknown field.
fn walk(value: &RawValue, shape: &Shape, path: &str, found: &mut Vec<String>) {
    match (shape, value) {
        (Shape::Object(fields), RawValue::Map(map)) => {
            for (name, inner) in map.iter() {
                let at = format!("{path}.{name}");
                match fields.get(name) {
                    Some(s) => walk(inner, s, &at, found),
                    None => found.push(at),
                }
            }
        }
        (Shape::List(element), RawValue::List(values)) => {
            for (i, inner) in values.iter().enumerate() {
                walk(inner, element, &format!("{path}.{i}"), found);
            }
        }
        (Shape::List(element), RawValue::Indexed(values)) => {
            for (i, inner) in values {
                walk(inner, element, &format!("{path}.{i}"), found);
            }
        }
        _ => {}
    }
}

/// Reads every operation of the OpenAPI document `text`.
fn accepted(text: &str) -> HashMap<(String, String), Accepted> {
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        return HashMap::new();
    };
    let mut all = HashMap::new();
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
        return all;
    };
    for (path, item) in paths {
        let Some(item) = item.as_object() else {
            continue;
        };
        for (method, operation) in item {
            let mut accepted = Accepted::default();
            let parameters = operation.get("parameters").and_then(Value::as_array);
            for parameter in parameters.into_iter().flatten() {
                let parameter = resolve(&doc, parameter);
                if parameter.get("in").and_then(Value::as_str) == Some("query")
                    && let Some(name) = parameter.get("name").and_then(Value::as_str)
                {
                    // `tags[]` is sent as `tags[]=a` and decoded as `tags`.
                    accepted.query.push(name.trim_end_matches("[]").to_owned());
                }
            }
            accepted.body = operation.get("requestBody").map(|body| {
                let body = resolve(&doc, body);
                match body.pointer("/content/application~1json/schema") {
                    Some(schema) => shape(&doc, schema, 0),
                    None => Shape::Open,
                }
            });
            all.insert((method.to_ascii_uppercase(), path.clone()), accepted);
        }
    }
    all
}

/// `value`, or what its `$ref` names (followed to the end).
fn resolve<'a>(doc: &'a Value, mut value: &'a Value) -> &'a Value {
    for _ in 0..32 {
        match value.get("$ref").and_then(Value::as_str) {
            Some(reference) => match reference
                .strip_prefix('#')
                .and_then(|pointer| doc.pointer(pointer))
            {
                Some(target) => value = target,
                None => return value,
            },
            None => return value,
        }
    }
    value
}

/// The shape of a JSON schema (depth-bounded: the document has no cycles, but a bound
/// costs nothing).
fn shape(doc: &Value, schema: &Value, depth: usize) -> Shape {
    if depth > 16 {
        return Shape::Open;
    }
    let schema = resolve(doc, schema);
    if schema
        .get("additionalProperties")
        .is_some_and(|a| a != &Value::Bool(false))
    {
        return Shape::Open;
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        return Shape::Object(
            properties
                .iter()
                .map(|(name, s)| (name.clone(), shape(doc, s, depth + 1)))
                .collect(),
        );
    }
    if let Some(items) = schema.get("items") {
        return Shape::List(Box::new(shape(doc, items, depth + 1)));
    }
    let alternatives: Vec<Shape> = ["anyOf", "oneOf", "allOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten()
        .map(|s| shape(doc, s, depth + 1))
        .collect();
    if !alternatives.is_empty() {
        return alternatives.into_iter().fold(Shape::Scalar, merge);
    }
    if schema.get("type").and_then(Value::as_str) == Some("object") {
        return Shape::Open;
    }
    Shape::Scalar
}

/// One shape accepting what either accepts.
fn merge(a: Shape, b: Shape) -> Shape {
    match (a, b) {
        (Shape::Open, _) | (_, Shape::Open) => Shape::Open,
        (Shape::Scalar, other) | (other, Shape::Scalar) => other,
        (Shape::Object(mut x), Shape::Object(y)) => {
            for (name, s) in y {
                let merged = match x.remove(&name) {
                    Some(existing) => merge(existing, s),
                    None => s,
                };
                x.insert(name, merged);
            }
            Shape::Object(x)
        }
        (Shape::List(x), Shape::List(y)) => Shape::List(Box::new(merge(*x, *y))),
        // An object or a list: either is accepted, so nothing below is judged.
        _ => Shape::Open,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepted_of(method: &str, path: &str) -> Accepted {
        ROUTES
            .iter()
            .find(|r| r.method.as_str() == method && r.path == path)
            .and_then(|r| ACCEPTED.get(&r.endpoint))
            .cloned()
            .unwrap_or_else(|| panic!("{method} {path} is not in the document"))
    }

    fn raw(json: &str) -> RawMap {
        crate::body::parse_json(json.as_bytes()).unwrap()
    }

    #[test]
    fn every_route_of_the_table_is_read_from_the_document() {
        for route in ROUTES.iter() {
            let key = (route.method.as_str(), route.path);
            assert!(ACCEPTED.contains_key(&route.endpoint), "{key:?}");
        }
    }

    #[test]
    fn no_request_body_example_of_the_document_has_an_unknown_field() {
        let doc: Value = serde_json::from_str(crate::openapi::DOCUMENT).unwrap();
        let mut checked = 0;
        for route in ROUTES.iter() {
            let Some(accepted) = ACCEPTED.get(&route.endpoint) else {
                continue;
            };
            let key = (route.method.as_str(), route.path);
            let pointer = format!(
                "/paths/{}/{}/requestBody",
                key.1.replace('~', "~0").replace('/', "~1"),
                key.0.to_ascii_lowercase()
            );
            let Some(body) = doc.pointer(&pointer) else {
                continue;
            };
            let json = resolve(&doc, body).pointer("/content/application~1json");
            let examples = json
                .and_then(|j| j.get("examples"))
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|e| e.values().filter_map(|e| resolve(&doc, e).get("value")))
                .chain(json.and_then(|j| j.get("example")));
            for example in examples {
                let body = raw(&example.to_string());
                assert_eq!(
                    unknown(accepted, &RawMap::new(), &body),
                    Vec::<String>::new(),
                    "{key:?}: {example}"
                );
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked} examples");
    }

    #[test]
    fn unknown_fields_are_named_nested_ones_with_their_path() {
        let items = accepted_of("PUT", "/api/estimates/{id}/items");
        let body = raw(
            r#"{"items":[{"description":"Design","quantity":1,"rate":2,"colour":"red"}],
                "tax_rate_id":[11]}"#,
        );
        assert_eq!(
            unknown(&items, &RawMap::new(), &body),
            ["items.0.colour", "tax_rate_id"]
        );
        let form = crate::body::parse_urlencoded(
            b"items[3][description]=x&items[3][quantity]=1&items[3][rate]=1&items[3][size]=2&tax_rate_ids[]=1",
        )
        .unwrap();
        assert_eq!(unknown(&items, &RawMap::new(), &form), ["items.3.size"]);
        let list = accepted_of("GET", "/api/estimates");
        let query = crate::body::parse_urlencoded(b"page=2&limit=5&statuss=new&sort=id").unwrap();
        assert_eq!(unknown(&list, &query, &RawMap::new()), ["statuss"]);
    }

    #[test]
    fn strict_handling_is_read_as_rfc_7240_writes_it() {
        let with = |values: &[&str]| {
            let mut headers = HeaderMap::new();
            for v in values {
                headers.append("prefer", HeaderValue::from_str(v).unwrap());
            }
            prefers_strict(&headers)
        };
        assert!(with(&["handling=strict"]));
        assert!(with(&["respond-async, Handling=\"STRICT\"; x=1"]));
        assert!(with(&["return=minimal", "handling=strict"]));
        assert!(!with(&["handling=lenient"]));
        assert!(!with(&["handling=lenient, handling=strict"]));
        assert!(!with(&[]));
        assert!(!with(&["strict"]));
    }
}
