//! Rendering time of the PDF, the client page and the email (issue 34's targets: a 20-line
//! PDF in at most 25 ms at the median, a 200-line one in at most 100 ms). The documents are
//! the samples' (English, Greek and Cyrillic lines, a long description every third line).
//!
//! `cargo bench -p crm-render --bench pdf`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use crm_render::document::Context;
use crm_render::page::PageView;
use crm_render::{Document, Paper, email, page, pdf, sample};

fn document(lines: usize) -> Result<Document, String> {
    let input = sample::input(lines)?;
    let estimate = sample::estimate(&input, &sample::texts)?;
    Ok(Document::estimate(
        &estimate,
        Context {
            company: "Northwind Traders",
            link: Some("https://crm.example.com/c/2b7e151628aed2a6abf7158809cf4f3c"),
            ..Default::default()
        },
    ))
}

fn bench(c: &mut Criterion) {
    for lines in [20, 200] {
        let doc = document(lines).unwrap_or_else(|e| panic!("sample of {lines} lines: {e}"));
        let view = PageView {
            base: "/c/2b7e151628aed2a6abf7158809cf4f3c",
            einvoice: None,
            can_decide: true,
            version: Some("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
        };
        // Each output renders once before it is timed: an error would time the error path.
        if let Err(e) = pdf::render(&doc, Paper::A4)
            .map(drop)
            .and_then(|()| page::client_page(&doc, view).map(drop))
            .and_then(|()| email::render(&doc).map(drop))
        {
            panic!("{lines} lines: {e}");
        }
        c.bench_function(&format!("pdf {lines} lines"), |b| {
            b.iter(|| pdf::render(black_box(&doc), Paper::A4))
        });
        c.bench_function(&format!("page {lines} lines"), |b| {
            b.iter(|| page::client_page(black_box(&doc), view))
        });
        c.bench_function(&format!("email {lines} lines"), |b| {
            b.iter(|| email::render(black_box(&doc)))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
