//! The totals reference vectors (`crm-core/vectors/totals.jsonl`, produced by running the
//! CRM's own calculation): the parity policy must reproduce every figure of every vector,
//! as text.

// Test code: a panic with its message is how a failure is reported.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;

use crm_core::totals::{Computed, Policy, TotalsInput, compute};
use crm_core::vectors::{Vector, totals_vectors};
use serde_json::Value;

/// The vectors, with their input read for the calculator.
fn load_vectors() -> Vec<(Vector, TotalsInput)> {
    totals_vectors()
        .unwrap()
        .into_iter()
        .map(|v| {
            let input = v.totals_input().unwrap();
            (v, input)
        })
        .collect()
}

/// Every member of `expected` that `computed` does not reproduce as text, one per line.
fn mismatches(computed: &Computed, expected: &Value) -> Vec<String> {
    let actual = serde_json::to_value(computed).unwrap();
    let mut found = Vec::new();
    let expected_lines = expected["lines"].as_array().unwrap();
    if expected_lines.len() != computed.lines.len() {
        found.push(format!(
            "{} lines, expected {}",
            computed.lines.len(),
            expected_lines.len()
        ));
    }
    for (i, line) in expected_lines.iter().enumerate() {
        for (member, want) in line.as_object().unwrap() {
            let got = &actual["lines"][i][member];
            if got != want {
                found.push(format!("lines[{i}].{member}: got {got}, expected {want}"));
            }
        }
    }
    for (member, want) in expected["totals"].as_object().unwrap() {
        let got = &actual["totals"][member];
        if got != want {
            found.push(format!("totals.{member}: got {got}, expected {want}"));
        }
    }
    found
}

#[test]
fn crm_parity_reproduces_every_reference_vector() {
    let vectors = load_vectors();
    let mut report = String::new();
    let mut failing = 0;
    for (vector, input) in &vectors {
        let found = match compute(input, Policy::CrmParity) {
            Ok(computed) => mismatches(&computed, &vector.expected),
            Err(error) => vec![format!("error: {error}")],
        };
        if !found.is_empty() {
            failing += 1;
            let _ = writeln!(report, "vector {} {:?}:", vector.line, vector.name);
            for mismatch in found {
                let _ = writeln!(report, "    {mismatch}");
            }
        }
    }
    assert_eq!(
        failing,
        0,
        "{failing} of {} vectors differ:\n{report}",
        vectors.len()
    );
}

#[test]
fn exact_decimal_reproduces_some_but_not_all_vectors() {
    let vectors = load_vectors();
    let reproduced = vectors
        .iter()
        .filter(
            |(vector, input)| match compute(input, Policy::ExactDecimal) {
                Ok(computed) => mismatches(&computed, &vector.expected).is_empty(),
                Err(_) => false,
            },
        )
        .count();
    eprintln!(
        "ExactDecimal reproduces {reproduced} of {} reference vectors",
        vectors.len()
    );
    // A figure, not a target; the bounds only catch the two policies collapsing into one
    // (or the exact policy breaking entirely).
    assert!(
        reproduced > 0 && reproduced < vectors.len(),
        "{reproduced} of {}",
        vectors.len()
    );
}
