//! The VAT mode of the calculator (TOTALS.md "VAT mode", API.md §19): the arithmetic of
//! EN 16931, for documents exported as e-invoices. Exact decimal throughout, every rounding
//! half away from zero to the currency's minor unit.
//!
//! 1. Each line has one VAT rate (its category and percentage); its net amount is
//!    `round(quantity × rate − discount)` (BT-131).
//! 2. `subtotal = Σ net` (BT-106).
//! 3. A header discount (a fixed amount, or a percentage of the subtotal rounded once) is
//!    split over the VAT groups (category, rate) in proportion to each group's Σ net, each
//!    share rounded, the minor units left over given one by one to the groups with the
//!    largest bases (ties: the lower tax rate id): one document-level allowance (BG-20) per
//!    group. The adjustment is only a rounding amount (BT-114, |adjustment| < 1.00).
//! 4. Per group: `base = Σ net − allowance` (BT-116), `vat = round(base × rate / 100)`
//!    (BT-117).
//! 5. `amount_before_tax = Σ base` (BT-109), `tax_total = Σ vat` (BT-110), `final = amount
//!    before tax + tax total + adjustment` (BT-112 + BT-114).
//!
//! The figures never depend on the order of the lines, and EN 16931's sums (BR-CO-10 to
//! BR-CO-16) hold with zero tolerance: the property tests below check both.
//!
//! ```
//! use crm_core::money::{MinorUnits, Money, Percent, Quantity, UnitRate};
//! use crm_core::tax_rate::VatCategory;
//! use crm_core::totals::vat::{VatInput, VatLine, VatRate, compute_vat};
//! use crm_core::totals::{HeaderDiscount, LineDiscount};
//!
//! let standard = VatRate { id: 2, category: VatCategory::S, rate: "19".parse().unwrap() };
//! let line = |q: &str, r: &str| VatLine {
//!     quantity: q.parse::<Quantity>().unwrap(),
//!     rate: r.parse::<UnitRate>().unwrap(),
//!     discount: LineDiscount::None,
//!     vat: standard,
//! };
//! let input = VatInput {
//!     lines: vec![line("3", "33.33"), line("1", "0.01")],
//!     discount: HeaderDiscount::Percentage("10".parse::<Percent>().unwrap()),
//!     adjustment: Money::ZERO,
//!     minor_units: MinorUnits::TWO,
//! };
//! let t = compute_vat(&input).unwrap();
//! assert_eq!(t.subtotal.to_string(), "100.00");
//! assert_eq!(t.groups[0].allowance.to_string(), "10.00");
//! assert_eq!(t.groups[0].amount.to_string(), "17.10");
//! assert_eq!(t.final_amount.to_string(), "107.10");
//! ```

use rust_decimal::Decimal;

use super::{
    Computed, DiscountKind, HeaderDiscount, LineDiscount, LineTotals, Totals, TotalsError,
    TotalsInput,
};
use crate::money::{MinorUnits, Money, Percent, Quantity, UnitRate, round_half_away};
use crate::tax_rate::VatCategory;

/// The largest adjustment VAT mode takes, exclusive: a rounding amount (BT-114).
pub const MAX_ROUNDING: Decimal = Decimal::ONE;

/// The rate of a line without one: the system "No Tax" rate, category Z at 0 % (its id, 0,
/// orders it before every stored rate).
pub const NO_TAX: VatRate = VatRate {
    id: 0,
    category: VatCategory::Z,
    rate: Percent::ZERO,
};

/// The calculator's VAT mode ([`super::compute`] with [`super::TaxMode::Vat`]): the
/// figures of [`compute_vat`] as the API's line and document totals. A line's total is its
/// net amount (BT-131) and its discount amount `round(quantity × rate) − net`, so that
/// `net = quantity × rate − discount` holds as EN 16931 states it (BR-LIN-04); the
/// subtotal before discount is Σ `round(quantity × rate)`; the discount amount is the
/// document-level allowance (BT-107); the tax total percentage is `0.00` (the rates are
/// per line, as in inline mode).
pub(super) fn compute(input: &TotalsInput) -> Result<Computed, TotalsError> {
    let vat_input = VatInput {
        lines: input
            .lines
            .iter()
            .map(|l| VatLine {
                quantity: l.quantity,
                rate: l.rate,
                discount: l.discount,
                vat: l.vat.unwrap_or(NO_TAX),
            })
            .collect(),
        discount: input.discount,
        adjustment: input.adjustment,
        minor_units: input.minor_units,
    };
    let t = compute_vat(&vat_input).map_err(|e| match e {
        VatError::NotRounding => TotalsError::NotRounding,
        VatError::Overflow => TotalsError::Overflow,
    })?;
    let dp = input.minor_units.get();
    let money = |d: Decimal| Money::new(d).map_err(|_| TotalsError::Overflow);
    let mut before_discount = Decimal::ZERO;
    let mut lines = Vec::with_capacity(t.line_nets.len());
    for (line, net) in input.lines.iter().zip(&t.line_nets) {
        let gross = line
            .quantity
            .get()
            .checked_mul(line.rate.get())
            .map(|g| round_half_away(g, dp))
            .ok_or(TotalsError::Overflow)?;
        before_discount += gross;
        lines.push(LineTotals {
            total: *net,
            discount_amount: money(gross - net.get())?,
        });
    }
    let (discount_type, discount_percentage) = match input.discount {
        HeaderDiscount::None => (DiscountKind::None, Percent::ZERO),
        HeaderDiscount::Fixed(_) => (DiscountKind::Fixed, Percent::ZERO),
        HeaderDiscount::Percentage(p) => (DiscountKind::Percentage, p),
    };
    Ok(Computed {
        lines,
        totals: Totals {
            subtotal: t.subtotal,
            subtotal_before_discount: money(before_discount)?,
            discount_type,
            discount_percentage,
            discount_amount: t.discount_amount,
            amount_before_tax: t.amount_before_tax,
            tax_total_percentage: Percent::ZERO,
            tax_total_amount: t.tax_total,
            adjustment_amount: t.adjustment,
            final_amount: t.final_amount,
        },
    })
}

/// A line's VAT rate: the tax rate's id (which orders ties), its category and percentage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VatRate {
    /// The tax rate's id.
    pub id: i64,
    /// Its VAT category (BT-151).
    pub category: VatCategory,
    /// Its percentage (BT-152).
    pub rate: Percent,
}

/// One line of a VAT-mode document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VatLine {
    /// Quantity (BT-129).
    pub quantity: Quantity,
    /// Net unit price (BT-146).
    pub rate: UnitRate,
    /// The line's allowance (BT-136: a fixed amount, or a percentage of quantity × rate).
    pub discount: LineDiscount,
    /// Its one VAT rate.
    pub vat: VatRate,
}

/// What the VAT mode computes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VatInput {
    /// The lines, in any order.
    pub lines: Vec<VatLine>,
    /// The document-level discount.
    pub discount: HeaderDiscount,
    /// The rounding amount (BT-114), |adjustment| < 1.00.
    pub adjustment: Money,
    /// The currency's minor unit every figure is rounded to.
    pub minor_units: MinorUnits,
}

/// One VAT group (BG-23): its category and rate, and its figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VatGroup {
    /// The tax rate (its id is the smallest of the group's lines' rates of this category
    /// and percentage).
    pub vat: VatRate,
    /// Σ net of its lines.
    pub lines: Money,
    /// Its share of the document-level discount (BG-20's BT-92).
    pub allowance: Money,
    /// Its taxable amount (BT-116).
    pub base: Money,
    /// Its VAT (BT-117).
    pub amount: Money,
}

/// The figures of a VAT-mode document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VatTotals {
    /// Each line's net amount (BT-131), in the input's order.
    pub line_nets: Vec<Money>,
    /// Σ line nets (BT-106).
    pub subtotal: Money,
    /// The document-level discount (BT-107).
    pub discount_amount: Money,
    /// The VAT groups, by category then rate.
    pub groups: Vec<VatGroup>,
    /// Σ bases (BT-109).
    pub amount_before_tax: Money,
    /// Σ VAT (BT-110).
    pub tax_total: Money,
    /// The rounding amount (BT-114).
    pub adjustment: Money,
    /// Amount before tax + tax total + rounding (BT-112 + BT-114).
    pub final_amount: Money,
}

/// Why a document cannot be computed in VAT mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VatError {
    /// The adjustment is not a rounding amount (|adjustment| ≥ 1).
    #[error("the adjustment is not a rounding amount")]
    NotRounding,
    /// A figure is out of range.
    #[error("a total is out of range")]
    Overflow,
}

/// The figures of `input` (see the module's description).
pub fn compute_vat(input: &VatInput) -> Result<VatTotals, VatError> {
    if input.adjustment.get().abs() >= MAX_ROUNDING {
        return Err(VatError::NotRounding);
    }
    let dp = input.minor_units.get();
    let round = |d: Decimal| round_half_away(d, dp);
    let money = |d: Decimal| Money::new(d).map_err(|_| VatError::Overflow);
    let nets = input
        .lines
        .iter()
        .map(|l| {
            let gross = l
                .quantity
                .get()
                .checked_mul(l.rate.get())
                .ok_or(VatError::Overflow)?;
            let discount = match l.discount {
                LineDiscount::None => Decimal::ZERO,
                LineDiscount::Fixed(m) => m.get().min(gross),
                LineDiscount::Percentage(p) => gross * p.get() / Decimal::ONE_HUNDRED,
            };
            Ok(round(gross - discount))
        })
        .collect::<Result<Vec<Decimal>, VatError>>()?;
    let subtotal: Decimal = nets.iter().sum();
    // The groups, by (category, rate); each keeps the lowest tax rate id among its lines.
    let mut groups: Vec<(VatRate, Decimal)> = Vec::new();
    for (line, net) in input.lines.iter().zip(&nets) {
        let key = (line.vat.category, line.vat.rate);
        match groups.iter_mut().find(|(v, _)| (v.category, v.rate) == key) {
            Some((vat, sum)) => {
                *sum += net;
                vat.id = vat.id.min(line.vat.id);
            }
            None => groups.push((line.vat, *net)),
        }
    }
    groups.sort_by(|(a, _), (b, _)| {
        (a.category.as_str(), a.rate.get()).cmp(&(b.category.as_str(), b.rate.get()))
    });
    let discount = match input.discount {
        HeaderDiscount::None => Decimal::ZERO,
        HeaderDiscount::Fixed(m) => m.get(),
        HeaderDiscount::Percentage(p) => round(subtotal * p.get() / Decimal::ONE_HUNDRED),
    };
    let allowances = split(discount, &groups, dp);
    let mut out = Vec::with_capacity(groups.len());
    for ((vat, lines), allowance) in groups.iter().zip(allowances) {
        let base = lines - allowance;
        let amount = round(base * vat.rate.get() / Decimal::ONE_HUNDRED);
        out.push(VatGroup {
            vat: *vat,
            lines: money(*lines)?,
            allowance: money(allowance)?,
            base: money(base)?,
            amount: money(amount)?,
        });
    }
    let amount_before_tax: Decimal = out.iter().map(|g| g.base.get()).sum();
    let tax_total: Decimal = out.iter().map(|g| g.amount.get()).sum();
    Ok(VatTotals {
        line_nets: nets.into_iter().map(money).collect::<Result<_, _>>()?,
        subtotal: money(subtotal)?,
        discount_amount: money(discount)?,
        groups: out,
        amount_before_tax: money(amount_before_tax)?,
        tax_total: money(tax_total)?,
        adjustment: input.adjustment,
        final_amount: money(amount_before_tax + tax_total + input.adjustment.get())?,
    })
}

/// `discount` split over `groups` (each with its Σ net) in proportion to their sums, each
/// share rounded down to the minor unit, then the minor units left over given one by one
/// to the groups with the largest sums (ties: the lower tax rate id). The shares add up to
/// `discount` exactly.
fn split(discount: Decimal, groups: &[(VatRate, Decimal)], dp: u32) -> Vec<Decimal> {
    let total: Decimal = groups.iter().map(|(_, s)| *s).sum();
    if discount.is_zero() || total.is_zero() {
        // Nothing to share, or nothing to share it by: the first group takes it all (a
        // discount on a document of nothing makes its base negative, as the sums require).
        return groups
            .iter()
            .enumerate()
            .map(|(i, _)| if i == 0 { discount } else { Decimal::ZERO })
            .collect();
    }
    let unit = Decimal::new(1, dp);
    let mut shares: Vec<Decimal> = groups
        .iter()
        .map(|(_, sum)| {
            (discount * sum / total)
                .round_dp_with_strategy(dp, rust_decimal::RoundingStrategy::ToZero)
        })
        .collect();
    let mut left = discount - shares.iter().sum::<Decimal>();
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by(|&a, &b| {
        groups[b]
            .1
            .cmp(&groups[a].1)
            .then(groups[a].0.id.cmp(&groups[b].0.id))
    });
    let step = if left.is_sign_negative() { -unit } else { unit };
    let mut i = 0;
    while !left.is_zero() {
        shares[order[i % order.len()]] += step;
        left -= step;
        i += 1;
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rate(id: i64, category: VatCategory, percent: &str) -> VatRate {
        VatRate {
            id,
            category,
            rate: percent.parse().unwrap(),
        }
    }

    fn line(q: &str, r: &str, vat: VatRate) -> VatLine {
        VatLine {
            quantity: q.parse().unwrap(),
            rate: r.parse().unwrap(),
            discount: LineDiscount::None,
            vat,
        }
    }

    #[test]
    fn a_discount_is_shared_by_the_groups_in_proportion_and_the_cents_left_go_to_the_largest() {
        let s19 = rate(3, VatCategory::S, "19");
        let s7 = rate(2, VatCategory::S, "7");
        let z = rate(1, VatCategory::Z, "0");
        let input = VatInput {
            lines: vec![
                line("1", "10", s19),
                line("1", "10", s7),
                line("1", "10", z),
            ],
            discount: HeaderDiscount::Fixed("1.00".parse().unwrap()),
            adjustment: Money::ZERO,
            minor_units: MinorUnits::TWO,
        };
        let t = compute_vat(&input).unwrap();
        // 1.00 / 3 = 0.333…: each takes 0.33, the cent left goes to the lowest id (equal sums).
        let shares: Vec<(String, String)> = t
            .groups
            .iter()
            .map(|g| (g.vat.id.to_string(), g.allowance.to_string()))
            .collect();
        assert_eq!(
            shares,
            [("2", "0.33"), ("3", "0.33"), ("1", "0.34")]
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
        assert_eq!(t.amount_before_tax.to_string(), "29.00");
        // 9.67 × 19 % = 1.8373 → 1.84; 9.67 × 7 % = 0.6769 → 0.68; zero rated: 0.
        assert_eq!(t.tax_total.to_string(), "2.52");
        assert_eq!(t.final_amount.to_string(), "31.52");
    }

    #[test]
    fn an_adjustment_is_only_a_rounding_amount_and_yen_have_no_decimals() {
        let s10 = rate(1, VatCategory::S, "10");
        let mut input = VatInput {
            lines: vec![line("3", "333.5", s10)],
            discount: HeaderDiscount::None,
            adjustment: "1.00".parse().unwrap(),
            minor_units: MinorUnits::ZERO,
        };
        assert_eq!(compute_vat(&input), Err(VatError::NotRounding));
        input.adjustment = Money::ZERO;
        let t = compute_vat(&input).unwrap();
        // 1000.5 → 1001 yen; VAT 100.1 → 100.
        assert_eq!(
            (t.subtotal.get(), t.tax_total.get()),
            (Decimal::from(1001), Decimal::from(100))
        );
    }

    fn vat_rate() -> impl Strategy<Value = VatRate> {
        prop_oneof![
            Just(rate(1, VatCategory::S, "19")),
            Just(rate(2, VatCategory::S, "7")),
            Just(rate(3, VatCategory::Z, "0")),
            Just(rate(4, VatCategory::S, "21")),
            Just(rate(5, VatCategory::AE, "0")),
        ]
    }

    fn vat_line() -> impl Strategy<Value = VatLine> {
        (
            1u32..=400,
            1u32..=5_000_000,
            0u8..3,
            0u32..=10_000,
            vat_rate(),
        )
            .prop_map(|(q, r, d, dv, vat)| VatLine {
                quantity: Quantity::new(Decimal::new(i64::from(q), 1)).unwrap(),
                rate: UnitRate::new(Decimal::new(i64::from(r), 4)).unwrap(),
                discount: match d {
                    0 => LineDiscount::None,
                    1 => LineDiscount::Fixed(Money::new(Decimal::new(i64::from(dv), 2)).unwrap()),
                    _ => LineDiscount::Percentage(
                        Percent::new(Decimal::new(i64::from(dv % 10_001), 2)).unwrap(),
                    ),
                },
                vat,
            })
    }

    fn input() -> impl Strategy<Value = VatInput> {
        (
            proptest::collection::vec(vat_line(), 1..12),
            0u8..3,
            0u32..=10_000,
            -99i64..=99,
            prop_oneof![
                Just(MinorUnits::ZERO),
                Just(MinorUnits::TWO),
                Just(MinorUnits::THREE)
            ],
        )
            .prop_map(|(lines, d, dv, adj, minor_units)| {
                let scale = minor_units.get();
                VatInput {
                    lines,
                    discount: match d {
                        0 => HeaderDiscount::None,
                        1 => HeaderDiscount::Fixed(
                            Money::new(Decimal::new(i64::from(dv), scale)).unwrap(),
                        ),
                        _ => HeaderDiscount::Percentage(
                            Percent::new(Decimal::new(i64::from(dv % 10_001), 2)).unwrap(),
                        ),
                    },
                    adjustment: Money::new(
                        Decimal::new(adj, 2)
                            .round_dp_with_strategy(scale, rust_decimal::RoundingStrategy::ToZero),
                    )
                    .unwrap(),
                    minor_units,
                }
            })
    }

    proptest! {
        /// EN 16931's sums hold exactly (BR-CO-10: Σ line nets = BT-106; BR-CO-11: Σ
        /// allowances = BT-107; BR-CO-13: BT-109 = BT-106 − BT-107; BR-CO-14: BT-110 = Σ
        /// BT-117; BR-CO-15: BT-112 = BT-109 + BT-110; BT-115 = BT-112 + BT-114), every
        /// figure has at most the currency's decimals, each group's VAT is its base times
        /// its rate rounded once, and no group's allowance exceeds what a share can be.
        #[test]
        fn en_16931_sums_hold_with_zero_tolerance(input in input()) {
            let t = compute_vat(&input).unwrap();
            let dp = input.minor_units.get();
            let sum = |v: &mut dyn Iterator<Item = Decimal>| v.sum::<Decimal>();
            prop_assert_eq!(sum(&mut t.line_nets.iter().map(|m| m.get())), t.subtotal.get());
            prop_assert_eq!(sum(&mut t.groups.iter().map(|g| g.allowance.get())), t.discount_amount.get());
            prop_assert_eq!(t.amount_before_tax.get(), t.subtotal.get() - t.discount_amount.get());
            prop_assert_eq!(sum(&mut t.groups.iter().map(|g| g.amount.get())), t.tax_total.get());
            prop_assert_eq!(
                t.final_amount.get(),
                t.amount_before_tax.get() + t.tax_total.get() + t.adjustment.get()
            );
            for g in &t.groups {
                prop_assert_eq!(g.base.get(), g.lines.get() - g.allowance.get());
                prop_assert_eq!(
                    g.amount.get(),
                    round_half_away(g.base.get() * g.vat.rate.get() / Decimal::ONE_HUNDRED, dp)
                );
            }
            for m in t.line_nets.iter().chain([&t.subtotal, &t.tax_total, &t.final_amount]) {
                prop_assert!(m.fits(input.minor_units), "{m}");
            }
        }

        /// The figures do not depend on the order of the lines.
        #[test]
        fn the_order_of_the_lines_changes_nothing(input in input(), seed in any::<u64>()) {
            let t = compute_vat(&input).unwrap();
            let mut shuffled = input.clone();
            let n = shuffled.lines.len();
            for i in (1..n).rev() {
                let j = usize::try_from((seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) % (i as u64 + 1)).unwrap();
                shuffled.lines.swap(i, j);
            }
            let u = compute_vat(&shuffled).unwrap();
            prop_assert_eq!(
                (t.subtotal, t.discount_amount, t.amount_before_tax, t.tax_total, t.final_amount),
                (u.subtotal, u.discount_amount, u.amount_before_tax, u.tax_total, u.final_amount)
            );
            prop_assert_eq!(t.groups, u.groups);
        }
    }
}
