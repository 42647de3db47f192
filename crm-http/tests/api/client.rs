//! The client's side through the real service (API.md §12): the link on the record, the
//! page and its headers, Accept and Decline, the PDF, bad links, the per-address limit.

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::common::{Answer, Body, TestServer, client, form, id_of};

/// A published estimate for Acme (two lines, one with markup in its text) and its token.
async fn published_estimate(s: &TestServer) -> (i64, String) {
    let category = s.default_category("estimate").await.to_string();
    let a = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", &client(s, 1).to_string()),
                ("bill_categoryid", &category),
                ("bill_date", "2026-06-15"),
                ("bill_expiry_date", "2099-01-01"),
                ("bill_notes", "<script>alert('notes')</script>"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    let id = id_of(a.data());
    let a = s
        .put(
            &format!("/api/estimates/{id}/items"),
            form(&[
                ("items[0][description]", "<img src=x onerror=alert(1)>"),
                ("items[0][quantity]", "1.5"),
                ("items[0][rate]", "1385.27"),
                ("items[1][description]", "Ηλεκτρικό ρεύμα / Электричество"),
                ("items[1][quantity]", "12"),
                ("items[1][rate]", "9.99"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let a = s
        .put(&format!("/api/estimates/{id}/publish"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    (id, token_of(a.data()))
}

/// The token of a record's `client_link`.
pub(crate) fn token_of(record: &Value) -> String {
    let url = record["client_link"]["url"]
        .as_str()
        .expect("a client link");
    url.rsplit_once("/c/").expect("a /c/ link").1.to_owned()
}

/// A client that does not follow redirects (to see the 303 itself).
fn browser() -> reqwest::Client {
    crm_http::ops::webhook::install_crypto_provider();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// `GET`/`POST` of a client page, held to the document like every answer; the body text.
pub(crate) async fn visit(
    s: &TestServer,
    method: Method,
    path: &str,
    body: &[(&str, &str)],
) -> (Answer, String) {
    let mut request = browser().request(method.clone(), format!("{}{path}", s.base));
    if method == Method::POST {
        // A decision sends the version of the offer its page showed, as the page's form does
        // (API.md §18), unless the test sends its own.
        let mut body = body.to_vec();
        let shown;
        if let Some(page) = path
            .strip_suffix("/accept")
            .or_else(|| path.strip_suffix("/decline"))
            && !body.iter().any(|(k, _)| *k == "version")
        {
            shown = shown_version(s, page).await;
            if let Some(v) = &shown {
                body.push(("version", v));
            }
        }
        request = request.form(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    crate::conformance::check(&method, path.split('?').next().unwrap(), status, &bytes);
    (
        Answer {
            status,
            headers,
            json: Value::Null,
        },
        text,
    )
}

/// The `version` the decision forms of the page at `path` carry (`None`: no form).
pub(crate) async fn shown_version(s: &TestServer, path: &str) -> Option<String> {
    let html = browser()
        .get(format!("{}{path}", s.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let (_, rest) = html.split_once("name=\"version\" value=\"")?;
    Some(rest.split_once('"')?.0.to_owned())
}

fn header<'a>(a: &'a Answer, name: &str) -> &'a str {
    a.headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[tokio::test]
async fn the_page_shows_the_api_figures_escaped_with_strict_headers() {
    let s = TestServer::start().await;
    let (id, token) = published_estimate(&s).await;
    let record = s.get(&format!("/api/estimates/{id}")).await;
    let (a, html) = visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
    assert_eq!(a.status, StatusCode::OK, "{html}");
    assert_eq!(header(&a, "content-type"), "text/html; charset=utf-8");
    assert_eq!(header(&a, "cache-control"), "no-store");
    assert_eq!(header(&a, "referrer-policy"), "no-referrer");
    assert!(header(&a, "x-robots-tag").contains("noindex"));
    let csp = header(&a, "content-security-policy");
    assert!(
        csp.contains("frame-ancestors 'none'") && !csp.contains("script-src"),
        "{csp}"
    );
    assert!(
        !html.contains("<script"),
        "no script at all, record text included"
    );
    assert!(!html.contains("<img src=x"), "{html}");
    assert!(html.contains("Ηλεκτρικό ρεύμα / Электричество"));
    let totals = &record.data()["totals"];
    for figure in ["subtotal", "final_amount"] {
        let text = totals[figure].as_str().unwrap();
        assert!(html.contains(text), "{figure} {text} not in the page");
    }
    let number = record.data()["number"].as_str().unwrap();
    assert!(html.contains(&format!("Estimate {number}")));
    assert!(
        html.contains(&format!("action=\"{token}/accept\"")),
        "{html}"
    );
    assert!(html.contains(&format!("href=\"{token}/pdf\"")), "{html}");
}

#[tokio::test]
async fn accepting_sets_the_status_and_the_page_then_says_so() {
    let s = TestServer::start().await;
    let (id, token) = published_estimate(&s).await;
    let (a, _) = visit(&s, Method::POST, &format!("/c/{token}/accept"), &[]).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    assert_eq!(header(&a, "location"), format!("../{token}"));
    let e = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(e.data()["status"], "accepted");
    assert_eq!(e.data()["client_response"]["decision"], "accepted");
    assert_eq!(e.data()["client_response"]["reason"], Value::Null);
    let (_, html) = visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
    assert!(html.contains("<strong>Accepted</strong> on"), "{html}");
    assert!(!html.contains("<form"), "no buttons once decided");
    // Again: harmless. The other decision: 409, nothing changed.
    let (again, _) = visit(&s, Method::POST, &format!("/c/{token}/accept"), &[]).await;
    assert_eq!(again.status, StatusCode::SEE_OTHER);
    let (refused, html) = visit(&s, Method::POST, &format!("/c/{token}/decline"), &[]).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(html.contains("already been answered"), "{html}");
    let after = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(after.data()["status"], "accepted");
    let notices = s
        .scalar(
            "SELECT count(*) FROM email_queue WHERE estimate_id = $1 AND template = 'estimate_decision'",
            id,
        )
        .await;
    assert_eq!(notices, 1);
}

#[tokio::test]
async fn declining_keeps_the_reason_and_a_too_long_one_changes_nothing() {
    let s = TestServer::start().await;
    let (id, token) = published_estimate(&s).await;
    let long = "x".repeat(1001);
    let (a, html) = visit(
        &s,
        Method::POST,
        &format!("/c/{token}/decline"),
        &[("reason", &long)],
    )
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        html.contains("The reason may not be greater than 1000 characters."),
        "{html}"
    );
    assert_eq!(
        s.get(&format!("/api/estimates/{id}")).await.data()["status"],
        "new"
    );
    let reason = "Too dear <b>for us</b>";
    let (a, _) = visit(
        &s,
        Method::POST,
        &format!("/c/{token}/decline"),
        &[("reason", reason)],
    )
    .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    let e = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(e.data()["status"], "declined");
    assert_eq!(e.data()["client_response"]["reason"], reason);
    let (_, html) = visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
    assert!(html.contains("<strong>Declined</strong> on"));
    assert!(!html.contains("<b>for us</b>"), "the reason is escaped");
}

#[tokio::test]
async fn every_bad_link_gets_the_same_404_page() {
    let s = TestServer::start().await;
    let (id, first) = published_estimate(&s).await;
    let (_, gone) = visit(&s, Method::GET, &format!("/c/{}", "0".repeat(64)), &[]).await;
    assert!(gone.contains("This link is no longer valid."), "{gone}");

    let rotated = s
        .post(&format!("/api/estimates/{id}/link"), Body::None)
        .await;
    assert_eq!(rotated.status, StatusCode::CREATED, "{:?}", rotated.json);
    assert_eq!(rotated.message(), "Estimate link created successfully.");
    let second = token_of(rotated.data());
    assert_ne!(first, second);
    let mut tampered = second.clone();
    tampered.replace_range(0..1, if second.starts_with('a') { "b" } else { "a" });

    s.sql()
        .await
        .execute(
            "UPDATE estimates SET client_token_expires_at = now() - interval '1 second' WHERE id = $1",
            &[&id],
        )
        .await
        .unwrap();
    let expired = second.clone();
    let fresh = token_of(
        s.post(&format!("/api/estimates/{id}/link"), Body::None)
            .await
            .data(),
    );
    let revoked = s.delete(&format!("/api/estimates/{id}/link")).await;
    assert_eq!(revoked.status, StatusCode::OK, "{:?}", revoked.json);
    assert_eq!(revoked.data()["client_link"], Value::Null);

    for token in [
        first,
        tampered,
        expired,
        fresh,
        "x".repeat(64),
        "short".into(),
    ] {
        for path in [format!("/c/{token}"), format!("/c/{token}/pdf")] {
            let (a, html) = visit(&s, Method::GET, &path, &[]).await;
            assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(html, gone, "{path}: one answer for every bad link");
        }
        let (a, _) = visit(&s, Method::POST, &format!("/c/{token}/accept"), &[]).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND);
    }
    assert_eq!(
        s.get(&format!("/api/estimates/{id}")).await.data()["status"],
        "new"
    );
}

#[tokio::test]
async fn the_pdf_is_served_by_link_and_by_key_with_its_file_name() {
    let s = TestServer::start().await;
    let (id, token) = published_estimate(&s).await;
    let by_key = s
        .http
        .get(format!("{}/api/estimates/{id}/pdf", s.base))
        .bearer_auth(&s.key)
        .send()
        .await
        .unwrap();
    let by_key = {
        let status = by_key.status();
        let disposition = by_key.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .to_owned();
        let body = by_key.bytes().await.unwrap();
        crate::conformance::check(
            &Method::GET,
            &format!("/api/estimates/{id}/pdf"),
            status,
            &body,
        );
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            disposition,
            format!(
                "inline; filename=\"estimate-{}.pdf\"",
                s.number(&format!("/api/estimates/{id}")).await
            )
        );
        body
    };
    assert!(by_key.starts_with(b"%PDF-"));
    let (a, _) = visit(&s, Method::GET, &format!("/c/{token}/pdf"), &[]).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(header(&a, "content-type"), "application/pdf");
    let missing = s.get("/api/estimates/999999/pdf").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.message(), "Estimate not found.");
}

#[tokio::test]
async fn an_invoice_page_has_no_buttons_and_takes_no_decision() {
    let s = TestServer::start().await;
    let (id, _) = published_estimate(&s).await;
    let invoice = s
        .post(
            &format!("/api/estimates/{id}/convert-to-invoice"),
            Body::None,
        )
        .await;
    let invoice_id = id_of(invoice.data());
    assert_eq!(
        invoice.data()["client_link"],
        Value::Null,
        "a draft invoice has none yet"
    );
    let linked = s
        .post(&format!("/api/invoices/{invoice_id}/link"), Body::None)
        .await;
    assert_eq!(linked.status, StatusCode::CREATED, "{:?}", linked.json);
    let token = token_of(linked.data());
    let (a, html) = visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(html.contains(&format!("Invoice #{invoice_id}")));
    assert!(!html.contains("<form"));
    let (a, _) = visit(&s, Method::POST, &format!("/c/{token}/accept"), &[]).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let pdf = s
        .http
        .get(format!("{}/api/invoices/{invoice_id}/pdf", s.base))
        .bearer_auth(&s.key)
        .send()
        .await
        .unwrap();
    assert_eq!(
        pdf.headers()["content-disposition"],
        format!("inline; filename=\"invoice-{invoice_id}.pdf\"").as_str()
    );
}

#[tokio::test]
async fn the_pages_are_limited_per_client_address_with_a_429_page() {
    let rate = "3/min".parse().unwrap();
    let s = TestServer::start_with(|app| app.with_public_rate_limit(Some(rate))).await;
    let (_, token) = published_estimate(&s).await;
    for _ in 0..3 {
        let (a, _) = visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
        assert_eq!(a.status, StatusCode::OK);
    }
    let (a, html) = visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = header(&a, "retry-after").parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(html.contains("Too many requests"), "{html}");
    // The API is not counted against the pages' limit.
    assert_eq!(s.get("/api/estimates").await.status, StatusCode::OK);
}

#[tokio::test]
async fn hostile_decision_requests_get_a_clean_4xx_and_change_nothing() {
    let s = TestServer::start().await;
    let (id, token) = published_estimate(&s).await;
    let path = format!("{}/c/{token}/decline", s.base);
    let cases: Vec<(&str, Vec<u8>, StatusCode)> = vec![
        (
            "text/plain",
            b"reason=x".to_vec(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "application/json",
            b"{\"reason\":".to_vec(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "application/x-www-form-urlencoded",
            format!("reason={}", "y".repeat(2 * 1024 * 1024)).into_bytes(),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            "application/json",
            b"{\"reason\": [\"not\", \"text\"]}".to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ];
    for (content_type, body, expected) in cases {
        let a = browser()
            .post(&path)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(a.status(), expected, "{content_type}");
    }
    let e = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(e.data()["status"], "new");
    assert_eq!(e.data()["client_response"], Value::Null);
}

#[tokio::test]
async fn a_converted_estimates_page_offers_no_decision() {
    let s = TestServer::start().await;
    let (id, token) = published_estimate(&s).await;
    let (_, html) = visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
    assert!(html.contains("Accept the estimate"), "{html}");
    let a = s
        .post(
            &format!("/api/estimates/{id}/convert-to-invoice"),
            Body::None,
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    let (a, html) = visit(&s, Method::GET, &format!("/c/{token}"), &[]).await;
    assert_eq!(a.status, StatusCode::OK, "{html}");
    let number = s.number(&format!("/api/estimates/{id}")).await;
    assert!(html.contains(&format!("Estimate {number}")), "{html}");
    assert!(!html.contains("Accept the estimate"), "{html}");
    assert!(!html.contains("/decline\""), "{html}");
    // Nor is a decision sent straight to the link recorded: a 409 page, nothing changed.
    for decision in ["accept", "decline"] {
        let (refused, html) = visit(&s, Method::POST, &format!("/c/{token}/{decision}"), &[]).await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{html}");
        assert!(html.contains("turned into an invoice"), "{html}");
    }
    let after = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(after.data()["status"], "new");
    assert_eq!(after.data()["client_response"], Value::Null);
}

#[tokio::test]
async fn a_decision_is_the_clients_in_the_estimates_activity() {
    let s = TestServer::start().await;
    let (id, token) = published_estimate(&s).await;
    let (a, _) = visit(&s, Method::POST, &format!("/c/{token}/accept"), &[]).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    let a = s.get(&format!("/api/estimates/{id}/activity")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let entry = &a.data()[0];
    assert_eq!(entry["type"], "estimate.accepted");
    assert_eq!(
        entry["actor"],
        serde_json::json!({"client_link": {"type": "estimate", "id": id}})
    );
    assert_eq!(entry["changes"]["status"][1], "accepted", "{entry}");
}
