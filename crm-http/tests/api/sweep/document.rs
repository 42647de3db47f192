//! What the sweeps read from the served OpenAPI document (`GET /api/openapi.json`, which
//! `openapi.rs` holds equal to the route table and `conformance.rs` to every answer): a
//! write's body fields and the kind of each, the 404 message of an `{id}` route, and a
//! list's query parameters. Reading them here is what lets a new endpoint be swept from its
//! route row and its documented operation, without a hand list to keep beside them.
//!
//! A field or parameter whose schema names no kind the sweep knows fails the test with its
//! name, so that a new kind of value gets its bad values rather than none.

use crm_http::router::{ROUTES, Route};
use serde_json::Value;

use super::bads::{Code, Kind};
use crate::common::TestServer;

/// The served OpenAPI document.
pub struct Api {
    doc: Value,
}

/// One field of a request body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Its key path: `doc_title`, `items.0.rate`.
    pub key: String,
    /// What it holds.
    pub kind: Kind,
    /// Whether the body must carry it (blank values are then refused as missing).
    pub required: bool,
}

/// The route whose OpenAPI operation id is `operation`.
pub fn route(operation: &str) -> &'static Route {
    ROUTES
        .iter()
        .find(|r| r.operation_id == operation)
        .unwrap_or_else(|| panic!("no route has the operation id {operation}"))
}

impl Api {
    /// Reads the document the server serves.
    pub async fn fetch(s: &TestServer) -> Api {
        let a = s.get("/api/openapi.json").await;
        assert_eq!(a.status.as_u16(), 200, "the OpenAPI document");
        Api { doc: a.json }
    }

    /// The operation of a route.
    pub fn operation(&self, route: &Route) -> &Value {
        let method = route.method.as_str().to_ascii_lowercase();
        let operation = &self.doc["paths"][route.path][method.as_str()];
        assert!(
            operation.is_object(),
            "{} {}: no operation",
            route.method,
            route.path
        );
        operation
    }

    /// Follows a local `$ref` (`#/components/...`).
    pub fn resolve<'d>(&'d self, value: &'d Value) -> &'d Value {
        match value["$ref"].as_str() {
            Some(pointer) => {
                let target = self.doc.pointer(pointer.trim_start_matches('#'));
                self.resolve(target.unwrap_or_else(|| panic!("{pointer} does not resolve")))
            }
            None => value,
        }
    }

    /// A schema without its blank alternative: `anyOf: [X, Blank]` or `anyOf: [X, {"type":
    /// "null"}]` (in a body) and `anyOf: [X, {"const": ""}]` (in a query) are X; any other
    /// schema is itself.
    pub fn substance<'d>(&'d self, schema: &'d Value) -> &'d Value {
        let Some(alternatives) = schema["anyOf"].as_array() else {
            return schema;
        };
        let blank = |s: &Value| {
            s["$ref"] == "#/components/schemas/Blank"
                || *s == serde_json::json!({"const": ""})
                || *s == serde_json::json!({"type": "null"})
        };
        let mut solid = alternatives.iter().filter(|s| !blank(s));
        match (solid.next(), solid.next()) {
            (Some(one), None) => one,
            _ => schema,
        }
    }

    /// The message of the route's 404 (`{id}` routes only), from its documented example.
    pub fn not_found(&self, route: &Route) -> Option<String> {
        if !route.path.contains("{id}") {
            return None;
        }
        let answer = self.resolve(&self.operation(route)["responses"]["404"]);
        let message = answer["content"]["application/json"]["example"]["message"].as_str();
        let message = message.unwrap_or_else(|| panic!("{}: a 404 example", route.path));
        Some(message.to_owned())
    }

    /// The fields of the route's JSON request body (none without a body), in the
    /// document's order, the fields of a line (`items.0.…`) after their array.
    pub fn body_fields(&self, route: &Route) -> Vec<Field> {
        let Some(body) = self.operation(route).get("requestBody") else {
            return Vec::new();
        };
        let schema = &self.resolve(body)["content"]["application/json"]["schema"];
        let mut out = Vec::new();
        self.object_fields(self.resolve(schema), "", &mut out);
        out
    }

    /// The properties of an object schema, as fields under `prefix`.
    fn object_fields(&self, schema: &Value, prefix: &str, out: &mut Vec<Field>) {
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let properties = schema["properties"].as_object().expect("properties");
        for (name, property) in properties {
            let key = format!("{prefix}{name}");
            // A group (`address`): its members are fields of their own (`address.city`).
            let group = self.resolve(self.substance(property));
            if group["type"] == "object" && group["properties"].is_object() {
                self.object_fields(group, &format!("{key}."), out);
                continue;
            }
            let kind = self.kind(&key, property);
            out.push(Field {
                key: key.clone(),
                kind,
                required: required.contains(&name.as_str()),
            });
            if kind == Kind::Items {
                let line = self.resolve(&self.substance(property)["items"]);
                self.object_fields(line, &format!("{key}.0."), out);
            }
        }
    }

    /// The kind of value a body property holds, by its schema: the input schemas of
    /// `components` by name, closed sets by their `enum`, arrays by their elements.
    fn kind(&self, key: &str, property: &Value) -> Kind {
        let schema = self.substance(property);
        let unknown = || -> ! { panic!("{key}: the sweep has no bad values for {schema}") };
        if let Some(name) = schema["$ref"].as_str() {
            let name = name.trim_start_matches("#/components/schemas/");
            return match name {
                "IdInput" => Kind::Id,
                "DateInput" => Kind::Date,
                // A bill's amounts: the swept bills are in EUR, whose limits are the
                // money limits (2 decimals).
                "MoneyInput" | "BillMoneyInput" => Kind::Money,
                "NonNegativeMoneyInput" | "NonNegativeBillMoneyInput" => Kind::MoneyNonNegative,
                "PositiveMoneyInput" | "PositiveBillMoneyInput" => Kind::MoneyPositive,
                "ExchangeRateInput" => Kind::ExchangeRate,
                "PercentInput" => Kind::Percent,
                "PositiveDecimal4Input" => Kind::Positive,
                "UrlInput" => Kind::Url,
                "BooleanInput" => Kind::Bool,
                "CountryInput" => Kind::Code(Code::Country),
                "CurrencyInput" => Kind::Code(Code::Currency),
                "DocumentCurrencyInput" => Kind::Code(Code::DocumentCurrency),
                "TimezoneInput" => Kind::Code(Code::Timezone),
                "VatexInput" => Kind::Code(Code::Vatex),
                "VatIdInput" => Kind::Code(Code::VatId),
                "IbanInput" => Kind::Code(Code::Iban),
                "BicInput" => Kind::Code(Code::Bic),
                "EmailInput" => Kind::Code(Code::Email),
                "PeppolSchemeInput" => Kind::Code(Code::PeppolScheme),
                "NumberFormatInput" => Kind::Code(Code::NumberFormat),
                "ReminderStepsInput" => Kind::Steps,
                _ if name.starts_with("PlainText") || name.starts_with("Text") => Kind::Text {
                    max: as_usize(&self.resolve(schema)["maxLength"]).unwrap_or_else(|| unknown()),
                    html: name.starts_with("PlainText"),
                },
                _ => unknown(),
            };
        }
        if schema["type"] == "integer" && !schema["enum"].is_array() {
            let bound = |b: &str| {
                schema[b]
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .unwrap_or_else(|| unknown())
            };
            return Kind::Count {
                min: bound("minimum"),
                max: bound("maximum"),
            };
        }
        if schema["enum"].is_array() {
            return match schema["type"].as_str() {
                Some("integer") => Kind::ChoiceId,
                Some("string") => Kind::Choice,
                _ => unknown(),
            };
        }
        let is_array = schema["type"] == "array"
            || schema["type"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == "array"));
        if !is_array {
            unknown();
        }
        let max = as_usize(&schema["maxItems"]).unwrap_or_else(|| unknown());
        let element = self.substance(&schema["items"]);
        if self.resolve(element)["type"] == "object" {
            // Line items: their bad values know the line's fields and its limit.
            return if max == 1000 { Kind::Items } else { unknown() };
        }
        match self.kind(&format!("{key}.0"), element) {
            Kind::Text {
                max: 100,
                html: true,
            } if max == 100 => Kind::Tags,
            Kind::Id => Kind::Ids {
                max,
                non_empty: as_usize(&schema["minItems"]).is_some_and(|n| n > 0),
            },
            Kind::Choice => Kind::Choices { max },
            _ => unknown(),
        }
    }

    /// The query parameters of a route's operation, each with its schema (blank alternative
    /// removed).
    pub fn query_parameters(&self, route: &Route) -> Vec<(String, bool, &Value)> {
        let parameters = self.operation(route)["parameters"].as_array();
        parameters
            .into_iter()
            .flatten()
            .map(|p| self.resolve(p))
            .filter(|p| p["in"] == "query")
            .map(|p| {
                let name = p["name"].as_str().expect("a parameter name").to_owned();
                let required = p["required"] == true;
                (name, required, self.substance(self.resolve(&p["schema"])))
            })
            .collect()
    }
}

/// A JSON number as `usize`.
fn as_usize(v: &Value) -> Option<usize> {
    v.as_u64().and_then(|n| usize::try_from(n).ok())
}
