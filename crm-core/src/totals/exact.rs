//! The [`Policy::ExactDecimal`](super::Policy::ExactDecimal) arithmetic: the steps of
//! `docs/contract/TOTALS.md` on [`Decimal`], every rounding point (`r2`, `to_fixed2`, `db`,
//! `php14` then `db`) being [`round_half_away`] to the currency's minor unit (two places
//! for `EUR`).
//!
//! Every operation is checked: an intermediate value that does not fit a `Decimal` is a
//! [`TotalsError::Overflow`], never a panic.
//!
//! Exactness. Sums, differences and products of the inputs are exact whenever the stored
//! results fit their columns: `Decimal` holds 28 significant digits, and a product only
//! loses digits when it reaches about 10^20, far beyond any storable amount (such inputs end
//! in `Overflow`). The one inexact step is the inline tax `Σ tᵢ·rateᵢ / (100 + rateᵢ)`: those
//! quotients rarely have a finite decimal expansion, so each is carried to `Decimal`'s 28
//! significant digits. The lines are grouped by rate first (`Σ tᵢ` per rate, then one
//! division per rate), which is mathematically the same sum, makes it exact whenever each
//! rate's quotient terminates, and leaves an error below 10^-20 otherwise: the rounded tax
//! can only differ from the exact rational one when that lies within 10^-20 of a half cent.

use rust_decimal::Decimal;

use super::{
    Computed, DiscountKind, HeaderDiscount, LineDiscount, LineTotals, TaxMode, Totals, TotalsError,
    TotalsInput,
};
use crate::money::{MinorUnits, Money, Percent, round_half_away};

/// `1/100`, so that "`x · pct / 100`" is one exact multiplication by `pct · 0.01`.
const HUNDREDTH: Decimal = Decimal::from_parts(1, 0, 0, false, 2);

/// One hundred.
const HUNDRED: Decimal = Decimal::from_parts(100, 0, 0, false, 0);

/// Past this many distinct inline tax rates the remaining lines are divided one by one
/// (the grouping's linear search would otherwise grow quadratically).
const MAX_RATE_GROUPS: usize = 16;

/// Computes the totals with exact decimal arithmetic.
pub(super) fn compute(input: &TotalsInput) -> Result<Computed, TotalsError> {
    match input.tax_mode {
        TaxMode::Summary => summary(input),
        TaxMode::Inline => inline(input),
        TaxMode::Vat => super::vat::compute(input),
    }
}

/// Summary mode: the spec's steps 1–7 on decimals.
fn summary(input: &TotalsInput) -> Result<Computed, TotalsError> {
    let round_money = |value| round_money(value, input.minor_units);
    let mut lines = Vec::with_capacity(input.lines.len());
    let mut subtotal = Decimal::ZERO;
    for line in &input.lines {
        let total = round_money(mul(line.quantity.get(), line.rate.get())?)?;
        subtotal = add(subtotal, total.get())?;
        lines.push(LineTotals {
            total,
            discount_amount: Money::ZERO,
        });
    }
    let (discount, discount_percentage) = match input.discount {
        HeaderDiscount::None => (Decimal::ZERO, Percent::ZERO),
        HeaderDiscount::Fixed(amount) => (amount.get(), Percent::ZERO),
        HeaderDiscount::Percentage(pct) => (percent_of(subtotal, pct.get())?, pct),
    };
    let amount_before_tax = if discount > Decimal::ZERO {
        sub(subtotal, discount)?
    } else {
        subtotal
    };
    let tax_pct = input
        .tax_rates
        .iter()
        .try_fold(Decimal::ZERO, |sum, rate| add(sum, rate.get()))?;
    let tax = if tax_pct > Decimal::ZERO {
        percent_of(amount_before_tax, tax_pct)?
    } else {
        Decimal::ZERO
    };
    let final_amount = add(add(sub(subtotal, discount)?, tax)?, input.adjustment.get())?;
    let subtotal = round_money(subtotal)?;
    let totals = Totals {
        subtotal,
        subtotal_before_discount: subtotal,
        discount_type: input.discount.kind(),
        discount_percentage,
        discount_amount: round_money(discount)?,
        amount_before_tax: round_money(amount_before_tax)?,
        tax_total_percentage: Percent::new(round_half_away(tax_pct, 2))
            .map_err(|_| TotalsError::Overflow)?,
        tax_total_amount: round_money(tax)?,
        adjustment_amount: input.adjustment,
        final_amount: round_money(final_amount)?,
    };
    Ok(Computed { lines, totals })
}

/// Inline mode: the spec's steps 1–6 and the server's recomputed figures on decimals.
///
/// In exact arithmetic `to_fixed2(raw)` and `db(php14(raw))` are the same rounding, so a
/// line's stored discount is the discount its total uses.
fn inline(input: &TotalsInput) -> Result<Computed, TotalsError> {
    let round_money = |value| round_money(value, input.minor_units);
    let mut lines = Vec::with_capacity(input.lines.len());
    let (mut subtotal, mut gross, mut discounts) = (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO);
    let mut tax = InlineTax::default();
    for line in &input.lines {
        let base = mul(line.quantity.get(), line.rate.get())?;
        gross = add(gross, base)?;
        let discount_amount = match line.discount {
            LineDiscount::None => Money::ZERO,
            // Stored as given unless it exceeds the line (the amount has the currency's
            // decimals at most, so rounding it would be a no-op).
            LineDiscount::Fixed(amount) if amount.get() <= base => amount,
            LineDiscount::Fixed(_) => round_money(base)?,
            LineDiscount::Percentage(pct) => round_money(percent_of(base, pct.get())?.min(base))?,
        };
        let after = sub(base, discount_amount.get())?;
        let rate = line.tax_rate.map_or(Decimal::ZERO, Percent::get);
        let taxed = if rate.is_zero() {
            after
        } else {
            add(after, percent_of(after, rate)?)?
        };
        let total = round_money(taxed)?;
        subtotal = add(subtotal, total.get())?;
        discounts = add(discounts, discount_amount.get())?;
        if !rate.is_zero() && !total.get().is_zero() {
            tax.add(rate, total.get())?;
        }
        lines.push(LineTotals {
            total,
            discount_amount,
        });
    }
    let subtotal = round_money(subtotal)?;
    let totals = Totals {
        subtotal,
        subtotal_before_discount: round_money(gross)?,
        discount_type: DiscountKind::None,
        discount_percentage: Percent::ZERO,
        discount_amount: round_money(discounts)?,
        amount_before_tax: subtotal,
        tax_total_percentage: Percent::ZERO,
        tax_total_amount: round_money(tax.total()?)?,
        adjustment_amount: input.adjustment,
        final_amount: round_money(add(subtotal.get(), input.adjustment.get())?)?,
    };
    Ok(Computed { lines, totals })
}

/// The inline tax `Σ tᵢ·rateᵢ / (100 + rateᵢ)`, summed per rate before dividing.
#[derive(Default)]
struct InlineTax {
    /// `(rate, Σ tᵢ)` for the first [`MAX_RATE_GROUPS`] distinct rates, in order of first use.
    /// Rates are told apart by their representation (mantissa and scale), which is cheaper
    /// than comparing decimals; an equal rate written at another scale only makes one more
    /// group, which changes nothing mathematically.
    groups: Vec<(Decimal, Decimal)>,
    /// The quotients of lines whose rate found no group.
    ungrouped: Decimal,
}

impl InlineTax {
    fn add(&mut self, rate: Decimal, total: Decimal) -> Result<(), TotalsError> {
        let key = (rate.mantissa(), rate.scale());
        let same = |(r, _): &&mut (Decimal, Decimal)| (r.mantissa(), r.scale()) == key;
        if let Some(group) = self.groups.iter_mut().find(same) {
            group.1 = add(group.1, total)?;
        } else if self.groups.len() < MAX_RATE_GROUPS {
            self.groups.push((rate, total));
        } else {
            self.ungrouped = add(self.ungrouped, tax_inside(total, rate)?)?;
        }
        Ok(())
    }

    fn total(&self) -> Result<Decimal, TotalsError> {
        self.groups
            .iter()
            .try_fold(self.ungrouped, |sum, &(rate, total)| {
                add(sum, tax_inside(total, rate)?)
            })
    }
}

/// The tax contained in a tax-inclusive `total` at `rate` percent: `total·rate / (100 + rate)`.
fn tax_inside(total: Decimal, rate: Decimal) -> Result<Decimal, TotalsError> {
    mul(total, rate)?
        .checked_div(add(HUNDRED, rate)?)
        .ok_or(TotalsError::Overflow)
}

/// `value · pct / 100`, as one exact multiplication by the exact `pct / 100`.
fn percent_of(value: Decimal, pct: Decimal) -> Result<Decimal, TotalsError> {
    mul(value, mul(pct, HUNDREDTH)?)
}

/// Rounds half away from zero to the currency's minor unit; a result of 10^13 or more is
/// an overflow.
fn round_money(value: Decimal, minor: MinorUnits) -> Result<Money, TotalsError> {
    Money::round_to(value, minor).map_err(|_| TotalsError::Overflow)
}

fn mul(a: Decimal, b: Decimal) -> Result<Decimal, TotalsError> {
    a.checked_mul(b).ok_or(TotalsError::Overflow)
}

fn add(a: Decimal, b: Decimal) -> Result<Decimal, TotalsError> {
    a.checked_add(b).ok_or(TotalsError::Overflow)
}

fn sub(a: Decimal, b: Decimal) -> Result<Decimal, TotalsError> {
    a.checked_sub(b).ok_or(TotalsError::Overflow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::{Quantity, UnitRate};
    use crate::totals::Line;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn line(q: &str, rate: &str, discount: LineDiscount, tax: Option<&str>) -> Line {
        Line {
            quantity: Quantity::parse(q).unwrap(),
            rate: UnitRate::parse(rate).unwrap(),
            discount,
            tax_rate: tax.map(|t| Percent::parse(t).unwrap()),
            vat: None,
        }
    }

    fn summary_of(lines: Vec<Line>) -> Computed {
        let input = TotalsInput {
            lines,
            ..TotalsInput::default()
        };
        compute(&input).unwrap()
    }

    #[test]
    fn r2_of_1_005_is_1_01_because_the_decimal_is_an_exact_tie() {
        let computed = summary_of(vec![line("1", "1.005", LineDiscount::None, None)]);
        assert_eq!(computed.lines[0].total.to_string(), "1.01");
    }

    #[test]
    fn the_half_cent_product_rounds_up_where_the_crm_rounds_down() {
        let computed = summary_of(vec![line("1.5", "1385.27", LineDiscount::None, None)]);
        assert_eq!(computed.totals.final_amount.to_string(), "2077.91");
        let computed = summary_of(vec![line("1.5", "10.01", LineDiscount::None, None)]);
        assert_eq!(computed.totals.final_amount.to_string(), "15.02");
    }

    #[test]
    fn to_fixed2_of_2_675_becomes_2_68_on_the_exact_value() {
        // The CRM's toFixed gives 2.67 (the double is below the tie); exact rounding 2.68.
        let input = TotalsInput {
            tax_mode: TaxMode::Inline,
            lines: vec![line(
                "1",
                "26.75",
                LineDiscount::Percentage(Percent::parse("10").unwrap()),
                None,
            )],
            ..TotalsInput::default()
        };
        let computed = compute(&input).unwrap();
        assert_eq!(computed.lines[0].discount_amount.to_string(), "2.68");
        assert_eq!(computed.lines[0].total.to_string(), "24.07");
    }

    #[test]
    fn negative_amounts_round_half_away_from_zero() {
        let input = TotalsInput {
            lines: vec![line("1", "10.00", LineDiscount::None, None)],
            discount: HeaderDiscount::Fixed(Money::parse("15.00").unwrap()),
            tax_rates: vec![Percent::parse("10.05").unwrap()],
            ..TotalsInput::default()
        };
        // (10 − 15) × 10.05 % = −0.5025 → −0.50; final −5.5025 → −5.50.
        let totals = compute(&input).unwrap().totals;
        assert_eq!(totals.tax_total_amount.to_string(), "-0.50");
        assert_eq!(totals.final_amount.to_string(), "-5.50");
        assert_eq!(round_half_away(d("-0.125"), 2), d("-0.13"));
    }

    #[test]
    fn inline_tax_is_taken_back_out_of_each_rate_group_exactly() {
        // 110.00 at 10 % contains 10.00; 0.01 + 0.01 + 0.01 at 50 % contain 0.01 exactly,
        // although each 0.01 / 3 alone has no finite decimal.
        let input = TotalsInput {
            tax_mode: TaxMode::Inline,
            lines: vec![
                line("1", "100.00", LineDiscount::None, Some("10")),
                line("1", "0.0067", LineDiscount::None, Some("50")),
                line("1", "0.0067", LineDiscount::None, Some("50")),
                line("1", "0.0067", LineDiscount::None, Some("50")),
            ],
            ..TotalsInput::default()
        };
        let computed = compute(&input).unwrap();
        assert_eq!(computed.lines[1].total.to_string(), "0.01");
        assert_eq!(computed.totals.tax_total_amount.to_string(), "10.01");
    }

    #[test]
    fn amounts_beyond_the_columns_are_an_overflow_not_a_panic() {
        let huge = line(
            "99999999999.9999",
            "99999999999.9999",
            LineDiscount::None,
            None,
        );
        let input = TotalsInput {
            lines: vec![huge; 3],
            ..TotalsInput::default()
        };
        assert_eq!(compute(&input), Err(TotalsError::Overflow));
        let input = TotalsInput {
            tax_mode: TaxMode::Inline,
            ..input
        };
        assert_eq!(compute(&input), Err(TotalsError::Overflow));
    }
}
