//! The request bodies of the typed operations, sent as JSON: their ids, dates, amounts and
//! choices are crm-core's types, so that a client id cannot go where a category id is
//! expected and an amount is decimal text, never a float. A field left `None` is not sent.

use crm_core::category::CategoryType;
use crm_core::ids::{CategoryId, ClientId, InvoiceId, TaxRateId};
use crm_core::money::{Money, Percent, Quantity, UnitRate};
use crm_core::party::Address;
use crm_core::time::NaiveDate;
use serde::Serialize;

/// `PATCH /api/company`: only the fields given change.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CompanyUpdate {
    /// The registered name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_name: Option<String>,
    /// The name it trades under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trading_name: Option<String>,
    /// Its address (each line given changes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<Address>,
    /// Its VAT identifier (`GB123456789`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vat_id: Option<String>,
    /// Its currency (ISO 4217), the default of new documents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

/// `POST /api/clients`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct NewClient {
    /// The client's name.
    pub company_name: String,
    /// Where its documents are emailed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_email: Option<String>,
    /// Its billing address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<Address>,
    /// Its VAT identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vat_id: Option<String>,
}

/// `POST /api/tax-rates`.
#[derive(Debug, Clone, Serialize)]
pub struct NewTaxRate {
    /// Its name (`VAT 20%`).
    pub name: String,
    /// The percentage.
    pub rate: Percent,
}

/// `POST /api/categories`.
#[derive(Debug, Clone, Serialize)]
pub struct NewCategory {
    /// Its name, unique within its type.
    pub category_name: String,
    /// The kind of records it groups.
    pub category_type: CategoryType,
}

/// `POST /api/estimates` (and `/api/invoices`): a draft for a client in a category.
#[derive(Debug, Clone, Serialize)]
pub struct NewBill {
    /// The client.
    pub bill_clientid: ClientId,
    /// A category of the document's type.
    pub bill_categoryid: CategoryId,
    /// The document's date.
    pub bill_date: NaiveDate,
    /// An estimate's expiry date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bill_expiry_date: Option<NaiveDate>,
}

/// One line of [`Items`].
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    /// What it is.
    pub description: String,
    /// Its unit (`hours`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// How many.
    pub quantity: Quantity,
    /// The price of one.
    pub rate: UnitRate,
}

/// `PUT /api/{estimates,invoices}/{id}/items`: every line, in order, and the summary taxes.
#[derive(Debug, Clone, Serialize)]
pub struct Items {
    /// The lines (at least one).
    pub items: Vec<Item>,
    /// The tax rates applied to the whole document (summary mode).
    pub tax_rate_ids: Vec<TaxRateId>,
}

/// `POST /api/payments`.
#[derive(Debug, Clone, Serialize)]
pub struct NewPayment {
    /// The invoice it pays.
    pub payment_invoiceid: InvoiceId,
    /// The amount received, in the invoice's currency.
    pub payment_amount: Money,
    /// The day it was received.
    pub payment_date: NaiveDate,
    /// How it was paid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_method: Option<String>,
}

/// `POST /api/notes` and `PATCH /api/notes/{id}`.
#[derive(Debug, Clone, Serialize)]
pub struct NewNote {
    /// Its title.
    pub note_title: String,
    /// Its text.
    pub note_description: String,
}

impl NewNote {
    /// A note with this title and text.
    pub fn new(title: impl Into<String>, description: impl Into<String>) -> NewNote {
        NewNote {
            note_title: title.into(),
            note_description: description.into(),
        }
    }
}
