//! The OpenAPI document (assembled by the build from the route table and the definitions
//! beside the handlers, `crm_http::openapi`): it is OpenAPI 3.1 JSON, it describes exactly the
//! route table, the service serves it as it is, its snapshot for review
//! (`crm-http/snapshots/openapi.json`) is current, and every request-body example it shows is
//! accepted by the running service.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

use crm_http::openapi::DOCUMENT;
use crm_http::router::{Access, ROUTES};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Body, TestServer};
use crate::conformance::document;

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];
const MEDIA_TYPES: [&str; 3] = [
    "application/json",
    "application/x-www-form-urlencoded",
    "multipart/form-data",
];

/// Every operation of the document: (method in upper case, path, operation object).
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            if METHODS.contains(&method.as_str()) {
                out.push((method.to_uppercase(), path.clone(), operation.clone()));
            }
        }
    }
    out
}

/// Follows a local `$ref` (`#/components/...`).
fn resolve<'d>(doc: &'d Value, value: &'d Value) -> &'d Value {
    match value.get("$ref").and_then(Value::as_str) {
        Some(pointer) => resolve(
            doc,
            doc.pointer(pointer.trim_start_matches('#'))
                .unwrap_or(&Value::Null),
        ),
        None => value,
    }
}

/// Calls `visit` with every member of every object in `value`: where the object is, the
/// member's name and its value.
fn members<'d>(value: &'d Value, at: &str, visit: &mut impl FnMut(&str, &str, &'d Value)) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                visit(at, k, v);
                members(v, &format!("{at}/{k}"), visit);
            }
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, v)| members(v, &format!("{at}/{i}"), visit)),
        _ => {}
    }
}

/// Every `$ref` in `value`, with where it was found.
fn refs(value: &Value, at: &str, out: &mut Vec<(String, String)>) {
    members(value, at, &mut |at, k, v| {
        if let (Some(r), "$ref") = (v.as_str(), k) {
            out.push((at.to_owned(), r.to_owned()));
        }
    });
}

#[test]
fn the_document_is_openapi_3_1_json_with_a_bearer_scheme() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "CRM business-records API");
    assert!(doc["info"]["version"].is_string());
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"],
        json!({
            "type": "http", "scheme": "bearer", "bearerFormat": "crm_<id>_<secret>",
            "description": doc["components"]["securitySchemes"]["bearer"]["description"].clone()
        })
    );
    assert_eq!(doc["security"], json!([{"bearer": []}]));
    // Exactly the public routes of the table are open.
    for (method, path, operation) in operations(doc) {
        let open = operation.get("security") == Some(&json!([]));
        let public = ROUTES
            .iter()
            .any(|r| r.method.as_str() == method && r.path == path && r.access != Access::Key);
        assert_eq!(open, public, "{method} {path}");
    }
}

#[test]
fn the_documented_operations_are_exactly_the_route_table() {
    let doc = document();
    let documented: BTreeSet<(String, String, String)> = operations(doc)
        .into_iter()
        .map(|(m, p, o)| (m, p, o["operationId"].as_str().unwrap_or("").to_owned()))
        .collect();
    let routed: BTreeSet<(String, String, String)> = ROUTES
        .iter()
        .map(|r| {
            (
                r.method.as_str().to_owned(),
                r.path.to_owned(),
                r.operation_id.to_owned(),
            )
        })
        .collect();
    let missing: Vec<_> = routed.difference(&documented).collect();
    let extra: Vec<_> = documented.difference(&routed).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "not documented: {missing:?}; documented but not routed: {extra:?}"
    );
    assert_eq!(documented.len(), ROUTES.len());
}

#[test]
fn every_operation_is_named_tagged_and_answers_with_documented_envelopes() {
    let doc = document();
    let mut ids = BTreeSet::new();
    for (method, path, operation) in operations(doc) {
        let id = operation["operationId"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {path}: operationId"));
        assert!(ids.insert(id.to_owned()), "duplicate operationId {id}");
        assert_eq!(
            operation["tags"].as_array().map(Vec::len),
            Some(1),
            "{method} {path}: one tag per area"
        );
        let responses = operation["responses"].as_object().expect("responses");
        assert!(
            responses
                .keys()
                .any(|s| s.starts_with('2') || (s.starts_with('3') && s != "304")),
            "{method} {path}: a success (or redirect) response"
        );
        let route = ROUTES
            .iter()
            .find(|r| r.method.as_str() == method && r.path == path)
            .unwrap_or_else(|| panic!("{method} {path}: a route"));
        match route.access {
            Access::Key => assert!(responses.contains_key("401"), "{method} {path}: 401"),
            Access::Public => {
                assert_eq!(operation["security"], json!([]), "{method} {path}: no key");
                assert!(!responses.contains_key("401"), "{method} {path}: no 401");
            }
            Access::Client => {
                assert_eq!(operation["security"], json!([]), "{method} {path}: no key");
                assert!(!responses.contains_key("401"), "{method} {path}: no 401");
                for status in ["404", "429"] {
                    assert!(responses.contains_key(status), "{method} {path}: {status}");
                }
            }
        }
        if path.contains("{id}") {
            assert!(responses.contains_key("404"), "{method} {path}: 404");
            let id_param = operation["parameters"]
                .as_array()
                .and_then(|ps| {
                    ps.iter()
                        .map(|p| resolve(doc, p))
                        .find(|p| p["name"] == "id" && p["in"] == "path")
                })
                .unwrap_or_else(|| panic!("{method} {path}: the id parameter"));
            assert_eq!(id_param["schema"]["type"], "integer");
            assert_eq!(id_param["required"], true);
        }
        if let Some(body) = operation.get("requestBody") {
            assert!(
                responses.contains_key("422")
                    && responses.contains_key("415")
                    && responses.contains_key("413"),
                "{method} {path}"
            );
            let body = resolve(doc, body);
            let content = body["content"].as_object().expect("content");
            let media: BTreeSet<&str> = content.keys().map(String::as_str).collect();
            assert_eq!(
                media,
                MEDIA_TYPES.into_iter().collect(),
                "{method} {path}: the three encodings"
            );
            for (media_type, m) in content {
                assert!(
                    m["examples"].as_object().is_some_and(|e| !e.is_empty()),
                    "{method} {path} {media_type}: an example"
                );
            }
        }
    }
}

#[test]
fn every_reference_in_the_document_resolves() {
    let doc = document();
    let mut found = Vec::new();
    refs(doc, "", &mut found);
    assert!(found.len() > 100);
    for (at, r) in found {
        let pointer = r
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("{at}: only local references, not {r}"));
        assert!(doc.pointer(pointer).is_some(), "{at}: {r} does not resolve");
    }
}

/// The keywords whose value is one schema or a list of schemas (JSON Schema 2020-12), where a
/// generator expects a schema object.
const SCHEMA_KEYWORDS: [&str; 13] = [
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "prefixItems",
];

#[test]
fn the_document_holds_no_construct_client_generators_refuse() {
    // Issue 54: openapi-python-client refused the whole document for a boolean schema, and
    // dropped a body whose form encoding had two property names that are one identifier in
    // a program (`tags` and `tags[]`); an array without `items` dropped its schema. The
    // generators themselves run in the `clients` tests; this names the place at once.
    let doc = document();
    let mut bad = Vec::new();
    members(doc, "", &mut |at, k, v| {
        let in_schema_keyword = SCHEMA_KEYWORDS.contains(&k);
        let schemas: Vec<&Value> = match v {
            Value::Array(list) if in_schema_keyword => list.iter().collect(),
            _ if in_schema_keyword => vec![v],
            _ => Vec::new(),
        };
        if schemas.iter().any(|s| s.is_boolean()) {
            bad.push(format!("{at}/{k}: a boolean schema"));
        }
        // A property (`properties` of a schema: not a path's or an operation's).
        if k == "properties"
            && let Some(properties) = v.as_object()
        {
            for name in properties.keys() {
                if let Some(bare) = name.strip_suffix("[]")
                    && properties.contains_key(bare)
                {
                    bad.push(format!("{at}/properties: both {bare} and {name}"));
                }
                if properties[name].is_boolean() {
                    bad.push(format!("{at}/properties/{name}: a boolean schema"));
                }
            }
        }
    });
    arrays_without_items(doc, "", &mut bad);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Adds to `bad` every schema of type `array` in `value` that does not say what its elements
/// are (`items` or `prefixItems`, even when any value is).
fn arrays_without_items(value: &Value, at: &str, bad: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            let array = |t: &Value| t == "array";
            let typed = map
                .get("type")
                .is_some_and(|t| array(t) || t.as_array().is_some_and(|ts| ts.iter().any(array)));
            if typed && !map.contains_key("items") && !map.contains_key("prefixItems") {
                bad.push(format!("{at}: an array without `items`"));
            }
            for (k, v) in map {
                arrays_without_items(v, &format!("{at}/{k}"), bad);
            }
        }
        Value::Array(list) => {
            for (i, v) in list.iter().enumerate() {
                arrays_without_items(v, &format!("{at}/{i}"), bad);
            }
        }
        _ => {}
    }
}

/// Every link object in `value` (the members of any response's `links` map), with where it
/// was found.
fn links<'d>(value: &'d Value, at: &str, out: &mut Vec<(String, &'d Value)>) {
    members(value, at, &mut |at, k, v| {
        // Only a response's `links` (a schema may have a property of that name).
        let in_response = at.rsplit('/').nth(1) == Some("responses");
        if let (Some(found), "links", true) = (v.as_object(), k, in_response) {
            for (name, link) in found {
                out.push((format!("{at}/links/{name}"), link));
            }
        }
    });
}

#[test]
fn every_link_names_an_operation_of_the_document_and_its_parameters() {
    // Schemathesis's stateful phase follows these links; one naming no operation stops it.
    let doc = document();
    let by_id: std::collections::HashMap<String, Value> = operations(doc)
        .into_iter()
        .filter_map(|(_, _, op)| Some((op["operationId"].as_str()?.to_owned(), op)))
        .collect();
    let mut found = Vec::new();
    links(doc, "", &mut found);
    assert!(
        found.len() > 20,
        "the creates link to their record's operations"
    );
    for (at, link) in found {
        let link = resolve(doc, link);
        let id = link["operationId"].as_str().unwrap_or_default();
        let Some(op) = by_id.get(id) else {
            panic!("{at}: no operation has the id {id:?}");
        };
        let names: Vec<&str> = op["parameters"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .filter_map(|p| resolve(doc, p)["name"].as_str())
                    .collect()
            })
            .unwrap_or_default();
        for name in link["parameters"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(n, _)| n)
        {
            assert!(
                names.contains(&name.as_str()),
                "{at}: {id} has no parameter {name}"
            );
        }
    }
}

#[tokio::test]
async fn the_service_serves_the_document_as_it_is_without_a_key() {
    let s = TestServer::start().await;
    let url = format!("{}/api/openapi.json", s.base);
    let response = s.http.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "application/json; charset=utf-8"
    );
    assert_eq!(response.bytes().await.unwrap(), DOCUMENT.as_bytes());
    // A wrong key changes nothing: the route does not look at it.
    let with_bad_key = s
        .http
        .get(&url)
        .bearer_auth("crm_1_x")
        .send()
        .await
        .unwrap();
    assert_eq!(with_bad_key.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_root_says_where_the_reference_and_the_description_are() {
    let s = TestServer::start().await;
    let answer = crate::common::answer(
        &Method::GET,
        s.http.get(format!("{}/", s.base)).send().await.unwrap(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json["name"], "CRM business-records API");
    assert!(answer.message().contains("Authorization: Bearer <key>"));
    // Each link, resolved against the root as a client would, answers without a key.
    let root = reqwest::Url::parse(&format!("{}/", s.base)).unwrap();
    for (name, link) in answer.json["links"].as_object().unwrap() {
        let url = root.join(link.as_str().unwrap()).unwrap();
        let status = s.http.get(url.clone()).send().await.unwrap().status();
        assert_eq!(status, StatusCode::OK, "{name}: {url}");
    }
}

#[tokio::test]
async fn the_reference_with_a_trailing_slash_redirects_to_the_page() {
    let s = TestServer::start().await;
    let manual = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let moved = crate::common::answer(
        &Method::GET,
        manual
            .get(format!("{}/docs/", s.base))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(moved.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(moved.headers["location"], "../docs");
    // A client that follows it lands on the page.
    let followed = s
        .http
        .get(format!("{}/docs/", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(followed.status(), StatusCode::OK);
    assert_eq!(followed.url().path(), "/docs");
    assert!(followed.text().await.unwrap().contains("<redoc"));
}

#[tokio::test]
async fn the_reference_script_is_served_as_the_build_compressed_it() {
    let s = TestServer::start().await;
    let script = include_bytes!("../../assets/redoc/redoc.standalone.js");
    for coding in ["br", "gzip"] {
        // reqwest is built without its decoders: the test sees the bytes as sent.
        let response = s
            .http
            .get(format!("{}/docs/redoc.standalone.js", s.base))
            .header("accept-encoding", coding)
            .send()
            .await
            .unwrap();
        assert_eq!(response.headers()["content-encoding"], coding);
        let body = response.bytes().await.unwrap();
        assert!(body.len() * 3 < script.len(), "{coding}: {}", body.len());
        let mut plain = Vec::new();
        if coding == "br" {
            brotli::Decompressor::new(&body[..], 4096)
                .read_to_end(&mut plain)
                .unwrap();
        } else {
            flate2::read::GzDecoder::new(&body[..])
                .read_to_end(&mut plain)
                .unwrap();
        }
        assert!(
            plain == script,
            "{coding}: the script decompresses to itself"
        );
    }
}

/// The snapshot, where `UPDATE_SNAPSHOTS=1` writes it.
fn snapshot_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots/openapi.json")
}

#[test]
fn the_snapshot_of_the_document_is_current() {
    let path = snapshot_path();
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| !v.is_empty() && v != "0") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, DOCUMENT).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    if kept != DOCUMENT {
        let line = kept
            .lines()
            .zip(DOCUMENT.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| kept.lines().count().min(DOCUMENT.lines().count()))
            + 1;
        panic!(
            "crm-http/snapshots/openapi.json is stale (first difference at line {line}): the \
             document the build assembles from the route table and the definitions beside the \
             handlers has changed. Review the change, then refresh the snapshot with\n    \
             UPDATE_SNAPSHOTS=1 cargo test -p crm-http --test api -- snapshot"
        );
    }
}

/// Real records for the examples' ids (the reference's examples name ids of another CRM).
struct World {
    client: i64,
    contract_category: i64,
    estimate_category: i64,
    invoice_category: i64,
    project: i64,
    team: Vec<i64>,
    milestones_of_project: Vec<i64>,
    tax_rates: Vec<i64>,
    /// A published invoice of 1,000.00 (payments are recorded against it).
    payable_invoice: i64,
    /// The record each `{id}` path works on.
    targets: BTreeMap<&'static str, i64>,
    migrate_target: i64,
}

impl World {
    async fn prepare(s: &TestServer) -> World {
        let client = s.ids.clients[0].id;
        let project = s.ids.projects[0];
        let contract_category = s.default_category("contract").await;
        let estimate_category = s.default_category("estimate").await;
        let invoice_category = s.default_category("invoice").await;
        let renamed = s
            .created(
                "/api/categories",
                json!({"category_name": "Rename me", "category_type": "project"}),
            )
            .await;
        let source = s
            .created(
                "/api/categories",
                json!({"category_name": "Migrate source", "category_type": "project"}),
            )
            .await;
        let migrate_target = s
            .created(
                "/api/categories",
                json!({"category_name": "Migrate target", "category_type": "project"}),
            )
            .await;
        let contract = s.created("/api/contracts",
            json!({"doc_client_id": client, "doc_title": "Example", "doc_date_start": "2026-06-01", "doc_categoryid": contract_category}),
        )
        .await;
        let estimate = s.created("/api/estimates",
            json!({"bill_clientid": client, "bill_categoryid": estimate_category, "bill_date": "2026-06-20"}),
        )
        .await;
        let invoice = s.created("/api/invoices",
            json!({"bill_clientid": client, "bill_categoryid": invoice_category, "bill_date": "2026-06-20"}),
        )
        .await;
        let payable_invoice = s.created("/api/invoices",
            json!({"bill_clientid": client, "bill_categoryid": invoice_category, "bill_date": "2026-06-20"}),
        )
        .await;
        // Published invoices of 1,000.00: one takes the payment examples, the other the
        // credit notes'.
        let creditable_invoice = s.created("/api/invoices",
            json!({"bill_clientid": client, "bill_categoryid": invoice_category, "bill_date": "2026-06-20"}),
        )
        .await;
        for id in [payable_invoice, creditable_invoice] {
            let items =
                json!({"items": [{"description": "Work", "quantity": "1", "rate": "1000"}]});
            let a = s
                .put(&format!("/api/invoices/{id}/items"), Body::Json(items))
                .await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.json);
            let a = s
                .put(&format!("/api/invoices/{id}/publish"), Body::None)
                .await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        }
        // In the other project, so that renaming it to the create example's title never clashes.
        let milestone = s.created("/api/milestones",
            json!({"milestone_projectid": s.ids.projects[1], "milestone_title": "To rename", "milestone_color": "info"}),
        )
        .await;
        let note = s
            .created(
                "/api/notes",
                json!({"note_title": "Example", "note_description": "Example"}),
            )
            .await;
        let webhook = s
            .created(
                "/api/webhooks",
                json!({"url": "https://hooks.example.com/example", "events": ["*"]}),
            )
            .await;
        let example_client = s
            .created("/api/clients", json!({"company_name": "Example client"}))
            .await;
        let example_rate = s
            .created(
                "/api/tax-rates",
                json!({"name": "Example rate", "rate": "7"}),
            )
            .await;
        let recurring = s
            .created(
                "/api/recurring-invoices",
                json!({"client_id": client, "category_id": invoice_category, "frequency": "monthly",
                    "start_date": "2099-01-31", "items": [{"description": "Example", "quantity": "1", "rate": "1"}]}),
            )
            .await;
        let targets = BTreeMap::from([
            ("/api/recurring-invoices/{id}", recurring),
            ("/api/clients/{id}", example_client),
            ("/api/tax-rates/{id}", example_rate),
            ("/api/projects/{id}", project),
            ("/api/webhooks/{id}", webhook),
            ("/api/categories/{id}", renamed),
            ("/api/categories/{id}/team", renamed),
            ("/api/categories/{id}/migrate", source),
            ("/api/contracts/{id}", contract),
            ("/api/contracts/{id}/tags", contract),
            ("/api/contracts/{id}/clone", contract),
            ("/api/estimates/{id}", estimate),
            ("/api/estimates/{id}/items", estimate),
            ("/api/estimates/{id}/status", estimate),
            ("/api/estimates/{id}/tags", estimate),
            ("/api/estimates/{id}/clone", estimate),
            ("/api/invoices/{id}", invoice),
            ("/api/invoices/{id}/items", invoice),
            ("/api/invoices/{id}/status", invoice),
            ("/api/invoices/{id}/tags", invoice),
            ("/api/invoices/{id}/clone", invoice),
            ("/api/invoices/{id}/credit-notes", creditable_invoice),
            ("/api/milestones/{id}", milestone),
            ("/api/notes/{id}", note),
            ("/api/notes/{id}/tags", note),
        ]);
        World {
            client,
            contract_category,
            estimate_category,
            invoice_category,
            project,
            team: s.ids.users.clone(),
            milestones_of_project: s
                .ids
                .milestones
                .iter()
                .filter(|m| m.project_id == project)
                .map(|m| m.id)
                .collect(),
            tax_rates: s
                .ids
                .tax_rates
                .iter()
                .filter(|r| r.status == "enabled")
                .map(|r| r.id)
                .collect(),
            payable_invoice,
            targets,
            migrate_target,
        }
    }

    /// The real ids for the field `name` (bracket suffixes stripped) of a request to `path`,
    /// if it names records.
    fn ids_for(&self, path: &str, name: &str) -> Option<Vec<i64>> {
        let one = |id: i64| Some(vec![id]);
        match name {
            "doc_client_id" | "bill_clientid" | "noteresource_id" | "client_id" => one(self.client),
            "doc_categoryid" => one(self.contract_category),
            "bill_categoryid" if path.starts_with("/api/invoices") => one(self.invoice_category),
            "category_id" if path.starts_with("/api/recurring-invoices") => {
                one(self.invoice_category)
            }
            "bill_categoryid" => one(self.estimate_category),
            "milestone_projectid" | "doc_project_id" | "bill_projectid" => one(self.project),
            "target_id" => one(self.migrate_target),
            "payment_invoiceid" => one(self.payable_invoice),
            "users" => Some(self.team.clone()),
            "milestones" => Some(self.milestones_of_project.iter().rev().copied().collect()),
            "tax_rate_ids" => Some(self.tax_rates.clone()),
            _ => None,
        }
    }

    /// The example with its ids replaced by real ones, each keeping its JSON type.
    fn substitute(&self, path: &str, example: &Value) -> Value {
        let Some(fields) = example.as_object() else {
            return example.clone();
        };
        let mut out = serde_json::Map::new();
        for (key, value) in fields {
            let name = key.split('[').next().unwrap_or(key);
            let replaced = match (self.ids_for(path, name), value) {
                (Some(ids), Value::Array(items)) => Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, v)| same_type(v, ids[i % ids.len()]))
                        .collect(),
                ),
                (Some(ids), v) => same_type(v, ids[0]),
                (None, v) => v.clone(),
            };
            out.insert(key.clone(), replaced);
        }
        Value::Object(out)
    }
}

fn same_type(like: &Value, id: i64) -> Value {
    if like.is_string() {
        Value::String(id.to_string())
    } else {
        json!(id)
    }
}

/// Form pairs from a flat example object (`{"tags[]": ["a", "b"]}` → `tags[]=a&tags[]=b`).
fn pairs(example: &Value) -> Vec<(String, String)> {
    let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
    let mut out = Vec::new();
    for (key, value) in example.as_object().expect("a form example is an object") {
        match value {
            Value::Array(items) => out.extend(items.iter().map(|v| (key.clone(), text(v)))),
            v => out.push((key.clone(), text(v))),
        }
    }
    out
}

#[tokio::test]
async fn every_request_body_example_of_the_document_is_accepted() {
    let s = TestServer::start().await;
    let world = World::prepare(&s).await;
    let doc = document();
    let mut sent = 0;
    let mut covered: BTreeSet<(String, String, String)> = BTreeSet::new();
    for (method, path, operation) in operations(doc) {
        let Some(body) = operation.get("requestBody") else {
            continue;
        };
        let content = resolve(doc, body)["content"]
            .as_object()
            .expect("content")
            .clone();
        for (media_type, media) in content {
            for (name, example) in media["examples"].as_object().expect("examples") {
                let value = world.substitute(&path, &resolve(doc, example)["value"]);
                let url = match world.targets.get(path.as_str()) {
                    Some(id) => path.replace("{id}", &id.to_string()),
                    None => path.clone(),
                };
                assert!(!url.contains('{'), "{method} {path}: no record to address");
                let request_body = match media_type.as_str() {
                    "application/json" => Body::Json(value.clone()),
                    "application/x-www-form-urlencoded" => Body::Form(pairs(&value)),
                    _ => Body::Multipart(pairs(&value)),
                };
                let a = s
                    .call(
                        Method::from_bytes(method.as_bytes()).unwrap(),
                        &url,
                        request_body,
                    )
                    .await;
                assert!(
                    a.status.is_success(),
                    "{method} {url} ({media_type}, example {name}: {value}) answered {}: {}",
                    a.status,
                    a.json
                );
                assert!(
                    operation["responses"].get(a.status.as_str()).is_some(),
                    "{method} {path}: {} is not a documented status",
                    a.status
                );
                sent += 1;
                covered.insert((method.clone(), path.clone(), media_type.clone()));
                // A create example is sent three times (once per encoding): remove what it made.
                if method == "POST" && !path.contains("{id}") {
                    let id = a.data()["id"].as_i64().expect("the created id");
                    let deleted = s.delete(&format!("{path}/{id}")).await;
                    assert_eq!(
                        deleted.status,
                        StatusCode::OK,
                        "{path}/{id}: {}",
                        deleted.json
                    );
                }
            }
        }
    }
    // Every operation with a body had an example sent in each of the three encodings (the
    // count follows the document: nothing to update when an operation is added).
    let expected: BTreeSet<(String, String, String)> = operations(doc)
        .into_iter()
        .filter(|(_, _, operation)| operation.get("requestBody").is_some())
        .flat_map(|(method, path, _)| {
            MEDIA_TYPES.map(|media| (method.clone(), path.clone(), media.to_owned()))
        })
        .collect();
    assert!(!expected.is_empty(), "the document has request bodies");
    assert_eq!(covered, expected);
    println!(
        "{sent} request-body examples sent, for {} operations",
        expected.len() / MEDIA_TYPES.len()
    );
}
