//! Estimates as JSON, in the format of the totals reference vectors
//! (`crm-core/vectors/totals.jsonl`), read by [`crm_core::vectors::parse_input`].
//!
//! Input: an object with `tax_type` (`summary` | `inline`), `items` (each `quantity`,
//! `rate`, and optionally `discount_type`, `discount_value`, `tax_rate`), `tax_rates`,
//! `discount_type`, `discount_percentage`, `discount_amount` and `adjustment_amount`.
//! Numbers may be JSON strings (`"12.50"`) or JSON numbers (`12.5`); members this format does
//! not know (such as `name`) are ignored. A whole vector line is accepted too: when the
//! object has an `input` member that is an object, that object is the estimate and
//! `expected` is ignored.
//!
//! Output: `{"lines":[{"total","discount_amount"},…],"totals":{…}}`, members in the order
//! of the vectors' `expected`, amounts as text with two decimals; or `{"error":"…"}`.

use crm_core::totals::{Policy, compute};
use crm_core::vectors::parse_input;
use serde_json::Value;

/// Turns one line of JSON text into one line of JSON output (without the newline):
/// the computed figures, or `{"error":"…"}` when the line is not valid JSON, not a valid
/// estimate, or its totals overflow.
pub fn vector_line_to_output(line: &str, policy: Policy) -> String {
    let result = serde_json::from_str::<Value>(line)
        .map_err(|error| format!("invalid JSON: {error}"))
        .and_then(|value| match &value {
            Value::Object(object) => match object.get("input") {
                Some(input @ Value::Object(_)) => parse_input(input),
                _ => parse_input(&value),
            },
            _ => Err("expected a JSON object".to_owned()),
        })
        .and_then(|input| compute(&input, policy).map_err(|error| error.to_string()))
        .and_then(|computed| serde_json::to_string(&computed).map_err(|e| e.to_string()));
    match result {
        Ok(output) => output,
        Err(message) => serde_json::json!({ "error": message }).to_string(),
    }
}
