//! Time to write an issued invoice as an e-invoice (issue 50 item 8: a 20-line document to
//! UBL or CII in at most 1 ms, to Factur-X in at most 30 ms; 200 lines in at most 100 ms),
//! from the record: the readiness check and model (`crm_einvoice::build`, which recomputes
//! every figure), then the XML, and for Factur-X the PDF/A-3 around it. The invoices are
//! crm-render's samples (English, Greek and Cyrillic lines), issued with their parties.
//!
//! `cargo bench --bench einvoice`

use std::hint::black_box;

use chrono::NaiveDate;
use criterion::{Criterion, criterion_group, criterion_main};
use crm_core::invoice::Invoice;
use crm_core::tax_rate::TaxRate;
use crm_einvoice::{Format, Rates, Source, facturx};
use crm_render::document::Context;
use crm_render::{Document, Paper, pdf, sample};

/// The sample invoice of `lines` lines, issued (number, parties, its VAT rate on record),
/// and the tax rates it names.
fn issued(lines: usize) -> Result<(Invoice, Vec<TaxRate>), String> {
    sample::issued_invoice(&sample::input(lines)?, &sample::texts)
}

fn xml(invoice: &Invoice, rates: &[TaxRate], format: Format) -> Vec<u8> {
    let model = crm_einvoice::build(Source::invoice(invoice), &Rates::new(rates), format)
        .unwrap_or_else(|m| panic!("not ready: {m:?}"));
    crm_einvoice::write(&model, format).unwrap_or_else(|e| panic!("{e}"))
}

fn facturx(invoice: &Invoice, rates: &[TaxRate]) -> Vec<u8> {
    let cii = xml(invoice, rates, Format::Facturx);
    let doc = Document::invoice(
        invoice,
        Context {
            company: "Northwind",
            ..Default::default()
        },
    );
    let attachment = pdf::Attachment {
        name: facturx::FILE_NAME.into(),
        mime_type: facturx::MIME_TYPE.into(),
        description: facturx::DESCRIPTION.into(),
        data: cii,
        date: NaiveDate::from_ymd_opt(2026, 11, 25).unwrap_or_default(),
        xmp: facturx::XMP.into(),
    };
    pdf::render_pdfa3(&doc, Paper::A4, &attachment).unwrap_or_else(|e| panic!("{e}"))
}

fn bench(c: &mut Criterion) {
    for lines in [20, 200] {
        let (invoice, rates) = issued(lines).unwrap_or_else(|e| panic!("sample: {e}"));
        // Each output is made once before it is timed: an error would time the error path.
        for format in [Format::Ubl, Format::Cii] {
            assert!(!xml(&invoice, &rates, format).is_empty());
            c.bench_function(&format!("einvoice/{}/{lines}_lines", format.name()), |b| {
                b.iter(|| xml(black_box(&invoice), &rates, format))
            });
        }
        assert!(facturx(&invoice, &rates).starts_with(b"%PDF"));
        c.bench_function(&format!("einvoice/facturx/{lines}_lines"), |b| {
            b.iter(|| facturx(black_box(&invoice), &rates))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
