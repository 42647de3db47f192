//! One operation: what its route derives, completed by its definition.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::body::request_body;
use super::{Bodies, Part, RouteRow, object, only, reference};

/// The answers every route of its kind may give, by status.
fn standard_responses(
    route: &RouteRow,
    resource: Option<&str>,
    has_body: bool,
) -> Vec<(&'static str, Value)> {
    let r = |name: &str| reference("responses", name);
    if route.public {
        return vec![
            ("400", r("MissingHost")),
            ("431", r("HeaderTooLarge")),
            ("500", r("ServerError")),
        ];
    }
    let mut out = vec![
        ("400", r("BadRequest")),
        ("401", r("Unauthorized")),
        ("403", r("Forbidden")),
        ("429", r("TooManyRequests")),
        ("431", r("HeaderTooLarge")),
        ("500", r("ServerError")),
        ("503", r("Unavailable")),
    ];
    if let (true, Some(resource)) = (route.has_id(), resource) {
        out.push(("404", r(&format!("{resource}NotFound"))));
    }
    match (route.method.as_str(), route.has_id()) {
        ("GET", true) => out.push(("304", r("NotModified"))),
        ("GET", false) => out.push(("422", r("ValidationFailed"))),
        _ => out.extend([
            ("408", r("BodyTimeout")),
            ("413", r("PayloadTooLarge")),
            ("415", r("UnsupportedMediaType")),
            ("501", r("TransferCodingNotImplemented")),
        ]),
    }
    if route.method_is(&["PUT", "PATCH", "DELETE"]) {
        out.push(("412", r("PreconditionFailed")));
    }
    if route.method == "POST" {
        out.push(("409", r("IdempotencyInProgress")));
        out.push(("422", r("ValidationFailedOrKeyReused")));
    } else if route.method_is(&["PUT", "PATCH"]) && has_body {
        out.push(("422", r("ValidationFailed")));
    }
    out
}

/// The 404 of an `{id}` route of `resource` (`Note` → "Note not found.").
pub(super) fn not_found(resource: &str) -> Value {
    let mut words = String::new();
    for (i, c) in resource.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            words.push(' ');
        }
        words.extend(c.to_lowercase());
    }
    let mut capitalised = words.clone();
    if let Some(first) = capitalised.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    let message = format!("{capitalised} not found.");
    let headers: Map<String, Value> = KEYED_HEADERS
        .iter()
        .map(|h| ((*h).to_owned(), reference("headers", h)))
        .collect();
    json!({
        "description": format!("No such {words} (also a non-numeric or out-of-range id)."),
        "headers": headers,
        "content": {"application/json": {
            "schema": {
                "allOf": [reference("schemas", "Error")],
                "properties": {"message": {"const": message}}
            },
            "example": {"message": message}
        }}
    })
}

/// The headers of every answer to a keyed request.
const KEYED_HEADERS: [&str; 4] = [
    "X-Request-Id",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
];

/// One operation being built.
pub(super) struct Operation<'a> {
    /// Its route.
    pub(super) route: &'a RouteRow,
    /// The file of its definition.
    pub(super) part: &'a Part,
    /// Where errors point: the file and the operation id.
    pub(super) at: &'a str,
    /// Every component schema (a derived form schema looks for `…Text` siblings).
    pub(super) schemas: &'a Map<String, Value>,
    /// What every request body shares.
    pub(super) bodies: &'a Bodies,
    /// The operation ids of `{id}` routes (what `linksTo` may name).
    pub(super) with_id: &'a BTreeSet<&'a str>,
}

impl Operation<'_> {
    /// The operation object, and its request body (name, component) if it takes one.
    pub(super) fn build(
        &self,
        definition: &Map<String, Value>,
    ) -> Result<(Value, Option<(String, Value)>), String> {
        let at = self.at;
        let known = [
            "tags",
            "summary",
            "description",
            "parameters",
            "body",
            "responses",
        ];
        only(definition, &known, at)?;
        let route = self.route;
        let mut op = Map::new();
        op.insert("operationId".into(), json!(route.operation_id));
        let tags = match (definition.get("tags"), &self.part.tag) {
            (Some(tags), _) => tags.clone(),
            (None, Some(tag)) => json!([tag]),
            (None, None) => return Err(format!("{at}: no `tags`, and the file has no `tag`")),
        };
        op.insert("tags".into(), tags);
        for key in ["summary", "description"] {
            if let Some(text) = definition.get(key) {
                op.insert(key.into(), text.clone());
            }
        }
        match &route.need {
            _ if route.public => op.insert("security".into(), json!([])),
            Some(scope) => op.insert("security".into(), json!([{ "bearer": [scope] }])),
            None => return Err(format!("{at}: a keyed route without a scope")),
        };
        let parameters = self.parameters(definition.get("parameters"))?;
        if !parameters.is_empty() {
            op.insert("parameters".into(), Value::Array(parameters));
        }
        let body = match definition.get("body") {
            Some(body) => Some(request_body(
                at,
                object(body, &format!("{at}: body"))?,
                self.bodies,
                self.schemas,
            )?),
            None => None,
        };
        if let Some((name, _)) = &body {
            op.insert("requestBody".into(), reference("requestBodies", name));
        }
        let responses = self.responses(definition.get("responses"), body.is_some())?;
        op.insert("responses".into(), Value::Object(responses));
        Ok((Value::Object(op), body))
    }

    /// `id` for an `{id}` path, the definition's own, then the condition header of a keyed
    /// route.
    fn parameters(&self, own: Option<&Value>) -> Result<Vec<Value>, String> {
        let route = self.route;
        let mut parameters = Vec::new();
        if route.has_id() {
            parameters.push(reference("parameters", "id"));
        }
        match own {
            Some(Value::Array(own)) => parameters.extend(own.iter().cloned()),
            Some(_) => return Err(format!("{}: `parameters` is an array", self.at)),
            None => {}
        }
        if !route.public {
            let condition = match route.method.as_str() {
                "GET" if route.has_id() => Some("If-None-Match"),
                "PUT" | "PATCH" | "DELETE" => Some("If-Match"),
                "POST" => Some("Idempotency-Key"),
                _ => None,
            };
            parameters.extend(condition.map(|name| reference("parameters", name)));
        }
        Ok(parameters)
    }

    /// The standard answers of the route, replaced or dropped (`null`) by the definition's
    /// own, in the order of their status codes.
    fn responses(&self, own: Option<&Value>, has_body: bool) -> Result<Map<String, Value>, String> {
        let at = self.at;
        let route = self.route;
        let own = match own {
            Some(value) => object(value, &format!("{at}: responses"))?.clone(),
            None => Map::new(),
        };
        let mut responses: BTreeMap<String, Value> =
            standard_responses(route, self.part.resource.as_deref(), has_body)
                .into_iter()
                .map(|(status, response)| (status.to_owned(), response))
                .collect();
        for (status, response) in own {
            if status.len() != 3 || !status.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("{at}: `{status}` is not a status code"));
            }
            if response.is_null() {
                if responses.remove(&status).is_none() {
                    return Err(format!(
                        "{at}: {status} is `null` but no route answer gives it"
                    ));
                }
            } else {
                let answer = self.response(&status, &response)?;
                responses.insert(status, answer);
            }
        }
        if route.has_id() && !route.public && !responses.contains_key("404") {
            return Err(format!(
                "{at}: an `{{id}}` route answers 404: give its file a `resource` (or the \
                 definition its own 404)"
            ));
        }
        Ok(responses.into_iter().collect())
    }

    /// One answer the definition writes out: a `$ref` as it is; otherwise the derived headers,
    /// then its own, its envelope or `content`, and its links.
    fn response(&self, status: &str, response: &Value) -> Result<Value, String> {
        let at = format!("{}: {status}", self.at);
        let given = object(response, &at)?;
        if given.contains_key("$ref") {
            only(given, &["$ref"], &at)?;
            return Ok(response.clone());
        }
        only(
            given,
            &[
                "description",
                "record",
                "list",
                "deleted",
                "message",
                "headers",
                "content",
                "linksTo",
            ],
            &at,
        )?;
        let envelopes: Vec<&str> = ["record", "list", "deleted"]
            .into_iter()
            .filter(|k| given.contains_key(*k))
            .collect();
        if envelopes.len() > 1 || (envelopes.len() == 1 && given.contains_key("content")) {
            return Err(format!(
                "{at}: one of `record`, `list`, `deleted` or `content`"
            ));
        }
        let route = self.route;
        let mut headers = Map::new();
        let names: &[&str] = if route.public {
            &KEYED_HEADERS[..1]
        } else {
            &KEYED_HEADERS
        };
        for name in names {
            headers.insert((*name).into(), reference("headers", name));
        }
        if envelopes == ["record"] {
            headers.insert("ETag".into(), reference("headers", "ETag"));
        }
        if !route.public && route.method == "POST" && status.starts_with('2') {
            headers.insert(
                "Idempotent-Replayed".into(),
                reference("headers", "Idempotent-Replayed"),
            );
        }
        if let Some(own) = given.get("headers") {
            for (name, header) in object(own, &format!("{at}: headers"))? {
                headers.insert(name.clone(), header.clone());
            }
        }
        let mut out = Map::new();
        out.insert(
            "description".into(),
            given
                .get("description")
                .cloned()
                .ok_or_else(|| format!("{at}: `description` is required"))?,
        );
        out.insert("headers".into(), Value::Object(headers));
        if let Some(kind) = envelopes.first() {
            let message = given
                .get("message")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{at}: `{kind}` needs its `message`"))?;
            let schema = envelope(kind, &given[*kind], message);
            out.insert(
                "content".into(),
                json!({"application/json": {"schema": schema}}),
            );
        } else if given.contains_key("message") {
            return Err(format!(
                "{at}: `message` belongs with `record`, `list` or `deleted`"
            ));
        } else if let Some(content) = given.get("content") {
            out.insert("content".into(), content.clone());
        }
        if let Some(targets) = given.get("linksTo") {
            out.insert("links".into(), self.links(targets, &at)?);
        }
        Ok(Value::Object(out))
    }

    /// Links from a created record's `data.id` to the operations named in `targets`.
    fn links(&self, targets: &Value, at: &str) -> Result<Value, String> {
        let mut links = Map::new();
        for target in targets.as_array().into_iter().flatten() {
            let id = target
                .as_str()
                .ok_or_else(|| format!("{at}: `linksTo` lists operation ids"))?;
            if !self.with_id.contains(id) {
                return Err(format!(
                    "{at}: `linksTo` names {id}, which is no operation on an `{{id}}` path"
                ));
            }
            let mut name = id.to_owned();
            if let Some(first) = name.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            links.insert(
                name,
                json!({
                    "operationId": id,
                    "parameters": {"id": "$response.body#/data/id"},
                    "description": format!("`data.id` is the `id` of `{id}`.")
                }),
            );
        }
        Ok(Value::Object(links))
    }
}

/// The envelope of a success answer: `{"data": …, "message": …}`, with `meta` for a list.
fn envelope(kind: &str, data: &Value, message: &str) -> Value {
    let (data, required) = match kind {
        "list" => (
            json!({"type": "array", "items": data}),
            json!(["data", "meta", "message"]),
        ),
        "deleted" => (reference("schemas", "Deleted"), json!(["data", "message"])),
        _ => (data.clone(), json!(["data", "message"])),
    };
    let mut properties = Map::new();
    properties.insert("data".into(), data);
    if kind == "list" {
        properties.insert("meta".into(), reference("schemas", "PageMeta"));
    }
    properties.insert("message".into(), json!({"const": message}));
    json!({
        "type": "object",
        "required": required,
        "properties": properties,
        "additionalProperties": false
    })
}
