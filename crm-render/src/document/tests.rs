use super::*;
use crate::sample;
use chrono::TimeZone;
use crm_core::estimate::Estimate;
use crm_core::estimate::{ClientResponse, Decision as CoreDecision};
use crm_core::money::Percent;
use crm_core::time::Timestamp;
use crm_core::totals::{HeaderDiscount, LineDiscount, TaxMode};

fn estimate(n: usize) -> Estimate {
    sample::estimate(&sample::input(n).unwrap(), &sample::texts).unwrap()
}

fn context() -> Context<'static> {
    Context {
        company: "Northwind",
        link: Some("https://crm.example/c/abc"),
        ..Default::default()
    }
}

#[test]
fn an_estimate_document_carries_the_api_figures_and_labels() {
    let e = estimate(2);
    let doc = Document::estimate(&e, context());
    assert_eq!(doc.title(), "Estimate #12");
    assert_eq!(doc.pdf_file_name(), "estimate-12.pdf");
    assert_eq!(doc.company, "Northwind");
    assert_eq!(doc.client, "Acme Ltd");
    assert_eq!(doc.status, "Awaiting acceptance");
    assert_eq!(
        doc.dates
            .iter()
            .map(|d| (d.label, d.text()))
            .collect::<Vec<_>>(),
        vec![
            ("Date", "25 November 2026".to_owned()),
            ("Expiry date", "25 December 2026".to_owned())
        ]
    );
    assert_eq!(doc.lines[0].quantity, e.line_items[0].quantity.to_string());
    assert_eq!(doc.lines[0].quantity_with_unit(), "2.00 hours");
    assert_eq!(doc.lines[1].quantity_with_unit(), "2.00");
    assert_eq!(doc.lines[1].rate, "101.50");
    assert_eq!(
        doc.lines[1].total,
        format!("€{} EUR", e.line_items[1].total)
    );
    assert_eq!(
        doc.final_amount,
        crate::money::amount(e.currency, e.totals.figures.final_amount)
    );
    // 2 × 100.50 + 2 × 101.50 = 404.00; VAT 20% = 80.80.
    assert_eq!(
        doc.totals,
        vec![
            TotalRow {
                label: "Subtotal".into(),
                amount: "€404.00 EUR".into()
            },
            TotalRow {
                label: "VAT 20%".into(),
                amount: "€80.80 EUR".into()
            },
        ]
    );
    assert_eq!(doc.final_amount, "€484.80 EUR");
    assert_eq!(doc.link.as_deref(), Some("https://crm.example/c/abc"));
}

#[test]
fn an_invoice_document_has_its_due_date_and_status_title() {
    let i = sample::invoice(&sample::input(1).unwrap(), &sample::texts).unwrap();
    let doc = Document::invoice(&i, Context::default());
    assert_eq!(doc.title(), "Invoice #7");
    assert_eq!(doc.call_to_action(), "View the invoice");
    assert_eq!(doc.status, "Due");
    assert_eq!(doc.dates[1].label, "Due date");
    assert_eq!(doc.notes, None);
    assert_eq!(doc.link, None);
}

#[test]
fn zero_totals_are_left_out_and_a_summary_discount_is_negative() {
    let mut input = sample::input(1).unwrap();
    input.discount = HeaderDiscount::Percentage("10".parse().unwrap());
    input.tax_rates = vec![];
    input.adjustment = "-0.50".parse().unwrap();
    let e = sample::estimate(&input, &sample::texts).unwrap();
    let doc = Document::estimate(&e, context());
    let labels: Vec<(&str, &str)> = doc
        .totals
        .iter()
        .map(|r| (r.label.as_str(), r.amount.as_str()))
        .collect();
    assert_eq!(
        labels,
        vec![
            ("Subtotal", "€201.00 EUR"),
            ("Discount 10%", "-€20.10 EUR"),
            ("Adjustment (Shipping)", "-€0.50 EUR"),
        ]
    );
    assert_eq!(doc.final_amount, "€180.40 EUR");
}

#[test]
fn inline_taxes_and_discounts_read_included_and_state_the_rate_once() {
    let mut input = sample::input(2).unwrap();
    input.tax_mode = TaxMode::Inline;
    input.tax_rates = vec![];
    for line in &mut input.lines {
        line.tax_rate = Some(Percent::new("20".parse().unwrap()).unwrap());
        line.discount = LineDiscount::Fixed("1.00".parse().unwrap());
    }
    let e = sample::estimate(&input, &sample::texts).unwrap();
    let doc = Document::estimate(&e, context());
    let labels: Vec<&str> = doc.totals.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(
        labels,
        vec!["Subtotal", "Discounts included", "VAT 20% included"]
    );
    assert!(!doc.totals.iter().any(|r| r.label.contains("20.00")));
}

#[test]
fn record_text_is_cleaned_once_and_blank_text_is_none() {
    let mut e = estimate(1);
    e.client.name = " Acme\r\nLtd\u{0} ".into();
    e.notes = Some(" \r\n ".into());
    e.terms = Some("Line one\rLine two\r\n".into());
    e.line_items[0].description = "Design\nwork".into();
    e.line_items[0].long_description = Some("a\r\nb".into());
    e.line_items[0].unit = Some("  ".into());
    let doc = Document::estimate(&e, context());
    assert_eq!(doc.client, "Acme Ltd");
    assert_eq!(doc.notes, None);
    assert_eq!(doc.terms.as_deref(), Some("Line one\nLine two"));
    assert_eq!(doc.lines[0].description, "Design work");
    assert_eq!(doc.lines[0].details.as_deref(), Some("a\nb"));
    assert_eq!(doc.lines[0].unit, None);
}

#[test]
fn a_decision_reads_as_a_sentence_with_its_utc_date() {
    let mut e = estimate(1);
    e.client_response = Some(ClientResponse {
        decision: CoreDecision::Declined,
        reason: Some("  \n ".into()),
        at: Timestamp(Utc.with_ymd_and_hms(2026, 11, 30, 23, 30, 0).unwrap()),
    });
    let doc = Document::estimate(&e, context());
    let d = doc.decision.unwrap();
    assert_eq!(d.sentence(), "Declined on 30 November 2026");
    assert_eq!(d.iso_date(), "2026-11-30");
    assert_eq!(d.reason, None, "a blank reason is no reason");
}

#[test]
fn an_invoice_has_no_decision() {
    let i = sample::invoice(&sample::input(1).unwrap(), &sample::texts).unwrap();
    assert_eq!(Document::invoice(&i, context()).decision, None);
}

/// An invoice of sample `n` of which `paid` was paid, in a context with the company's
/// payment terms, bank account and registrations.
fn paid_invoice(n: usize, paid: &str) -> (Document, String) {
    let mut i = sample::invoice(&sample::input(n).unwrap(), &sample::texts).unwrap();
    i.totals = crm_core::invoice::InvoiceTotals::new(
        i.totals.bill.clone(),
        crm_core::money::Money::parse(paid).unwrap(),
        crm_core::money::Money::ZERO,
        crm_core::money::Money::ZERO,
    )
    .unwrap();
    let settings = crm_core::company::CompanySettings {
        legal_name: Some("Northwind GmbH".into()),
        tax_id: Some("12/345/67890".into()),
        registration: Some("HRB 12345 Berlin".into()),
        payment_terms: Some("Payable within 14 days.".into()),
        bank: crm_core::party::Bank {
            iban: Some("DE89370400440532013000".into()),
            bic: Some("COBADEFFXXX".into()),
            account_name: None,
        },
        ..Default::default()
    };
    let company = crm_core::company::Company::shown(
        settings,
        "Northwind",
        Timestamp(chrono::Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap()),
    );
    let seller = Party::of_company(&company);
    let payment = PaymentDetails::of_company(&company);
    let doc = Document::invoice(
        &i,
        Context {
            company: "Northwind",
            seller: Some(&seller),
            payment: Some(&payment),
            ..Default::default()
        },
    );
    (doc, crate::money::amount(i.currency, i.totals.amount_due))
}

#[test]
fn an_invoice_says_what_was_paid_what_is_due_and_how_to_pay_on_every_output() {
    let (doc, due) = paid_invoice(2, "100.00");
    assert_eq!(
        doc.balance
            .iter()
            .map(|r| (r.label.as_str(), r.amount.as_str()))
            .collect::<Vec<_>>(),
        [("Paid", "€100.00 EUR"), ("Amount due", due.as_str())]
    );
    let payment = doc.payment.clone().unwrap();
    assert_eq!(payment.terms.as_deref(), Some("Payable within 14 days."));
    assert_eq!(
        payment.bank,
        ["IBAN DE89 3704 0044 0532 0130 00", "BIC COBADEFFXXX"]
    );
    assert_eq!(
        doc.seller.registrations,
        ["Tax number 12/345/67890", "Registration HRB 12345 Berlin"]
    );

    let page = crate::page::client_page(
        &doc,
        crate::page::PageView {
            base: "/c/tok",
            einvoice: None,
            can_decide: false,
            version: None,
        },
    )
    .unwrap();
    assert!(page.contains(&format!(
        "<tr class=\"balance\"><th scope=\"row\">Amount due</th><td>{due}</td></tr>"
    )));
    assert!(page.contains("<h2 id=\"payment-title\">Payment</h2>"));
    assert!(page.contains("IBAN DE89 3704 0044 0532 0130 00<br>BIC COBADEFFXXX"));
    assert!(page.contains("<br>Registration HRB 12345 Berlin"));

    let email = crate::email::render(&doc).unwrap();
    assert!(
        email
            .text
            .contains(&format!("Paid: €100.00 EUR\r\nAmount due: {due}\r\n")),
        "{}",
        email.text
    );
    assert!(
        email
            .text
            .contains("Payable within 14 days.\r\nIBAN DE89 3704 0044 0532 0130 00")
    );
    assert!(email.html.contains(&format!(">{due}</td></tr>")));
    assert!(
        email
            .html
            .contains("IBAN DE89 3704 0044 0532 0130 00<br>BIC COBADEFFXXX")
    );

    // Nothing paid: no balance rows (the total is what is due).
    assert!(paid_invoice(2, "0").0.balance.is_empty());
}

#[test]
fn an_open_invoices_email_says_what_is_due_and_by_when() {
    let (doc, due) = paid_invoice(2, "100.00");
    let sentence = format!("Amount due: {due}, by 25 December 2026.");
    assert_eq!(doc.due.as_ref().map(Due::sentence), Some(sentence.clone()));
    let email = crate::email::render(&doc).unwrap();
    assert!(
        email.text.contains(&format!("{sentence}\r\n")),
        "{}",
        email.text
    );
    assert!(
        email
            .html
            .contains(&format!("<p><strong>{sentence}</strong></p>"))
    );
    // Paid in full: nothing is asked (the balance rows still say Paid and Amount due 0.00).
    let mut i = sample::invoice(&sample::input(2).unwrap(), &sample::texts).unwrap();
    i.status = crm_core::invoice::InvoiceStatus::Paid;
    i.totals = crm_core::invoice::InvoiceTotals::new(
        i.totals.bill.clone(),
        i.totals.bill.figures.final_amount,
        crm_core::money::Money::ZERO,
        crm_core::money::Money::ZERO,
    )
    .unwrap();
    let paid = Document::invoice(&i, context());
    assert_eq!(paid.due, None);
    assert!(
        !crate::email::render(&paid)
            .unwrap()
            .text
            .contains(", by 25 December 2026.")
    );
    // An estimate asks for nothing.
    assert_eq!(Document::estimate(&estimate(2), context()).due, None);
}

#[test]
fn yen_and_dinar_documents_write_their_amounts_with_their_own_decimals() {
    let jpy = crm_core::currency::Currency::from_code("JPY").unwrap();
    let e = sample::estimate_in(&sample::input(2).unwrap(), &sample::texts, jpy).unwrap();
    let doc = Document::estimate(&e, context());
    // 2 × 100.50 = 201 yen, 2 × 101.50 = 203 yen; VAT 20% of 404 = 80.8 → 81.
    assert_eq!(doc.lines[0].total, "¥201 JPY");
    assert_eq!(doc.totals[1].amount, "¥81 JPY");
    assert_eq!(doc.final_amount, "¥485 JPY");
    assert_eq!(doc.currency, jpy);
    let kwd = crm_core::currency::Currency::from_code("KWD").unwrap();
    let i = sample::invoice_in(&sample::input(1).unwrap(), &sample::texts, kwd).unwrap();
    let doc = Document::invoice(&i, context());
    assert_eq!(doc.final_amount, "241.200 KWD");
    assert_eq!(doc.due.map(|d| d.amount).as_deref(), Some("241.200 KWD"));
}
