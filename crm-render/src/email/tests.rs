use super::*;
use crate::document::Context;
use crate::sample;
use crate::text::is_crlf_only;
use chrono::TimeZone;
use crm_core::estimate::{ClientResponse, Decision as CoreDecision};
use crm_core::time::Timestamp;

fn doc(link: Option<&str>) -> Document {
    let e = sample::estimate(&sample::input(3).unwrap(), &sample::texts).unwrap();
    Document::estimate(
        &e,
        Context {
            company: "Northwind",
            link,
            ..Default::default()
        },
    )
}

#[test]
fn both_parts_greet_name_the_company_and_lead_to_the_link() {
    let email = render(&doc(Some("https://crm.example/c/tok"))).unwrap();
    assert_eq!(email.subject, "Estimate #12 from Northwind");
    for part in [&email.text, &email.html] {
        assert!(part.contains("Hello Acme Ltd,"), "{part}");
        assert!(
            part.contains("Northwind has sent you an estimate"),
            "{part}"
        );
        assert!(part.contains("View and accept the estimate"), "{part}");
        assert!(part.contains("https://crm.example/c/tok"), "{part}");
    }
    assert!(email.html.contains("<a href=\"https://crm.example/c/tok\""));
}

#[test]
fn the_number_is_not_repeated_and_a_rate_is_stated_once() {
    let email = render(&doc(None)).unwrap();
    for part in [&email.text, &email.html] {
        assert!(!part.contains("Number:"), "{part}");
        assert!(!part.contains("(20.00%)"), "{part}");
        assert!(part.contains("VAT 20%"), "{part}");
        assert!(
            !part.contains("View and accept"),
            "no link, no call to action"
        );
    }
}

#[test]
fn the_text_part_lists_every_line_and_figure() {
    let d = doc(None);
    let email = render(&d).unwrap();
    for line in &d.lines {
        assert!(email.text.contains(&line.description));
        assert!(email.text.contains(&format!(
            "{} x {} = {}",
            line.quantity_with_unit(),
            line.rate,
            line.total
        )));
    }
    assert!(
        email.text.contains(
            "   Includes two rounds of changes.\r\n   Delivered as source files and a PDF."
        )
    );
    assert!(
        email
            .text
            .contains("Subtotal: €609.00 EUR\r\nVAT 20%: €121.80 EUR\r\nTotal: €730.80 EUR")
    );
    assert!(email.text.contains("Notes\r\nThank you for your business."));
    assert!(email.text.contains("25 November 2026"));
}

#[test]
fn every_part_has_crlf_line_ends_only_whatever_the_record_holds() {
    let mut e = sample::estimate(&sample::input(1).unwrap(), &sample::texts).unwrap();
    e.notes = Some("one\rtwo\nthree\r\nfour\n\r".into());
    e.line_items[0].long_description = Some("a\rb".into());
    e.client.name = "A\rB".into();
    e.client_response = Some(ClientResponse {
        decision: CoreDecision::Declined,
        reason: Some("too\rexpensive".into()),
        at: Timestamp(chrono::Utc.with_ymd_and_hms(2026, 11, 26, 9, 0, 0).unwrap()),
    });
    let d = Document::estimate(
        &e,
        Context {
            company: "North\rwind",
            link: Some("https://x/c/t"),
            ..Default::default()
        },
    );
    let email = render(&d).unwrap();
    assert!(is_crlf_only(&email.text), "{:?}", email.text);
    assert!(is_crlf_only(&email.html), "{:?}", email.html);
    assert!(email.text.contains("one\r\ntwo\r\nthree\r\nfour"));
    assert!(
        email
            .text
            .contains("Declined on 26 November 2026.\r\nReason: too\r\nexpensive")
    );
}

#[test]
fn markup_in_record_text_is_escaped_in_html_and_verbatim_in_text() {
    let mut e = sample::estimate(&sample::input(1).unwrap(), &sample::texts).unwrap();
    e.client.name = "<script>alert(1)</script>".into();
    e.line_items[0].description = "\"><img src=x onerror=alert(1)>".into();
    e.notes = Some("Fish & Chips".into());
    let d = Document::estimate(
        &e,
        Context {
            company: "A&B <Ltd>",
            link: Some("https://x/c/t?a=1&b=\"2\""),
            ..Default::default()
        },
    );
    let email = render(&d).unwrap();
    assert!(!email.html.contains("<script>"));
    assert!(!email.html.contains("<img"));
    assert!(email.html.contains("&#60;script&#62;") || email.html.contains("&lt;script&gt;"));
    assert!(email.html.contains("Fish &#38; Chips") || email.html.contains("Fish &amp; Chips"));
    assert!(!email.html.contains("b=\"2\""));
    assert!(email.text.contains("Hello <script>alert(1)</script>,"));
    assert!(email.text.contains("\"><img src=x onerror=alert(1)>"));
    assert!(email.text.contains("Fish & Chips"));
    assert!(email.text.contains("A&B <Ltd> has sent you"));
}

#[test]
fn an_invoice_email_invites_to_view_it() {
    let i = sample::invoice(&sample::input(1).unwrap(), &sample::texts).unwrap();
    let d = Document::invoice(
        &i,
        Context {
            company: "Northwind",
            link: Some("https://x/c/t"),
            ..Default::default()
        },
    );
    let email = render(&d).unwrap();
    assert_eq!(email.subject, "Invoice #7 from Northwind");
    assert!(
        email
            .text
            .contains("Northwind has sent you an invoice: Invoice #7.")
    );
    assert!(email.text.contains("View the invoice:\r\nhttps://x/c/t"));
    assert!(email.text.contains("Due date: 25 December 2026"));
}

#[test]
fn the_creator_is_told_of_a_decision_with_its_reason_escaped_in_html() {
    let mut e = sample::estimate(&sample::input(2).unwrap(), &sample::texts).unwrap();
    e.client.name = "Acme <b>Ltd</b>\r\nBcc: x@y".into();
    let undecided = Document::estimate(&e, Context::default());
    assert_eq!(decision_notice(&undecided).unwrap(), None);
    e.client_response = Some(ClientResponse {
        decision: CoreDecision::Declined,
        reason: Some("Too <i>dear</i>\r\nSorry".into()),
        at: Timestamp(chrono::Utc.with_ymd_and_hms(2026, 11, 26, 9, 0, 0).unwrap()),
    });
    let doc = Document::estimate(
        &e,
        Context {
            company: "Northwind",
            link: Some("https://x/c/t"),
            ..Default::default()
        },
    );
    let notice = decision_notice(&doc).unwrap().unwrap();
    assert_eq!(
        notice.subject,
        format!("Estimate #{} declined by Acme <b>Ltd</b> Bcc: x@y", e.id)
    );
    assert!(!notice.subject.contains(['\r', '\n']));
    assert!(is_crlf_only(&notice.text) && is_crlf_only(&notice.html));
    assert!(notice.text.contains("declined Estimate #"));
    assert!(notice.text.contains("on 26 November 2026."));
    assert!(notice.text.contains("Reason: Too <i>dear</i>\r\nSorry"));
    assert!(notice.text.contains("The client's page: https://x/c/t"));
    assert!(!notice.html.contains("<i>dear"), "{}", notice.html);
    assert!(!notice.html.contains("<b>Ltd"), "{}", notice.html);
}
