//! What every answer of the sweeps must be: a 4xx of the expected status with a JSON body
//! whose `message` is a string, and for a 422 an `errors` object of field names, each with a
//! non-empty array of messages — naming exactly the expected fields, with the expected texts.

use std::collections::BTreeSet;

use serde_json::Value;

use super::body::{Case, Expect, short};
use super::exchange::Reply;
use super::msg;

/// A field key as the API names fields: `doc_title`, `users.2`, `items.0.tax_rate_id`.
fn is_field_name(key: &str) -> bool {
    let mut segments = key.split('.');
    let first_ok = segments.next().is_some_and(|s| {
        !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
            && !s.starts_with('_')
    });
    first_ok
        && segments.all(|s| {
            // A position (`items.0`), or a group's member (`address.line1`).
            !s.is_empty()
                && (s.bytes().all(|b| b.is_ascii_digit())
                    || (s
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                        && s.starts_with(|c: char| c.is_ascii_lowercase())))
        })
}

/// The problems with one answer (empty when it is right).
pub fn verify(case: &Case, reply: &Reply) -> Vec<String> {
    let mut problems = Vec::new();
    if !matches!(reply.status, 400 | 404 | 409 | 413 | 415 | 422) {
        problems.push(format!(
            "status {} is not one of 400/404/409/413/415/422",
            reply.status
        ));
    }
    if reply.content_type != "application/json; charset=utf-8" {
        problems.push(format!("content type {:?}", reply.content_type));
    }
    let json: Value = match serde_json::from_slice(&reply.body) {
        Ok(v) => v,
        Err(_) => {
            problems.push(format!(
                "body is not JSON: {:?}",
                String::from_utf8_lossy(&reply.body[..reply.body.len().min(200)])
            ));
            return problems;
        }
    };
    let Some(object) = json.as_object() else {
        problems.push(format!("body is not an object: {}", short(&json)));
        return problems;
    };
    let message = object.get("message").and_then(Value::as_str);
    if message.is_none_or(str::is_empty) {
        problems.push(format!("no string message: {}", short(&json)));
    }
    if let Some(extra) = object.keys().find(|k| *k != "message" && *k != "errors") {
        problems.push(format!("unexpected member {extra:?}"));
    }
    let error_keys = if reply.status == 422 {
        if message != Some(msg::INVALID) {
            problems.push(format!("422 message {message:?}"));
        }
        error_object(&json, &mut problems)
    } else {
        if object.contains_key("errors") {
            problems.push("errors outside a 422".to_owned());
        }
        BTreeSet::new()
    };
    expectation(
        &case.expect,
        reply.status,
        &json,
        &error_keys,
        &mut problems,
    );
    problems
}

/// The field names of a 422's `errors` object, after checking that it is a non-empty object
/// of field names, each with a non-empty array of non-empty strings.
fn error_object(json: &Value, problems: &mut Vec<String>) -> BTreeSet<String> {
    let mut error_keys = BTreeSet::new();
    match json.get("errors").and_then(Value::as_object) {
        Some(errors) if !errors.is_empty() => {
            for (k, v) in errors {
                error_keys.insert(k.clone());
                if !is_field_name(k) {
                    problems.push(format!("errors key {k:?} is not a field name"));
                }
                let ok = v.as_array().is_some_and(|a| {
                    !a.is_empty() && a.iter().all(|m| m.as_str().is_some_and(|m| !m.is_empty()))
                });
                if !ok {
                    problems.push(format!(
                        "errors[{k:?}] is not a non-empty array of strings: {}",
                        short(v)
                    ));
                }
            }
        }
        _ => problems.push(format!(
            "422 without a non-empty errors object: {}",
            short(json)
        )),
    }
    error_keys
}

/// Whether the answer (`status`, body `json`, its `errors` names) is the expected one.
fn expectation(
    expect: &Expect,
    status: u16,
    json: &Value,
    error_keys: &BTreeSet<String>,
    problems: &mut Vec<String>,
) {
    let message = json["message"].as_str();
    match expect {
        Expect::Status(code, text) => {
            if status != *code {
                problems.push(format!(
                    "expected {code}, got {status}: {}",
                    short_json(json)
                ));
            } else if let Some(text) = text
                && message != Some(text.as_str())
            {
                problems.push(format!("expected message {text:?}, got {message:?}"));
            }
        }
        Expect::Invalid(_) if status != 422 => {
            problems.push(format!("expected 422, got {status}: {}", short_json(json)));
        }
        Expect::Invalid(fields) => {
            let wanted: BTreeSet<String> = fields.iter().map(|(k, _)| k.clone()).collect();
            if wanted != *error_keys {
                problems.push(format!(
                    "expected errors on {wanted:?}, got {}",
                    short_json(&json["errors"])
                ));
            }
            for (k, text) in fields {
                if let Some(text) = text {
                    let has = json["errors"][k]
                        .as_array()
                        .is_some_and(|a| a.iter().any(|m| m.as_str() == Some(text.as_str())));
                    if !has && error_keys.contains(k) {
                        problems.push(format!("expected {k}: {text:?}, got {}", json["errors"][k]));
                    }
                }
            }
        }
    }
}

/// A value cut at 300 bytes, for reports.
fn short_json(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 300 {
        format!(
            "{}…",
            &s[..s
                .char_indices()
                .take_while(|(i, _)| *i < 300)
                .last()
                .map_or(0, |(i, c)| i + c.len_utf8())]
        )
    } else {
        s
    }
}
