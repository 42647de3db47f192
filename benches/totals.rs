//! Benchmarks of the totals calculator: 1, 10, 100 and 1,000 lines, each tax mode, each
//! policy, on deterministic pseudo-random estimates ([`crm_workspace::sample`]): inline lines
//! with percentage and fixed discounts and tax rates; summary estimates with two tax rates
//! and a percentage header discount.
//!
//! Throughput is counted in lines, so criterion reports time per line ("elem").
//!
//! ```text
//! cargo bench --bench totals -- --warm-up-time 1 --measurement-time 3
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use crm_core::totals::{Policy, TaxMode, compute};
use crm_workspace::sample::Sampler;

fn totals(c: &mut Criterion) {
    for (mode_name, mode) in [("summary", TaxMode::Summary), ("inline", TaxMode::Inline)] {
        let mut group = c.benchmark_group(format!("totals/{mode_name}"));
        for lines in [1_usize, 10, 100, 1_000] {
            // A valid estimate always comes out of the sampler; an empty one would show up
            // as an absurdly fast figure.
            let input = Sampler::new(lines as u64)
                .benchmark_estimate(mode, lines)
                .unwrap_or_default();
            group.throughput(Throughput::Elements(lines as u64));
            for (policy_name, policy) in [
                ("parity", Policy::CrmParity),
                ("exact", Policy::ExactDecimal),
            ] {
                group.bench_with_input(BenchmarkId::new(policy_name, lines), &input, |b, input| {
                    b.iter(|| compute(black_box(input), policy))
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, totals);
criterion_main!(benches);
