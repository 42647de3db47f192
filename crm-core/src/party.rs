//! What identifies a party to a document (API.md §17): the company that sells and the
//! clients that buy share an [`Address`], a VAT identifier and a Peppol endpoint; the
//! company also has its [`Bank`]. The readers of the coded values (a country, a currency,
//! an IBAN, …) and the PATCH of a group (`address[city]=…` changes the city alone, `address`
//! sent empty clears every line) are here, in [`read`].

pub mod read;

use serde::{Deserialize, Serialize};

use crate::input::{Form, Patch, Presence, RawMap, TextRule, text};
use crate::validation::message;

pub use read::{
    read_bic, read_country, read_currency, read_email, read_iban, read_peppol_scheme,
    read_time_zone, read_vat_id, read_vatex,
};

/// A postal address; every line may be absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Address {
    /// First line (street and number).
    pub line1: Option<String>,
    /// Second line.
    pub line2: Option<String>,
    /// City.
    pub city: Option<String>,
    /// Postal code.
    pub postcode: Option<String>,
    /// Region, state or province.
    pub region: Option<String>,
    /// ISO 3166-1 alpha-2 country code.
    pub country: Option<String>,
}

/// A Peppol endpoint: an ISO 6523 scheme (`0208`, `9930`) and the id within it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Peppol {
    /// The scheme code (four digits).
    pub scheme: Option<String>,
    /// The identifier within the scheme.
    pub id: Option<String>,
}

/// The company's bank account, shown on invoices.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bank {
    /// The IBAN, without spaces (checked by its mod-97 digits).
    pub iban: Option<String>,
    /// The BIC (8 or 11 characters).
    pub bic: Option<String>,
    /// The account holder's name.
    pub account_name: Option<String>,
}

/// The seller as an issued document names it (API.md §18): the company's identity and how
/// it is paid, as they were when the document was issued ([`Parties`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seller {
    /// The registered legal name.
    pub legal_name: Option<String>,
    /// The trading name (the service's `--company-name` when the company set none).
    pub trading_name: String,
    /// Its address.
    pub address: Address,
    /// VAT identifier.
    pub vat_id: Option<String>,
    /// Another tax registration.
    pub tax_id: Option<String>,
    /// Register and number.
    pub registration: Option<String>,
    /// Contact point.
    pub contact_name: Option<String>,
    /// Contact email.
    pub email: Option<String>,
    /// Contact phone.
    pub phone: Option<String>,
    /// Bank account.
    pub bank: Bank,
    /// Peppol endpoint.
    pub peppol: Peppol,
    /// Payment terms.
    pub payment_terms: Option<String>,
}

/// The buyer as an issued document names it: the client's identity when the document was
/// issued.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Buyer {
    /// Name.
    pub company_name: String,
    /// Who is addressed.
    pub contact_name: Option<String>,
    /// Billing address.
    pub address: Address,
    /// VAT identifier.
    pub vat_id: Option<String>,
    /// Peppol endpoint.
    pub peppol: Peppol,
    /// Buyer reference (EN 16931 BT-10).
    pub buyer_reference: Option<String>,
}

/// Who an issued document is from and to, kept with it when it is issued (API.md §18: an
/// issued invoice is never changed, its parties included): a later change of the company's
/// settings or of the client's record does not change what it states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parties {
    /// The seller.
    pub seller: Seller,
    /// The buyer.
    pub buyer: Buyer,
}

/// A PATCH of an [`Address`]: each line on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressPatch {
    /// `address[line1]`.
    pub line1: Patch<String>,
    /// `address[line2]`.
    pub line2: Patch<String>,
    /// `address[city]`.
    pub city: Patch<String>,
    /// `address[postcode]`.
    pub postcode: Patch<String>,
    /// `address[region]`.
    pub region: Patch<String>,
    /// `address[country]`.
    pub country: Patch<String>,
}

/// A PATCH of a [`Peppol`] endpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PeppolPatch {
    /// `peppol[scheme]`.
    pub scheme: Patch<String>,
    /// `peppol[id]`.
    pub id: Patch<String>,
}

/// A PATCH of a [`Bank`] account.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BankPatch {
    /// `bank[iban]`.
    pub iban: Patch<String>,
    /// `bank[bic]`.
    pub bic: Patch<String>,
    /// `bank[account_name]`.
    pub account_name: Patch<String>,
}

impl AddressPatch {
    /// Reads `address` from a request ([`group`]).
    pub fn read(form: &mut Form<'_>) -> AddressPatch {
        let mut out = AddressPatch::default();
        group(form, "address", |sub, cleared| {
            if cleared {
                out = AddressPatch::cleared();
                return;
            }
            out.line1 = sub.patch("line1", text(TextRule::SHORT));
            out.line2 = sub.patch("line2", text(TextRule::SHORT));
            out.city = sub.patch("city", text(TextRule::SHORT));
            out.postcode = sub.patch("postcode", text(TextRule::LABEL));
            out.region = sub.patch("region", text(TextRule::SHORT));
            out.country = sub.patch("country", read_country);
        });
        out
    }

    fn cleared() -> AddressPatch {
        AddressPatch {
            line1: Patch::Clear,
            line2: Patch::Clear,
            city: Patch::Clear,
            postcode: Patch::Clear,
            region: Patch::Clear,
            country: Patch::Clear,
        }
    }

    /// The address after this patch.
    pub fn apply(&self, a: Address) -> Address {
        Address {
            line1: self.line1.apply_ref(a.line1),
            line2: self.line2.apply_ref(a.line2),
            city: self.city.apply_ref(a.city),
            postcode: self.postcode.apply_ref(a.postcode),
            region: self.region.apply_ref(a.region),
            country: self.country.apply_ref(a.country),
        }
    }
}

impl PeppolPatch {
    /// Reads `peppol` from a request ([`group`]).
    pub fn read(form: &mut Form<'_>) -> PeppolPatch {
        let mut out = PeppolPatch::default();
        group(form, "peppol", |sub, cleared| {
            if cleared {
                out = PeppolPatch {
                    scheme: Patch::Clear,
                    id: Patch::Clear,
                };
                return;
            }
            out.scheme = sub.patch("scheme", read_peppol_scheme);
            out.id = sub.patch("id", text(TextRule::SHORT));
        });
        out
    }

    /// The endpoint after this patch.
    pub fn apply(&self, p: Peppol) -> Peppol {
        Peppol {
            scheme: self.scheme.apply_ref(p.scheme),
            id: self.id.apply_ref(p.id),
        }
    }
}

impl BankPatch {
    /// Reads `bank` from a request ([`group`]).
    pub fn read(form: &mut Form<'_>) -> BankPatch {
        let mut out = BankPatch::default();
        group(form, "bank", |sub, cleared| {
            if cleared {
                out = BankPatch {
                    iban: Patch::Clear,
                    bic: Patch::Clear,
                    account_name: Patch::Clear,
                };
                return;
            }
            out.iban = sub.patch("iban", read_iban);
            out.bic = sub.patch("bic", read_bic);
            out.account_name = sub.patch("account_name", text(TextRule::TITLE));
        });
        out
    }

    /// The account after this patch.
    pub fn apply(&self, b: Bank) -> Bank {
        Bank {
            iban: self.iban.apply_ref(b.iban),
            bic: self.bic.apply_ref(b.bic),
            account_name: self.account_name.apply_ref(b.account_name),
        }
    }
}

/// Reads the group `key` of a request (`address[city]=…`, or `{"address": {"city": …}}`):
/// `read` gets a reader over its members (reported as `address.city`) and `false`, or an
/// empty reader and `true` when the group was sent empty (`null`, `""`), which clears it.
/// A group sent as anything but an object is "The address must be an array." (Laravel's
/// word for a keyed group); not sent, `read` is not called.
pub fn group(form: &mut Form<'_>, key: &str, read: impl FnOnce(&mut Form<'_>, bool)) {
    let empty = RawMap::new();
    match form.presence(key) {
        Presence::Absent => {}
        Presence::Empty => read(&mut Form::new(&empty), true),
        Presence::Value(crate::input::RawValue::Map(members)) => {
            let prefix = format!("{}.", form.field(key));
            let mut sub = Form::with_prefix(members, &prefix);
            read(&mut sub, false);
            form.absorb(sub);
        }
        Presence::Value(_) => {
            let field = form.field(key);
            form.error_at(&field, message::array(&field));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawValue;
    use crate::input::test_input::{msg, raw_values};

    fn map(pairs: &[(&str, &str)]) -> RawValue {
        RawValue::Map(
            pairs
                .iter()
                .map(|(k, v)| (*k, RawValue::text(*v)))
                .collect(),
        )
    }

    #[test]
    fn a_group_changes_only_the_members_sent_and_empty_clears_it() {
        let raw = raw_values(&[("address", map(&[("city", "Berlin"), ("country", "DE")]))]);
        let mut form = Form::new(&raw);
        let patch = AddressPatch::read(&mut form);
        assert!(form.finish().is_ok());
        let before = Address {
            line1: Some("Hauptstr. 1".into()),
            city: Some("Bonn".into()),
            ..Address::default()
        };
        let after = patch.apply(before);
        assert_eq!(after.line1.as_deref(), Some("Hauptstr. 1"));
        assert_eq!(after.city.as_deref(), Some("Berlin"));
        assert_eq!(after.country.as_deref(), Some("DE"));

        let raw = raw_values(&[("address", RawValue::Null)]);
        let patch = AddressPatch::read(&mut Form::new(&raw));
        assert_eq!(patch.apply(after), Address::default());
    }

    #[test]
    fn a_group_that_is_not_an_object_and_bad_members_are_reported_by_their_path() {
        let raw = raw_values(&[
            ("address", RawValue::text("Berlin")),
            ("bank", map(&[("iban", "DE89370400440532013001")])),
        ]);
        let mut form = Form::new(&raw);
        AddressPatch::read(&mut form);
        BankPatch::read(&mut form);
        let r = form.finish().unwrap_err();
        assert_eq!(msg(&r.errors, "address"), ["The address must be an array."]);
        assert_eq!(
            msg(&r.errors, "bank.iban"),
            ["The bank.iban must be a valid IBAN."]
        );
    }
}
