//! `PUT /estimates/{id}/items`: the complete bill (line items and, in summary mode, the
//! estimate-level tax rates).
//!
//! Parsing happens in two steps because the allowed fields depend on the estimate's stored
//! tax mode: [`ItemsRequest::parse`] (or [`ItemsRequest::read`], which keeps the errors for
//! later) checks everything that does not depend on the mode; [`ItemsRequest::for_mode`]
//! then refuses the other mode's fields (naming them), checks fixed line discounts against
//! the bill's currency (at most its decimals, API.md §18) and gives the [`LineItems`]
//! command. Lines keep the request order.
//!
//! The input is a [`RawMap`], the shape every request body decodes to (the service builds
//! it from form, JSON or multipart bodies); each refusal names the field with Laravel's
//! exact message:
//!
//! ```
//! use crm_core::bill::ItemsRequest;
//! use crm_core::currency::Currency;
//! use crm_core::input::{RawMap, RawValue};
//! use crm_core::totals::TaxMode;
//!
//! let line = |quantity: &str, rate: &str| {
//!     let mut item = RawMap::new();
//!     item.insert("description", RawValue::text("Design"));
//!     item.insert("quantity", RawValue::text(quantity));
//!     item.insert("rate", RawValue::text(rate));
//!     RawValue::Map(item)
//! };
//! let mut raw = RawMap::new();
//! raw.insert("items", RawValue::List(vec![line("1.5", "1385.27"), line("2", "-3")]));
//! let rejected = ItemsRequest::parse(&raw).unwrap_err();
//! assert_eq!(
//!     rejected.errors.get("items.1.rate"),
//!     Some(&["The items.1.rate must be greater than 0.".to_owned()][..])
//! );
//!
//! raw.insert("items", RawValue::List(vec![line("1.5", "1385.27")]));
//! let items = ItemsRequest::parse(&raw)
//!     .unwrap()
//!     .for_mode(TaxMode::Summary, Currency::EUR)
//!     .unwrap();
//! assert_eq!(items.items[0].rate.to_string(), "1385.27");
//! ```

use crate::currency::Currency;
use crate::ids::TaxRateId;
use crate::input::{
    Form, RawMap, RawValue, TextRule, read_choice, read_id, read_money_input_non_negative,
    read_percent_0_100, read_quantity, read_unit_rate, text,
};
use crate::money::{MoneyInput, Percent, Quantity, UnitRate};

use super::StoredLine;
use crate::totals::{DiscountKind, LineDiscount, TaxMode};
use crate::validation::{FieldErrors, RefKind, References, Rejected, message};

/// The most line items one estimate may have.
pub const MAX_ITEMS: usize = 1000;
/// The most estimate-level tax rates.
pub const MAX_TAX_RATES: usize = 100;

/// One line item as requested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemInput {
    /// `description` (required).
    pub description: String,
    /// `long_description`.
    pub long_description: Option<String>,
    /// `unit`.
    pub unit: Option<String>,
    /// `quantity` (> 0).
    pub quantity: Quantity,
    /// `rate` (> 0).
    pub rate: UnitRate,
    /// `tax_rate_id` (inline only).
    pub tax_rate: Option<TaxRateId>,
    /// `discount_type` / `discount_value` (inline only).
    pub discount: LineDiscount,
}

/// A line's discount as requested: a fixed amount waits for the bill's currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DiscountInput {
    None,
    Fixed(MoneyInput),
    Percentage(Percent),
}

/// One line item as requested, before the bill's currency is known.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RequestedItem {
    description: String,
    long_description: Option<String>,
    unit: Option<String>,
    quantity: Quantity,
    rate: UnitRate,
    tax_rate: Option<TaxRateId>,
    discount: DiscountInput,
}

/// The request before the tax mode and currency are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemsRequest {
    items: Vec<RequestedItem>,
    /// The request position of each item (empty elements are skipped).
    positions: Vec<usize>,
    tax_rate_ids: Vec<(String, TaxRateId)>,
    /// Field keys given that only inline mode accepts.
    inline_only_fields: Vec<String>,
    /// What [`ItemsRequest::read`] found wrong before the mode was known (empty after a
    /// successful [`ItemsRequest::parse`]); [`ItemsRequest::for_mode`] reports it with the
    /// mode's own errors and references, so that every failing field comes at once.
    errors: FieldErrors,
}

/// The validated command for the estimate's mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineItems {
    /// The tax mode the lines were validated for.
    pub mode: TaxMode,
    /// The lines, in order (positions 1..n).
    pub items: Vec<ItemInput>,
    /// Summary mode: the distinct estimate-level tax rates, in order.
    pub tax_rate_ids: Vec<TaxRateId>,
    references: References,
}

impl LineItems {
    /// The tax rates to check (each must exist and be enabled).
    pub fn references(&self) -> &References {
        &self.references
    }
}

impl ItemsRequest {
    /// The errors [`ItemsRequest::read`] found before the mode is known (empty when none).
    pub fn errors(&self) -> &FieldErrors {
        &self.errors
    }

    /// Reads `items` (required, 1 to [`MAX_ITEMS`]) and `tax_rate_ids` (optional); any
    /// field error is a rejection.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let request = Self::read(raw);
        if request.errors.is_empty() {
            Ok(request)
        } else {
            Err(Rejected::from(request.errors))
        }
    }

    /// Reads the request like [`ItemsRequest::parse`] but keeps its field errors inside, for
    /// [`ItemsRequest::for_mode`] to report together with the errors that depend on the
    /// estimate's mode (the other mode's fields, unknown or disabled tax rates).
    pub fn read(raw: &RawMap) -> Self {
        let mut form = Form::new(raw);
        let mut items = Vec::new();
        let mut positions = Vec::new();
        let mut inline_only_fields = Vec::new();
        match form.list("items", true, MAX_ITEMS) {
            Some(list) if list.is_empty() => form.error("items", message::required("items")),
            Some(list) => {
                for (i, value) in list {
                    if let Some(item) = read_item(&mut form, i, value, &mut inline_only_fields) {
                        items.push(item);
                        positions.push(i);
                    }
                }
            }
            None => {}
        }
        let mut tax_rate_ids: Vec<(String, TaxRateId)> = Vec::new();
        if let Some(list) = form.list("tax_rate_ids", false, MAX_TAX_RATES) {
            for (i, value) in list {
                let key = format!("tax_rate_ids.{i}");
                if let Some(id) = form.element(&key, value, read_id).and_then(TaxRateId::new) {
                    if tax_rate_ids.iter().any(|(_, t)| *t == id) {
                        form.error_at(&key, message::distinct(&key));
                    } else {
                        tax_rate_ids.push((key, id));
                    }
                }
            }
        }
        // Nothing read here is a reference (tax rates are checked for the mode), so a
        // rejection carries errors only.
        let errors = form.finish().err().map(|r| r.errors).unwrap_or_default();
        ItemsRequest {
            items,
            positions,
            tax_rate_ids,
            inline_only_fields,
            errors,
        }
    }

    /// Checks the request against the bill's tax mode and currency: summary refuses
    /// per-line tax rates and discounts; inline refuses `tax_rate_ids`; a fixed line
    /// discount has at most the currency's decimals. Errors kept by
    /// [`ItemsRequest::read`] are reported too, with the mode's references to check.
    pub fn for_mode(self, mode: TaxMode, currency: Currency) -> Result<LineItems, Rejected> {
        let mut errors = self.errors;
        let mut references = References::default();
        match mode {
            TaxMode::Summary => {
                for field in &self.inline_only_fields {
                    errors.add(
                        field,
                        message::prohibited_if(field, "bill_tax_type", "summary"),
                    );
                }
                for (key, id) in &self.tax_rate_ids {
                    references.push(key, RefKind::EnabledTaxRate, id.get());
                }
            }
            TaxMode::Inline | TaxMode::Vat => {
                if !self.tax_rate_ids.is_empty() {
                    errors.add(
                        "tax_rate_ids",
                        message::prohibited_if("tax_rate_ids", "bill_tax_type", mode.as_str()),
                    );
                }
                for (i, item) in self.positions.iter().zip(&self.items) {
                    if let Some(rate) = item.tax_rate {
                        references.push(
                            &format!("items.{i}.tax_rate_id"),
                            RefKind::EnabledTaxRate,
                            rate.get(),
                        );
                    }
                }
            }
        }
        let mut items = Vec::with_capacity(self.items.len());
        for (i, item) in self.positions.iter().zip(self.items) {
            let discount = match item.discount {
                DiscountInput::None => Some(LineDiscount::None),
                DiscountInput::Percentage(p) => Some(LineDiscount::Percentage(p)),
                DiscountInput::Fixed(amount) => currency
                    .money(&format!("items.{i}.discount_value"), amount, &mut errors)
                    .map(LineDiscount::Fixed),
            };
            if let Some(discount) = discount {
                items.push(ItemInput {
                    description: item.description,
                    long_description: item.long_description,
                    unit: item.unit,
                    quantity: item.quantity,
                    rate: item.rate,
                    tax_rate: item.tax_rate,
                    discount,
                });
            }
        }
        if !errors.is_empty() {
            return Err(Rejected { errors, references });
        }
        let tax_rate_ids = match mode {
            TaxMode::Summary => self.tax_rate_ids.into_iter().map(|(_, id)| id).collect(),
            TaxMode::Inline | TaxMode::Vat => Vec::new(),
        };
        Ok(LineItems {
            mode,
            items,
            tax_rate_ids,
            references,
        })
    }
}

/// A bill's stored lines under a new currency: each fixed line discount must have at most
/// its decimals (named `items.{n}.discount_value`, 0-based in line order, as `PUT …/items`
/// names it). Line totals and discount amounts are recomputed, so only given values count.
pub fn check_stored_lines(lines: &[StoredLine], currency: Currency) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::new();
    for (i, line) in lines.iter().enumerate() {
        if let LineDiscount::Fixed(amount) = line.discount {
            currency.check_stored(&format!("items.{i}.discount_value"), amount, &mut errors);
        }
    }
    errors.into_result()
}

/// The largest amount a stored total may hold (`NUMERIC(15,2)`, below 10^13).
pub const MAX_TOTAL: &str = "9999999999999.99";

/// The 422 for items whose computed totals do not fit the stored columns (the calculator's
/// [`TotalsError::Overflow`](crate::totals::TotalsError::Overflow)): reported on `items`.
pub fn total_overflow_error() -> FieldErrors {
    FieldErrors::single("items", message::at_most("items total", MAX_TOTAL))
}

fn read_item(
    form: &mut Form<'_>,
    index: usize,
    value: &RawValue,
    inline_only: &mut Vec<String>,
) -> Option<RequestedItem> {
    let prefix = format!("items.{index}.");
    let RawValue::Map(map) = value else {
        let field = format!("items.{index}");
        form.error_at(&field, message::array(&field));
        return None;
    };
    let mut f = Form::with_prefix(map, &prefix);
    let description = f.required("description", text(TextRule::LONG));
    let long_description = f.optional("long_description", text(TextRule::LONG));
    let unit = f.optional("unit", text(TextRule::UNIT));
    let quantity = f.required("quantity", read_quantity);
    let rate = f.required("rate", read_unit_rate);
    let tax_rate = f.optional("tax_rate_id", read_id).and_then(TaxRateId::new);
    if f.is_filled("tax_rate_id") {
        inline_only.push(f.field("tax_rate_id"));
    }
    let discount_type = f
        .optional("discount_type", read_choice::<DiscountKind>)
        .unwrap_or_default();
    if discount_type != DiscountKind::None {
        inline_only.push(f.field("discount_type"));
    }
    if f.is_filled("discount_value") {
        inline_only.push(f.field("discount_value"));
    }
    let discount = match discount_type {
        DiscountKind::None => Some(DiscountInput::None),
        DiscountKind::Fixed => {
            required_discount_value(&mut f, "fixed", read_money_input_non_negative)
                .map(DiscountInput::Fixed)
        }
        DiscountKind::Percentage => {
            required_discount_value(&mut f, "percentage", read_percent_0_100)
                .map(DiscountInput::Percentage)
        }
    };
    let item = match (description, quantity, rate, discount) {
        (Some(description), Some(quantity), Some(rate), Some(discount)) => Some(RequestedItem {
            description,
            long_description,
            unit,
            quantity,
            rate,
            tax_rate,
            discount,
        }),
        _ => None,
    };
    form.absorb(f);
    item
}

fn required_discount_value<T>(
    f: &mut Form<'_>,
    kind: &str,
    read: fn(&str, &RawValue, &mut FieldErrors) -> Option<T>,
) -> Option<T> {
    if !f.is_filled("discount_value") {
        let field = f.field("discount_value");
        let other = f.field("discount_type");
        f.error_at(&field, message::required_if(&field, &other, kind));
        return None;
    }
    f.optional("discount_value", read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawValue as V;
    use crate::input::test_input::msg;

    fn item(pairs: &[(&str, &str)]) -> V {
        V::Map(pairs.iter().map(|(k, v)| (*k, V::text(*v))).collect())
    }

    fn request(items: Vec<V>, tax_rate_ids: Option<Vec<&str>>) -> RawMap {
        let mut raw = RawMap::new();
        raw.insert("items", V::List(items));
        if let Some(ids) = tax_rate_ids {
            raw.insert(
                "tax_rate_ids",
                V::List(ids.into_iter().map(V::text).collect()),
            );
        }
        raw
    }

    const DESIGN: &[(&str, &str)] = &[
        ("description", "Design"),
        ("quantity", "2"),
        ("rate", "100"),
    ];

    #[test]
    fn items_are_required_and_not_empty() {
        let e = ItemsRequest::parse(&RawMap::new()).unwrap_err().errors;
        assert_eq!(msg(&e, "items"), ["The items field is required."]);
        let e = ItemsRequest::parse(&request(vec![], None))
            .unwrap_err()
            .errors;
        assert_eq!(msg(&e, "items"), ["The items field is required."]);
    }

    #[test]
    fn each_item_needs_a_description_a_positive_quantity_and_a_positive_rate() {
        let e = ItemsRequest::parse(&request(
            vec![item(&[("quantity", "0"), ("rate", "-1")])],
            None,
        ))
        .unwrap_err()
        .errors;
        assert_eq!(
            msg(&e, "items.0.description"),
            ["The items.0.description field is required."]
        );
        assert_eq!(
            msg(&e, "items.0.quantity"),
            ["The items.0.quantity must be greater than 0."]
        );
        assert_eq!(
            msg(&e, "items.0.rate"),
            ["The items.0.rate must be greater than 0."]
        );
    }

    #[test]
    fn an_item_that_is_not_an_object_is_reported_at_its_position() {
        let e = ItemsRequest::parse(&request(vec![item(DESIGN), V::text("x")], None))
            .unwrap_err()
            .errors;
        assert_eq!(msg(&e, "items.1"), ["The items.1 must be an array."]);
    }

    #[test]
    fn summary_mode_takes_distinct_tax_rate_ids() {
        let req = ItemsRequest::parse(&request(vec![item(DESIGN)], Some(vec!["1", "3"]))).unwrap();
        let lines = req.for_mode(TaxMode::Summary, Currency::EUR).unwrap();
        assert_eq!(
            lines
                .tax_rate_ids
                .iter()
                .map(|t| t.get())
                .collect::<Vec<_>>(),
            vec![1, 3]
        );
        assert_eq!(lines.references().as_slice()[1].field, "tax_rate_ids.1");
        let e = ItemsRequest::parse(&request(vec![item(DESIGN)], Some(vec!["1", "1"])))
            .unwrap_err()
            .errors;
        assert_eq!(
            msg(&e, "tax_rate_ids.1"),
            ["The tax rate ids.1 field has a duplicate value."]
        );
    }

    #[test]
    fn summary_mode_refuses_per_line_taxes_and_discounts() {
        let line = item(&[
            ("description", "A"),
            ("quantity", "1"),
            ("rate", "5"),
            ("tax_rate_id", "2"),
            ("discount_type", "fixed"),
            ("discount_value", "1"),
        ]);
        let r = ItemsRequest::parse(&request(vec![line], None))
            .unwrap()
            .for_mode(TaxMode::Summary, Currency::EUR)
            .unwrap_err();
        assert_eq!(
            msg(&r.errors, "items.0.tax_rate_id"),
            ["The items.0.tax rate id field is prohibited when bill tax type is summary."]
        );
        assert!(r.errors.has("items.0.discount_type"));
        assert!(r.errors.has("items.0.discount_value"));
    }

    #[test]
    fn a_fixed_line_discount_has_at_most_the_currency_decimals() {
        let line = |value: &str| {
            item(&[
                ("description", "A"),
                ("quantity", "2"),
                ("rate", "100"),
                ("discount_type", "fixed"),
                ("discount_value", value),
            ])
        };
        let yen = Currency::from_code("JPY").unwrap();
        let r = ItemsRequest::parse(&request(vec![line("10"), line("0.5")], None))
            .unwrap()
            .for_mode(TaxMode::Inline, yen)
            .unwrap_err();
        assert_eq!(
            msg(&r.errors, "items.1.discount_value"),
            ["The items.1.discount value may not have more than 0 decimal places."]
        );
        assert!(!r.errors.has("items.0.discount_value"));
        let kwd = Currency::from_code("KWD").unwrap();
        let ok = ItemsRequest::parse(&request(vec![line("0.125")], None))
            .unwrap()
            .for_mode(TaxMode::Inline, kwd)
            .unwrap();
        assert_eq!(
            ok.items[0].discount,
            LineDiscount::Fixed("0.125".parse().unwrap())
        );
        // A unit rate is a price, not an amount: it keeps its 4 decimals in every currency.
        let priced = item(&[("description", "A"), ("quantity", "3"), ("rate", "0.3333")]);
        assert!(
            ItemsRequest::parse(&request(vec![priced], None))
                .unwrap()
                .for_mode(TaxMode::Summary, yen)
                .is_ok()
        );
    }

    #[test]
    fn stored_fixed_discounts_must_fit_a_new_currency() {
        let stored = |discount: LineDiscount| StoredLine {
            quantity: "1".parse().unwrap(),
            rate: "10".parse().unwrap(),
            discount,
            tax_rate: None,
            vat: None,
        };
        let lines = [
            stored(LineDiscount::Percentage("12.5".parse().unwrap())),
            stored(LineDiscount::Fixed("1.50".parse().unwrap())),
            stored(LineDiscount::Fixed("2".parse().unwrap())),
        ];
        let yen = Currency::from_code("JPY").unwrap();
        let e = check_stored_lines(&lines, yen).unwrap_err();
        assert_eq!(
            msg(&e, "items.1.discount_value"),
            ["The items.1.discount value may not have more than 0 decimal places."]
        );
        assert!(!e.has("items.0.discount_value") && !e.has("items.2.discount_value"));
        assert!(check_stored_lines(&lines, Currency::EUR).is_ok());
    }

    #[test]
    fn inline_mode_refuses_estimate_level_tax_rates() {
        let r = ItemsRequest::parse(&request(vec![item(DESIGN)], Some(vec!["1"])))
            .unwrap()
            .for_mode(TaxMode::Inline, Currency::EUR)
            .unwrap_err();
        assert_eq!(
            msg(&r.errors, "tax_rate_ids"),
            ["The tax rate ids field is prohibited when bill tax type is inline."]
        );
    }

    #[test]
    fn inline_lines_carry_their_tax_rate_and_discount() {
        let line = item(&[
            ("description", "A"),
            ("quantity", "2"),
            ("rate", "100"),
            ("tax_rate_id", "2"),
            ("discount_type", "percentage"),
            ("discount_value", "10"),
        ]);
        let lines = ItemsRequest::parse(&request(vec![line], Some(vec![])))
            .unwrap()
            .for_mode(TaxMode::Inline, Currency::EUR)
            .unwrap();
        assert_eq!(lines.items[0].tax_rate.map(TaxRateId::get), Some(2));
        assert_eq!(
            lines.items[0].discount,
            LineDiscount::Percentage("10".parse().unwrap())
        );
        assert_eq!(
            lines.references().as_slice()[0].field,
            "items.0.tax_rate_id"
        );
    }

    #[test]
    fn a_line_discount_needs_its_value_within_bounds() {
        let missing = item(&[
            ("description", "A"),
            ("quantity", "1"),
            ("rate", "5"),
            ("discount_type", "fixed"),
        ]);
        let over = item(&[
            ("description", "A"),
            ("quantity", "1"),
            ("rate", "5"),
            ("discount_type", "percentage"),
            ("discount_value", "150"),
        ]);
        let e = ItemsRequest::parse(&request(vec![missing, over], None))
            .unwrap_err()
            .errors;
        assert_eq!(
            msg(&e, "items.0.discount_value"),
            ["The items.0.discount value field is required when items.0.discount type is fixed."]
        );
        assert_eq!(
            msg(&e, "items.1.discount_value"),
            ["The items.1.discount value must be between 0 and 100."]
        );
    }

    #[test]
    fn an_items_total_out_of_range_is_reported_on_items() {
        let e = total_overflow_error();
        assert_eq!(
            msg(&e, "items"),
            ["The items total may not be greater than 9999999999999.99."]
        );
    }

    #[test]
    fn read_keeps_field_errors_for_the_mode_check_to_report_with_its_references() {
        let bad = item(&[("quantity", "0"), ("rate", "5")]);
        let req = ItemsRequest::read(&request(vec![bad], Some(vec!["7"])));
        let r = req.for_mode(TaxMode::Summary, Currency::EUR).unwrap_err();
        assert_eq!(
            msg(&r.errors, "items.0.quantity"),
            ["The items.0.quantity must be greater than 0."]
        );
        assert_eq!(r.references.as_slice()[0].field, "tax_rate_ids.0");
        let ok = ItemsRequest::read(&request(vec![item(DESIGN)], None));
        assert_eq!(
            ok.for_mode(TaxMode::Inline, Currency::EUR)
                .unwrap()
                .items
                .len(),
            1
        );
    }

    #[test]
    fn too_many_items_are_refused() {
        let e = ItemsRequest::parse(&request(vec![item(DESIGN); MAX_ITEMS + 1], None))
            .unwrap_err()
            .errors;
        assert_eq!(
            msg(&e, "items"),
            ["The items may not have more than 1000 items."]
        );
    }
}
