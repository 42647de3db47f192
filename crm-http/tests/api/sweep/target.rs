//! One endpoint of the write sweep: a [`Target`] is a route of the table aimed at a real
//! record with a valid body. What the route table and the document give is derived here
//! (method, template, the 404 of an unknown id, the fields and their kinds); a target row
//! adds only the record's path, the valid body, and its endpoint's own bad requests.

use reqwest::Method;
use serde_json::Value;

use super::bads::bads;
use super::body::{Case, Expect, MIB, Sent, encoded, json_sent, pairs, status, urlencoded, with};
use super::document::{Api, Field, route};

/// The path ids an `{id}` route answers 404 for: out of range, not numbers, unknown.
const UNKNOWN_IDS: [&str; 11] = [
    "0",
    "-1",
    "9223372036854775808",
    "18446744073709551616",
    "abc",
    "1e3",
    "1.0",
    "+1",
    "%201",
    "999999",
    "9223372036854775807",
];

/// One endpoint of the sweep: a real target and a valid body.
pub struct Target {
    /// The route's method.
    pub method: Method,
    /// The route template, for grouping and reports.
    pub template: &'static str,
    /// The real record's path.
    pub path: String,
    /// `Some(message)` for `{id}` routes: the 404 of an unknown id.
    pub not_found: Option<String>,
    /// A valid body (sending it succeeds; every case differs from it by one defect).
    pub base: Value,
    /// The fields the endpoint reads, from its documented request body.
    pub fields: Vec<Field>,
    /// Endpoint-specific bad requests.
    pub extras: Vec<Case>,
}

impl Target {
    /// The endpoint of the route table whose OpenAPI operation id is `operation`, aimed at
    /// `path` with the valid body `base`; its fields and 404 message are the document's.
    pub fn new(api: &Api, operation: &str, path: String, base: Value) -> Target {
        let route = route(operation);
        Target {
            method: route.method.clone(),
            template: route.path,
            path,
            not_found: api.not_found(route),
            base,
            fields: api.body_fields(route),
            extras: Vec::new(),
        }
    }

    /// Leaves `keys` out of the per-field sweep: fields whose answer depends on the rest of
    /// the body (an inline-only field in a summary-mode base), checked by `extra`s instead.
    pub fn unswept(mut self, keys: &[&str]) -> Target {
        for key in keys {
            let before = self.fields.len();
            self.fields.retain(|f| f.key != *key);
            assert!(
                self.fields.len() < before,
                "{}: no field {key}",
                self.template
            );
        }
        self
    }

    /// A bad body (sent in `enc`) for this endpoint's own path.
    pub fn extra(mut self, label: &str, body: Value, enc: u8, expect: Expect) -> Target {
        let cases = encoded(&self.method, &self.path, label, &body, enc, &expect);
        self.extras.extend(cases);
        self
    }

    /// A request to another path of the same route (another record).
    pub fn extra_at(mut self, label: &str, path: String, body: Value, expect: Expect) -> Target {
        self.extras.push(Case {
            label: label.to_owned(),
            method: self.method.clone(),
            path,
            sent: json_sent(&body),
            expect,
        });
        self
    }

    /// A form body of the base without `key`, then `element` (such as `tags[]=x`) repeated
    /// `n` times, or as often as fits in 1,000,000 bytes when `n` is 0: appending with `[]`
    /// is what clients send for arrays.
    pub fn appended(mut self, key: &str, element: &str, n: usize, expect: Expect) -> Target {
        let mut rest = self.base.clone();
        rest.as_object_mut().expect("object").remove(key);
        let mut body = urlencoded(&pairs(&rest));
        let unit = element.len() + 1;
        let n = if n == 0 {
            (1_000_000 - body.len()) / unit
        } else {
            n
        };
        for _ in 0..n {
            if !body.is_empty() {
                body.push(b'&');
            }
            body.extend_from_slice(element.as_bytes());
        }
        assert!(body.len() < MIB, "{key}: {} bytes", body.len());
        self.extras.push(Case {
            label: format!("{n} × {element} (form)"),
            method: self.method.clone(),
            path: self.path.clone(),
            sent: Sent::Raw(Some("application/x-www-form-urlencoded".into()), body),
            expect,
        });
        self
    }

    /// The top-level fields the body must carry.
    pub fn required_fields(&self) -> Vec<&Field> {
        self.fields
            .iter()
            .filter(|f| f.required && !f.key.contains('.'))
            .collect()
    }

    /// A case of this endpoint's own path.
    pub fn case(&self, label: &str, sent: Sent, expect: Expect) -> Case {
        Case {
            label: label.to_owned(),
            method: self.method.clone(),
            path: self.path.clone(),
            sent,
            expect,
        }
    }

    /// Every case of the sweep for this endpoint.
    pub fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for field in &self.fields {
            let key = &field.key;
            let current = self.base.pointer(&format!("/{}", key.replace('.', "/")));
            for b in bads(key, field.kind, field.required, current) {
                let body = with(&self.base, key, b.value);
                let label = format!("{key}: {}", b.label);
                cases.extend(encoded(
                    &self.method,
                    &self.path,
                    &label,
                    &body,
                    b.enc,
                    &b.expect,
                ));
            }
        }
        self.whole_body_cases(&mut cases);
        self.decoding_cases(&mut cases);
        self.unknown_id_cases(&mut cases);
        cases.extend(self.extras.iter().cloned());
        cases
    }

    /// An `{id}` route's 404 for every unknown or malformed id, with the valid body and (when
    /// the route reads a body) with an empty one: an unknown record is a 404 even when the
    /// body is invalid too.
    fn unknown_id_cases(&self, cases: &mut Vec<Case>) {
        let Some(message) = &self.not_found else {
            return;
        };
        for id in UNKNOWN_IDS {
            // `{id}` takes the bad value; any other parameter keeps the target's own.
            let path = self
                .template
                .split('/')
                .zip(self.path.split('/'))
                .map(|(template, real)| match template {
                    "{id}" => id,
                    t if t.starts_with('{') => real,
                    t => t,
                })
                .collect::<Vec<_>>()
                .join("/");
            cases.push(Case {
                label: format!("path id {id}"),
                method: self.method.clone(),
                path: path.clone(),
                sent: json_sent(&self.base),
                expect: status(404, message),
            });
            if !self.fields.is_empty() {
                cases.push(Case {
                    label: format!("path id {id} with an empty body"),
                    method: self.method.clone(),
                    path,
                    sent: Sent::Json(b"{}".to_vec()),
                    expect: status(404, message),
                });
            }
        }
    }
}
