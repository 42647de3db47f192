use super::*;
use crate::document::Context;
use crate::sample;
use chrono::TimeZone;
use crm_core::estimate::{ClientResponse, Decision as CoreDecision};
use crm_core::time::Timestamp;
use sha2::{Digest, Sha256};

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn estimate_doc(response: Option<ClientResponse>) -> Document {
    let mut e = sample::estimate(&sample::input(3).unwrap(), &sample::texts).unwrap();
    e.client_response = response;
    Document::estimate(
        &e,
        Context {
            company: "Northwind",
            link: Some("https://crm.example/c/tok"),
            ..Default::default()
        },
    )
}

const VIEW: PageView<'static> = PageView {
    base: "/c/tok",
    einvoice: None,
    can_decide: true,
    version: Some("v1"),
};

#[test]
fn the_style_hash_is_the_stylesheets() {
    let digest = Sha256::digest(STYLESHEET.as_bytes());
    assert_eq!(STYLE_HASH, format!("sha256-{}", base64(&digest)));
    assert!(CONTENT_SECURITY_POLICY.contains(&format!("style-src '{STYLE_HASH}'")));
    assert!(!CONTENT_SECURITY_POLICY.contains("script-src"));
    assert!(CONTENT_SECURITY_POLICY.contains("frame-ancestors 'none'"));
}

#[test]
fn the_style_element_holds_exactly_the_hashed_stylesheet() {
    for page in [
        client_page(&estimate_doc(None), VIEW).unwrap(),
        not_found("Northwind").unwrap(),
        refused("Northwind", Refusal::Expired, None).unwrap(),
        too_many_requests("Northwind", 30).unwrap(),
    ] {
        assert!(page.contains(&format!("<style>{STYLESHEET}</style>")));
        assert_eq!(page.matches("<style").count(), 1);
        assert!(!page.contains("<script"), "no script at all");
        assert!(
            !page.contains(" style="),
            "no style attribute: the CSP forbids them"
        );
        assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
        assert!(page.contains("<main id=\"main\">"));
        assert!(page.contains("name=\"viewport\""));
    }
}

#[test]
fn the_page_shows_the_record_with_the_api_figures() {
    let doc = estimate_doc(None);
    let page = client_page(&doc, VIEW).unwrap();
    for text in [
        "<h1 id=\"doc-title\">Estimate #12</h1>",
        "<title>Estimate #12 · Northwind</title>",
        "Awaiting acceptance",
        "<dd>Acme Ltd</dd>",
        "<time datetime=\"2026-11-25\">25 November 2026</time>",
        "<dt>Expiry date</dt>",
        "<th scope=\"col\" class=\"num\">Quantity</th>",
        "<th scope=\"row\">Website design, phase 1",
        "data-label=\"Quantity\">2.00 hours</td>",
        "<th scope=\"row\">VAT 20%</th><td>€121.80 EUR</td>",
        "<th scope=\"row\">Total</th><td>€730.80 EUR</td>",
        "Thank you for your business.",
        "<a href=\"/c/tok/pdf\">",
    ] {
        assert!(page.contains(text), "missing {text:?} in\n{page}");
    }
    for line in &doc.lines {
        assert!(page.contains(&line.rate) && page.contains(&line.total));
    }
}

#[test]
fn accept_and_decline_are_plain_forms_only_when_the_estimate_can_be_decided() {
    let doc = estimate_doc(None);
    let page = client_page(&doc, VIEW).unwrap();
    assert!(page.contains("<form method=\"post\" action=\"/c/tok/accept\">"));
    assert!(page.contains("<form method=\"post\" action=\"/c/tok/decline\">"));
    assert!(page.contains("<label for=\"reason\">"));
    assert!(page.contains("<textarea id=\"reason\" name=\"reason\" rows=\"3\" maxlength=\"1000\""));
    let closed = client_page(
        &doc,
        PageView {
            can_decide: false,
            ..VIEW
        },
    )
    .unwrap();
    assert!(!closed.contains("<form"));
}

#[test]
fn an_invoice_page_never_has_the_forms() {
    let i = sample::invoice(&sample::input(1).unwrap(), &sample::texts).unwrap();
    let doc = Document::invoice(&i, Context::default());
    let page = client_page(&doc, VIEW).unwrap();
    assert!(!page.contains("<form"));
    assert!(page.contains("Invoice #7"));
}

#[test]
fn the_einvoice_is_offered_only_when_the_service_names_one_and_its_name_is_escaped() {
    let i = sample::invoice(&sample::input(1).unwrap(), &sample::texts).unwrap();
    let doc = Document::invoice(&i, Context::default());
    let without = client_page(&doc, VIEW).unwrap();
    assert!(!without.contains("/einvoice"), "{without}");
    let with = client_page(
        &doc,
        PageView {
            einvoice: Some("XRechnung <XML>"),
            ..VIEW
        },
    )
    .unwrap();
    assert!(
        with.contains(
            "<a href=\"/c/tok/einvoice\" download>Download Invoice #7 as an e-invoice (XRechnung "
        ),
        "{with}"
    );
    assert!(!with.contains("<XML>"), "{with}");
    assert!(
        with.contains("&#60;XML&#62;)</a>") || with.contains("&lt;XML&gt;)</a>"),
        "{with}"
    );
}

#[test]
fn a_decided_estimate_states_the_decision_and_its_reason() {
    let decision = ClientResponse {
        decision: CoreDecision::Declined,
        at: Timestamp(chrono::Utc.with_ymd_and_hms(2026, 11, 27, 8, 0, 0).unwrap()),
        reason: Some("Too expensive <b>now</b>".into()),
    };
    let page = client_page(
        &estimate_doc(Some(decision)),
        PageView {
            can_decide: false,
            ..VIEW
        },
    )
    .unwrap();
    assert!(page.contains(
        "<strong>Declined</strong> on <time datetime=\"2026-11-27\">27 November 2026</time>"
    ));
    assert!(page.contains("class=\"decision decision-declined\""));
    assert!(
        page.contains("Too expensive &#60;b&#62;now&#60;/b&#62;")
            || page.contains("Too expensive &lt;b&gt;now&lt;/b&gt;")
    );
}

#[test]
fn markup_in_record_text_comes_out_escaped() {
    let mut e = sample::estimate(&sample::input(1).unwrap(), &sample::texts).unwrap();
    e.client.name = "<script>alert(1)</script>".into();
    e.line_items[0].description = "\"><img src=x onerror=alert(1)>".into();
    e.line_items[0].unit = Some("<u>h</u>".into());
    e.notes = Some("Fish & Chips".into());
    e.terms = Some("</p><script>x</script>".into());
    let doc = Document::estimate(
        &e,
        Context {
            company: "<i>Co</i>",
            link: None,
            ..Default::default()
        },
    );
    let page = client_page(
        &doc,
        PageView {
            base: "/c/\"><b>",
            einvoice: None,
            can_decide: true,
            version: Some("\"><b>"),
        },
    )
    .unwrap();
    assert!(!page.contains("<script"));
    assert!(!page.contains("<img"));
    assert!(!page.contains("<u>"));
    assert!(!page.contains("<i>"));
    assert!(!page.contains("\"><b>"));
    assert!(!page.contains("Fish & Chips"));
}

#[test]
fn the_error_pages_say_what_happened() {
    let gone = not_found("Northwind").unwrap();
    assert!(gone.contains("<h1 id=\"message-title\">This link is no longer valid.</h1>"));
    assert!(gone.contains("Please ask Northwind to send you a new link."));

    let refused_page = refused("Northwind", Refusal::AlreadyDecided, Some("/c/tok")).unwrap();
    assert!(refused_page.contains(REFUSED));
    assert!(refused_page.contains("This estimate has already been answered. Nothing was changed."));
    assert!(refused_page.contains("<a href=\"/c/tok\">Back to the estimate</a>"));
    for (refusal, word) in [
        (Refusal::Expired, "expired"),
        (Refusal::Revised, "revised"),
        (Refusal::Draft, "prepared again"),
        (Refusal::Converted, "turned into an invoice"),
    ] {
        assert!(refused("N", refusal, None).unwrap().contains(word));
    }

    let busy = too_many_requests("Northwind", 42).unwrap();
    assert!(busy.contains("<h1 id=\"message-title\">Too many requests</h1>"));
    assert!(busy.contains("Please wait 42 seconds and try again."));
    assert!(too_many_requests("N", 1).unwrap().contains("wait a second"));
}

#[test]
fn the_notes_and_terms_come_before_the_decision_box() {
    let doc = estimate_doc(None);
    assert!(
        doc.terms.is_some() && doc.notes.is_some(),
        "the sample has both"
    );
    let page = client_page(&doc, VIEW).unwrap();
    let at = |needle: &str| {
        page.find(needle)
            .unwrap_or_else(|| panic!("{needle} not on the page"))
    };
    assert!(
        at("id=\"notes-title\"") < at("id=\"decide-title\""),
        "{page}"
    );
    assert!(
        at("id=\"terms-title\"") < at("id=\"decide-title\""),
        "{page}"
    );
    assert!(at("id=\"decide-title\"") < at("class=\"pdf\""), "{page}");
}

#[test]
fn the_seller_and_the_buyer_are_named_with_their_address_and_vat_id_escaped() {
    let e = sample::estimate(&sample::input(2).unwrap(), &sample::texts).unwrap();
    let seller = crate::document::Party {
        name: "Example <Consulting> Ltd".to_owned(),
        trading_as: Some("Example".to_owned()),
        address: vec![
            "1 High Street".to_owned(),
            "EC1A 1AA London".to_owned(),
            "GB".to_owned(),
        ],
        vat_id: Some("GB123456789".to_owned()),
        registrations: vec!["Registration <b>HRB</b> 1".to_owned()],
    };
    let buyer = crate::document::Party {
        name: "Acme & Co".to_owned(),
        trading_as: None,
        address: vec!["10115 Berlin".to_owned(), "DE".to_owned()],
        vat_id: Some("DE123456789".to_owned()),
        registrations: Vec::new(),
    };
    let doc = Document::estimate(
        &e,
        Context {
            company: "Example",
            link: None,
            seller: Some(&seller),
            buyer: Some(&buyer),
            payment: None,
        },
    );
    let html = client_page(&doc, VIEW).unwrap();
    assert!(
        html.contains("<br>Registration &#60;b&#62;HRB&#60;/b&#62; 1"),
        "{html}"
    );
    for shown in [
        "Example &#60;Consulting&#62; Ltd",
        "trading as Example",
        "1 High Street",
        "EC1A 1AA London",
        "VAT GB123456789",
        "Acme &#38; Co",
        "10115 Berlin",
        "VAT DE123456789",
    ] {
        assert!(html.contains(shown), "{shown}: {html}");
    }
    let email = crate::email::render(&doc).unwrap();
    for shown in [
        "From: Example <Consulting> Ltd (trading as Example)",
        "VAT GB123456789",
        "To:   Acme & Co",
        "VAT DE123456789",
    ] {
        assert!(email.text.contains(shown), "{shown}: {}", email.text);
    }
    assert!(
        email.html.contains("Example &#60;Consulting&#62; Ltd"),
        "{}",
        email.html
    );
    let pdf = crate::pdf::render(&doc, crate::Paper::A4).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    // A party known by its name alone adds nothing: the documents stay as they were.
    let plain = estimate_doc(None);
    assert!(!plain.seller.has_details() && !plain.buyer.has_details());
    assert!(
        !client_page(&plain, VIEW)
            .unwrap()
            .contains("class=\"parties\"")
    );
}

#[test]
fn a_numbered_revised_estimate_says_so_and_its_forms_carry_the_version() {
    let mut e = sample::estimate(&sample::input(3).unwrap(), &sample::texts).unwrap();
    e.number = Some("EST-2026-00007".into());
    e.dates.revised = Some(Timestamp(
        chrono::Utc.with_ymd_and_hms(2026, 11, 27, 9, 0, 0).unwrap(),
    ));
    let doc = Document::estimate(&e, Context::default());
    assert_eq!(doc.title(), "Estimate EST-2026-00007");
    assert_eq!(doc.pdf_file_name(), "estimate-EST-2026-00007.pdf");
    let page = client_page(&doc, VIEW).unwrap();
    assert!(page.contains("<h1 id=\"doc-title\">Estimate EST-2026-00007</h1>"));
    assert!(page.contains("<p class=\"revised\">Revised on 27 November 2026</p>"));
    assert_eq!(
        page.matches("<input type=\"hidden\" name=\"version\" value=\"v1\">")
            .count(),
        2,
        "{page}"
    );

    let changed = refused("Northwind", Refusal::Changed, Some("/c/tok")).unwrap();
    assert!(changed.contains(
        "<h1 id=\"message-title\">This estimate was revised; please review it again.</h1>"
    ));
    assert!(changed.contains("your answer was not recorded"));
    assert!(changed.contains("<a href=\"/c/tok\">Back to the estimate</a>"));
}
