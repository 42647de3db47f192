//! How a Rust program computes an estimate's totals with crm-core.
//!
//! ```text
//! cargo run --example totals_quickstart
//! ```

use crm_core::money::{AmountError, Money, Percent, Quantity, UnitRate};
use crm_core::totals::{
    Computed, HeaderDiscount, Line, LineDiscount, Policy, TaxMode, TotalsInput, compute,
};

const USAGE: &str = "\
totals_quickstart: an estimate's totals computed with crm-core, under both policies

usage: totals_quickstart (no arguments)";

fn main() -> std::process::ExitCode {
    if crm_workspace::example_cli::help_requested(USAGE) {
        return std::process::ExitCode::SUCCESS;
    }
    crm_workspace::example_cli::finish("totals_quickstart", run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // Amounts are parsed from decimal text once, at the edge; each type checks its own
    // limits (decimal places, range, sign), so a `Line` can only hold valid values.
    let summary = TotalsInput {
        tax_mode: TaxMode::Summary,
        lines: vec![line("3", "33.33")?, line("1.5", "1385.27")?],
        // Summary mode: estimate-level taxes and a header discount.
        tax_rates: vec![Percent::parse("7.50")?, Percent::parse("2.25")?],
        discount: HeaderDiscount::Percentage(Percent::parse("12.5")?),
        adjustment: Money::parse("-1.01")?,
        minor_units: crm_core::money::MinorUnits::TWO,
    };

    // Inline mode: each line has its own discount and tax rate; line totals include tax.
    let mut discounted = line("1", "10.05")?;
    discounted.discount = LineDiscount::Percentage(Percent::parse("10")?);
    discounted.tax_rate = Some(Percent::parse("20")?);
    let inline = TotalsInput {
        tax_mode: TaxMode::Inline,
        lines: vec![discounted, line("2", "5.00")?],
        ..TotalsInput::default()
    };

    for (name, input) in [("summary", &summary), ("inline", &inline)] {
        // CrmParity reproduces the CRM's own figures (f64 arithmetic, the CRM's rounding);
        // ExactDecimal runs the same steps on exact decimals, rounding half away from zero.
        // They differ on a few cents' worth of half-cent cases, such as 1.5 × 1385.27.
        for policy in [Policy::CrmParity, Policy::ExactDecimal] {
            let computed = compute(input, policy)?;
            print_totals(name, policy, &computed);
        }
    }
    Ok(())
}

/// A line with no discount and no tax rate, from decimal text.
fn line(quantity: &str, rate: &str) -> Result<Line, AmountError> {
    Ok(Line {
        vat: None,
        quantity: Quantity::parse(quantity)?,
        rate: UnitRate::parse(rate)?,
        discount: LineDiscount::None,
        tax_rate: None,
    })
}

fn print_totals(name: &str, policy: Policy, computed: &Computed) {
    let t = &computed.totals;
    println!("{name} estimate, {policy:?}:");
    for (i, line) in computed.lines.iter().enumerate() {
        println!(
            "  line {}: total {} (discount {})",
            i + 1,
            line.total,
            line.discount_amount
        );
    }
    println!(
        "  subtotal {}, discount {}, taxes {} ({}%), adjustment {}, final {}",
        t.subtotal,
        t.discount_amount,
        t.tax_total_amount,
        t.tax_total_percentage,
        t.adjustment_amount,
        t.final_amount
    );
}
