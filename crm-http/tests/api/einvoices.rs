//! E-invoices (API.md §19) end to end: a corpus of invoices and credit notes made through
//! the API (single rate, fractional quantities, percentage and fixed discounts, exempt,
//! reverse charge, intra-community, export, zero rate, no tax, a rounding amount, many
//! lines, JPY and KWD, a partial and a whole credit note) is exported in every format and
//! judged by the official rules (`scripts/einvoice-validate`: the XML schemas, CEN EN
//! 16931, Peppol BIS 3.0, XRechnung, Factur-X EN16931, and exact sums) with zero fatal
//! assertions; the XML's totals are the API's to the cent; a wrong payable amount fires
//! BR-CO-16; readiness names what is missing, and an export that is not ready is the same
//! list as a 422.

use std::path::{Path, PathBuf};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Body, TestServer, json as body};

const FORMATS: [&str; 5] = ["ubl", "cii", "peppol", "xrechnung", "xrechnung-cii"];

/// The company as a German seller with everything every format asks for.
async fn seller(s: &TestServer) {
    let a = s
        .patch(
            "/api/company",
            body(json!({
                "legal_name": "Acme Software GmbH",
                "trading_name": "Acme",
                "address": {"line1": "Hauptstraße 1", "city": "Berlin", "postcode": "10115", "country": "DE"},
                "vat_id": "DE123456789",
                "tax_id": "12/345/67890",
                "registration": "HRB 12345 B",
                "contact_name": "Anna Schmidt",
                "email": "billing@acme.example",
                "phone": "+49 30 123456",
                "bank": {"iban": "DE89 3704 0044 0532 0130 00", "bic": "COBADEFFXXX", "account_name": "Acme Software GmbH"},
                "peppol": {"scheme": "9930", "id": "DE123456789"},
                "payment_terms": "14 days net",
                "currency": "EUR"
            })),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
}

/// A client with an address, a VAT id (when given), a Peppol id and a buyer reference.
async fn buyer(
    s: &TestServer,
    name: &str,
    country: &str,
    vat_id: Option<&str>,
    currency: &str,
) -> i64 {
    let mut b = json!({
        "company_name": name,
        "contact_name": "Buyer Contact",
        "contact_email": "ap@buyer.example",
        "address": {"line1": "Main Street 5", "city": "Capital", "postcode": "12345", "country": country},
        "peppol": {"scheme": "0060", "id": format!("{:09}", name.len() * 1000 + 7)},
        "buyer_reference": "04011000-12345-03",
        "currency": currency
    });
    if let Some(v) = vat_id {
        b["vat_id"] = json!(v);
    }
    s.created("/api/clients", b).await
}

/// A tax rate.
async fn rate(s: &TestServer, b: Value) -> i64 {
    s.created("/api/tax-rates", b).await
}

/// An issued invoice: created, its `items` put, then `header` (discount, adjustment, …)
/// patched, and published.
async fn issued(s: &TestServer, client: i64, header: Value, items: Value) -> i64 {
    let category = s.default_category("invoice").await;
    let mut h = json!({"bill_clientid": client, "bill_categoryid": category,
        "bill_date": "2026-11-02", "bill_due_date": "2026-11-16"});
    for key in ["bill_currency", "bill_tax_type"] {
        if let Some(value) = header.get(key) {
            h[key] = value.clone();
        }
    }
    let id = s.created("/api/invoices", h.clone()).await;
    let a = s
        .put(&format!("/api/invoices/{id}/items"), body(items))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    if header.as_object().is_some_and(|o| !o.is_empty()) {
        for (k, v) in header.as_object().unwrap() {
            h[k] = v.clone();
        }
        let a = s.patch(&format!("/api/invoices/{id}"), body(h)).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    }
    let a = s
        .put(&format!("/api/invoices/{id}/publish"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    id
}

fn line(description: &str, quantity: &str, rate: &str) -> Value {
    json!({"description": description, "quantity": quantity, "rate": rate, "unit": "hours"})
}

/// GET of an export: status and bytes, the answer held to the OpenAPI document.
async fn export(s: &TestServer, path: &str) -> (StatusCode, Vec<u8>, Value) {
    let r = s
        .http
        .get(format!("{}{path}", s.base))
        .bearer_auth(&s.key)
        .send()
        .await
        .expect("request");
    let status = r.status();
    let url_path = r.url().path().to_owned();
    let bytes = r.bytes().await.expect("body").to_vec();
    crate::conformance::check(&Method::GET, &url_path, status, &bytes);
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, bytes, json)
}

/// The text of the first `<tag …>text</tag>` whose attributes contain `attr`.
fn xml_text<'a>(xml: &'a str, tag: &str, attr: &str) -> Option<&'a str> {
    let mut rest = xml;
    while let Some(i) = rest.find(&format!("<{tag}")) {
        let after = &rest[i + tag.len() + 1..];
        let close = after.find('>')?;
        let (attrs, body) = (&after[..close], &after[close + 1..]);
        if (attrs.is_empty() || attrs.starts_with(' ')) && attrs.contains(attr) {
            return body.find(&format!("</{tag}>")).map(|end| &body[..end]);
        }
        rest = body;
    }
    None
}

/// `value` as EN 16931 writes an amount (at most 2 decimals, trailing zeros of a third
/// dropped): the API's `"24.500"` is the XML's `24.50`.
fn en_amount(value: &str) -> String {
    match value.split_once('.') {
        Some((int, dec)) if dec.len() > 2 && dec[2..].chars().all(|c| c == '0') => {
            format!("{int}.{}", &dec[..2])
        }
        _ => value.to_owned(),
    }
}

/// Runs `scripts/einvoice-validate` with `args`: (passed, its report). A run that could
/// not judge (a usage or setup error) fails the test.
fn einvoice_validate<A: AsRef<std::ffi::OsStr>>(args: &[A]) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/einvoice-validate");
    let out = std::process::Command::new(script)
        .args(args)
        .output()
        .expect("scripts/einvoice-validate runs");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "the validator could not run: {report}"
    );
    (out.status.success(), report)
}

/// Runs the official rules over `files` in `format`: (passed, report).
fn validate(format: &str, files: &[PathBuf]) -> (bool, String) {
    let mut args = vec![PathBuf::from("--format"), PathBuf::from(format)];
    args.extend(files.iter().cloned());
    einvoice_validate(&args)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crm-einvoice-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[tokio::test]
async fn the_corpus_passes_every_official_rule_set_in_every_format_with_the_apis_figures() {
    let s = TestServer::start().await;
    seller(&s).await;
    let de = buyer(&s, "Kunde GmbH", "DE", Some("DE987654321"), "EUR").await;
    let fr = buyer(&s, "Client SARL", "FR", Some("FR12345678901"), "EUR").await;
    let us = buyer(&s, "US Corp", "US", None, "EUR").await;
    let jp = buyer(&s, "Nihon KK", "JP", None, "JPY").await;
    let kw = buyer(&s, "Kuwait Trading", "KW", None, "KWD").await;
    let s19 = rate(&s, json!({"name": "VAT 19%", "rate": "19"})).await;
    let s7 = rate(&s, json!({"name": "VAT 7%", "rate": "7"})).await;
    let exempt = rate(&s, json!({"name": "Exempt", "rate": "0", "vat_category": "E",
        "exemption_reason": "Exempt under Article 132 of Directive 2006/112/EC", "exemption_code": "VATEX-EU-132"})).await;
    let reverse = rate(
        &s,
        json!({"name": "Reverse charge", "rate": "0", "vat_category": "AE",
        "exemption_reason": "Reverse charge", "exemption_code": "VATEX-EU-AE"}),
    )
    .await;
    let intra = rate(
        &s,
        json!({"name": "Intra-community", "rate": "0", "vat_category": "K",
        "exemption_reason": "Intra-community supply", "exemption_code": "VATEX-EU-IC"}),
    )
    .await;
    let export_rate = rate(
        &s,
        json!({"name": "Export", "rate": "0", "vat_category": "G",
        "exemption_reason": "Export outside the EU", "exemption_code": "VATEX-EU-G"}),
    )
    .await;
    let zero = rate(
        &s,
        json!({"name": "Zero rated", "rate": "0", "vat_category": "Z"}),
    )
    .await;

    let summary = |rates: &[i64], lines: Value| json!({"items": lines, "tax_rate_ids": rates});
    let many: Vec<Value> = (1..=60)
        .map(|i| {
            line(
                &format!("Item {i}"),
                &format!("{}.{}", i % 7 + 1, i % 4 * 25),
                &format!("{}.{:02}", 10 + i, (i * 37) % 100),
            )
        })
        .collect();
    let mut invoices = vec![
        issued(
            &s,
            de,
            json!({}),
            summary(
                &[s19],
                json!([
                    line("Design", "1.5", "80.00"),
                    line("Review", "0.25", "120.00"),
                    line("Licence", "2", "19.99")
                ]),
            ),
        )
        .await,
        issued(
            &s,
            de,
            json!({"bill_discount_type": "percentage", "bill_discount_percentage": "10"}),
            summary(
                &[s19],
                json!([line("Build", "3", "33.33"), line("Test", "1", "0.01")]),
            ),
        )
        .await,
        issued(
            &s,
            de,
            json!({"bill_discount_type": "fixed", "bill_discount_amount": "50.00"}),
            summary(&[s7], json!([line("Books", "12", "24.90")])),
        )
        .await,
        issued(
            &s,
            de,
            json!({}),
            summary(&[exempt], json!([line("Training", "8", "95.00")])),
        )
        .await,
        issued(
            &s,
            fr,
            json!({}),
            summary(&[reverse], json!([line("Consulting", "10", "150.00")])),
        )
        .await,
        issued(
            &s,
            fr,
            json!({}),
            summary(&[intra], json!([line("Hardware", "4", "249.00")])),
        )
        .await,
        issued(
            &s,
            us,
            json!({}),
            summary(&[export_rate], json!([line("Software", "1", "4999.00")])),
        )
        .await,
        issued(
            &s,
            de,
            json!({}),
            summary(&[zero], json!([line("Printed matter", "100", "0.35")])),
        )
        .await,
        issued(
            &s,
            de,
            json!({}),
            summary(&[], json!([line("No tax", "1", "10.00")])),
        )
        .await,
        issued(
            &s,
            de,
            json!({"bill_adjustment_amount": "-0.04", "bill_adjustment_description": "Rounding"}),
            summary(&[s19], json!([line("Support", "1", "100.04")])),
        )
        .await,
        issued(&s, de, json!({}), summary(&[s19], Value::Array(many))).await,
        issued(
            &s,
            jp,
            json!({"bill_currency": "JPY"}),
            summary(&[s19], json!([line("Seminar", "3", "15000")])),
        )
        .await,
        issued(
            &s,
            kw,
            json!({"bill_currency": "KWD"}),
            summary(&[zero], json!([line("Survey", "2", "12.250")])),
        )
        .await,
    ];
    // VAT mode: 19 % and 7 % with a line discount and a document discount; 19 % beside an
    // exemption.
    invoices.push(mixed_rates(&s, de, s19, s7).await);
    invoices.push(
        issued(
            &s,
            de,
            json!({"bill_tax_type": "vat"}),
            json!({"items": [
                {"description": "Course", "quantity": "2", "rate": "250.00", "unit": "days", "tax_rate_id": s19},
                {"description": "Exam fee", "quantity": "1", "rate": "80.00", "tax_rate_id": exempt},
                {"description": "Snacks", "quantity": "7", "rate": "1.99", "tax_rate_id": s7,
                 "discount_type": "fixed", "discount_value": "0.93"}
            ]}),
        )
        .await,
    );
    invoices.sort_unstable();
    let partial = s
        .post(&format!("/api/invoices/{}/credit-notes", invoices[0]),
            body(json!({"reason": "Review hours not used", "items": [line("Review", "0.25", "120.00")]})))
        .await;
    assert_eq!(partial.status, StatusCode::CREATED, "{}", partial.json);
    let whole = s
        .post(
            &format!("/api/invoices/{}/credit-notes", invoices[1]),
            body(json!({"reason": "Order cancelled"})),
        )
        .await;
    assert_eq!(whole.status, StatusCode::CREATED, "{}", whole.json);
    let mut documents: Vec<String> = invoices
        .iter()
        .map(|id| format!("/api/invoices/{id}"))
        .collect();
    documents.push(format!("/api/credit-notes/{}", partial.data()["id"]));
    documents.push(format!("/api/credit-notes/{}", whole.data()["id"]));

    for format in FORMATS {
        let dir = scratch(format);
        let mut files = Vec::new();
        for path in &documents {
            let readiness = s
                .get(&format!("{path}/einvoice/readiness?format={format}"))
                .await;
            assert_eq!(readiness.status, StatusCode::OK, "{}", readiness.json);
            assert_eq!(
                readiness.data()["ready"],
                true,
                "{path} {format}: {}",
                readiness.json
            );
            let (status, bytes, json) =
                export(&s, &format!("{path}/einvoice?format={format}")).await;
            assert_eq!(status, StatusCode::OK, "{path} {format}: {json}");
            let xml = String::from_utf8(bytes).expect("UTF-8");
            // The totals are the API's own figures.
            let record = s.get(path).await;
            let totals = &record.data()["totals"];
            let currency = record.data()["currency"].as_str().unwrap().to_owned();
            let attr = format!("currencyID=\"{currency}\"");
            let final_amount = en_amount(totals["final_amount"].as_str().unwrap());
            let tax = en_amount(totals["tax_total_amount"].as_str().unwrap());
            let (payable, vat) = if format.ends_with("cii") {
                (
                    xml_text(&xml, "ram:DuePayableAmount", ""),
                    xml_text(&xml, "ram:TaxTotalAmount", &attr),
                )
            } else {
                (
                    xml_text(&xml, "cbc:PayableAmount", &attr),
                    xml_text(&xml, "cbc:TaxAmount", &attr),
                )
            };
            assert_eq!(payable, Some(final_amount.as_str()), "{path} {format}");
            assert_eq!(vat, Some(tax.as_str()), "{path} {format}");
            let number = record.data()["number"].as_str().unwrap();
            assert!(
                xml.contains(&format!(">{number}<")),
                "{path} {format}: the number"
            );
            let file = dir.join(format!("{}.xml", path.replace('/', "_")));
            std::fs::write(&file, xml).expect("write");
            files.push(file);
        }
        let (passed, report) = validate(format, &files);
        assert!(passed, "{format}:\n{report}");
        assert!(
            report.contains(&format!("{} documents, 0 fatal", files.len())),
            "{format}: {report}"
        );
        if format == "ubl" {
            // A wrong payable amount fires BR-CO-16 (the rules are really run).
            let text = std::fs::read_to_string(&files[0]).unwrap();
            let payable = xml_text(&text, "cbc:PayableAmount", "currencyID")
                .unwrap()
                .to_owned();
            let broken = text.replace(
                &format!(">{payable}</cbc:PayableAmount>"),
                ">1.00</cbc:PayableAmount>",
            );
            let bad = dir.join("broken.xml");
            std::fs::write(&bad, broken).unwrap();
            let (passed, report) = validate(format, &[bad]);
            assert!(!passed, "{report}");
            assert!(report.contains("BR-CO-16"), "{report}");
            assert!(report.contains("EXACT-CO-16"), "{report}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    // Factur-X: a PDF/A-3 of the document carrying the CII export byte for byte, checked by
    // the factur-x package and a structural reading; its text shows the API's figures.
    ensure_pdftotext();
    let dir = scratch("facturx");
    for path in &documents {
        let (status, cii, _) = export(&s, &format!("{path}/einvoice?format=cii")).await;
        assert_eq!(status, StatusCode::OK);
        let (status, pdf, json) = export(&s, &format!("{path}/einvoice?format=facturx")).await;
        assert_eq!(status, StatusCode::OK, "{path}: {json}");
        assert!(pdf.starts_with(b"%PDF-1.7"), "{path}");
        let stem = dir.join(path.replace('/', "_"));
        let (pdf_file, xml_file) = (stem.with_extension("pdf"), stem.with_extension("xml"));
        std::fs::write(&pdf_file, &pdf).unwrap();
        std::fs::write(&xml_file, &cii).unwrap();
        let (passed, report) = einvoice_validate(&[Path::new("--facturx"), &pdf_file, &xml_file]);
        assert!(passed, "{path}: {report}");
        assert!(report.contains(", 0 failed"), "{path}: {report}");
        if path == &documents[0] {
            // The check can fail: another XML is not the one embedded.
            let other = stem.with_extension("other.xml");
            std::fs::write(
                &other,
                cii.iter().copied().chain(*b" ").collect::<Vec<u8>>(),
            )
            .unwrap();
            let (passed, report) = einvoice_validate(&[Path::new("--facturx"), &pdf_file, &other]);
            assert!(!passed, "{report}");
            assert!(
                report.contains("FAILED: embedded XML equals the CII export"),
                "{report}"
            );
        }
        let text = std::process::Command::new("pdftotext")
            .args(["-layout".as_ref(), pdf_file.as_os_str(), "-".as_ref()])
            .output()
            .expect("pdftotext runs");
        let text = String::from_utf8_lossy(&text.stdout);
        let record = s.get(path).await;
        let final_amount = record.data()["totals"]["final_amount"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            text.contains(&final_amount),
            "{path}: {final_amount} in\n{text}"
        );
        assert!(
            text.contains(record.data()["number"].as_str().unwrap()),
            "{path}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    s.stop().await;
}

/// `pdftotext`, installed by the project's script when missing.
fn ensure_pdftotext() {
    if std::process::Command::new("pdftotext")
        .arg("-v")
        .output()
        .is_ok()
    {
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/install-pdf-tools");
    let status = std::process::Command::new(script)
        .status()
        .expect("install-pdf-tools runs");
    assert!(status.success(), "scripts/install-pdf-tools failed");
}

/// A VAT-mode invoice with two rates, a line discount and a document discount (its
/// figures worked by hand in `vat_mode_splits_the_discount_per_rate_and_rounds_vat_once`).
async fn mixed_rates(s: &TestServer, client: i64, s19: i64, s7: i64) -> i64 {
    issued(
        s,
        client,
        json!({"bill_tax_type": "vat", "bill_discount_type": "percentage", "bill_discount_percentage": "5"}),
        json!({"items": [
            {"description": "Build", "quantity": "3", "rate": "33.33", "tax_rate_id": s19},
            {"description": "Books", "quantity": "2", "rate": "45.50", "tax_rate_id": s7,
             "discount_type": "percentage", "discount_value": "10"},
            {"description": "Stamp", "quantity": "1", "rate": "0.01", "tax_rate_id": s19}
        ]}),
    )
    .await
}

#[tokio::test]
async fn vat_mode_splits_the_discount_per_rate_and_rounds_vat_once() {
    let s = TestServer::start().await;
    seller(&s).await;
    let de = buyer(&s, "Kunde GmbH", "DE", Some("DE987654321"), "EUR").await;
    let s19 = rate(&s, json!({"name": "VAT 19%", "rate": "19"})).await;
    let s7 = rate(&s, json!({"name": "VAT 7%", "rate": "7"})).await;
    let id = mixed_rates(&s, de, s19, s7).await;
    let a = s.get(&format!("/api/invoices/{id}")).await;
    let d = a.data();
    assert_eq!(d["tax_type"], "vat");
    // Lines 99.99, 91.00 − 10 % = 81.90, 0.01: subtotal 181.90; 5 % is 9.095 → 9.10, split
    // 4.09 (7 %) and 5.00 (19 %), the cent left to the larger base: 5.01. Bases 77.81 and
    // 94.99; VAT 5.4467 → 5.45 and 18.0481 → 18.05.
    let nets: Vec<&str> = d["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["total"].as_str().unwrap())
        .collect();
    assert_eq!(nets, ["99.99", "81.90", "0.01"]);
    assert_eq!(d["line_items"][1]["discount"]["amount"], "9.10");
    let t = &d["totals"];
    let figures: Vec<&str> = [
        "subtotal",
        "discount_amount",
        "amount_before_tax",
        "tax_total_amount",
        "final_amount",
    ]
    .iter()
    .map(|k| t[*k].as_str().unwrap())
    .collect();
    assert_eq!(figures, ["181.90", "9.10", "172.80", "23.50", "196.30"]);
    assert_eq!(
        t["tax_breakdown"],
        json!([
            {"category": "S", "rate": "7.00", "base": "77.81", "amount": "5.45"},
            {"category": "S", "rate": "19.00", "base": "94.99", "amount": "18.05"}
        ])
    );
    // The taxes are one record per line, with their category.
    assert_eq!(d["taxes"][1]["vat_category"], "S");
    // The figures do not depend on the order of the lines.
    let reversed = issued(
        &s,
        de,
        json!({"bill_tax_type": "vat", "bill_discount_type": "percentage", "bill_discount_percentage": "5"}),
        json!({"items": [
            {"description": "Stamp", "quantity": "1", "rate": "0.01", "tax_rate_id": s19},
            {"description": "Books", "quantity": "2", "rate": "45.50", "tax_rate_id": s7,
             "discount_type": "percentage", "discount_value": "10"},
            {"description": "Build", "quantity": "3", "rate": "33.33", "tax_rate_id": s19}
        ]}),
    )
    .await;
    let b = s.get(&format!("/api/invoices/{reversed}")).await;
    assert_eq!(b.data()["totals"]["tax_breakdown"], t["tax_breakdown"]);
    assert_eq!(b.data()["totals"]["final_amount"], t["final_amount"]);
    // A summary invoice states its breakdown when EN 16931 states its figures, and null
    // when it cannot (two rates on every line).
    let summary = issued(
        &s,
        de,
        json!({}),
        json!({"items": [line("Work", "1", "100.00")], "tax_rate_ids": [s19]}),
    )
    .await;
    let a = s.get(&format!("/api/invoices/{summary}")).await;
    assert_eq!(
        a.data()["totals"]["tax_breakdown"],
        json!([{"category": "S", "rate": "19.00", "base": "100.00", "amount": "19.00"}])
    );
    let both = issued(
        &s,
        de,
        json!({}),
        json!({"items": [line("Work", "1", "100.00")], "tax_rate_ids": [s19, s7]}),
    )
    .await;
    let a = s.get(&format!("/api/invoices/{both}")).await;
    assert_eq!(a.data()["totals"]["tax_breakdown"], Value::Null);

    // Refused in VAT mode, nothing written: document-level rates, an adjustment that is not
    // a rounding amount.
    let category = s.default_category("invoice").await;
    let draft = s
        .created(
            "/api/invoices",
            json!({"bill_clientid": de, "bill_categoryid": category,
            "bill_date": "2026-11-02", "bill_tax_type": "vat"}),
        )
        .await;
    let a = s
        .put(
            &format!("/api/invoices/{draft}/items"),
            body(json!({"items": [line("Work", "1", "10.00")], "tax_rate_ids": [s19]})),
        )
        .await;
    crate::common::assert_invalid(
        &a,
        "tax_rate_ids",
        &["The tax rate ids field is prohibited when bill tax type is vat."],
    );
    let a = s
        .patch(
            &format!("/api/invoices/{draft}"),
            body(json!({"bill_clientid": de, "bill_categoryid": category,
            "bill_date": "2026-11-02", "bill_tax_type": "vat", "bill_adjustment_amount": "5.00"})),
        )
        .await;
    crate::common::assert_invalid(
        &a,
        "bill_adjustment_amount",
        &[
            "The bill adjustment amount must be a rounding amount (less than 1 either way) when bill tax type is vat.",
        ],
    );
    let a = s.get(&format!("/api/invoices/{draft}")).await;
    assert_eq!(a.data()["totals"]["adjustment_amount"], "0.00");
    s.stop().await;
}

#[tokio::test]
async fn readiness_names_what_is_missing_and_an_export_that_is_not_ready_is_the_same_list() {
    let s = TestServer::start().await;
    seller(&s).await;
    let no_vat = buyer(&s, "Private Buyer", "FR", None, "EUR").await;
    let reverse = rate(
        &s,
        json!({"name": "Reverse charge", "rate": "0", "vat_category": "AE",
        "exemption_reason": "Reverse charge", "exemption_code": "VATEX-EU-AE"}),
    )
    .await;
    let s19 = rate(&s, json!({"name": "VAT 19%", "rate": "19"})).await;
    let s7 = rate(&s, json!({"name": "VAT 7%", "rate": "7"})).await;
    let items =
        |rates: &[i64]| json!({"items": [line("Work", "1", "100.00")], "tax_rate_ids": rates});

    // A reverse-charge invoice to a client without a VAT id: BT-48.
    let id = issued(&s, no_vat, json!({}), items(&[reverse])).await;
    let a = s
        .get(&format!("/api/invoices/{id}/einvoice/readiness?format=ubl"))
        .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.message(), "E-invoice readiness retrieved successfully.");
    assert_eq!(a.data()["ready"], false);
    assert_eq!(a.data()["format"], "ubl");
    let missing = a.data()["missing"].clone();
    assert_eq!(missing[0]["term"], "BT-48", "{missing}");
    assert_eq!(missing[0]["field"], "client.vat_id");
    let (status, _, json) = export(&s, &format!("/api/invoices/{id}/einvoice?format=ubl")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        json["message"],
        "The document is not ready for this e-invoice format."
    );
    assert_eq!(json["missing"], missing, "the same list");
    assert!(
        json["errors"]["client.vat_id"][0]
            .as_str()
            .unwrap()
            .starts_with("BT-48: ")
    );

    // Inline mode: VAT rounded per tax-inclusive line.
    let category = s.default_category("invoice").await;
    let inline = s
        .created(
            "/api/invoices",
            json!({"bill_clientid": no_vat, "bill_categoryid": category,
            "bill_date": "2026-11-02", "bill_due_date": "2026-11-16", "bill_tax_type": "inline"}),
        )
        .await;
    let a = s
        .put(&format!("/api/invoices/{inline}/items"),
            body(json!({"items": [{"description": "Work", "quantity": "1", "rate": "10.00", "tax_rate_id": s19}]})))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    // A draft has no number yet (BT-1).
    let a = s
        .get(&format!(
            "/api/invoices/{inline}/einvoice/readiness?format=cii"
        ))
        .await;
    assert!(
        a.data()["missing"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["term"] == "BT-1"),
        "{}",
        a.json
    );
    let a = s
        .put(&format!("/api/invoices/{inline}/publish"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let a = s
        .get(&format!(
            "/api/invoices/{inline}/einvoice/readiness?format=cii"
        ))
        .await;
    let m = a.data()["missing"].as_array().unwrap();
    assert!(
        m.iter()
            .any(|m| m["field"] == "tax_type"
                && m["message"].as_str().unwrap().contains("inline mode")),
        "{}",
        a.json
    );

    // Two taxes on every line (summary mode with two rates): BT-151.
    let id = issued(&s, no_vat, json!({}), items(&[s19, s7])).await;
    let a = s
        .get(&format!("/api/invoices/{id}/einvoice/readiness?format=ubl"))
        .await;
    assert!(
        a.data()["missing"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["term"] == "BT-151" && m["field"] == "taxes"),
        "{}",
        a.json
    );

    // An adjustment that is not a rounding amount: BT-114.
    let id = issued(
        &s,
        no_vat,
        json!({"bill_adjustment_amount": "5.00"}),
        items(&[s19]),
    )
    .await;
    let a = s
        .get(&format!("/api/invoices/{id}/einvoice/readiness?format=ubl"))
        .await;
    assert!(
        a.data()["missing"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["term"] == "BT-114"),
        "{} {}",
        a.json,
        s.get(&format!("/api/invoices/{id}")).await.json
    );

    // The CRM's arithmetic: 1.5 × 1385.27 is 2077.90 here, 2077.91 in EN 16931.
    let id = issued(
        &s,
        no_vat,
        json!({}),
        json!({"items": [line("Odd", "1.5", "1385.27")], "tax_rate_ids": [s19]}),
    )
    .await;
    let a = s
        .get(&format!("/api/invoices/{id}/einvoice/readiness?format=ubl"))
        .await;
    let m = a.data()["missing"].as_array().unwrap().clone();
    assert!(
        m.iter().any(|m| m["term"] == "BT-131"
            && m["field"] == "line_items.0.total"
            && m["message"].as_str().unwrap().contains("2077.91")),
        "{}",
        a.json
    );

    // Peppol and XRechnung need what plain EN 16931 does not: a client without a Peppol id
    // or buyer reference.
    let bare = s
        .created(
            "/api/clients",
            json!({"company_name": "Bare Ltd", "address": {"country": "DE"}}),
        )
        .await;
    let id = issued(&s, bare, json!({}), items(&[s19])).await;
    let a = s
        .get(&format!("/api/invoices/{id}/einvoice/readiness?format=ubl"))
        .await;
    assert_eq!(a.data()["ready"], true, "{}", a.json);
    let a = s
        .get(&format!(
            "/api/invoices/{id}/einvoice/readiness?format=peppol"
        ))
        .await;
    let fields: Vec<&str> = a.data()["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        ["client.peppol", "client.buyer_reference"],
        "{}",
        a.json
    );
    let a = s
        .get(&format!(
            "/api/invoices/{id}/einvoice/readiness?format=xrechnung"
        ))
        .await;
    let fields: Vec<&str> = a.data()["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "client.peppol",
            "client.address.city",
            "client.address.postcode",
            "client.buyer_reference"
        ],
        "{}",
        a.json
    );

    // The format: required, one of the list; an unknown document is a 404 first.
    let a = s.get(&format!("/api/invoices/{id}/einvoice")).await;
    crate::common::assert_invalid(&a, "format", &["The format field is required."]);
    let a = s
        .get(&format!("/api/invoices/{id}/einvoice/readiness?format=pdf"))
        .await;
    crate::common::assert_invalid(&a, "format", &["The selected format is invalid."]);
    let a = s.get("/api/invoices/999999/einvoice?format=ubl").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let a = s
        .get("/api/credit-notes/999999/einvoice/readiness?format=ubl")
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    s.stop().await;
}

/// The decoded bytes of the attachment named `name` in a raw MIME message.
fn attached(data: &str, name: &str) -> Vec<u8> {
    use base64::Engine as _;
    let at = data
        .find(&format!("filename=\"{name}\""))
        .unwrap_or_else(|| panic!("no attachment {name} in:\n{data}"));
    // The part's headers start after the boundary line before the file name.
    let start = data[..at]
        .rfind("\r\n--")
        .expect("a boundary before the part");
    let part = &data[start..];
    let headers_end = part.find("\r\n\r\n").expect("the part's headers");
    let headers = &part[..headers_end];
    let body = &part[headers_end + 4..];
    let body = &body[..body.find("\r\n--").unwrap_or(body.len())];
    let encoding = headers.to_ascii_lowercase();
    if encoding.contains("content-transfer-encoding: base64") {
        let joined: String = body.split_whitespace().collect();
        base64::engine::general_purpose::STANDARD
            .decode(joined)
            .expect("base64")
    } else {
        assert!(
            !encoding.contains("quoted-printable"),
            "an e-invoice is sent as base64 or 7bit:\n{headers}"
        );
        body.as_bytes().to_vec()
    }
}

/// A service configured with `--mail-attach-einvoice format` (and `--mail-attach-pdf`).
async fn attaching(format: crm_einvoice::Format) -> TestServer {
    use crm_http::documents::{Documents, Presentation};
    TestServer::start_configured(
        |_| {},
        move |app| {
            app.with_documents(Documents::new(Presentation {
                attach_pdf: true,
                einvoice: Some(format),
                ..Presentation::default()
            }))
        },
    )
    .await
}

/// A German seller and buyer and an invoice to it at 19 % with `items`, issued: its id.
async fn ready_invoice(s: &TestServer, items: Value) -> i64 {
    seller(s).await;
    let de = buyer(s, "Kunde GmbH", "DE", Some("DE987654321"), "EUR").await;
    let s19 = rate(s, json!({"name": "VAT 19%", "rate": "19"})).await;
    issued(
        s,
        de,
        json!({}),
        json!({"items": items, "tax_rate_ids": [s19]}),
    )
    .await
}

/// Delivers invoice `id`'s email (the publish's) to `smtp` through the outbox's worker:
/// every message the server has received so far, and the email as the API shows it sent.
async fn delivered(
    s: &TestServer,
    smtp: &crate::outbox::SmtpServer,
    id: i64,
) -> (Vec<String>, Value) {
    use crate::outbox::{Worker, wait_for_email};
    let listed = s
        .get(&format!(
            "/api/emails?resource_type=invoice&resource_id={id}"
        ))
        .await;
    let email_id = listed.json["data"][0]["id"]
        .as_i64()
        .expect("the publish's email");
    let worker = Worker::start(s, &smtp.url());
    let email = wait_for_email(s, email_id, "sent", |e| e["status"] == "sent").await;
    worker.stop().await;
    let received = smtp.received().into_iter().map(|r| r.data).collect();
    (received, email)
}

#[tokio::test]
async fn the_email_carries_the_einvoice_and_the_page_offers_the_same_bytes() {
    let s = attaching(crm_einvoice::Format::Xrechnung).await;
    let smtp = crate::outbox::SmtpServer::start(&[]);
    let id = ready_invoice(&s, json!([line("Design <b>& more</b>", "1.5", "80.00")])).await;
    let invoice = s.get(&format!("/api/invoices/{id}")).await;
    let number = invoice.data()["number"].as_str().unwrap().to_owned();
    // The line's unit code is the API's, and the XML's (BT-130).
    assert_eq!(invoice.data()["line_items"][0]["unit_code"], "HUR");
    let (status, api_xml, _) =
        export(&s, &format!("/api/invoices/{id}/einvoice?format=xrechnung")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&api_xml).contains("unitCode=\"HUR\""));

    // The publish's email, delivered through a real SMTP exchange: the PDF, then the
    // e-invoice, byte for byte the API's export.
    let (received, email) = delivered(&s, &smtp, id).await;
    assert_eq!(received.len(), 1);
    let data = &received[0];
    let xml_name = format!("{number}-xrechnung.xml");
    let pdf = data.find("filename=\"invoice-").expect("the PDF");
    let xml = data
        .find(&format!("filename=\"{xml_name}\""))
        .expect("the e-invoice");
    assert!(pdf < xml, "the PDF first, then the e-invoice");
    // The email (and so its `email.sent` event) names what it carried.
    assert_eq!(
        email["attachments"],
        json!([format!("invoice-{id}.pdf"), xml_name])
    );
    assert!(data.contains("Content-Type: application/xml"), "{data}");
    assert_eq!(
        attached(data, &xml_name),
        api_xml,
        "the email's e-invoice is the export"
    );

    // The client's page offers it, and its download is the same bytes.
    let token = crate::client::token_of(invoice.data());
    let (a, html) = crate::client::visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(
        html.contains(&format!(
            "<a href=\"{token}/einvoice\" download>Download Invoice {number} as an e-invoice (XRechnung XML (UBL))</a>"
        )),
        "{html}"
    );
    let (a, body) =
        crate::client::visit(&s, Method::GET, &format!("/c/{token}/einvoice"), &[]).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.headers["content-type"], "application/xml");
    assert_eq!(
        a.headers["content-disposition"],
        format!("attachment; filename=\"{xml_name}\"").as_str()
    );
    assert_eq!(body.as_bytes(), api_xml.as_slice());

    // A document that is not ready: no link, the download is the bad-link page, and its
    // email leaves without the e-invoice (with its PDF).
    let private = buyer(&s, "Private Buyer", "FR", None, "EUR").await;
    let reverse = rate(
        &s,
        json!({"name": "Reverse charge", "rate": "0", "vat_category": "AE",
        "exemption_reason": "Reverse charge", "exemption_code": "VATEX-EU-AE"}),
    )
    .await;
    let unready = issued(
        &s,
        private,
        json!({}),
        json!({"items": [line("Work", "1", "100.00")], "tax_rate_ids": [reverse]}),
    )
    .await;
    let other = s.get(&format!("/api/invoices/{unready}")).await;
    let token = crate::client::token_of(other.data());
    let (a, html) = crate::client::visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(!html.contains("/einvoice"), "{html}");
    let (a, _) = crate::client::visit(&s, Method::GET, &format!("/c/{token}/einvoice"), &[]).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let (received, email) = delivered(&s, &smtp, unready).await;
    assert_eq!(received.len(), 2);
    assert_eq!(
        email["attachments"],
        json!([format!("invoice-{unready}.pdf")])
    );
    assert!(
        received[1].contains("filename=\"invoice-"),
        "the PDF still goes"
    );
    assert!(!received[1].contains(".xml\""), "but no e-invoice");
    s.stop().await;
}

#[tokio::test]
async fn with_facturx_the_email_carries_one_pdf_the_facturx_one() {
    let s = attaching(crm_einvoice::Format::Facturx).await;
    let smtp = crate::outbox::SmtpServer::start(&[]);
    let id = ready_invoice(
        &s,
        json!([{"description": "Boxes", "quantity": "2", "rate": "80.00", "unit": "XPP"},
            {"description": "Wine", "quantity": "3", "rate": "9.50", "unit": "Flaschen"}]),
    )
    .await;
    // A code given as the unit is taken as is; a word not known here is "one".
    let a = s.get(&format!("/api/invoices/{id}")).await;
    let codes: Vec<&Value> = a.data()["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["unit_code"])
        .collect();
    assert_eq!(codes, [&json!("XPP"), &json!("C62")]);
    let number = s.number(&format!("/api/invoices/{id}")).await;
    let (status, api_pdf, _) =
        export(&s, &format!("/api/invoices/{id}/einvoice?format=facturx")).await;
    assert_eq!(status, StatusCode::OK);
    // The export is a PDF by its type and its name.
    let r = s
        .http
        .get(format!(
            "{}/api/invoices/{id}/einvoice?format=facturx",
            s.base
        ))
        .bearer_auth(&s.key)
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-type"], "application/pdf");
    assert_eq!(
        r.headers()["content-disposition"],
        format!("attachment; filename=\"{number}-facturx.pdf\"").as_str()
    );
    let (mut received, email) = delivered(&s, &smtp, id).await;
    let data = received.remove(0);
    assert_eq!(
        email["attachments"],
        json!([format!("{number}-facturx.pdf")])
    );
    assert_eq!(
        data.matches("Content-Type: application/pdf").count(),
        1,
        "{data}"
    );
    assert!(
        !data.contains("filename=\"invoice-"),
        "no plain PDF beside it"
    );
    let name = format!("{number}-facturx.pdf");
    assert_eq!(
        attached(&data, &name),
        api_pdf,
        "the Factur-X PDF is the export's"
    );
    s.stop().await;
}
