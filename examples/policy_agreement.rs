//! Measures how often the two totals policies disagree, on random realistic estimates.
//!
//! ```text
//! cargo run --release --example policy_agreement [-- COUNT [SEED]]
//! ```
//!
//! The estimates come from [`crm_workspace::sample::Sampler::estimate`] (shaped like the
//! random part of the shared vectors). An estimate "differs" when any figure of the two
//! results differs; the report also counts, per figure, how many estimates it differs in.

use std::collections::BTreeMap;
use std::process::ExitCode;

use crm_core::totals::{Computed, Policy, TaxMode, compute};
use crm_workspace::example_cli;
use crm_workspace::sample::Sampler;

const USAGE: &str = "\
policy_agreement: how often the two totals policies (CrmParity, ExactDecimal) disagree

usage: policy_agreement [COUNT [SEED]]

  COUNT   random realistic estimates to compare (default 20000)
  SEED    the sampler's seed (default 2024); the same seed gives the same estimates";

/// A positional number, its default when absent; anything else is a usage error.
fn number<T: std::str::FromStr>(arg: Option<String>, name: &str, default: T) -> Result<T, String> {
    match arg {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|_| format!("{name} must be a whole number, not {text}")),
    }
}

fn main() -> ExitCode {
    if example_cli::help_requested(USAGE) {
        return ExitCode::SUCCESS;
    }
    let mut args = std::env::args().skip(1);
    let parsed = number(args.next(), "COUNT", 20_000_usize)
        .and_then(|count| Ok((count, number(args.next(), "SEED", 2024_u64)?)));
    let (count, seed) = match parsed {
        Ok(numbers) if args.next().is_none() => numbers,
        Ok(_) => {
            eprintln!("policy_agreement: too many arguments (--help for usage)");
            return ExitCode::from(2);
        }
        Err(message) => {
            eprintln!("policy_agreement: {message} (--help for usage)");
            return ExitCode::from(2);
        }
    };
    let mut sampler = Sampler::new(seed);
    let (mut differing, mut by_mode, mut total_by_mode) = (0, [0_usize; 2], [0_usize; 2]);
    let mut by_figure: BTreeMap<&'static str, usize> = BTreeMap::new();
    for _ in 0..count {
        let Ok(input) = sampler.estimate() else {
            eprintln!("policy_agreement: the sampler produced an invalid estimate");
            return ExitCode::FAILURE;
        };
        let (Ok(parity), Ok(exact)) = (
            compute(&input, Policy::CrmParity),
            compute(&input, Policy::ExactDecimal),
        ) else {
            eprintln!("policy_agreement: a realistic estimate overflowed");
            return ExitCode::FAILURE;
        };
        let mode = usize::from(input.tax_mode == TaxMode::Inline);
        total_by_mode[mode] += 1;
        let figures = differing_figures(&parity, &exact);
        if !figures.is_empty() {
            differing += 1;
            by_mode[mode] += 1;
        }
        for figure in figures {
            *by_figure.entry(figure).or_default() += 1;
        }
    }
    let percent = |part: usize, whole: usize| 100.0 * part as f64 / whole.max(1) as f64;
    println!(
        "{differing} of {count} estimates differ ({:.2} %); seed {seed}",
        percent(differing, count)
    );
    for (name, mode) in [("summary", 0), ("inline", 1)] {
        let (part, whole) = (by_mode[mode], total_by_mode[mode]);
        println!(
            "  {name}: {part} of {whole} ({:.2} %)",
            percent(part, whole)
        );
    }
    for (figure, n) in by_figure {
        println!(
            "  {figure}: differs in {n} estimates ({:.2} %)",
            percent(n, count)
        );
    }
    ExitCode::SUCCESS
}

/// The names of the figures that differ between two results for the same estimate.
fn differing_figures(a: &Computed, b: &Computed) -> Vec<&'static str> {
    let (x, y) = (&a.totals, &b.totals);
    let mut out = Vec::new();
    if a.lines
        .iter()
        .zip(&b.lines)
        .any(|(p, q)| p.total != q.total)
    {
        out.push("a line total");
    }
    if a.lines
        .iter()
        .zip(&b.lines)
        .any(|(p, q)| p.discount_amount != q.discount_amount)
    {
        out.push("a line discount");
    }
    let pairs = [
        ("subtotal", x.subtotal == y.subtotal),
        (
            "subtotal_before_discount",
            x.subtotal_before_discount == y.subtotal_before_discount,
        ),
        ("discount_amount", x.discount_amount == y.discount_amount),
        (
            "amount_before_tax",
            x.amount_before_tax == y.amount_before_tax,
        ),
        (
            "tax_total_percentage",
            x.tax_total_percentage == y.tax_total_percentage,
        ),
        ("tax_total_amount", x.tax_total_amount == y.tax_total_amount),
        ("final_amount", x.final_amount == y.final_amount),
    ];
    out.extend(
        pairs
            .iter()
            .filter(|(_, same)| !same)
            .map(|(name, _)| *name),
    );
    out
}
