//! The expected texts, written out here (not taken from crm-core) so that the test pins them.

/// Laravel's attribute name for a field key.
fn attr(field: &str) -> String {
    field.replace('_', " ")
}

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
pub fn boolean(f: &str) -> String {
    format!("The {} field must be true or false.", f.replace('_', " "))
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
pub const UNSUPPORTED: &str = "Unsupported content type. Send application/json, application/x-www-form-urlencoded, multipart/form-data.";
pub const TOO_LARGE: &str = "The request body is too large.";
