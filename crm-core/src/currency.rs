//! The currency of a document (API.md §18): an ISO 4217 code with its minor unit (how many
//! decimals its amounts have) and the symbol a person recognises.
//!
//! A document's currency is one of [`crate::codes::CURRENCIES`] whose minor unit is 0, 2
//! or 3 ([`MinorUnits`]): codes without a minor unit (`XAU`, `XXX`) and the 4-decimal units
//! of account (`CLF`) are refused as a document's currency (they stay valid as a company's
//! or client's default, which only an explicit `bill_currency` then overrides).

use std::fmt;

use serde::{Serialize, Serializer};

use crate::codes;
use crate::input::RawValue;
use crate::money::{MinorUnits, Money};
use crate::validation::{FieldErrors, message};

/// A supported document currency. `EUR` by default (a company that never set one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Currency {
    code: &'static str,
    minor: MinorUnits,
}

impl Currency {
    /// The euro, a company's currency when it never set one.
    pub const EUR: Currency = Currency {
        code: "EUR",
        minor: MinorUnits::TWO,
    };

    /// The currency of ISO 4217 `code` (upper case), when it is one a document may have.
    pub fn from_code(code: &str) -> Option<Currency> {
        let at = codes::CURRENCIES.binary_search(&code).ok()?;
        let minor = MinorUnits::new(codes::currency_minor_units(code)?)?;
        Some(Currency {
            code: codes::CURRENCIES[at],
            minor,
        })
    }

    /// The ISO 4217 code (`JPY`).
    pub fn code(self) -> &'static str {
        self.code
    }

    /// How many decimals its amounts have.
    pub fn minor_units(self) -> MinorUnits {
        self.minor
    }

    /// The symbol (`€`, `¥`), or the code when it has no well-known one.
    pub fn symbol(self) -> &'static str {
        codes::currency_symbol(self.code).unwrap_or(self.code)
    }

    /// `amount` with exactly this currency's decimals (`"1500"`, `"12.50"`, `"12.500"`):
    /// how the API writes every amount of a document.
    pub fn figure(self, amount: Money) -> String {
        amount.in_minor_units(self.minor)
    }

    /// The document currency: the one asked for, else the client's, else the company's,
    /// else `EUR` (API.md §18). The defaults are codes as stored; one that is not a
    /// document currency is passed over.
    pub fn default_for(client: Option<&str>, company: Option<&str>) -> Currency {
        client
            .and_then(Currency::from_code)
            .or_else(|| company.and_then(Currency::from_code))
            .unwrap_or(Currency::EUR)
    }
}

impl Default for Currency {
    fn default() -> Self {
        Currency::EUR
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)
    }
}

impl Serialize for Currency {
    /// Serialised as its code (`"JPY"`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code)
    }
}

/// Reads a document currency (`bill_currency`): a code of [`Currency::from_code`], else
/// "The selected bill currency is invalid.".
pub fn read_document_currency(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<Currency> {
    let found = match value {
        RawValue::Text(s) => Currency::from_code(s.trim()),
        _ => None,
    };
    if found.is_none() {
        errors.add(field, message::invalid(field));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_currency_knows_its_minor_unit_and_symbol() {
        let jpy = Currency::from_code("JPY").unwrap();
        assert_eq!((jpy.minor_units(), jpy.symbol()), (MinorUnits::ZERO, "¥"));
        let kwd = Currency::from_code("KWD").unwrap();
        assert_eq!(
            (kwd.minor_units(), kwd.symbol()),
            (MinorUnits::THREE, "KWD")
        );
        assert_eq!(Currency::from_code("EUR"), Some(Currency::EUR));
        assert_eq!(Currency::EUR.symbol(), "€");
    }

    #[test]
    fn codes_without_a_supported_minor_unit_are_not_document_currencies() {
        for code in ["XAU", "XXX", "CLF", "eur", "EURO", ""] {
            assert_eq!(Currency::from_code(code), None, "{code}");
        }
    }

    #[test]
    fn figures_have_exactly_the_currency_decimals() {
        let m = |s: &str| s.parse::<Money>().unwrap();
        assert_eq!(
            Currency::from_code("JPY").unwrap().figure(m("1500")),
            "1500"
        );
        assert_eq!(
            Currency::from_code("KWD").unwrap().figure(m("12.5")),
            "12.500"
        );
        assert_eq!(Currency::EUR.figure(m("12.5")), "12.50");
    }

    #[test]
    fn the_default_is_the_client_s_then_the_company_s_then_eur() {
        let code = |c: Currency| c.code();
        assert_eq!(code(Currency::default_for(Some("JPY"), Some("KWD"))), "JPY");
        assert_eq!(code(Currency::default_for(None, Some("KWD"))), "KWD");
        assert_eq!(code(Currency::default_for(Some("XAU"), Some("USD"))), "USD");
        assert_eq!(code(Currency::default_for(None, None)), "EUR");
    }

    #[test]
    fn an_unknown_bill_currency_is_named() {
        let mut errors = FieldErrors::new();
        assert_eq!(
            read_document_currency("bill_currency", &RawValue::text("ZZZ"), &mut errors),
            None
        );
        assert_eq!(
            errors.get("bill_currency"),
            Some(&["The selected bill currency is invalid.".to_owned()][..])
        );
    }
}
