//! The malformed-input sweep: every write endpoint (every POST, PUT, PATCH and DELETE of the
//! route table) receives every kind of bad input in every applicable encoding (form, JSON,
//! multipart). Each answer must be a 4xx (400, 404, 409, 413, 415 or 422; never 2xx, never
//! 5xx) with a JSON body whose `message` is a string, a 422 must carry an `errors` object of
//! field names → non-empty arrays of strings, and NOTHING may be written: a checksum of every
//! table is taken before the sweep and compared after each endpoint's requests.
//!
//! The requests are built from a VALID body per endpoint (aimed at real records created
//! first) with exactly one defect each, so a service that let the defect through would write,
//! and the test would see it. The bases themselves are sent last, as a control, and must
//! succeed. The list endpoints get the same treatment for their query strings.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};
use reqwest::Method;
use serde_json::{Map, Value, json};

use crate::common::TestServer;

/// Encodings a bad value is sent in (bit set).
const JSON: u8 = 1;
const FORM: u8 = 2;
const MULTI: u8 = 4;
const ALL: u8 = JSON | FORM | MULTI;
const FLAT: u8 = FORM | MULTI;
/// Large arrays: multipart framing (≈100 bytes a part) would pass 1 MiB.
const BIG: u8 = JSON | FORM;

/// Requests in flight at once.
const CONCURRENCY: usize = 12;
/// 1 MiB, the body limit.
const MIB: usize = 1 << 20;

/// A JSON value written exactly as `text` (numbers keep their text: `1e400`).
fn raw(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("raw JSON {text}: {e}"))
}

/// Laravel's attribute name for a field key.
fn attr(field: &str) -> String {
    field.replace('_', " ")
}

/// The expected texts, written out here (not taken from crm-core) so that the test pins them.
mod msg {
    use super::attr;

    pub fn required(f: &str) -> String {
        format!("The {} field is required.", attr(f))
    }
    pub fn required_with(f: &str, other: &str) -> String {
        format!(
            "The {} field is required when {} is present.",
            attr(f),
            attr(other)
        )
    }
    pub fn required_if(f: &str, other: &str, value: &str) -> String {
        format!(
            "The {} field is required when {} is {value}.",
            attr(f),
            attr(other)
        )
    }
    pub fn prohibited_if(f: &str, other: &str, value: &str) -> String {
        format!(
            "The {} field is prohibited when {} is {value}.",
            attr(f),
            attr(other)
        )
    }
    pub fn string(f: &str) -> String {
        format!("The {} must be a string.", attr(f))
    }
    pub fn integer(f: &str) -> String {
        format!("The {} must be an integer.", attr(f))
    }
    pub fn invalid(f: &str) -> String {
        format!("The selected {} is invalid.", attr(f))
    }
    pub fn date(f: &str) -> String {
        format!("The {} is not a valid date.", attr(f))
    }
    pub fn after_or_equal(f: &str, other: &str) -> String {
        format!(
            "The {} must be a date after or equal to {}.",
            attr(f),
            attr(other)
        )
    }
    pub fn numeric(f: &str) -> String {
        format!("The {} must be a number.", attr(f))
    }
    pub fn array(f: &str) -> String {
        format!("The {} must be an array.", attr(f))
    }
    pub fn max_chars(f: &str, n: usize) -> String {
        format!("The {} may not be greater than {n} characters.", attr(f))
    }
    pub fn max_items(f: &str, n: usize) -> String {
        format!("The {} may not have more than {n} items.", attr(f))
    }
    pub fn no_html(f: &str) -> String {
        format!("The {} must not contain any HTML.", attr(f))
    }
    pub fn format(f: &str) -> String {
        format!("The {} format is invalid.", attr(f))
    }
    pub fn decimals(f: &str, n: u32) -> String {
        format!("The {} may not have more than {n} decimal places.", attr(f))
    }
    pub fn greater_than_zero(f: &str) -> String {
        format!("The {} must be greater than 0.", attr(f))
    }
    pub fn at_least(f: &str, n: &str) -> String {
        format!("The {} must be at least {n}.", attr(f))
    }
    pub fn at_most(f: &str, n: &str) -> String {
        format!("The {} may not be greater than {n}.", attr(f))
    }
    pub fn between(f: &str, a: &str, b: &str) -> String {
        format!("The {} must be between {a} and {b}.", attr(f))
    }
    pub fn distinct(f: &str) -> String {
        format!("The {} field has a duplicate value.", attr(f))
    }
    pub const INVALID: &str = "The given data was invalid.";
    pub const NOT_JSON: &str = "The request body is not valid JSON.";
    pub const NOT_OBJECT: &str = "The request body must be a JSON object.";
    pub const NOT_UTF8: &str = "The request is not valid UTF-8.";
    pub const TOO_DEEP: &str = "The request is too deeply nested.";
    pub const NO_BOUNDARY: &str = "The multipart body has no boundary.";
    pub const MALFORMED_MULTIPART: &str = "The multipart body is malformed.";
    pub const UNSUPPORTED: &str = "Unsupported content type.";
    pub const TOO_LARGE: &str = "The request body is too large.";
}

/// What a field holds, for choosing its bad values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Text of at most `max` characters; `html` when tags are refused.
    Text { max: usize, html: bool },
    /// A record id.
    Id,
    /// A `YYYY-MM-DD` date.
    Date,
    /// A money amount of either sign (2 decimals, below 10^13).
    Money,
    /// A money amount that must not be negative.
    MoneyNonNegative,
    /// A percentage 0–100 (2 decimals).
    Percent,
    /// A quantity or unit rate (> 0, 4 decimals, below 10^11).
    Positive,
    /// One of a closed set of texts.
    Choice,
    /// One of a closed set of integers (an invoice status), as text or a JSON number.
    ChoiceId,
    /// `tags`: an array of tag texts (an empty set is valid).
    Tags,
    /// An array of ids, at most `max`; `non_empty` when the empty set is refused.
    Ids { max: usize, non_empty: bool },
    /// `items`: a non-empty array of line objects.
    Items,
}

const TITLE: Kind = Kind::Text {
    max: 250,
    html: true,
};
const CATEGORY_NAME: Kind = Kind::Text {
    max: 150,
    html: true,
};
const LONG: Kind = Kind::Text {
    max: 65_535,
    html: false,
};
const SHORT: Kind = Kind::Text {
    max: 250,
    html: false,
};
const UNIT: Kind = Kind::Text {
    max: 100,
    html: false,
};

/// What an answer must be, beyond the invariants every answer of the sweep obeys.
#[derive(Debug, Clone)]
enum Expect {
    /// 422 naming exactly these fields, each with this message when given.
    Invalid(Vec<(String, Option<String>)>),
    /// This status, with this message when given.
    Status(u16, Option<String>),
}

fn invalid(field: &str, message: String) -> Expect {
    Expect::Invalid(vec![(field.to_owned(), Some(message))])
}

fn status(code: u16, message: &str) -> Expect {
    Expect::Status(code, Some(message.to_owned()))
}

/// A body as sent.
#[derive(Debug, Clone)]
enum Sent {
    None,
    Json(Vec<u8>),
    Form(Vec<(String, String)>),
    Multipart(Vec<(String, String)>),
    Raw(Option<String>, Vec<u8>),
}

impl Sent {
    fn encoding(&self) -> &'static str {
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
struct Case {
    label: String,
    method: Method,
    path: String,
    sent: Sent,
    expect: Expect,
}

/// A bad value for one field.
struct Bad {
    label: String,
    value: Value,
    enc: u8,
    expect: Expect,
}

fn bad(label: impl Into<String>, value: Value, enc: u8, expect: Expect) -> Bad {
    Bad {
        label: label.into(),
        value,
        enc,
        expect,
    }
}

/// `[[[…leaf…]]]`, `depth` arrays deep.
fn nested_array(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |v, _| Value::Array(vec![v]))
}

/// `{"a":{"a":…leaf…}}`, `depth` objects deep.
fn nested_object(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |v, _| json!({ "a": v }))
}

/// A short view of a value for labels.
fn short(v: &Value) -> String {
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

/// The message a value of the wrong shape (array, object, boolean) gets for `kind`.
fn shape_message(kind: Kind, f: &str) -> String {
    match kind {
        Kind::Text { .. } => msg::string(f),
        Kind::Id => msg::integer(f),
        Kind::Date => msg::date(f),
        Kind::Money | Kind::MoneyNonNegative | Kind::Percent | Kind::Positive => msg::numeric(f),
        Kind::Choice | Kind::ChoiceId => msg::invalid(f),
        Kind::Tags | Kind::Ids { .. } | Kind::Items => msg::array(f),
    }
}

/// Every bad value of field `f` (a key path such as `items.0.rate`).
fn bads(f: &str, kind: Kind, required: bool, base: Option<&Value>) -> Vec<Bad> {
    let one = |m: String| invalid(f, m);
    let mut out = Vec::new();
    let scalar = !matches!(kind, Kind::Tags | Kind::Ids { .. } | Kind::Items);
    if scalar {
        let shape = shape_message(kind, f);
        out.push(bad("array", json!(["x"]), ALL, one(shape.clone())));
        out.push(bad("object", json!({"k": "x"}), ALL, one(shape.clone())));
        out.push(bad("empty array", json!([]), JSON, one(shape.clone())));
        out.push(bad("empty object", json!({}), JSON, one(shape.clone())));
        out.push(bad("true", json!(true), JSON, one(shape.clone())));
        out.push(bad("false", json!(false), JSON, one(shape.clone())));
        out.push(bad(
            "array 100 deep",
            nested_array(100, json!("x")),
            JSON,
            one(shape.clone()),
        ));
        out.push(bad(
            "object 100 deep",
            nested_object(100, json!("x")),
            JSON,
            one(shape.clone()),
        ));
        out.push(bad(
            "array 10 deep",
            nested_array(10, json!("x")),
            FLAT,
            one(shape.clone()),
        ));
        if required {
            out.push(bad("null", Value::Null, JSON, one(msg::required(f))));
            out.push(bad("empty string", json!(""), ALL, one(msg::required(f))));
            out.push(bad("spaces", json!("   "), ALL, one(msg::required(f))));
            out.push(bad(
                "whitespace",
                json!(" \t\n\r "),
                ALL,
                one(msg::required(f)),
            ));
        }
    }
    let text = |s: &str| Value::String(s.to_owned());
    match kind {
        Kind::Text { max, html } => {
            for n in ["12345", "-1.5", "1e400", "0"] {
                out.push(bad(
                    format!("number {n}"),
                    raw(n),
                    JSON,
                    one(msg::string(f)),
                ));
            }
            for c in [
                "a\u{0}b",
                "\u{0}",
                "bell\u{7}",
                "\u{1b}[31mred",
                "a\u{7f}b",
                "a\u{85}b",
                "back\u{8}space",
                "a\u{b}b",
            ] {
                out.push(bad(
                    format!("control {c:?}"),
                    text(c),
                    ALL,
                    one(msg::format(f)),
                ));
            }
            out.push(bad(
                format!("{} chars", max + 1),
                text(&"x".repeat(max + 1)),
                ALL,
                one(msg::max_chars(f, max)),
            ));
            out.push(bad(
                format!("{} é", max + 1),
                text(&"é".repeat(max + 1)),
                ALL,
                one(msg::max_chars(f, max)),
            ));
            if max < 70_000 {
                out.push(bad(
                    "70000 chars",
                    text(&"y".repeat(70_000)),
                    ALL,
                    one(msg::max_chars(f, max)),
                ));
            }
            if html {
                for h in [
                    "<script>alert(1)</script>",
                    "<b>x</b>",
                    "<img src=x onerror=1>",
                    "  <b>x</b>  ",
                    "a</p>",
                    "<!-- c -->",
                    "<?php x ?>",
                ] {
                    out.push(bad(format!("html {h}"), text(h), ALL, one(msg::no_html(f))));
                }
            }
        }
        Kind::Id => {
            for t in ["0", "-1"] {
                out.push(bad(format!("id {t}"), text(t), ALL, one(msg::invalid(f))));
            }
            for n in ["0", "-1", "-9223372036854775808"] {
                out.push(bad(
                    format!("number {n}"),
                    raw(n),
                    JSON,
                    one(msg::invalid(f)),
                ));
            }
            for t in [
                "9223372036854775808",
                "18446744073709551616",
                "abc",
                "1e3",
                "1.5",
                "1.0",
                "0x10",
                "1 2",
                "NaN",
                "١٢",
            ] {
                out.push(bad(format!("id {t}"), text(t), ALL, one(msg::integer(f))));
            }
            // A JSON number with an integral value is an integer however written (1.0, 1e3):
            // those reach the reference check; fractions and values past 2^53 or 2^63 do not.
            for n in [
                "9223372036854775808",
                "99999999999999999999999",
                "1.5",
                "1e-3",
                "1e400",
                "-1e20",
                "9007199254740993.0",
            ] {
                out.push(bad(
                    format!("number {n}"),
                    raw(n),
                    JSON,
                    one(msg::integer(f)),
                ));
            }
            for n in ["1e3", "999999.0", "0.0", "-1.0"] {
                out.push(bad(
                    format!("number {n}"),
                    raw(n),
                    JSON,
                    one(msg::invalid(f)),
                ));
            }
            out.push(bad("unknown id", text("999999"), ALL, one(msg::invalid(f))));
            out.push(bad(
                "largest id",
                text("9223372036854775807"),
                ALL,
                one(msg::invalid(f)),
            ));
        }
        Kind::Date => {
            for d in [
                "2026-02-30",
                "0000-01-01",
                "26-1-1",
                "2026-1-1",
                "tomorrow",
                "2026-13-01",
                "2026-00-10",
                "2026-01-01T00:00:00Z",
                "01/02/2026",
                "1e9999",
                "9999-99-99",
                "+2026-01-01",
                "2026-01-01\u{0}",
            ] {
                out.push(bad(format!("date {d:?}"), text(d), ALL, one(msg::date(f))));
            }
            out.push(bad("number date", raw("20260101"), JSON, one(msg::date(f))));
        }
        Kind::Money | Kind::MoneyNonNegative => {
            let low = if kind == Kind::MoneyNonNegative {
                "0"
            } else {
                "-9999999999999.99"
            };
            let range = msg::between(f, low, "9999999999999.99");
            for t in [
                "abc",
                "NaN",
                "Infinity",
                "-Infinity",
                "0x10",
                "1,5",
                "--1",
                "1.2.3",
                "١٢",
                "1e",
                "e5",
                ".",
            ] {
                out.push(bad(
                    format!("money {t}"),
                    text(t),
                    ALL,
                    one(msg::numeric(f)),
                ));
            }
            out.push(bad(
                "3 decimals",
                text("1.005"),
                ALL,
                one(msg::decimals(f, 2)),
            ));
            out.push(bad(
                "3 decimals number",
                raw("1.005"),
                JSON,
                one(msg::decimals(f, 2)),
            ));
            out.push(bad("1e-400", text("1e-400"), ALL, one(msg::decimals(f, 2))));
            for t in ["1e9999", "10000000000000", "99999999999999999999999"] {
                out.push(bad(format!("money {t}"), text(t), ALL, one(range.clone())));
            }
            for n in ["1e400", "99999999999999999999999", "-1e20"] {
                out.push(bad(format!("number {n}"), raw(n), JSON, one(range.clone())));
            }
            out.push(bad(
                "100000 digits",
                raw(&"9".repeat(100_000)),
                JSON,
                one(range.clone()),
            ));
            out.push(bad(
                "100000 decimals",
                text(&format!("0.{}1", "0".repeat(100_000))),
                ALL,
                one(msg::decimals(f, 2)),
            ));
            out.push(bad(
                "huge exponent",
                text("1e99999999999999999999"),
                ALL,
                one(range.clone()),
            ));
            if kind == Kind::MoneyNonNegative {
                out.push(bad("negative", text("-1"), ALL, one(msg::at_least(f, "0"))));
                out.push(bad(
                    "negative cent",
                    raw("-0.01"),
                    JSON,
                    one(msg::at_least(f, "0")),
                ));
            } else {
                out.push(bad("money -1e20", text("-1e20"), ALL, one(range.clone())));
            }
        }
        Kind::Percent => {
            let range = msg::between(f, "0", "100");
            for t in ["100.01", "101", "-1", "-0.01", "1e9999", "-1e20"] {
                out.push(bad(
                    format!("percent {t}"),
                    text(t),
                    ALL,
                    one(range.clone()),
                ));
            }
            out.push(bad("number 1e400", raw("1e400"), JSON, one(range.clone())));
            out.push(bad("number -5", raw("-5"), JSON, one(range)));
            out.push(bad(
                "3 decimals",
                text("1.005"),
                ALL,
                one(msg::decimals(f, 2)),
            ));
            for t in ["abc", "NaN", "Infinity", "0x10", "50%"] {
                out.push(bad(
                    format!("percent {t}"),
                    text(t),
                    ALL,
                    one(msg::numeric(f)),
                ));
            }
        }
        Kind::Positive => {
            for t in ["0", "-1", "0.0000", "-0", "-0.0001"] {
                out.push(bad(
                    format!("value {t}"),
                    text(t),
                    ALL,
                    one(msg::greater_than_zero(f)),
                ));
            }
            for n in ["0", "-2.5"] {
                out.push(bad(
                    format!("number {n}"),
                    raw(n),
                    JSON,
                    one(msg::greater_than_zero(f)),
                ));
            }
            out.push(bad(
                "5 decimals",
                text("1.00001"),
                ALL,
                one(msg::decimals(f, 4)),
            ));
            for t in ["1e20", "100000000000", "1e9999"] {
                out.push(bad(
                    format!("value {t}"),
                    text(t),
                    ALL,
                    one(msg::at_most(f, "99999999999.9999")),
                ));
            }
            for n in ["1e400", "99999999999999999999999"] {
                out.push(bad(
                    format!("number {n}"),
                    raw(n),
                    JSON,
                    one(msg::at_most(f, "99999999999.9999")),
                ));
            }
            out.push(bad(
                "100000 digits",
                raw(&"9".repeat(100_000)),
                JSON,
                one(msg::at_most(f, "99999999999.9999")),
            ));
            out.push(bad(
                "100000 decimals",
                text(&format!("0.{}1", "0".repeat(100_000))),
                ALL,
                one(msg::decimals(f, 4)),
            ));
            out.push(bad(
                "value -1e20",
                text("-1e20"),
                ALL,
                Expect::Invalid(vec![(f.to_owned(), None)]),
            ));
            for t in ["abc", "NaN", "Infinity", "0x10", "two"] {
                out.push(bad(
                    format!("value {t}"),
                    text(t),
                    ALL,
                    one(msg::numeric(f)),
                ));
            }
        }
        Kind::Choice => {
            for t in ["zzz", "<b>x</b>", "a\u{0}", "*", "'; DROP TABLE notes; --"] {
                out.push(bad(
                    format!("choice {t:?}"),
                    text(t),
                    ALL,
                    one(msg::invalid(f)),
                ));
            }
            if let Some(Value::String(v)) = base {
                out.push(bad(
                    "upper case",
                    text(&v.to_uppercase()),
                    ALL,
                    one(msg::invalid(f)),
                ));
                out.push(bad(
                    "with suffix",
                    text(&format!("{v}x")),
                    ALL,
                    one(msg::invalid(f)),
                ));
            }
            out.push(bad("number 1", raw("1"), JSON, one(msg::invalid(f))));
        }
        Kind::ChoiceId => {
            for t in [
                "zzz",
                "0",
                "6",
                "-1",
                "2.5",
                "1e0",
                "+2",
                "99999999999999999999",
                "'; DROP TABLE notes; --",
            ] {
                out.push(bad(
                    format!("choice {t:?}"),
                    text(t),
                    ALL,
                    one(msg::invalid(f)),
                ));
            }
            for n in ["0", "6", "2.0", "-1", "1e0"] {
                out.push(bad(
                    format!("number {n}"),
                    raw(n),
                    JSON,
                    one(msg::invalid(f)),
                ));
            }
        }
        Kind::Tags => {
            let arr = msg::array(f);
            let at = |i: usize| format!("{f}.{i}");
            out.push(bad("object", json!({"k": "x"}), ALL, one(arr.clone())));
            out.push(bad("string", text("a,b"), ALL, one(arr.clone())));
            out.push(bad("number", raw("5"), JSON, one(arr.clone())));
            out.push(bad("true", json!(true), JSON, one(arr.clone())));
            out.push(bad(
                "object 100 deep",
                nested_object(100, json!("x")),
                JSON,
                one(arr),
            ));
            out.push(bad(
                "number element",
                json!([1]),
                JSON,
                invalid(&at(0), msg::string(&at(0))),
            ));
            out.push(bad(
                "boolean element",
                json!([true]),
                JSON,
                invalid(&at(0), msg::string(&at(0))),
            ));
            out.push(bad(
                "array element",
                json!([["a"]]),
                ALL,
                invalid(&at(0), msg::string(&at(0))),
            ));
            out.push(bad(
                "object element",
                json!([{"k": "v"}]),
                ALL,
                invalid(&at(0), msg::string(&at(0))),
            ));
            out.push(bad(
                "element 100 deep",
                nested_array(100, json!("x")),
                JSON,
                invalid(&at(0), msg::string(&at(0))),
            ));
            for h in [
                "<script>alert(1)</script>",
                "<b>x</b>",
                "<img src=x onerror=1>",
            ] {
                out.push(bad(
                    format!("html tag {h}"),
                    json!([h]),
                    ALL,
                    invalid(&at(0), msg::no_html(&at(0))),
                ));
            }
            out.push(bad(
                "second tag html",
                json!(["ok", "<b>x</b>"]),
                ALL,
                invalid(&at(1), msg::no_html(&at(1))),
            ));
            out.push(bad(
                "html after an empty one",
                json!(["", "<b>x</b>"]),
                ALL,
                invalid(&at(1), msg::no_html(&at(1))),
            ));
            out.push(bad(
                "101 chars",
                json!(["x".repeat(101)]),
                ALL,
                invalid(&at(0), msg::max_chars(&at(0), 100)),
            ));
            out.push(bad(
                "70000 chars",
                json!(["x".repeat(70_000)]),
                ALL,
                invalid(&at(0), msg::max_chars(&at(0), 100)),
            ));
            out.push(bad(
                "NUL",
                json!(["a\u{0}b"]),
                ALL,
                invalid(&at(0), msg::format(&at(0))),
            ));
            out.push(bad(
                "escape",
                json!(["\u{1b}[2J"]),
                ALL,
                invalid(&at(0), msg::format(&at(0))),
            ));
            let many: Vec<String> = (0..101).map(|i| format!("t{i}")).collect();
            out.push(bad(
                "101 tags",
                json!(many),
                ALL,
                one(msg::max_items(f, 100)),
            ));
            let huge: Vec<String> = (0..10_000).map(|i| format!("t{i}")).collect();
            out.push(bad(
                "10000 tags",
                json!(huge),
                BIG,
                one(msg::max_items(f, 100)),
            ));
            let all_html: Vec<String> = (0..100).map(|i| format!("<i>{i}</i>")).collect();
            let each = (0..100)
                .map(|i| (at(i), Some(msg::no_html(&at(i)))))
                .collect();
            out.push(bad(
                "100 html tags",
                json!(all_html),
                ALL,
                Expect::Invalid(each),
            ));
        }
        Kind::Ids { max, non_empty } => {
            let arr = msg::array(f);
            let at = |i: usize| format!("{f}.{i}");
            out.push(bad("object", json!({"k": "1"}), ALL, one(arr.clone())));
            out.push(bad("string", text("1,2"), ALL, one(arr.clone())));
            out.push(bad("number", raw("5"), JSON, one(arr.clone())));
            out.push(bad("true", json!(true), JSON, one(arr.clone())));
            out.push(bad(
                "object 100 deep",
                nested_object(100, json!("1")),
                JSON,
                one(arr),
            ));
            for t in ["abc", "1e3", "1.5", "0x10", "9223372036854775808"] {
                out.push(bad(
                    format!("element {t}"),
                    json!([t]),
                    ALL,
                    invalid(&at(0), msg::integer(&at(0))),
                ));
            }
            out.push(bad(
                "number element 1.5",
                json!([raw("1.5")]),
                JSON,
                invalid(&at(0), msg::integer(&at(0))),
            ));
            out.push(bad(
                "number element 1e6",
                json!([raw("1e6")]),
                JSON,
                invalid(&at(0), msg::invalid(&at(0))),
            ));
            out.push(bad(
                "boolean element",
                json!([true]),
                JSON,
                invalid(&at(0), msg::integer(&at(0))),
            ));
            out.push(bad(
                "array element",
                json!([["1"]]),
                ALL,
                invalid(&at(0), msg::integer(&at(0))),
            ));
            out.push(bad(
                "object element",
                json!([{"k": "1"}]),
                ALL,
                invalid(&at(0), msg::integer(&at(0))),
            ));
            out.push(bad(
                "element 100 deep",
                nested_array(100, json!("1")),
                JSON,
                invalid(&at(0), msg::integer(&at(0))),
            ));
            for t in ["0", "-1"] {
                out.push(bad(
                    format!("element {t}"),
                    json!([t]),
                    ALL,
                    invalid(&at(0), msg::invalid(&at(0))),
                ));
            }
            out.push(bad(
                "number element 0",
                json!([0]),
                JSON,
                invalid(&at(0), msg::invalid(&at(0))),
            ));
            out.push(bad(
                "unknown element",
                json!(["999999"]),
                ALL,
                invalid(&at(0), msg::invalid(&at(0))),
            ));
            out.push(bad(
                "largest id element",
                json!(["9223372036854775807"]),
                ALL,
                invalid(&at(0), msg::invalid(&at(0))),
            ));
            let over: Vec<String> = (0..=max).map(|i| (900_000 + i).to_string()).collect();
            out.push(bad(
                format!("{} elements", max + 1),
                json!(over),
                if max > 200 { BIG } else { ALL },
                one(msg::max_items(f, max)),
            ));
            let huge: Vec<String> = (0..10_000).map(|i| i.to_string()).collect();
            out.push(bad(
                "10000 elements",
                json!(huge),
                BIG,
                one(msg::max_items(f, max)),
            ));
            let unknown: Vec<String> = (0..max).map(|i| (900_000 + i).to_string()).collect();
            let each = (0..max)
                .map(|i| (at(i), Some(msg::invalid(&at(i)))))
                .collect();
            out.push(bad(
                format!("{max} unknown ids"),
                json!(unknown),
                if max > 200 { BIG } else { ALL },
                Expect::Invalid(each),
            ));
            if non_empty {
                out.push(bad("empty array", json!([]), JSON, one(msg::required(f))));
                out.push(bad("empty string", text(""), ALL, one(msg::required(f))));
                out.push(bad(
                    "only empty elements",
                    json!(["", " "]),
                    ALL,
                    one(msg::required(f)),
                ));
                out.push(bad(
                    "null elements",
                    json!([null, null]),
                    JSON,
                    one(msg::required(f)),
                ));
            }
        }
        Kind::Items => {
            let arr = msg::array(f);
            let at = |i: usize| format!("{f}.{i}");
            let line = json!({"description": "Line", "quantity": "1", "rate": "1"});
            out.push(bad(
                "object",
                json!({"k": line.clone()}),
                ALL,
                one(arr.clone()),
            ));
            out.push(bad("string", text("x"), ALL, one(arr.clone())));
            out.push(bad("number", raw("5"), JSON, one(arr.clone())));
            out.push(bad(
                "object 100 deep",
                nested_object(100, line.clone()),
                JSON,
                one(arr),
            ));
            out.push(bad(
                "string item",
                json!(["x"]),
                ALL,
                invalid(&at(0), msg::array(&at(0))),
            ));
            out.push(bad(
                "number item",
                json!([1]),
                JSON,
                invalid(&at(0), msg::array(&at(0))),
            ));
            out.push(bad(
                "array item",
                json!([["x"]]),
                ALL,
                Expect::Invalid(vec![(at(0), None)]),
            ));
            out.push(bad(
                "item 100 deep",
                nested_array(100, line.clone()),
                JSON,
                Expect::Invalid(vec![(at(0), None)]),
            ));
            out.push(bad("empty array", json!([]), JSON, one(msg::required(f))));
            out.push(bad("empty string", text(""), ALL, one(msg::required(f))));
            out.push(bad(
                "null items",
                json!([null]),
                JSON,
                one(msg::required(f)),
            ));
            out.push(bad("empty items", json!([""]), FLAT, one(msg::required(f))));
            let blank = ["description", "quantity", "rate"].map(|k| {
                (
                    format!("{f}.0.{k}"),
                    Some(msg::required(&format!("{f}.0.{k}"))),
                )
            });
            out.push(bad(
                "empty object item",
                json!([{}]),
                JSON,
                Expect::Invalid(blank.to_vec()),
            ));
            out.push(bad(
                "item of unknown fields",
                json!([{"zzz": "1"}]),
                ALL,
                Expect::Invalid(blank.to_vec()),
            ));
            let second = json!([line.clone(), {"description": "x", "quantity": "0", "rate": "1"}]);
            out.push(bad(
                "second item bad",
                second,
                ALL,
                invalid(
                    &format!("{f}.1.quantity"),
                    msg::greater_than_zero(&format!("{f}.1.quantity")),
                ),
            ));
            let over: Vec<Value> = (0..1001).map(|_| line.clone()).collect();
            out.push(bad(
                "1001 items",
                json!(over),
                BIG,
                one(msg::max_items(f, 1000)),
            ));
            let huge: Vec<Value> = (0..5000).map(|_| line.clone()).collect();
            out.push(bad(
                "5000 items",
                json!(huge),
                BIG,
                one(msg::max_items(f, 1000)),
            ));
        }
    }
    out
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

fn with(base: &Value, path: &str, v: Value) -> Value {
    let mut out = base.clone();
    let parts: Vec<&str> = path.split('.').collect();
    set(&mut out, &parts, v);
    out
}

/// Bracket pairs of a value (`items[0][rate]`), as PHP's http_build_query writes them.
fn pairs_into(prefix: &str, v: &Value, out: &mut Vec<(String, String)>) {
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

fn pairs(body: &Value) -> Vec<(String, String)> {
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

fn urlencoded(pairs: &[(String, String)]) -> Vec<u8> {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k.as_bytes()), encode(v.as_bytes())))
        .collect::<Vec<_>>()
        .join("&")
        .into_bytes()
}

/// A multipart body with boundary `B0undary` from parts given as raw bytes.
fn multipart_bytes(parts: &[(&[u8], &[u8])], close: bool) -> Vec<u8> {
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

/// One endpoint of the sweep: a real target and a valid body.
struct Target {
    method: Method,
    /// The route template, for grouping and reports.
    template: &'static str,
    path: String,
    /// `Some(message)` for `{id}` routes: the 404 of an unknown id.
    not_found: Option<&'static str>,
    /// A valid body (sending it succeeds; every case differs from it by one defect).
    base: Value,
    /// The fields the endpoint reads: key path, kind, required.
    fields: Vec<(&'static str, Kind, bool)>,
    /// Endpoint-specific bad requests.
    extras: Vec<Case>,
}

impl Target {
    /// The endpoint of the route table whose OpenAPI operation id is `operation`, aimed at
    /// `path` with the valid body `base`.
    fn new(operation: &str, path: String, base: Value) -> Target {
        let route = crm_http::router::ROUTES
            .iter()
            .find(|r| r.operation_id == operation)
            .unwrap_or_else(|| panic!("no route has the operation id {operation}"));
        let (method, template) = (route.method.clone(), route.path);
        let not_found = if template.contains("{id}") {
            Some(match template.split('/').nth(2) {
                Some("categories") => "Category not found.",
                Some("contracts") => "Contract not found.",
                Some("estimates") => "Estimate not found.",
                Some("invoices") => "Invoice not found.",
                Some("milestones") => "Milestone not found.",
                _ => "Note not found.",
            })
        } else {
            None
        };
        Target {
            method,
            template,
            path,
            not_found,
            base,
            fields: Vec::new(),
            extras: Vec::new(),
        }
    }

    fn field(mut self, key: &'static str, kind: Kind, required: bool) -> Target {
        self.fields.push((key, kind, required));
        self
    }

    /// A bad body (sent in `enc`) for this endpoint's own path.
    fn extra(mut self, label: &str, body: Value, enc: u8, expect: Expect) -> Target {
        let cases = encoded(&self.method, &self.path, label, &body, enc, &expect);
        self.extras.extend(cases);
        self
    }

    /// A request to another path of the same route (another record).
    fn extra_at(mut self, label: &str, path: String, body: Value, expect: Expect) -> Target {
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
    fn appended(mut self, key: &str, element: &str, n: usize, expect: Expect) -> Target {
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

    fn required_fields(&self) -> Vec<&'static str> {
        self.fields
            .iter()
            .filter(|(k, _, r)| *r && !k.contains('.'))
            .map(|(k, _, _)| *k)
            .collect()
    }

    /// Every case of the sweep for this endpoint.
    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for (key, kind, required) in &self.fields {
            let current = self.base.pointer(&format!("/{}", key.replace('.', "/")));
            for b in bads(key, *kind, *required, current) {
                let body = with(&self.base, key, b.value);
                cases.extend(encoded(
                    &self.method,
                    &self.path,
                    &format!("{key}: {}", b.label),
                    &body,
                    b.enc,
                    &b.expect,
                ));
            }
        }
        self.whole_body_cases(&mut cases);
        self.decoding_cases(&mut cases);
        if let Some(message) = self.not_found {
            for id in [
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
            ] {
                let path = self.template.replace("{id}", id);
                cases.push(Case {
                    label: format!("path id {id}"),
                    method: self.method.clone(),
                    path: path.clone(),
                    sent: json_sent(&self.base),
                    expect: status(404, message),
                });
                // An unknown record is a 404 even when the body is invalid too.
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
        cases.extend(self.extras.iter().cloned());
        cases
    }

    /// Bodies that miss the required fields, whatever else they carry.
    fn whole_body_cases(&self, cases: &mut Vec<Case>) {
        let required = self.required_fields();
        if required.is_empty() {
            return;
        }
        let expect = Expect::Invalid(
            required
                .iter()
                .map(|k| ((*k).to_owned(), Some(msg::required(k))))
                .collect(),
        );
        let case = |label: &str, sent: Sent| Case {
            label: label.to_owned(),
            method: self.method.clone(),
            path: self.path.clone(),
            sent,
            expect: expect.clone(),
        };
        cases.push(case("no body", Sent::None));
        cases.push(case("empty JSON object", Sent::Json(b"{}".to_vec())));
        cases.push(case(
            "whitespace JSON body",
            Sent::Raw(Some("application/json".into()), b" \r\n\t ".to_vec()),
        ));
        cases.push(case(
            "empty form",
            Sent::Raw(Some("application/x-www-form-urlencoded".into()), Vec::new()),
        ));
        cases.push(case(
            "form of separators",
            Sent::Raw(
                Some("application/x-www-form-urlencoded".into()),
                b"&&=&=x&".to_vec(),
            ),
        ));
        cases.push(case(
            "multipart without parts",
            Sent::Raw(
                Some("multipart/form-data; boundary=B0undary".into()),
                b"--B0undary--\r\n".to_vec(),
            ),
        ));
        let unknown = json!({"foo": "bar", "id": "5", "creator_id": "2", "__proto__": {"polluted": "1"}, "constructor": "x", "FIELD": "x"});
        cases.extend(encoded(
            &self.method,
            &self.path,
            "unknown fields only",
            &unknown,
            ALL,
            &expect,
        ));
        // Upper-cased names are other fields (names are case-sensitive).
        let upper: Map<String, Value> = self
            .base
            .as_object()
            .expect("object")
            .iter()
            .map(|(k, v)| (k.to_uppercase(), v.clone()))
            .collect();
        cases.extend(encoded(
            &self.method,
            &self.path,
            "upper-cased names",
            &Value::Object(upper),
            ALL,
            &expect,
        ));
        let mut nulls = Map::new();
        let mut blanks = Map::new();
        for (k, kind, _) in self
            .fields
            .iter()
            .filter(|(k, _, r)| *r && !k.contains('.'))
        {
            nulls.insert((*k).to_owned(), Value::Null);
            // An empty tag or user set is a valid (clearing) value, not an absent one.
            if !matches!(
                kind,
                Kind::Tags
                    | Kind::Ids {
                        non_empty: false,
                        ..
                    }
            ) {
                blanks.insert((*k).to_owned(), json!("  "));
            }
        }
        if nulls.len() == blanks.len() {
            cases.extend(encoded(
                &self.method,
                &self.path,
                "required fields null",
                &Value::Object(nulls),
                JSON,
                &expect,
            ));
            cases.extend(encoded(
                &self.method,
                &self.path,
                "required fields blank",
                &Value::Object(blanks),
                ALL,
                &expect,
            ));
        }
        // Multipart file parts are ignored: the required fields sent as files are missing.
        let mut files = Vec::new();
        for (k, v) in pairs(&self.base) {
            files.extend_from_slice(format!("--B0undary\r\nContent-Disposition: form-data; name=\"{k}\"; filename=\"x.txt\"\r\nContent-Type: text/plain\r\n\r\n{v}\r\n").as_bytes());
        }
        files.extend_from_slice(b"--B0undary--\r\n");
        cases.push(case(
            "every field sent as a file",
            Sent::Raw(Some("multipart/form-data; boundary=B0undary".into()), files),
        ));
        // JSON keys are names, not bracket paths.
        let bracketed: Map<String, Value> = self
            .base
            .as_object()
            .expect("object")
            .iter()
            .map(|(k, v)| (format!("{k}[]"), v.clone()))
            .collect();
        cases.extend(encoded(
            &self.method,
            &self.path,
            "JSON keys with brackets",
            &Value::Object(bracketed),
            JSON,
            &expect,
        ));
        cases.extend(encoded(
            &self.method,
            &self.path,
            "deep unknown field",
            &json!({"zzz": nested_object(100, json!(1))}),
            JSON,
            &expect,
        ));
        // Duplicated keys: the last one wins, and it is bad.
        let (key, kind, required) = self.fields[0];
        let dup = bads(key, kind, required, None)
            .into_iter()
            .find(|b| b.value.is_string() && b.enc & FORM != 0)
            .expect("a text bad value");
        let good = self.base[key].clone();
        let mut rest = self.base.as_object().expect("object").clone();
        rest.remove(key);
        let mut text = serde_json::to_string(&Value::Object(rest.clone())).expect("json");
        text.pop();
        let sep = if rest.is_empty() { "" } else { "," };
        text.push_str(&format!(
            "{sep}\"{key}\":{good},\"{key}\":{}}}",
            b_json(&dup.value)
        ));
        let label = format!("duplicated {key}, last {}", dup.label);
        cases.push(Case {
            label: label.clone(),
            method: self.method.clone(),
            path: self.path.clone(),
            sent: Sent::Json(text.into_bytes()),
            expect: dup.expect.clone(),
        });
        let mut form_pairs = pairs(&self.base);
        pairs_into(key, &dup.value, &mut form_pairs);
        cases.push(Case {
            label: label.clone(),
            method: self.method.clone(),
            path: self.path.clone(),
            sent: Sent::Form(form_pairs.clone()),
            expect: dup.expect.clone(),
        });
        cases.push(Case {
            label,
            method: self.method.clone(),
            path: self.path.clone(),
            sent: Sent::Multipart(form_pairs),
            expect: dup.expect,
        });
    }

    /// Bodies that cannot be decoded: each carries the valid base around its defect.
    fn decoding_cases(&self, cases: &mut Vec<Case>) {
        let base_json = serde_json::to_string(&self.base).expect("json");
        let inner = &base_json[1..base_json.len() - 1];
        let sep = if inner.is_empty() { "" } else { "," };
        let mut push = |label: &str, ct: Option<&str>, body: Vec<u8>, expect: Expect| {
            cases.push(Case {
                label: label.to_owned(),
                method: self.method.clone(),
                path: self.path.clone(),
                sent: Sent::Raw(ct.map(str::to_owned), body),
                expect,
            });
        };
        let json_ct = Some("application/json");
        for (label, body) in [
            ("JSON array body", format!("[{base_json}]")),
            ("JSON string body", "\"x\"".to_owned()),
            ("JSON null body", "null".to_owned()),
            ("JSON number body", "42".to_owned()),
            ("JSON boolean body", "true".to_owned()),
        ] {
            push(
                label,
                json_ct,
                body.into_bytes(),
                status(400, msg::NOT_OBJECT),
            );
        }
        let mut bad_json: Vec<(&str, Vec<u8>)> = vec![
            (
                "truncated JSON",
                base_json.as_bytes()[..base_json.len() - 1].to_vec(),
            ),
            ("trailing garbage", format!("{base_json}x").into_bytes()),
            (
                "two objects",
                format!("{base_json}{base_json}").into_bytes(),
            ),
            (
                "trailing comma",
                format!("{{{inner}{sep}\"zzz\":1,}}").into_bytes(),
            ),
            (
                "single quotes",
                format!("{{{inner}{sep}'zzz':1}}").into_bytes(),
            ),
            (
                "NaN literal",
                format!("{{{inner}{sep}\"zzz\":NaN}}").into_bytes(),
            ),
            (
                "Infinity literal",
                format!("{{{inner}{sep}\"zzz\":Infinity}}").into_bytes(),
            ),
            (
                "leading zero",
                format!("{{{inner}{sep}\"zzz\":01}}").into_bytes(),
            ),
            (
                "hex number",
                format!("{{{inner}{sep}\"zzz\":0x10}}").into_bytes(),
            ),
            (
                "bad escape",
                format!("{{{inner}{sep}\"zzz\":\"\\x41\"}}").into_bytes(),
            ),
            (
                "lone high surrogate",
                format!("{{{inner}{sep}\"zzz\":\"\\ud800\"}}").into_bytes(),
            ),
            (
                "lone low surrogate",
                format!("{{{inner}{sep}\"zzz\":\"a\\udc00b\"}}").into_bytes(),
            ),
            (
                "unescaped control character",
                format!("{{{inner}{sep}\"zzz\":\"a\u{1}b\"}}").into_bytes(),
            ),
            ("comment", format!("/* c */{base_json}").into_bytes()),
            (
                "byte order mark",
                [b"\xEF\xBB\xBF".as_slice(), base_json.as_bytes()].concat(),
            ),
            (
                "unquoted key",
                format!("{{{inner}{sep}zzz:1}}").into_bytes(),
            ),
            (
                "200 deep",
                format!(
                    "{{{inner}{sep}\"zzz\":{}1{}}}",
                    "[".repeat(200),
                    "]".repeat(200)
                )
                .into_bytes(),
            ),
            (
                "unterminated string",
                format!("{{{inner}{sep}\"zzz\":\"abc}}").into_bytes(),
            ),
        ];
        let mut invalid_utf8 = format!("{{{inner}{sep}\"zzz\":\"a").into_bytes();
        invalid_utf8.extend_from_slice(b"\xff\xfe\"}");
        bad_json.push(("invalid UTF-8 in a string", invalid_utf8));
        let mut invalid_utf8_key = format!("{{{inner}{sep}\"").into_bytes();
        invalid_utf8_key.extend_from_slice(b"\xc3\x28\":1}");
        bad_json.push(("invalid UTF-8 in a key", invalid_utf8_key));
        bad_json.push((
            "UTF-16 body",
            base_json
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect(),
        ));
        for (label, body) in bad_json {
            push(label, json_ct, body, status(400, msg::NOT_JSON));
        }
        let form_ct = Some("application/x-www-form-urlencoded");
        let form = urlencoded(&pairs(&self.base));
        let amp = if form.is_empty() { "" } else { "&" };
        for (label, tail, expect) in [
            (
                "raw 0xFF byte in a value",
                b"zzz=a\xffb".to_vec(),
                status(400, msg::NOT_UTF8),
            ),
            (
                "raw 0xFF byte in a key",
                b"z\xffz=1".to_vec(),
                status(400, msg::NOT_UTF8),
            ),
            (
                "%FF in a value",
                b"zzz=%FF".to_vec(),
                status(400, msg::NOT_UTF8),
            ),
            (
                "overlong %C0%AF",
                b"zzz=%C0%AF".to_vec(),
                status(400, msg::NOT_UTF8),
            ),
            (
                "encoded surrogate %ED%A0%80",
                b"zzz=%ED%A0%80".to_vec(),
                status(400, msg::NOT_UTF8),
            ),
            (
                "invalid %C3%28 in a key",
                b"%C3%28=1".to_vec(),
                status(400, msg::NOT_UTF8),
            ),
            (
                "key 30 brackets deep",
                format!("a{}=1", "[b]".repeat(30)).into_bytes(),
                status(400, msg::TOO_DEEP),
            ),
            (
                "encoded key 30 brackets deep",
                format!("a{}=1", "%5Bb%5D".repeat(30)).into_bytes(),
                status(400, msg::TOO_DEEP),
            ),
            (
                "key 30 empty brackets deep",
                format!("a{}=1", "[]".repeat(30)).into_bytes(),
                status(400, msg::TOO_DEEP),
            ),
        ] {
            push(
                &format!("form {label}"),
                form_ct,
                [form.as_slice(), amp.as_bytes(), tail.as_slice()].concat(),
                expect,
            );
        }
        // Always one part at least, so that no case is an empty (hence acceptable) body.
        let mut base_pairs = pairs(&self.base);
        base_pairs.push(("zzz".to_owned(), "1".to_owned()));
        let parts: Vec<(&[u8], &[u8])> = base_pairs
            .iter()
            .map(|(k, v)| (k.as_bytes(), v.as_bytes()))
            .collect();
        let valid_multipart = multipart_bytes(&parts, true);
        push(
            "multipart without boundary",
            Some("multipart/form-data"),
            valid_multipart.clone(),
            status(400, msg::NO_BOUNDARY),
        );
        push(
            "multipart with empty boundary",
            Some("multipart/form-data; boundary="),
            valid_multipart.clone(),
            Expect::Status(400, None),
        );
        push(
            "multipart with another boundary",
            Some("multipart/form-data; boundary=Other"),
            valid_multipart.clone(),
            status(400, msg::MALFORMED_MULTIPART),
        );
        push(
            "multipart not closed",
            Some("multipart/form-data; boundary=B0undary"),
            multipart_bytes(&parts, false),
            status(400, msg::MALFORMED_MULTIPART),
        );
        push(
            "multipart garbage",
            Some("multipart/form-data; boundary=B0undary"),
            b"hello world".to_vec(),
            status(400, msg::MALFORMED_MULTIPART),
        );
        let truncated = valid_multipart[..valid_multipart.len().saturating_sub(30).max(1)].to_vec();
        push(
            "multipart cut short",
            Some("multipart/form-data; boundary=B0undary"),
            truncated,
            status(400, msg::MALFORMED_MULTIPART),
        );
        let mut with_bad_utf8 = parts.clone();
        with_bad_utf8.push((b"zzz", b"a\xffb"));
        push(
            "multipart raw 0xFF byte in a value",
            Some("multipart/form-data; boundary=B0undary"),
            multipart_bytes(&with_bad_utf8, true),
            status(400, msg::NOT_UTF8),
        );
        let deep_key = format!("a{}", "[b]".repeat(30));
        let mut with_deep = parts.clone();
        with_deep.push((deep_key.as_bytes(), b"1"));
        push(
            "multipart key 30 brackets deep",
            Some("multipart/form-data; boundary=B0undary"),
            multipart_bytes(&with_deep, true),
            status(400, msg::TOO_DEEP),
        );
        for ct in [
            None,
            Some("text/plain"),
            Some("application/xml"),
            Some("text/xml"),
            Some("application/octet-stream"),
            Some("text/html"),
            Some("application/x-www-form-urlencodedx"),
            Some("multipart/mixed; boundary=B0undary"),
            Some("application/jsonp"),
            Some("json"),
        ] {
            push(
                &format!("content type {ct:?}"),
                ct,
                base_json.clone().into_bytes(),
                status(415, msg::UNSUPPORTED),
            );
        }
        push(
            "XML body",
            Some("application/xml"),
            b"<?xml version=\"1.0\"?><note><title>x</title></note>".to_vec(),
            status(415, msg::UNSUPPORTED),
        );
        let mut just_over = base_json.clone().into_bytes();
        just_over.resize(MIB + 1, b' ');
        push(
            "JSON 1 MiB + 1 byte (whitespace)",
            json_ct,
            just_over,
            status(413, msg::TOO_LARGE),
        );
        let padding = "p".repeat(MIB);
        let mut big = self.base.clone();
        big["zzz"] = json!(padding);
        for sent in [
            json_sent(&big),
            Sent::Form(pairs(&big)),
            Sent::Multipart(pairs(&big)),
        ] {
            cases.push(Case {
                label: format!("{} over 1 MiB", sent.encoding()),
                method: self.method.clone(),
                path: self.path.clone(),
                sent,
                expect: status(413, msg::TOO_LARGE),
            });
        }
    }
}

fn b_json(v: &Value) -> String {
    serde_json::to_string(v).expect("json")
}

fn json_sent(body: &Value) -> Sent {
    Sent::Json(serde_json::to_vec(body).expect("json"))
}

/// The cases of one body in each encoding of `enc`.
fn encoded(
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

/// What came back.
struct Reply {
    status: u16,
    content_type: String,
    body: Vec<u8>,
}

async fn send(s: &TestServer, case: &Case) -> Result<Reply, String> {
    let url = format!("{}{}", s.base, case.path);
    let mut request = s
        .http
        .request(case.method.clone(), url)
        .bearer_auth(&s.key)
        .timeout(Duration::from_secs(30));
    request = match &case.sent {
        Sent::None => request,
        Sent::Json(bytes) => request
            .header("content-type", "application/json")
            .body(bytes.clone()),
        Sent::Form(pairs) => request
            .header("content-type", "application/x-www-form-urlencoded")
            .body(urlencoded(pairs)),
        Sent::Multipart(pairs) => {
            let mut form = reqwest::multipart::Form::new();
            for (k, v) in pairs {
                form = form.text(k.clone(), v.clone());
            }
            request.multipart(form)
        }
        Sent::Raw(Some(ct), bytes) => request
            .header("content-type", ct.as_str())
            .body(bytes.clone()),
        Sent::Raw(None, bytes) => request.body(bytes.clone()),
    };
    let response = request
        .send()
        .await
        .map_err(|e| format!("request failed: {e}"))?;
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let body = response
        .bytes()
        .await
        .map_err(|e| format!("body failed: {e}"))?
        .to_vec();
    crate::conformance::conformance(
        &case.method,
        &case.path,
        reqwest::StatusCode::from_u16(status).map_err(|e| e.to_string())?,
        &body,
    )?;
    Ok(Reply {
        status,
        content_type,
        body,
    })
}

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
            !s.is_empty()
                && (s.bytes().all(|b| b.is_ascii_digit())
                    || s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
        })
}

/// The problems with one answer (empty when it is right).
fn verify(case: &Case, reply: &Reply) -> Vec<String> {
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
    let mut error_keys = BTreeSet::new();
    if reply.status == 422 {
        if message != Some(msg::INVALID) {
            problems.push(format!("422 message {message:?}"));
        }
        match object.get("errors").and_then(Value::as_object) {
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
                short(&json)
            )),
        }
    } else if object.contains_key("errors") {
        problems.push("errors outside a 422".to_owned());
    }
    match &case.expect {
        Expect::Status(code, text) => {
            if reply.status != *code {
                problems.push(format!(
                    "expected {code}, got {}: {}",
                    reply.status,
                    short_json(&json)
                ));
            } else if let Some(text) = text
                && message != Some(text.as_str())
            {
                problems.push(format!("expected message {text:?}, got {message:?}"));
            }
        }
        Expect::Invalid(fields) => {
            if reply.status != 422 {
                problems.push(format!(
                    "expected 422, got {}: {}",
                    reply.status,
                    short_json(&json)
                ));
            } else {
                let wanted: BTreeSet<String> = fields.iter().map(|(k, _)| k.clone()).collect();
                if wanted != error_keys {
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
                            problems
                                .push(format!("expected {k}: {text:?}, got {}", json["errors"][k]));
                        }
                    }
                }
            }
        }
    }
    problems
}

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

/// A checksum of every table: row count and md5 of all rows, by table.
async fn checksum(db: &tokio_postgres::Client) -> BTreeMap<String, String> {
    let tables: Vec<String> = db
        .query(
            "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1",
            &[],
        )
        .await
        .expect("tables")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(
        tables.len() > 20,
        "the schema's tables are found: {tables:?}"
    );
    let mut out = BTreeMap::new();
    for t in tables {
        let sql = format!(
            "SELECT count(*)::text || ' ' || coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '-') FROM \"{t}\" t"
        );
        let row = db.query_one(&sql, &[]).await.expect("checksum");
        out.insert(t, row.get::<_, String>(0));
    }
    out
}

fn changed_tables(
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) -> Vec<String> {
    before
        .iter()
        .filter(|(t, sum)| after.get(*t) != Some(sum))
        .map(|(t, sum)| format!("{t} ({sum} → {:?})", after.get(t)))
        .collect()
}

/// Totals of a sweep.
#[derive(Default)]
struct Tally {
    requests: usize,
    statuses: BTreeMap<u16, usize>,
    failures: Vec<String>,
}

impl Tally {
    fn summary(&self) -> String {
        let dist: Vec<String> = self
            .statuses
            .iter()
            .map(|(s, n)| format!("{s}: {n}"))
            .collect();
        format!("{} requests; statuses {}", self.requests, dist.join(", "))
    }

    fn assert_clean(&self) {
        assert!(
            self.failures.is_empty(),
            "{} of {} requests were answered wrongly:\n{}",
            self.failures.len(),
            self.requests,
            self.failures
                .iter()
                .take(60)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// Sends `cases` (bounded concurrency) and records every wrong answer.
async fn run(s: &TestServer, group: &str, cases: Vec<Case>, tally: &mut Tally) {
    let results: Vec<(Case, Result<Reply, String>)> = stream::iter(cases)
        .map(|case| async move {
            let r = send(s, &case).await;
            (case, r)
        })
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await;
    for (case, result) in results {
        tally.requests += 1;
        match result {
            Ok(reply) => {
                *tally.statuses.entry(reply.status).or_default() += 1;
                let problems = verify(&case, &reply);
                if !problems.is_empty() {
                    tally.failures.push(format!(
                        "{group} [{}] {}: {}",
                        case.sent.encoding(),
                        case.label,
                        problems.join("; ")
                    ));
                }
            }
            Err(e) => tally.failures.push(format!(
                "{group} [{}] {}: {e}",
                case.sent.encoding(),
                case.label
            )),
        }
    }
}

/// The records the sweep aims at.
struct World {
    client: i64,
    project: i64,
    lead: i64,
    template: i64,
    client_user: i64,
    enabled_rate: i64,
    other_rate: i64,
    disabled_rate: i64,
    /// Contract category holding the contract.
    category: i64,
    /// Another contract category (migration target).
    category2: i64,
    /// An empty project category (the delete target).
    category3: i64,
    default_contract_category: i64,
    default_estimate_category: i64,
    default_invoice_category: i64,
    default_project_category: i64,
    contract: i64,
    /// A draft estimate with one line.
    estimate: i64,
    /// A published, converted estimate.
    published: i64,
    /// A draft invoice with one line.
    invoice: i64,
    /// A published invoice (the conversion of `published`).
    published_invoice: i64,
    milestone: i64,
    planning: i64,
    design_title: String,
    uncategorised: i64,
    other_project_milestone: i64,
    note: i64,
    private_note: i64,
    sticky_note: i64,
}

async fn created(s: &TestServer, path: &str, body: Value) -> i64 {
    let a = s.post(path, crate::common::json(body)).await;
    assert_eq!(a.status.as_u16(), 201, "setup POST {path}: {}", a.json);
    a.data()["id"].as_i64().expect("id")
}

async fn world(s: &TestServer) -> World {
    let ids = &s.ids;
    let project = ids.projects[0];
    let other_project = ids.projects[1];
    let milestone_of = |project: i64, title: &str| {
        ids.milestones
            .iter()
            .find(|m| m.project_id == project && m.title == title)
            .map(|m| m.id)
    };
    let uncategorised = ids
        .milestones
        .iter()
        .find(|m| m.project_id == project && m.milestone_type == "uncategorised")
        .map(|m| m.id)
        .expect("uncategorised milestone");
    let enabled: Vec<i64> = ids
        .tax_rates
        .iter()
        .filter(|t| t.status == "enabled" && t.id != 1)
        .map(|t| t.id)
        .collect();
    let disabled_rate = ids
        .tax_rates
        .iter()
        .find(|t| t.status == "disabled")
        .map(|t| t.id)
        .expect("a disabled tax rate");
    let category = created(
        s,
        "/api/categories",
        json!({"category_name": "Sweep Contracts", "category_type": "contract"}),
    )
    .await;
    let category2 = created(
        s,
        "/api/categories",
        json!({"category_name": "Sweep Target", "category_type": "contract"}),
    )
    .await;
    let category3 = created(
        s,
        "/api/categories",
        json!({"category_name": "Sweep Empty", "category_type": "project"}),
    )
    .await;
    let client = ids.clients[0].id;
    let contract = created(
        s,
        "/api/contracts",
        json!({"doc_client_id": client, "doc_title": "Sweep Contract", "doc_date_start": "2026-01-10", "doc_categoryid": category}),
    )
    .await;
    let default_estimate_category = s.default_category("estimate").await;
    let estimate_body = json!({"bill_clientid": client, "bill_categoryid": default_estimate_category, "bill_date": "2026-01-10"});
    let items = json!({"items": [{"description": "Design", "quantity": "2", "rate": "10.50"}]});
    let estimate = created(s, "/api/estimates", estimate_body.clone()).await;
    let published = created(s, "/api/estimates", estimate_body).await;
    for id in [estimate, published] {
        let a = s
            .put(
                &format!("/api/estimates/{id}/items"),
                crate::common::json(items.clone()),
            )
            .await;
        assert_eq!(a.status.as_u16(), 200, "setup items: {}", a.json);
    }
    assert_eq!(
        s.put(
            &format!("/api/estimates/{published}/publish"),
            crate::common::Body::None
        )
        .await
        .status
        .as_u16(),
        200
    );
    let converted = s
        .post(
            &format!("/api/estimates/{published}/convert-to-invoice"),
            crate::common::Body::None,
        )
        .await;
    assert_eq!(
        converted.status.as_u16(),
        201,
        "setup convert: {}",
        converted.json
    );
    let published_invoice = converted.data()["id"].as_i64().expect("id");
    let published_answer = s
        .put(
            &format!("/api/invoices/{published_invoice}/publish"),
            crate::common::Body::None,
        )
        .await;
    assert_eq!(
        published_answer.status.as_u16(),
        200,
        "setup publish: {}",
        published_answer.json
    );
    let default_invoice_category = s.default_category("invoice").await;
    let invoice = created(
        s,
        "/api/invoices",
        json!({"bill_clientid": client, "bill_categoryid": default_invoice_category, "bill_date": "2026-01-10"}),
    )
    .await;
    let a = s
        .put(
            &format!("/api/invoices/{invoice}/items"),
            crate::common::json(items.clone()),
        )
        .await;
    assert_eq!(a.status.as_u16(), 200, "setup items: {}", a.json);
    let milestone = created(s, "/api/milestones", json!({"milestone_projectid": project, "milestone_title": "Sweep Milestone", "milestone_color": "info"})).await;
    let note = created(
        s,
        "/api/notes",
        json!({"note_title": "Sweep Note", "note_description": "Body", "noteresource_type": "project", "noteresource_id": project}),
    )
    .await;
    World {
        client,
        project,
        lead: ids.leads[0],
        template: ids.contract_templates[0],
        client_user: ids.client_users[0],
        enabled_rate: enabled[0],
        other_rate: enabled[1],
        disabled_rate,
        category,
        category2,
        category3,
        default_contract_category: s.default_category("contract").await,
        default_estimate_category,
        default_invoice_category,
        default_project_category: s.default_category("project").await,
        contract,
        estimate,
        published,
        invoice,
        published_invoice,
        milestone,
        planning: milestone_of(project, "Planning").expect("Planning"),
        design_title: "Design".to_owned(),
        uncategorised,
        other_project_milestone: milestone_of(other_project, "Planning")
            .expect("Planning of the other project"),
        note,
        private_note: ids.notes.private_of_user_2,
        sticky_note: ids.notes.sticky,
    }
}

fn tags_target(operation: &str, path: String) -> Target {
    let too_many = || invalid("tags", msg::max_items("tags", 100));
    Target::new(operation, path, json!({"tags": ["alpha", "beta"]}))
        .field("tags", Kind::Tags, true)
        .appended("tags", "tags[]=x", 10_000, too_many())
        .appended("tags", "tags[]=x", 0, too_many())
        .appended("tags", "tags%5B%5D=x", 0, too_many())
}

/// A bill area of the sweep: estimates and invoices take the same fields (the shared bill
/// machinery) and differ in these.
struct Bill {
    /// `Estimate`, `Invoice` (operation ids, messages).
    title: &'static str,
    /// `estimates`, `invoices`.
    area: &'static str,
    /// `bill_expiry_date`, `bill_due_date`.
    end_date: &'static str,
    /// The default category of the area's type.
    category: String,
    /// Whether a clone takes `bill_categoryid` (estimates) or copies it and needs the due
    /// date (invoices).
    clone_takes_category: bool,
    /// A draft with one line.
    draft: i64,
    /// A published one.
    published: i64,
    /// A valid `PUT status` body that leaves the draft a draft.
    status: Value,
    /// How the status field is read.
    status_kind: Kind,
    /// A derived (not settable) status.
    derived_status: Value,
}

impl Bill {
    fn estimates(w: &World) -> Bill {
        Bill {
            title: "Estimate",
            area: "estimates",
            end_date: "bill_expiry_date",
            category: w.default_estimate_category.to_string(),
            clone_takes_category: true,
            draft: w.estimate,
            published: w.published,
            status: json!({"status": "draft"}),
            status_kind: Kind::Choice,
            derived_status: json!({"status": "expired"}),
        }
    }

    fn invoices(w: &World) -> Bill {
        Bill {
            title: "Invoice",
            area: "invoices",
            end_date: "bill_due_date",
            category: w.default_invoice_category.to_string(),
            clone_takes_category: false,
            draft: w.invoice,
            published: w.published_invoice,
            status: json!({"status": 1}),
            status_kind: Kind::ChoiceId,
            derived_status: json!({"status": 3}),
        }
    }

    /// `createEstimate`, `cloneInvoice`, …
    fn op(&self, verb: &str) -> String {
        format!("{verb}{}", self.title)
    }

    /// `setEstimateItems`, `setInvoiceTags`, …
    fn set_op(&self, what: &str) -> String {
        format!("set{}{what}", self.title)
    }
}

/// The write targets of a bill area (all but an estimate's conversion).
fn bill_targets(w: &World, b: &Bill) -> Vec<Target> {
    let s = |v: i64| v.to_string();
    let (client, project, category) = (s(w.client), s(w.project), s(w.category));
    let mut out = Vec::new();
    let end_before = msg::after_or_equal(b.end_date, "bill_date");
    let base = with(
        &json!({
            "bill_clientid": client, "bill_categoryid": b.category, "bill_date": "2026-03-01",
            "bill_projectid": project, "bill_tax_type": "summary", "bill_notes": "n", "bill_terms": "t"
        }),
        b.end_date,
        json!("2026-04-01"),
    );
    out.push(
        Target::new(&b.op("create"), format!("/api/{}", b.area), base.clone())
            .field("bill_clientid", Kind::Id, true)
            .field("bill_categoryid", Kind::Id, true)
            .field("bill_date", Kind::Date, true)
            .field(b.end_date, Kind::Date, false)
            .field("bill_projectid", Kind::Id, false)
            .field("bill_tax_type", Kind::Choice, false)
            .field("bill_notes", LONG, false)
            .field("bill_terms", LONG, false)
            .extra(
                "contract category",
                with(&base, "bill_categoryid", json!(category)),
                ALL,
                invalid("bill_categoryid", msg::invalid("bill_categoryid")),
            )
            .extra(
                "end date before date",
                with(&base, b.end_date, json!("2026-02-28")),
                ALL,
                invalid(b.end_date, end_before.clone()),
            ),
    );
    let patch = with(
        &json!({
            "bill_categoryid": b.category, "bill_date": "2026-03-01", "bill_projectid": project,
            "bill_notes": "n", "bill_terms": "t", "bill_discount_type": "fixed", "bill_discount_amount": "1.00",
            "bill_adjustment_description": "adj", "bill_adjustment_amount": "-5.00"
        }),
        b.end_date,
        json!("2026-04-01"),
    );
    out.push(
        Target::new(
            &b.op("update"),
            format!("/api/{}/{}", b.area, b.draft),
            patch.clone(),
        )
        .field("bill_categoryid", Kind::Id, true)
        .field("bill_date", Kind::Date, true)
        .field(b.end_date, Kind::Date, false)
        .field("bill_projectid", Kind::Id, false)
        .field("bill_notes", LONG, false)
        .field("bill_terms", LONG, false)
        .field("bill_tax_type", Kind::Choice, false)
        .field("bill_discount_type", Kind::Choice, false)
        .field("bill_discount_amount", Kind::MoneyNonNegative, false)
        .field("bill_discount_percentage", Kind::Percent, false)
        .field("bill_adjustment_description", SHORT, false)
        .field("bill_adjustment_amount", Kind::Money, false)
        .extra(
            "contract category",
            with(&patch, "bill_categoryid", json!(category)),
            ALL,
            invalid("bill_categoryid", msg::invalid("bill_categoryid")),
        )
        .extra(
            "end date before date",
            with(&patch, b.end_date, json!("2026-02-28")),
            ALL,
            invalid(b.end_date, end_before.clone()),
        )
        .extra(
            "inline with a header discount",
            with(&patch, "bill_tax_type", json!("inline")),
            ALL,
            invalid(
                "bill_discount_type",
                "The bill discount type must be none when bill tax type is inline.".into(),
            ),
        )
        .extra(
            "percentage discount without a percentage",
            with(&patch, "bill_discount_type", json!("percentage")),
            ALL,
            invalid(
                "bill_discount_percentage",
                msg::required_if(
                    "bill_discount_percentage",
                    "bill_discount_type",
                    "percentage",
                ),
            ),
        ),
    );
    out.push(Target::new(
        &b.op("delete"),
        format!("/api/{}/{}", b.area, b.draft),
        json!({}),
    ));
    let items_base = json!({
        "items": [{"description": "Design", "long_description": "Long", "unit": "hours", "quantity": "2", "rate": "10.50"}],
        "tax_rate_ids": [s(w.enabled_rate), s(w.other_rate)]
    });
    let inline_only = |f: &str| {
        (
            f.to_owned(),
            Some(msg::prohibited_if(f, "bill_tax_type", "summary")),
        )
    };
    out.push(
        Target::new(
            &b.set_op("Items"),
            format!("/api/{}/{}/items", b.area, b.draft),
            items_base.clone(),
        )
        .field("items", Kind::Items, true)
        .field("items.0.description", LONG, true)
        .field("items.0.long_description", LONG, false)
        .field("items.0.unit", UNIT, false)
        .field("items.0.quantity", Kind::Positive, true)
        .field("items.0.rate", Kind::Positive, true)
        .field(
            "tax_rate_ids",
            Kind::Ids {
                max: 100,
                non_empty: false,
            },
            false,
        )
        .appended(
            "items",
            "items[][description]=d",
            0,
            invalid("items", msg::max_items("items", 1000)),
        )
        .appended(
            "tax_rate_ids",
            "tax_rate_ids[]=2",
            0,
            invalid("tax_rate_ids", msg::max_items("tax_rate_ids", 100)),
        )
        .extra(
            "a disabled tax rate",
            with(&items_base, "tax_rate_ids", json!([s(w.disabled_rate)])),
            ALL,
            invalid("tax_rate_ids.0", msg::invalid("tax_rate_ids.0")),
        )
        .extra(
            "a duplicated tax rate",
            with(
                &items_base,
                "tax_rate_ids",
                json!([s(w.enabled_rate), s(w.enabled_rate)]),
            ),
            ALL,
            invalid("tax_rate_ids.1", msg::distinct("tax_rate_ids.1")),
        )
        .extra(
            "a line tax rate in summary mode",
            with(&items_base, "items.0.tax_rate_id", json!(s(w.enabled_rate))),
            ALL,
            Expect::Invalid(vec![inline_only("items.0.tax_rate_id")]),
        )
        .extra(
            "a line discount type zzz",
            with(&items_base, "items.0.discount_type", json!("zzz")),
            ALL,
            invalid(
                "items.0.discount_type",
                msg::invalid("items.0.discount_type"),
            ),
        )
        .extra(
            "a fixed line discount without value",
            with(&items_base, "items.0.discount_type", json!("fixed")),
            ALL,
            Expect::Invalid(vec![
                inline_only("items.0.discount_type"),
                (
                    "items.0.discount_value".into(),
                    Some(msg::required_if(
                        "items.0.discount_value",
                        "items.0.discount_type",
                        "fixed",
                    )),
                ),
            ]),
        )
        .extra(
            "a line discount in summary mode",
            with(
                &with(&items_base, "items.0.discount_type", json!("fixed")),
                "items.0.discount_value",
                json!("1"),
            ),
            ALL,
            Expect::Invalid(vec![
                inline_only("items.0.discount_type"),
                inline_only("items.0.discount_value"),
            ]),
        )
        .extra(
            "a line total past the columns",
            with(
                &with(&items_base, "items.0.quantity", json!("99999999999")),
                "items.0.rate",
                json!("99999999999"),
            ),
            ALL,
            invalid("items", msg::at_most("items total", "9999999999999.99")),
        ),
    );
    out.push(
        Target::new(
            &b.set_op("Status"),
            format!("/api/{}/{}/status", b.area, b.draft),
            b.status.clone(),
        )
        .field("status", b.status_kind, true)
        .extra(
            "a derived status",
            b.derived_status.clone(),
            ALL,
            invalid("status", msg::invalid("status")),
        ),
    );
    out.push(tags_target(
        &b.set_op("Tags"),
        format!("/api/{}/{}/tags", b.area, b.draft),
    ));
    let mut clone_base = with(
        &json!({"bill_clientid": client, "bill_date": "2026-05-01", "bill_projectid": project}),
        b.end_date,
        json!("2026-05-31"),
    );
    if b.clone_takes_category {
        clone_base = with(&clone_base, "bill_categoryid", json!(b.category));
    }
    let mut clone = Target::new(
        &b.op("clone"),
        format!("/api/{}/{}/clone", b.area, b.draft),
        clone_base.clone(),
    )
    .field("bill_clientid", Kind::Id, true)
    .field("bill_date", Kind::Date, true)
    .field(b.end_date, Kind::Date, !b.clone_takes_category)
    .field("bill_projectid", Kind::Id, false)
    .extra(
        "end date before date",
        with(&clone_base, b.end_date, json!("2026-04-30")),
        ALL,
        invalid(b.end_date, end_before),
    );
    if b.clone_takes_category {
        clone = clone.field("bill_categoryid", Kind::Id, true).extra(
            "contract category",
            with(&clone_base, "bill_categoryid", json!(category)),
            ALL,
            invalid("bill_categoryid", msg::invalid("bill_categoryid")),
        );
    }
    out.push(clone);
    out.push(
        Target::new(
            &b.op("publish"),
            format!("/api/{}/{}/publish", b.area, b.draft),
            json!({}),
        )
        .extra_at(
            "already published",
            format!("/api/{}/{}/publish", b.area, b.published),
            json!({}),
            status(409, &format!("{} has already been published.", b.title)),
        ),
    );
    out.push(
        Target::new(
            &format!("send{}Email", b.title),
            format!("/api/{}/{}/send-email", b.area, b.published),
            json!({}),
        )
        .extra_at(
            "a draft",
            format!("/api/{}/{}/send-email", b.area, b.draft),
            json!({}),
            status(409, &format!("{} is still in draft status.", b.title)),
        ),
    );
    out
}

/// Every write endpoint of the route table, aimed at real records.
fn targets(w: &World) -> Vec<Target> {
    let s = |v: i64| v.to_string();
    let (client, project, category) = (s(w.client), s(w.project), s(w.category));
    let est_cat = s(w.default_estimate_category);
    let mut out = Vec::new();

    // Categories.
    out.push(
        Target::new(
            "createCategory",
            "/api/categories".into(),
            json!({"category_name": "Sweep Category", "category_type": "project", "category_visibility": "team", "category_description": "About", "category_icon": "ti-folder"}),
        )
        .field("category_name", CATEGORY_NAME, true)
        .field("category_type", Kind::Choice, true)
        .field("category_visibility", Kind::Choice, false)
        .field("category_description", LONG, false)
        .field("category_icon", SHORT, false)
        .extra(
            "duplicate name (case-insensitive)",
            json!({"category_name": "  SWEEP contracts ", "category_type": "contract"}),
            ALL,
            invalid("category_name", "A category with this name already exists.".into()),
        )
        .extra(
            "a plural type",
            json!({"category_name": "X", "category_type": "contracts"}),
            ALL,
            invalid("category_type", msg::invalid("category_type")),
        ),
    );
    out.push(
        Target::new(
            "updateCategory",
            format!("/api/categories/{category}"),
            json!({"category_name": "Sweep Contracts Renamed", "category_visibility": "everyone", "category_description": "d", "category_icon": "ti-x"}),
        )
        .field("category_name", CATEGORY_NAME, true)
        .field("category_visibility", Kind::Choice, false)
        .field("category_description", LONG, false)
        .field("category_icon", SHORT, false)
        .extra("rename to a sibling's name", json!({"category_name": "sweep target"}), ALL, invalid("category_name", "A category with this name already exists.".into())),
    );
    out.push(
        Target::new(
            "deleteCategory",
            format!("/api/categories/{}", w.category3),
            json!({}),
        )
        .extra_at(
            "system default",
            format!("/api/categories/{}", w.default_contract_category),
            json!({}),
            status(409, "You cannot delete a system default category."),
        )
        .extra_at(
            "not empty",
            format!("/api/categories/{category}"),
            json!({}),
            status(
                409,
                "This category is not empty. First move its items to another category.",
            ),
        ),
    );
    out.push(
        Target::new(
            "setCategoryTeam",
            format!("/api/categories/{category}/team"),
            json!({"users": ["1", "2"]}),
        )
        .field(
            "users",
            Kind::Ids {
                max: 1000,
                non_empty: false,
            },
            true,
        )
        .appended(
            "users",
            "users[]=1",
            0,
            invalid("users", msg::max_items("users", 1000)),
        )
        .extra(
            "a client user",
            json!({"users": ["1", s(w.client_user)]}),
            ALL,
            invalid("users.1", msg::invalid("users.1")),
        ),
    );
    out.push(
        Target::new(
            "migrateCategory",
            format!("/api/categories/{category}/migrate"),
            json!({"target_id": s(w.category2)}),
        )
        .field("target_id", Kind::Id, true)
        .extra(
            "itself",
            json!({"target_id": category}),
            ALL,
            invalid("target_id", msg::invalid("target_id")),
        )
        .extra(
            "another type",
            json!({"target_id": s(w.default_project_category)}),
            ALL,
            invalid("target_id", msg::invalid("target_id")),
        )
        .extra(
            "a list",
            json!({"target_id": [s(w.category2)]}),
            ALL,
            invalid("target_id", msg::integer("target_id")),
        ),
    );

    // Contracts.
    let contract_base = json!({
        "doc_client_id": client, "doc_title": "Sweep Contract 2", "doc_date_start": "2026-02-01", "doc_date_end": "2026-12-31",
        "doc_categoryid": category, "doc_value": "1500.00", "doc_project_id": project, "doc_lead_id": s(w.lead),
        "doc_body": "<p>Body</p>", "contract_template": s(w.template)
    });
    let end_before = msg::after_or_equal("doc_date_end", "doc_date_start");
    out.push(
        Target::new(
            "createContract",
            "/api/contracts".into(),
            contract_base.clone(),
        )
        .field("doc_client_id", Kind::Id, true)
        .field("doc_title", TITLE, true)
        .field("doc_date_start", Kind::Date, true)
        .field("doc_date_end", Kind::Date, false)
        .field("doc_categoryid", Kind::Id, true)
        .field("doc_value", Kind::Money, false)
        .field("doc_project_id", Kind::Id, false)
        .field("doc_lead_id", Kind::Id, false)
        .field("doc_body", LONG, false)
        .field("contract_template", Kind::Id, false)
        .extra(
            "estimate category",
            with(&contract_base, "doc_categoryid", json!(est_cat)),
            ALL,
            invalid("doc_categoryid", msg::invalid("doc_categoryid")),
        )
        .extra(
            "end before start",
            with(&contract_base, "doc_date_end", json!("2026-01-31")),
            ALL,
            invalid("doc_date_end", end_before.clone()),
        ),
    );
    let contract_patch = json!({"doc_title": "Sweep Contract Renamed", "doc_date_start": "2026-01-15", "doc_date_end": "2026-06-30", "doc_categoryid": category, "doc_value": "99.99", "doc_body": "b"});
    out.push(
        Target::new(
            "updateContract",
            format!("/api/contracts/{}", w.contract),
            contract_patch.clone(),
        )
        .field("doc_title", TITLE, true)
        .field("doc_date_start", Kind::Date, true)
        .field("doc_date_end", Kind::Date, false)
        .field("doc_categoryid", Kind::Id, true)
        .field("doc_value", Kind::Money, false)
        .field("doc_body", LONG, false)
        .extra(
            "estimate category",
            with(&contract_patch, "doc_categoryid", json!(est_cat)),
            ALL,
            invalid("doc_categoryid", msg::invalid("doc_categoryid")),
        )
        .extra(
            "end before start",
            with(&contract_patch, "doc_date_end", json!("2026-01-14")),
            ALL,
            invalid("doc_date_end", end_before.clone()),
        ),
    );
    out.push(Target::new(
        "deleteContract",
        format!("/api/contracts/{}", w.contract),
        json!({}),
    ));
    out.push(tags_target(
        "setContractTags",
        format!("/api/contracts/{}/tags", w.contract),
    ));
    let contract_clone = json!({"doc_title": "Sweep Clone", "doc_client_id": client, "doc_categoryid": category, "doc_date_start": "2026-03-01", "doc_date_end": "2026-04-01", "doc_project_id": project, "doc_value": "10"});
    out.push(
        Target::new(
            "cloneContract",
            format!("/api/contracts/{}/clone", w.contract),
            contract_clone.clone(),
        )
        .field("doc_title", TITLE, true)
        .field("doc_client_id", Kind::Id, true)
        .field("doc_categoryid", Kind::Id, true)
        .field("doc_date_start", Kind::Date, true)
        .field("doc_date_end", Kind::Date, false)
        .field("doc_project_id", Kind::Id, false)
        .field("doc_value", Kind::Money, false)
        .extra(
            "estimate category",
            with(&contract_clone, "doc_categoryid", json!(est_cat)),
            ALL,
            invalid("doc_categoryid", msg::invalid("doc_categoryid")),
        )
        .extra(
            "end before start",
            with(&contract_clone, "doc_date_end", json!("2026-02-28")),
            ALL,
            invalid("doc_date_end", end_before),
        ),
    );

    // Estimates and invoices: one bill machinery, one set of targets.
    out.extend(bill_targets(w, &Bill::estimates(w)));
    out.extend(bill_targets(w, &Bill::invoices(w)));
    out.push(
        Target::new(
            "convertEstimate",
            format!("/api/estimates/{}/convert-to-invoice", w.estimate),
            json!({}),
        )
        .extra_at(
            "already converted",
            format!("/api/estimates/{}/convert-to-invoice", w.published),
            json!({}),
            status(409, "Estimate has already been converted to an invoice."),
        ),
    );

    // Milestones.
    let duplicate_title = "A milestone with this title already exists in this project.";
    out.push(
        Target::new(
            "createMilestone",
            "/api/milestones".into(),
            json!({"milestone_projectid": project, "milestone_title": "Sweep Milestone 2", "milestone_color": "success"}),
        )
        .field("milestone_projectid", Kind::Id, true)
        .field("milestone_title", TITLE, true)
        .field("milestone_color", Kind::Choice, true)
        .extra("duplicate title", json!({"milestone_projectid": project, "milestone_title": "  PLANNING ", "milestone_color": "info"}), ALL, status(409, duplicate_title)),
    );
    out.push(
        Target::new(
            "reorderMilestones",
            "/api/milestones/positions".into(),
            json!({"milestones": [s(w.milestone), s(w.planning)]}),
        )
        .field(
            "milestones",
            Kind::Ids {
                max: 1000,
                non_empty: true,
            },
            true,
        )
        .appended(
            "milestones",
            "milestones[]=1",
            0,
            invalid("milestones", msg::max_items("milestones", 1000)),
        )
        .extra(
            "a repeated id",
            json!({"milestones": [s(w.milestone), s(w.milestone)]}),
            ALL,
            invalid("milestones.1", msg::distinct("milestones.1")),
        )
        .extra(
            "milestones of two projects",
            json!({"milestones": [s(w.milestone), s(w.other_project_milestone)]}),
            ALL,
            invalid("milestones.1", msg::invalid("milestones.1")),
        ),
    );
    out.push(
        Target::new(
            "updateMilestone",
            format!("/api/milestones/{}", w.milestone),
            json!({"milestone_title": "Sweep Milestone Renamed", "milestone_color": "danger"}),
        )
        .field("milestone_title", TITLE, true)
        .field("milestone_color", Kind::Choice, true)
        .extra(
            "a sibling's title",
            json!({"milestone_title": w.design_title.to_lowercase(), "milestone_color": "info"}),
            ALL,
            status(409, duplicate_title),
        ),
    );
    out.push(
        Target::new(
            "deleteMilestone",
            format!("/api/milestones/{}", w.milestone),
            json!({}),
        )
        .extra_at(
            "the default milestone",
            format!("/api/milestones/{}", w.uncategorised),
            json!({}),
            status(409, "You cannot delete the default milestone."),
        )
        .extra_at(
            "the default milestone with its tasks",
            format!("/api/milestones/{}?delete_tasks=yes", w.uncategorised),
            json!({"delete_tasks": "yes"}),
            status(409, "You cannot delete the default milestone."),
        ),
    );

    // Notes.
    let note_base = json!({"note_title": "Sweep Note 2", "note_description": "Body", "note_visibility": "private", "noteresource_type": "project", "noteresource_id": project});
    out.push(
        Target::new(
            "createNote", "/api/notes".into(), note_base)
            .field("note_title", TITLE, true)
            .field("note_description", LONG, true)
            .field("note_visibility", Kind::Choice, false)
            .field("noteresource_type", Kind::Choice, false)
            .field("noteresource_id", Kind::Id, false)
            .extra(
                "a type without an id",
                json!({"note_title": "T", "note_description": "D", "noteresource_type": "project"}),
                ALL,
                invalid("noteresource_id", msg::required_with("noteresource_id", "noteresource_type")),
            )
            .extra(
                "an id without a type",
                json!({"note_title": "T", "note_description": "D", "noteresource_id": project}),
                ALL,
                invalid("noteresource_type", msg::required_with("noteresource_type", "noteresource_id")),
            )
            .extra(
                "an unknown lead",
                json!({"note_title": "T", "note_description": "D", "noteresource_type": "lead", "noteresource_id": "999999"}),
                ALL,
                invalid("noteresource_id", msg::invalid("noteresource_id")),
            ),
    );
    let note_patch = json!({"note_title": "Sweep Note Renamed", "note_description": "New body", "note_visibility": "public"});
    out.push(
        Target::new(
            "updateNote",
            format!("/api/notes/{}", w.note),
            note_patch.clone(),
        )
        .field("note_title", TITLE, true)
        .field("note_description", LONG, true)
        .field("note_visibility", Kind::Choice, false)
        .extra_at(
            "another user's private note",
            format!("/api/notes/{}", w.private_note),
            note_patch.clone(),
            status(404, "Note not found."),
        )
        .extra_at(
            "a sticky note",
            format!("/api/notes/{}", w.sticky_note),
            note_patch,
            status(404, "Note not found."),
        )
        .extra_at(
            "another user's private note, invalid body",
            format!("/api/notes/{}", w.private_note),
            json!({}),
            status(404, "Note not found."),
        )
        .extra_at(
            "a sticky note, invalid body",
            format!("/api/notes/{}", w.sticky_note),
            json!({"note_title": "<b>x</b>"}),
            status(404, "Note not found."),
        ),
    );
    out.push(
        Target::new("deleteNote", format!("/api/notes/{}", w.note), json!({}))
            .extra_at(
                "another user's private note",
                format!("/api/notes/{}", w.private_note),
                json!({}),
                status(404, "Note not found."),
            )
            .extra_at(
                "a sticky note",
                format!("/api/notes/{}", w.sticky_note),
                json!({}),
                status(404, "Note not found."),
            ),
    );
    let mut note_tags = tags_target("setNoteTags", format!("/api/notes/{}/tags", w.note));
    note_tags = note_tags
        .extra_at(
            "another user's private note",
            format!("/api/notes/{}/tags", w.private_note),
            json!({"tags": ["a"]}),
            status(404, "Note not found."),
        )
        .extra_at(
            "a sticky note",
            format!("/api/notes/{}/tags", w.sticky_note),
            json!({"tags": ["a"]}),
            status(404, "Note not found."),
        )
        .extra_at(
            "another user's private note, invalid tags",
            format!("/api/notes/{}/tags", w.private_note),
            json!({"tags": {"k": "x"}}),
            status(404, "Note not found."),
        )
        .extra_at(
            "a sticky note, no tags",
            format!("/api/notes/{}/tags", w.sticky_note),
            json!({}),
            status(404, "Note not found."),
        );
    out.push(note_tags);
    out
}

/// The route table's write endpoints, to prove the sweep covers every one.
fn write_routes() -> BTreeSet<(String, String)> {
    crm_http::router::ROUTES
        .iter()
        .filter(|r| [Method::POST, Method::PUT, Method::PATCH, Method::DELETE].contains(&r.method))
        .map(|r| (r.method.to_string(), r.path.to_owned()))
        .collect()
}

#[tokio::test]
async fn every_write_endpoint_answers_every_malformed_input_with_a_clean_4xx_and_writes_nothing() {
    let started = Instant::now();
    let s = TestServer::start().await;
    let w = world(&s).await;
    let targets = targets(&w);
    let covered: BTreeSet<(String, String)> = targets
        .iter()
        .map(|t| (t.method.to_string(), t.template.to_owned()))
        .collect();
    assert_eq!(
        covered,
        write_routes(),
        "the sweep covers exactly the route table's write endpoints"
    );

    let db = s.sql().await;
    let mut before = checksum(&db).await;
    let mut tally = Tally::default();
    for target in &targets {
        let group = format!("{} {}", target.method, target.template);
        run(&s, &group, target.cases(), &mut tally).await;
        let after = checksum(&db).await;
        let changed = changed_tables(&before, &after);
        if !changed.is_empty() {
            tally
                .failures
                .insert(0, format!("{group}: bad requests WROTE to {changed:?}"));
            before = after;
        }
    }
    println!(
        "malformed-input sweep: {} in {:.1?}",
        tally.summary(),
        started.elapsed()
    );
    tally.assert_clean();
    assert!(!tally.statuses.keys().any(|s| *s < 400 || *s >= 500));

    // Control: each base body, sent as is, is accepted (so every case above was refused for its
    // one defect, not for something in the base).
    for target in targets.iter().filter(|t| t.method != Method::DELETE) {
        let a = s
            .call(
                target.method.clone(),
                &target.path,
                crate::common::json(target.base.clone()),
            )
            .await;
        assert!(
            a.status.is_success(),
            "control {} {}: {} {}",
            target.method,
            target.path,
            a.status,
            a.json
        );
    }
    for target in targets.iter().filter(|t| t.method == Method::DELETE) {
        let a = s.delete(&target.path).await;
        assert_eq!(
            a.status.as_u16(),
            200,
            "control DELETE {}: {}",
            target.path,
            a.json
        );
    }
}

#[tokio::test]
async fn list_endpoints_refuse_malformed_query_parameters_by_name() {
    let s = TestServer::start().await;
    let project = s.ids.projects[0];
    let lists: [(&str, String, &[&str]); 5] = [
        ("/api/categories", String::new(), &["type", "visibility"]),
        (
            "/api/contracts",
            String::new(),
            &["status", "client_id", "category_id"],
        ),
        (
            "/api/estimates",
            String::new(),
            &["status", "client_id", "project_id", "category_id"],
        ),
        (
            "/api/milestones",
            format!("project_id={project}&"),
            &["type", "project_id"],
        ),
        (
            "/api/notes",
            String::new(),
            &["resource_type", "resource_id", "visibility"],
        ),
    ];
    let long_search = "s".repeat(10_000);
    let mut tally = Tally::default();
    for (path, base, filters) in lists {
        let ok = s.get(&format!("{path}?{base}page=1")).await;
        assert_eq!(
            ok.status.as_u16(),
            200,
            "{path} with a valid query: {}",
            ok.json
        );
        let mut cases: Vec<(String, Expect)> = vec![
            ("page=0".into(), invalid("page", msg::at_least("page", "1"))),
            (
                "page=-1".into(),
                invalid("page", msg::at_least("page", "1")),
            ),
            ("page=abc".into(), invalid("page", msg::integer("page"))),
            ("page=1.5".into(), invalid("page", msg::integer("page"))),
            ("page=1e3".into(), invalid("page", msg::integer("page"))),
            (
                "page=2147483648".into(),
                invalid("page", msg::at_most("page", "2147483647")),
            ),
            (
                "page=99999999999999999999".into(),
                invalid("page", msg::integer("page")),
            ),
            ("page[]=1".into(), invalid("page", msg::integer("page"))),
            ("page[a]=1".into(), invalid("page", msg::integer("page"))),
            ("limit=abc".into(), invalid("limit", msg::integer("limit"))),
            (
                "limit=0".into(),
                invalid("limit", msg::at_least("limit", "1")),
            ),
            (
                "limit=-5".into(),
                invalid("limit", msg::at_least("limit", "1")),
            ),
            ("limit=0x10".into(), invalid("limit", msg::integer("limit"))),
            ("limit=NaN".into(), invalid("limit", msg::integer("limit"))),
            ("order=up".into(), invalid("order", msg::invalid("order"))),
            ("order=ASC".into(), invalid("order", msg::invalid("order"))),
            (
                "order[]=asc".into(),
                invalid("order", msg::invalid("order")),
            ),
            (
                "sort=evil;drop".into(),
                invalid("sort", msg::invalid("sort")),
            ),
            (
                "sort=evil%3B%20DROP%20TABLE%20notes".into(),
                invalid("sort", msg::invalid("sort")),
            ),
            (
                "sort=password".into(),
                invalid("sort", msg::invalid("sort")),
            ),
            ("sort=id%00".into(), invalid("sort", msg::invalid("sort"))),
            (
                format!("search={long_search}"),
                invalid("search", msg::max_chars("search", 250)),
            ),
            (
                "search=a%00b".into(),
                invalid("search", msg::format("search")),
            ),
            (
                "search[]=x".into(),
                invalid("search", msg::string("search")),
            ),
            (
                "page=0&limit=0&order=up&sort=zzz".into(),
                Expect::Invalid(
                    ["page", "limit", "order", "sort"]
                        .map(|k| (k.to_owned(), None))
                        .to_vec(),
                ),
            ),
            ("search=%FF".into(), status(400, msg::NOT_UTF8)),
            (
                format!("page{}=1", "[a]".repeat(30)),
                status(400, msg::TOO_DEEP),
            ),
        ];
        for f in filters {
            let integer_filter = f.ends_with("_id");
            let filter_cases: Vec<(String, Expect)> = if integer_filter {
                vec![
                    (format!("{f}=1e3"), invalid(f, msg::integer(f))),
                    (format!("{f}=abc"), invalid(f, msg::integer(f))),
                    (format!("{f}=1.5"), invalid(f, msg::integer(f))),
                    (
                        format!("{f}=9223372036854775808"),
                        invalid(f, msg::integer(f)),
                    ),
                    (format!("{f}[]=1"), invalid(f, msg::integer(f))),
                    (format!("{f}=0"), invalid(f, msg::invalid(f))),
                    (format!("{f}=-1"), invalid(f, msg::invalid(f))),
                ]
            } else {
                vec![
                    (format!("{f}=zzz"), invalid(f, msg::invalid(f))),
                    (format!("{f}=%3Cb%3E"), invalid(f, msg::invalid(f))),
                    (format!("{f}[]=x"), invalid(f, msg::invalid(f))),
                ]
            };
            cases.extend(filter_cases);
        }
        if path == "/api/milestones" {
            cases.push((
                "project_id=999999".into(),
                invalid("project_id", msg::invalid("project_id")),
            ));
            let bare: Vec<Case> = vec![Case {
                label: "no project id".into(),
                method: Method::GET,
                path: "/api/milestones?page=1".into(),
                sent: Sent::None,
                expect: invalid("project_id", "The project id field is required.".into()),
            }];
            run(&s, path, bare, &mut tally).await;
        }
        let cases: Vec<Case> = cases
            .into_iter()
            .map(|(query, expect)| {
                // A query parameter given twice: the last one counts (the base's project_id is
                // overridden by the case's).
                Case {
                    label: short(&Value::String(query.clone())),
                    method: Method::GET,
                    path: format!("{path}?{base}{query}"),
                    sent: Sent::None,
                    expect,
                }
            })
            .collect();
        run(&s, path, cases, &mut tally).await;
    }
    println!("query sweep: {}", tally.summary());
    tally.assert_clean();
}

/// Sends raw HTTP/1.1 bytes (the client then stops writing) and reads the whole answer.
async fn raw_exchange(s: &TestServer, request: Vec<u8>) -> Reply {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = s.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect");
    stream.write_all(&request).await.expect("write");
    stream.shutdown().await.expect("half-close");
    let mut bytes = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut bytes))
        .await
        .expect("an answer within 10 s")
        .expect("read");
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete head");
    let head = String::from_utf8_lossy(&bytes[..split]).to_string();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let content_type = head
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("content-type"))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_default();
    Reply {
        status,
        content_type,
        body: bytes[split + 4..].to_vec(),
    }
}

#[tokio::test]
async fn bodies_cut_short_or_with_broken_chunks_are_400s_and_write_nothing() {
    let s = TestServer::start().await;
    let db = s.sql().await;
    let before = checksum(&db).await;
    let body = br#"{"note_title": "Cut short", "note_description": "never stored"}"#;
    let head = |extra: &str| {
        format!(
            "POST /api/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nConnection: close\r\n{extra}\r\n",
            s.key
        )
    };
    let unreadable = status(400, "The request body could not be read.");
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        (
            "a body shorter than its Content-Length",
            [
                head(&format!("Content-Length: {}\r\n", body.len() + 50)).as_bytes(),
                body,
            ]
            .concat(),
            unreadable.clone(),
        ),
        (
            "a chunk size that is not hexadecimal",
            [
                head("Transfer-Encoding: chunked\r\n").as_bytes(),
                b"zz\r\n",
                body,
            ]
            .concat(),
            unreadable.clone(),
        ),
        (
            "a chunk shorter than announced, then the end",
            [
                head("Transfer-Encoding: chunked\r\n").as_bytes(),
                format!("{:x}\r\n", body.len() + 10).as_bytes(),
                body,
            ]
            .concat(),
            unreadable.clone(),
        ),
        (
            "chunks without the last one",
            [
                head("Transfer-Encoding: chunked\r\n").as_bytes(),
                format!("{:x}\r\n", body.len()).as_bytes(),
                body,
                b"\r\n",
            ]
            .concat(),
            unreadable,
        ),
        (
            "a declared Content-Length over 1 MiB",
            [
                head(&format!("Content-Length: {}\r\n", MIB + 1)).as_bytes(),
                body,
            ]
            .concat(),
            status(413, msg::TOO_LARGE),
        ),
    ];
    for (label, request, expect) in cases {
        let case = Case {
            label: label.to_owned(),
            method: Method::POST,
            path: "/api/notes".into(),
            sent: Sent::None,
            expect,
        };
        let reply = raw_exchange(&s, request).await;
        let problems = verify(&case, &reply);
        assert!(problems.is_empty(), "{label}: {problems:?}");
    }
    assert_eq!(
        changed_tables(&before, &checksum(&db).await),
        Vec::<String>::new()
    );
}

/// The path of the record a `{id}` route writes (`/api/estimates/7/items` → `/api/estimates/7`).
fn record_path(path: &str) -> String {
    path.split('/').take(4).collect::<Vec<_>>().join("/")
}

/// The `ETag` of an answer.
fn etag_of(a: &crate::common::Answer) -> String {
    a.headers
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("an ETag on {} {}", a.status, a.json))
        .to_owned()
}

/// API.md §11 on every write route, from the same targets as the sweep: each PATCH, PUT and
/// DELETE refuses a stale `If-Match` with 412 and writes nothing, and accepts the `ETag` its
/// record's GET gave (or, for the milestone reorder, its own previous answer's); each POST
/// sent twice with one `Idempotency-Key` has one effect and gets its first answer again.
#[tokio::test]
async fn every_write_endpoint_honours_if_match_and_idempotency_keys() {
    const CHANGED: &str = "The record was changed by someone else. Read it again and retry.";
    let s = TestServer::start().await;
    let w = world(&s).await;
    let targets = targets(&w);
    let covered: BTreeSet<(String, String)> = targets
        .iter()
        .map(|t| (t.method.to_string(), t.template.to_owned()))
        .collect();
    assert_eq!(covered, write_routes());
    let db = s.sql().await;
    let body = |t: &Target| {
        if t.method == Method::DELETE {
            crate::common::Body::None
        } else {
            crate::common::json(t.base.clone())
        }
    };

    // A stale tag: 412, nothing written.
    let before = checksum(&db).await;
    for t in targets.iter().filter(|t| t.method != Method::POST) {
        let a = s
            .call_with(
                &s.key,
                t.method.clone(),
                &t.path,
                body(t),
                &[("if-match", "\"0000\"")],
            )
            .await;
        assert_eq!(
            a.status.as_u16(),
            412,
            "{} {}: {}",
            t.method,
            t.path,
            a.json
        );
        assert_eq!(a.message(), CHANGED);
    }
    assert_eq!(
        changed_tables(&before, &checksum(&db).await),
        Vec::<String>::new()
    );

    // The current tag: the write happens (DELETEs last: other targets use their records).
    let mut writes: Vec<&Target> = targets
        .iter()
        .filter(|t| t.method != Method::POST && t.method != Method::DELETE)
        .collect();
    writes.extend(targets.iter().filter(|t| t.method == Method::DELETE));
    for t in writes {
        let current = if t.template.contains("{id}") {
            etag_of(&s.get(&record_path(&t.path)).await)
        } else {
            // The reorder: the project's milestones, as its own answer shows them.
            etag_of(&s.call(t.method.clone(), &t.path, body(t)).await)
        };
        let a = s
            .call_with(
                &s.key,
                t.method.clone(),
                &t.path,
                body(t),
                &[("if-match", &current)],
            )
            .await;
        assert!(
            a.status.is_success(),
            "{} {} with its ETag: {} {}",
            t.method,
            t.path,
            a.status,
            a.json
        );
        if t.method != Method::DELETE {
            assert_ne!(etag_of(&a), "", "{} {}", t.method, t.path);
        }
    }

    // POSTs: one effect, the same answer again.
    let s = TestServer::start().await;
    let w = world(&s).await;
    let db = s.sql().await;
    for (n, t) in targets_posts(&w).iter().enumerate() {
        let key = format!("sweep-{n}");
        let headers = [("idempotency-key", key.as_str())];
        let first = s
            .call_with(&s.key, Method::POST, &t.path, body(t), &headers)
            .await;
        assert!(
            first.status.is_success(),
            "POST {}: {} {}",
            t.path,
            first.status,
            first.json
        );
        assert!(first.headers.get("idempotent-replayed").is_none());
        let after_first = checksum(&db).await;
        let again = s
            .call_with(&s.key, Method::POST, &t.path, body(t), &headers)
            .await;
        assert_eq!(
            (again.status, &again.json),
            (first.status, &first.json),
            "POST {} replayed",
            t.path
        );
        assert_eq!(again.headers["idempotent-replayed"], "true");
        assert_eq!(etag_of(&again), etag_of(&first));
        assert_eq!(
            changed_tables(&after_first, &checksum(&db).await),
            Vec::<String>::new(),
            "POST {} replayed without a new effect",
            t.path
        );
    }
}

/// The POST targets of the sweep.
fn targets_posts(w: &World) -> Vec<Target> {
    targets(w)
        .into_iter()
        .filter(|t| t.method == Method::POST)
        .collect()
}
