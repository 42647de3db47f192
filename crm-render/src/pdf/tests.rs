use super::*;
use crate::document::Context;
use crate::sample;

fn doc(n: usize) -> Document {
    let e = sample::estimate(&sample::input(n).unwrap(), &sample::texts).unwrap();
    Document::estimate(
        &e,
        Context {
            company: "Northwind",
            link: Some("https://crm.example/c/tok"),
            ..Default::default()
        },
    )
}

fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

#[test]
fn the_fonts_are_readable() {
    assert!(face::fonts().is_some());
}

#[test]
fn a_pdf_is_a_pdf_and_the_same_document_gives_the_same_bytes() {
    let d = doc(3);
    let a = render(&d, Paper::A4).unwrap();
    assert!(a.starts_with(b"%PDF-"));
    assert!(a.ends_with(b"%%EOF\n") || a.ends_with(b"%%EOF"));
    assert_eq!(a, render(&d, Paper::A4).unwrap());
}

#[test]
fn the_paper_sets_the_page_size() {
    let d = doc(1);
    let a4 = render(&d, Paper::A4).unwrap();
    let letter = render(&d, Paper::Letter).unwrap();
    assert_eq!(count(&a4, b"/MediaBox [0 0 595.276 841.89]"), 1);
    assert_eq!(count(&letter, b"/MediaBox [0 0 612 792]"), 1);
    assert_eq!(Paper::default(), Paper::A4);
    assert_eq!(Paper::from_name(" Letter "), Some(Paper::Letter));
    assert_eq!(Paper::from_name("a4"), Some(Paper::A4));
    assert_eq!(Paper::from_name("a5"), None);
}

#[test]
fn a_long_document_has_several_pages_and_the_font_is_embedded_subset() {
    let d = doc(200);
    let pages = layout::lay_out(&d, Paper::A4, face::fonts().unwrap()).len();
    assert!(pages > 1);
    let pdf = render(&d, Paper::A4).unwrap();
    assert_eq!(count(&pdf, format!("/Count {pages}").as_bytes()), 1);
    // Two faces, each embedded once as a subset (a tag of six capitals and `+`).
    assert_eq!(count(&pdf, b"/FontFile2"), 2);
    let bold = count(&pdf, b"+DejaVuSans-Bold");
    assert!(
        bold >= 1 && count(&pdf, b"+DejaVuSans") > bold,
        "both faces, subset"
    );
    assert!(count(&pdf, b"/ToUnicode") >= 2, "text maps back to Unicode");
}

#[test]
fn an_invoices_pdf_draws_its_balance_and_how_to_pay() {
    let mut i = sample::invoice(&sample::input(2).unwrap(), &sample::texts).unwrap();
    i.totals = crm_core::invoice::InvoiceTotals::new(
        i.totals.bill.clone(),
        crm_core::money::Money::parse("10.00").unwrap(),
        crm_core::money::Money::ZERO,
        crm_core::money::Money::ZERO,
    )
    .unwrap();
    let payment = crate::document::PaymentDetails {
        terms: Some("Payable within 14 days.".into()),
        bank: vec!["IBAN DE89 3704 0044 0532 0130 00".into()],
    };
    let d = Document::invoice(
        &i,
        Context {
            company: "Northwind",
            payment: Some(&payment),
            ..Default::default()
        },
    );
    let texts: Vec<String> = layout::lay_out(&d, Paper::A4, face::fonts().unwrap())
        .into_iter()
        .flatten()
        .filter_map(|item| match item {
            layout::Item::Text { text, .. } => Some(text),
            _ => None,
        })
        .collect();
    let due = crate::money::amount(i.currency, i.totals.amount_due);
    for expected in [
        "Paid",
        "€10.00 EUR",
        "Amount due",
        due.as_str(),
        "Payment",
        "Payable within 14 days.",
        "IBAN DE89 3704 0044 0532 0130 00",
    ] {
        assert!(
            texts.iter().any(|t| t == expected),
            "{expected} not drawn: {texts:?}"
        );
    }
}

#[test]
fn the_fonts_draw_every_currency_symbol_documents_use() {
    let fonts = face::fonts().unwrap();
    for (code, symbol) in crm_core::codes::SYMBOLS {
        for c in symbol.chars() {
            for bold in [false, true] {
                assert!(fonts.face(bold).has(c), "{code}: {c:?} (bold: {bold})");
            }
        }
    }
}
