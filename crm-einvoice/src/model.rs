//! The EN 16931 semantic model of one document, by business term (BT-) and group (BG-).
//!
//! Only what the writers need and the records hold is here; every amount is already the
//! API's own figure (see [`crate::build()`]), so writing it is formatting, never arithmetic.

use chrono::NaiveDate;
use crm_core::currency::Currency;
use crm_core::money::{Money, Percent, Quantity, UnitRate};
use crm_core::tax_rate::VatCategory;

/// Invoice or credit note (BT-3, the document type code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    /// A commercial invoice (380).
    Invoice,
    /// A credit note (381).
    CreditNote,
}

impl DocumentKind {
    /// UNTDID 1001 code (BT-3).
    pub fn type_code(self) -> &'static str {
        match self {
            DocumentKind::Invoice => "380",
            DocumentKind::CreditNote => "381",
        }
    }
}

/// An EN 16931 document (the invoice's top level).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Invoice or credit note (BT-3).
    pub kind: DocumentKind,
    /// Its number (BT-1).
    pub number: String,
    /// Issue date (BT-2).
    pub issue_date: NaiveDate,
    /// Payment due date (BT-9).
    pub due_date: Option<NaiveDate>,
    /// Delivery information (BG-13), stated for intra-community supplies (BR-IC-11,
    /// BR-IC-12): the actual delivery date (BT-72) and the deliver-to address (BG-15): the
    /// buyer's.
    pub delivery: Option<(NaiveDate, Address)>,
    /// Document currency (BT-5).
    pub currency: Currency,
    /// The VAT accounting currency and the VAT total in it (BT-6, BT-111), when the
    /// document has an exchange rate.
    pub tax_currency: Option<(Currency, Money)>,
    /// Buyer reference (BT-10).
    pub buyer_reference: Option<String>,
    /// Invoice notes (BT-22): the document's notes, and a credit note's reason.
    pub notes: Vec<String>,
    /// The invoice a credit note corrects (BT-25, BT-26).
    pub preceding: Option<(String, Option<NaiveDate>)>,
    /// Seller (BG-4).
    pub seller: Party,
    /// Buyer (BG-7).
    pub buyer: Party,
    /// Payment instructions (BG-16), when the seller has an IBAN.
    pub payment: Option<Payment>,
    /// Payment terms (BT-20).
    pub payment_terms: Option<String>,
    /// Document-level allowances (BG-20), one per VAT group.
    pub allowances: Vec<Allowance>,
    /// Document totals (BG-22).
    pub totals: DocumentTotals,
    /// VAT breakdown (BG-23), one per (category, rate).
    pub vat_breakdown: Vec<VatBreakdown>,
    /// Lines (BG-25).
    pub lines: Vec<Line>,
}

/// A party: the seller (BG-4) or the buyer (BG-7).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Party {
    /// Name (BT-27 / BT-44).
    pub name: String,
    /// Trading name (BT-28 / BT-45), when it differs from the name.
    pub trading_name: Option<String>,
    /// Legal registration identifier (BT-30 / BT-47).
    pub registration: Option<String>,
    /// VAT identifier (BT-31 / BT-48).
    pub vat_id: Option<String>,
    /// Tax registration identifier (BT-32, seller only).
    pub tax_id: Option<String>,
    /// Electronic address and its scheme (BT-34 / BT-49).
    pub endpoint: Option<(String, String)>,
    /// Postal address (BG-5 / BG-8).
    pub address: Address,
    /// Contact (BG-6 / BG-9).
    pub contact: Contact,
}

/// A postal address (BG-5 / BG-8).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Address {
    /// Address line 1 (BT-35 / BT-50).
    pub line1: Option<String>,
    /// Address line 2 (BT-36 / BT-51).
    pub line2: Option<String>,
    /// City (BT-37 / BT-52).
    pub city: Option<String>,
    /// Post code (BT-38 / BT-53).
    pub postcode: Option<String>,
    /// Country subdivision (BT-39 / BT-54).
    pub region: Option<String>,
    /// ISO 3166-1 alpha-2 country code (BT-40 / BT-55).
    pub country: String,
}

/// A contact point (BG-6 / BG-9).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contact {
    /// Name (BT-41 / BT-56).
    pub name: Option<String>,
    /// Telephone (BT-42 / BT-57).
    pub phone: Option<String>,
    /// Email (BT-43 / BT-58).
    pub email: Option<String>,
}

impl Contact {
    /// Whether the contact has nothing to write.
    pub fn is_empty(&self) -> bool {
        self.name.is_none() && self.phone.is_none() && self.email.is_none()
    }
}

/// Payment instructions (BG-16): a SEPA credit transfer (UNTDID 4461 code 58).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    /// Payment means code (BT-81).
    pub means_code: &'static str,
    /// Remittance information (BT-83): the document's number.
    pub remittance: String,
    /// IBAN (BT-84).
    pub iban: String,
    /// Account name (BT-85).
    pub account_name: Option<String>,
    /// BIC (BT-86).
    pub bic: Option<String>,
}

/// A VAT category and rate, as lines, allowances and the breakdown state them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VatRateRef {
    /// The category (BT-151 / BT-95 / BT-118).
    pub category: VatCategory,
    /// The rate (BT-152 / BT-96 / BT-119); none for category O.
    pub rate: Option<Percent>,
}

/// A document-level allowance (BG-20).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowance {
    /// Amount (BT-92).
    pub amount: Money,
    /// Its VAT category and rate (BT-95, BT-96).
    pub vat: VatRateRef,
    /// Reason (BT-97).
    pub reason: String,
}

/// Document totals (BG-22).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentTotals {
    /// Σ line net amounts (BT-106).
    pub line_total: Money,
    /// Σ allowances on document level (BT-107).
    pub allowances: Money,
    /// Total without VAT (BT-109).
    pub without_vat: Money,
    /// Total VAT (BT-110).
    pub vat: Money,
    /// Total with VAT (BT-112).
    pub with_vat: Money,
    /// Rounding amount (BT-114).
    pub rounding: Money,
    /// Amount due for payment (BT-115).
    pub payable: Money,
}

/// One VAT breakdown (BG-23).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VatBreakdown {
    /// Taxable amount (BT-116).
    pub base: Money,
    /// VAT amount (BT-117).
    pub amount: Money,
    /// Category and rate (BT-118, BT-119).
    pub vat: VatRateRef,
    /// Exemption reason text (BT-120).
    pub exemption_reason: Option<String>,
    /// Exemption reason code, VATEX (BT-121).
    pub exemption_code: Option<String>,
}

/// One invoice line (BG-25).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Line identifier (BT-126): its position.
    pub id: String,
    /// Invoiced quantity (BT-129).
    pub quantity: Quantity,
    /// Unit of measure, UN/ECE Rec 20 (BT-130).
    pub unit_code: &'static str,
    /// Net amount (BT-131).
    pub net_amount: Money,
    /// The line's allowance (BG-27, BT-136), when it has one.
    pub allowance: Option<Money>,
    /// Item net price (BT-146).
    pub price: UnitRate,
    /// Item name (BT-153).
    pub name: String,
    /// Item description (BT-154).
    pub description: Option<String>,
    /// Its VAT category and rate (BT-151, BT-152).
    pub vat: VatRateRef,
}
