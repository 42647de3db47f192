//! Computes estimate totals for JSON Lines on stdin, one JSON line out per line in.
//!
//! ```text
//! cargo run --release --example estimate_totals [-- --policy parity|exact] < estimates.jsonl
//! ```
//!
//! Each input line is an estimate in the shared vectors' `input` format (numbers as JSON
//! text or JSON numbers; extra members such as `name` are ignored). A whole vector line is
//! accepted too: its `input` is used and its `expected` ignored, so
//! `cargo run --release --example estimate_totals < crm-core/vectors/totals.jsonl` prints
//! what every vector expects. Each output line is in the vectors' `expected` format, or
//! `{"error":"…"}` for a line that is not a valid estimate; processing always continues.
//! The protocol lives in [`crm_workspace::estimate_json`], where it is tested.

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use crm_core::totals::Policy;
use crm_workspace::estimate_json::vector_line_to_output;
use crm_workspace::example_cli;

const USAGE: &str = r#"estimate_totals: estimate totals for JSON Lines on standard input

usage: estimate_totals [--policy parity|exact] < estimates.jsonl

Each input line is one estimate (numbers as JSON strings or numbers), for example
  {"tax_type":"summary","items":[{"quantity":"2","rate":"100.00"},{"quantity":"1","rate":"50.00"}],
   "tax_rates":["10.00"],"discount_type":"fixed","discount_amount":"25.00","adjustment_amount":"0"}
  tax_type           "summary" or "inline"
  items[]            quantity, rate; optionally discount_type ("none", "fixed", "percentage")
                     with discount_value, and tax_rate (inline mode)
  tax_rates[]        summary mode's tax percentages
  discount_type      "none", "fixed" (discount_amount) or "percentage" (discount_percentage)
  adjustment_amount  added at the end, either sign
A whole line of the shared vectors (with "input" and "expected") is accepted too.
Each output line: {"lines":[{"total","discount_amount"},...],"totals":{"subtotal",...,
"final_amount"}}, amounts as text with two decimals; or {"error":"..."} for a line that is
not a valid estimate (processing continues).

  --policy parity   the CRM's own figures, to the cent (default)
  --policy exact    the same steps in exact decimal arithmetic
  -h, --help        this text"#;

fn main() -> ExitCode {
    if example_cli::help_requested(USAGE) {
        return ExitCode::SUCCESS;
    }
    let policy = match policy_from_args(std::env::args().skip(1)) {
        Ok(policy) => policy,
        Err(message) => {
            eprintln!(
                "estimate_totals: {message}\nusage: estimate_totals [--policy parity|exact] (--help for more)"
            );
            return ExitCode::from(2);
        }
    };
    match run(policy) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("estimate_totals: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(policy: Policy) -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for line in io::stdin().lock().lines() {
        writeln!(out, "{}", vector_line_to_output(&line?, policy))?;
    }
    out.flush()
}

fn policy_from_args(mut args: impl Iterator<Item = String>) -> Result<Policy, String> {
    let mut policy = Policy::CrmParity;
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--policy" => args.next().ok_or("--policy needs a value")?,
            other => match other.strip_prefix("--policy=") {
                Some(value) => value.to_owned(),
                None => return Err(format!("unknown argument {other}")),
            },
        };
        policy = match value.as_str() {
            "parity" => Policy::CrmParity,
            "exact" => Policy::ExactDecimal,
            other => return Err(format!("unknown policy {other} (parity or exact)")),
        };
    }
    Ok(policy)
}
