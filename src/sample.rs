//! Deterministic pseudo-random estimates, for benchmarks and policy comparisons.
//!
//! The shapes follow the random part of the shared vectors: mostly whole or quarter
//! quantities, unit rates with cents from a few cents to a few thousand (now and then far
//! more), the usual VAT and sales-tax rates, line discounts of common percentages or small
//! fixed amounts, and an occasional adjustment. The same seed always gives the same
//! estimates (a SplitMix64 generator; no dependency, no global state).

use crm_core::money::{AmountError, Money, Percent, Quantity, UnitRate};
use crm_core::totals::{HeaderDiscount, Line, LineDiscount, TaxMode, TotalsInput};
use rust_decimal::Decimal;

/// Tax rates in hundredths of a percent, as estimates use them.
const TAX_RATES: [i64; 14] = [
    0, 500, 750, 825, 1000, 1250, 1500, 1600, 1750, 1800, 2000, 2100, 2300, 2500,
];

/// Discount percentages in hundredths of a percent.
const DISCOUNT_PERCENTAGES: [i64; 13] = [
    50, 250, 500, 725, 1000, 1250, 1500, 2000, 2500, 3300, 5000, 9999, 10000,
];

/// Quarter and half quantities in hundredths.
const FRACTIONAL_QUANTITIES: [i64; 9] = [25, 50, 75, 125, 150, 250, 350, 450, 1050];

/// Line counts, weighted towards small estimates.
const LINE_COUNTS: [usize; 10] = [1, 1, 2, 3, 3, 4, 5, 6, 10, 25];

/// A seeded source of estimates.
#[derive(Debug, Clone)]
pub struct Sampler {
    state: u64,
}

impl Sampler {
    /// A sampler whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Sampler { state: seed }
    }

    /// The next 64 pseudo-random bits (SplitMix64).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    pub fn range(&mut self, low: i64, high: i64) -> i64 {
        let span = high.abs_diff(low) + 1;
        low + (self.next_u64() % span) as i64
    }

    /// True with probability `percent / 100`.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    fn pick<T: Copy>(&mut self, choices: &[T]) -> T {
        choices[(self.next_u64() % choices.len() as u64) as usize]
    }

    /// An estimate like the random shared vectors: either tax mode, 1 to 25 lines, every
    /// discount kind, taxes and adjustments now and then.
    pub fn estimate(&mut self) -> Result<TotalsInput, AmountError> {
        let mode = if self.chance(50) {
            TaxMode::Inline
        } else {
            TaxMode::Summary
        };
        let count = self.pick(&LINE_COUNTS);
        let mut input = self.lines(mode, count)?;
        if mode == TaxMode::Summary {
            for _ in 0..self.range(0, 2) {
                input
                    .tax_rates
                    .push(hundredths(self.pick(&TAX_RATES[1..]))?);
            }
            input.discount = match self.range(0, 99) {
                0..=69 => HeaderDiscount::None,
                70..=86 => HeaderDiscount::Fixed(Money::from_cents(self.range(100, 15_000))?),
                _ => HeaderDiscount::Percentage(hundredths(self.pick(&DISCOUNT_PERCENTAGES))?),
            };
        }
        if self.chance(40) {
            input.adjustment = Money::from_cents(self.range(-5_000, 5_000))?;
        }
        Ok(input)
    }

    /// The benchmark shape: `count` lines; inline lines carry percentage or fixed discounts
    /// and tax rates; a summary estimate has two tax rates and a percentage header discount.
    pub fn benchmark_estimate(
        &mut self,
        mode: TaxMode,
        count: usize,
    ) -> Result<TotalsInput, AmountError> {
        let mut input = self.lines(mode, count)?;
        if mode == TaxMode::Summary {
            input.tax_rates = vec![hundredths(750)?, hundredths(225)?];
            input.discount = HeaderDiscount::Percentage(hundredths(1250)?);
        }
        input.adjustment = Money::from_cents(-101)?;
        Ok(input)
    }

    fn lines(&mut self, mode: TaxMode, count: usize) -> Result<TotalsInput, AmountError> {
        let lines = (0..count)
            .map(|_| self.line(mode))
            .collect::<Result<_, _>>()?;
        Ok(TotalsInput {
            tax_mode: mode,
            lines,
            ..TotalsInput::default()
        })
    }

    fn line(&mut self, mode: TaxMode) -> Result<Line, AmountError> {
        let quantity = match self.range(0, 99) {
            0..=59 => Decimal::new(self.range(1, 12), 0),
            60..=89 => Decimal::new(self.pick(&FRACTIONAL_QUANTITIES), 2),
            _ => Decimal::new(self.range(1, 600), 1),
        };
        let rate_cents = match self.range(0, 99) {
            0..=9 => self.range(1, 3_000),
            10..=89 => self.range(100, 250_000),
            90..=97 => self.range(1, 3_000) * 100,
            _ => self.range(250_000, 20_000_000),
        };
        let mut line = Line {
            vat: None,
            quantity: Quantity::new(quantity)?,
            rate: UnitRate::new(Decimal::new(rate_cents, 2))?,
            discount: LineDiscount::None,
            tax_rate: None,
        };
        if mode == TaxMode::Inline {
            line.discount = match self.range(0, 99) {
                0..=49 => LineDiscount::None,
                50..=74 => LineDiscount::Percentage(hundredths(self.pick(&DISCOUNT_PERCENTAGES))?),
                _ => LineDiscount::Fixed(Money::from_cents(self.range(1, 8_000))?),
            };
            if self.chance(45) {
                line.tax_rate = Some(hundredths(self.pick(&TAX_RATES))?);
            }
        }
        Ok(line)
    }
}

fn hundredths(value: i64) -> Result<Percent, AmountError> {
    Percent::new(Decimal::new(value, 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_estimates() {
        let (mut a, mut b) = (Sampler::new(7), Sampler::new(7));
        for _ in 0..100 {
            assert_eq!(a.estimate().unwrap(), b.estimate().unwrap());
        }
    }

    #[test]
    fn every_generated_estimate_is_valid_in_both_shapes() {
        let mut sampler = Sampler::new(1);
        for _ in 0..2_000 {
            let estimate = sampler.estimate().unwrap();
            assert!(!estimate.lines.is_empty() && estimate.lines.len() <= 25);
        }
        for mode in [TaxMode::Summary, TaxMode::Inline] {
            let estimate = sampler.benchmark_estimate(mode, 1_000).unwrap();
            assert_eq!(estimate.lines.len(), 1_000);
        }
    }
}
