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
use crate::money::{AmountError, ExchangeRate, MinorUnits, Money, MoneyInput};
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

    /// `input` as an amount of this currency, or `field`'s message when it has more
    /// decimals than the currency ("The bill adjustment amount may not have more than 0
    /// decimal places.").
    pub fn money(self, field: &str, input: MoneyInput, errors: &mut FieldErrors) -> Option<Money> {
        input
            .in_minor_units(self.minor)
            .map_err(|e| errors.add(field, amount_error(field, e)))
            .ok()
    }

    /// The same check for an amount already held (a stored one, when the currency changes).
    pub fn check_stored(self, field: &str, amount: Money, errors: &mut FieldErrors) {
        if !amount.fits(self.minor) {
            errors.add(field, message::max_decimals(field, self.minor.get()));
        }
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

/// An amount in a currency, as the API writes it: decimal text with exactly the
/// currency's decimals (`"1500"`, `"12.50"`); `Display` writes the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Amount {
    /// The amount.
    pub money: Money,
    /// Its currency.
    pub currency: Currency,
}

impl Amount {
    /// `money` in `currency`.
    pub fn new(money: Money, currency: Currency) -> Amount {
        Amount { money, currency }
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.currency.figure(self.money))
    }
}

impl Serialize for Amount {
    /// Serialised as its text ([`Currency::figure`]).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The message of an amount a currency refuses: too many decimals (the one refusal left
/// once the amount was read) or out of range.
fn amount_error(field: &str, error: AmountError) -> String {
    match error {
        AmountError::TooManyDecimals { max } => message::max_decimals(field, max),
        AmountError::NotANumber => message::numeric(field),
        AmountError::OutOfRange | AmountError::Negative | AmountError::NotPositive => {
            message::between(field, "-9999999999999.99", "9999999999999.99")
        }
    }
}

/// A caller-given exchange rate of a document in a foreign currency (API.md §18): one unit
/// of the document's currency is worth `rate` units of `to`, the company's currency when
/// the rate was set (kept with it, so that a later change of the company's currency does
/// not change what an issued document states).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Exchange {
    /// `bill_exchange_rate`.
    pub rate: ExchangeRate,
    /// The company's currency the rate converts to.
    pub to: Currency,
}

impl Exchange {
    /// `amount` in the company's currency: `amount × rate`, rounded once, half away from
    /// zero, to that currency's minor unit (EN 16931 BT-111 for the VAT total).
    pub fn convert(self, amount: Money) -> Result<Money, AmountError> {
        let product = amount
            .get()
            .checked_mul(self.rate.get())
            .ok_or(AmountError::OutOfRange)?;
        Money::round_to(product, self.to.minor)
    }
}

/// The 422 of an exchange rate on a document in the company's own currency.
pub fn same_currency_rate_error(field: &str, company: Currency) -> String {
    format!(
        "The {} is only allowed when the bill currency is not the company's currency ({}).",
        crate::validation::attribute(field),
        company.code()
    )
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
    fn an_amount_with_more_decimals_than_the_currency_is_named() {
        let jpy = Currency::from_code("JPY").unwrap();
        let mut errors = FieldErrors::new();
        let input = MoneyInput::parse("12.5").unwrap();
        assert_eq!(
            jpy.money("bill_adjustment_amount", input, &mut errors),
            None
        );
        assert_eq!(
            errors.get("bill_adjustment_amount"),
            Some(
                &[
                    "The bill adjustment amount may not have more than 0 decimal places."
                        .to_owned()
                ][..]
            )
        );
        let kwd = Currency::from_code("KWD").unwrap();
        let fils = MoneyInput::parse("12.125").unwrap();
        assert_eq!(
            kwd.money("x", fils, &mut errors).unwrap().get().to_string(),
            "12.125"
        );
        let mut errors = FieldErrors::new();
        Currency::EUR.check_stored(
            "items.0.discount_value",
            "1.5".parse().unwrap(),
            &mut errors,
        );
        assert!(errors.is_empty());
        jpy.check_stored(
            "items.0.discount_value",
            "1.5".parse().unwrap(),
            &mut errors,
        );
        assert_eq!(
            errors.get("items.0.discount_value"),
            Some(
                &[
                    "The items.0.discount value may not have more than 0 decimal places."
                        .to_owned()
                ][..]
            )
        );
    }

    #[test]
    fn the_vat_total_is_converted_once_to_the_company_currency_minor_unit() {
        let to_jpy = Exchange {
            rate: "160.55".parse().unwrap(),
            to: Currency::from_code("JPY").unwrap(),
        };
        // 19.99 × 160.55 = 3209.3945 → 3209 yen.
        let yen = to_jpy.convert("19.99".parse().unwrap()).unwrap();
        assert_eq!(to_jpy.to.figure(yen), "3209");
        let to_eur = Exchange {
            rate: "0.0061".parse().unwrap(),
            to: Currency::EUR,
        };
        // 1500 × 0.0061 = 9.15 exactly; 2459 × 0.0061 = 14.9999 → 15.00.
        assert_eq!(
            to_eur
                .convert("1500".parse().unwrap())
                .unwrap()
                .get()
                .to_string(),
            "9.15"
        );
        assert_eq!(
            to_eur
                .convert("2459".parse().unwrap())
                .unwrap()
                .get()
                .to_string(),
            "15.00"
        );
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
