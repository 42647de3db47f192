//! Estimates as JSON, in the format of the shared test vectors (`shared/vectors/totals.jsonl`).
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

use crm_core::money::{Money, Percent, Quantity, UnitRate};
use crm_core::totals::{HeaderDiscount, Line, LineDiscount, Policy, TaxMode, TotalsInput, compute};
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

/// Reads an estimate in the vectors' `input` format. The error names the offending member.
pub fn parse_input(input: &Value) -> Result<TotalsInput, String> {
    let tax_mode = match input.get("tax_type").and_then(Value::as_str) {
        Some("summary") => TaxMode::Summary,
        Some("inline") => TaxMode::Inline,
        _ => return Err("tax_type: expected \"summary\" or \"inline\"".to_owned()),
    };
    let items = match input.get("items") {
        Some(Value::Array(items)) => items,
        _ => return Err("items: expected an array".to_owned()),
    };
    let lines = items
        .iter()
        .enumerate()
        .map(|(index, item)| parse_line(item).map_err(|e| format!("items[{index}].{e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let tax_rates = match input.get("tax_rates") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(rates)) => rates
            .iter()
            .enumerate()
            .map(|(index, rate)| amount::<Percent>(Some(rate), &format!("tax_rates[{index}]")))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("tax_rates: expected an array".to_owned()),
    };
    let discount = match kind(input, "discount_type")? {
        Kind::None => HeaderDiscount::None,
        Kind::Fixed => {
            HeaderDiscount::Fixed(amount(input.get("discount_amount"), "discount_amount")?)
        }
        Kind::Percentage => HeaderDiscount::Percentage(amount(
            input.get("discount_percentage"),
            "discount_percentage",
        )?),
    };
    let adjustment = match input.get("adjustment_amount") {
        None | Some(Value::Null) => Money::ZERO,
        value => amount(value, "adjustment_amount")?,
    };
    Ok(TotalsInput {
        tax_mode,
        lines,
        tax_rates,
        discount,
        adjustment,
    })
}

fn parse_line(item: &Value) -> Result<Line, String> {
    if !item.is_object() {
        return Err("expected an object".to_owned());
    }
    let discount = match kind(item, "discount_type")? {
        Kind::None => LineDiscount::None,
        Kind::Fixed => LineDiscount::Fixed(amount(item.get("discount_value"), "discount_value")?),
        Kind::Percentage => {
            LineDiscount::Percentage(amount(item.get("discount_value"), "discount_value")?)
        }
    };
    Ok(Line {
        quantity: amount::<Quantity>(item.get("quantity"), "quantity")?,
        rate: amount::<UnitRate>(item.get("rate"), "rate")?,
        discount,
        tax_rate: match item.get("tax_rate") {
            None | Some(Value::Null) => None,
            value => Some(amount(value, "tax_rate")?),
        },
    })
}

/// A `discount_type` member; absent or null means none.
enum Kind {
    None,
    Fixed,
    Percentage,
}

fn kind(object: &Value, member: &str) -> Result<Kind, String> {
    match object.get(member) {
        None | Some(Value::Null) => Ok(Kind::None),
        Some(Value::String(text)) if text == "none" => Ok(Kind::None),
        Some(Value::String(text)) if text == "fixed" => Ok(Kind::Fixed),
        Some(Value::String(text)) if text == "percentage" => Ok(Kind::Percentage),
        Some(_) => Err(format!(
            "{member}: expected \"none\", \"fixed\" or \"percentage\""
        )),
    }
}

/// Parses an amount given as JSON text or a JSON number with the type's own rules.
fn amount<T>(value: Option<&Value>, member: &str) -> Result<T, String>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let text = match value {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(number)) => number.to_string(),
        None | Some(Value::Null) => return Err(format!("{member}: required")),
        Some(_) => return Err(format!("{member}: expected a number or decimal text")),
    };
    text.parse().map_err(|error| format!("{member}: {error}"))
}
