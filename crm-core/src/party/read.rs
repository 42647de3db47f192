//! The readers of coded values: each takes one request value and gives the normalised
//! code, or records the field's one message (a value that is not text gets the same one:
//! it is not a country, an IBAN, …).
//!
//! - a country (ISO 3166-1 alpha-2), a currency (ISO 4217), a VATEX code, a time zone
//!   (IANA): exactly as the list writes them, else "The selected … is invalid.";
//! - a VAT identifier: its country prefix and 2 to 12 letters or digits (spaces removed,
//!   letters upper-cased), else "The … must be a valid VAT identifier with its country
//!   prefix.";
//! - an IBAN: 15 to 34 letters and digits (spaces removed, upper-cased), a country prefix,
//!   and check digits that make the number 1 modulo 97 (ISO 13616), else "The … must be a
//!   valid IBAN.";
//! - a BIC (ISO 9362): 8 or 11 characters with a country code, else "The … must be a valid
//!   BIC.";
//! - an email address: one `@`, a plain local part and a domain of at least two labels,
//!   at most 254 characters, else "The … must be a valid email address.";
//! - a Peppol scheme (ISO 6523 ICD): four digits, else "The … format is invalid.".

use crate::codes;
use crate::input::RawValue;
use crate::validation::{FieldErrors, attribute, message};

/// The trimmed text of `value`, or `None` for anything that is not text.
fn text_of(value: &RawValue) -> Option<&str> {
    match value {
        RawValue::Text(s) => Some(s.trim()),
        _ => None,
    }
}

/// Records `fail(field)` and gives `None` unless `check` accepts the text.
fn coded(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
    normalise: fn(&str) -> String,
    check: fn(&str) -> bool,
    fail: fn(&str) -> String,
) -> Option<String> {
    let code = text_of(value).map(normalise).filter(|c| check(c));
    if code.is_none() {
        errors.add(field, fail(field));
    }
    code
}

fn as_is(text: &str) -> String {
    text.to_owned()
}

/// Upper case without spaces: how IBANs and VAT identifiers are written on paper.
fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| *c != ' ')
        .collect::<String>()
        .to_ascii_uppercase()
}

/// An ISO 3166-1 alpha-2 country code (`DE`).
pub fn read_country(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<String> {
    coded(
        field,
        value,
        errors,
        as_is,
        codes::is_country,
        message::invalid,
    )
}

/// An ISO 4217 currency code (`EUR`).
pub fn read_currency(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<String> {
    coded(
        field,
        value,
        errors,
        as_is,
        codes::is_currency,
        message::invalid,
    )
}

/// An IANA time zone name (`Europe/Berlin`).
pub fn read_time_zone(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<String> {
    coded(
        field,
        value,
        errors,
        as_is,
        codes::is_time_zone,
        message::invalid,
    )
}

/// A VATEX exemption reason code (`VATEX-EU-AE`).
pub fn read_vatex(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<String> {
    coded(
        field,
        value,
        errors,
        as_is,
        codes::is_vatex,
        message::invalid,
    )
}

/// "The vat id must be a valid VAT identifier with its country prefix."
pub fn vat_id_message(field: &str) -> String {
    format!(
        "The {} must be a valid VAT identifier with its country prefix.",
        attribute(field)
    )
}

/// Whether `id` (compacted) is a country prefix and 2 to 12 letters or digits.
pub fn is_vat_id(id: &str) -> bool {
    let (Some(prefix), Some(rest)) = (id.get(..2), id.get(2..)) else {
        return false;
    };
    codes::is_vat_prefix(prefix)
        && (2..=12).contains(&rest.len())
        && rest.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A VAT identifier with its country prefix (`DE123456789`, `FRXX999999999`).
pub fn read_vat_id(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<String> {
    coded(field, value, errors, compact, is_vat_id, vat_id_message)
}

/// Whether `iban` (compacted) is an IBAN: length, country, and mod-97 check digits.
pub fn is_iban(iban: &str) -> bool {
    let b = iban.as_bytes();
    if !(15..=34).contains(&b.len()) || !b.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    if !codes::is_country(&iban[..2]) || !b[2].is_ascii_digit() || !b[3].is_ascii_digit() {
        return false;
    }
    // The first four characters move to the end; letters count as 10..35; the number
    // (read digit by digit, modulo 97) must be 1.
    let mut rest = 0u32;
    for &c in b[4..].iter().chain(&b[..4]) {
        let n = if c.is_ascii_digit() {
            u32::from(c - b'0')
        } else {
            u32::from(c - b'A') + 10
        };
        rest = if n < 10 {
            (rest * 10 + n) % 97
        } else {
            (rest * 100 + n) % 97
        };
    }
    rest == 1
}

/// An IBAN (`DE89 3704 0044 0532 0130 00` is stored `DE89370400440532013000`).
pub fn read_iban(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<String> {
    coded(field, value, errors, compact, is_iban, |field| {
        format!("The {} must be a valid IBAN.", attribute(field))
    })
}

/// Whether `bic` is a BIC: 4 letters, a country code, 2 letters or digits, and an
/// optional branch of 3.
pub fn is_bic(bic: &str) -> bool {
    let b = bic.as_bytes();
    (b.len() == 8 || b.len() == 11)
        && b.iter().all(u8::is_ascii_alphanumeric)
        && b[..4].iter().all(u8::is_ascii_uppercase)
        && codes::is_country(&bic[4..6])
        && b[6..]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// A BIC (`COBADEFFXXX`).
pub fn read_bic(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<String> {
    coded(field, value, errors, compact, is_bic, |field| {
        format!("The {} must be a valid BIC.", attribute(field))
    })
}

/// "The contact email must be a valid email address."
pub fn email_message(field: &str) -> String {
    format!("The {} must be a valid email address.", attribute(field))
}

/// Whether `email` is an address mail can be sent to: `local@domain.tld`, the local part of
/// the characters RFC 5322 allows unquoted (no leading, trailing or double dot), the
/// domain of letters, digits and inner hyphens in two labels or more; 254 characters at
/// most.
pub fn is_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    let local_ok = (1..=64).contains(&local.len())
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~.-".contains(&b))
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..");
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            (1..=63).contains(&l.len())
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        });
    email.len() <= 254 && local_ok && domain_ok
}

/// An email address.
pub fn read_email(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<String> {
    coded(field, value, errors, as_is, is_email, email_message)
}

/// An ISO 6523 scheme code: four digits (`0208`).
pub fn read_peppol_scheme(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<String> {
    coded(
        field,
        value,
        errors,
        as_is,
        |s| s.len() == 4 && s.bytes().all(|b| b.is_ascii_digit()),
        message::format,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ibans_are_checked_by_their_mod_97_digits() {
        assert!(is_iban("DE89370400440532013000"));
        assert!(is_iban("GB82WEST12345698765432"));
        assert!(is_iban(&compact("fr14 2004 1010 0505 0001 3M02 606")));
        assert!(!is_iban("DE88370400440532013000"), "wrong check digits");
        assert!(!is_iban("ZZ89370400440532013000"), "no such country");
        assert!(!is_iban("DE8937040044"), "too short");
        assert!(!is_iban("DE89-370400440532013000"));
    }

    #[test]
    fn vat_ids_start_with_a_country_prefix() {
        assert!(is_vat_id("DE123456789") && is_vat_id("EL123456789"));
        assert!(is_vat_id(&compact("fr xx 999999999")));
        assert!(!is_vat_id("123456789"), "no prefix");
        assert!(!is_vat_id("QQ123456789"), "no such country");
        assert!(!is_vat_id("DE1"), "too short");
        assert!(!is_vat_id("DE123-456"));
    }

    #[test]
    fn bics_emails_and_peppol_schemes() {
        assert!(is_bic("COBADEFFXXX") && is_bic("DEUTDEFF") && !is_bic("COBAXXFF"));
        assert!(is_email("billing@acme.example") && is_email("a.b+c@x-y.de"));
        for bad in [
            "plain", "@x.de", "a@x", "a@@x.de", "a b@x.de", "a@-x.de", ".a@x.de",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
        let mut errors = FieldErrors::new();
        let scheme = read_peppol_scheme("peppol.scheme", &RawValue::text("0208"), &mut errors);
        assert_eq!(scheme.as_deref(), Some("0208"));
        assert!(read_peppol_scheme("peppol.scheme", &RawValue::text("208"), &mut errors).is_none());
        assert_eq!(
            errors.get("peppol.scheme").unwrap(),
            ["The peppol.scheme format is invalid."]
        );
    }
}
