//! The parts of a bill as shown: its `totals` object, its line items and its tax records,
//! and the calculator input built from what is stored.

use serde::Serialize;
use serde::ser::SerializeMap;

use crate::currency::{Amount, Currency, Exchange};
use crate::ids::{LineItemId, TaxRateId};
use crate::money::{Money, Percent, Quantity, UnitRate};
use crate::totals::{DiscountKind, Line, LineDiscount, Totals, TotalsInput};

use super::header::TotalsHeader;

/// The `totals` object of an estimate or invoice: the calculator's [`Totals`] and the
/// adjustment's label, which is given, not computed, in the bill's currency. It serialises
/// as one flat object, in the order the API has always shown (`adjustment_description`
/// before `adjustment_amount`), every amount with exactly the currency's decimals
/// (`"1500"`, `"12.50"`, `"12.500"`), then the VAT total in the company's currency
/// (`company_currency`, `tax_total_in_company_currency`: EN 16931 BT-111, `null` without
/// an exchange rate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillTotals {
    /// The computed figures.
    pub figures: Totals,
    /// Adjustment label.
    pub adjustment_description: Option<String>,
    /// The bill's currency.
    pub currency: Currency,
    /// The exchange rate to the company's currency, when given.
    pub exchange: Option<Exchange>,
    /// What EN 16931 states of the bill, by VAT category and rate, when it states the
    /// bill's own figures ([`super::breakdown::tax_breakdown`]); `None` when it cannot.
    pub tax_breakdown: Option<Vec<super::breakdown::TaxBreakdown>>,
}

impl BillTotals {
    /// The VAT total in the company's currency (`tax_total_amount × rate`, rounded once to
    /// that currency's minor unit), when the bill has an exchange rate: the company's
    /// currency and the amount. `None` also for a product out of range (which a stored
    /// tax total and rate cannot make).
    pub fn tax_total_in_company_currency(&self) -> Option<(Currency, Money)> {
        let exchange = self.exchange?;
        let amount = exchange.convert(self.figures.tax_total_amount).ok()?;
        Some((exchange.to, amount))
    }

    /// Writes the members in order into an object being serialised (an invoice's totals
    /// add theirs after).
    pub fn write_members<M: SerializeMap>(&self, m: &mut M) -> Result<(), M::Error> {
        let t = &self.figures;
        let c = self.currency;
        m.serialize_entry("subtotal", &c.figure(t.subtotal))?;
        m.serialize_entry(
            "subtotal_before_discount",
            &c.figure(t.subtotal_before_discount),
        )?;
        m.serialize_entry("discount_type", &t.discount_type)?;
        m.serialize_entry("discount_percentage", &t.discount_percentage)?;
        m.serialize_entry("discount_amount", &c.figure(t.discount_amount))?;
        m.serialize_entry("amount_before_tax", &c.figure(t.amount_before_tax))?;
        m.serialize_entry("tax_total_percentage", &t.tax_total_percentage)?;
        m.serialize_entry("tax_total_amount", &c.figure(t.tax_total_amount))?;
        m.serialize_entry("adjustment_description", &self.adjustment_description)?;
        m.serialize_entry("adjustment_amount", &c.figure(t.adjustment_amount))?;
        m.serialize_entry("final_amount", &c.figure(t.final_amount))?;
        let converted = self.tax_total_in_company_currency();
        m.serialize_entry("company_currency", &converted.map(|(to, _)| to))?;
        m.serialize_entry(
            "tax_total_in_company_currency",
            &converted.map(|(to, amount)| to.figure(amount)),
        )?;
        m.serialize_entry(
            "tax_breakdown",
            &self.tax_breakdown.as_ref().map(|rows| {
                rows.iter()
                    .map(|r| BreakdownRow {
                        category: r.category.as_str(),
                        rate: r.rate,
                        base: c.figure(r.base),
                        amount: c.figure(r.amount),
                    })
                    .collect::<Vec<_>>()
            }),
        )?;
        Ok(())
    }
}

/// A row of `tax_breakdown` as written.
#[derive(Serialize)]
struct BreakdownRow {
    category: &'static str,
    rate: Percent,
    base: String,
    amount: String,
}

impl Serialize for BillTotals {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut m = serializer.serialize_map(Some(14))?;
        self.write_members(&mut m)?;
        m.end()
    }
}

/// A line item's discount as shown: a fixed value and every amount in the bill's currency,
/// a percentage with its two decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineDiscountView {
    /// `none`, `fixed` or `percentage`.
    pub kind: DiscountKind,
    /// The amount or percentage given.
    pub value: Money,
    /// The stored discount amount.
    pub amount: Money,
    /// The bill's currency.
    pub currency: Currency,
}

impl Serialize for LineDiscountView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = self.currency;
        let mut m = serializer.serialize_map(Some(3))?;
        m.serialize_entry("type", &self.kind)?;
        match self.kind {
            DiscountKind::Percentage => m.serialize_entry("value", &self.value)?,
            DiscountKind::None | DiscountKind::Fixed => {
                m.serialize_entry("value", &c.figure(self.value))?
            }
        }
        m.serialize_entry("amount", &c.figure(self.amount))?;
        m.end()
    }
}

/// A line item of an estimate or invoice, as shown (its amounts in the bill's currency).
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
    /// The unit's UN/ECE Rec 20 code, as the e-invoice states it (BT-130): read from
    /// `unit` ([`crate::units::unit_code`]).
    pub unit_code: &'static str,
    /// Quantity.
    pub quantity: Quantity,
    /// Unit rate.
    pub rate: UnitRate,
    /// Line total.
    pub total: Amount,
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
    /// The line it applies to (inline and VAT modes), or `null` (summary).
    pub lineitem_id: Option<LineItemId>,
    /// The tax rate's VAT category (EN 16931 BT-151), kept with the rate forever once a
    /// document uses it; `null` for a record whose rate was deleted.
    pub vat_category: Option<crate::tax_rate::VatCategory>,
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
    /// VAT mode: the line's tax rate with its id and category.
    pub vat: Option<crate::totals::vat::VatRate>,
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
                vat: l.vat,
            })
            .collect(),
        tax_rates: summary_rates.to_vec(),
        discount: header.discount,
        adjustment: header.adjustment,
        minor_units: header.currency.minor_units(),
    }
}

impl LineDiscountView {
    /// The shown discount of a line from its stored discount and amount, in `currency`.
    pub fn new(discount: LineDiscount, amount: Money, currency: Currency) -> Self {
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
            currency,
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
            Currency::EUR,
        );
        assert_eq!(
            serde_json::to_value(view).unwrap(),
            serde_json::json!({"type": "percentage", "value": "12.50", "amount": "2.50"})
        );
        let none = LineDiscountView::new(LineDiscount::None, Money::ZERO, Currency::EUR);
        assert_eq!(
            serde_json::to_value(none).unwrap(),
            serde_json::json!({"type": "none", "value": "0.00", "amount": "0.00"})
        );
        let kwd = Currency::from_code("KWD").unwrap();
        let fixed = LineDiscountView::new(
            LineDiscount::Fixed("1.25".parse().unwrap()),
            "1.25".parse().unwrap(),
            kwd,
        );
        assert_eq!(
            serde_json::to_value(fixed).unwrap(),
            serde_json::json!({"type": "fixed", "value": "1.250", "amount": "1.250"})
        );
        let jpy = Currency::from_code("JPY").unwrap();
        let percentage = LineDiscountView::new(
            LineDiscount::Percentage("10".parse().unwrap()),
            "150".parse().unwrap(),
            jpy,
        );
        assert_eq!(
            serde_json::to_value(percentage).unwrap(),
            serde_json::json!({"type": "percentage", "value": "10.00", "amount": "150"})
        );
    }

    #[test]
    fn totals_are_written_in_the_currency_with_the_vat_total_converted_once() {
        let jpy = Currency::from_code("JPY").unwrap();
        let figures = crate::totals::compute(
            &TotalsInput {
                lines: vec![Line {
                    quantity: "3".parse().unwrap(),
                    rate: "333.5".parse().unwrap(),
                    discount: LineDiscount::None,
                    tax_rate: None,
                    vat: None,
                }],
                tax_rates: vec!["10".parse().unwrap()],
                minor_units: jpy.minor_units(),
                ..TotalsInput::default()
            },
            crate::totals::Policy::ExactDecimal,
        )
        .unwrap()
        .totals;
        let totals = BillTotals {
            figures,
            adjustment_description: None,
            currency: jpy,
            exchange: Some(Exchange {
                rate: "0.0061".parse().unwrap(),
                to: Currency::EUR,
            }),
            tax_breakdown: None,
        };
        let json = serde_json::to_value(&totals).unwrap();
        // 3 × 333.5 = 1000.5 → 1001 yen; tax 100.1 → 100; 100 × 0.0061 = 0.61 EUR.
        assert_eq!(json["subtotal"], "1001");
        assert_eq!(json["tax_total_amount"], "100");
        assert_eq!(json["final_amount"], "1101");
        assert_eq!(json["tax_total_percentage"], "10.00");
        assert_eq!(json["company_currency"], "EUR");
        assert_eq!(json["tax_total_in_company_currency"], "0.61");
        let plain = BillTotals {
            exchange: None,
            ..totals
        };
        let json = serde_json::to_value(&plain).unwrap();
        assert!(
            json["company_currency"].is_null() && json["tax_total_in_company_currency"].is_null()
        );
    }
}
