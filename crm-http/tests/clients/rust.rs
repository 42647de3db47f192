//! The Rust client (`crm-client`): its example, the README's walkthrough, against the
//! service.

use reqwest::StatusCode;

use crate::Service;

#[allow(dead_code, unreachable_pub)]
#[path = "../../../crm-client/examples/walkthrough.rs"]
mod walkthrough;

#[tokio::test]
async fn the_rust_client_walks_the_readme_against_the_service() {
    let service = Service::start().await;
    let walked = walkthrough::run(&service.base, &service.key)
        .await
        .unwrap_or_else(|e| panic!("the walkthrough stopped: {e}"));
    let text = |m: &crm_core::money::Money| m.to_string();
    assert_eq!(
        walked.totals.iter().map(text).collect::<Vec<_>>(),
        ["2197.78", "439.56", "2637.34"]
    );
    assert_eq!(walked.published.to_string(), "new");
    // The retry was the first answer given again: one invoice, the second a replay.
    assert!(!walked.conversions[0].0);
    assert!(walked.conversions[1].0);
    assert_eq!(walked.conversions[0].1, walked.conversions[1].1);
    let year = chrono::Utc::now().format("%Y").to_string();
    assert_eq!(walked.number, format!("INV-{year}-00001"));
    assert_eq!(
        (walked.refused.0.as_u16(), walked.refused.1.as_str()),
        (
            409,
            "An issued invoice cannot be changed. Issue a credit note instead."
        )
    );
    assert_eq!(
        (walked.paid.0.as_str(), text(&walked.paid.1).as_str()),
        ("Paid", "0.00")
    );
    assert_eq!(
        walked.conditional.map(|s| s.map(|s| s.as_u16())),
        [Some(StatusCode::OK.as_u16()), Some(412)]
    );
    assert_eq!(
        walked.invalid,
        [(
            "note_title".to_owned(),
            vec!["The note title field is required.".to_owned()]
        )]
    );
    // Three notes were made (the 422 made none): two pages of at most two.
    assert_eq!(walked.paged, (3, 2));
}

#[test]
fn the_rust_client_verifies_what_the_service_signs() {
    // The service's own signer (the one its webhook worker uses), over a real body.
    let old = "whsec_c2VjcmV0LW9mLWEtcm90YXRlZC1lbmRwb2ludA==";
    let new = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    let body =
        br#"{"type":"invoice.paid","timestamp":"2026-11-20T10:00:00.000000Z","data":{"id":7}}"#;
    let now = 1_790_000_000;
    // During a rotation the service signs with both secrets; a receiver knows one.
    let header = crm_http::ops::webhook::signature(&[old, new], "msg_1", now, body).unwrap();
    assert_eq!(header.matches("v1,").count(), 2, "{header}");
    let verify = |secret: &str, body: &[u8], at: i64| {
        crm_client::webhooks::verify(secret, "msg_1", &now.to_string(), body, &header, at)
    };
    assert_eq!(verify(new, body, now + 10), Ok(()));
    assert_eq!(verify(old, body, now - 10), Ok(()));
    let refused = crm_client::webhooks::Refusal::Signature;
    assert_eq!(verify("whsec_b3RoZXI=", body, now), Err(refused.clone()));
    assert_eq!(verify(new, &body[1..], now), Err(refused));
    assert_eq!(
        verify(new, body, now + 301),
        Err(crm_client::webhooks::Refusal::Stale)
    );
}
