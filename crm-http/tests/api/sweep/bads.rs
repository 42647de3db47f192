//! The bad values of a field, by the kind of value it holds: [`bads`] gives every one, each
//! with the encodings it is sent in and the answer it must get. Scalars (texts, ids, dates,
//! choices) are here; numbers and arrays in the two submodules.

mod arrays;
mod codes;
mod numbers;

pub use codes::Code;

use serde_json::{Value, json};

use super::body::{ALL, Expect, FLAT, JSON, invalid, nested_array, nested_object, raw};
use super::msg;

/// What a field holds, for choosing its bad values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
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
    /// A money amount that must be greater than zero (a payment).
    MoneyPositive,
    /// A percentage 0–100 (2 decimals).
    Percent,
    /// A quantity or unit rate (> 0, 4 decimals, below 10^11).
    Positive,
    /// An exchange rate (> 0, 6 decimals, below 10^9).
    ExchangeRate,
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
    /// An absolute `https://` URL to a public host (a webhook's).
    Url,
    /// A boolean (`true`, `false`, `1`, `0`).
    Bool,
    /// A non-empty array of a closed set's texts, at most `max` (a webhook's events).
    Choices { max: usize },
    /// A coded text: a country, a currency, an IBAN, … ([`Code`]).
    Code(Code),
    /// A whole number from `min` to `max` (a schedule's interval, count, due days).
    Count { min: u32, max: u32 },
    /// The company's reminder steps: distinct whole numbers from -365 to 365, at most 10.
    Steps,
}

impl Kind {
    /// One value, not an array.
    fn is_scalar(self) -> bool {
        !matches!(
            self,
            Kind::Tags
                | Kind::Ids { .. }
                | Kind::Items
                | Kind::Choices { .. }
                | Kind::Bool
                | Kind::Steps
        )
    }
}

/// A bad value for one field.
pub struct Bad {
    /// What it is, for reports.
    pub label: String,
    /// The value.
    pub value: Value,
    /// The encodings it is sent in.
    pub enc: u8,
    /// The answer it must get.
    pub expect: Expect,
}

/// The bad values of one field, as they are collected.
struct Bads<'f> {
    /// The field's key path.
    f: &'f str,
    out: Vec<Bad>,
}

impl Bads<'_> {
    /// `value`, sent in `enc`, must be a 422 naming this field alone, with `message`.
    fn one(&mut self, label: impl Into<String>, value: Value, enc: u8, message: String) {
        let expect = invalid(self.f, message);
        self.other(label, value, enc, expect);
    }

    /// `value`, sent in `enc`, must get `expect`.
    fn other(&mut self, label: impl Into<String>, value: Value, enc: u8, expect: Expect) {
        self.out.push(Bad {
            label: label.into(),
            value,
            enc,
            expect,
        });
    }
}

/// A JSON string.
fn text(s: &str) -> Value {
    Value::String(s.to_owned())
}

/// Every bad value of field `f` (a key path such as `items.0.rate`); `base` is its value in
/// the valid body, if any (a choice's bad values are made from it too).
pub fn bads(f: &str, kind: Kind, required: bool, base: Option<&Value>) -> Vec<Bad> {
    let mut b = Bads { f, out: Vec::new() };
    if kind.is_scalar() {
        wrong_shapes(&mut b, kind);
        if required {
            blanks(&mut b);
        }
    }
    match kind {
        Kind::Text { max, html } => {
            texts(&mut b, max);
            if html {
                html_tags(&mut b);
            }
        }
        Kind::Id => record_ids(&mut b),
        Kind::Date => dates(&mut b),
        Kind::Money => numbers::money(&mut b, false),
        Kind::MoneyNonNegative => numbers::money(&mut b, true),
        Kind::MoneyPositive => numbers::positive_money(&mut b),
        Kind::Percent => numbers::percents(&mut b),
        Kind::Positive => numbers::positives(&mut b),
        Kind::ExchangeRate => numbers::exchange_rates(&mut b),
        Kind::Choice => choices(&mut b, base),
        Kind::ChoiceId => choice_ids(&mut b),
        Kind::Tags => arrays::tags(&mut b),
        Kind::Ids { max, non_empty } => arrays::id_sets(&mut b, max, non_empty),
        Kind::Items => arrays::items(&mut b),
        Kind::Url => urls(&mut b),
        Kind::Bool => booleans(&mut b),
        Kind::Choices { max } => arrays::choice_sets(&mut b, max),
        Kind::Code(code) => codes::codes(&mut b, code),
        Kind::Count { min, max } => counts(&mut b, min, max),
        Kind::Steps => arrays::steps(&mut b),
    }
    b.out
}

/// The message a value of the wrong shape (array, object, boolean) gets for `kind`.
fn shape_message(kind: Kind, f: &str) -> String {
    match kind {
        Kind::Text { .. } | Kind::Url => msg::string(f),
        Kind::Bool => msg::boolean(f),
        Kind::Id | Kind::Count { .. } => msg::integer(f),
        Kind::Date => msg::date(f),
        Kind::Money
        | Kind::MoneyNonNegative
        | Kind::MoneyPositive
        | Kind::Percent
        | Kind::Positive
        | Kind::ExchangeRate => msg::numeric(f),
        Kind::Choice | Kind::ChoiceId => msg::invalid(f),
        Kind::Code(code) => code.message(f),
        Kind::Tags | Kind::Ids { .. } | Kind::Items | Kind::Choices { .. } | Kind::Steps => {
            msg::array(f)
        }
    }
}

/// URLs a webhook may not have (this server's default rules: https, public hosts).
fn urls(b: &mut Bads<'_>) {
    let f = b.f;
    let attribute = f.replace('_', " ");
    let invalid_url = format!("The {attribute} must be a valid URL.");
    for u in [
        "not a url",
        "hooks.example.com/in",
        "ftp://hooks.example.com/",
        "https://",
        "a\u{0}b",
    ] {
        b.one(format!("url {u:?}"), text(u), ALL, invalid_url.clone());
    }
    b.one("number", raw("12345"), JSON, msg::string(f));
    let https = format!(
        "The {attribute} must start with https://; http:// is accepted when the service runs with --webhook-allow-http."
    );
    b.one("http", text("http://hooks.example.com/"), ALL, https);
    let private = format!(
        "The {attribute} may not point to a private, loopback or link-local address; such addresses are accepted when the service runs with --webhook-allow-private."
    );
    for u in [
        "https://127.0.0.1/",
        "https://[::1]/",
        "https://10.0.0.1/",
        "https://169.254.169.254/",
        "https://localhost/",
    ] {
        b.one(format!("private {u}"), text(u), ALL, private.clone());
    }
    let credentials = format!("The {attribute} may not contain a user name or password.");
    b.one(
        "credentials",
        text("https://u:p@hooks.example.com/"),
        ALL,
        credentials,
    );
    let long = format!("https://hooks.example.com/{}", "x".repeat(2048));
    b.one("2075 chars", text(&long), ALL, msg::max_chars(f, 2048));
}

/// What is not a boolean.
/// Whole numbers outside `min..=max`, and what is no whole number.
fn counts(b: &mut Bads<'_>, min: u32, max: u32) {
    let f = b.f;
    let range = msg::between(f, &min.to_string(), &max.to_string());
    let below = (i64::from(min) - 1).to_string();
    let above = (i64::from(max) + 1).to_string();
    for n in [below.as_str(), above.as_str()] {
        b.one(format!("text {n}"), text(n), ALL, range.clone());
        b.one(format!("number {n}"), raw(n), JSON, range.clone());
    }
    for t in ["abc", "1.5", "0x10", "1 2", "9223372036854775808"] {
        b.one(format!("text {t}"), text(t), ALL, msg::integer(f));
    }
    b.one("number 1.5", raw("1.5"), JSON, msg::integer(f));
}

fn booleans(b: &mut Bads<'_>) {
    let not = msg::boolean(b.f);
    for t in ["yes", "no", "2", "-1", "on", "truth", "1.0"] {
        b.one(format!("text {t}"), text(t), ALL, not.clone());
    }
    b.one("number 2", raw("2"), JSON, not.clone());
    b.one("array", json!(["1"]), ALL, not.clone());
    b.one("object", json!({"k": "1"}), ALL, not);
}

/// Arrays, objects and booleans where one value belongs.
fn wrong_shapes(b: &mut Bads<'_>, kind: Kind) {
    let shape = shape_message(kind, b.f);
    b.one("array", json!(["x"]), ALL, shape.clone());
    b.one("object", json!({"k": "x"}), ALL, shape.clone());
    b.one("empty array", json!([]), JSON, shape.clone());
    b.one("empty object", json!({}), JSON, shape.clone());
    b.one("true", json!(true), JSON, shape.clone());
    b.one("false", json!(false), JSON, shape.clone());
    let deep_array = nested_array(100, json!("x"));
    b.one("array 100 deep", deep_array, JSON, shape.clone());
    let deep_object = nested_object(100, json!("x"));
    b.one("object 100 deep", deep_object, JSON, shape.clone());
    b.one("array 10 deep", nested_array(10, json!("x")), FLAT, shape);
}

/// Nothing where a value is required.
fn blanks(b: &mut Bads<'_>) {
    let required = msg::required(b.f);
    b.one("null", Value::Null, JSON, required.clone());
    b.one("empty string", json!(""), ALL, required.clone());
    b.one("spaces", json!("   "), ALL, required.clone());
    b.one("whitespace", json!(" \t\n\r "), ALL, required);
}

/// Numbers, control characters and lengths past `max` where text belongs.
fn texts(b: &mut Bads<'_>, max: usize) {
    let f = b.f;
    for n in ["12345", "-1.5", "1e400", "0"] {
        b.one(format!("number {n}"), raw(n), JSON, msg::string(f));
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
        b.one(format!("control {c:?}"), text(c), ALL, msg::format(f));
    }
    let too_long = msg::max_chars(f, max);
    let label = format!("{} chars", max + 1);
    b.one(label, text(&"x".repeat(max + 1)), ALL, too_long.clone());
    let label = format!("{} é", max + 1);
    b.one(label, text(&"é".repeat(max + 1)), ALL, too_long.clone());
    if max < 70_000 {
        b.one("70000 chars", text(&"y".repeat(70_000)), ALL, too_long);
    }
}

/// Tags where text must be plain.
fn html_tags(b: &mut Bads<'_>) {
    let f = b.f;
    for h in [
        "<script>alert(1)</script>",
        "<b>x</b>",
        "<img src=x onerror=1>",
        "  <b>x</b>  ",
        "a</p>",
        "<!-- c -->",
        "<?php x ?>",
    ] {
        b.one(format!("html {h}"), text(h), ALL, msg::no_html(f));
    }
}

/// Ids that are not positive 64-bit integers, or name no record.
fn record_ids(b: &mut Bads<'_>) {
    let f = b.f;
    for t in ["0", "-1"] {
        b.one(format!("id {t}"), text(t), ALL, msg::invalid(f));
    }
    for n in ["0", "-1", "-9223372036854775808"] {
        b.one(format!("number {n}"), raw(n), JSON, msg::invalid(f));
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
        b.one(format!("id {t}"), text(t), ALL, msg::integer(f));
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
        b.one(format!("number {n}"), raw(n), JSON, msg::integer(f));
    }
    for n in ["1e3", "999999.0", "0.0", "-1.0"] {
        b.one(format!("number {n}"), raw(n), JSON, msg::invalid(f));
    }
    b.one("unknown id", text("999999"), ALL, msg::invalid(f));
    let largest = text("9223372036854775807");
    b.one("largest id", largest, ALL, msg::invalid(f));
}

/// Texts that are not real `YYYY-MM-DD` dates.
fn dates(b: &mut Bads<'_>) {
    let f = b.f;
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
        b.one(format!("date {d:?}"), text(d), ALL, msg::date(f));
    }
    b.one("number date", raw("20260101"), JSON, msg::date(f));
}

/// Texts outside a closed set, and near misses of the valid `base`.
fn choices(b: &mut Bads<'_>, base: Option<&Value>) {
    let f = b.f;
    for t in ["zzz", "<b>x</b>", "a\u{0}", "*", "'; DROP TABLE notes; --"] {
        b.one(format!("choice {t:?}"), text(t), ALL, msg::invalid(f));
    }
    if let Some(Value::String(v)) = base {
        // Another case is another value (a VAT category is upper case already).
        for (label, other) in [
            ("upper case", v.to_uppercase()),
            ("lower case", v.to_lowercase()),
        ] {
            if other != *v {
                b.one(label, text(&other), ALL, msg::invalid(f));
            }
        }
        b.one("with suffix", text(&format!("{v}x")), ALL, msg::invalid(f));
    }
    b.one("number 1", raw("1"), JSON, msg::invalid(f));
}

/// Integers (and texts) outside a closed set of integers.
fn choice_ids(b: &mut Bads<'_>) {
    let f = b.f;
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
        b.one(format!("choice {t:?}"), text(t), ALL, msg::invalid(f));
    }
    for n in ["0", "6", "2.0", "-1", "1e0"] {
        b.one(format!("number {n}"), raw(n), JSON, msg::invalid(f));
    }
}
