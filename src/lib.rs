//! Support code for the workspace's examples, benchmarks and cross-crate tests.
//!
//! The root package `crm-workspace` owns `examples/` and `benches/`. Examples cannot be
//! imported by tests, so the logic worth testing lives here:
//!
//! - [`estimate_json`]: the JSON Lines protocol of `examples/estimate_totals.rs` (an
//!   estimate in the shared vectors' `input` format in, the `expected` format out), tested
//!   against every shared vector by `tests/estimate_totals_example.rs`.
//! - [`example_cli`]: `--help` and plain-sentence errors, the same in every example.
//! - [`sample`]: deterministic pseudo-random estimates for the benchmarks and for measuring
//!   how often the two totals policies disagree (`examples/policy_agreement.rs`).

pub mod estimate_json;
pub mod example_cli;
pub mod sample;
