//! What EN 16931 states of a bill (TOTALS.md "VAT mode", API.md §19): its figures by the
//! VAT-mode arithmetic ([`compute_vat`]) from the bill's own lines, discount, adjustment
//! and rates, when they are the figures the bill has, else what differs.
//!
//! One mechanism for every tax mode: a VAT-mode bill's figures are these by construction;
//! a summary bill with one rate, or an inline bill whose lines bear no tax, states the same
//! figures unless the CRM's arithmetic rounded one differently; two summary rates (two
//! taxes on every line) and taxed inline lines (VAT rounded per tax-inclusive line) cannot
//! be stated at all. The API's `totals.tax_breakdown` and the e-invoices are both this.

use crate::currency::Currency;
use crate::money::{Money, Percent, round_half_away};
use crate::tax_rate::VatCategory;
use crate::totals::vat::{NO_TAX, VatError, VatInput, VatLine, VatRate, VatTotals, compute_vat};
use crate::totals::{DiscountKind, HeaderDiscount, LineDiscount, TaxMode, Totals};

use super::{LineItem, TaxRecord};

/// The most decimals EN 16931 allows on an amount (its BR-DEC rules).
pub const AMOUNT_DECIMALS: u32 = 2;

/// Why a bill's figures are not what EN 16931 states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unstated {
    /// Summary mode with more than one rate: every line bears them all.
    TwoTaxes {
        /// How many rates.
        count: usize,
    },
    /// Inline mode with a taxed line: its VAT is rounded inside the line.
    InlineTax,
    /// A line's tax rate has no VAT category on record (`line_items.{n}`, 0-based).
    UnknownRate {
        /// The line.
        line: usize,
    },
    /// The adjustment is not a rounding amount (|adjustment| ≥ 1).
    NotRounding {
        /// The adjustment.
        adjustment: Money,
    },
    /// A figure is out of range.
    Overflow,
    /// A figure of the bill differs from EN 16931's.
    Differs {
        /// Its business term (`BT-131`, …).
        term: &'static str,
        /// Its API field (`line_items.0.total`, `totals.subtotal`).
        field: String,
        /// What it is ("line's net amount").
        what: &'static str,
        /// The bill's figure.
        ours: Money,
        /// EN 16931's.
        theirs: Money,
    },
    /// An amount with more decimals than EN 16931 allows.
    TooPrecise {
        /// Its business term.
        term: &'static str,
        /// Its API field.
        field: String,
        /// The amount.
        amount: Money,
    },
}

/// What EN 16931 states of a bill: each line's VAT rate, in order, and the figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stated {
    /// Each line's rate (id, category, percentage).
    pub rates: Vec<VatRate>,
    /// The figures (all equal to the bill's).
    pub totals: VatTotals,
}

/// The figures EN 16931 states of a bill in `mode` with `lines`, `taxes` and `totals` in
/// `currency`, or everything that keeps them from being the bill's own.
pub fn stated(
    mode: TaxMode,
    lines: &[LineItem],
    taxes: &[TaxRecord],
    totals: &Totals,
    currency: Currency,
) -> Result<Stated, Vec<Unstated>> {
    let mut out = Vec::new();
    let summary: Vec<&TaxRecord> = taxes.iter().filter(|t| t.lineitem_id.is_none()).collect();
    if mode == TaxMode::Summary && summary.len() > 1 {
        out.push(Unstated::TwoTaxes {
            count: summary.len(),
        });
    }
    let mut rates = Vec::with_capacity(lines.len());
    let mut vat_lines = Vec::with_capacity(lines.len());
    for (i, item) in lines.iter().enumerate() {
        let (record, discount) = match mode {
            TaxMode::Summary => (summary.first().copied(), LineDiscount::None),
            TaxMode::Inline | TaxMode::Vat => (
                taxes.iter().find(|t| t.lineitem_id == Some(item.id)),
                line_discount(item),
            ),
        };
        let rate = match record {
            None => NO_TAX,
            Some(t) => match (t.tax_rate_id, t.vat_category) {
                (Some(id), Some(category)) => VatRate {
                    id: id.get(),
                    category,
                    rate: t.rate,
                },
                _ => {
                    out.push(Unstated::UnknownRate { line: i });
                    continue;
                }
            },
        };
        if mode == TaxMode::Inline
            && !rate.rate.get().is_zero()
            && !out.contains(&Unstated::InlineTax)
        {
            out.push(Unstated::InlineTax);
        }
        rates.push(rate);
        vat_lines.push(VatLine {
            quantity: item.quantity,
            rate: item.rate,
            discount,
            vat: rate,
        });
    }
    if vat_lines.len() != lines.len() {
        return Err(out);
    }
    let discount = match (mode, totals.discount_type) {
        (TaxMode::Inline, _) | (_, DiscountKind::None) => HeaderDiscount::None,
        (_, DiscountKind::Fixed) => HeaderDiscount::Fixed(totals.discount_amount),
        (_, DiscountKind::Percentage) => HeaderDiscount::Percentage(totals.discount_percentage),
    };
    let computed = match compute_vat(&VatInput {
        lines: vat_lines,
        discount,
        adjustment: totals.adjustment_amount,
        minor_units: currency.minor_units(),
    }) {
        Ok(c) => c,
        Err(VatError::NotRounding) => {
            out.push(Unstated::NotRounding {
                adjustment: totals.adjustment_amount,
            });
            return Err(out);
        }
        Err(VatError::Overflow) => {
            out.push(Unstated::Overflow);
            return Err(out);
        }
    };
    let mut same = |term, field: String, what, ours: Money, theirs: Money| {
        if ours.get() != theirs.get() {
            out.push(Unstated::Differs {
                term,
                field,
                what,
                ours,
                theirs,
            });
        }
    };
    for (i, (item, net)) in lines.iter().zip(&computed.line_nets).enumerate() {
        same(
            "BT-131",
            format!("line_items.{i}.total"),
            "line's net amount",
            item.total.money,
            *net,
        );
    }
    // A line's allowance (BT-136) is stated beside its net: `net = quantity × price −
    // allowance`, rounded once (BR-LIN-04). A discount amount rounded on its own can miss
    // by a cent (10.5 × 1309.87 − 687.68 is 13065.955, the net 13065.95).
    let dp = currency.minor_units().get();
    for (i, (item, net)) in lines.iter().zip(&computed.line_nets).enumerate() {
        let allowance = item.discount.amount.get();
        if allowance.is_zero() {
            continue;
        }
        let gross = item.quantity.get().checked_mul(item.rate.get());
        let stated = gross.map(|g| round_half_away(g - allowance, dp));
        if stated != Some(net.get()) {
            let theirs = gross
                .and_then(|g| Money::new(round_half_away(g, dp) - net.get()).ok())
                .unwrap_or(item.discount.amount);
            same(
                "BT-136",
                format!("line_items.{i}.discount.amount"),
                "line's discount",
                item.discount.amount,
                theirs,
            );
        }
    }
    same(
        "BT-106",
        "totals.subtotal".into(),
        "sum of the lines",
        totals.subtotal,
        computed.subtotal,
    );
    if mode != TaxMode::Inline {
        same(
            "BT-107",
            "totals.discount_amount".into(),
            "discount",
            totals.discount_amount,
            computed.discount_amount,
        );
    }
    same(
        "BT-109",
        "totals.amount_before_tax".into(),
        "amount before tax",
        totals.amount_before_tax,
        computed.amount_before_tax,
    );
    same(
        "BT-110",
        "totals.tax_total_amount".into(),
        "tax total",
        totals.tax_total_amount,
        computed.tax_total,
    );
    same(
        "BT-115",
        "totals.final_amount".into(),
        "final amount",
        totals.final_amount,
        computed.final_amount,
    );
    let mut amounts: Vec<(&'static str, String, Money)> = computed
        .line_nets
        .iter()
        .enumerate()
        .map(|(i, n)| ("BT-131", format!("line_items.{i}.total"), *n))
        .collect();
    amounts.extend(lines.iter().enumerate().map(|(i, l)| {
        (
            "BT-136",
            format!("line_items.{i}.discount.amount"),
            l.discount.amount,
        )
    }));
    amounts.extend([
        ("BT-106", "totals.subtotal".to_owned(), computed.subtotal),
        (
            "BT-107",
            "totals.discount_amount".to_owned(),
            computed.discount_amount,
        ),
        (
            "BT-110",
            "totals.tax_total_amount".to_owned(),
            computed.tax_total,
        ),
        (
            "BT-114",
            "totals.adjustment_amount".to_owned(),
            computed.adjustment,
        ),
        (
            "BT-115",
            "totals.final_amount".to_owned(),
            computed.final_amount,
        ),
    ]);
    for g in &computed.groups {
        amounts.push(("BT-92", "totals.discount_amount".to_owned(), g.allowance));
    }
    for (term, field, amount) in amounts {
        if amount.get().normalize().scale() > AMOUNT_DECIMALS {
            out.push(Unstated::TooPrecise {
                term,
                field,
                amount,
            });
        }
    }
    if out.is_empty() {
        Ok(Stated {
            rates,
            totals: computed,
        })
    } else {
        Err(out)
    }
}

/// A line's discount as the calculator takes it.
fn line_discount(item: &LineItem) -> LineDiscount {
    match item.discount.kind {
        DiscountKind::None => LineDiscount::None,
        DiscountKind::Fixed => LineDiscount::Fixed(item.discount.value),
        DiscountKind::Percentage => Percent::new(item.discount.value.get())
            .map(LineDiscount::Percentage)
            .unwrap_or(LineDiscount::None),
    }
}

/// One row of `totals.tax_breakdown`: a VAT category and rate, its taxable amount and its
/// VAT (EN 16931 BG-23).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaxBreakdown {
    /// The category (BT-118).
    pub category: VatCategory,
    /// The rate (BT-119).
    pub rate: Percent,
    /// The taxable amount (BT-116).
    pub base: Money,
    /// The VAT (BT-117).
    pub amount: Money,
}

/// The `tax_breakdown` of a bill: what EN 16931 states, when it states the bill's figures.
pub fn tax_breakdown(
    mode: TaxMode,
    lines: &[LineItem],
    taxes: &[TaxRecord],
    totals: &Totals,
    currency: Currency,
) -> Option<Vec<TaxBreakdown>> {
    let stated = stated(mode, lines, taxes, totals, currency).ok()?;
    Some(
        stated
            .totals
            .groups
            .iter()
            .map(|g| TaxBreakdown {
                category: g.vat.category,
                rate: g.vat.rate,
                base: g.base,
                amount: g.amount,
            })
            .collect(),
    )
}
