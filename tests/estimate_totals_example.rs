//! The JSON Lines protocol of `examples/estimate_totals.rs`
//! ([`crm_workspace::estimate_json`]): every reference vector line, fed whole, gives exactly
//! its `expected`; malformed or invalid lines give an error object.

// Test code: a panic with its message is how a failure is reported.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crm_core::totals::Policy;
use crm_core::vectors::totals_vectors;
use crm_workspace::estimate_json::vector_line_to_output;
use serde_json::Value;

/// Every vector line as written.
fn vector_lines() -> Vec<&'static str> {
    totals_vectors()
        .unwrap()
        .into_iter()
        .map(|v| v.text)
        .collect()
}

fn output(line: &str, policy: Policy) -> Value {
    serde_json::from_str(&vector_line_to_output(line, policy)).unwrap()
}

#[test]
fn whole_vector_lines_give_exactly_the_expected_figures() {
    let lines = vector_lines();
    assert_eq!(lines.len(), 416);
    let mut differing = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        // The vector's own text of `expected` (its last member), to compare member order
        // too: a parsed `Value` would sort the members.
        let at = line.find(r#","expected":"#).unwrap();
        let expected_text = &line[at + r#","expected":"#.len()..line.len() - 1];
        let raw = vector_line_to_output(line, Policy::CrmParity);
        if raw != expected_text {
            differing.push(format!(
                "vector {}: {raw}\n  expected {expected_text}",
                index + 1
            ));
        }
    }
    assert!(
        differing.is_empty(),
        "{} differ:\n{}",
        differing.len(),
        differing.join("\n")
    );
}

#[test]
fn the_input_object_alone_gives_the_same_output_as_the_vector_line() {
    let lines = vector_lines();
    for line in lines.iter().take(40) {
        let vector: Value = serde_json::from_str(line).unwrap();
        let input = vector["input"].to_string();
        for policy in [Policy::CrmParity, Policy::ExactDecimal] {
            assert_eq!(output(&input, policy), output(line, policy));
        }
    }
}

#[test]
fn the_exact_policy_gives_the_exact_figures() {
    let line = r#"{"tax_type":"summary","items":[{"quantity":"1.5","rate":"1385.27"}]}"#;
    assert_eq!(
        output(line, Policy::CrmParity)["totals"]["final_amount"],
        "2077.90"
    );
    assert_eq!(
        output(line, Policy::ExactDecimal)["totals"]["final_amount"],
        "2077.91"
    );
}

#[test]
fn numbers_may_be_json_numbers() {
    let text = r#"{"tax_type":"inline","items":[{"quantity":2,"rate":100,"discount_type":"fixed","discount_value":20.0,"tax_rate":10}],"adjustment_amount":-0.5}"#;
    let strings = r#"{"tax_type":"inline","items":[{"quantity":"2","rate":"100","discount_type":"fixed","discount_value":"20","tax_rate":"10"}],"adjustment_amount":"-0.50"}"#;
    let out = output(text, Policy::CrmParity);
    assert_eq!(out, output(strings, Policy::CrmParity));
    assert_eq!(out["lines"][0]["total"], "198.00");
    assert_eq!(out["totals"]["final_amount"], "197.50");
}

#[test]
fn malformed_or_invalid_lines_give_an_error_object() {
    let cases = [
        ("", "invalid JSON"),
        ("{not json", "invalid JSON"),
        ("[1,2]", "expected a JSON object"),
        (r#"{"items":[]}"#, "tax_type"),
        (r#"{"tax_type":"summary"}"#, "items"),
        (
            r#"{"tax_type":"summary","items":[{"quantity":"0","rate":"1"}]}"#,
            "items[0].quantity",
        ),
        (
            r#"{"tax_type":"summary","items":[{"quantity":"1","rate":"1.123456"}]}"#,
            "items[0].rate",
        ),
        (
            r#"{"tax_type":"summary","items":[{"quantity":"1"}]}"#,
            "items[0].rate: required",
        ),
        (
            r#"{"tax_type":"inline","items":[{"quantity":"1","rate":"1","discount_type":"bogus"}]}"#,
            "discount_type",
        ),
        (
            r#"{"tax_type":"summary","items":[],"tax_rates":["-1"]}"#,
            "tax_rates[0]",
        ),
        (
            r#"{"tax_type":"summary","items":[],"discount_type":"fixed"}"#,
            "discount_amount: required",
        ),
        (
            r#"{"tax_type":"summary","items":[{"quantity":"99999999999","rate":"99999999999"}]}"#,
            "out of range",
        ),
    ];
    for (line, needle) in cases {
        let out = output(line, Policy::CrmParity);
        let message = out["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{line:?} gave {out}"));
        assert!(
            message.contains(needle),
            "{line:?}: {message:?} should mention {needle:?}"
        );
    }
}
