//! What estimates and invoices share when read: line items and tax records (aggregated as
//! JSON by [`lines_json!`] and [`taxes_json!`], numbers as text) and the totals columns.

use chrono::NaiveDate;
use crm_core::bill::breakdown::tax_breakdown;
use crm_core::bill::{BillTotals, LineDiscountView, LineItem, TaxRecord};
use crm_core::currency::{Amount, Currency, Exchange};
use crm_core::ids::{CategoryId, ClientId, LineItemId, Named, ProjectId, TaxRateId};
use crm_core::input::Choice;
use crm_core::money::{AmountError, Money, Percent, Quantity, UnitRate};
use crm_core::tax_rate::VatCategory;
use crm_core::time::Timestamp;
use crm_core::totals::{DiscountKind, LineDiscount, TaxMode, Totals};
use rust_decimal::Decimal;
use serde::Deserialize;
use tokio_postgres::Row;
use tokio_postgres::types::Json;

use crate::error::StoreError;
use crate::error::corrupt;
use crate::rows;

/// Every line item's `type` (the only one the schema allows).
const LINE_TYPE: &str = "plain";
/// Every line item's `tax_status` (the only one the schema allows).
const TAX_STATUS: &str = "taxable";

/// One element of [`lines_json!`].
#[derive(Deserialize)]
struct LineJson {
    id: i64,
    position: i32,
    description: String,
    long_description: Option<String>,
    unit: Option<String>,
    quantity: String,
    rate: String,
    total: String,
    discount_type: String,
    discount_value: String,
    discount_amount: String,
    tax_rate_id: Option<i64>,
}

/// One element of [`taxes_json!`].
#[derive(Deserialize)]
struct TaxJson {
    name: String,
    rate: String,
    tax_rate_id: Option<i64>,
    lineitem_id: Option<i64>,
    vat_category: Option<String>,
}

/// The fields every kind of bill shows, from a [`records_sql!`] row.
pub(crate) struct Common {
    /// The record's id.
    pub id: i64,
    /// The client.
    pub client: Named<ClientId>,
    /// The project.
    pub project_id: Option<ProjectId>,
    /// The category.
    pub category: Named<CategoryId>,
    /// The bill's date.
    pub date: NaiveDate,
    /// Creation time.
    pub created: Timestamp,
    /// Notes.
    pub notes: Option<String>,
    /// Terms.
    pub terms: Option<String>,
    /// Summary or inline.
    pub tax_type: TaxMode,
    /// The document's currency.
    pub currency: Currency,
    /// Its exchange rate to the company's currency, when given.
    pub exchange: Option<Exchange>,
    /// Totals.
    pub totals: BillTotals,
    /// Line items, in order.
    pub line_items: Vec<LineItem>,
    /// Tax records.
    pub taxes: Vec<TaxRecord>,
    /// Tag titles.
    pub tags: Vec<String>,
}

/// The fields every kind of bill shows.
pub(crate) fn common(row: &Row) -> Result<Common, StoreError> {
    let currency = rows::currency(row, "currency")?;
    let tax_type = rows::choice(row, "tax_type")?;
    let line_items = line_items(row, "lines", currency)?;
    let taxes = taxes(row, "taxes")?;
    Ok(Common {
        id: rows::get(row, "id")?,
        client: Named {
            id: rows::id(row, "client_id", ClientId::new)?,
            name: rows::get(row, "client_name")?,
        },
        project_id: rows::opt_id(row, "project_id", ProjectId::new)?,
        category: Named {
            id: rows::id(row, "category_id", CategoryId::new)?,
            name: rows::get(row, "category_name")?,
        },
        date: rows::get(row, "date")?,
        created: rows::timestamp(row, "created_at")?,
        notes: rows::get(row, "notes")?,
        terms: rows::get(row, "terms")?,
        tax_type,
        currency,
        exchange: rows::exchange(row)?,
        totals: with_breakdown(totals(row)?, tax_type, &line_items, &taxes),
        line_items,
        taxes,
        tags: rows::get(row, "tags")?,
    })
}

/// The line items in `column` (a [`lines_json!`] expression), of a bill in `currency`.
pub(crate) fn line_items(
    row: &Row,
    column: &str,
    currency: Currency,
) -> Result<Vec<LineItem>, StoreError> {
    let Json(lines): Json<Vec<LineJson>> = rows::get(row, column)?;
    lines
        .into_iter()
        .map(|line| line.into_item(currency))
        .collect()
}

/// The tax records in `column` (a [`taxes_json!`] expression).
pub(crate) fn taxes(row: &Row, column: &str) -> Result<Vec<TaxRecord>, StoreError> {
    let Json(taxes): Json<Vec<TaxJson>> = rows::get(row, column)?;
    taxes
        .into_iter()
        .map(|t| {
            Ok(TaxRecord {
                rate: amount("tax rate", &t.rate, Percent::new)?,
                name: t.name,
                tax_rate_id: opt_id("tax rate id", t.tax_rate_id, TaxRateId::new)?,
                lineitem_id: opt_id("tax line id", t.lineitem_id, LineItemId::new)?,
                vat_category: t
                    .vat_category
                    .map(|c| VatCategory::from_text(&c).ok_or_else(|| corrupt("vat category", c)))
                    .transpose()?,
            })
        })
        .collect()
}

/// The `totals` object from the totals columns ([`totals_columns!`]) and the currency
/// columns (`currency`, `exchange_rate`, `exchange_currency`).
pub(crate) fn totals(row: &Row) -> Result<BillTotals, StoreError> {
    Ok(BillTotals {
        figures: Totals {
            subtotal: rows::money(row, "subtotal")?,
            subtotal_before_discount: rows::money(row, "subtotal_before_discount")?,
            discount_type: rows::choice(row, "discount_type")?,
            discount_percentage: rows::percent(row, "discount_percentage")?,
            discount_amount: rows::money(row, "discount_amount")?,
            amount_before_tax: rows::money(row, "amount_before_tax")?,
            tax_total_percentage: rows::percent(row, "tax_total_percentage")?,
            tax_total_amount: rows::money(row, "tax_total_amount")?,
            adjustment_amount: rows::money(row, "adjustment_amount")?,
            final_amount: rows::money(row, "final_amount")?,
        },
        adjustment_description: rows::get(row, "adjustment_description")?,
        currency: rows::currency(row, "currency")?,
        exchange: rows::exchange(row)?,
        tax_breakdown: None,
    })
}

/// `totals` with its `tax_breakdown`: what EN 16931 states of the bill's lines and tax
/// records, when that is the bill's own figures (crm-core's [`tax_breakdown`]).
pub(crate) fn with_breakdown(
    mut totals: BillTotals,
    mode: TaxMode,
    lines: &[LineItem],
    taxes: &[TaxRecord],
) -> BillTotals {
    totals.tax_breakdown = tax_breakdown(mode, lines, taxes, &totals.figures, totals.currency);
    totals
}

/// A line's stored discount (`discount_type`, `discount_value`) as the calculator takes it.
pub(crate) fn line_discount(
    kind: DiscountKind,
    value: Decimal,
) -> Result<LineDiscount, StoreError> {
    let bad = |e: AmountError| corrupt("line discount value", format!("{value}: {e}"));
    Ok(match kind {
        DiscountKind::None => LineDiscount::None,
        DiscountKind::Fixed => LineDiscount::Fixed(Money::new(value).map_err(bad)?),
        DiscountKind::Percentage => LineDiscount::Percentage(Percent::new(value).map_err(bad)?),
    })
}

/// A line's discount as stored: (`discount_type`, `discount_value`).
pub(crate) fn stored_discount(discount: LineDiscount) -> (&'static str, Decimal) {
    match discount {
        LineDiscount::None => (DiscountKind::None.as_str(), Decimal::ZERO),
        LineDiscount::Fixed(m) => (DiscountKind::Fixed.as_str(), m.get()),
        LineDiscount::Percentage(p) => (DiscountKind::Percentage.as_str(), p.get()),
    }
}

impl LineJson {
    fn into_item(self, currency: Currency) -> Result<LineItem, StoreError> {
        let kind = DiscountKind::from_text(&self.discount_type)
            .ok_or_else(|| corrupt("line discount type", &self.discount_type))?;
        let value = decimal("line discount value", &self.discount_value)?;
        let discount = line_discount(kind, value)?;
        Ok(LineItem {
            id: LineItemId::new(self.id).ok_or_else(|| corrupt("line id", self.id))?,
            position: self.position,
            description: self.description,
            long_description: self.long_description,
            unit_code: crm_core::units::unit_code(self.unit.as_deref()),
            unit: self.unit,
            quantity: amount("line quantity", &self.quantity, Quantity::new)?,
            rate: amount("line rate", &self.rate, UnitRate::new)?,
            total: Amount::new(amount("line total", &self.total, Money::new)?, currency),
            line_type: LINE_TYPE,
            tax_status: TAX_STATUS,
            tax_rate_id: opt_id("line tax rate id", self.tax_rate_id, TaxRateId::new)?,
            discount: LineDiscountView::new(
                discount,
                amount("line discount amount", &self.discount_amount, Money::new)?,
                currency,
            ),
        })
    }
}

fn decimal(what: &str, text: &str) -> Result<Decimal, StoreError> {
    text.parse()
        .map_err(|e| corrupt(what, format!("{text}: {e}")))
}

fn amount<T>(
    what: &str,
    text: &str,
    make: fn(Decimal) -> Result<T, AmountError>,
) -> Result<T, StoreError> {
    make(decimal(what, text)?).map_err(|e| corrupt(what, format!("{text}: {e}")))
}

fn opt_id<T>(
    what: &str,
    raw: Option<i64>,
    make: fn(i64) -> Option<T>,
) -> Result<Option<T>, StoreError> {
    raw.map(|r| make(r).ok_or_else(|| corrupt(what, r)))
        .transpose()
}
