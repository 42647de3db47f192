//! Estimates: the record, status rules ([`status`]), line items ([`items`], shared with
//! invoices), the client email ([`email`]) and the list query. The header commands are
//! [`crate::bill::header`]'s, for the estimate kind.
//!
//! Totals are never sent by clients: the store recomputes them with
//! [`crate::totals::compute`] (policy `CrmParity` in the service) on every header or item
//! write, from [`totals_input`].

pub mod email;
pub mod items;
pub mod status;

use chrono::NaiveDate;
use serde::Serialize;

use crate::choice_enum;
use crate::ids::{
    CategoryId, ClientId, EstimateId, InvoiceId, LineItemId, Named, ProjectId, TaxRateId,
};
use crate::money::{Money, Percent, Quantity, UnitRate};
use crate::time::Timestamp;
use crate::totals::{DiscountKind, Line, LineDiscount, TaxMode, Totals, TotalsInput};

pub use crate::bill::header::{
    self, EstimateClone, EstimateUpdate, NewEstimate, ResolvedHeader, TotalsHeader,
};
pub use items::{ItemInput, ItemsRequest, LineItems};
pub use status::{ShownStatus, StatusChange, StoredStatus};

choice_enum!(
    /// Sort keys of the estimate list.
    pub enum EstimateSort {
        /// By estimate date.
        Date = "bill_date",
        /// By expiry date.
        ExpiryDate = "bill_expiry_date",
        /// By final amount.
        FinalAmount = "bill_final_amount",
        /// By creation time.
        Created = "bill_created",
    }
);

/// The `totals` object of an estimate or invoice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BillTotals {
    /// Sum of line totals.
    pub subtotal: Money,
    /// Before the header (summary) or line (inline) discounts.
    pub subtotal_before_discount: Money,
    /// Header discount kind.
    pub discount_type: DiscountKind,
    /// Header discount percentage.
    pub discount_percentage: Percent,
    /// Discount amount.
    pub discount_amount: Money,
    /// Amount taxes apply to.
    pub amount_before_tax: Money,
    /// Sum of the summary tax rates.
    pub tax_total_percentage: Percent,
    /// Total tax.
    pub tax_total_amount: Money,
    /// Adjustment label.
    pub adjustment_description: Option<String>,
    /// Adjustment amount.
    pub adjustment_amount: Money,
    /// What the client pays.
    pub final_amount: Money,
}

impl BillTotals {
    /// The API object from computed totals and the adjustment label.
    pub fn new(t: Totals, adjustment_description: Option<String>) -> Self {
        BillTotals {
            subtotal: t.subtotal,
            subtotal_before_discount: t.subtotal_before_discount,
            discount_type: t.discount_type,
            discount_percentage: t.discount_percentage,
            discount_amount: t.discount_amount,
            amount_before_tax: t.amount_before_tax,
            tax_total_percentage: t.tax_total_percentage,
            tax_total_amount: t.tax_total_amount,
            adjustment_description,
            adjustment_amount: t.adjustment_amount,
            final_amount: t.final_amount,
        }
    }
}

/// A line item's discount as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineDiscountView {
    /// `none`, `fixed` or `percentage`.
    #[serde(rename = "type")]
    pub kind: DiscountKind,
    /// The amount or percentage given.
    pub value: Money,
    /// The stored discount amount.
    pub amount: Money,
}

/// A line item of an estimate or invoice, as shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineItem {
    /// Line id.
    pub id: LineItemId,
    /// 1-based position.
    pub position: i32,
    /// Description.
    pub description: String,
    /// Long description.
    pub long_description: Option<String>,
    /// Unit.
    pub unit: Option<String>,
    /// Quantity.
    pub quantity: Quantity,
    /// Unit rate.
    pub rate: UnitRate,
    /// Line total.
    pub total: Money,
    /// Always `plain`.
    #[serde(rename = "type")]
    pub line_type: &'static str,
    /// Always `taxable`.
    pub tax_status: &'static str,
    /// The line's tax rate (inline mode).
    pub tax_rate_id: Option<TaxRateId>,
    /// The line's discount.
    pub discount: LineDiscountView,
}

/// A tax record of an estimate or invoice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TaxRecord {
    /// The rate's name when applied.
    pub name: String,
    /// The rate when applied.
    pub rate: Percent,
    /// The tax rate it came from.
    pub tax_rate_id: Option<TaxRateId>,
    /// The line it applies to (inline), or `null` (summary).
    pub lineitem_id: Option<LineItemId>,
}

/// An estimate's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EstimateDates {
    /// Estimate date.
    pub date: NaiveDate,
    /// Expiry date.
    pub expiry_date: Option<NaiveDate>,
    /// Creation time.
    pub created: Timestamp,
}

/// Whether and into what the estimate was converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Converted {
    /// True once converted.
    pub is_converted: bool,
    /// The invoice created.
    pub invoice_id: Option<InvoiceId>,
}

/// An estimate as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Estimate {
    /// Estimate id.
    pub id: EstimateId,
    /// The shown status.
    pub status: ShownStatus,
    /// The client.
    pub client: Named<ClientId>,
    /// The project.
    pub project_id: Option<ProjectId>,
    /// The category.
    pub category: Named<CategoryId>,
    /// Dates.
    pub dates: EstimateDates,
    /// Notes.
    pub notes: Option<String>,
    /// Terms.
    pub terms: Option<String>,
    /// Summary or inline.
    pub tax_type: TaxMode,
    /// Computed totals.
    pub totals: BillTotals,
    /// Conversion state.
    pub converted: Converted,
    /// Line items, in order.
    pub line_items: Vec<LineItem>,
    /// Tax records.
    pub taxes: Vec<TaxRecord>,
    /// Tag titles.
    pub tags: Vec<String>,
}

/// `GET /estimates`: filters `status` (the shown status), `client_id`, `project_id`,
/// `category_id`; search on the client name, notes and terms (an integer also the id).
pub type EstimateListQuery = crate::bill::BillListQuery<EstimateSort, ShownStatus>;

impl crate::bill::BillSort for EstimateSort {
    const LIST: &'static str = "estimates";

    fn key_kind(sort: Option<Self>) -> crate::listing::KeyKind {
        use crate::listing::KeyKind;
        match sort {
            None | Some(EstimateSort::Created) => KeyKind::Integer,
            Some(EstimateSort::Date | EstimateSort::ExpiryDate) => KeyKind::Date,
            Some(EstimateSort::FinalAmount) => KeyKind::Decimal,
        }
    }
}

/// A stored line as the calculator needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredLine {
    /// Quantity.
    pub quantity: Quantity,
    /// Unit rate.
    pub rate: UnitRate,
    /// Inline discount.
    pub discount: LineDiscount,
    /// Inline tax rate's percentage.
    pub tax_rate: Option<Percent>,
}

/// The calculator input for an estimate's header, lines and summary tax rates.
pub fn totals_input(
    header: &TotalsHeader,
    lines: &[StoredLine],
    summary_rates: &[Percent],
) -> TotalsInput {
    TotalsInput {
        tax_mode: header.tax_type,
        lines: lines
            .iter()
            .map(|l| Line {
                quantity: l.quantity,
                rate: l.rate,
                discount: l.discount,
                tax_rate: l.tax_rate,
            })
            .collect(),
        tax_rates: summary_rates.to_vec(),
        discount: header.discount,
        adjustment: header.adjustment,
    }
}

impl LineDiscountView {
    /// The shown discount of a line from its stored discount and amount.
    pub fn new(discount: LineDiscount, amount: Money) -> Self {
        let (kind, value) = match discount {
            LineDiscount::None => (DiscountKind::None, Money::ZERO),
            LineDiscount::Fixed(m) => (DiscountKind::Fixed, m),
            LineDiscount::Percentage(p) => (
                DiscountKind::Percentage,
                Money::new(p.get()).unwrap_or(Money::ZERO),
            ),
        };
        LineDiscountView {
            kind,
            value,
            amount,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::raw;

    #[test]
    fn the_list_status_filter_takes_shown_statuses_including_expired() {
        let q = EstimateListQuery::parse(&raw(&[
            ("status", "expired"),
            ("sort", "bill_final_amount"),
        ]))
        .unwrap();
        assert_eq!(q.status, Some(ShownStatus::Expired));
        assert_eq!(q.params.sort, Some(EstimateSort::FinalAmount));
        let r =
            EstimateListQuery::parse(&raw(&[("status", "paid"), ("project_id", "x")])).unwrap_err();
        assert_eq!(
            r.errors.get("status"),
            Some(&["The selected status is invalid.".to_owned()][..])
        );
        assert_eq!(
            r.errors.get("project_id"),
            Some(&["The project id must be an integer.".to_owned()][..])
        );
    }

    #[test]
    fn an_integer_search_also_matches_the_id() {
        let q = EstimateListQuery::parse(&raw(&[("search", "42")])).unwrap();
        assert_eq!(q.search_id(), Some(42));
        let q = EstimateListQuery::parse(&raw(&[("search", "4x")])).unwrap();
        assert_eq!(q.search_id(), None);
    }

    #[test]
    fn a_line_discount_shows_its_kind_value_and_amount() {
        let view = LineDiscountView::new(
            LineDiscount::Percentage("12.5".parse().unwrap()),
            "2.50".parse().unwrap(),
        );
        assert_eq!(
            serde_json::to_value(view).unwrap(),
            serde_json::json!({"type": "percentage", "value": "12.50", "amount": "2.50"})
        );
        let none = LineDiscountView::new(LineDiscount::None, Money::ZERO);
        assert_eq!(
            serde_json::to_value(none).unwrap(),
            serde_json::json!({"type": "none", "value": "0.00", "amount": "0.00"})
        );
    }
}
