//! Invoices, as created by converting an estimate (the invoice API itself is out of scope).
//!
//! A converted invoice is a `Draft` in the system-default invoice category, dated today and
//! due in [`DUE_DAYS`] days, with copies of the estimate's line items, taxes and totals.

use chrono::{Days, NaiveDate};
use serde::Serialize;

use crate::estimate::{BillTotals, LineItem, TaxRecord};
use crate::ids::{CategoryId, ClientId, EstimateId, InvoiceId, Named, ProjectId};
use crate::time::Timestamp;
use crate::totals::TaxMode;

/// Days between a converted invoice's date and its due date.
pub const DUE_DAYS: u64 = 30;

/// The due date of an invoice dated `date`.
pub fn due_date(date: NaiveDate) -> NaiveDate {
    date.checked_add_days(Days::new(DUE_DAYS))
        .unwrap_or(NaiveDate::MAX)
}

/// An invoice status (`invoicestatus_id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InvoiceStatus {
    /// 1: not yet sent.
    Draft,
    /// 2: sent, not yet due.
    Due,
    /// 3: past its due date.
    Overdue,
    /// 4: partly paid.
    PartPaid,
    /// 5: paid.
    Paid,
    /// 20: cancelled.
    Cancelled,
}

impl InvoiceStatus {
    /// The stored id.
    pub fn id(self) -> i16 {
        match self {
            InvoiceStatus::Draft => 1,
            InvoiceStatus::Due => 2,
            InvoiceStatus::Overdue => 3,
            InvoiceStatus::PartPaid => 4,
            InvoiceStatus::Paid => 5,
            InvoiceStatus::Cancelled => 20,
        }
    }

    /// The status with stored id `id`.
    pub fn from_id(id: i16) -> Option<Self> {
        [
            Self::Draft,
            Self::Due,
            Self::Overdue,
            Self::PartPaid,
            Self::Paid,
            Self::Cancelled,
        ]
        .into_iter()
        .find(|s| s.id() == id)
    }

    /// The display title.
    pub fn title(self) -> &'static str {
        match self {
            InvoiceStatus::Draft => "Draft",
            InvoiceStatus::Due => "Due",
            InvoiceStatus::Overdue => "Overdue",
            InvoiceStatus::PartPaid => "Part Paid",
            InvoiceStatus::Paid => "Paid",
            InvoiceStatus::Cancelled => "Cancelled",
        }
    }

    /// The display colour key.
    pub fn color(self) -> &'static str {
        match self {
            InvoiceStatus::Draft => "default",
            InvoiceStatus::Due => "warning",
            InvoiceStatus::Overdue => "danger",
            InvoiceStatus::PartPaid => "info",
            InvoiceStatus::Paid => "success",
            InvoiceStatus::Cancelled => "default",
        }
    }
}

impl Serialize for InvoiceStatus {
    /// `{"id": 1, "title": "Draft", "color": "default"}`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("InvoiceStatus", 3)?;
        s.serialize_field("id", &self.id())?;
        s.serialize_field("title", self.title())?;
        s.serialize_field("color", self.color())?;
        s.end()
    }
}

/// An invoice's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InvoiceDates {
    /// Invoice date.
    pub date: NaiveDate,
    /// Due date.
    pub due_date: Option<NaiveDate>,
    /// Creation time.
    pub created: Timestamp,
}

/// An invoice as the API shows it (`reference/invoices.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Invoice {
    /// Invoice id.
    pub id: InvoiceId,
    /// Status.
    pub status: InvoiceStatus,
    /// The client.
    pub client: Named<ClientId>,
    /// The project.
    pub project_id: Option<ProjectId>,
    /// The category.
    pub category: Named<CategoryId>,
    /// Dates.
    pub dates: InvoiceDates,
    /// Notes.
    pub notes: Option<String>,
    /// Terms.
    pub terms: Option<String>,
    /// Summary or inline.
    pub tax_type: TaxMode,
    /// Totals.
    pub totals: BillTotals,
    /// The estimate it was converted from.
    pub estimate_id: Option<EstimateId>,
    /// Line items.
    pub line_items: Vec<LineItem>,
    /// Tax records.
    pub taxes: Vec<TaxRecord>,
    /// Tag titles.
    pub tags: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_converted_invoice_is_due_thirty_days_after_its_date() {
        let d: NaiveDate = "2026-11-22".parse().unwrap();
        assert_eq!(due_date(d), "2026-12-22".parse::<NaiveDate>().unwrap());
    }

    #[test]
    fn invoice_statuses_show_id_title_and_colour() {
        let json = serde_json::to_value(InvoiceStatus::Draft).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"id": 1, "title": "Draft", "color": "default"})
        );
        assert_eq!(InvoiceStatus::from_id(20), Some(InvoiceStatus::Cancelled));
        assert_eq!(InvoiceStatus::from_id(6), None);
    }
}
