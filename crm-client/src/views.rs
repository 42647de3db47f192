//! The records whose crm-core type the service writes by hand and nothing reads back
//! (an estimate's and an invoice's totals and statuses, a payment's amount in its currency, a
//! category's `yes`/`no`): the fields a client uses, typed with crm-core's ids, amounts,
//! dates and choices. Members the service adds later are ignored, not refused.

use crm_core::category::CategoryType;
use crm_core::estimate::ShownStatus;
use crm_core::ids::{CategoryId, ClientId, EstimateId, InvoiceId, Named, PaymentId};
use crm_core::money::Money;
use crm_core::time::{NaiveDate, Timestamp};
use serde::Deserialize;

/// An invoice's shown status: `{"id": 2, "title": "Due", "color": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct InvoiceStatus {
    /// 1 Draft, 2 Due, 3 Overdue, 4 Paid, 5 Part Paid, 6 Cancelled.
    pub id: u8,
    /// `Draft`, `Due`, `Overdue`, `Paid`, `Part Paid`, `Cancelled`.
    pub title: String,
}

/// The totals of an estimate, computed by the service.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Totals {
    /// The lines' total after their discounts.
    pub subtotal: Money,
    /// The tax.
    pub tax_total_amount: Money,
    /// What the document asks for.
    pub final_amount: Money,
}

/// The totals of an invoice: an estimate's, with what was paid, credited and is due.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct InvoiceTotals {
    /// The lines' total after their discounts.
    pub subtotal: Money,
    /// The tax.
    pub tax_total_amount: Money,
    /// What the invoice asks for.
    pub final_amount: Money,
    /// What its payments paid.
    pub amount_paid: Money,
    /// What its credit notes took off.
    pub amount_credited: Money,
    /// What is left to pay.
    pub amount_due: Money,
}

/// The client's link of a published document.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ClientLink {
    /// The page the client opens without a key.
    pub url: String,
    /// When it stops working.
    pub expires: Timestamp,
}

/// Whether an estimate was converted, and to which invoice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Converted {
    /// True once converted.
    pub is_converted: bool,
    /// The invoice made from it.
    pub invoice_id: Option<InvoiceId>,
}

/// An estimate's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct EstimateDates {
    /// Its date.
    pub date: NaiveDate,
    /// When the offer expires.
    pub expiry_date: Option<NaiveDate>,
    /// When it was made.
    pub created: Timestamp,
}

/// An estimate ([`crm_core::estimate::Estimate`] as the service shows it).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Estimate {
    /// Its id.
    pub id: EstimateId,
    /// Its number, once published.
    pub number: Option<String>,
    /// `draft`, `new`, `accepted`, …
    pub status: ShownStatus,
    /// The client.
    pub client: Named<ClientId>,
    /// Its category.
    pub category: Named<CategoryId>,
    /// Its dates.
    pub dates: EstimateDates,
    /// Its currency (ISO 4217).
    pub currency: String,
    /// Its totals.
    pub totals: Totals,
    /// Its conversion.
    pub converted: Converted,
    /// The client's link, while it has one.
    pub client_link: Option<ClientLink>,
}

/// An invoice's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct InvoiceDates {
    /// Its date.
    pub date: NaiveDate,
    /// When it falls due.
    pub due_date: Option<NaiveDate>,
    /// When it was made.
    pub created: Timestamp,
    /// When it was issued (given its number).
    pub issued: Option<Timestamp>,
}

/// An invoice ([`crm_core::invoice::Invoice`] as the service shows it).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Invoice {
    /// Its id.
    pub id: InvoiceId,
    /// Its number (`INV-2026-00001`), once issued.
    pub number: Option<String>,
    /// Its shown status.
    pub status: InvoiceStatus,
    /// The client.
    pub client: Named<ClientId>,
    /// Its category.
    pub category: Named<CategoryId>,
    /// Its dates.
    pub dates: InvoiceDates,
    /// Its currency (ISO 4217).
    pub currency: String,
    /// Its totals, paid and due.
    pub totals: InvoiceTotals,
    /// The estimate it was converted from.
    pub estimate_id: Option<EstimateId>,
    /// The client's link, while it has one.
    pub client_link: Option<ClientLink>,
}

/// A payment ([`crm_core::payment::Payment`] as the service shows it).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Payment {
    /// Its id.
    pub id: PaymentId,
    /// The invoice it pays.
    pub invoice_id: InvoiceId,
    /// The invoice's client.
    pub client: Named<ClientId>,
    /// The amount, in the invoice's currency.
    pub amount: Money,
    /// That currency.
    pub currency: String,
    /// The day it was received.
    pub date: NaiveDate,
    /// How it was paid.
    pub method: Option<String>,
}

/// A category ([`crm_core::category::Category`] as the service shows it).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Category {
    /// Its id.
    pub id: CategoryId,
    /// Its name.
    pub name: String,
    /// The kind of records it groups.
    #[serde(rename = "type")]
    pub category_type: CategoryType,
    /// `<id>-<name as slug>`.
    pub slug: String,
}
