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
use crm_core::ids::TaxRateId;
use crm_core::invoice::Invoice;
use crm_core::party::{Address, Bank, Buyer, Parties, Peppol, Seller};
use crm_core::tax_rate::{TaxRate, TaxRateStatus, VatCategory};
use crm_core::time::{RecordDates, Timestamp};
use crm_einvoice::{Format, Rates, Source, facturx};
use crm_render::document::Context;
use crm_render::{Document, Paper, pdf, sample};

fn address(city: &str, country: &str) -> Address {
    Address {
        line1: Some("Main Street 1".into()),
        line2: None,
        city: Some(city.into()),
        postcode: Some("10115".into()),
        region: None,
        country: Some(country.into()),
    }
}

/// The sample invoice of `lines` lines, issued (number, parties, its VAT rate on record),
/// and the tax rates it names.
fn issued(lines: usize) -> Result<(Invoice, Vec<TaxRate>), String> {
    let input = sample::input(lines)?;
    let mut invoice = sample::invoice(&input, &sample::texts)?;
    invoice.number = Some("INV-2026-00007".into());
    invoice.parties = Some(Parties {
        seller: Seller {
            legal_name: Some("Northwind Traders GmbH".into()),
            trading_name: "Northwind".into(),
            address: address("Berlin", "DE"),
            vat_id: Some("DE123456789".into()),
            tax_id: None,
            registration: None,
            contact_name: Some("Anna Schmidt".into()),
            email: Some("billing@northwind.example".into()),
            phone: Some("+49 30 123456".into()),
            bank: Bank {
                iban: Some("DE89370400440532013000".into()),
                bic: None,
                account_name: None,
            },
            peppol: Peppol {
                scheme: Some("9930".into()),
                id: Some("DE123456789".into()),
            },
            payment_terms: Some("30 days net".into()),
        },
        buyer: Buyer {
            company_name: "Acme Ltd".into(),
            contact_name: None,
            address: address("Paris", "FR"),
            vat_id: Some("FR12345678901".into()),
            peppol: Peppol {
                scheme: Some("9957".into()),
                id: Some("FR12345678901".into()),
            },
            buyer_reference: Some("PO-1".into()),
        },
    });
    let id = TaxRateId::new(2).ok_or("tax rate id")?;
    for tax in &mut invoice.taxes {
        tax.tax_rate_id = Some(id);
        tax.vat_category = Some(VatCategory::S);
    }
    let dates = RecordDates {
        created: Timestamp(chrono::DateTime::UNIX_EPOCH),
        updated: Timestamp(chrono::DateTime::UNIX_EPOCH),
    };
    let rate = |id: i64, name: &str, percent: &str, category, system| -> Result<TaxRate, String> {
        Ok(TaxRate {
            id: TaxRateId::new(id).ok_or("id")?,
            name: name.into(),
            rate: percent.parse().map_err(|_| "rate")?,
            status: TaxRateStatus::Enabled,
            vat_category: category,
            exemption_reason: None,
            exemption_code: None,
            system,
            in_use: true,
            dates,
        })
    };
    let rates = vec![
        rate(1, "No Tax", "0", VatCategory::Z, true)?,
        rate(2, "VAT 20%", "20", VatCategory::S, false)?,
    ];
    Ok((invoice, rates))
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
