//! Bad arrays: tag sets, id sets and line items — other shapes where the array belongs, bad
//! elements (named by their index: `tags.1`, `items.0`), and too many elements, up to sizes
//! that only fit in a body as JSON or url-encoded.

use serde_json::{Value, json};

use super::{Bads, text};
use crate::sweep::body::{ALL, BIG, Expect, FLAT, JSON, invalid, nested_array, nested_object, raw};
use crate::sweep::msg;

/// A 422 naming element `i` of the field alone.
fn at(b: &Bads<'_>, i: usize, message: impl Fn(&str) -> String) -> Expect {
    let key = format!("{}.{i}", b.f);
    let text = message(&key);
    invalid(&key, text)
}

/// A 422 naming each of `n` elements with `message`.
fn each(b: &Bads<'_>, n: usize, message: impl Fn(&str) -> String) -> Expect {
    let keys = (0..n).map(|i| format!("{}.{i}", b.f));
    Expect::Invalid(keys.map(|k| (k.clone(), Some(message(&k)))).collect())
}

/// An object, a text, a number and a deeply nested object (around `deep_leaf`) where the
/// array belongs.
fn not_arrays(b: &mut Bads<'_>, object: Value, string: &str, deep_leaf: Value) {
    let arr = msg::array(b.f);
    b.one("object", object, ALL, arr.clone());
    b.one("string", text(string), ALL, arr.clone());
    b.one("number", raw("5"), JSON, arr.clone());
    b.one("object 100 deep", nested_object(100, deep_leaf), JSON, arr);
}

/// `tags`: texts of at most 100 characters without HTML, at most 100 of them.
pub fn tags(b: &mut Bads<'_>) {
    let f = b.f;
    not_arrays(b, json!({"k": "x"}), "a,b", json!("x"));
    b.one("true", json!(true), JSON, msg::array(f));
    let not_text = at(b, 0, msg::string);
    b.other("number element", json!([1]), JSON, not_text.clone());
    b.other("boolean element", json!([true]), JSON, not_text.clone());
    b.other("array element", json!([["a"]]), ALL, not_text.clone());
    b.other("object element", json!([{"k": "v"}]), ALL, not_text.clone());
    let deep = nested_array(100, json!("x"));
    b.other("element 100 deep", deep, JSON, not_text);
    for h in [
        "<script>alert(1)</script>",
        "<b>x</b>",
        "<img src=x onerror=1>",
    ] {
        b.other(
            format!("html tag {h}"),
            json!([h]),
            ALL,
            at(b, 0, msg::no_html),
        );
    }
    let second = at(b, 1, msg::no_html);
    b.other(
        "second tag html",
        json!(["ok", "<b>x</b>"]),
        ALL,
        second.clone(),
    );
    b.other(
        "html after an empty one",
        json!(["", "<b>x</b>"]),
        ALL,
        second,
    );
    let long = at(b, 0, |k| msg::max_chars(k, 100));
    b.other("101 chars", json!(["x".repeat(101)]), ALL, long.clone());
    b.other("70000 chars", json!(["x".repeat(70_000)]), ALL, long);
    let control = at(b, 0, msg::format);
    b.other("NUL", json!(["a\u{0}b"]), ALL, control.clone());
    b.other("escape", json!(["\u{1b}[2J"]), ALL, control);
    let many: Vec<String> = (0..101).map(|i| format!("t{i}")).collect();
    b.one("101 tags", json!(many), ALL, msg::max_items(f, 100));
    let huge: Vec<String> = (0..10_000).map(|i| format!("t{i}")).collect();
    b.one("10000 tags", json!(huge), BIG, msg::max_items(f, 100));
    let all_html: Vec<String> = (0..100).map(|i| format!("<i>{i}</i>")).collect();
    let every = each(b, 100, msg::no_html);
    b.other("100 html tags", json!(all_html), ALL, every);
}

/// The company's reminder steps: whole numbers from -365 to 365, distinct, at most 10.
pub fn steps(b: &mut Bads<'_>) {
    let f = b.f;
    not_arrays(b, json!({"k": "1"}), "1,2", json!("1"));
    b.one("true", json!(true), JSON, msg::array(f));
    let not_integer = at(b, 0, msg::integer);
    for t in ["abc", "1.5", "0x10", "9223372036854775808"] {
        b.other(format!("element {t}"), json!([t]), ALL, not_integer.clone());
    }
    b.other(
        "number element 1.5",
        json!([raw("1.5")]),
        JSON,
        not_integer.clone(),
    );
    b.other("array element", json!([["1"]]), ALL, not_integer.clone());
    b.other("object element", json!([{"k": "1"}]), ALL, not_integer);
    let range = at(b, 0, |k| msg::between(k, "-365", "365"));
    for t in ["366", "-366"] {
        b.other(format!("element {t}"), json!([t]), ALL, range.clone());
    }
    let repeat = at(b, 1, msg::distinct);
    b.other("a repeated step", json!(["7", "7"]), ALL, repeat);
    let over: Vec<String> = (0..11).map(|i| i.to_string()).collect();
    b.one("11 elements", json!(over), ALL, msg::max_items(f, 10));
}

/// An array of record ids, at most `max`; `non_empty` when the empty set is refused.
pub fn id_sets(b: &mut Bads<'_>, max: usize, non_empty: bool) {
    let f = b.f;
    not_arrays(b, json!({"k": "1"}), "1,2", json!("1"));
    b.one("true", json!(true), JSON, msg::array(f));
    let not_integer = at(b, 0, msg::integer);
    for t in ["abc", "1e3", "1.5", "0x10", "9223372036854775808"] {
        b.other(format!("element {t}"), json!([t]), ALL, not_integer.clone());
    }
    let fraction = json!([raw("1.5")]);
    b.other("number element 1.5", fraction, JSON, not_integer.clone());
    let unknown = at(b, 0, msg::invalid);
    b.other(
        "number element 1e6",
        json!([raw("1e6")]),
        JSON,
        unknown.clone(),
    );
    b.other("boolean element", json!([true]), JSON, not_integer.clone());
    b.other("array element", json!([["1"]]), ALL, not_integer.clone());
    b.other(
        "object element",
        json!([{"k": "1"}]),
        ALL,
        not_integer.clone(),
    );
    let deep = nested_array(100, json!("1"));
    b.other("element 100 deep", deep, JSON, not_integer);
    for t in ["0", "-1"] {
        b.other(format!("element {t}"), json!([t]), ALL, unknown.clone());
    }
    b.other("number element 0", json!([0]), JSON, unknown.clone());
    b.other("unknown element", json!(["999999"]), ALL, unknown.clone());
    let largest = json!(["9223372036854775807"]);
    b.other("largest id element", largest, ALL, unknown);
    let wide = if max > 200 { BIG } else { ALL };
    let over: Vec<String> = (0..=max).map(|i| (900_000 + i).to_string()).collect();
    let label = format!("{} elements", max + 1);
    b.one(label, json!(over), wide, msg::max_items(f, max));
    let huge: Vec<String> = (0..10_000).map(|i| i.to_string()).collect();
    b.one("10000 elements", json!(huge), BIG, msg::max_items(f, max));
    let unknown: Vec<String> = (0..max).map(|i| (900_000 + i).to_string()).collect();
    let every = each(b, max, msg::invalid);
    b.other(format!("{max} unknown ids"), json!(unknown), wide, every);
    if non_empty {
        let required = msg::required(f);
        b.one("empty array", json!([]), JSON, required.clone());
        b.one("empty string", text(""), ALL, required.clone());
        b.one(
            "only empty elements",
            json!(["", " "]),
            ALL,
            required.clone(),
        );
        b.one("null elements", json!([null, null]), JSON, required);
    }
}

/// `items`: a non-empty array of at most 1,000 line objects, each with a description, a
/// quantity and a rate.
pub fn items(b: &mut Bads<'_>) {
    let f = b.f;
    let line = json!({"description": "Line", "quantity": "1", "rate": "1"});
    not_arrays(b, json!({"k": line.clone()}), "x", line.clone());
    let not_line = at(b, 0, msg::array);
    b.other("string item", json!(["x"]), ALL, not_line.clone());
    b.other("number item", json!([1]), JSON, not_line);
    let first_fails = Expect::Invalid(vec![(format!("{f}.0"), None)]);
    b.other("array item", json!([["x"]]), ALL, first_fails.clone());
    let deep = nested_array(100, line.clone());
    b.other("item 100 deep", deep, JSON, first_fails);
    let required = msg::required(f);
    b.one("empty array", json!([]), JSON, required.clone());
    b.one("empty string", text(""), ALL, required.clone());
    b.one("null items", json!([null]), JSON, required.clone());
    b.one("empty items", json!([""]), FLAT, required);
    let blank = Expect::Invalid(
        ["description", "quantity", "rate"]
            .map(|k| {
                let key = format!("{f}.0.{k}");
                let message = msg::required(&key);
                (key, Some(message))
            })
            .to_vec(),
    );
    b.other("empty object item", json!([{}]), JSON, blank.clone());
    b.other("item of unknown fields", json!([{"zzz": "1"}]), ALL, blank);
    let second = json!([line.clone(), {"description": "x", "quantity": "0", "rate": "1"}]);
    let quantity = format!("{f}.1.quantity");
    let zero = invalid(&quantity, msg::greater_than_zero(&quantity));
    b.other("second item bad", second, ALL, zero);
    let over: Vec<Value> = (0..1001).map(|_| line.clone()).collect();
    b.one("1001 items", json!(over), BIG, msg::max_items(f, 1000));
    let huge: Vec<Value> = (0..5000).map(|_| line.clone()).collect();
    b.one("5000 items", json!(huge), BIG, msg::max_items(f, 1000));
}

/// A non-empty array of a closed set's texts (a webhook's `events`), at most `max`.
pub fn choice_sets(b: &mut Bads<'_>, max: usize) {
    let f = b.f;
    not_arrays(b, json!({"k": "x"}), "note.created", json!("x"));
    b.one("true", json!(true), JSON, msg::array(f));
    b.one("empty", json!([]), JSON, msg::required(f));
    let unknown = at(b, 0, msg::invalid);
    for t in [
        "note.archived",
        "NOTE.CREATED",
        "webhook.test",
        "**",
        "<b>x</b>",
    ] {
        b.other(format!("element {t}"), json!([t]), ALL, unknown.clone());
    }
    b.other("number element", json!([1]), JSON, unknown.clone());
    b.other("array element", json!([["note.created"]]), ALL, unknown);
    let second = at(b, 1, msg::invalid);
    b.other(
        "second unknown",
        json!(["note.created", "x.y"]),
        ALL,
        second,
    );
    let many: Vec<&str> = (0..=max).map(|_| "note.created").collect();
    b.one(
        format!("{} elements", max + 1),
        json!(many),
        ALL,
        msg::max_items(f, max),
    );
}
