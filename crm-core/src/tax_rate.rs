//! Tax rates (`/api/tax-rates`, API.md §17): a rate, its EN 16931 VAT category and, for
//! the categories that need one, the reason the supply is exempt.
//!
//! The rules ([`TaxRateInput::apply`]): the category defaults to `S`, or `Z` for a 0.00
//! rate; `E`, `AE`, `K`, `G` and `O` need an exemption reason or a VATEX code and a 0.00
//! rate (EN 16931 BR-E-5/10, BR-AE-5/10, BR-IC-5/10, BR-G-5/10, BR-O-5/10), `Z` a 0.00
//! rate and `S` a rate above 0 (BR-Z-5, BR-S-5); `S`, `Z`, `L` and `M` take no exemption
//! (BR-S-10, BR-Z-10, BR-AF-10, BR-AG-10). A rate that a document uses keeps its rate and
//! category for good ([`changes_what_documents_use`]); the system "No Tax" rate keeps
//! them too and is never deleted.

use serde::{Deserialize, Serialize};

use crate::choice_enum;
use crate::ids::TaxRateId;
use crate::input::{Form, Patch, RawMap, TextRule, read_choice, read_percent_0_100, text};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::money::Percent;
use crate::party::read_vatex;
use crate::time::RecordDates;
use crate::validation::{FieldErrors, Rejected, attribute, message};

choice_enum!(
    /// The VAT category of EN 16931 (UNTDID 5305, the subset the standard allows).
    pub enum VatCategory {
        /// Standard rate.
        S = "S",
        /// Zero rated goods.
        Z = "Z",
        /// Exempt from tax.
        E = "E",
        /// VAT reverse charge.
        AE = "AE",
        /// Intra-community supply (VAT exempt for EEA intra-community supply).
        K = "K",
        /// Free export item, tax not charged.
        G = "G",
        /// Services outside the scope of tax.
        O = "O",
        /// Canary Islands general indirect tax (IGIC).
        L = "L",
        /// Tax for production, services and importation in Ceuta and Melilla (IPSI).
        M = "M",
    }
);

choice_enum!(
    /// Whether a tax rate may be put on documents.
    pub enum TaxRateStatus {
        /// It may (the default).
        Enabled = "enabled",
        /// It may not; documents that have it keep it.
        Disabled = "disabled",
    }
);

choice_enum!(
    /// Sort keys of the tax rate list.
    pub enum TaxRateSort {
        /// By name (case-insensitive).
        Name = "name",
        /// By rate.
        Rate = "rate",
        /// By creation time.
        Created = "tax_rate_created",
    }
);

impl VatCategory {
    /// Whether a supply of this category is exempt for a reason the document must state.
    pub fn needs_exemption(self) -> bool {
        match self {
            VatCategory::E | VatCategory::AE | VatCategory::K | VatCategory::G | VatCategory::O => {
                true
            }
            VatCategory::S | VatCategory::Z | VatCategory::L | VatCategory::M => false,
        }
    }

    /// What its rate must be: `Some(true)` above 0, `Some(false)` exactly 0, `None` any.
    fn rate_above_zero(self) -> Option<bool> {
        match self {
            VatCategory::S => Some(true),
            VatCategory::Z
            | VatCategory::E
            | VatCategory::AE
            | VatCategory::K
            | VatCategory::G
            | VatCategory::O => Some(false),
            VatCategory::L | VatCategory::M => None,
        }
    }

    /// The category of a new rate that names none: `Z` for 0.00, else `S`.
    pub fn default_for(rate: Percent) -> VatCategory {
        if rate == Percent::ZERO {
            VatCategory::Z
        } else {
            VatCategory::S
        }
    }
}

/// What a tax rate holds, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxRateFields {
    /// Its name.
    pub name: String,
    /// The percentage.
    pub rate: Percent,
    /// Enabled or disabled.
    pub status: TaxRateStatus,
    /// The VAT category.
    pub vat_category: VatCategory,
    /// Why the supply is exempt (EN 16931 BT-120).
    pub exemption_reason: Option<String>,
    /// The VATEX code of that reason (BT-121).
    pub exemption_code: Option<String>,
}

/// A tax rate as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaxRate {
    /// Tax rate id.
    pub id: TaxRateId,
    /// Name.
    pub name: String,
    /// Percentage, two decimals.
    pub rate: Percent,
    /// `enabled` or `disabled`.
    pub status: TaxRateStatus,
    /// EN 16931 VAT category.
    pub vat_category: VatCategory,
    /// Exemption reason text.
    pub exemption_reason: Option<String>,
    /// VATEX code.
    pub exemption_code: Option<String>,
    /// Whether it is the system "No Tax" rate.
    pub system: bool,
    /// Whether a document uses it (its rate and category are then fixed).
    pub in_use: bool,
    /// Creation and update times.
    pub dates: RecordDates,
}

impl TaxRate {
    /// The stored fields (what a PATCH starts from).
    pub fn fields(&self) -> TaxRateFields {
        TaxRateFields {
            name: self.name.clone(),
            rate: self.rate,
            status: self.status,
            vat_category: self.vat_category,
            exemption_reason: self.exemption_reason.clone(),
            exemption_code: self.exemption_code.clone(),
        }
    }
}

/// Whether going from `before` to `after` changes what documents that use the rate rely
/// on: the rate or the category.
pub fn changes_what_documents_use(before: &TaxRateFields, after: &TaxRateFields) -> bool {
    before.rate != after.rate || before.vat_category != after.vat_category
}

/// `POST /tax-rates` (name and rate required) and `PATCH /tax-rates/{id}` (the fields
/// sent; the exemption fields can be cleared).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxRateInput {
    name: Option<String>,
    rate: Option<Percent>,
    status: Option<TaxRateStatus>,
    vat_category: Option<VatCategory>,
    exemption_reason: Patch<String>,
    exemption_code: Patch<String>,
}

impl TaxRateInput {
    /// Reads a create (`creating`) or a PATCH; a create's fields are also checked together
    /// ([`TaxRateInput::fields_of_new`]).
    pub fn parse(raw: &RawMap, creating: bool) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let name = crate::client::required_unless_absent(&mut form, "name", creating);
        let rate = if creating {
            form.required("rate", read_percent_0_100)
        } else {
            crate::client::kept_unless_cleared(&mut form, "rate", read_percent_0_100)
        };
        let input = TaxRateInput {
            name,
            rate,
            status: crate::client::kept_unless_cleared(
                &mut form,
                "status",
                read_choice::<TaxRateStatus>,
            ),
            vat_category: crate::client::kept_unless_cleared(
                &mut form,
                "vat_category",
                read_choice::<VatCategory>,
            ),
            exemption_reason: form.patch("exemption_reason", text(TextRule::SHORT)),
            exemption_code: form.patch("exemption_code", read_vatex),
        };
        form.finish()?;
        if creating { input.create() } else { Ok(input) }
    }

    /// Checks a create's fields together (category, rate and exemption).
    fn create(self) -> Result<Self, Rejected> {
        match self.fields_of_new() {
            Ok(_) => Ok(self),
            Err(errors) => Err(Rejected {
                errors,
                references: Default::default(),
            }),
        }
    }

    /// The fields of a new rate made of this input.
    pub fn fields_of_new(&self) -> Result<TaxRateFields, FieldErrors> {
        let rate = self.rate.unwrap_or(Percent::ZERO);
        let start = TaxRateFields {
            name: String::new(),
            rate,
            status: TaxRateStatus::Enabled,
            vat_category: VatCategory::default_for(rate),
            exemption_reason: None,
            exemption_code: None,
        };
        self.apply(start)
    }

    /// The fields after this input, from `current`, checked together.
    pub fn apply(&self, current: TaxRateFields) -> Result<TaxRateFields, FieldErrors> {
        let after = TaxRateFields {
            name: self.name.clone().unwrap_or(current.name),
            rate: self.rate.unwrap_or(current.rate),
            status: self.status.unwrap_or(current.status),
            vat_category: self.vat_category.unwrap_or(current.vat_category),
            exemption_reason: self.exemption_reason.apply_ref(current.exemption_reason),
            exemption_code: self.exemption_code.apply_ref(current.exemption_code),
        };
        check(&after).into_result().map(|()| after)
    }
}

/// The errors of a rate whose category, rate and exemption do not go together.
pub fn check(f: &TaxRateFields) -> FieldErrors {
    let mut errors = FieldErrors::new();
    let category = f.vat_category.as_str();
    let exempt = f.exemption_reason.is_some() || f.exemption_code.is_some();
    if f.vat_category.needs_exemption() && !exempt {
        errors.add(
            "exemption_reason",
            message::required_if("exemption_reason", "vat_category", category),
        );
    }
    if !f.vat_category.needs_exemption() {
        for (field, value) in [
            ("exemption_reason", &f.exemption_reason),
            ("exemption_code", &f.exemption_code),
        ] {
            if value.is_some() {
                errors.add(
                    field,
                    message::prohibited_if(field, "vat_category", category),
                );
            }
        }
    }
    match f.vat_category.rate_above_zero() {
        Some(true) if f.rate == Percent::ZERO => errors.add(
            "rate",
            format!(
                "The {} must be greater than 0 when vat category is {category}.",
                attribute("rate")
            ),
        ),
        Some(false) if f.rate != Percent::ZERO => errors.add(
            "rate",
            format!(
                "The {} must be 0 when vat category is {category}.",
                attribute("rate")
            ),
        ),
        _ => {}
    }
    errors
}

/// `GET /tax-rates`: paging, order, sort, search (name), and [`TaxRateFilters`].
pub type TaxRateListQuery = ListQuery<TaxRateFilters>;

/// The tax rate list's filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxRateFilters {
    /// `status` filter.
    pub status: Option<TaxRateStatus>,
    /// `vat_category` filter.
    pub vat_category: Option<VatCategory>,
}

impl ListFilters for TaxRateFilters {
    const LIST: &'static str = "tax-rates";
    type Sort = TaxRateSort;

    fn read(form: &mut Form<'_>) -> Self {
        TaxRateFilters {
            status: form.optional("status", read_choice::<TaxRateStatus>),
            vat_category: form.optional("vat_category", read_choice::<VatCategory>),
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}",
            self.status.map_or("", TaxRateStatus::as_str),
            self.vat_category.map_or("", VatCategory::as_str)
        )
    }

    fn key_kind(sort: Option<TaxRateSort>) -> KeyKind {
        match sort {
            None | Some(TaxRateSort::Created) => KeyKind::Integer,
            Some(TaxRateSort::Name) => KeyKind::Text,
            Some(TaxRateSort::Rate) => KeyKind::Decimal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw};

    #[test]
    fn the_category_defaults_by_the_rate() {
        let i = TaxRateInput::parse(&raw(&[("name", "VAT"), ("rate", "19")]), true).unwrap();
        assert_eq!(i.fields_of_new().unwrap().vat_category, VatCategory::S);
        let i = TaxRateInput::parse(&raw(&[("name", "Zero"), ("rate", "0")]), true).unwrap();
        assert_eq!(i.fields_of_new().unwrap().vat_category, VatCategory::Z);
    }

    #[test]
    fn an_exempt_category_needs_its_reason_and_a_zero_rate() {
        let r = TaxRateInput::parse(
            &raw(&[("name", "Reverse"), ("rate", "19"), ("vat_category", "AE")]),
            true,
        )
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "exemption_reason"),
            ["The exemption reason field is required when vat category is AE."]
        );
        assert_eq!(
            msg(&r.errors, "rate"),
            ["The rate must be 0 when vat category is AE."]
        );
        let ok = TaxRateInput::parse(
            &raw(&[
                ("name", "Reverse"),
                ("rate", "0"),
                ("vat_category", "AE"),
                ("exemption_code", "VATEX-EU-AE"),
            ]),
            true,
        );
        assert!(ok.is_ok());
    }

    #[test]
    fn a_standard_rate_takes_no_exemption_and_is_above_zero() {
        let r = TaxRateInput::parse(
            &raw(&[
                ("name", "VAT"),
                ("rate", "0"),
                ("vat_category", "S"),
                ("exemption_reason", "No"),
                ("exemption_code", "VATEX-EU-ZZ"),
            ]),
            true,
        )
        .unwrap_err();
        // Fields are judged together once each of them parsed: the unknown code first.
        assert_eq!(
            msg(&r.errors, "exemption_code"),
            ["The selected exemption code is invalid."]
        );
        let fields = TaxRateFields {
            name: "VAT".into(),
            rate: Percent::ZERO,
            status: TaxRateStatus::Enabled,
            vat_category: VatCategory::S,
            exemption_reason: Some("No".into()),
            exemption_code: None,
        };
        let e = check(&fields);
        assert_eq!(
            msg(&e, "exemption_reason"),
            ["The exemption reason field is prohibited when vat category is S."]
        );
        assert_eq!(
            msg(&e, "rate"),
            ["The rate must be greater than 0 when vat category is S."]
        );
    }

    #[test]
    fn a_rate_in_use_keeps_its_rate_and_category() {
        let before = TaxRateFields {
            name: "VAT".into(),
            rate: Percent::parse("19").unwrap(),
            status: TaxRateStatus::Enabled,
            vat_category: VatCategory::S,
            exemption_reason: None,
            exemption_code: None,
        };
        let rename = TaxRateInput::parse(&raw(&[("name", "USt")]), false).unwrap();
        assert!(!changes_what_documents_use(
            &before,
            &rename.apply(before.clone()).unwrap()
        ));
        let again = TaxRateInput::parse(&raw(&[("rate", "19.00")]), false).unwrap();
        assert!(!changes_what_documents_use(
            &before,
            &again.apply(before.clone()).unwrap()
        ));
        let change = TaxRateInput::parse(&raw(&[("rate", "7")]), false).unwrap();
        assert!(changes_what_documents_use(
            &before,
            &change.apply(before.clone()).unwrap()
        ));
    }
}
