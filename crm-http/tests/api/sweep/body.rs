//! What the sweep sends and expects: a [`Case`] is one request (method, path, body in one
//! encoding) with the answer it must get; the helpers here build bodies (a valid base with
//! one value replaced, [`with`]) and write them as JSON, url-encoded bracket pairs or
//! multipart parts, as PHP's `http_build_query` and browsers do.

use reqwest::Method;
use serde_json::{Value, json};

/// Encodings a bad value is sent in (bit set).
pub const JSON: u8 = 1;
/// `application/x-www-form-urlencoded`.
pub const FORM: u8 = 2;
/// `multipart/form-data`.
pub const MULTI: u8 = 4;
/// Every encoding.
pub const ALL: u8 = JSON | FORM | MULTI;
/// The two flat (text-only) encodings.
pub const FLAT: u8 = FORM | MULTI;
/// Large arrays: multipart framing (≈100 bytes a part) would pass 1 MiB.
pub const BIG: u8 = JSON | FORM;

/// 1 MiB, the body limit.
pub const MIB: usize = 1 << 20;

/// A JSON value written exactly as `text` (numbers keep their text: `1e400`).
pub fn raw(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("raw JSON {text}: {e}"))
}

/// What an answer must be, beyond the invariants every answer of the sweep obeys.
#[derive(Debug, Clone)]
pub enum Expect {
    /// 422 naming exactly these fields, each with this message when given.
    Invalid(Vec<(String, Option<String>)>),
    /// This status, with this message when given.
    Status(u16, Option<String>),
}

/// A 422 naming only `field`, with `message`.
pub fn invalid(field: &str, message: String) -> Expect {
    Expect::Invalid(vec![(field.to_owned(), Some(message))])
}

/// This status, with this message.
pub fn status(code: u16, message: &str) -> Expect {
    Expect::Status(code, Some(message.to_owned()))
}

/// A body as sent.
#[derive(Debug, Clone)]
pub enum Sent {
    /// No body.
    None,
    /// JSON bytes.
    Json(Vec<u8>),
    /// Url-encoded pairs.
    Form(Vec<(String, String)>),
    /// Multipart parts (reqwest writes them).
    Multipart(Vec<(String, String)>),
    /// Bytes with this content type (none when `None`).
    Raw(Option<String>, Vec<u8>),
}

impl Sent {
    /// The encoding's name, for reports.
    pub fn encoding(&self) -> &'static str {
        match self {
            Sent::None => "none",
            Sent::Json(_) => "json",
            Sent::Form(_) => "form",
            Sent::Multipart(_) => "multipart",
            Sent::Raw(..) => "raw",
        }
    }
}

/// One request of the sweep.
#[derive(Debug, Clone)]
pub struct Case {
    /// What the case tries, for reports.
    pub label: String,
    /// The method.
    pub method: Method,
    /// The path and query.
    pub path: String,
    /// The body.
    pub sent: Sent,
    /// The answer it must get.
    pub expect: Expect,
}

/// `[[[…leaf…]]]`, `depth` arrays deep.
pub fn nested_array(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |v, _| Value::Array(vec![v]))
}

/// `{"a":{"a":…leaf…}}`, `depth` objects deep.
pub fn nested_object(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |v, _| json!({ "a": v }))
}

/// A short view of a value for labels.
pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!(
            "{}…({} chars)",
            s.chars().take(30).collect::<String>(),
            s.len()
        )
    } else {
        s
    }
}

/// Sets the value at a key path (`items.0.rate`) inside `target`.
fn set(target: &mut Value, path: &[&str], v: Value) {
    match path {
        [] => *target = v,
        [head, rest @ ..] => {
            let slot = match head.parse::<usize>() {
                Ok(i) => &mut target.as_array_mut().expect("an array on the path")[i],
                Err(_) => target
                    .as_object_mut()
                    .expect("an object on the path")
                    .entry((*head).to_owned())
                    .or_insert(Value::Null),
            };
            set(slot, rest, v);
        }
    }
}

/// `base` with the value at the key path `path` replaced by `v`.
pub fn with(base: &Value, path: &str, v: Value) -> Value {
    let mut out = base.clone();
    let parts: Vec<&str> = path.split('.').collect();
    set(&mut out, &parts, v);
    out
}

/// Bracket pairs of a value (`items[0][rate]`), as PHP's http_build_query writes them.
pub fn pairs_into(prefix: &str, v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) if m.is_empty() => out.push((prefix.to_owned(), String::new())),
        Value::Object(m) => {
            for (k, x) in m {
                pairs_into(&format!("{prefix}[{k}]"), x, out);
            }
        }
        Value::Array(a) if a.is_empty() => out.push((prefix.to_owned(), String::new())),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pairs_into(&format!("{prefix}[{i}]"), x, out);
            }
        }
        Value::String(s) => out.push((prefix.to_owned(), s.clone())),
        Value::Number(n) => out.push((prefix.to_owned(), n.to_string())),
        Value::Bool(b) => out.push((prefix.to_owned(), if *b { "1" } else { "0" }.to_owned())),
        Value::Null => out.push((prefix.to_owned(), String::new())),
    }
}

/// The bracket pairs of a body object.
pub fn pairs(body: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (k, v) in body.as_object().expect("a body object") {
        pairs_into(k, v, &mut out);
    }
    out
}

/// Percent-encodes a form component (everything but unreserved characters).
fn encode(s: &[u8]) -> String {
    let mut out = String::new();
    for &b in s {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A url-encoded body of `pairs`.
pub fn urlencoded(pairs: &[(String, String)]) -> Vec<u8> {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k.as_bytes()), encode(v.as_bytes())))
        .collect::<Vec<_>>()
        .join("&")
        .into_bytes()
}

/// A multipart body with boundary `B0undary` from parts given as raw bytes.
pub fn multipart_bytes(parts: &[(&[u8], &[u8])], close: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, value) in parts {
        out.extend_from_slice(b"--B0undary\r\nContent-Disposition: form-data; name=\"");
        out.extend_from_slice(name);
        out.extend_from_slice(b"\"\r\n\r\n");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }
    if close {
        out.extend_from_slice(b"--B0undary--\r\n");
    }
    out
}

/// A value as JSON text.
pub fn b_json(v: &Value) -> String {
    serde_json::to_string(v).expect("json")
}

/// A body sent as JSON.
pub fn json_sent(body: &Value) -> Sent {
    Sent::Json(serde_json::to_vec(body).expect("json"))
}

/// The cases of one body in each encoding of `enc`.
pub fn encoded(
    method: &Method,
    path: &str,
    label: &str,
    body: &Value,
    enc: u8,
    expect: &Expect,
) -> Vec<Case> {
    let mut out = Vec::new();
    let case = |sent: Sent| Case {
        label: label.to_owned(),
        method: method.clone(),
        path: path.to_owned(),
        sent,
        expect: expect.clone(),
    };
    if enc & JSON != 0 {
        out.push(case(json_sent(body)));
    }
    if enc & FORM != 0 {
        out.push(case(Sent::Form(pairs(body))));
    }
    if enc & MULTI != 0 {
        out.push(case(Sent::Multipart(pairs(body))));
    }
    out
}
