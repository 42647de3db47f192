//! The one formatter of amounts on what a person reads (API.md §18: pages, PDFs and emails
//! show the currency, symbol and code): the API's figure (exactly the currency's decimals,
//! [`Currency::figure`]) with the symbol before it and the code after, `€1234.50 EUR`,
//! `¥1500 JPY`, `-€25.00 EUR`; a currency without a well-known symbol shows its code once,
//! `12.500 KWD`. The figure itself is never regrouped or rounded again, so the digits a
//! person reads are the digits the API returns.

use crm_core::currency::Currency;
use crm_core::money::Money;

/// `amount` in `currency` as documents write it.
pub fn amount(currency: Currency, amount: Money) -> String {
    figure(currency, &currency.figure(amount))
}

/// An API figure of `currency` (`"-25.00"`) as documents write it (`-€25.00 EUR`).
pub fn figure(currency: Currency, figure: &str) -> String {
    let (sign, digits) = match figure.strip_prefix('-') {
        Some(digits) => ("-", digits),
        None => ("", figure),
    };
    let code = currency.code();
    let symbol = currency.symbol();
    if symbol == code {
        format!("{sign}{digits} {code}")
    } else {
        format!("{sign}{symbol}{digits} {code}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money(text: &str) -> Money {
        text.parse().unwrap()
    }

    #[test]
    fn an_amount_has_its_symbol_before_and_its_code_after() {
        let c = |code: &str| Currency::from_code(code).unwrap();
        assert_eq!(amount(Currency::EUR, money("1234.5")), "€1234.50 EUR");
        assert_eq!(amount(c("JPY"), money("1500")), "¥1500 JPY");
        assert_eq!(amount(c("KWD"), money("12.5")), "12.500 KWD");
        assert_eq!(amount(Currency::EUR, money("-25")), "-€25.00 EUR");
        assert_eq!(amount(c("KWD"), money("-0.125")), "-0.125 KWD");
        assert_eq!(amount(c("USD"), money("0")), "$0.00 USD");
    }

    #[test]
    fn a_figure_keeps_the_api_digits() {
        assert_eq!(figure(Currency::EUR, "2077.90"), "€2077.90 EUR");
    }
}
