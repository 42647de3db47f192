//! The [`Policy::CrmParity`](super::Policy::CrmParity) arithmetic: the CRM's own figures,
//! bit for bit (`docs/contract/TOTALS.md`).
//!
//! The CRM computes in the browser on IEEE-754 doubles, rounds with its own functions, and
//! the server stores decimal text in `DECIMAL(15,2)` columns. This file replays exactly that:
//!
//! - every input decimal becomes the double `parseFloat` would give ([`to_f64`]);
//! - the operations happen on `f64` in the spec's order (`after + after * rate / 100`, never
//!   `after * (1 + rate / 100)`: the doubles differ);
//! - each rounding point uses the CRM's function: [`r2_cents`] (`Math.round` on `|x| * 100`),
//!   [`to_fixed2`] (`Number.prototype.toFixed(2)`), [`db_shortest_cents`] (the database
//!   rounding the shortest round-trip text of a double) and [`db_php14_cents`] (the database
//!   rounding PHP's 14-significant-digit text of a double).
//!
//! Rounded figures travel as whole cents (`i64`): every stored value is below 10^13, so its
//! cents fit a double exactly and `cents / 100` is the double the CRM holds. No text is
//! produced unless a value sits within a hair of a half cent (see
//! [`Scale::far_from_half`]), so the per-line path neither formats nor allocates.
//!
//! A currency with another minor unit (API.md §18) runs the same steps with `10^dp` in
//! place of `100` ([`Scale`]): "cents" are then the currency's minor units (yen, fils), and
//! every function below rounds to them. The names keep the CRM's (`r2`, `to_fixed2`).

use std::fmt::{self, Write as _};

use rust_decimal::Decimal;

use super::{
    Computed, HeaderDiscount, Line, LineDiscount, LineTotals, TaxMode, Totals, TotalsError,
    TotalsInput,
};
use crate::money::{MinorUnits, Money, Percent};
use crate::totals::DiscountKind;

/// Every power of ten that a double holds exactly (10^22 is the last one).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// 2^53: below it every whole number is an exact double.
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// The rounding unit of a currency: `10^-dp`. The CRM's functions with `100` replaced by
/// `10^dp`; for `dp = 2` exactly the CRM's.
#[derive(Clone, Copy)]
struct Scale {
    /// The minor unit.
    minor: MinorUnits,
    /// `10^dp` as a double (exact).
    factor: f64,
    /// One more than the largest number of units a stored amount may have: 10^13 whole
    /// currency units, or 2^53 where that is less (3 decimals), so that every rounded
    /// amount's double `units / 10^dp` is correctly rounded.
    limit: f64,
    /// Below this many units (10^10 whole currency units, or fewer) [`Scale::far_from_half`]
    /// may decide alone.
    fast_limit: f64,
    /// From this magnitude on, a double's spacing exceeds a unit, so `toFixed(dp)` read
    /// back is the double itself: 2^53, 2^49, 2^46, 2^43 for 0 to 3 decimals (the
    /// smallest power of two `p` with `2^-52 · p > 10^-dp`).
    to_fixed_identity: f64,
}

impl Scale {
    fn of(minor: MinorUnits) -> Scale {
        let dp = minor.get();
        let factor = POW10[dp as usize];
        Scale {
            minor,
            factor,
            limit: (1e13 * factor).min(EXACT_INTEGERS),
            fast_limit: 1e10 * factor,
            to_fixed_identity: [2f64.powi(53), 2f64.powi(49), 2f64.powi(46), 2f64.powi(43)]
                [dp as usize],
        }
    }
}

/// Computes the totals with the CRM's double arithmetic, rounding to `input.minor_units`.
pub(super) fn compute(input: &TotalsInput) -> Result<Computed, TotalsError> {
    let s = Scale::of(input.minor_units);
    match input.tax_mode {
        TaxMode::Summary => summary(input, s),
        TaxMode::Inline => inline(input, s),
        TaxMode::Vat => super::vat::compute(input),
    }
}

/// Summary mode (spec, "Summary mode", steps 1–7). Line discounts and line tax rates are
/// not looked at.
fn summary(input: &TotalsInput, s: Scale) -> Result<Computed, TotalsError> {
    let mut lines = Vec::with_capacity(input.lines.len());
    let mut subtotal = 0.0_f64;
    for line in &input.lines {
        let cents = s.r2_cents(to_f64(line.quantity.get()) * to_f64(line.rate.get()))?;
        lines.push(LineTotals {
            total: s.money(cents)?,
            discount_amount: Money::ZERO,
        });
        subtotal += s.cents_to_f64(cents);
    }
    let (discount, discount_percentage) = match input.discount {
        HeaderDiscount::None => (0.0, Percent::ZERO),
        HeaderDiscount::Fixed(amount) => (to_f64(amount.get()), Percent::ZERO),
        HeaderDiscount::Percentage(pct) => (subtotal * to_f64(pct.get()) / 100.0, pct),
    };
    let amount_before_tax = if discount > 0.0 {
        subtotal - discount
    } else {
        subtotal
    };
    let tax_pct = input
        .tax_rates
        .iter()
        .fold(0.0, |sum, rate| sum + to_f64(rate.get()));
    let tax = if tax_pct > 0.0 {
        amount_before_tax * tax_pct / 100.0
    } else {
        0.0
    };
    let final_amount = subtotal - discount + tax + to_f64(input.adjustment.get());
    let subtotal = s.money(s.db_shortest_cents(subtotal)?)?;
    let totals = Totals {
        subtotal,
        subtotal_before_discount: subtotal,
        discount_type: input.discount.kind(),
        discount_percentage,
        discount_amount: s.money(s.r2_cents(discount)?)?,
        amount_before_tax: s.money(s.r2_cents(amount_before_tax)?)?,
        // A percentage has two decimals in every currency.
        tax_total_percentage: percent(CENTS.db_shortest_cents(tax_pct)?)?,
        tax_total_amount: s.money(s.r2_cents(tax)?)?,
        adjustment_amount: input.adjustment,
        final_amount: s.money(s.r2_cents(final_amount)?)?,
    };
    Ok(Computed { lines, totals })
}

/// Inline mode (spec, "Inline mode", steps 1–6, and the server's recomputed figures). The
/// header discount and the estimate-level tax rates are not looked at.
///
/// Lines go in chunks: first the double arithmetic of up to [`CHUNK`] lines, a loop without
/// calls in which the processor overlaps the lines' chains of divisions; then their amounts
/// are built. The operations and their order are the same as line by line.
fn inline(input: &TotalsInput, s: Scale) -> Result<Computed, TotalsError> {
    let mut lines = Vec::with_capacity(input.lines.len());
    let mut sums = InlineSums::default();
    for chunk in input.lines.chunks(CHUNK) {
        let mut figures = [(0_i64, Stored::Cents(0)); CHUNK];
        for (slot, line) in figures.iter_mut().zip(chunk) {
            *slot = inline_line(line, &mut sums, s)?;
        }
        for &(total_cents, stored) in &figures[..chunk.len()] {
            let discount_amount = match stored {
                Stored::Given(amount) => amount,
                Stored::Cents(0) => Money::ZERO,
                Stored::Cents(cents) => s.money(cents)?,
            };
            lines.push(LineTotals {
                total: s.money(total_cents)?,
                discount_amount,
            });
        }
    }
    let InlineSums {
        subtotal,
        tax,
        gross,
        discounts,
    } = sums;
    let adjustment = to_f64(input.adjustment.get());
    let totals = Totals {
        subtotal: s.money(s.db_shortest_cents(subtotal)?)?,
        subtotal_before_discount: s.money(s.db_php14_cents(gross)?)?,
        discount_type: DiscountKind::None,
        discount_percentage: Percent::ZERO,
        discount_amount: s.money(s.db_php14_cents(discounts)?)?,
        amount_before_tax: s.money(s.r2_cents(subtotal)?)?,
        tax_total_percentage: Percent::ZERO,
        tax_total_amount: s.money(s.r2_cents(tax)?)?,
        adjustment_amount: input.adjustment,
        final_amount: s.money(s.r2_cents(subtotal + adjustment)?)?,
    };
    Ok(Computed { lines, totals })
}

/// How many inline lines get their double arithmetic done before their amounts are built.
const CHUNK: usize = 64;

/// The running double sums of inline mode, added to in line order.
#[derive(Default)]
struct InlineSums {
    /// `Σ tᵢ`.
    subtotal: f64,
    /// `Σ tᵢ·rateᵢ / (100 + rateᵢ)` over taxed lines with a non-zero total.
    tax: f64,
    /// `Σ qᵢ·rateᵢ`.
    gross: f64,
    /// The server's sum of the stored line discounts, as PHP floats.
    discounts: f64,
}

/// A line's stored discount amount, `db(php14(raw))`, before it becomes an amount.
#[derive(Clone, Copy)]
enum Stored {
    /// The given fixed amount itself.
    Given(Money),
    /// Whole cents.
    Cents(i64),
}

/// One inline line's double arithmetic: its total in cents and its stored discount.
#[inline(always)]
fn inline_line(line: &Line, sums: &mut InlineSums, s: Scale) -> Result<(i64, Stored), TotalsError> {
    let base = to_f64(line.quantity.get()) * to_f64(line.rate.get());
    sums.gross += base;
    let (raw, capped) = match line.discount {
        LineDiscount::None => (0.0, false),
        LineDiscount::Fixed(amount) => cap(to_f64(amount.get()), base),
        LineDiscount::Percentage(pct) => cap(base * to_f64(pct.get()) / 100.0, base),
    };
    let after = base - s.to_fixed2(raw);
    let tax_rate = line.tax_rate.map_or(0.0, |rate| to_f64(rate.get()));
    let total_cents = s.r2_cents(after + after * tax_rate / 100.0)?;
    let total = s.cents_to_f64(total_cents);
    sums.subtotal += total;
    if tax_rate != 0.0 && total_cents != 0 {
        sums.tax += total * tax_rate / (100.0 + tax_rate);
    }
    let stored = match line.discount {
        LineDiscount::None => Stored::Cents(0),
        // An uncapped fixed discount below 10^14 units (10^12 at 2 decimals) is stored as
        // given: its decimal has at most 14 significant digits and the double is within
        // 2^-53 of it (far less than half a unit of the 14th digit), so php14 gives the
        // decimal back and db keeps it.
        LineDiscount::Fixed(amount) if !capped && raw.abs() * s.factor < 1e14 => {
            Stored::Given(amount)
        }
        LineDiscount::Fixed(_) | LineDiscount::Percentage(_) => Stored::Cents(if raw == 0.0 {
            0
        } else {
            s.db_php14_cents(raw)?
        }),
    };
    // The server sums the stored decimals as PHP floats: `raw` is the given amount's
    // double, and `cents / 100` the double of a rounded one.
    sums.discounts += match stored {
        Stored::Given(_) => raw,
        Stored::Cents(cents) => s.cents_to_f64(cents),
    };
    Ok((total_cents, stored))
}

/// The CRM's cap: a raw discount above the line's value becomes the line's value.
fn cap(raw: f64, base: f64) -> (f64, bool) {
    if raw > base {
        (base, true)
    } else {
        (raw, false)
    }
}

/// JavaScript's `parseFloat` of a decimal's text: the double nearest to the decimal.
///
/// When the mantissa is below 2^53 and the scale at most 22, both `mantissa` and `10^scale`
/// are exact doubles and IEEE division rounds their exact quotient once, so the result is
/// correctly rounded. Every amount type of the API satisfies that (quantities and rates
/// below 10^11 with 4 decimals, money below 10^13 with 2). Anything else goes through
/// Rust's correctly rounded text parser. (`Decimal::to_f64` is not correctly rounded.)
#[inline]
fn to_f64(value: Decimal) -> f64 {
    let mantissa = value.mantissa();
    match POW10.get(value.scale() as usize) {
        Some(&power) if mantissa.unsigned_abs() < 1 << 53 => mantissa as i64 as f64 / power,
        _ => value.to_string().parse().unwrap_or(f64::NAN),
    }
}

/// Cents: the CRM's own scale, which percentages keep in every currency.
const CENTS: Scale = Scale {
    minor: MinorUnits::TWO,
    factor: 100.0,
    limit: 1e15,
    fast_limit: 1e12,
    to_fixed_identity: 70_368_744_177_664.0,
};

impl Scale {
    /// The double the CRM holds for a rounded amount of `cents`: `cents / 100`, correctly
    /// rounded because `|cents| <` [`Scale::limit`] `≤ 2^53` is exact.
    #[inline]
    fn cents_to_f64(self, cents: i64) -> f64 {
        cents as f64 / self.factor
    }

    /// `r2(x) = sign(x) * Math.round(|x| * 100) / 100`, as whole cents.
    ///
    /// `|x| * 100` is a double multiplication (`1.005 * 100 = 100.49999999999999`).
    /// `Math.round` on a non-negative double rounds ties up; `trunc` then the exact
    /// fractional part gives the same without a libm call. A result of 10^13 or more (or
    /// NaN) is an overflow.
    #[inline]
    fn r2_cents(self, x: f64) -> Result<i64, TotalsError> {
        let scaled = x.abs() * self.factor;
        if scaled.is_nan() || scaled >= self.limit {
            return Err(TotalsError::Overflow);
        }
        let whole = scaled as i64;
        // Exact: `whole` is `scaled` without its fractional bits.
        let fraction = scaled - whole as f64;
        let cents = whole + i64::from(fraction >= 0.5);
        Ok(if x < 0.0 { -cents } else { cents })
    }

    /// `parseFloat(x.toFixed(2))`: the exact binary value of `x` rounded to cents, ties
    /// away from zero (toFixed works on the magnitude), then read back as the nearest
    /// double.
    ///
    /// `x = m · 2^e` exactly. For `e < 0` the cents are `n = round_half_up(m · 100 / 2^-e)`,
    /// computed on integers. From `|x| ≥ 2^46` on, a double's spacing exceeds 0.01, so the
    /// nearest double to `n / 100` (within 0.005 of `x`) is `x` itself; below, `n < 2^53`
    /// and `n as f64 / 100.0` is correctly rounded. (Other minor units: `10^dp` and
    /// [`Scale::to_fixed_identity`].)
    #[inline]
    fn to_fixed2(self, x: f64) -> f64 {
        let magnitude = x.abs();
        if magnitude.is_nan() || magnitude >= self.to_fixed_identity {
            // The identity bound and above, or NaN/inf: toFixed gives the value back.
            return x;
        }
        let bits = magnitude.to_bits();
        let biased_exponent = ((bits >> 52) & 0x7ff) as i64;
        let fraction_bits = bits & ((1 << 52) - 1);
        let (mantissa, exponent) = if biased_exponent == 0 {
            (fraction_bits, -1074)
        } else {
            (fraction_bits | 1 << 52, biased_exponent - 1075)
        };
        if exponent >= 0 {
            return x; // an integer already
        }
        let shift = -exponent;
        // mantissa · 10^dp < 2^63; for shift ≥ 64 the value is below a quarter unit.
        let scaled = u128::from(mantissa) * self.factor as u128;
        let cents = if shift >= 64 {
            0
        } else {
            (scaled + (1u128 << (shift - 1))) >> shift
        };
        let rounded = cents as f64 / self.factor;
        if x < 0.0 { -rounded } else { rounded }
    }

    /// `db(String(x))`: the database rounding the shortest round-trip text of `x` (what
    /// JavaScript's `String(x)` and Rust's `{}` both produce), half away from zero, as
    /// cents.
    ///
    /// The shortest text is within half a unit in the last place of `x` (2^-53 relative),
    /// well inside [`Scale::far_from_half`]'s tolerance, so that fast path applies.
    fn db_shortest_cents(self, x: f64) -> Result<i64, TotalsError> {
        if let Some(cents) = self.far_from_half(x) {
            return Ok(cents);
        }
        self.db_shortest_cents_slow(x)
    }

    /// [`Scale::db_shortest_cents`] by producing the text.
    fn db_shortest_cents_slow(self, x: f64) -> Result<i64, TotalsError> {
        let magnitude = x.abs();
        if magnitude.is_nan() || magnitude * self.factor >= self.limit {
            return Err(TotalsError::Overflow);
        }
        // The shortest text is within half a unit in the last place of `x`, so below
        // 0.4 units it is below half a unit; this also keeps the text short.
        if magnitude * self.factor < 0.4 {
            return Ok(0);
        }
        let mut text = TextBuf::new();
        write!(text, "{magnitude}").map_err(|_| TotalsError::Overflow)?;
        let cents = self
            .text_to_cents(text.as_str())
            .ok_or(TotalsError::Overflow)?;
        Ok(if x < 0.0 { -cents } else { cents })
    }

    /// `db(php14(x))`: the database rounding PHP's `%.14G` text of `x` (14 significant
    /// digits of the exact binary value, ties to even as zend_dtoa mode 2 does), half away
    /// from zero, as cents. The 14-digit text is within 0.5·10^-13 of `x` relatively,
    /// inside [`Scale::far_from_half`]'s tolerance, so that fast path applies.
    fn db_php14_cents(self, x: f64) -> Result<i64, TotalsError> {
        if let Some(cents) = self.far_from_half(x) {
            return Ok(cents);
        }
        self.db_php14_cents_slow(x)
    }

    /// The cents of `round_half_away(T, 2)` for any decimal text `T` whose value is within
    /// 0.5·10^-13 of `x` relatively — the shortest round-trip text and the
    /// 14-significant-digit text both are — without producing the text, when `x` is
    /// clearly away from a half cent; `None` when it is not (or `|x| ≥ 10^10`).
    ///
    /// Why it is exact. Let `v = |x|` exactly, `T` the text's value and `y = fl(100 · v)`.
    /// Then `|T − v| ≤ ½·10^-13·v` and `|y − 100v| ≤ 2^-53·100v`, so
    /// `|100T − y| < 0.51·10^-13·y`. Let `f` be the fractional part of `y` (computed
    /// exactly: `y` minus its truncation). If `|f − ½| > 10^-13·y`, no half-integer lies
    /// between `y` and `100T` (nor on either), so `round_half_away(T, 2) = round(y)/100`,
    /// where `round(y)` is the integer nearest `y`. (The same holds with `10^dp`.)
    #[inline]
    fn far_from_half(self, x: f64) -> Option<i64> {
        let scaled = x.abs() * self.factor;
        if scaled.is_nan() || scaled >= self.fast_limit {
            return None;
        }
        let whole = scaled as i64;
        let fraction = scaled - whole as f64;
        if (fraction - 0.5).abs() > scaled * 1e-13 {
            let cents = whole + i64::from(fraction > 0.5);
            Some(if x < 0.0 { -cents } else { cents })
        } else {
            None
        }
    }

    /// [`Scale::db_php14_cents`] by producing the 14-significant-digit text. Rust's
    /// `{:.13e}` rounds the exact binary value to 14 significant digits, ties to even,
    /// like PHP.
    fn db_php14_cents_slow(self, x: f64) -> Result<i64, TotalsError> {
        let magnitude = x.abs();
        if !magnitude.is_finite() {
            return Err(TotalsError::Overflow);
        }
        let mut text = TextBuf::new();
        write!(text, "{magnitude:.13e}").map_err(|_| TotalsError::Overflow)?;
        let cents = self
            .text_to_cents(text.as_str())
            .ok_or(TotalsError::Overflow)?;
        Ok(if x < 0.0 { -cents } else { cents })
    }

    /// Rounds unsigned decimal text (`"123.456"`, `"1.2345678901232e12"`, `"5e-3"`) half
    /// away from zero to whole cents, on the digits, so no value is too large or too small
    /// to read. `None` when the text is not such a number or the cents reach
    /// [`Scale::limit`].
    fn text_to_cents(self, text: &str) -> Option<i64> {
        let (digits, exponent) = match text.split_once(['e', 'E']) {
            Some((digits, exponent)) => (digits, exponent.parse::<i64>().ok()?),
            None => (text, 0),
        };
        let (int_part, frac_part) = digits.split_once('.').unwrap_or((digits, ""));
        // value = (int_part ++ frac_part) · 10^(exponent − frac_len); units shift by dp more.
        let shift = exponent
            .checked_sub(frac_part.len() as i64)?
            .checked_add(i64::from(self.minor.get()))?;
        let all = int_part.bytes().chain(frac_part.bytes());
        let count = (int_part.len() + frac_part.len()) as i64;
        // Digits at index `kept` and beyond are below a unit; `kept` < 0 means even the
        // rounding digit is an implicit leading zero.
        let kept = count + shift.min(0);
        let limit = self.limit as i64;
        let mut cents: i64 = 0;
        let mut round_up = false;
        for (index, byte) in all.enumerate() {
            if !byte.is_ascii_digit() {
                return None;
            }
            let digit = i64::from(byte - b'0');
            if (index as i64) < kept {
                cents = cents.checked_mul(10)?.checked_add(digit)?;
            } else if index as i64 == kept {
                round_up = digit >= 5;
            }
        }
        for _ in 0..shift.max(0) {
            cents = cents.checked_mul(10)?;
            if cents >= limit {
                return None;
            }
        }
        let cents = cents + i64::from(round_up);
        (cents < limit).then_some(cents)
    }

    /// A stored amount from whole units; out of range is an overflow.
    fn money(self, cents: i64) -> Result<Money, TotalsError> {
        Money::from_units(cents, self.minor).map_err(|_| TotalsError::Overflow)
    }
}

/// A stored percentage from whole hundredths; out of range is an overflow.
fn percent(hundredths: i64) -> Result<Percent, TotalsError> {
    Percent::new(Decimal::new(hundredths, 2)).map_err(|_| TotalsError::Overflow)
}

/// A fixed stack buffer for number text, so formatting never allocates.
struct TextBuf {
    bytes: [u8; 64],
    len: usize,
}

impl TextBuf {
    fn new() -> Self {
        TextBuf {
            bytes: [0; 64],
            len: 0,
        }
    }

    fn as_str(&self) -> &str {
        // Only whole `&str`s are ever copied in, so the prefix is valid UTF-8.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl fmt::Write for TextBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
// These tests pin doubles bit for bit: exact float equality is what they check.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // The CRM's functions at its own scale, by their TOTALS.md names.
    fn r2_cents(x: f64) -> Result<i64, TotalsError> {
        CENTS.r2_cents(x)
    }
    fn to_fixed2(x: f64) -> f64 {
        CENTS.to_fixed2(x)
    }
    fn db_shortest_cents(x: f64) -> Result<i64, TotalsError> {
        CENTS.db_shortest_cents(x)
    }
    fn db_shortest_cents_slow(x: f64) -> Result<i64, TotalsError> {
        CENTS.db_shortest_cents_slow(x)
    }
    fn db_php14_cents(x: f64) -> Result<i64, TotalsError> {
        CENTS.db_php14_cents(x)
    }
    fn db_php14_cents_slow(x: f64) -> Result<i64, TotalsError> {
        CENTS.db_php14_cents_slow(x)
    }
    fn text_to_cents(text: &str) -> Option<i64> {
        CENTS.text_to_cents(text)
    }

    #[test]
    fn the_cents_scale_is_the_scale_of_two_decimals() {
        let two = Scale::of(MinorUnits::TWO);
        assert_eq!(
            (two.factor, two.limit, two.fast_limit, two.to_fixed_identity),
            (
                CENTS.factor,
                CENTS.limit,
                CENTS.fast_limit,
                CENTS.to_fixed_identity
            )
        );
    }

    #[test]
    fn other_minor_units_round_the_crm_way_with_their_own_power_of_ten() {
        let yen = Scale::of(MinorUnits::ZERO);
        let fils = Scale::of(MinorUnits::THREE);
        // 2.5 is an exact tie: Math.round rounds it up; 4.0085 · 1000 is below the tie.
        assert_eq!(yen.r2_cents(2.5), Ok(3));
        assert_eq!(yen.r2_cents(-2.5), Ok(-3));
        assert_eq!(4.0085_f64 * 1000.0, 4008.4999999999995);
        assert_eq!(fils.r2_cents(4.0085), Ok(4008));
        assert_eq!(fils.r2_cents(1.0005), Ok(1001));
        assert_eq!(fils.to_fixed2(2.6755), 2.675);
        assert_eq!(yen.to_fixed2(2.5), 3.0);
        assert_eq!(yen.text_to_cents("1234.5"), Some(1235));
        assert_eq!(fils.text_to_cents("1.2345"), Some(1235));
        assert_eq!(yen.r2_cents(1e13), Err(TotalsError::Overflow));
        // 3 decimals: amounts stay below 2^53 thousandths, exact doubles.
        assert_eq!(fils.r2_cents(9e12), Ok(9_000_000_000_000_000));
        assert_eq!(fils.r2_cents(9.1e12), Err(TotalsError::Overflow));
    }

    proptest! {
        #[test]
        fn to_fixed_at_any_minor_unit_equals_rounding_the_full_expansion(
            x in -1e9_f64..1e9,
            dp in 0_u32..=3,
        ) {
            let s = Scale::of(MinorUnits::new(dp).unwrap());
            let exact = format!("{:.1100}", x.abs());
            let units = s.text_to_cents(&exact).unwrap();
            let expected = units as f64 / s.factor;
            let expected = if x < 0.0 { -expected } else { expected };
            prop_assert_eq!(s.to_fixed2(x), expected);
        }

        #[test]
        fn the_fast_paths_agree_with_the_text_at_any_minor_unit(
            units in 0_i64..1_000_000_000_000,
            micro in -20_000_i64..20_000,
            dp in 0_u32..=3,
        ) {
            let s = Scale::of(MinorUnits::new(dp).unwrap());
            let near_tie = (units as f64 + 0.5) / s.factor + micro as f64 * 1e-9;
            prop_assert_eq!(s.db_shortest_cents(near_tie), s.db_shortest_cents_slow(near_tie));
            prop_assert_eq!(s.db_php14_cents(near_tie), s.db_php14_cents_slow(near_tie));
        }
    }

    fn php14_text(x: f64) -> String {
        format!("{x:.13e}")
    }

    #[test]
    fn r2_of_1_005_is_one_because_the_double_is_below_the_tie() {
        assert_eq!(1.005_f64 * 100.0, 100.49999999999999);
        assert_eq!(r2_cents(1.005), Ok(100));
    }

    #[test]
    fn r2_of_15_015_rounds_up_because_the_product_is_an_exact_tie() {
        assert_eq!(15.015_f64 * 100.0, 1501.5);
        assert_eq!(r2_cents(15.015), Ok(1502));
    }

    #[test]
    fn r2_rounds_half_away_from_zero_on_negative_values() {
        assert_eq!(r2_cents(-15.015), Ok(-1502));
        assert_eq!(r2_cents(-0.001), Ok(0));
        assert_eq!(r2_cents(-0.0), Ok(0));
    }

    #[test]
    fn r2_of_the_tricky_half_cent_product_keeps_the_cent_below() {
        // 1.5 × 1385.27 = 2077.905 exactly, but the double is 2077.9049999999997.
        assert_eq!(1.5 * 1385.27, 2077.9049999999997);
        assert_eq!(r2_cents(1.5 * 1385.27), Ok(207790));
    }

    #[test]
    fn r2_refuses_amounts_of_ten_to_the_thirteen_and_nan() {
        assert_eq!(r2_cents(9_999_999_999_999.99), Ok(999_999_999_999_999));
        assert_eq!(r2_cents(1e13), Err(TotalsError::Overflow));
        assert_eq!(r2_cents(f64::NAN), Err(TotalsError::Overflow));
        assert_eq!(r2_cents(f64::INFINITY), Err(TotalsError::Overflow));
    }

    #[test]
    fn to_fixed2_rounds_the_exact_binary_value_ties_up() {
        // 1.005 and 2.675 are slightly below their ties in binary; 0.125 is an exact tie.
        assert_eq!(to_fixed2(1.005), 1.0);
        assert_eq!(to_fixed2(2.675), 2.67);
        assert_eq!(r2_cents(2.675), Ok(268));
        assert_eq!(to_fixed2(0.125), 0.13);
        assert_eq!(to_fixed2(-0.125), -0.13);
        assert_eq!(to_fixed2(1.0 / 3.0), 0.33);
    }

    #[test]
    fn to_fixed2_keeps_huge_and_integer_values_and_zeroes_tiny_ones() {
        assert_eq!(to_fixed2(1e20), 1e20);
        assert_eq!(to_fixed2(123_456_789_012_345.67), 123_456_789_012_345.67);
        assert_eq!(to_fixed2(42.0), 42.0);
        assert_eq!(to_fixed2(1e-300), 0.0);
        assert_eq!(to_fixed2(0.004_999), 0.0);
    }

    #[test]
    fn to_fixed2_matches_reading_back_its_exactly_rounded_text() {
        // Reference: the exact binary value's decimal expansion, rounded on the digits.
        for x in [
            1.005, 2.675, 0.125, 8.345, 1234.565, 99.995, 10.075, 0.045, 5e-3,
        ] {
            let exact = format!("{x:.60}");
            let cents = text_to_cents(&exact).unwrap();
            assert_eq!(to_fixed2(x), cents as f64 / 100.0, "{x}");
        }
    }

    #[test]
    fn db_rounds_the_shortest_text_half_away_from_zero() {
        assert_eq!(115.00999999999999_f64.to_string(), "115.00999999999999");
        assert_eq!(db_shortest_cents(115.00999999999999), Ok(11501));
        assert_eq!(db_shortest_cents_slow(115.00999999999999), Ok(11501));
        assert_eq!(db_shortest_cents_slow(-2.675), Ok(-268));
        assert_eq!(db_shortest_cents(0.1 + 0.2), Ok(30));
        assert_eq!(db_shortest_cents(-2.675), Ok(-268));
        assert_eq!(db_shortest_cents(0.003), Ok(0));
        assert_eq!(db_shortest_cents(1e13), Err(TotalsError::Overflow));
        assert_eq!(
            db_shortest_cents(9_999_999_999_999.994),
            Ok(999_999_999_999_999)
        );
        assert_eq!(
            db_shortest_cents(9_999_999_999_999.996),
            Err(TotalsError::Overflow)
        );
    }

    #[test]
    fn php14_of_the_tricky_product_is_2077_905_so_db_rounds_it_up() {
        assert_eq!(php14_text(2077.9049999999997), "2.0779050000000e3");
        assert_eq!(db_php14_cents(2077.9049999999997), Ok(207791));
        assert_eq!(db_php14_cents_slow(2077.9049999999997), Ok(207791));
        assert_eq!(r2_cents(2077.9049999999997), Ok(207790));
    }

    #[test]
    fn php14_rounds_an_exact_binary_tie_to_even_like_zend_dtoa() {
        // 1234567890123.25 is exact in binary; its 14th digit is followed by exactly 5.
        assert_eq!(php14_text(1_234_567_890_123.25), "1.2345678901232e12");
        assert_eq!(php14_text(1_234_567_890_123.75), "1.2345678901238e12");
        assert_eq!(php14_text(123_456_789_012.125), "1.2345678901212e11");
        assert_eq!(
            db_php14_cents(1_234_567_890_123.25),
            Ok(123_456_789_012_320)
        );
        assert_eq!(db_php14_cents(123_456_789_012.125), Ok(12_345_678_901_212));
    }

    #[test]
    fn php14_drops_the_fifteenth_digit_of_large_amounts() {
        // The double of 1234567890123.46 is 1234567890123.4599…: 14 digits give …123.5.
        assert_eq!(
            db_php14_cents(1_234_567_890_123.46),
            Ok(123_456_789_012_350)
        );
        assert_eq!(
            db_php14_cents(9_999_999_999_999.99),
            Err(TotalsError::Overflow)
        );
    }

    #[test]
    fn decimal_text_rounds_on_the_digits_at_any_magnitude() {
        assert_eq!(text_to_cents("123.455"), Some(12346));
        assert_eq!(text_to_cents("123.454999"), Some(12345));
        assert_eq!(text_to_cents("100"), Some(10000));
        assert_eq!(text_to_cents("5e-3"), Some(1));
        assert_eq!(text_to_cents("4.9999999999999e-3"), Some(0));
        assert_eq!(text_to_cents("1.0000000000000e-300"), Some(0));
        assert_eq!(text_to_cents("1.0000000000000e300"), None);
        assert_eq!(text_to_cents("9999999999999.995"), None);
        assert_eq!(text_to_cents("1.2x"), None);
    }

    #[test]
    fn decimals_become_the_nearest_double() {
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        assert_eq!(to_f64(d("1385.27")), 1385.27);
        assert_eq!(to_f64(d("-0.1")), -0.1);
        assert_eq!(to_f64(d("99999999999.9999")), 99_999_999_999.999_9);
        assert_eq!(to_f64(d("0.0000000000000000000000001")), 1e-25);
        assert_eq!(
            to_f64(d("12345678901234567890.12")),
            12_345_678_901_234_567_890.12
        );
    }

    proptest! {
        #[test]
        fn the_php14_fast_path_agrees_with_the_formatted_text(
            cents in 0_i64..1_000_000_000_000,
            micro in -20_000_i64..20_000,
            negative in any::<bool>(),
        ) {
            // Values around half cents, where the fast path must step aside when unsure.
            let value = (cents as f64 + 0.5) / 100.0 + micro as f64 * 1e-9;
            let x = if negative { -value } else { value };
            prop_assert_eq!(db_php14_cents(x), db_php14_cents_slow(x));
        }

        #[test]
        fn the_php14_fast_path_agrees_on_arbitrary_doubles(x in -1e11_f64..1e11) {
            prop_assert_eq!(db_php14_cents(x), db_php14_cents_slow(x));
        }

        #[test]
        fn the_shortest_text_fast_path_agrees_with_the_formatted_text(
            cents in 0_i64..1_000_000_000_000,
            micro in -20_000_i64..20_000,
            x in -1e11_f64..1e11,
        ) {
            let near_tie = (cents as f64 + 0.5) / 100.0 + micro as f64 * 1e-9;
            prop_assert_eq!(db_shortest_cents(near_tie), db_shortest_cents_slow(near_tie));
            prop_assert_eq!(db_shortest_cents(x), db_shortest_cents_slow(x));
        }

        #[test]
        fn to_fixed2_equals_rounding_the_full_expansion(x in -1e9_f64..1e9) {
            let exact = format!("{:.1100}", x.abs());
            let cents = text_to_cents(&exact).unwrap();
            let expected = if x < 0.0 { -(cents as f64) / 100.0 } else { cents as f64 / 100.0 };
            prop_assert_eq!(to_fixed2(x), expected);
        }

        #[test]
        fn r2_equals_rounding_the_scaled_double_half_up(x in -1e12_f64..1e12) {
            let cents = (x.abs() * 100.0).round() as i64;
            prop_assert_eq!(r2_cents(x), Ok(if x < 0.0 { -cents } else { cents }));
        }
    }
}
