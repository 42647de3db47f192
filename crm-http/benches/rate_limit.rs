//! The rate limiter's cost per request (not a test):
//! `cargo bench -p crm-http --bench rate_limit -- --warm-up-time 1 --measurement-time 3`.
//!
//! What `--rate-limit` adds to a request is one [`RateLimiter::check`] (a shard lock, a
//! hash lookup, an `Instant` read) and three small headers. Measured here beside the per-key
//! cap on requests in progress, which every request already pays: one key hit by every
//! request, and 1,000 keys in turn.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    missing_docs,
    unreachable_pub
)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use crm_core::ids::ApiKeyId;
use crm_http::limits::{InFlight, RateLimiter};

fn key(n: i64) -> ApiKeyId {
    ApiKeyId::new(n).unwrap()
}

fn limiter(c: &mut Criterion) {
    let mut group = c.benchmark_group("per request");
    let limiter = RateLimiter::new("1000000/s".parse().unwrap());
    group.bench_function("rate limit check, one key", |b| {
        b.iter(|| black_box(limiter.check(black_box(key(1)))))
    });
    let many = RateLimiter::new("1000000/s".parse().unwrap());
    let mut n = 0;
    group.bench_function("rate limit check, 1,000 keys", |b| {
        b.iter(|| {
            n = (n + 1) % 1000;
            black_box(many.check(black_box(key(n + 1))))
        })
    });
    let in_flight = InFlight::new(64);
    group.bench_function("in-flight cap enter and leave (already paid)", |b| {
        b.iter(|| drop(black_box(in_flight.enter(black_box(key(1))).unwrap())))
    });
    group.finish();
}

criterion_group!(benches, limiter);
criterion_main!(benches);
