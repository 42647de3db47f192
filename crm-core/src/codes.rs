//! Code lists of the standards the records use, one module each with its source and
//! version: countries (ISO 3166-1 alpha-2), currencies (ISO 4217), VAT exemption reasons
//! (VATEX), and time zones (the IANA database, through `chrono-tz`). Each list is data;
//! the functions here only look a code up.

mod iso3166;
mod iso4217;
mod vatex;

pub use iso3166::COUNTRIES;
pub use iso4217::{CURRENCIES, MINOR_UNITS, SYMBOLS};
pub use vatex::VATEX;

/// Whether `code` is an ISO 3166-1 alpha-2 country code (upper case, as the list has it).
pub fn is_country(code: &str) -> bool {
    COUNTRIES.binary_search(&code).is_ok()
}

/// Whether `code` is an ISO 4217 alphabetic currency code (upper case).
pub fn is_currency(code: &str) -> bool {
    CURRENCIES.binary_search(&code).is_ok()
}

/// The ISO 4217 minor unit of currency `code` (its number of decimals), `None` for a code
/// the standard gives none (`XAU`) or that is not a currency code.
pub fn currency_minor_units(code: &str) -> Option<u32> {
    if !is_currency(code) {
        return None;
    }
    match MINOR_UNITS.binary_search_by(|(c, _)| (*c).cmp(code)) {
        Ok(at) => MINOR_UNITS[at].1,
        Err(_) => Some(2),
    }
}

/// The symbol of currency `code` (`€`), when it has a well-known one.
pub fn currency_symbol(code: &str) -> Option<&'static str> {
    SYMBOLS
        .binary_search_by(|(c, _)| (*c).cmp(code))
        .ok()
        .map(|at| SYMBOLS[at].1)
}

/// Whether `code` is a VATEX exemption reason code (`VATEX-EU-AE`).
pub fn is_vatex(code: &str) -> bool {
    VATEX.binary_search(&code).is_ok()
}

/// Whether `name` is an IANA time zone name (`Europe/Berlin`, `UTC`), as the version of
/// the database that `chrono-tz` carries knows it.
pub fn is_time_zone(name: &str) -> bool {
    name.parse::<chrono_tz::Tz>().is_ok()
}

/// The VAT identifier prefixes that are not ISO 3166 codes: Greece writes `EL`.
const VAT_ONLY_PREFIXES: [&str; 1] = ["EL"];

/// Whether `prefix` may start a VAT identifier: a country code, or `EL` (Greece).
pub fn is_vat_prefix(prefix: &str) -> bool {
    is_country(prefix) || VAT_ONLY_PREFIXES.contains(&prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lists_are_sorted_and_without_duplicates() {
        for list in [COUNTRIES, CURRENCIES, VATEX] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
        assert!(MINOR_UNITS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(SYMBOLS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(MINOR_UNITS.iter().all(|(c, _)| is_currency(c)));
        assert!(SYMBOLS.iter().all(|(c, _)| is_currency(c)));
    }

    #[test]
    fn codes_are_found_exactly() {
        assert!(is_country("DE") && is_country("XI") && !is_country("de") && !is_country("ZZ"));
        assert!(is_currency("EUR") && is_currency("JPY") && !is_currency("eur"));
        assert!(is_vatex("VATEX-EU-AE") && !is_vatex("VATEX-EU-ZZ"));
        assert_eq!(currency_minor_units("JPY"), Some(0));
        assert_eq!(currency_minor_units("EUR"), Some(2));
        assert_eq!(currency_minor_units("KWD"), Some(3));
        assert_eq!(currency_minor_units("CLF"), Some(4));
        assert_eq!(currency_minor_units("XAU"), None);
        assert_eq!(currency_minor_units("ZZZ"), None);
        assert_eq!(currency_symbol("EUR"), Some("€"));
        assert_eq!(currency_symbol("KWD"), None);
        assert!(is_time_zone("Europe/Berlin") && is_time_zone("UTC"));
        assert!(!is_time_zone("Mars/Olympus") && !is_time_zone(""));
        assert!(is_vat_prefix("EL") && is_vat_prefix("FR") && !is_vat_prefix("QQ"));
    }
}
