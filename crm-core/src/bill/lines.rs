//! The parts of a bill as shown: its `totals` object, its line items and its tax records,
//! and the calculator input built from what is stored.

use serde::Serialize;

use crate::ids::{LineItemId, TaxRateId};
use crate::money::{Money, Percent, Quantity, UnitRate};
use crate::totals::{DiscountKind, Line, LineDiscount, Totals, TotalsInput};

use super::header::TotalsHeader;

/// The `totals` object of an estimate or invoice: the calculator's [`Totals`] and the
/// adjustment's label, which is given, not computed. It serialises as one flat object, in
/// the order the API has always shown (`adjustment_description` before
/// `adjustment_amount`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillTotals {
    /// The computed figures.
    pub figures: Totals,
    /// Adjustment label.
    pub adjustment_description: Option<String>,
}

impl Serialize for BillTotals {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let t = &self.figures;
        let mut s = serializer.serialize_struct("BillTotals", 11)?;
        s.serialize_field("subtotal", &t.subtotal)?;
        s.serialize_field("subtotal_before_discount", &t.subtotal_before_discount)?;
        s.serialize_field("discount_type", &t.discount_type)?;
        s.serialize_field("discount_percentage", &t.discount_percentage)?;
        s.serialize_field("discount_amount", &t.discount_amount)?;
        s.serialize_field("amount_before_tax", &t.amount_before_tax)?;
        s.serialize_field("tax_total_percentage", &t.tax_total_percentage)?;
        s.serialize_field("tax_total_amount", &t.tax_total_amount)?;
        s.serialize_field("adjustment_description", &self.adjustment_description)?;
        s.serialize_field("adjustment_amount", &t.adjustment_amount)?;
        s.serialize_field("final_amount", &t.final_amount)?;
        s.end()
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
        minor_units: crate::money::MinorUnits::TWO,
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
