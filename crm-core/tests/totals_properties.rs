//! Properties of both totals policies, on random realistic estimates and on absurd ones.
//!
//! The centre piece is an independent oracle written from `docs/contract/TOTALS.md` on exact
//! rationals (`BigRational`), not from `exact.rs`. It records the exact value at every
//! rounding point, which lets the tests state precisely when the two policies must agree.

// Test code: a panic with its message is how a failure is reported.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crm_core::money::{MinorUnits, Money, Percent, Quantity, UnitRate};
use crm_core::totals::{
    Computed, DiscountKind, HeaderDiscount, Line, LineDiscount, LineTotals, Policy, TaxMode,
    Totals, TotalsError, TotalsInput, compute,
};
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use proptest::prelude::*;
use rust_decimal::Decimal;

// ---------------------------------------------------------------------------------------
// The oracle.

fn rational(value: Decimal) -> BigRational {
    BigRational::new(
        From::from(value.mantissa()),
        From::from(10_i128.pow(value.scale())),
    )
}

fn int(value: i64) -> BigRational {
    BigRational::from_integer(From::from(value))
}

/// The exact figures of an estimate, and the exact values met at the rounding points.
struct Oracle {
    /// Every value the spec rounds (r2, to_fixed2, db, php14 then db), exactly, with a
    /// bound on the magnitudes of the values it is computed from and the number of units
    /// per whole it is rounded to (10^dp; 100 for percentages).
    points: Vec<(BigRational, BigRational, BigRational)>,
    /// `10^dp` of the currency's minor unit.
    units: BigRational,
    /// The inline tax `Σ tᵢ·rateᵢ/(100+rateᵢ)`, exactly (the one sum of quotients).
    inline_tax: Option<BigRational>,
}

/// The distance from `value` to the nearest half cent.
fn distance_to_half_cent(value: &BigRational) -> BigRational {
    distance_to_half_unit(value, &int(100))
}

/// The distance from `value` to the nearest half of `1 / units`.
fn distance_to_half_unit(value: &BigRational, units: &BigRational) -> BigRational {
    let half = BigRational::new(From::from(1), From::from(2));
    ((value.abs() * units).fract() - half).abs() / units
}

impl Oracle {
    /// Half away from zero to the currency's minor unit, recording the point and the
    /// magnitude `scale` of the values it is computed from.
    fn round(&mut self, value: BigRational, scale: &BigRational) -> BigRational {
        let units = self.units.clone();
        self.round_to(value, scale, units)
    }

    /// Half away from zero to `1 / units`.
    fn round_to(
        &mut self,
        value: BigRational,
        scale: &BigRational,
        hundred: BigRational,
    ) -> BigRational {
        let half = BigRational::new(From::from(1), From::from(2));
        let cents = (value.abs() * &hundred + half).floor();
        self.points
            .push((value.clone(), scale.clone(), hundred.clone()));
        let rounded = cents / hundred;
        if value.is_negative() {
            -rounded
        } else {
            rounded
        }
    }

    /// True when some rounding point lies so close to a half cent that doubles may land on
    /// the other side: within 10^-9, plus 6·10^-14 of the value (php14 keeps 14 significant
    /// digits: a relative change up to 0.5·10^-13), plus (n + 10)·3·10^-16 of the magnitudes
    /// it comes from (each double operation errs by at most 2^-53 ≈ 1.1·10^-16 of its
    /// operands, and a point is at most n + 10 operations deep for n lines).
    fn near_half_cent(&self, lines: usize) -> bool {
        let depth = int(lines as i64 + 10);
        let tiny = BigRational::new(From::from(1), From::from(1_000_000_000_i64));
        let php14 = BigRational::new(From::from(6), From::from(100_000_000_000_000_i64));
        let double = BigRational::new(From::from(3), From::from(10_000_000_000_000_000_i64));
        self.points.iter().any(|(value, scale, units)| {
            let margin = &tiny + &php14 * value.abs() + &double * &depth * scale;
            distance_to_half_unit(value, units) <= margin
        })
    }
}

fn money(value: &BigRational, minor: MinorUnits) -> Result<Money, TotalsError> {
    let units = (value * int(10_i64.pow(minor.get())))
        .to_integer()
        .to_i64()
        .ok_or(TotalsError::Overflow)?;
    Money::from_units(units, minor).map_err(|_| TotalsError::Overflow)
}

fn percent(value: &BigRational) -> Result<Percent, TotalsError> {
    let hundredths = (value * int(100))
        .to_integer()
        .to_i64()
        .ok_or(TotalsError::Overflow)?;
    Percent::new(Decimal::new(hundredths, 2)).map_err(|_| TotalsError::Overflow)
}

/// TOTALS.md on exact rationals, every rounding point half away from zero.
fn oracle(input: &TotalsInput) -> (Result<Computed, TotalsError>, Oracle) {
    let mut o = Oracle {
        points: Vec::new(),
        units: int(10_i64.pow(input.minor_units.get())),
        inline_tax: None,
    };
    let result = match input.tax_mode {
        TaxMode::Summary => oracle_summary(input, &mut o),
        TaxMode::Inline => oracle_inline(input, &mut o),
        TaxMode::Vat => unreachable!("VAT mode has its own properties (totals::vat)"),
    };
    (result, o)
}

fn oracle_summary(input: &TotalsInput, o: &mut Oracle) -> Result<Computed, TotalsError> {
    let hundred = int(100);
    let money = |value: &BigRational| money(value, input.minor_units);
    let mut lines = Vec::new();
    let mut subtotal = int(0);
    for line in &input.lines {
        let base = rational(line.quantity.get()) * rational(line.rate.get());
        let t = o.round(base.clone(), &base);
        subtotal += &t;
        lines.push(LineTotals {
            total: money(&t)?,
            discount_amount: Money::ZERO,
        });
    }
    let (d, pct) = match input.discount {
        HeaderDiscount::None => (int(0), Percent::ZERO),
        HeaderDiscount::Fixed(m) => (rational(m.get()), Percent::ZERO),
        HeaderDiscount::Percentage(p) => (&subtotal * rational(p.get()) / &hundred, p),
    };
    let before_tax = if d.is_positive() {
        &subtotal - &d
    } else {
        subtotal.clone()
    };
    let tax_pct: BigRational = input.tax_rates.iter().map(|r| rational(r.get())).sum();
    let tax = if tax_pct.is_positive() {
        &before_tax * &tax_pct / &hundred
    } else {
        int(0)
    };
    let final_amount = &subtotal - &d + &tax + rational(input.adjustment.get());
    let scale = (subtotal.abs() + d.abs() + rational(input.adjustment.get()).abs())
        * (int(1) + &tax_pct / &hundred);
    let subtotal = o.round(subtotal, &scale);
    let totals = Totals {
        subtotal: money(&subtotal)?,
        subtotal_before_discount: money(&subtotal)?,
        discount_type: input.discount.kind(),
        discount_percentage: pct,
        discount_amount: money(&o.round(d, &scale))?,
        amount_before_tax: money(&o.round(before_tax, &scale))?,
        tax_total_percentage: percent(&o.round_to(tax_pct.clone(), &tax_pct, int(100)))?,
        tax_total_amount: money(&o.round(tax, &scale))?,
        adjustment_amount: input.adjustment,
        final_amount: money(&o.round(final_amount, &scale))?,
    };
    Ok(Computed { lines, totals })
}

fn oracle_inline(input: &TotalsInput, o: &mut Oracle) -> Result<Computed, TotalsError> {
    let hundred = int(100);
    let money = |value: &BigRational| money(value, input.minor_units);
    let mut lines = Vec::new();
    let (mut subtotal, mut tax, mut gross, mut discounts) = (int(0), int(0), int(0), int(0));
    let mut scale = rational(input.adjustment.get()).abs();
    for line in &input.lines {
        let base = rational(line.quantity.get()) * rational(line.rate.get());
        let raw = match line.discount {
            LineDiscount::None => int(0),
            LineDiscount::Fixed(m) => rational(m.get()),
            LineDiscount::Percentage(p) => &base * rational(p.get()) / &hundred,
        };
        let raw = if raw > base { base.clone() } else { raw };
        let line_scale = &base + raw.abs();
        let used = o.round(raw.clone(), &line_scale); // to_fixed2
        let stored = o.round(raw.clone(), &line_scale); // db(php14(raw))
        let rate = line.tax_rate.map_or(int(0), |r| rational(r.get()));
        let line_scale = line_scale * (int(1) + &rate / &hundred);
        let after = &base - &used;
        let t = o.round(&after + &after * &rate / &hundred, &line_scale);
        if !rate.is_zero() && !t.is_zero() {
            tax += &t * &rate / (&hundred + &rate);
        }
        scale += line_scale;
        subtotal += &t;
        gross += &base;
        discounts += &stored;
        lines.push(LineTotals {
            total: money(&t)?,
            discount_amount: money(&stored)?,
        });
    }
    o.inline_tax = Some(tax.clone());
    let final_amount = &subtotal + rational(input.adjustment.get());
    let subtotal = o.round(subtotal, &scale);
    let totals = Totals {
        subtotal: money(&subtotal)?,
        subtotal_before_discount: money(&o.round(gross, &scale))?,
        discount_type: DiscountKind::None,
        discount_percentage: Percent::ZERO,
        discount_amount: money(&o.round(discounts, &scale))?,
        amount_before_tax: money(&subtotal)?,
        tax_total_percentage: Percent::ZERO,
        tax_total_amount: money(&o.round(tax, &scale))?,
        adjustment_amount: input.adjustment,
        final_amount: money(&o.round(final_amount, &scale))?,
    };
    Ok(Computed { lines, totals })
}

// ---------------------------------------------------------------------------------------
// Generators.

/// `units · 10^-4` with `units` log-uniform in `1..=max_units`, then cut to fewer decimals
/// now and then (most amounts have 0 or 2).
fn scaled(max_units: u64) -> impl Strategy<Value = Decimal> {
    let digits = max_units.ilog10();
    (
        1..=digits,
        any::<u64>(),
        prop::sample::select(vec![0_u32, 1, 2, 2, 2, 3, 4]),
    )
        .prop_map(move |(d, bits, decimals)| {
            let units = 1 + bits % 10_u64.pow(d).min(max_units);
            let cut = 10_u64.pow(4 - decimals);
            let units = (units / cut).max(1) * cut;
            Decimal::new(units as i64, 4)
        })
}

fn quantity() -> impl Strategy<Value = Quantity> {
    prop_oneof![
        (1_i64..=12).prop_map(|n| Quantity::new(Decimal::from(n)).unwrap()),
        scaled(100_000_000).prop_map(|d| Quantity::new(d).unwrap()),
    ]
}

fn unit_rate() -> impl Strategy<Value = UnitRate> {
    scaled(10_000_000_000).prop_map(|d| UnitRate::new(d).unwrap())
}

fn percentage() -> impl Strategy<Value = Percent> {
    prop_oneof![
        prop::sample::select(vec![0_i64, 500, 750, 1000, 1250, 2000, 2100, 2500, 10000]),
        0_i64..=10_000,
    ]
    .prop_map(|hundredths| Percent::new(Decimal::new(hundredths, 2)).unwrap())
}

/// An amount of up to `max` hundredths of a whole in a currency of `minor` decimals (with
/// all of that currency's decimals used).
fn units(max: i64, minor: MinorUnits) -> impl Strategy<Value = Money> {
    let per_cent = 10_i64.pow(minor.get()) as f64 / 100.0;
    let max = (max as f64 * per_cent) as i64;
    (0..=max).prop_map(move |c| Money::from_units(c, minor).unwrap())
}

fn line() -> impl Strategy<Value = Line> {
    line_in(MinorUnits::TWO)
}

fn line_in(minor: MinorUnits) -> impl Strategy<Value = Line> {
    let discount = prop_oneof![
        Just(LineDiscount::None),
        percentage().prop_map(LineDiscount::Percentage),
        units(10_000_000, minor).prop_map(LineDiscount::Fixed),
    ];
    (
        quantity(),
        unit_rate(),
        discount,
        prop::option::of(percentage()),
    )
        .prop_map(|(quantity, rate, discount, tax_rate)| Line {
            vat: None,
            quantity,
            rate,
            discount,
            tax_rate,
        })
}

fn header_discount() -> impl Strategy<Value = HeaderDiscount> {
    header_discount_in(MinorUnits::TWO)
}

fn header_discount_in(minor: MinorUnits) -> impl Strategy<Value = HeaderDiscount> {
    prop_oneof![
        Just(HeaderDiscount::None),
        units(10_000_000, minor).prop_map(HeaderDiscount::Fixed),
        percentage().prop_map(HeaderDiscount::Percentage),
    ]
}

fn estimate_in(mode: TaxMode) -> impl Strategy<Value = TotalsInput> {
    estimate_in_units(mode, MinorUnits::TWO)
}

fn estimate_in_units(mode: TaxMode, minor: MinorUnits) -> impl Strategy<Value = TotalsInput> {
    let adjustment = units(2_000_000, minor).prop_map(move |m| {
        Money::from_units(
            (m.get() * Decimal::from(10_i64.pow(minor.get())))
                .to_i64()
                .unwrap()
                - 1_000_000 * 10_i64.pow(minor.get()) / 100,
            minor,
        )
        .unwrap()
    });
    (
        prop::collection::vec(line_in(minor), 1..=30),
        prop::collection::vec(percentage(), 0..=3),
        header_discount_in(minor),
        adjustment,
    )
        .prop_map(
            move |(lines, tax_rates, discount, adjustment)| TotalsInput {
                tax_mode: mode,
                lines,
                tax_rates,
                discount,
                adjustment,
                minor_units: minor,
            },
        )
}

fn estimate() -> impl Strategy<Value = TotalsInput> {
    prop_oneof![estimate_in(TaxMode::Summary), estimate_in(TaxMode::Inline)]
}

/// Estimates in currencies without decimals (`JPY`) and with three (`KWD`).
fn estimate_other_units() -> impl Strategy<Value = TotalsInput> {
    prop_oneof![
        estimate_in_units(TaxMode::Summary, MinorUnits::ZERO),
        estimate_in_units(TaxMode::Inline, MinorUnits::ZERO),
        estimate_in_units(TaxMode::Summary, MinorUnits::THREE),
        estimate_in_units(TaxMode::Inline, MinorUnits::THREE),
    ]
}

/// An amount in whole minor units of a currency of `minor` decimals.
fn units_of(m: Money, minor: MinorUnits) -> i64 {
    (m.get() * Decimal::from(10_i64.pow(minor.get())))
        .to_i64()
        .unwrap()
}

const POLICIES: [Policy; 2] = [Policy::CrmParity, Policy::ExactDecimal];

fn cents_of(m: Money) -> i64 {
    (m.get() * Decimal::from(100)).to_i64().unwrap()
}

fn all_amounts(c: &Computed) -> Vec<String> {
    let t = &c.totals;
    let mut out: Vec<String> = c
        .lines
        .iter()
        .flat_map(|l| [l.total.to_string(), l.discount_amount.to_string()])
        .collect();
    for m in [
        t.subtotal,
        t.subtotal_before_discount,
        t.discount_amount,
        t.amount_before_tax,
        t.tax_total_amount,
        t.adjustment_amount,
        t.final_amount,
    ] {
        out.push(m.to_string());
    }
    out.push(t.discount_percentage.to_string());
    out.push(t.tax_total_percentage.to_string());
    out
}

// ---------------------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_figure_has_exactly_two_decimals(input in estimate()) {
        for policy in POLICIES {
            let computed = compute(&input, policy).unwrap();
            for text in all_amounts(&computed) {
                let (int, frac) = text.trim_start_matches('-').split_once('.').unwrap();
                prop_assert!(!int.is_empty() && int.bytes().all(|b| b.is_ascii_digit()), "{text}");
                prop_assert!(frac.len() == 2 && frac.bytes().all(|b| b.is_ascii_digit()), "{text}");
                prop_assert_ne!(text.as_str(), "-0.00");
            }
        }
    }

    /// Reversing and rotating the lines permutes the line figures. ExactDecimal's totals are
    /// identical (exact sums do not depend on order). CrmParity sums doubles, whose last bits
    /// depend on order: sums of whole cents stay exact to the cent (the stored subtotal, the
    /// inline discount total, amount before tax and final amount), while figures derived from
    /// an unrounded double sum (header discount, taxes, the summary final amount, the inline
    /// gross before discounts) may move by one cent when a value sits at a half cent.
    #[test]
    fn line_order_does_not_change_the_totals(input in estimate(), turn in 0_usize..30) {
        let mut permuted = input.clone();
        permuted.lines.reverse();
        let turn = turn % permuted.lines.len();
        permuted.lines.rotate_left(turn);
        for policy in POLICIES {
            let (a, b) = (compute(&input, policy).unwrap(), compute(&permuted, policy).unwrap());
            let mut lines = a.lines.clone();
            lines.reverse();
            lines.rotate_left(turn);
            prop_assert_eq!(&lines, &b.lines);
            let (x, y) = (a.totals, b.totals);
            if policy == Policy::ExactDecimal {
                prop_assert_eq!(x, y);
                continue;
            }
            prop_assert_eq!(x.subtotal, y.subtotal);
            prop_assert_eq!(x.discount_type, y.discount_type);
            prop_assert_eq!(x.tax_total_percentage, y.tax_total_percentage);
            let near = |p: Money, q: Money| (cents_of(p) - cents_of(q)).abs() <= 1;
            for (p, q) in [
                (x.subtotal_before_discount, y.subtotal_before_discount),
                (x.discount_amount, y.discount_amount),
                (x.amount_before_tax, y.amount_before_tax),
                (x.tax_total_amount, y.tax_total_amount),
                (x.final_amount, y.final_amount),
            ] {
                prop_assert!(near(p, q), "{p} vs {q}");
            }
            if input.tax_mode == TaxMode::Inline {
                prop_assert_eq!(x.discount_amount, y.discount_amount);
                prop_assert_eq!(x.amount_before_tax, y.amount_before_tax);
                prop_assert_eq!(x.final_amount, y.final_amount);
            }
        }
    }

    /// Summary: each stored figure is rounded once, so the stored parts add up to the final
    /// amount within one cent. Inline: the final amount is the sum of whole-cent line totals
    /// plus a whole-cent adjustment; below 10^12 the double sum stays far closer than half a
    /// cent to it, so it is exact.
    #[test]
    fn the_final_amount_adds_up(input in estimate()) {
        for policy in POLICIES {
            let t = compute(&input, policy).unwrap().totals;
            let parts = cents_of(t.subtotal) + cents_of(t.adjustment_amount);
            match input.tax_mode {
                TaxMode::Summary => {
                    let sum = parts - cents_of(t.discount_amount) + cents_of(t.tax_total_amount);
                    prop_assert!((cents_of(t.final_amount) - sum).abs() <= 1, "{t:?}");
                }
                TaxMode::Vat => unreachable!("the strategies make summary and inline estimates"),
                TaxMode::Inline => {
                    prop_assert_eq!(cents_of(t.final_amount), parts);
                    prop_assert_eq!(t.amount_before_tax, t.subtotal);
                }
            }
        }
    }

    #[test]
    fn summary_tax_is_zero_without_rates(mut input in estimate_in(TaxMode::Summary), zeros in 0_usize..3) {
        input.tax_rates = vec![Percent::ZERO; zeros];
        for policy in POLICIES {
            let t = compute(&input, policy).unwrap().totals;
            prop_assert_eq!(t.tax_total_amount, Money::ZERO);
            prop_assert_eq!(t.tax_total_percentage, Percent::ZERO);
        }
    }

    #[test]
    fn inline_totals_ignore_the_header_discount_and_estimate_rates(
        input in estimate_in(TaxMode::Inline),
        discount in header_discount(),
        rates in prop::collection::vec(percentage(), 0..=3),
    ) {
        let mut other = input.clone();
        other.discount = discount;
        other.tax_rates = rates;
        for policy in POLICIES {
            let computed = compute(&input, policy).unwrap();
            prop_assert_eq!(&computed, &compute(&other, policy).unwrap());
            prop_assert_eq!(computed.totals.discount_type, DiscountKind::None);
            prop_assert_eq!(computed.totals.tax_total_percentage, Percent::ZERO);
        }
    }

    #[test]
    fn summary_totals_ignore_line_discounts_and_line_rates(
        input in estimate_in(TaxMode::Summary),
        others in prop::collection::vec(line(), 30),
    ) {
        let mut other = input.clone();
        for (line, random) in other.lines.iter_mut().zip(&others) {
            line.discount = random.discount;
            line.tax_rate = random.tax_rate;
        }
        for policy in POLICIES {
            let computed = compute(&input, policy).unwrap();
            prop_assert_eq!(&computed, &compute(&other, policy).unwrap());
            prop_assert!(computed.lines.iter().all(|l| l.discount_amount == Money::ZERO));
        }
    }

    /// ExactDecimal is the spec on exact numbers. The one step `Decimal` cannot carry
    /// exactly is the inline tax (a sum of quotients, kept to 28 significant digits): when
    /// its exact value lies within 10^-15 of a half cent, the tax may differ by one cent.
    #[test]
    fn exact_decimal_equals_the_rational_oracle(input in estimate()) {
        let (expected, o) = oracle(&input);
        let actual = compute(&input, Policy::ExactDecimal);
        let tax_near_tie = o.inline_tax.as_ref().is_some_and(|tax| {
            distance_to_half_cent(tax) <= BigRational::new(From::from(1), From::from(10_i64.pow(15)))
        });
        match (actual, expected) {
            (Ok(mut a), Ok(e)) if tax_near_tie => {
                prop_assert!((cents_of(a.totals.tax_total_amount) - cents_of(e.totals.tax_total_amount)).abs() <= 1);
                a.totals.tax_total_amount = e.totals.tax_total_amount;
                prop_assert_eq!(a, e);
            }
            (a, e) => prop_assert_eq!(a, e),
        }
    }

    /// The policies differ only at half cents: where every rounding point's exact value is
    /// farther from a half cent than the doubles can stray (see `Oracle::near_half_cent`),
    /// CrmParity gives the exact figures too.
    #[test]
    fn the_policies_agree_away_from_half_cents(input in estimate()) {
        let (expected, o) = oracle(&input);
        prop_assume!(!o.near_half_cent(input.lines.len()));
        let parity = compute(&input, Policy::CrmParity);
        prop_assert_eq!(&parity, &compute(&input, Policy::ExactDecimal));
        prop_assert_eq!(parity, expected);
    }
}

// ---------------------------------------------------------------------------------------
// Currencies with 0 and 3 decimals (API.md §18): the same steps rounding to 10^-dp.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_figure_has_at_most_the_currency_decimals(input in estimate_other_units()) {
        let minor = input.minor_units;
        for policy in POLICIES {
            let c = compute(&input, policy).unwrap();
            let t = &c.totals;
            let amounts = c.lines.iter().flat_map(|l| [l.total, l.discount_amount]).chain([
                t.subtotal, t.subtotal_before_discount, t.discount_amount, t.amount_before_tax,
                t.tax_total_amount, t.adjustment_amount, t.final_amount,
            ]);
            for m in amounts {
                prop_assert!(m.fits(minor), "{m} has more than {} decimals", minor.get());
                prop_assert_eq!(
                    m.in_minor_units(minor).split_once('.').map_or(0, |(_, f)| f.len()),
                    minor.get() as usize
                );
            }
            prop_assert!(t.tax_total_percentage.get().scale() <= 2);
        }
    }

    #[test]
    fn exact_decimal_equals_the_rational_oracle_at_0_and_3_decimals(input in estimate_other_units()) {
        let (expected, o) = oracle(&input);
        let actual = compute(&input, Policy::ExactDecimal);
        let tax_near_tie = o.inline_tax.as_ref().is_some_and(|tax| {
            distance_to_half_unit(tax, &o.units)
                <= BigRational::new(From::from(1), From::from(10_i64.pow(15)))
        });
        let minor = input.minor_units;
        match (actual, expected) {
            (Ok(mut a), Ok(e)) if tax_near_tie => {
                let (x, y) = (units_of(a.totals.tax_total_amount, minor), units_of(e.totals.tax_total_amount, minor));
                prop_assert!((x - y).abs() <= 1);
                a.totals.tax_total_amount = e.totals.tax_total_amount;
                prop_assert_eq!(a, e);
            }
            (a, e) => prop_assert_eq!(a, e),
        }
    }

    #[test]
    fn the_policies_agree_away_from_half_units_at_0_and_3_decimals(input in estimate_other_units()) {
        let (expected, o) = oracle(&input);
        prop_assume!(!o.near_half_cent(input.lines.len()));
        let parity = compute(&input, Policy::CrmParity);
        prop_assert_eq!(&parity, &compute(&input, Policy::ExactDecimal));
        prop_assert_eq!(parity, expected);
    }

    #[test]
    fn the_final_amount_adds_up_at_0_and_3_decimals(input in estimate_other_units()) {
        let minor = input.minor_units;
        let u = |m: Money| units_of(m, minor);
        for policy in POLICIES {
            let t = compute(&input, policy).unwrap().totals;
            let parts = u(t.subtotal) + u(t.adjustment_amount);
            match input.tax_mode {
                TaxMode::Summary => {
                    let sum = parts - u(t.discount_amount) + u(t.tax_total_amount);
                    prop_assert!((u(t.final_amount) - sum).abs() <= 1, "{t:?}");
                }
                TaxMode::Vat => unreachable!("the strategies make summary and inline estimates"),
                TaxMode::Inline => {
                    prop_assert_eq!(u(t.final_amount), parts);
                    let lines: i64 = compute(&input, policy).unwrap().lines.iter().map(|l| u(l.total)).sum();
                    prop_assert_eq!(u(t.subtotal), lines);
                }
            }
        }
    }

    /// The same estimate in a 2-decimal currency other than the default gives the default's
    /// figures: the exponent, not the code, decides.
    #[test]
    fn two_decimals_is_the_default_exponent(input in estimate()) {
        let mut explicit = input.clone();
        explicit.minor_units = MinorUnits::new(2).unwrap();
        for policy in POLICIES {
            prop_assert_eq!(compute(&input, policy), compute(&explicit, policy));
        }
    }
}

#[test]
fn a_yen_estimate_rounds_to_whole_yen_and_a_dinar_one_to_fils() {
    let line = |q: &str, r: &str| Line {
        quantity: q.parse().unwrap(),
        rate: r.parse().unwrap(),
        discount: LineDiscount::None,
        tax_rate: None,
        vat: None,
    };
    let yen = TotalsInput {
        lines: vec![line("1.5", "999")],
        tax_rates: vec!["10".parse().unwrap()],
        minor_units: MinorUnits::ZERO,
        ..TotalsInput::default()
    };
    for policy in POLICIES {
        let t = compute(&yen, policy).unwrap().totals;
        // 1.5 × 999 = 1498.5 → 1499 (an exact tie in doubles too); tax 149.9 → 150.
        assert_eq!(t.subtotal.in_minor_units(MinorUnits::ZERO), "1499");
        assert_eq!(t.tax_total_amount.in_minor_units(MinorUnits::ZERO), "150");
        assert_eq!(t.final_amount.in_minor_units(MinorUnits::ZERO), "1649");
    }
    let dinar = TotalsInput {
        lines: vec![line("1", "4.0085")],
        minor_units: MinorUnits::THREE,
        ..TotalsInput::default()
    };
    // 4.0085 is a tie in fils; its double times 1000 is 4008.4999999999995, below it.
    let exact = compute(&dinar, Policy::ExactDecimal).unwrap().totals;
    assert_eq!(
        exact.final_amount.in_minor_units(MinorUnits::THREE),
        "4.009"
    );
    let parity = compute(&dinar, Policy::CrmParity).unwrap().totals;
    assert_eq!(
        parity.final_amount.in_minor_units(MinorUnits::THREE),
        "4.008"
    );
}

// ---------------------------------------------------------------------------------------
// Absurd but valid inputs.

fn extreme_decimal(max_digits: u32, decimals: u32) -> impl Strategy<Value = Decimal> {
    let top = 10_i64.pow(max_digits + decimals) - 1;
    prop_oneof![Just(top), (top - 1_000..=top), 1_i64..=1_000, 1_i64..=top,]
        .prop_map(move |units| Decimal::new(units, decimals))
}

fn extreme_money() -> impl Strategy<Value = Money> {
    (extreme_decimal(13, 2), any::<bool>())
        .prop_map(|(d, negative)| Money::new(if negative { -d } else { d }).unwrap())
}

fn extreme_percent() -> impl Strategy<Value = Percent> {
    prop_oneof![Just(Decimal::ZERO), extreme_decimal(8, 2)].prop_map(|d| Percent::new(d).unwrap())
}

fn extreme_line() -> impl Strategy<Value = Line> {
    let discount = prop_oneof![
        Just(LineDiscount::None),
        extreme_percent().prop_map(LineDiscount::Percentage),
        extreme_money().prop_map(LineDiscount::Fixed),
    ];
    (
        extreme_decimal(11, 4).prop_map(|d| Quantity::new(d).unwrap()),
        extreme_decimal(11, 4).prop_map(|d| UnitRate::new(d).unwrap()),
        discount,
        prop::option::of(extreme_percent()),
    )
        .prop_map(|(quantity, rate, discount, tax_rate)| Line {
            quantity,
            rate,
            discount,
            tax_rate,
            vat: None,
        })
}

fn extreme_estimate() -> impl Strategy<Value = TotalsInput> {
    let discount = prop_oneof![
        Just(HeaderDiscount::None),
        extreme_money().prop_map(HeaderDiscount::Fixed),
        extreme_percent().prop_map(HeaderDiscount::Percentage),
    ];
    (
        prop_oneof![Just(TaxMode::Summary), Just(TaxMode::Inline)],
        prop::collection::vec(extreme_line(), 0..=40),
        prop::collection::vec(extreme_percent(), 0..=5),
        discount,
        extreme_money(),
    )
        .prop_map(
            |(tax_mode, lines, tax_rates, discount, adjustment)| TotalsInput {
                tax_mode,
                lines,
                tax_rates,
                discount,
                adjustment,
                minor_units: crm_core::money::MinorUnits::TWO,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Values at the types' limits never panic: the totals are computed or refused as an
    /// overflow, and the exact policy refuses exactly when the oracle's figures do not fit.
    #[test]
    fn absurd_inputs_give_totals_or_an_overflow_never_a_panic(input in extreme_estimate()) {
        for policy in POLICIES {
            match compute(&input, policy) {
                Ok(computed) => prop_assert_eq!(computed.lines.len(), input.lines.len()),
                Err(TotalsError::Overflow) => {}
                Err(TotalsError::NotRounding) => unreachable!("summary and inline estimates"),
            }
        }
        prop_assert_eq!(compute(&input, Policy::ExactDecimal).is_ok(), oracle(&input).0.is_ok());
    }
}

#[test]
fn an_empty_estimate_is_all_zero() {
    for mode in [TaxMode::Summary, TaxMode::Inline] {
        let input = TotalsInput {
            tax_mode: mode,
            ..TotalsInput::default()
        };
        for policy in POLICIES {
            let computed = compute(&input, policy).unwrap();
            assert!(computed.lines.is_empty());
            assert!(
                all_amounts(&computed).iter().all(|t| t == "0.00"),
                "{computed:?}"
            );
        }
    }
}
