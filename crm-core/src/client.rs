//! Clients (`/api/clients`, API.md §17): the buyers of estimates and invoices. The record,
//! one command for create and PATCH ([`ClientInput`]: a create is a PATCH of nothing with
//! the name required), and the list query.
//!
//! A client with estimates, invoices, contracts or projects cannot be deleted
//! ([`Conflict::ClientHasRecords`](crate::conflict::Conflict::ClientHasRecords)): it is
//! suspended instead.

use serde::{Deserialize, Serialize};

use crate::category::CategoryType;
use crate::choice_enum;
use crate::ids::{CategoryId, ClientId, UserId};
use crate::input::{Form, Patch, RawMap, TextRule, read_choice, read_id, text};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::party::{
    Address, AddressPatch, Peppol, PeppolPatch, read_country, read_currency, read_email,
    read_vat_id,
};
use crate::time::RecordDates;
use crate::validation::{RefKind, References, Rejected, message};

choice_enum!(
    /// Whether a client is served.
    pub enum ClientStatus {
        /// Active (the default).
        Active = "active",
        /// Suspended: kept with its records, not deleted.
        Suspended = "suspended",
    }
);

choice_enum!(
    /// Sort keys of the client list.
    pub enum ClientSort {
        /// By name (case-insensitive).
        Name = "company_name",
        /// By creation time.
        Created = "client_created",
    }
);

/// What a client holds, as stored (every optional field may be absent).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientFields {
    /// The client's name.
    pub company_name: String,
    /// Who to address.
    pub contact_name: Option<String>,
    /// Where documents go.
    pub contact_email: Option<String>,
    /// Billing address.
    pub address: Address,
    /// VAT identifier with its country prefix.
    pub vat_id: Option<String>,
    /// Peppol endpoint.
    pub peppol: Peppol,
    /// The buyer's reference (EN 16931 BT-10: a Leitweg-ID).
    pub buyer_reference: Option<String>,
    /// Default currency of its documents (`None`: the company's).
    pub currency: Option<String>,
    /// A client category; `None` on create means the system default one.
    pub category: Option<i64>,
    /// Active or suspended.
    pub status: Option<ClientStatus>,
}

/// A client as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Client {
    /// Client id.
    pub id: ClientId,
    /// Name.
    pub company_name: String,
    /// Contact name.
    pub contact_name: Option<String>,
    /// Contact email (where documents go).
    pub contact_email: Option<String>,
    /// Billing address.
    pub address: Address,
    /// VAT identifier.
    pub vat_id: Option<String>,
    /// Peppol endpoint.
    pub peppol: Peppol,
    /// Buyer reference (BT-10).
    pub buyer_reference: Option<String>,
    /// Default currency of its documents (`null`: the company's).
    pub currency: Option<String>,
    /// Its category.
    pub category_id: CategoryId,
    /// `active` or `suspended`.
    pub status: ClientStatus,
    /// Who created it (`null` for the migration's and the seed's).
    pub creator_id: Option<UserId>,
    /// Creation and update times.
    pub dates: RecordDates,
}

impl Client {
    /// The buyer an issued document names: the client as it is now.
    pub fn buyer(&self) -> crate::party::Buyer {
        crate::party::Buyer {
            company_name: self.company_name.clone(),
            contact_name: self.contact_name.clone(),
            address: self.address.clone(),
            vat_id: self.vat_id.clone(),
            peppol: self.peppol.clone(),
            buyer_reference: self.buyer_reference.clone(),
        }
    }

    /// The stored fields of this client (what a PATCH starts from).
    pub fn fields(&self) -> ClientFields {
        ClientFields {
            company_name: self.company_name.clone(),
            contact_name: self.contact_name.clone(),
            contact_email: self.contact_email.clone(),
            address: self.address.clone(),
            vat_id: self.vat_id.clone(),
            peppol: self.peppol.clone(),
            buyer_reference: self.buyer_reference.clone(),
            currency: self.currency.clone(),
            category: Some(self.category_id.get()),
            status: Some(self.status),
        }
    }
}

/// `POST /clients` and `PATCH /clients/{id}`: the fields sent. On create the name is
/// required; on PATCH an absent field is kept, one sent empty or `null` is cleared (the
/// name, the category and the status cannot be cleared: "field is required").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientInput {
    company_name: Option<String>,
    contact_name: Patch<String>,
    contact_email: Patch<String>,
    address: AddressPatch,
    vat_id: Patch<String>,
    peppol: PeppolPatch,
    buyer_reference: Patch<String>,
    currency: Patch<String>,
    category: Option<i64>,
    status: Option<ClientStatus>,
    references: References,
}

impl ClientInput {
    /// Reads a create (`creating`: the name is required) or a PATCH.
    pub fn parse(raw: &RawMap, creating: bool) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let company_name = required_unless_absent(&mut form, "company_name", creating);
        let contact_name = form.patch("contact_name", text(TextRule::TITLE));
        let contact_email = form.patch("contact_email", read_email);
        let address = AddressPatch::read(&mut form);
        let vat_id = form.patch("vat_id", read_vat_id);
        let peppol = PeppolPatch::read(&mut form);
        let buyer_reference = form.patch("buyer_reference", text(TextRule::SHORT));
        let currency = form.patch("currency", read_currency);
        let category = kept_unless_cleared(&mut form, "category_id", read_id);
        if let Some(id) = category {
            form.reference("category_id", RefKind::Category(CategoryType::Client), id);
        }
        let status = kept_unless_cleared(&mut form, "status", read_choice::<ClientStatus>);
        let references = form.finish()?;
        Ok(ClientInput {
            company_name,
            contact_name,
            contact_email,
            address,
            vat_id,
            peppol,
            buyer_reference,
            currency,
            category,
            status,
            references,
        })
    }

    /// The references to check (the category).
    pub fn references(&self) -> &References {
        &self.references
    }

    /// The client's fields after this input, from `current` (a new client's are the
    /// defaults).
    pub fn apply(&self, current: ClientFields) -> ClientFields {
        ClientFields {
            company_name: self.company_name.clone().unwrap_or(current.company_name),
            contact_name: self.contact_name.apply_ref(current.contact_name),
            contact_email: self.contact_email.apply_ref(current.contact_email),
            address: self.address.apply(current.address),
            vat_id: self.vat_id.apply_ref(current.vat_id),
            peppol: self.peppol.apply(current.peppol),
            buyer_reference: self.buyer_reference.apply_ref(current.buyer_reference),
            currency: self.currency.apply_ref(current.currency),
            category: self.category.or(current.category),
            status: self.status.or(current.status),
        }
    }
}

/// A text that a create requires and a PATCH may leave out, but not clear.
pub(crate) fn required_unless_absent(
    form: &mut Form<'_>,
    key: &str,
    creating: bool,
) -> Option<String> {
    if creating {
        form.required(key, text(TextRule::TITLE))
    } else {
        kept_unless_cleared(form, key, text(TextRule::TITLE))
    }
}

/// A field that may be left out but not cleared: absent → `None`, sent empty → "field is
/// required".
pub(crate) fn kept_unless_cleared<T>(
    form: &mut Form<'_>,
    key: &str,
    read: impl FnOnce(&str, &crate::input::RawValue, &mut crate::validation::FieldErrors) -> Option<T>,
) -> Option<T> {
    match form.presence(key) {
        crate::input::Presence::Absent => None,
        _ => form.required(key, read),
    }
}

/// `GET /clients`: paging, order, sort, search (name, contact name and email, VAT id),
/// and [`ClientFilters`].
pub type ClientListQuery = ListQuery<ClientFilters>;

/// The client list's filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientFilters {
    /// `status` filter.
    pub status: Option<ClientStatus>,
    /// `category_id` filter.
    pub category: Option<CategoryId>,
    /// `country` filter (the address's country code).
    pub country: Option<String>,
}

impl ListFilters for ClientFilters {
    const LIST: &'static str = "clients";
    type Sort = ClientSort;

    fn read(form: &mut Form<'_>) -> Self {
        ClientFilters {
            status: form.optional("status", read_choice::<ClientStatus>),
            category: form
                .optional("category_id", read_id)
                .and_then(CategoryId::new),
            country: form.optional("country", read_country),
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}|{}",
            self.status.map_or("", ClientStatus::as_str),
            self.category.map_or(0, CategoryId::get),
            self.country.as_deref().unwrap_or("")
        )
    }

    fn key_kind(sort: Option<ClientSort>) -> KeyKind {
        match sort {
            None | Some(ClientSort::Created) => KeyKind::Integer,
            Some(ClientSort::Name) => KeyKind::Text,
        }
    }
}

/// "The company name field is required." — what a PATCH that clears the name gets, for
/// tests and documents.
pub fn name_required() -> String {
    message::required("company_name")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawValue;
    use crate::input::test_input::{msg, raw, raw_values};

    #[test]
    fn a_client_needs_a_name_and_gets_checked_codes() {
        let r = ClientInput::parse(
            &raw(&[
                ("contact_email", "not-an-address"),
                ("vat_id", "123"),
                ("currency", "eur"),
                ("status", "gone"),
            ]),
            true,
        )
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "company_name"),
            ["The company name field is required."]
        );
        assert_eq!(
            msg(&r.errors, "contact_email"),
            ["The contact email must be a valid email address."]
        );
        assert_eq!(
            msg(&r.errors, "currency"),
            ["The selected currency is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "status"),
            ["The selected status is invalid."]
        );
        assert_eq!(r.errors.iter().count(), 5);
    }

    #[test]
    fn a_patch_keeps_what_is_absent_and_clears_what_is_null() {
        let input = ClientInput::parse(
            &raw_values(&[
                ("contact_name", RawValue::Null),
                ("vat_id", RawValue::text("de 123 456 789")),
            ]),
            false,
        )
        .unwrap();
        let before = ClientFields {
            company_name: "Acme".into(),
            contact_name: Some("Ann".into()),
            status: Some(ClientStatus::Active),
            ..ClientFields::default()
        };
        let after = input.apply(before);
        assert_eq!(after.company_name, "Acme");
        assert_eq!(after.contact_name, None);
        assert_eq!(after.vat_id.as_deref(), Some("DE123456789"));
        assert_eq!(after.status, Some(ClientStatus::Active));
        let r = ClientInput::parse(&raw(&[("company_name", "")]), false).unwrap_err();
        assert_eq!(msg(&r.errors, "company_name"), [name_required()]);
    }

    #[test]
    fn the_list_filters_a_country_by_its_code() {
        let q =
            ClientListQuery::parse(&raw(&[("country", "DE"), ("sort", "company_name")])).unwrap();
        assert_eq!(q.filters.country.as_deref(), Some("DE"));
        let r = ClientListQuery::parse(&raw(&[("country", "Germany")])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "country"),
            ["The selected country is invalid."]
        );
    }
}
