//! Assembles the OpenAPI document from the route table and the definitions beside the
//! handlers. The build script (`crm-http/build.rs`) runs it and writes the document the
//! service serves; the crate's tests run it again over the compiled route table.
//!
//! A definition holds what is particular to its endpoint; everything else is derived from its
//! route (method, path, who may call it):
//!
//! - `operationId` (the route's), `tags` (the part's `tag` unless the definition names its
//!   own), `security`: `[]` for a public route, and for a keyed one the bearer scheme with
//!   the scope the route needs (`[{"bearer": ["estimates:write"]}]`, [`RouteRow::need`]);
//! - the parameters: `id` first for an `{id}` path, the definition's own next, then the
//!   condition header of a keyed route (`If-None-Match` on a GET of a record, `If-Match` on a
//!   PUT, PATCH or DELETE, `Idempotency-Key` on a POST);
//! - the standard answers (`operation::standard_responses`), which the definition's
//!   `responses` may replace (same status) or drop (`null`);
//! - the headers of every answer the definition writes out (`X-Request-Id`, `RateLimit-*` on a
//!   keyed route, `ETag` on a record answer, `Idempotent-Replayed` on a POST's success), before
//!   the answer's own;
//! - the answer envelope from `record` / `list` / `deleted` and `message`, and the links of a
//!   created record from `linksTo` (operation ids);
//! - the request body's three media types from one `body` definition (`body::request_body`);
//! - the `<Resource>NotFound` answer of a part's `resource`.
//!
//! It fails, naming the file and the operation, on a route without a definition, a definition
//! without a route, an unknown key, an undeclared or unused tag, a name defined twice, a link
//! to an operation without an `{id}`, or a `$ref` that does not resolve.

mod body;
mod operation;
mod sources;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use operation::{Operation, not_found};
pub(crate) use sources::{RouteRow, Sources, read_sources, route_rows};

/// A `$ref` to `#/components/<kind>/<name>`.
fn reference(kind: &str, name: &str) -> Value {
    json!({ "$ref": format!("#/components/{kind}/{name}") })
}

/// `text` as a JSON object, or an error naming the file.
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
    let head = [
        "openapi",
        "jsonSchemaDialect",
        "info",
        "servers",
        "security",
        "tags",
    ];
    only(&document, &head, "openapi/document.json")?;
    let mut components = parse("openapi/components.json", &sources.components)?;
    let bodies = Bodies::read(&sources.bodies)?;
    let parts = sources
        .parts
        .iter()
        .map(|(file, text)| Part::read(file, text))
        .collect::<Result<Vec<_>, _>>()?;
    let schemas = schemas(components.remove("schemas"), &parts)?;
    let definitions = definitions(&parts, routes)?;
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

    let mut responses = match components.remove("responses") {
        Some(Value::Object(m)) => m,
        None => Map::new(),
        Some(_) => return Err("openapi/components.json: `responses` is an object".into()),
    };
    for resource in parts.iter().filter_map(|p| p.resource.as_deref()) {
        responses.insert(format!("{resource}NotFound"), not_found(resource));
    }
    // The shared components in their order, with the assembled ones after the shared
    // member they follow in a hand-written document.
    let mut assembled = vec![
        ("securitySchemes", "schemas", Value::Object(schemas)),
        ("parameters", "requestBodies", Value::Object(request_bodies)),
        ("requestBodies", "responses", Value::Object(responses)),
    ];
    let mut all = Map::new();
    for (key, value) in components {
        all.insert(key, value);
        while let Some(at) = assembled
            .iter()
            .position(|(after, _, _)| all.contains_key(*after))
        {
            let (_, name, value) = assembled.remove(at);
            all.insert(name.into(), value);
        }
    }
    for (_, name, value) in assembled {
        all.insert(name.into(), value);
    }
    document.insert("paths".into(), Value::Object(paths));
    document.insert("components".into(), Value::Object(all));
    let document = Value::Object(document);
    check_references(&document)?;
    Ok(document)
}

/// The shared schemas, then each part's; a name defined twice is an error.
fn schemas(shared: Option<Value>, parts: &[Part]) -> Result<Map<String, Value>, String> {
    let Some(Value::Object(mut schemas)) = shared else {
        return Err("openapi/components.json: `schemas` is an object".into());
    };
    for part in parts {
        for (name, schema) in &part.schemas {
            if schemas.insert(name.clone(), schema.clone()).is_some() {
                return Err(format!("{}: the schema {name} is defined twice", part.file));
            }
        }
    }
    Ok(schemas)
}

/// Every definition by operation id, when they are exactly the route table's operations.
fn definitions<'p>(
    parts: &'p [Part],
    routes: &[RouteRow],
) -> Result<BTreeMap<&'p str, (&'p Part, &'p Value)>, String> {
    let mut definitions = BTreeMap::new();
    for part in parts {
        for (id, definition) in &part.operations {
            if definitions
                .insert(id.as_str(), (part, definition))
                .is_some()
            {
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
    if missing.is_empty() && unrouted.is_empty() {
        return Ok(definitions);
    }
    Err(format!(
        "the route table and the OpenAPI definitions disagree: routes without a definition \
         (add one to the area's routes/<area>.openapi.json): {missing:?}; definitions without \
         a route (add its row to route_table! in router.rs, or remove it): {unrouted:?}"
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn route(method: &str, path: &str, operation_id: &str, public: bool) -> RouteRow {
        let level = if method == "GET" { "read" } else { "write" };
        RouteRow {
            method: method.into(),
            path: path.into(),
            operation_id: operation_id.into(),
            public,
            need: (!public).then(|| format!("notes:{level}")),
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
                "BadRequest": {}, "Unauthorized": {}, "Forbidden": {}, "TooManyRequests": {},
                "HeaderTooLarge": {},
                "ServerError": {}, "Unavailable": {}, "NotModified": {}, "ValidationFailed": {},
                "BodyTimeout": {}, "PayloadTooLarge": {}, "UnsupportedMediaType": {}, "TransferCodingNotImplemented": {},
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
                "200", "304", "400", "401", "403", "404", "429", "431", "500", "503"
            ]
        );
        assert_eq!(get["security"], json!([{"bearer": ["notes:read"]}]));
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
        assert_eq!(post["security"], json!([{"bearer": ["notes:write"]}]));
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
}
