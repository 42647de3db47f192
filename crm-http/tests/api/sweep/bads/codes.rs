//! Bad values of coded texts (API.md §17): a country, a currency, a time zone or a VATEX
//! code outside its list, and a VAT identifier, an IBAN, a BIC, an email address or a
//! Peppol scheme of the wrong form. Each kind has one message, also for a value that is
//! not text.

use serde_json::json;

use super::{Bads, text};
use crate::sweep::body::{ALL, JSON, raw};
use crate::sweep::msg;

/// A kind of coded text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// ISO 3166-1 alpha-2.
    Country,
    /// ISO 4217.
    Currency,
    /// ISO 4217, as a document's currency (API.md §18): also not a code without minor
    /// units (`XAU`) or with four (`CLF`).
    DocumentCurrency,
    /// An IANA time zone.
    Timezone,
    /// A VATEX code.
    Vatex,
    /// A VAT identifier with its country prefix.
    VatId,
    /// An IBAN.
    Iban,
    /// A BIC.
    Bic,
    /// An email address.
    Email,
    /// An ISO 6523 scheme code.
    PeppolScheme,
    /// A document number format (API.md §18).
    NumberFormat,
}

impl Code {
    /// The kind's one message for field `f`.
    pub fn message(self, f: &str) -> String {
        let attribute = f.replace('_', " ");
        match self {
            Code::Country
            | Code::Currency
            | Code::DocumentCurrency
            | Code::Timezone
            | Code::Vatex => msg::invalid(f),
            Code::VatId => {
                format!("The {attribute} must be a valid VAT identifier with its country prefix.")
            }
            Code::Iban => format!("The {attribute} must be a valid IBAN."),
            Code::Bic => format!("The {attribute} must be a valid BIC."),
            Code::Email => format!("The {attribute} must be a valid email address."),
            Code::PeppolScheme => msg::format(f),
            Code::NumberFormat => format!(
                "The {attribute} must contain one {{SEQ:n}} (n from 1 to 9), and only {{YYYY}}, \
                 {{YY}}, {{MM}}, letters, digits, spaces and - / . _ # besides, in at most 40 \
                 characters."
            ),
        }
    }

    /// Texts of the wrong form or outside the list.
    fn texts(self) -> Vec<String> {
        let words: &[&str] = match self {
            Code::Country => &["de", "DEU", "ZZ", "D", "Germany", "12"],
            Code::Currency => &["eur", "EURO", "ZZZ", "€", "12"],
            Code::DocumentCurrency => &["eur", "EURO", "ZZZ", "€", "12", "XAU", "XXX", "CLF"],
            Code::Timezone => &["Europe/Atlantis", "GMT+25", "../etc/passwd", "x"],
            Code::Vatex => &["VATEX-EU-ZZ", "vatex-eu-ae", "AE"],
            Code::VatId => &[
                "123456789",
                "QQ123456789",
                "DE1",
                "DE123-456",
                "DE1234567890123",
            ],
            Code::Iban => &[
                "DE88370400440532013000",
                "ZZ89370400440532013000",
                "DE89",
                "DE89-3704-0044-0532-0130-00",
            ],
            Code::Bic => &["COBAXXFF", "COBA", "12345678", "COBADEFFX"],
            Code::Email => &["nobody", "a@b", "@x.de", "a b@x.de", "a@@x.de"],
            Code::PeppolScheme => &["208", "02080", "abcd"],
            Code::NumberFormat => &[
                "INV",
                "{SEQ:2}{SEQ:2}",
                "{SEQ:0}",
                "{DD}{SEQ:3}",
                "INV-{SEQ:3}-0123456789012345678901234567890",
            ],
        };
        let mut out: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        out.push("<b>x</b>".to_owned());
        out.push("a\u{0}b".to_owned());
        if self == Code::Email {
            out.push(format!("{}@example.com", "a".repeat(250)));
        }
        out
    }
}

/// The bad values of a coded field.
pub(super) fn codes(b: &mut Bads<'_>, code: Code) {
    let message = code.message(b.f);
    for t in code.texts() {
        b.one(format!("{code:?} {t:?}"), text(&t), ALL, message.clone());
    }
    b.one("number", raw("12"), JSON, message.clone());
    b.one("70000 chars", json!("x".repeat(70_000)), ALL, message);
}
