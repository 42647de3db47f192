//! The readers: functions from one [`RawValue`] to a typed value (text, integer, id, date,
//! choice, amounts), recording a Laravel-style message on failure.

use chrono::NaiveDate;

use crate::choice::Choice;
use crate::money::{AmountError, ExchangeRate, Money, MoneyInput, Percent, Quantity, UnitRate};
use crate::validation::{FieldErrors, message};

use super::raw::RawValue;
use super::text::{TextRule, breaks_line, contains_html, has_forbidden_control};
use super::unicode::{has_invisible, nfc};

/// The text of a scalar value; numbers, booleans, arrays and objects → "must be a string".
pub fn read_str<'v>(field: &str, value: &'v RawValue, errors: &mut FieldErrors) -> Option<&'v str> {
    match value {
        RawValue::Text(s) => Some(s.trim()),
        _ => {
            errors.add(field, message::string(field));
            None
        }
    }
}

/// The text of a numeric value: text or a JSON number; anything else → `not_number`.
fn numeric_text<'v>(
    field: &str,
    value: &'v RawValue,
    errors: &mut FieldErrors,
    not_number: fn(&str) -> String,
) -> Option<&'v str> {
    match value {
        RawValue::Text(s) => Some(s.trim()),
        RawValue::Number(s) => Some(s.as_str()),
        _ => {
            errors.add(field, not_number(field));
            None
        }
    }
}

/// Reads text under `rule`: trimmed and normalised to NFC, then at most `max_chars` (counted
/// after normalisation), no control characters, no HTML when the rule forbids it, and for
/// one-line rules no line break, tab, or invisible or bidi control character (each of these
/// last is "The … format is invalid.").
pub fn read_text(
    field: &str,
    value: &RawValue,
    rule: TextRule,
    errors: &mut FieldErrors,
) -> Option<String> {
    let text = nfc(read_str(field, value, errors)?);
    let invalid = has_forbidden_control(&text)
        || (rule.one_line && (breaks_line(&text) || has_invisible(&text)));
    if invalid {
        errors.add(field, message::format(field));
        return None;
    }
    if text.chars().count() > rule.max_chars {
        errors.add(field, message::max_chars(field, rule.max_chars));
        return None;
    }
    if rule.forbid_html && contains_html(&text) {
        errors.add(field, message::no_html(field));
        return None;
    }
    Some(text.into_owned())
}

/// Returns a reader for [`read_text`] with `rule`, for use with [`Form::required`](super::Form::required) and co.
pub fn text(rule: TextRule) -> impl FnOnce(&str, &RawValue, &mut FieldErrors) -> Option<String> {
    move |field, value, errors| read_text(field, value, rule, errors)
}

/// Reads an integer: optional sign and decimal digits only (`"12"`, `12`); the text `"1.0"`,
/// `"1e3"` and values beyond 64 bits → "must be an integer". A JSON number with an integral
/// value is an integer however it is written (`1.0`, `1e3`), as JSON Schema and Laravel's
/// `integer` rule have it, up to 2^53 (beyond that a float is not exact).
pub fn read_integer(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<i64> {
    if let RawValue::Number(n) = value
        && let Some(integral) = integral_json_number(n)
    {
        return Some(integral);
    }
    let text = numeric_text(field, value, errors, message::integer)?;
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        errors.add(field, message::integer(field));
        return None;
    }
    match text.parse::<i64>() {
        Ok(n) => Some(n),
        Err(_) => {
            errors.add(field, message::integer(field));
            None
        }
    }
}

/// The value of a JSON number written with a fraction or an exponent (`1.0`, `3e2`) when it
/// is a whole number of magnitude at most 2^53; plain digits are left to [`read_integer`].
fn integral_json_number(text: &str) -> Option<i64> {
    const EXACT: i64 = 9_007_199_254_740_992; // 2^53
    if !text.contains(['.', 'e', 'E']) {
        return None;
    }
    // Read exactly, not as a float: `9007199254740993.0` would round to 2^53 and
    // `9007199254740990.5` would lose its fraction, silently naming another id.
    let value = crate::money::parse_decimal(text, 0, 16).ok()?;
    i64::try_from(value).ok().filter(|v| v.abs() <= EXACT)
}

/// Reads a record id: an integer; zero or negative ids cannot exist → "The selected … is
/// invalid.".
pub fn read_id(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<i64> {
    let n = read_integer(field, value, errors)?;
    if n <= 0 {
        errors.add(field, message::invalid(field));
        return None;
    }
    Some(n)
}

/// Reads a calendar date written `YYYY-MM-DD` (years 0001–9999).
pub fn read_date(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<NaiveDate> {
    let parsed = match value {
        RawValue::Text(s) => parse_date(s.trim()),
        _ => None,
    };
    if parsed.is_none() {
        errors.add(field, message::date(field));
    }
    parsed
}

/// Parses a strict `YYYY-MM-DD` calendar date (years 0001–9999).
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    let shape_ok = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape_ok || text.starts_with("0000") {
        return None;
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

/// Reads one of a [`Choice`]'s values; anything else → "The selected … is invalid.".
pub fn read_choice<C: Choice>(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<C> {
    let parsed = match value {
        RawValue::Text(s) => C::from_text(s.trim()),
        _ => None,
    };
    if parsed.is_none() {
        errors.add(field, message::invalid(field));
    }
    parsed
}

/// Turns an amount error into the field's message.
fn amount_message(field: &str, error: AmountError, bounds: (&str, &str)) -> String {
    match error {
        AmountError::NotANumber => message::numeric(field),
        AmountError::TooManyDecimals { max } => message::max_decimals(field, max),
        AmountError::OutOfRange | AmountError::Negative => {
            message::between(field, bounds.0, bounds.1)
        }
        AmountError::NotPositive => message::greater_than(field, "0"),
    }
}

/// The largest money magnitude, as messages show it.
const MONEY_MAX: &str = "9999999999999.99";

/// Reads a money amount, with `low` as the lower bound messages name.
fn read_money_from(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
    low: &str,
) -> Option<Money> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    parse_money(text)
        .map_err(|e| errors.add(field, amount_message(field, e, (low, MONEY_MAX))))
        .ok()
}

/// The decimals these readers allow: the columns they fill (contract values, and bills
/// until their currency's own minor unit applies) hold two.
const READ_DECIMALS: u32 = 2;

/// Parses a money amount with at most [`READ_DECIMALS`] decimals.
fn parse_money(text: &str) -> Result<Money, AmountError> {
    Money::new(crate::money::parse_decimal(
        text,
        READ_DECIMALS,
        Money::MAX_INTEGER_DIGITS,
    )?)
}

/// Reads a money amount: at most 2 decimals, magnitude below 10^13, either sign.
pub fn read_money(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<Money> {
    read_money_from(field, value, errors, "-9999999999999.99")
}

/// Reads a money amount that must not be negative (an out-of-range one is "between 0
/// and 9999999999999.99").
pub fn read_money_non_negative(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<Money> {
    let money = read_money_from(field, value, errors, "0")?;
    if money.get().is_sign_negative() && !money.get().is_zero() {
        errors.add(field, message::at_least(field, "0"));
        return None;
    }
    Some(money)
}

/// Reads a money amount that must be greater than zero (a payment): at most 2 decimals;
/// zero or less is "must be greater than 0", past the range "may not be greater than
/// 9999999999999.99" (a negative one past the range is still "greater than 0").
pub fn read_money_positive(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<Money> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    match parse_money(text) {
        Ok(money) if money.get() > rust_decimal::Decimal::ZERO => Some(money),
        Ok(_) => {
            errors.add(field, message::greater_than(field, "0"));
            None
        }
        Err(AmountError::OutOfRange) if text.starts_with('-') => {
            errors.add(field, message::greater_than(field, "0"));
            None
        }
        Err(AmountError::OutOfRange) => {
            errors.add(field, message::at_most(field, MONEY_MAX));
            None
        }
        Err(e) => {
            errors.add(field, amount_message(field, e, ("0", MONEY_MAX)));
            None
        }
    }
}

/// Reads an amount of a document whose currency decides how many decimals it may have
/// ([`MoneyInput`]; checked by [`crate::currency::Currency::money`]): magnitude below
/// 10^13, either sign.
pub fn read_money_input(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<MoneyInput> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    MoneyInput::parse(text)
        .map_err(|e| {
            errors.add(
                field,
                amount_message(field, e, ("-9999999999999.99", MONEY_MAX)),
            )
        })
        .ok()
}

/// [`read_money_input`] for an amount that must not be negative (a discount).
pub fn read_money_input_non_negative(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<MoneyInput> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    match MoneyInput::parse(text) {
        Ok(input) if input.is_negative() => {
            errors.add(field, message::at_least(field, "0"));
            None
        }
        Ok(input) => Some(input),
        Err(e) => {
            errors.add(field, amount_message(field, e, ("0", MONEY_MAX)));
            None
        }
    }
}

/// [`read_money_input`] for an amount that must be greater than zero (a payment), with
/// [`read_money_positive`]'s messages.
pub fn read_money_input_positive(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<MoneyInput> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    match MoneyInput::parse(text) {
        // A value too precise to hold keeps its sign in the text (and is refused later).
        Ok(input) if input.is_positive() || (input.too_precise() && !text.starts_with('-')) => {
            Some(input)
        }
        Ok(_) => {
            errors.add(field, message::greater_than(field, "0"));
            None
        }
        Err(AmountError::OutOfRange) if text.starts_with('-') => {
            errors.add(field, message::greater_than(field, "0"));
            None
        }
        Err(AmountError::OutOfRange) => {
            errors.add(field, message::at_most(field, MONEY_MAX));
            None
        }
        Err(e) => {
            errors.add(field, amount_message(field, e, ("0", MONEY_MAX)));
            None
        }
    }
}

/// Reads an exchange rate: greater than 0, at most 6 decimals, below 10^9.
pub fn read_exchange_rate(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<ExchangeRate> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    ExchangeRate::parse(text)
        .map_err(|e| {
            let message = match e {
                AmountError::OutOfRange => message::at_most(field, "999999999.999999"),
                other => amount_message(field, other, ("0", "999999999.999999")),
            };
            errors.add(field, message);
        })
        .ok()
}

/// Reads a percentage between 0 and 100 with at most 2 decimals.
pub fn read_percent_0_100(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<Percent> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    let between = || message::between(field, "0", "100");
    match Percent::parse(text) {
        Ok(p) if p <= Percent::HUNDRED => Some(p),
        Ok(_) => {
            errors.add(field, between());
            None
        }
        Err(e) => {
            errors.add(field, amount_message(field, e, ("0", "100")));
            None
        }
    }
}

/// Reads a line quantity: > 0, at most 4 decimals, below 10^11.
pub fn read_quantity(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<Quantity> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    Quantity::parse(text)
        .map_err(|e| errors.add(field, positive_message(field, e)))
        .ok()
}

/// Reads a line unit rate: > 0, at most 4 decimals, below 10^11.
pub fn read_unit_rate(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<UnitRate> {
    let text = numeric_text(field, value, errors, message::numeric)?;
    UnitRate::parse(text)
        .map_err(|e| errors.add(field, positive_message(field, e)))
        .ok()
}

fn positive_message(field: &str, error: AmountError) -> String {
    match error {
        AmountError::OutOfRange => message::at_most(field, "99999999999.9999"),
        other => amount_message(field, other, ("0", "99999999999.9999")),
    }
}
