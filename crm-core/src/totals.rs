//! The estimate totals calculator (`docs/contract/TOTALS.md`), with two arithmetic policies.
//!
//! The CRM computes totals in the browser with IEEE-754 doubles and stores the posted
//! figures in `DECIMAL(15,2)` columns. [`Policy::CrmParity`] reproduces those figures bit
//! for bit (the same operations, in the same order, on `f64`, with the CRM's rounding
//! functions); [`Policy::ExactDecimal`] runs the same steps with exact decimal arithmetic
//! and rounds half away from zero at every rounding point.
//!
//! Inputs and outputs are always decimal values; only the parity policy uses `f64`, and only
//! inside this module.
//!
//! # How the policies differ
//!
//! They differ only where a value the spec rounds sits at (or within a hair of) a half cent:
//!
//! - a product `quantity × rate` ending in exactly half a cent: `1.5 × 1385.27 = 2077.905`
//!   is `2077.9049999…` as a double, so the CRM keeps `2077.90` where exact rounding gives
//!   `2077.91` (but `1.5 × 10.01`, times 100, is exactly `1501.5` in doubles, so both give
//!   `15.02`); likewise a rate such as `1.005`;
//! - an inline line discount on a half cent: the CRM's `toFixed(2)` rounds the binary value
//!   (`2.675 → 2.67`), exact rounding gives `2.68`, and the line total moves with it;
//! - a percentage header discount or a tax amount on a half cent;
//! - the CRM's server rounds line discounts and the inline sum before discounts from their
//!   14-significant-digit text: a second rounding, which can land on a half cent when few
//!   digits are left for the decimals (large amounts; `1234567890123.46` reads as `….5`).
//!
//! A one-cent line difference carries into the subtotal, amount before tax and final
//! amount. Where every rounding point's exact value is farther from a half cent than the
//! doubles can stray (10^-9 plus a relative 10^-13 or so), the two policies give identical
//! figures: `tests/totals_properties.rs` checks that against an exact rational oracle.
//!
//! Measured (2026-11-22):
//!
//! - ExactDecimal reproduces **375 of the 416** shared vectors (`tests/totals_vectors.rs`
//!   prints the figure); the 41 others are 30 inline and 11 summary estimates, all with a
//!   line total one cent apart (named cases: "half-cent line below tie in binary", "rate
//!   with three decimals 1.005", "inline percentage line discount on a half cent").
//!   CrmParity reproduces all 416.
//! - On 20,000 random realistic estimates (`examples/policy_agreement.rs`, seed 2024, shaped
//!   like the vectors), **10.5 %** have at least one differing figure: 7.6 % of summary and
//!   13.4 % of inline estimates (10.6 % with seed 7). The spec's "about 7 %" came from a
//!   different sample; quarter quantities times prices in cents make half cents common.
//!
//! ExactDecimal is exact except for one step: the inline tax `Σ tᵢ·rateᵢ / (100 + rateᵢ)`
//! is a sum of quotients carried to `Decimal`'s 28 significant digits (summed per rate
//! before dividing), so it can differ from the true rational value only when that lies
//! within about 10^-20 of a half cent.
//!
//! # Currencies with other minor units
//!
//! Both policies round to the currency's minor unit ([`TotalsInput::minor_units`], API.md
//! §18) wherever TOTALS.md rounds to cents: `r2`, `to_fixed2`, `db` and `php14` then `db`
//! become the same functions with `10^dp` in place of `100` (`round(|x| · 10^dp) / 10^dp`,
//! `toFixed(dp)`, the database rounding to `dp` places). At 2 decimals that is exactly
//! the CRM's arithmetic, and the 416 vectors are unchanged; at 0 and 3 it is what the CRM's
//! functions would do with that exponent (the CRM itself has only 2), deterministic and
//! checked by `tests/totals_properties.rs` (figures with at most `dp` decimals, the sums,
//! and agreement with the exact rational oracle away from half units). Percentages
//! (`tax_total_percentage`) keep 2 decimals in every currency. Under `CrmParity` a
//! 3-decimal amount must stay below 2^53 thousandths (about 9.007 × 10^12) so that every
//! rounded amount is an exact double; larger ones are an [`TotalsError::Overflow`].
//!
//! # Speed
//!
//! Per line, on 1,000-line estimates (`benches/totals.rs`, criterion, 2026-11-22, a 2-core
//! AMD EPYC virtual machine, otherwise idle; inline lines with mixed discounts and tax
//! rates, summary estimates with two rates and a percentage header discount; targets 100 ns
//! for CrmParity and 200 ns for ExactDecimal):
//!
//! | mode    | CrmParity | ExactDecimal |
//! |---------|-----------|--------------|
//! | summary | 14 ns     | 76 ns        |
//! | inline  | 47 ns     | 151 ns       |
//!
//! (`cargo bench --bench totals -- --warm-up-time 1 --measurement-time 3`; the run before
//! gave 17 / 81 / 51 / 166 ns, and one before `Money::from_cents` checked its range on the
//! integer instead of building decimals, with another process busy on one core, 53 / 77 /
//! 87 / 155 ns.)
//! A one-line estimate costs well under a microsecond, mostly building its ten result
//! amounts.
//!
//! ```
//! use crm_core::money::{MinorUnits, Money, Percent, Quantity, UnitRate};
//! use crm_core::totals::{compute, HeaderDiscount, Line, LineDiscount, Policy, TaxMode, TotalsInput};
//!
//! let input = TotalsInput {
//!     tax_mode: TaxMode::Summary,
//!     lines: vec![Line {
//!         quantity: "1.5".parse::<Quantity>().unwrap(),
//!         rate: "1385.27".parse::<UnitRate>().unwrap(),
//!         discount: LineDiscount::None,
//!         tax_rate: None,
//!         vat: None,
//!     }],
//!     tax_rates: vec![],
//!     discount: HeaderDiscount::None,
//!     adjustment: Money::ZERO,
//!     minor_units: MinorUnits::TWO,
//! };
//! // 1.5 × 1385.27 = 2077.905 exactly, but 2077.9049999… as a double: the CRM shows 2077.90.
//! let parity = compute(&input, Policy::CrmParity).unwrap();
//! assert_eq!(parity.totals.final_amount.to_string(), "2077.90");
//! let exact = compute(&input, Policy::ExactDecimal).unwrap();
//! assert_eq!(exact.totals.final_amount.to_string(), "2077.91");
//! ```

use serde::{Deserialize, Serialize};

use crate::money::{MinorUnits, Money, Percent, Quantity, UnitRate};

mod exact;
mod parity;
pub mod vat;

/// Which arithmetic the calculator uses. See the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// The CRM's own figures, bit for bit: `f64` arithmetic and the CRM's rounding
    /// functions. The HTTP service uses this policy.
    #[default]
    CrmParity,
    /// The same steps on exact decimals, every rounding half away from zero.
    ExactDecimal,
}

impl Policy {
    /// `crm` or `exact`: its name in `--totals-policy` and in the store.
    pub fn name(self) -> &'static str {
        match self {
            Policy::CrmParity => "crm",
            Policy::ExactDecimal => "exact",
        }
    }

    /// The policy named `name` ([`Policy::name`]).
    pub fn from_name(name: &str) -> Option<Policy> {
        [Policy::CrmParity, Policy::ExactDecimal]
            .into_iter()
            .find(|p| p.name() == name)
    }
}

/// How an estimate applies taxes (`bill_tax_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaxMode {
    /// Estimate-level tax rates applied to the discounted subtotal.
    #[default]
    Summary,
    /// A tax rate and a discount per line; line totals include their tax.
    Inline,
    /// The arithmetic of EN 16931 (TOTALS.md "VAT mode", [`vat`]): one VAT rate and an
    /// optional discount per line, net lines rounded once, a document discount split into
    /// an allowance per VAT rate, VAT per (category, rate) rounded once.
    Vat,
}

/// The kind of an estimate's header discount (`bill_discount_type`), as stored and shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscountKind {
    /// No discount.
    #[default]
    None,
    /// A fixed amount.
    Fixed,
    /// A percentage of the subtotal.
    Percentage,
}

/// A line's own discount (inline mode only; ignored in summary mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LineDiscount {
    /// No discount.
    #[default]
    None,
    /// A fixed amount off the line (capped at the line's value).
    Fixed(Money),
    /// A percentage of the line's value.
    Percentage(Percent),
}

/// The estimate's header discount (summary mode only; ignored in inline mode).
///
/// The calculator follows TOTALS.md for any value it is given: a fixed amount larger than
/// the subtotal, or a percentage over 100, makes the final amount negative, and a negative
/// fixed amount is not subtracted (step 4) but still enters the final sum (step 6). The
/// API never passes a negative amount or a percentage over 100: its validation
/// ([`crate::bill`]) takes discount amounts of zero or more and percentages from 0 to 100.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum HeaderDiscount {
    /// No discount.
    #[default]
    None,
    /// A fixed amount off the subtotal (may exceed it).
    Fixed(Money),
    /// A percentage of the subtotal.
    Percentage(Percent),
}

impl HeaderDiscount {
    /// The stored kind of this discount.
    pub fn kind(&self) -> DiscountKind {
        match self {
            HeaderDiscount::None => DiscountKind::None,
            HeaderDiscount::Fixed(_) => DiscountKind::Fixed,
            HeaderDiscount::Percentage(_) => DiscountKind::Percentage,
        }
    }
}

/// One line item as the calculator sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Line {
    /// Quantity (> 0).
    pub quantity: Quantity,
    /// Unit rate (> 0).
    pub rate: UnitRate,
    /// The line's discount (inline mode only).
    pub discount: LineDiscount,
    /// The line's tax rate (inline mode only); `None` means no tax.
    pub tax_rate: Option<Percent>,
    /// The line's VAT rate (VAT mode only: its tax rate's id, category and percentage);
    /// `None` is the "No Tax" rate (category Z, 0 %, [`vat::NO_TAX`]).
    pub vat: Option<vat::VatRate>,
}

/// Everything the totals depend on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TotalsInput {
    /// Summary or inline taxation.
    pub tax_mode: TaxMode,
    /// The line items, in order.
    pub lines: Vec<Line>,
    /// Summary mode: the selected estimate-level tax rates (ignored in inline mode).
    pub tax_rates: Vec<Percent>,
    /// Summary mode: the header discount (ignored in inline mode).
    pub discount: HeaderDiscount,
    /// The adjustment added to the final amount (may be negative).
    pub adjustment: Money,
    /// The document currency's minor unit: every rounding point rounds to this many
    /// decimals (2 by default, as for `EUR`; 0 for `JPY`, 3 for `KWD`). The given amounts
    /// (fixed discounts, adjustment) must have no more decimals; the API validates that.
    pub minor_units: MinorUnits,
}

/// The computed figures of one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct LineTotals {
    /// The line total (inline mode: after discount, including tax).
    pub total: Money,
    /// The line's stored discount amount (`0.00` in summary mode).
    pub discount_amount: Money,
}

/// The estimate's `totals` object, minus `adjustment_description` (which is not computed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Totals {
    /// Sum of the line totals.
    pub subtotal: Money,
    /// Summary: the subtotal before the header discount; inline: the sum of
    /// quantity × rate before line discounts.
    pub subtotal_before_discount: Money,
    /// The header discount's kind (always `none` in inline mode).
    pub discount_type: DiscountKind,
    /// The header discount percentage for `percentage` discounts, else `0.00`.
    pub discount_percentage: Percent,
    /// Summary: the header discount amount; inline: the sum of the line discounts.
    pub discount_amount: Money,
    /// The amount taxes apply to.
    pub amount_before_tax: Money,
    /// Summary: the sum of the selected rates; inline: `0.00`.
    pub tax_total_percentage: Percent,
    /// The total tax.
    pub tax_total_amount: Money,
    /// The adjustment, as given.
    pub adjustment_amount: Money,
    /// What the client pays.
    pub final_amount: Money,
}

/// The calculator's result: one [`LineTotals`] per input line, in order, and the totals.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Computed {
    /// Per-line figures, in input order.
    pub lines: Vec<LineTotals>,
    /// The estimate's totals.
    pub totals: Totals,
}

/// Why totals could not be computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TotalsError {
    /// A computed amount does not fit the stored columns (money below 10^13,
    /// percentages below 10^8; under [`Policy::CrmParity`] at 3 decimals, money below
    /// 2^53 thousandths, about 9.007 × 10^12, so that every amount is an exact double).
    #[error("a computed amount is out of range")]
    Overflow,
    /// VAT mode: the adjustment is not a rounding amount (|adjustment| ≥ 1, BT-114).
    #[error("the adjustment is not a rounding amount")]
    NotRounding,
}

/// Computes line and estimate totals under `policy` (VAT mode is exact decimal under
/// either policy).
///
/// Never panics: values that do not fit the stored columns give [`TotalsError::Overflow`].
pub fn compute(input: &TotalsInput, policy: Policy) -> Result<Computed, TotalsError> {
    if input.tax_mode == TaxMode::Vat {
        // Exact decimal by definition: EN 16931 has no parity variant.
        return vat::compute(input);
    }
    match policy {
        Policy::CrmParity => parity::compute(input),
        Policy::ExactDecimal => exact::compute(input),
    }
}
