//! The totals reference vectors and the JSON estimate format they are written in (feature
//! `vectors`).
//!
//! [`TOTALS_JSONL`] embeds `crm-core/vectors/totals.jsonl`: 416 results of the CRM's own
//! calculation, one `{"input": …, "expected": …}` object per line (the file's README says
//! where it comes from). [`totals_vectors`] is the one parser every test of the workspace
//! reads them with, and [`parse_input`] turns an `input` object (the format the
//! `estimate_totals` example also reads) into a [`TotalsInput`].
//!
//! The format of `input`: `tax_type` (`summary` | `inline`), `items` (each `quantity`,
//! `rate`, and optionally `discount_type`, `discount_value`, `tax_rate`), `tax_rates`,
//! `discount_type`, `discount_percentage`, `discount_amount` and `adjustment_amount`.
//! Numbers may be JSON strings (`"12.50"`) or JSON numbers (`12.5`); members the format
//! does not know (such as `name`) are ignored.

use serde_json::Value;

use crate::money::{Money, Percent, Quantity, UnitRate};
use crate::totals::{HeaderDiscount, Line, LineDiscount, TaxMode, TotalsInput};

/// The vectors file, embedded at compile time.
pub const TOTALS_JSONL: &str = include_str!("../vectors/totals.jsonl");

/// How many vectors [`TOTALS_JSONL`] holds.
pub const TOTALS_COUNT: usize = 416;

/// One reference vector.
#[derive(Debug, Clone)]
pub struct Vector {
    /// Its line number in the file (1-based).
    pub line: usize,
    /// Its name (`""` for the random ones).
    pub name: String,
    /// The line as written (member order kept).
    pub text: &'static str,
    /// The estimate, in the format [`parse_input`] reads.
    pub input: Value,
    /// The expected figures: `lines` (`total`, `discount_amount`) and `totals`.
    pub expected: Value,
}

impl Vector {
    /// The estimate as the calculator's input.
    pub fn totals_input(&self) -> Result<TotalsInput, String> {
        parse_input(&self.input).map_err(|e| format!("vector line {}: {e}", self.line))
    }
}

/// Every vector of [`TOTALS_JSONL`], in file order. A line that is not a vector object is an
/// error naming it; so is a file that does not hold [`TOTALS_COUNT`] vectors.
pub fn totals_vectors() -> Result<Vec<Vector>, String> {
    let vectors = TOTALS_JSONL
        .lines()
        .enumerate()
        .filter(|(_, text)| !text.trim().is_empty())
        .map(|(index, text)| {
            let line = index + 1;
            let value: Value =
                serde_json::from_str(text).map_err(|e| format!("vector line {line}: {e}"))?;
            let (Some(input @ Value::Object(_)), Some(expected @ Value::Object(_))) =
                (value.get("input"), value.get("expected"))
            else {
                return Err(format!(
                    "vector line {line}: expected an object with `input` and `expected` objects"
                ));
            };
            Ok(Vector {
                line,
                name: input
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                text,
                input: input.clone(),
                expected: expected.clone(),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if vectors.len() != TOTALS_COUNT {
        return Err(format!(
            "the vectors file holds {} vectors, expected {TOTALS_COUNT}",
            vectors.len()
        ));
    }
    Ok(vectors)
}

/// Reads an estimate in the vectors' `input` format. The error names the offending member
/// (`items[2].rate: …`).
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
        minor_units: crate::money::MinorUnits::TWO,
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
        vat: None,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_file_holds_every_vector_with_its_figures() {
        let vectors = totals_vectors().unwrap();
        assert_eq!(vectors.len(), TOTALS_COUNT);
        assert_eq!(vectors[0].line, 1);
        assert!(!vectors[0].name.is_empty());
        for v in &vectors {
            assert!(
                v.expected["totals"]["final_amount"].is_string(),
                "{}",
                v.line
            );
            v.totals_input().unwrap();
        }
    }

    #[test]
    fn members_are_named_in_errors() {
        let bad = serde_json::json!({"tax_type": "summary", "items": [{"quantity": "1"}]});
        assert_eq!(parse_input(&bad).unwrap_err(), "items[0].rate: required");
        let bad = serde_json::json!({"tax_type": "both", "items": []});
        assert!(parse_input(&bad).unwrap_err().starts_with("tax_type"));
    }
}
