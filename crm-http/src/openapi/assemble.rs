//! Assembles the OpenAPI document from the route table and the definitions beside the
//! handlers. The build script (`crm-http/build.rs`) runs it and writes the document the
//! service serves; the crate's tests run it again over the compiled route table.
//!
//! A definition holds what is particular to its endpoint; everything else is derived from its
//! route (method, path, who may call it):
//!
//! - `operationId` (the route's), `tags` (the part's `tag` unless the definition names its
//!   own), `security: []` for a public route;
//! - the parameters: `id` first for an `{id}` path, the definition's own next, then the
//!   condition header of a keyed route (`If-None-Match` on a GET of a record, `If-Match` on a
//!   PUT, PATCH or DELETE, `Idempotency-Key` on a POST);
//! - the standard answers ([`standard_responses`]), which the definition's `responses` may
//!   replace (same status) or drop (`null`);
//! - the headers of every answer the definition writes out (`X-Request-Id`, `RateLimit-*` on a
//!   keyed route, `ETag` on a record answer, `Idempotent-Replayed` on a POST's success), before
//!   the answer's own;
//! - the answer envelope from `record` / `list` / `deleted` and `message`, and the links of a
//!   created record from `linksTo` (operation ids);
//! - the request body's three media types from one `body` definition (see [`body`]);
//! - the `<Resource>NotFound` answer of a part's `resource`.
//!
//! It fails, naming the file and the operation, on a route without a definition, a definition
//! without a route, an unknown key, an undeclared or unused tag, a name defined twice, a link
//! to an operation without an `{id}`, or a `$ref` that does not resolve.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Map, Value, json};

/// One row of the route table, as the assembly needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RouteRow {
    /// `GET`, `POST`, …
    pub(crate) method: String,
    /// The path template (`/api/notes/{id}`).
    pub(crate) path: String,
    /// The operation id, which names the route's definition.
    pub(crate) operation_id: String,
    /// Whether anyone may call it (no key).
    pub(crate) public: bool,
}

impl RouteRow {
    fn method_is(&self, methods: &[&str]) -> bool {
        methods.contains(&self.method.as_str())
    }

    fn has_id(&self) -> bool {
        self.path.contains("{id}")
    }
}

/// The texts the document is assembled from, each with the name errors show.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sources {
    /// `openapi/document.json`: `openapi`, `info`, `servers`, `security`, `tags`.
    pub(crate) document: String,
    /// `openapi/components.json`: the shared components.
    pub(crate) components: String,
    /// `openapi/bodies.json`: what every request body shares.
    pub(crate) bodies: String,
    /// The definitions (`routes.openapi.json`, `routes/<area>.openapi.json`), by file name.
    pub(crate) parts: Vec<(String, String)>,
}

/// The definition files of the crate whose `src/` is `src`: `routes.openapi.json` and every
/// `routes/*.openapi.json`, in the order of their names.
pub(crate) fn read_sources(src: &Path) -> Result<Sources, String> {
    let read =
        |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
    let mut files = vec![src.join("routes.openapi.json")];
    let routes = src.join("routes");
    let listed = std::fs::read_dir(&routes).map_err(|e| format!("{}: {e}", routes.display()))?;
    let mut areas = Vec::new();
    for entry in listed {
        let path = entry
            .map_err(|e| format!("{}: {e}", routes.display()))?
            .path();
        if path.to_string_lossy().ends_with(".openapi.json") {
            areas.push(path);
        }
    }
    areas.sort();
    files.extend(areas);
    let mut parts = Vec::new();
    for file in files {
        let name = file
            .strip_prefix(src)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('\\', "/");
        parts.push((name, read(&file)?));
    }
    Ok(Sources {
        document: read(&src.join("openapi/document.json"))?,
        components: read(&src.join("openapi/components.json"))?,
        bodies: read(&src.join("openapi/bodies.json"))?,
        parts,
    })
}

/// The rows of the `route_table! { … }` invocation in the text of `router.rs`, each
/// `Name: METHOD "path", "operationId", Access => handler;`.
pub(crate) fn route_rows(router: &str) -> Result<Vec<RouteRow>, String> {
    let mut lines = router
        .lines()
        .enumerate()
        .skip_while(|(_, line)| line.trim_end() != "route_table! {");
    if lines.next().is_none() {
        return Err("router.rs: no `route_table! {` invocation".into());
    }
    let mut rows = Vec::new();
    for (at, line) in lines {
        let line = line.trim();
        if line == "}" {
            return Ok(rows);
        }
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        rows.push(route_row(line).ok_or_else(|| {
            format!(
                "router.rs:{}: cannot read the route `{line}` (the build reads rows written \
                 `Name: METHOD \"path\", \"operationId\", Access => handler;`)",
                at + 1
            )
        })?);
    }
    Err("router.rs: the `route_table!` invocation has no closing `}`".into())
}

fn route_row(line: &str) -> Option<RouteRow> {
    let (_, rest) = line.split_once(": ")?;
    let (method, rest) = rest.split_once(" \"")?;
    let (path, rest) = rest.split_once("\", \"")?;
    let (operation_id, rest) = rest.split_once("\", ")?;
    let (access, _) = rest.split_once(" => ")?;
    let public = match access {
        "Public" => true,
        "Key" => false,
        _ => return None,
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    Some(RouteRow {
        method: method.into(),
        path: path.into(),
        operation_id: operation_id.into(),
        public,
    })
}

/// A `$ref` to `#/components/<kind>/<name>`.
fn reference(kind: &str, name: &str) -> Value {
    json!({ "$ref": format!("#/components/{kind}/{name}") })
}

fn parse(name: &str, text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(format!("{name}: not a JSON object")),
        Err(e) => Err(format!("{name}: {e}")),
    }
}

/// `value` as an object, or an error naming `at`.
fn object<'v>(value: &'v Value, at: &str) -> Result<&'v Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{at}: an object is expected"))
}

/// Fails when `map` has a key outside `allowed` (a misspelt key would be silently lost).
fn only(map: &Map<String, Value>, allowed: &[&str], at: &str) -> Result<(), String> {
    match map.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(format!(
            "{at}: unknown key `{k}` (known: {})",
            allowed.join(", ")
        )),
        None => Ok(()),
    }
}

/// One definition file.
struct Part {
    file: String,
    resource: Option<String>,
    tag: Option<String>,
    operations: Map<String, Value>,
    schemas: Map<String, Value>,
}

impl Part {
    fn read(file: &str, text: &str) -> Result<Part, String> {
        let mut map = parse(file, text)?;
        only(&map, &["resource", "tag", "operations", "schemas"], file)?;
        let text_of = |v: Option<Value>, key: &str| match v {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(format!("{file}: `{key}` is a string")),
        };
        let objects = |v: Option<Value>, key: &str| match v {
            None => Ok(Map::new()),
            Some(Value::Object(m)) => Ok(m),
            Some(_) => Err(format!("{file}: `{key}` is an object")),
        };
        Ok(Part {
            resource: text_of(map.remove("resource"), "resource")?,
            tag: text_of(map.remove("tag"), "tag")?,
            operations: objects(map.remove("operations"), "operations")?,
            schemas: objects(map.remove("schemas"), "schemas")?,
            file: file.into(),
        })
    }
}

/// What every request body shares (`openapi/bodies.json`).
struct Bodies {
    /// The paragraph on the three encodings, after each body's own description.
    description: String,
    /// The multipart schema's `propertyNames` (a part's name cannot hold control characters).
    property_names: Value,
    /// Body definitions that several endpoints start from (`base`).
    bases: Map<String, Value>,
}

impl Bodies {
    fn read(text: &str) -> Result<Bodies, String> {
        let name = "openapi/bodies.json";
        let mut map = parse(name, text)?;
        only(&map, &["description", "propertyNames", "bases"], name)?;
        let description = match map.remove("description") {
            Some(Value::String(s)) => s,
            _ => return Err(format!("{name}: `description` is a string")),
        };
        let bases = match map.remove("bases") {
            Some(Value::Object(m)) => m,
            None => Map::new(),
            Some(_) => return Err(format!("{name}: `bases` is an object")),
        };
        Ok(Bodies {
            description,
            property_names: map.remove("propertyNames").unwrap_or(Value::Null),
            bases,
        })
    }
}

/// Assembles the document. `routes` is the route table in its order, which is the order of
/// the document's paths.
pub(crate) fn assemble(routes: &[RouteRow], sources: &Sources) -> Result<Value, String> {
    let mut document = parse("openapi/document.json", &sources.document)?;
    only(
        &document,
        &[
            "openapi",
            "jsonSchemaDialect",
            "info",
            "servers",
            "security",
            "tags",
        ],
        "openapi/document.json",
    )?;
    let mut components = parse("openapi/components.json", &sources.components)?;
    let bodies = Bodies::read(&sources.bodies)?;
    let parts = sources
        .parts
        .iter()
        .map(|(file, text)| Part::read(file, text))
        .collect::<Result<Vec<_>, _>>()?;

    // The schemas: the shared ones, then each part's.
    let mut schemas = match components.remove("schemas") {
        Some(Value::Object(m)) => m,
        _ => return Err("openapi/components.json: `schemas` is an object".into()),
    };
    for part in &parts {
        for (name, schema) in &part.schemas {
            if schemas.insert(name.clone(), schema.clone()).is_some() {
                return Err(format!("{}: the schema {name} is defined twice", part.file));
            }
        }
    }

    // Every definition, by operation id.
    let mut definitions: BTreeMap<&str, (&Part, &Value)> = BTreeMap::new();
    for part in &parts {
        for (id, definition) in &part.operations {
            if definitions.insert(id, (part, definition)).is_some() {
                return Err(format!(
                    "{}: the operation {id} is defined twice",
                    part.file
                ));
            }
        }
    }
    let routed: BTreeSet<&str> = routes.iter().map(|r| r.operation_id.as_str()).collect();
    let missing: Vec<String> = routes
        .iter()
        .filter(|r| !definitions.contains_key(r.operation_id.as_str()))
        .map(|r| format!("{} {} ({})", r.method, r.path, r.operation_id))
        .collect();
    let unrouted: Vec<String> = definitions
        .iter()
        .filter(|(id, _)| !routed.contains(*id))
        .map(|(id, (part, _))| format!("{id} in {}", part.file))
        .collect();
    if !missing.is_empty() || !unrouted.is_empty() {
        return Err(format!(
            "the route table and the OpenAPI definitions disagree: routes without a definition \
             (add one to the area's routes/<area>.openapi.json): {missing:?}; definitions \
             without a route (add its row to route_table! in router.rs, or remove it): \
             {unrouted:?}"
        ));
    }
    let with_id: BTreeSet<&str> = routes
        .iter()
        .filter(|r| r.has_id())
        .map(|r| r.operation_id.as_str())
        .collect();

    let mut paths = Map::new();
    let mut request_bodies = Map::new();
    let mut used_tags = BTreeSet::new();
    for route in routes {
        let (part, definition) = definitions[route.operation_id.as_str()];
        let at = format!("{}: {}", part.file, route.operation_id);
        let op = Operation {
            route,
            part,
            at: &at,
            schemas: &schemas,
            bodies: &bodies,
            with_id: &with_id,
        };
        let (operation, body) = op.build(object(definition, &at)?)?;
        if let Some((name, body)) = body
            && request_bodies.insert(name.clone(), body).is_some()
        {
            return Err(format!("{at}: the request body {name} is defined twice"));
        }
        if let Some(tags) = operation["tags"].as_array() {
            used_tags.extend(tags.iter().filter_map(Value::as_str).map(str::to_owned));
        }
        let item = paths
            .entry(route.path.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(item) = item {
            item.insert(route.method.to_ascii_lowercase(), operation);
        }
    }

    check_tags(&document, &used_tags)?;

    // The components: the shared ones in their order, the parts' schemas after the shared
    // ones, the request bodies after the parameters, and each part's `<Resource>NotFound`
    // after the shared answers.
    let mut responses = match components.remove("responses") {
        Some(Value::Object(m)) => m,
        None => Map::new(),
        Some(_) => return Err("openapi/components.json: `responses` is an object".into()),
    };
    for resource in parts.iter().filter_map(|p| p.resource.as_deref()) {
        responses.insert(format!("{resource}NotFound"), not_found(resource));
    }
    let mut derived = vec![
        ("securitySchemes", "schemas", Value::Object(schemas)),
        ("parameters", "requestBodies", Value::Object(request_bodies)),
        ("requestBodies", "responses", Value::Object(responses)),
    ];
    let mut assembled = Map::new();
    for (key, value) in components {
        assembled.insert(key, value);
        while let Some(at) = derived
            .iter()
            .position(|(after, _, _)| assembled.contains_key(*after))
        {
            let (_, name, value) = derived.remove(at);
            assembled.insert(name.into(), value);
        }
    }
    for (_, name, value) in derived {
        assembled.insert(name.into(), value);
    }
    document.insert("paths".into(), Value::Object(paths));
    document.insert("components".into(), Value::Object(assembled));
    let document = Value::Object(document);
    check_references(&document)?;
    Ok(document)
}

/// Every operation's tag is declared in the document's `tags`, and every declared tag is used.
fn check_tags(document: &Map<String, Value>, used: &BTreeSet<String>) -> Result<(), String> {
    let declared: BTreeSet<String> = document
        .get("tags")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect();
    let undeclared: Vec<&String> = used.difference(&declared).collect();
    let unused: Vec<&String> = declared.difference(used).collect();
    if undeclared.is_empty() && unused.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "openapi/document.json: tags used but not declared in `tags`: {undeclared:?}; \
             declared but used by no operation: {unused:?}"
        ))
    }
}

/// Every `$ref` of the document names something in it.
fn check_references(document: &Value) -> Result<(), String> {
    fn walk(document: &Value, value: &Value, at: &str, bad: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, member) in map {
                    if let ("$ref", Some(target)) = (key.as_str(), member.as_str()) {
                        let found = target
                            .strip_prefix('#')
                            .and_then(|pointer| document.pointer(pointer));
                        if found.is_none() {
                            bad.push(format!("{at}: {target}"));
                        }
                    } else {
                        walk(document, member, &format!("{at}/{key}"), bad);
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(document, item, &format!("{at}/{i}"), bad);
                }
            }
            _ => {}
        }
    }
    let mut bad = Vec::new();
    walk(document, document, "", &mut bad);
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "references that name nothing in the document: {bad:?}"
        ))
    }
}

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
fn not_found(resource: &str) -> Value {
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
struct Operation<'a> {
    route: &'a RouteRow,
    part: &'a Part,
    at: &'a str,
    schemas: &'a Map<String, Value>,
    bodies: &'a Bodies,
    with_id: &'a BTreeSet<&'a str>,
}

impl Operation<'_> {
    /// The operation object, and its request body (name, component) if it takes one.
    fn build(
        &self,
        definition: &Map<String, Value>,
    ) -> Result<(Value, Option<(String, Value)>), String> {
        let at = self.at;
        only(
            definition,
            &[
                "tags",
                "summary",
                "description",
                "parameters",
                "body",
                "responses",
            ],
            at,
        )?;
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
        if route.public {
            op.insert("security".into(), json!([]));
        }

        let mut parameters = Vec::new();
        if route.has_id() {
            parameters.push(reference("parameters", "id"));
        }
        match definition.get("parameters") {
            Some(Value::Array(own)) => parameters.extend(own.iter().cloned()),
            Some(_) => return Err(format!("{at}: `parameters` is an array")),
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
        if !parameters.is_empty() {
            op.insert("parameters".into(), Value::Array(parameters));
        }

        let body = match definition.get("body") {
            Some(body) => Some(self.body(object(body, &format!("{at}: body"))?)?),
            None => None,
        };
        if let Some((name, _)) = &body {
            op.insert("requestBody".into(), reference("requestBodies", name));
        }

        let own = match definition.get("responses") {
            Some(value) => object(value, &format!("{at}: responses"))?.clone(),
            None => Map::new(),
        };
        let mut responses: BTreeMap<String, Value> = BTreeMap::new();
        for (status, response) in
            standard_responses(route, self.part.resource.as_deref(), body.is_some())
        {
            responses.insert(status.into(), response);
        }
        for (status, response) in own {
            if status.len() != 3 || !status.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("{at}: `{status}` is not a status code"));
            }
            match response {
                Value::Null => {
                    if responses.remove(&status).is_none() {
                        return Err(format!(
                            "{at}: {status} is `null` but no route answer gives it"
                        ));
                    }
                }
                response => {
                    let answer = self.response(&status, &response)?;
                    responses.insert(status, answer);
                }
            }
        }
        if route.has_id() && !route.public && !responses.contains_key("404") {
            return Err(format!(
                "{at}: an `{{id}}` route answers 404: give its file a `resource` (or the \
                 definition its own 404)"
            ));
        }
        op.insert(
            "responses".into(),
            Value::Object(responses.into_iter().collect()),
        );
        Ok((Value::Object(op), body))
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

    /// The request body: its name and its component, from a definition holding `name`,
    /// `examples`, the JSON `schema`, an optional `description` (the shared paragraph on the
    /// encodings follows it), an optional `base` (a body of `bodies.json` whose keys this one
    /// completes), and an optional `form` schema.
    ///
    /// The form-urlencoded schema is `form`, or, when absent, derived from `schema`: each
    /// property as it is, except that a `…Input` schema becomes its `…Text` sibling (a form
    /// field is text), `Blank` becomes `{"const": ""}` and an integer `enum` a string one. A
    /// property holding an array or an object has bracket names to document, so its body
    /// needs `form`. The form examples are the JSON ones with bracket names and text values
    /// (`{"items": [{"rate": 2}]}` → `{"items[0][rate]": "2"}`), `encoding` explodes every
    /// `name[]`, and multipart is form-urlencoded with the part-name rule added.
    fn body(&self, given: &Map<String, Value>) -> Result<(String, Value), String> {
        let at = format!("{}: body", self.at);
        only(
            given,
            &["name", "base", "description", "schema", "examples", "form"],
            &at,
        )?;
        let mut definition = Map::new();
        if let Some(base) = given.get("base") {
            let name = base.as_str().unwrap_or_default();
            let found = self
                .bodies
                .bases
                .get(name)
                .ok_or_else(|| format!("{at}: no base `{name}` in openapi/bodies.json"))?;
            definition = object(found, &format!("openapi/bodies.json: {name}"))?.clone();
        }
        for (key, value) in given {
            definition.insert(key.clone(), value.clone());
        }
        let name = definition
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{at}: `name` (its component name) is required"))?
            .to_owned();
        let schema = definition
            .get("schema")
            .ok_or_else(|| format!("{at}: `schema` is required"))?;
        let examples = definition
            .get("examples")
            .and_then(Value::as_object)
            .filter(|e| !e.is_empty())
            .ok_or_else(|| format!("{at}: `examples` is required"))?;
        let form = match definition.get("form") {
            Some(form) => form.clone(),
            None => form_schema(schema, self.schemas).map_err(|e| format!("{at}: {e}"))?,
        };
        let mut form_examples = Map::new();
        for (key, example) in examples {
            let mut example = object(example, &format!("{at}: examples.{key}"))?.clone();
            let value = example.get("value").cloned().unwrap_or(Value::Null);
            let mut flat = Map::new();
            bracketed(&value, "", &mut flat).map_err(|e| format!("{at}: examples.{key}: {e}"))?;
            example.insert("value".into(), Value::Object(flat));
            form_examples.insert(key.clone(), Value::Object(example));
        }
        let mut form_media = Map::new();
        form_media.insert("schema".into(), form.clone());
        form_media.insert("examples".into(), Value::Object(form_examples));
        let exploded: Map<String, Value> = form["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(name, _)| name.ends_with("[]"))
            .map(|(name, _)| (name.clone(), json!({"style": "form", "explode": true})))
            .collect();
        if !exploded.is_empty() {
            form_media.insert("encoding".into(), Value::Object(exploded));
        }
        let mut multipart = form_media.clone();
        if let Some(Value::Object(schema)) = multipart.get_mut("schema") {
            schema.insert("propertyNames".into(), self.bodies.property_names.clone());
        }
        let description = match definition.get("description").and_then(Value::as_str) {
            Some(own) => format!("{own}\n\n{}", self.bodies.description),
            None => self.bodies.description.clone(),
        };
        let component = json!({
            "description": description,
            "required": true,
            "content": {
                "application/json": {"schema": schema, "examples": examples},
                "application/x-www-form-urlencoded": form_media,
                "multipart/form-data": multipart
            }
        });
        Ok((name, component))
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

/// The form-urlencoded schema of a JSON body schema whose properties are all scalar.
fn form_schema(schema: &Value, schemas: &Map<String, Value>) -> Result<Value, String> {
    let mut form = schema.as_object().ok_or("`schema` is an object")?.clone();
    let properties = schema["properties"]
        .as_object()
        .ok_or("`schema` has no `properties`")?;
    let mut out = Map::new();
    for (name, property) in properties {
        let text = form_value(property, schemas)
            .map_err(|e| format!("the property {name} {e}: give the body a `form` schema"))?;
        out.insert(name.clone(), text);
    }
    form.insert("properties".into(), Value::Object(out));
    Ok(Value::Object(form))
}

/// One property's schema as a form field (text).
fn form_value(value: &Value, schemas: &Map<String, Value>) -> Result<Value, String> {
    match value {
        Value::Object(map) => {
            if map.len() == 1 && map.get("$ref") == Some(&json!("#/components/schemas/Blank")) {
                return Ok(json!({"const": ""}));
            }
            let types: Vec<&str> = match map.get("type") {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if types == ["integer"]
                && let Some(Value::Array(values)) = map.get("enum")
            {
                let mut out = map.clone();
                out.insert("type".into(), json!("string"));
                let texts = values
                    .iter()
                    .map(|v| match v {
                        Value::Number(n) => Ok(json!(n.to_string())),
                        _ => Err("has an integer enum with a value that is no number".to_owned()),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                out.insert("enum".into(), Value::Array(texts));
                return Ok(Value::Object(out));
            }
            if let Some(t) = types
                .iter()
                .find(|t| ["array", "object", "integer", "number", "boolean"].contains(*t))
            {
                return Err(format!("is of type {t}"));
            }
            let mut out = Map::new();
            for (key, member) in map {
                let member = match (key.as_str(), member.as_str()) {
                    ("$ref", Some(target)) => {
                        let name = target.trim_start_matches("#/components/schemas/");
                        match name.strip_suffix("Input").map(|stem| format!("{stem}Text")) {
                            Some(text) if schemas.contains_key(&text) => {
                                json!(format!("#/components/schemas/{text}"))
                            }
                            _ => member.clone(),
                        }
                    }
                    _ => form_value(member, schemas)?,
                };
                out.insert(key.clone(), member);
            }
            Ok(Value::Object(out))
        }
        Value::Array(items) => items
            .iter()
            .map(|item| form_value(item, schemas))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other.clone()),
    }
}

/// Writes `value` (a JSON example) as form pairs under bracket names into `out`.
fn bracketed(value: &Value, prefix: &str, out: &mut Map<String, Value>) -> Result<(), String> {
    let fields = value.as_object().ok_or("an example `value` is an object")?;
    for (key, member) in fields {
        let name = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}[{key}]")
        };
        match member {
            Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => {
                let texts = items.iter().map(text).collect::<Result<Vec<_>, _>>()?;
                out.insert(format!("{name}[]"), Value::Array(texts));
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    bracketed(item, &format!("{name}[{i}]"), out)?;
                }
            }
            Value::Object(_) => bracketed(member, &name, out)?,
            scalar => {
                out.insert(name, text(scalar)?);
            }
        }
    }
    Ok(())
}

/// A scalar of an example as form text.
fn text(value: &Value) -> Result<Value, String> {
    match value {
        Value::String(_) => Ok(value.clone()),
        Value::Number(n) => Ok(json!(n.to_string())),
        other => Err(format!(
            "{other} has no form text: give the example as text"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(method: &str, path: &str, operation_id: &str, public: bool) -> RouteRow {
        RouteRow {
            method: method.into(),
            path: path.into(),
            operation_id: operation_id.into(),
            public,
        }
    }

    /// A small but complete set of sources: a notes part with a list, a create and a get.
    fn sources(part: Value) -> Sources {
        let components = json!({
            "securitySchemes": {},
            "schemas": {
                "Blank": {}, "Error": {}, "Deleted": {}, "PageMeta": {},
                "IdInput": {}, "IdText": {}, "DateInput": {}
            },
            "parameters": {"id": {}, "If-None-Match": {}, "If-Match": {}, "Idempotency-Key": {}},
            "responses": {
                "BadRequest": {}, "Unauthorized": {}, "TooManyRequests": {}, "HeaderTooLarge": {},
                "ServerError": {}, "Unavailable": {}, "NotModified": {}, "ValidationFailed": {},
                "BodyTimeout": {}, "PayloadTooLarge": {}, "UnsupportedMediaType": {},
                "PreconditionFailed": {}, "IdempotencyInProgress": {},
                "ValidationFailedOrKeyReused": {}, "MissingHost": {}
            },
            "headers": {
                "X-Request-Id": {}, "RateLimit-Limit": {}, "RateLimit-Remaining": {},
                "RateLimit-Reset": {}, "ETag": {}, "Idempotent-Replayed": {}
            }
        });
        Sources {
            document: json!({"openapi": "3.1.0", "tags": [{"name": "notes"}]}).to_string(),
            components: components.to_string(),
            bodies: json!({"description": "Three encodings.", "propertyNames": {"pattern": "x"}})
                .to_string(),
            parts: vec![("routes/notes.openapi.json".into(), part.to_string())],
        }
    }

    fn notes() -> Value {
        json!({
            "resource": "Note",
            "tag": "notes",
            "operations": {
                "createNote": {
                    "summary": "Create a note",
                    "body": {
                        "name": "NewNote",
                        "schema": {"type": "object", "properties": {
                            "title": {"type": "string"},
                            "client": {"anyOf": [
                                {"$ref": "#/components/schemas/IdInput"},
                                {"$ref": "#/components/schemas/Blank"}
                            ]},
                            "on": {"$ref": "#/components/schemas/DateInput"},
                            "status": {"type": "integer", "enum": [1, 20]}
                        }},
                        "examples": {"one": {"value": {"title": "Call", "client": 12, "status": 1}}}
                    },
                    "responses": {"201": {
                        "description": "The new note.",
                        "record": {"$ref": "#/components/schemas/Note"},
                        "message": "Note created.",
                        "linksTo": ["getNote"]
                    }}
                },
                "getNote": {
                    "summary": "Get a note",
                    "responses": {"200": {
                        "description": "The note.",
                        "record": {"$ref": "#/components/schemas/Note"},
                        "message": "Note retrieved."
                    }}
                }
            },
            "schemas": {"Note": {"type": "object"}}
        })
    }

    fn routes() -> Vec<RouteRow> {
        vec![
            route("POST", "/api/notes", "createNote", false),
            route("GET", "/api/notes/{id}", "getNote", false),
        ]
    }

    #[test]
    fn an_operation_gets_its_derived_parameters_answers_and_headers() {
        let doc = assemble(&routes(), &sources(notes())).unwrap();
        let get = &doc["paths"]["/api/notes/{id}"]["get"];
        assert_eq!(get["operationId"], "getNote");
        assert_eq!(get["tags"], json!(["notes"]));
        assert_eq!(
            get["parameters"],
            json!([
                {"$ref": "#/components/parameters/id"},
                {"$ref": "#/components/parameters/If-None-Match"}
            ])
        );
        let statuses: Vec<&String> = get["responses"].as_object().unwrap().keys().collect();
        assert_eq!(
            statuses,
            [
                "200", "304", "400", "401", "404", "429", "431", "500", "503"
            ]
        );
        assert_eq!(
            get["responses"]["404"],
            json!({"$ref": "#/components/responses/NoteNotFound"})
        );
        let ok = &get["responses"]["200"];
        let headers: Vec<&String> = ok["headers"].as_object().unwrap().keys().collect();
        assert_eq!(
            headers.len(),
            5,
            "X-Request-Id, RateLimit-*, ETag: {headers:?}"
        );
        assert_eq!(
            ok["content"]["application/json"]["schema"]["properties"]["message"],
            json!({"const": "Note retrieved."})
        );
        assert_eq!(
            doc["components"]["responses"]["NoteNotFound"]["content"]["application/json"]["example"],
            json!({"message": "Note not found."})
        );
    }

    #[test]
    fn a_body_gets_its_three_encodings_from_one_definition() {
        let doc = assemble(&routes(), &sources(notes())).unwrap();
        let post = &doc["paths"]["/api/notes"]["post"];
        assert_eq!(
            post["requestBody"],
            json!({"$ref": "#/components/requestBodies/NewNote"})
        );
        assert!(post["responses"]["201"]["headers"]["Idempotent-Replayed"].is_object());
        assert_eq!(
            post["responses"]["201"]["links"]["GetNote"]["operationId"],
            "getNote"
        );
        let body = &doc["components"]["requestBodies"]["NewNote"];
        assert_eq!(body["description"], "Three encodings.");
        let form = &body["content"]["application/x-www-form-urlencoded"];
        assert_eq!(
            form["schema"]["properties"]["client"],
            json!({"anyOf": [{"$ref": "#/components/schemas/IdText"}, {"const": ""}]})
        );
        assert_eq!(
            form["schema"]["properties"]["on"],
            json!({"$ref": "#/components/schemas/DateInput"}),
            "no DateText, so the date stays as it is"
        );
        assert_eq!(
            form["schema"]["properties"]["status"],
            json!({"type": "string", "enum": ["1", "20"]})
        );
        assert_eq!(
            form["examples"]["one"]["value"],
            json!({"title": "Call", "client": "12", "status": "1"})
        );
        let multipart = &body["content"]["multipart/form-data"];
        assert_eq!(
            multipart["schema"]["propertyNames"],
            json!({"pattern": "x"})
        );
        assert_eq!(multipart["examples"], form["examples"]);
    }

    #[test]
    fn form_examples_use_bracket_names() {
        let mut out = Map::new();
        bracketed(
            &json!({"items": [{"rate": 2, "unit": "h"}, {"rate": "1.5"}], "tags": ["a", 3]}),
            "",
            &mut out,
        )
        .unwrap();
        assert_eq!(
            Value::Object(out),
            json!({
                "items[0][rate]": "2", "items[0][unit]": "h", "items[1][rate]": "1.5",
                "tags[]": ["a", "3"]
            })
        );
    }

    #[test]
    fn a_body_with_an_array_needs_its_form_schema() {
        let mut part = notes();
        part["operations"]["createNote"]["body"]["schema"]["properties"]["tags"] =
            json!({"type": ["array", "null"]});
        let error = assemble(&routes(), &sources(part)).unwrap_err();
        assert!(
            error.contains("property tags") && error.contains("`form`"),
            "{error}"
        );
    }

    #[test]
    fn a_route_without_a_definition_and_a_definition_without_a_route_fail() {
        let mut more = routes();
        more.push(route("DELETE", "/api/notes/{id}", "deleteNote", false));
        let error = assemble(&more, &sources(notes())).unwrap_err();
        assert!(
            error.contains("DELETE /api/notes/{id} (deleteNote)"),
            "{error}"
        );
        let error = assemble(&routes()[..1], &sources(notes())).unwrap_err();
        assert!(
            error.contains("getNote in routes/notes.openapi.json"),
            "{error}"
        );
    }

    #[test]
    fn unknown_keys_tags_links_and_references_fail() {
        let mut part = notes();
        part["operations"]["getNote"]["respones"] = json!({});
        let error = assemble(&routes(), &sources(part)).unwrap_err();
        assert!(error.contains("unknown key `respones`"), "{error}");

        let mut part = notes();
        part["operations"]["getNote"]["tags"] = json!(["nots"]);
        let error = assemble(&routes(), &sources(part)).unwrap_err();
        assert!(error.contains("\"nots\""), "{error}");

        let mut part = notes();
        part["operations"]["createNote"]["responses"]["201"]["linksTo"] = json!(["createNote"]);
        let error = assemble(&routes(), &sources(part)).unwrap_err();
        assert!(error.contains("names createNote"), "{error}");

        let mut part = notes();
        part["operations"]["getNote"]["responses"]["200"]["record"] =
            json!({"$ref": "#/components/schemas/Nope"});
        let error = assemble(&routes(), &sources(part)).unwrap_err();
        assert!(error.contains("#/components/schemas/Nope"), "{error}");
    }

    #[test]
    fn null_drops_a_derived_answer_and_public_routes_need_no_key() {
        let mut part = notes();
        part["operations"]["health"] = json!({
            "summary": "Health",
            "responses": {"200": {"description": "Up."}, "500": null}
        });
        let mut table = routes();
        table.push(route("GET", "/healthz", "health", true));
        let doc = assemble(&table, &sources(part)).unwrap();
        let health = &doc["paths"]["/healthz"]["get"];
        assert_eq!(health["security"], json!([]));
        assert!(health.get("parameters").is_none());
        let statuses: Vec<&String> = health["responses"].as_object().unwrap().keys().collect();
        assert_eq!(statuses, ["200", "400", "431"]);
        assert_eq!(
            health["responses"]["200"]["headers"],
            json!({"X-Request-Id": {"$ref": "#/components/headers/X-Request-Id"}})
        );
    }

    #[test]
    fn route_rows_are_read_from_the_route_table_invocation() {
        let text = "macro_rules! route_table {\n}\n\nroute_table! {\n    // health\n    \
                    Health: GET \"/healthz\", \"health\", Public => routes::health;\n\n    \
                    GetNote: GET \"/api/notes/{id}\", \"getNote\", Key => notes::get;\n}\n";
        assert_eq!(
            route_rows(text).unwrap(),
            [
                route("GET", "/healthz", "health", true),
                route("GET", "/api/notes/{id}", "getNote", false)
            ]
        );
        let error = route_rows("route_table! {\n    Odd: GET \"/x\", Key => x;\n}\n").unwrap_err();
        assert!(error.contains("router.rs:2"), "{error}");
    }
}
