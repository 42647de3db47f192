//! The company (`/api/company`, API.md §17): the seller on every document. One record,
//! read and changed, never created or deleted. What is stored is a [`CompanySettings`];
//! what the API shows is a [`Company`], with the defaults of what was never set (the
//! trading name is `--company-name`, the currency `EUR`).

use serde::Serialize;

use crate::input::{Form, Patch, RawMap, TextRule, text};
use crate::numbering::{NumberFormats, NumberFormatsPatch, StoredFormats};
use crate::party::{
    Address, AddressPatch, Bank, BankPatch, Peppol, PeppolPatch, read_currency, read_email,
    read_time_zone, read_vat_id,
};
use crate::reminder::ReminderSteps;
use crate::time::Timestamp;
use crate::validation::Rejected;

/// The currency of a company that never set one.
pub const DEFAULT_CURRENCY: &str = "EUR";

/// The company's stored settings: each `None` was never set (or was cleared).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanySettings {
    /// The registered legal name.
    pub legal_name: Option<String>,
    /// The name it trades under.
    pub trading_name: Option<String>,
    /// Its address.
    pub address: Address,
    /// Its VAT identifier, with the country prefix.
    pub vat_id: Option<String>,
    /// Another tax registration (a German Steuernummer).
    pub tax_id: Option<String>,
    /// The commercial register and number.
    pub registration: Option<String>,
    /// The seller's contact point (EN 16931 BT-41).
    pub contact_name: Option<String>,
    /// Contact email.
    pub email: Option<String>,
    /// Contact phone.
    pub phone: Option<String>,
    /// Website.
    pub website: Option<String>,
    /// The bank account invoices name.
    pub bank: Bank,
    /// The Peppol endpoint.
    pub peppol: Peppol,
    /// The default currency of new documents (ISO 4217).
    pub currency: Option<String>,
    /// The company's time zone (IANA); `None`: the server's.
    pub timezone: Option<String>,
    /// Payment terms shown on invoices.
    pub payment_terms: Option<String>,
    /// The number formats set (API.md §18).
    pub number_formats: StoredFormats,
    /// The payment reminders' steps (API.md §20; empty: none).
    pub reminders: ReminderSteps,
}

/// The company as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Company {
    /// The registered legal name.
    pub legal_name: Option<String>,
    /// The trading name: the stored one, else the service's `--company-name`.
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
    /// Website.
    pub website: Option<String>,
    /// Bank account.
    pub bank: Bank,
    /// Peppol endpoint.
    pub peppol: Peppol,
    /// Default currency (`EUR` when never set).
    pub currency: String,
    /// Time zone (`null`: the server's).
    pub timezone: Option<String>,
    /// Payment terms.
    pub payment_terms: Option<String>,
    /// Each numbered kind's number format (its default where none was set).
    pub number_formats: NumberFormats,
    /// The payment reminders' steps: days from the due date, in increasing order.
    pub reminders: ReminderSteps,
    /// When the settings last changed.
    pub dates: CompanyDates,
}

impl Company {
    /// The seller an issued document names: the company as it is now.
    pub fn seller(&self) -> crate::party::Seller {
        crate::party::Seller {
            legal_name: self.legal_name.clone(),
            trading_name: self.trading_name.clone(),
            address: self.address.clone(),
            vat_id: self.vat_id.clone(),
            tax_id: self.tax_id.clone(),
            registration: self.registration.clone(),
            contact_name: self.contact_name.clone(),
            email: self.email.clone(),
            phone: self.phone.clone(),
            bank: self.bank.clone(),
            peppol: self.peppol.clone(),
            payment_terms: self.payment_terms.clone(),
        }
    }
}

/// The company's `dates`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CompanyDates {
    /// When the settings last changed.
    pub updated: Timestamp,
}

impl Company {
    /// What the API shows of `settings`, with `fallback_name` as the trading name when none
    /// was set.
    pub fn shown(settings: CompanySettings, fallback_name: &str, updated: Timestamp) -> Company {
        Company {
            legal_name: settings.legal_name,
            trading_name: settings
                .trading_name
                .unwrap_or_else(|| fallback_name.to_owned()),
            address: settings.address,
            vat_id: settings.vat_id,
            tax_id: settings.tax_id,
            registration: settings.registration,
            contact_name: settings.contact_name,
            email: settings.email,
            phone: settings.phone,
            website: settings.website,
            bank: settings.bank,
            peppol: settings.peppol,
            currency: settings
                .currency
                .unwrap_or_else(|| DEFAULT_CURRENCY.to_owned()),
            timezone: settings.timezone,
            payment_terms: settings.payment_terms,
            number_formats: NumberFormats::shown(&settings.number_formats),
            reminders: settings.reminders,
            dates: CompanyDates { updated },
        }
    }
}

/// `PATCH /company`: every field optional; absent keeps, empty or `null` clears, a value
/// sets (a group changes the members sent).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanyUpdate {
    legal_name: Patch<String>,
    trading_name: Patch<String>,
    address: AddressPatch,
    vat_id: Patch<String>,
    tax_id: Patch<String>,
    registration: Patch<String>,
    contact_name: Patch<String>,
    email: Patch<String>,
    phone: Patch<String>,
    website: Patch<String>,
    bank: BankPatch,
    peppol: PeppolPatch,
    currency: Patch<String>,
    timezone: Patch<String>,
    payment_terms: Patch<String>,
    number_formats: NumberFormatsPatch,
    reminders: Option<ReminderSteps>,
}

impl CompanyUpdate {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let update = CompanyUpdate {
            legal_name: form.patch("legal_name", text(TextRule::TITLE)),
            trading_name: form.patch("trading_name", text(TextRule::TITLE)),
            address: AddressPatch::read(&mut form),
            vat_id: form.patch("vat_id", read_vat_id),
            tax_id: form.patch("tax_id", text(TextRule::LABEL)),
            registration: form.patch("registration", text(TextRule::SHORT)),
            contact_name: form.patch("contact_name", text(TextRule::TITLE)),
            email: form.patch("email", read_email),
            phone: form.patch("phone", text(TextRule::LABEL)),
            website: form.patch("website", text(TextRule::SHORT)),
            bank: BankPatch::read(&mut form),
            peppol: PeppolPatch::read(&mut form),
            currency: form.patch("currency", read_currency),
            timezone: form.patch("timezone", read_time_zone),
            payment_terms: form.patch("payment_terms", text(TextRule::LONG)),
            number_formats: NumberFormatsPatch::read(&mut form),
            reminders: ReminderSteps::read(&mut form),
        };
        form.finish()?;
        Ok(update)
    }

    /// The settings after this update.
    pub fn apply(&self, s: CompanySettings) -> CompanySettings {
        CompanySettings {
            legal_name: self.legal_name.apply_ref(s.legal_name),
            trading_name: self.trading_name.apply_ref(s.trading_name),
            address: self.address.apply(s.address),
            vat_id: self.vat_id.apply_ref(s.vat_id),
            tax_id: self.tax_id.apply_ref(s.tax_id),
            registration: self.registration.apply_ref(s.registration),
            contact_name: self.contact_name.apply_ref(s.contact_name),
            email: self.email.apply_ref(s.email),
            phone: self.phone.apply_ref(s.phone),
            website: self.website.apply_ref(s.website),
            bank: self.bank.apply(s.bank),
            peppol: self.peppol.apply(s.peppol),
            currency: self.currency.apply_ref(s.currency),
            timezone: self.timezone.apply_ref(s.timezone),
            payment_terms: self.payment_terms.apply_ref(s.payment_terms),
            number_formats: self.number_formats.apply(s.number_formats),
            reminders: self.reminders.clone().unwrap_or(s.reminders),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawValue;
    use crate::input::test_input::{msg, raw, raw_values};

    #[test]
    fn a_patch_changes_only_what_was_sent_and_null_clears() {
        let before = CompanySettings {
            legal_name: Some("Acme GmbH".into()),
            vat_id: Some("DE123456789".into()),
            ..CompanySettings::default()
        };
        let u = CompanyUpdate::parse(&raw_values(&[
            ("trading_name", RawValue::text("Acme")),
            ("vat_id", RawValue::Null),
            ("currency", RawValue::text("CHF")),
        ]))
        .unwrap();
        let after = u.apply(before);
        assert_eq!(after.legal_name.as_deref(), Some("Acme GmbH"));
        assert_eq!(after.trading_name.as_deref(), Some("Acme"));
        assert_eq!(after.vat_id, None);
        assert_eq!(after.currency.as_deref(), Some("CHF"));
    }

    #[test]
    fn every_bad_field_is_reported() {
        let r = CompanyUpdate::parse(&raw(&[
            ("vat_id", "123456789"),
            ("currency", "EURO"),
            ("timezone", "Europe/Atlantis"),
            ("email", "nobody"),
            ("legal_name", "<b>Acme</b>"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "vat_id"),
            ["The vat id must be a valid VAT identifier with its country prefix."]
        );
        assert_eq!(
            msg(&r.errors, "currency"),
            ["The selected currency is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "timezone"),
            ["The selected timezone is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "email"),
            ["The email must be a valid email address."]
        );
        assert_eq!(
            msg(&r.errors, "legal_name"),
            ["The legal name must not contain any HTML."]
        );
    }

    #[test]
    fn the_shown_company_has_its_defaults() {
        let shown = Company::shown(
            CompanySettings::default(),
            "CRM",
            Timestamp(chrono::DateTime::UNIX_EPOCH),
        );
        assert_eq!(
            (shown.trading_name.as_str(), shown.currency.as_str()),
            ("CRM", "EUR")
        );
        assert_eq!(shown.timezone, None);
    }
}
