//! Decimal amounts with the input limits of the API, and the one rounding rule used
//! outside the totals calculator.
//!
//! Every amount is a [`Decimal`] wrapped in a type that can only be built when the value
//! respects its limits, so a `Money` is always storable in a `NUMERIC(16,3)` column and a
//! `Percent` in a `NUMERIC(10,2)` column. How many decimals an amount of a document may
//! have is its currency's ([`MinorUnits`], API.md §18): an amount read from a request
//! before the currency is known is a [`MoneyInput`]. Rounding is never `round_dp` (banker's rounding):
//! it is [`round_half_away`], named, everywhere.

use std::fmt;
use std::str::FromStr;

use rust_decimal::RoundingStrategy;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The decimal type every amount wraps (re-exported, so that a caller needs no
/// `rust_decimal` dependency of its own to build or read one).
pub use rust_decimal::Decimal;

/// Why a decimal value was refused by one of the amount types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    /// The text is not a decimal number.
    #[error("not a number")]
    NotANumber,
    /// More significant decimal places than the type allows.
    #[error("more than {max} decimal places")]
    TooManyDecimals {
        /// The most decimal places the type accepts.
        max: u32,
    },
    /// The magnitude is at or above the type's bound.
    #[error("out of range")]
    OutOfRange,
    /// Zero or negative where only positive values are allowed.
    #[error("must be greater than zero")]
    NotPositive,
    /// Negative where only zero or more is allowed.
    #[error("must not be negative")]
    Negative,
}

/// Rounds half away from zero to `dp` decimal places (the database's rule for DECIMAL).
///
/// `round_half_away(2.675, 2) == 2.68`, `round_half_away(-0.125, 2) == -0.13`.
pub fn round_half_away(value: Decimal, dp: u32) -> Decimal {
    value.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero)
}

/// Parses decimal text exactly: an optional sign, digits with an optional point, and an
/// optional exponent (`"12"`, `"-0.5"`, `".25"`, `"1e3"`, `"2.50"`), as PHP's `is_numeric`
/// accepts them. Surrounding whitespace is not accepted.
///
/// Trailing zeros after the point are not significant: `"2.500"` has one decimal place.
/// `max_decimals` and `max_integer_digits` bound the value before any arithmetic, so
/// absurd inputs such as `"1e400"` or `"1e-400"` are refused without overflow.
pub fn parse_decimal(
    text: &str,
    max_decimals: u32,
    max_integer_digits: u32,
) -> Result<Decimal, AmountError> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], parse_exponent(&rest[at + 1..])?),
        None => (rest, 0),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int_part.is_empty() && frac_part.is_empty())
        || !all_digits(int_part)
        || !all_digits(frac_part)
    {
        return Err(AmountError::NotANumber);
    }
    // Significant digits without leading zeros, and the power of ten of the last one.
    let digits: String = format!("{int_part}{frac_part}");
    let digits = digits.trim_start_matches('0');
    let trimmed = digits.trim_end_matches('0');
    if trimmed.is_empty() {
        return Ok(Decimal::ZERO);
    }
    let dropped_zeros = (digits.len() - trimmed.len()) as i64;
    let last_power = exponent - frac_part.len() as i64 + dropped_zeros;
    let decimals = (-last_power).max(0);
    if decimals > i64::from(max_decimals) {
        return Err(AmountError::TooManyDecimals { max: max_decimals });
    }
    let integer_digits = trimmed.len() as i64 + last_power;
    if integer_digits > i64::from(max_integer_digits) {
        return Err(AmountError::OutOfRange);
    }
    // At most max_integer_digits + max_decimals digits here, which the callers keep ≤ 28.
    let mut mantissa: i128 = trimmed.parse().map_err(|_| AmountError::OutOfRange)?;
    for _ in 0..last_power.max(0) {
        mantissa = mantissa.checked_mul(10).ok_or(AmountError::OutOfRange)?;
    }
    if negative {
        mantissa = -mantissa;
    }
    Decimal::try_from_i128_with_scale(mantissa, decimals as u32)
        .map_err(|_| AmountError::OutOfRange)
}

fn parse_exponent(text: &str) -> Result<i64, AmountError> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AmountError::NotANumber);
    }
    // Exponents beyond ±10^6 are absurd; clamping keeps the arithmetic in range while the
    // digit-count checks still refuse them.
    let magnitude: i64 = digits.parse().unwrap_or(i64::MAX).min(1_000_000);
    Ok(if text.starts_with('-') {
        -magnitude
    } else {
        magnitude
    })
}

/// 10^k as a decimal (k ≤ 28), computed at compile time where used in constants.
const fn pow10(k: u32) -> Decimal {
    let v = 10u128.pow(k);
    Decimal::from_parts(v as u32, (v >> 32) as u32, (v >> 64) as u32, false, 0)
}

/// Writes a decimal with at least `min_dp` decimal places (more if it has them); a
/// precision (`{:.1}`) rounds half away from zero to that many places.
fn fmt_with_min_dp(value: Decimal, min_dp: u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut v = value.normalize();
    if let Some(places) = f.precision() {
        v = round_half_away(v, u32::try_from(places).unwrap_or(u32::MAX));
    } else if v.scale() < min_dp {
        v.rescale(min_dp);
    }
    if v.is_zero() {
        // `normalize` may keep a negative zero's sign; the API never shows "-0.00".
        v = Decimal::new(0, min_dp);
    }
    fmt::Display::fmt(&v, f)
}

macro_rules! amount_type {
    (
        $(#[$meta:meta])*
        $name:ident, decimals = $dp:expr, integer_digits = $int:expr, shown_dp = $shown:expr,
        check = $check:expr
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(Decimal);

        impl $name {
            /// The most decimal places accepted on input.
            pub const MAX_DECIMALS: u32 = $dp;
            /// The most digits before the decimal point.
            pub const MAX_INTEGER_DIGITS: u32 = $int;

            /// Builds the value, refusing too many decimal places, out-of-range magnitudes
            /// and values outside the type's sign rule.
            pub fn new(value: Decimal) -> Result<Self, AmountError> {
                // Normalising (dropping trailing zeros) is only needed when the written
                // scale is above the limit: `2.500` has one significant decimal.
                let significant_scale =
                    if value.scale() <= Self::MAX_DECIMALS { value.scale() } else { value.normalize().scale() };
                if significant_scale > Self::MAX_DECIMALS {
                    return Err(AmountError::TooManyDecimals { max: Self::MAX_DECIMALS });
                }
                if value.abs() >= pow10(Self::MAX_INTEGER_DIGITS) {
                    return Err(AmountError::OutOfRange);
                }
                let check: fn(Decimal) -> Result<(), AmountError> = $check;
                check(value)?;
                // Keep the shown number of decimals (more when the value has them).
                let mut v = value;
                v.rescale(v.normalize().scale().max($shown).min(Self::MAX_DECIMALS));
                Ok(Self(v))
            }

            /// Parses decimal text (see [`parse_decimal`]) and applies the type's limits.
            pub fn parse(text: &str) -> Result<Self, AmountError> {
                Self::new(parse_decimal(text, Self::MAX_DECIMALS, Self::MAX_INTEGER_DIGITS)?)
            }

            /// The exact decimal value.
            pub fn get(self) -> Decimal {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt_with_min_dp(self.0, $shown, f)
            }
        }

        impl FromStr for $name {
            type Err = AmountError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::parse(s)
            }
        }

        impl TryFrom<Decimal> for $name {
            type Error = AmountError;
            fn try_from(value: Decimal) -> Result<Self, Self::Error> {
                Self::new(value)
            }
        }

        impl From<$name> for Decimal {
            fn from(value: $name) -> Decimal {
                value.0
            }
        }

        impl Serialize for $name {
            /// Serialised as decimal text (`"1250.00"`), never as a float.
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            /// Read from decimal text with [`parse`](Self::parse)'s rules and limits
            /// (`"1250.00"`); a JSON number is refused, since a float may not be the
            /// decimal that was written.
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                Self::parse(&text).map_err(serde::de::Error::custom)
            }
        }
    };
}

fn any_sign(_: Decimal) -> Result<(), AmountError> {
    Ok(())
}

fn non_negative(value: Decimal) -> Result<(), AmountError> {
    if value.is_sign_negative() && !value.is_zero() {
        Err(AmountError::Negative)
    } else {
        Ok(())
    }
}

fn positive(value: Decimal) -> Result<(), AmountError> {
    if value > Decimal::ZERO {
        Ok(())
    } else {
        Err(AmountError::NotPositive)
    }
}

amount_type!(
    /// A money amount: at most 3 decimal places (the most any supported currency has,
    /// [`MinorUnits::MAX`]), magnitude below 10^13 (fits `NUMERIC(16,3)`), either sign.
    /// `Display` writes at least two decimals (`"1250.00"`, `"12.345"`); a document writes
    /// its amounts with exactly its currency's decimals ([`Money::in_minor_units`]).
    Money, decimals = 3, integer_digits = 13, shown_dp = 2, check = any_sign
);

amount_type!(
    /// A percentage such as a tax rate or a discount percentage: at most 2 decimal places,
    /// zero or more, below 10^8 (fits `NUMERIC(10,2)`). Shown with two decimals: `"7.50"`.
    Percent, decimals = 2, integer_digits = 8, shown_dp = 2, check = non_negative
);

amount_type!(
    /// A line item quantity: greater than zero, at most 4 decimal places, below 10^11
    /// (fits `NUMERIC(15,4)`). Shown with at least two decimals: `"2.00"`, `"1.2345"`.
    Quantity, decimals = 4, integer_digits = 11, shown_dp = 2, check = positive
);

amount_type!(
    /// A line item unit rate (price per unit): greater than zero, at most 4 decimal
    /// places, below 10^11. Shown with at least two decimals: `"100.00"`, `"1.005"`.
    UnitRate, decimals = 4, integer_digits = 11, shown_dp = 2, check = positive
);

amount_type!(
    /// An exchange rate (`bill_exchange_rate`: how many units of the company's currency one
    /// unit of the document's is worth): greater than zero, at most 6 decimal places,
    /// below 10^9 (fits `NUMERIC(15,6)`). Shown as given, without trailing zeros: `"0.0061"`,
    /// `"3.25"`, `"160"`.
    ExchangeRate, decimals = 6, integer_digits = 9, shown_dp = 0, check = positive
);

impl Money {
    /// Zero, shown as `"0.00"`.
    pub const ZERO: Money = Money(Decimal::from_parts(0, 0, 0, false, 2));

    /// Rounds any decimal half away from zero to cents and checks the range.
    pub fn round_from(value: Decimal) -> Result<Self, AmountError> {
        Self::new(round_half_away(value, 2))
    }

    /// Rounds any decimal half away from zero to `minor` decimal places (a currency's minor
    /// unit) and checks the range.
    pub fn round_to(value: Decimal, minor: MinorUnits) -> Result<Self, AmountError> {
        Self::new(round_half_away(value, minor.get()))
    }

    /// Builds an amount from a whole number of minor units (`units / 10^minor`): cents for
    /// 2, yen for 0, fils for 3. Checks the range on the integer.
    pub fn from_units(units: i64, minor: MinorUnits) -> Result<Self, AmountError> {
        if units.unsigned_abs() >= 10u64.pow(Self::MAX_INTEGER_DIGITS + minor.get()) {
            return Err(AmountError::OutOfRange);
        }
        Self::new(Decimal::new(units, minor.get()))
    }

    /// Whether the amount has at most `minor` significant decimal places.
    pub fn fits(self, minor: MinorUnits) -> bool {
        self.0.scale() <= minor.get() || self.0.normalize().scale() <= minor.get()
    }

    /// The amount as a document in a currency of `minor` decimals writes it: rounded half
    /// away from zero to exactly that many places (`"1500"`, `"12.50"`, `"12.500"`), never
    /// `"-0"`. Amounts computed or validated for the currency have no more places, so the
    /// rounding only ever pads.
    pub fn in_minor_units(self, minor: MinorUnits) -> String {
        let mut v = round_half_away(self.0, minor.get());
        v.rescale(minor.get());
        if v.is_zero() {
            v = Decimal::new(0, minor.get());
        }
        v.to_string()
    }

    /// Builds an amount from a whole number of cents (`cents / 100`); the totals
    /// calculator's hot path, so it checks the range on the integer.
    pub fn from_cents(cents: i64) -> Result<Self, AmountError> {
        if cents.unsigned_abs() >= 10u64.pow(Self::MAX_INTEGER_DIGITS + 2) {
            return Err(AmountError::OutOfRange);
        }
        Ok(Money(Decimal::new(cents, 2)))
    }
}

/// How many decimal places a currency's amounts have (ISO 4217's "minor unit"): 0 (`JPY`),
/// 2 (`EUR`) or 3 (`KWD`). The totals calculator rounds to it and validation allows at most
/// that many decimals. Currencies with 4 (`CLF`) are not supported as a document's currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MinorUnits(u8);

impl MinorUnits {
    /// No decimals (`JPY`, `KRW`).
    pub const ZERO: MinorUnits = MinorUnits(0);
    /// Two decimals (`EUR`, `USD`; the default).
    pub const TWO: MinorUnits = MinorUnits(2);
    /// Three decimals (`KWD`, `BHD`).
    pub const THREE: MinorUnits = MinorUnits(3);
    /// The most supported: the stored amount columns hold 3 decimals.
    pub const MAX: MinorUnits = MinorUnits::THREE;

    /// `dp` decimals, when at most [`MinorUnits::MAX`].
    pub const fn new(dp: u32) -> Option<MinorUnits> {
        if dp <= MinorUnits::MAX.0 as u32 {
            Some(MinorUnits(dp as u8))
        } else {
            None
        }
    }

    /// The number of decimal places.
    pub const fn get(self) -> u32 {
        self.0 as u32
    }
}

/// Two decimals, the minor unit of `EUR` (a company's currency when never set).
impl Default for MinorUnits {
    fn default() -> Self {
        MinorUnits::TWO
    }
}

/// A money amount as a request gave it, before the document's currency (and so how many
/// decimals it may have) is known: a decimal below 10^13 in magnitude with any number of
/// significant decimals. [`MoneyInput::in_minor_units`] makes it a [`Money`] of the
/// currency, or the error naming the currency's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoneyInput {
    /// The value; `None` when it has more decimals than a `Decimal` holds (28), which no
    /// currency accepts.
    value: Option<Decimal>,
}

impl MoneyInput {
    /// Parses decimal text ([`parse_decimal`]'s forms) below 10^13 in magnitude.
    pub fn parse(text: &str) -> Result<Self, AmountError> {
        match parse_decimal(
            text,
            28 - Money::MAX_INTEGER_DIGITS,
            Money::MAX_INTEGER_DIGITS,
        ) {
            Ok(value) => Ok(MoneyInput { value: Some(value) }),
            Err(AmountError::TooManyDecimals { .. }) => Ok(MoneyInput { value: None }),
            Err(e) => Err(e),
        }
    }

    /// A valid amount as an input (it fits any currency it was validated for).
    pub fn of(money: Money) -> Self {
        MoneyInput {
            value: Some(money.get()),
        }
    }

    /// Whether the value is below zero (a value too precise to hold reads its sign from
    /// nothing and is not negative here; it is refused by [`MoneyInput::in_minor_units`]).
    pub fn is_negative(self) -> bool {
        self.value
            .is_some_and(|v| v.is_sign_negative() && !v.is_zero())
    }

    /// Whether the value has more decimals than a `Decimal` holds (no currency takes it).
    pub fn too_precise(self) -> bool {
        self.value.is_none()
    }

    /// Whether the value is above zero.
    pub fn is_positive(self) -> bool {
        self.value.is_some_and(|v| v > Decimal::ZERO)
    }

    /// The amount in a currency of `minor` decimals: more significant decimals than that
    /// is [`AmountError::TooManyDecimals`] with `max` the currency's.
    pub fn in_minor_units(self, minor: MinorUnits) -> Result<Money, AmountError> {
        let too_many = AmountError::TooManyDecimals { max: minor.get() };
        let value = self.value.ok_or(too_many)?;
        if value.normalize().scale() > minor.get() {
            return Err(too_many);
        }
        Money::new(value)
    }
}

/// Zero (`Money` and `Percent` only: a `Quantity` or `UnitRate` is never zero).
impl Default for Money {
    fn default() -> Self {
        Money::ZERO
    }
}

/// Zero percent.
impl Default for Percent {
    fn default() -> Self {
        Percent::ZERO
    }
}

impl Percent {
    /// Zero percent, shown as `"0.00"`.
    pub const ZERO: Percent = Percent(Decimal::from_parts(0, 0, 0, false, 2));
    /// One hundred percent.
    pub const HUNDRED: Percent = Percent(Decimal::from_parts(10000, 0, 0, false, 2));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn decimal_text_parses_plain_signed_and_exponent_forms() {
        assert_eq!(parse_decimal("12", 2, 13), Ok(d("12")));
        assert_eq!(parse_decimal("-0.5", 2, 13), Ok(d("-0.5")));
        assert_eq!(parse_decimal("+.25", 2, 13), Ok(d("0.25")));
        assert_eq!(parse_decimal("5.", 2, 13), Ok(d("5")));
        assert_eq!(parse_decimal("1e3", 2, 13), Ok(d("1000")));
        assert_eq!(parse_decimal("125E-2", 2, 13), Ok(d("1.25")));
        assert_eq!(parse_decimal("0000.000", 2, 13), Ok(Decimal::ZERO));
    }

    #[test]
    fn decimal_text_rejects_what_is_not_a_number() {
        for bad in [
            "", "-", ".", "abc", "1,5", " 1", "1 ", "0x10", "1e", "1e+", "--1", "1.2.3", "NaN",
            "inf",
        ] {
            assert_eq!(
                parse_decimal(bad, 2, 13),
                Err(AmountError::NotANumber),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn trailing_zeros_are_not_significant_decimals() {
        assert_eq!(parse_decimal("2.500", 2, 13), Ok(d("2.5")));
        assert_eq!(
            parse_decimal("2.505", 2, 13),
            Err(AmountError::TooManyDecimals { max: 2 })
        );
    }

    #[test]
    fn absurd_exponents_are_refused_without_overflow() {
        assert_eq!(parse_decimal("1e400", 2, 13), Err(AmountError::OutOfRange));
        assert_eq!(
            parse_decimal("1e-400", 2, 13),
            Err(AmountError::TooManyDecimals { max: 2 })
        );
        assert_eq!(
            parse_decimal("1e99999999999999999999", 2, 13),
            Err(AmountError::OutOfRange)
        );
        assert_eq!(
            parse_decimal("99999999999999999999999999999999999", 2, 13),
            Err(AmountError::OutOfRange)
        );
    }

    #[test]
    fn money_accepts_three_decimals_below_ten_to_the_thirteen() {
        assert_eq!(
            Money::parse("9999999999999.99").unwrap().to_string(),
            "9999999999999.99"
        );
        assert_eq!(
            Money::parse("-9999999999999.99").unwrap().to_string(),
            "-9999999999999.99"
        );
        assert_eq!(Money::parse("10000000000000"), Err(AmountError::OutOfRange));
        assert_eq!(Money::parse("1.005").unwrap().to_string(), "1.005");
        assert_eq!(
            Money::parse("1.0005"),
            Err(AmountError::TooManyDecimals { max: 3 })
        );
    }

    #[test]
    fn money_is_shown_with_exactly_two_decimals() {
        assert_eq!(Money::parse("1250").unwrap().to_string(), "1250.00");
        assert_eq!(Money::parse("0.5").unwrap().to_string(), "0.50");
        assert_eq!(Money::parse("-0").unwrap().to_string(), "0.00");
        assert_eq!(Money::ZERO.to_string(), "0.00");
    }

    #[test]
    fn money_serialises_as_text() {
        let json = serde_json::to_string(&Money::parse("7").unwrap()).unwrap();
        assert_eq!(json, "\"7.00\"");
    }

    #[test]
    fn quantity_must_be_positive_with_at_most_four_decimals() {
        assert_eq!(Quantity::parse("0"), Err(AmountError::NotPositive));
        assert_eq!(Quantity::parse("-1"), Err(AmountError::NotPositive));
        assert_eq!(
            Quantity::parse("1.23456"),
            Err(AmountError::TooManyDecimals { max: 4 })
        );
        assert_eq!(Quantity::parse("1.2345").unwrap().to_string(), "1.2345");
        assert_eq!(Quantity::parse("2").unwrap().to_string(), "2.00");
        assert_eq!(UnitRate::parse("1.005").unwrap().to_string(), "1.005");
        assert_eq!(
            UnitRate::parse("100000000000"),
            Err(AmountError::OutOfRange)
        );
    }

    #[test]
    fn percent_is_never_negative() {
        assert_eq!(Percent::parse("-0.01"), Err(AmountError::Negative));
        assert_eq!(Percent::parse("7.5").unwrap().to_string(), "7.50");
        assert_eq!(Percent::HUNDRED.to_string(), "100.00");
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(round_half_away(d("2.675"), 2), d("2.68"));
        assert_eq!(round_half_away(d("-0.125"), 2), d("-0.13"));
        assert_eq!(round_half_away(d("0.124"), 2), d("0.12"));
    }

    #[test]
    fn money_built_from_cents_keeps_two_decimals() {
        assert_eq!(Money::from_cents(-1205).unwrap().to_string(), "-12.05");
        assert_eq!(
            Money::from_cents(999_999_999_999_999).unwrap().to_string(),
            "9999999999999.99"
        );
        assert_eq!(
            Money::from_cents(-1_000_000_000_000_000),
            Err(AmountError::OutOfRange)
        );
    }

    #[test]
    fn the_bound_is_ten_to_the_integer_digits() {
        assert_eq!(pow10(13).to_string(), "10000000000000");
        assert_eq!(pow10(0), Decimal::ONE);
        assert_eq!(pow10(28).to_string(), "10000000000000000000000000000");
    }

    #[test]
    fn amounts_read_from_json_text_with_their_limits() {
        let money: Money = serde_json::from_str(r#""1250.5""#).unwrap();
        assert_eq!(money.to_string(), "1250.50");
        let rate: UnitRate = serde_json::from_str(r#""0.0125""#).unwrap();
        assert_eq!(rate.to_string(), "0.0125");
        for (json, why) in [
            (r#""1.0005""#, "more than 3 decimal places"),
            (r#""1e400""#, "out of range"),
            ("12.5", "expected a string"),
        ] {
            let e = serde_json::from_str::<Money>(json).unwrap_err().to_string();
            assert!(e.contains(why), "{json}: {e}");
        }
        let e = serde_json::from_str::<Quantity>(r#""0""#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("must be greater than zero"), "{e}");
        let e = serde_json::from_str::<Percent>(r#""-1""#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("must not be negative"), "{e}");
    }

    #[test]
    fn a_precision_rounds_half_away_from_zero() {
        let m = Money::parse("1234.56").unwrap();
        assert_eq!(format!("{m:.0}"), "1235");
        assert_eq!(format!("{m:.1}"), "1234.6");
        assert_eq!(format!("{m:.3}"), "1234.560");
        assert_eq!(format!("{:.1}", Money::parse("-0.05").unwrap()), "-0.1");
        assert_eq!(format!("{:.0}", Money::parse("-0.4").unwrap()), "0");
        assert_eq!(format!("{m:>10.1}"), "    1234.6");
    }

    #[test]
    fn an_amount_is_written_with_exactly_its_currency_decimals() {
        let m = |s: &str| Money::parse(s).unwrap();
        assert_eq!(m("1500").in_minor_units(MinorUnits::ZERO), "1500");
        assert_eq!(m("12.5").in_minor_units(MinorUnits::THREE), "12.500");
        assert_eq!(m("12.5").in_minor_units(MinorUnits::TWO), "12.50");
        assert_eq!(m("-0").in_minor_units(MinorUnits::ZERO), "0");
        assert_eq!(m("-12.125").in_minor_units(MinorUnits::THREE), "-12.125");
    }

    #[test]
    fn amounts_built_from_minor_units_keep_the_currency_scale() {
        assert_eq!(
            Money::from_units(1500, MinorUnits::ZERO)
                .unwrap()
                .to_string(),
            "1500.00"
        );
        assert_eq!(
            Money::from_units(-12_345, MinorUnits::THREE).unwrap().get(),
            d("-12.345")
        );
        assert_eq!(
            Money::from_units(10_000_000_000_000, MinorUnits::ZERO),
            Err(AmountError::OutOfRange)
        );
        assert!(Money::from_units(9_999_999_999_999_999, MinorUnits::THREE).is_ok());
        assert_eq!(
            Money::round_to(d("2.5"), MinorUnits::ZERO).unwrap().get(),
            d("3")
        );
        assert_eq!(
            Money::round_to(d("-1.0005"), MinorUnits::THREE)
                .unwrap()
                .get(),
            d("-1.001")
        );
    }

    #[test]
    fn an_input_amount_is_checked_against_the_currency_decimals() {
        let i = |s: &str| MoneyInput::parse(s).unwrap();
        assert_eq!(
            i("1500").in_minor_units(MinorUnits::ZERO).unwrap().get(),
            d("1500")
        );
        assert_eq!(
            i("1500.5").in_minor_units(MinorUnits::ZERO),
            Err(AmountError::TooManyDecimals { max: 0 })
        );
        assert_eq!(
            i("12.345").in_minor_units(MinorUnits::TWO),
            Err(AmountError::TooManyDecimals { max: 2 })
        );
        assert!(i("12.345").in_minor_units(MinorUnits::THREE).is_ok());
        assert!(i("12.3400").in_minor_units(MinorUnits::TWO).is_ok());
        // Far more decimals than a decimal holds: refused by every currency, never rounded.
        let long = format!("0.{}1", "0".repeat(40));
        assert_eq!(
            i(&long).in_minor_units(MinorUnits::THREE),
            Err(AmountError::TooManyDecimals { max: 3 })
        );
        assert_eq!(MoneyInput::parse("1e13"), Err(AmountError::OutOfRange));
        assert_eq!(MoneyInput::parse("x"), Err(AmountError::NotANumber));
        assert!(i("-0.5").is_negative() && !i("0").is_negative() && i("0.001").is_positive());
    }

    #[test]
    fn minor_units_go_up_to_three() {
        assert_eq!(MinorUnits::new(3), Some(MinorUnits::THREE));
        assert_eq!(MinorUnits::new(4), None);
        assert_eq!(MinorUnits::default(), MinorUnits::TWO);
    }

    #[test]
    fn only_money_and_percent_have_a_default_and_it_is_zero() {
        assert_eq!(Money::default(), Money::ZERO);
        assert_eq!(Percent::default(), Percent::ZERO);
    }
}
