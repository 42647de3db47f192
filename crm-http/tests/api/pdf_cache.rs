//! PDFs rendered once per version (issue 47, item 3): the keyed and the client link's PDF
//! carry one strong `ETag`, `If-None-Match` gets a 304, a change of the record or of its
//! link (or of its client's name, or of the client's decision) gives new bytes and a new
//! tag, and a PDF asked for again (or by many at once) is not rendered again, as
//! `/metrics` counts.

use crm_http::documents::{Documents, Presentation};
use reqwest::StatusCode;

use crate::common::{Body, TestServer, client, form, id_of};

/// A published estimate of two lines; its id and its link's token.
async fn published(s: &TestServer) -> (i64, String) {
    let category = s.default_category("estimate").await.to_string();
    let a = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", &client(s, 1).to_string()),
                ("bill_categoryid", &category),
                ("bill_date", "2026-06-15"),
                ("bill_expiry_date", "2099-01-01"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    let id = id_of(a.data());
    set_items(s, id, "Design work").await;
    let a = s
        .put(&format!("/api/estimates/{id}/publish"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    (id, token_of(a.data()))
}

async fn set_items(s: &TestServer, id: i64, first: &str) {
    let a = s
        .put(
            &format!("/api/estimates/{id}/items"),
            form(&[
                ("items[0][description]", first),
                ("items[0][quantity]", "1.5"),
                ("items[0][rate]", "1385.27"),
                ("items[1][description]", "Ηλεκτρικό ρεύμα / Электричество"),
                ("items[1][quantity]", "12"),
                ("items[1][rate]", "9.99"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
}

fn token_of(record: &serde_json::Value) -> String {
    let url = record["client_link"]["url"]
        .as_str()
        .expect("a client link");
    url.rsplit_once("/c/").expect("a /c/ link").1.to_owned()
}

/// A PDF answer: status, `ETag`, `Cache-Control` and bytes.
#[derive(Debug)]
struct Got {
    status: StatusCode,
    etag: Option<String>,
    cache_control: Option<String>,
    bytes: Vec<u8>,
}

/// `GET path`, with the key when `keyed`, and `If-None-Match` when given.
async fn fetch(s: &TestServer, path: &str, keyed: bool, if_none_match: Option<&str>) -> Got {
    let mut request = s.http.get(format!("{}{path}", s.base));
    if keyed {
        request = request.bearer_auth(&s.key);
    }
    if let Some(tag) = if_none_match {
        request = request.header("if-none-match", tag);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let (etag, cache_control) = (header("etag"), header("cache-control"));
    let bytes = response.bytes().await.unwrap().to_vec();
    // Held to the API's description, like every answer of the suite.
    crate::conformance::check(&reqwest::Method::GET, path, status, &bytes);
    Got {
        status,
        etag,
        cache_control,
        bytes,
    }
}

/// The PDF figures of `/metrics`: renders, cache hits, cache misses.
async fn pdf_counts(s: &TestServer) -> (u64, u64, u64) {
    let text = s
        .http
        .get(format!("{}/metrics", s.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let value = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} in /metrics:\n{text}"))
            .trim()
            .parse::<u64>()
            .unwrap()
    };
    (
        value("crm_pdf_renders_total"),
        value("crm_pdf_cache_hits_total"),
        value("crm_pdf_cache_misses_total"),
    )
}

#[tokio::test]
async fn a_pdf_has_one_strong_etag_by_key_and_by_link_and_if_none_match_gets_a_304() {
    let s = TestServer::start().await;
    let (id, token) = published(&s).await;
    let keyed_path = format!("/api/estimates/{id}/pdf");
    let public_path = format!("/c/{token}/pdf");
    let keyed = fetch(&s, &keyed_path, true, None).await;
    let public = fetch(&s, &public_path, false, None).await;
    for got in [&keyed, &public] {
        assert_eq!(got.status, StatusCode::OK);
        assert!(got.bytes.starts_with(b"%PDF-"));
        assert_eq!(got.cache_control.as_deref(), Some("private, no-cache"));
    }
    let etag = keyed.etag.clone().expect("an ETag");
    assert!(
        etag.starts_with('"') && etag.ends_with('"') && etag.len() > 2,
        "a strong tag: {etag}"
    );
    // Public and keyed PDFs are the same document: the same bytes and tag.
    assert_eq!(public.etag.as_deref(), Some(etag.as_str()));
    assert_eq!(public.bytes, keyed.bytes);
    // Stable: asked again, the same tag and bytes.
    let again = fetch(&s, &public_path, false, None).await;
    assert_eq!(again.etag.as_deref(), Some(etag.as_str()));
    assert_eq!(again.bytes, keyed.bytes);
    // If-None-Match naming it (alone, in a list, or weakly): 304 with no body, the tag
    // and the caching rule; naming another: the PDF.
    for (by_key, path) in [(true, &keyed_path), (false, &public_path)] {
        for named in [
            etag.clone(),
            format!("\"other\", {etag}"),
            format!("W/{etag}"),
        ] {
            let got = fetch(&s, path, by_key, Some(&named)).await;
            assert_eq!(got.status, StatusCode::NOT_MODIFIED, "{path} {named}");
            assert!(got.bytes.is_empty());
            assert_eq!(got.etag.as_deref(), Some(etag.as_str()));
            assert_eq!(got.cache_control.as_deref(), Some("private, no-cache"));
        }
        let other = fetch(&s, path, by_key, Some("\"0123\"")).await;
        assert_eq!(other.status, StatusCode::OK, "{path}");
        assert_eq!(other.bytes, keyed.bytes);
        // A malformed header is a clear 400, as on every keyed read.
        let bad = fetch(&s, path, by_key, Some("no-quotes")).await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{path}");
    }
}

#[tokio::test]
async fn a_changed_record_or_link_gives_new_bytes_and_a_new_etag() {
    let s = TestServer::start().await;
    let (id, token) = published(&s).await;
    let keyed_path = format!("/api/estimates/{id}/pdf");
    let first = fetch(&s, &format!("/c/{token}/pdf"), false, None).await;
    let first_tag = first.etag.clone().expect("an ETag");
    // The record changes: its lines.
    set_items(&s, id, "Design work, second version").await;
    let edited = fetch(&s, &format!("/c/{token}/pdf"), false, Some(&first_tag)).await;
    assert_eq!(
        edited.status,
        StatusCode::OK,
        "the old tag no longer matches"
    );
    let edited_tag = edited.etag.clone().expect("an ETag");
    assert_ne!(edited_tag, first_tag);
    assert_ne!(edited.bytes, first.bytes);
    let keyed = fetch(&s, &keyed_path, true, None).await;
    assert_eq!(keyed.etag.as_deref(), Some(edited_tag.as_str()));
    assert_eq!(keyed.bytes, edited.bytes);
    // The client's name, which lives in another table, shows in the PDF too.
    let renamed = s
        .sql()
        .await
        .execute(
            "UPDATE clients SET company_name = company_name || ' (renamed)' WHERE id = $1",
            &[&client(&s, 1)],
        )
        .await
        .unwrap();
    assert_eq!(renamed, 1);
    let after_rename = fetch(&s, &keyed_path, true, Some(&edited_tag)).await;
    assert_eq!(after_rename.status, StatusCode::OK);
    assert_ne!(after_rename.etag.as_deref(), Some(edited_tag.as_str()));
    assert_ne!(after_rename.bytes, edited.bytes);
    let edited_tag = after_rename.etag.clone().expect("an ETag");
    let edited = after_rename;
    // A new link: the PDF shows it, so new bytes and tag; the old link is gone, and its
    // PDF with it, whatever tag is named.
    let rotated = s
        .post(&format!("/api/estimates/{id}/link"), Body::None)
        .await;
    assert_eq!(rotated.status, StatusCode::CREATED, "{:?}", rotated.json);
    let new_token = token_of(rotated.data());
    let old = fetch(&s, &format!("/c/{token}/pdf"), false, Some(&edited_tag)).await;
    assert_eq!(old.status, StatusCode::NOT_FOUND);
    let linked = fetch(&s, &format!("/c/{new_token}/pdf"), false, Some(&edited_tag)).await;
    assert_eq!(linked.status, StatusCode::OK);
    let linked_tag = linked.etag.clone().expect("an ETag");
    assert_ne!(linked_tag, edited_tag);
    assert_ne!(linked.bytes, edited.bytes);
    // The client's decision changes what the PDF says, too.
    let version = crate::client::shown_version(&s, &format!("/c/{new_token}"))
        .await
        .expect("the page's decision form");
    let accepted = s
        .http
        .post(format!("{}/c/{new_token}/accept", s.base))
        .form(&[("reason", ""), ("version", &version)])
        .send()
        .await
        .unwrap();
    // (The 303 is followed to the page.)
    assert_eq!(accepted.status(), StatusCode::OK);
    let record = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(record.data()["client_response"]["decision"], "accepted");
    let decided = fetch(&s, &keyed_path, true, Some(&linked_tag)).await;
    assert_eq!(decided.status, StatusCode::OK);
    assert_ne!(decided.etag.as_deref(), Some(linked_tag.as_str()));
    // Revoked: 404 by the link; by key, the PDF without the link, again another version.
    let revoked = s.delete(&format!("/api/estimates/{id}/link")).await;
    assert_eq!(revoked.status, StatusCode::OK);
    let gone = fetch(&s, &format!("/c/{new_token}/pdf"), false, None).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    let unlinked = fetch(&s, &keyed_path, true, None).await;
    assert_ne!(unlinked.etag, decided.etag);
}

#[tokio::test]
async fn a_pdf_asked_for_again_is_served_without_rendering_it_again() {
    let s = TestServer::start().await;
    let (id, token) = published(&s).await;
    let (renders, hits, misses) = pdf_counts(&s).await;
    let public = fetch(&s, &format!("/c/{token}/pdf"), false, None).await;
    assert_eq!(pdf_counts(&s).await, (renders + 1, hits, misses + 1));
    // The same version again, by link, by key, and conditionally: no rendering.
    for _ in 0..3 {
        let again = fetch(&s, &format!("/c/{token}/pdf"), false, None).await;
        assert_eq!(again.bytes, public.bytes);
    }
    let keyed = fetch(&s, &format!("/api/estimates/{id}/pdf"), true, None).await;
    assert_eq!(keyed.bytes, public.bytes);
    let etag = public.etag.clone().unwrap();
    let unchanged = fetch(&s, &format!("/c/{token}/pdf"), false, Some(&etag)).await;
    assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED);
    assert_eq!(pdf_counts(&s).await, (renders + 1, hits + 5, misses + 1));
    // A new version is rendered once.
    set_items(&s, id, "Something else").await;
    for _ in 0..2 {
        fetch(&s, &format!("/c/{token}/pdf"), false, None).await;
    }
    assert_eq!(pdf_counts(&s).await, (renders + 2, hits + 6, misses + 2));
}

#[tokio::test]
async fn concurrent_requests_for_a_version_not_yet_rendered_render_it_once() {
    let s = TestServer::start().await;
    let (id, token) = published(&s).await;
    let (renders, ..) = pdf_counts(&s).await;
    let public = format!("/c/{token}/pdf");
    let keyed = format!("/api/estimates/{id}/pdf");
    let requests = (0..12).map(|i| {
        let (path, by_key) = if i % 3 == 0 {
            (&keyed, true)
        } else {
            (&public, false)
        };
        fetch(&s, path, by_key, None)
    });
    let answers = futures_util::future::join_all(requests).await;
    assert!(answers.iter().all(|a| a.status == StatusCode::OK));
    assert!(answers.iter().all(|a| a.bytes == answers[0].bytes));
    let (after, ..) = pdf_counts(&s).await;
    assert_eq!(after, renders + 1, "12 requests at once, one rendering");
}

#[tokio::test]
async fn with_the_cache_off_every_request_renders_and_the_etag_still_holds() {
    let s = TestServer::start_configured(
        |_| {},
        |app| {
            app.with_documents(Documents::new(Presentation {
                pdf_cache_bytes: 0,
                ..Presentation::default()
            }))
        },
    )
    .await;
    let (_, token) = published(&s).await;
    let path = format!("/c/{token}/pdf");
    let (renders, hits, _) = pdf_counts(&s).await;
    let first = fetch(&s, &path, false, None).await;
    let second = fetch(&s, &path, false, None).await;
    assert_eq!(first.etag, second.etag, "the same document, the same bytes");
    assert_eq!(first.bytes, second.bytes);
    let unchanged = fetch(&s, &path, false, first.etag.as_deref()).await;
    assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED);
    let (after, hits_after, _) = pdf_counts(&s).await;
    assert_eq!((after, hits_after), (renders + 3, hits));
}

#[tokio::test]
async fn an_invoices_pdf_changes_with_a_payment() {
    let s = TestServer::start().await;
    let (estimate, _) = published(&s).await;
    let converted = s
        .post(
            &format!("/api/estimates/{estimate}/convert-to-invoice"),
            Body::None,
        )
        .await;
    assert_eq!(
        converted.status,
        StatusCode::CREATED,
        "{:?}",
        converted.json
    );
    let id = id_of(converted.data());
    let published = s
        .put(&format!("/api/invoices/{id}/publish"), Body::None)
        .await;
    assert_eq!(published.status, StatusCode::OK, "{:?}", published.json);
    let token = token_of(published.data());
    let path = format!("/api/invoices/{id}/pdf");
    let due = fetch(&s, &path, true, None).await;
    assert_eq!(due.status, StatusCode::OK);
    let due_tag = due.etag.clone().expect("an ETag");
    let by_link = fetch(&s, &format!("/c/{token}/pdf"), false, None).await;
    assert_eq!(by_link.etag.as_deref(), Some(due_tag.as_str()));
    // A payment lives in its own table; the invoice's status in words changes with it.
    let paid = s
        .post(
            "/api/payments",
            crate::common::json(serde_json::json!({
                "payment_invoiceid": id, "payment_amount": "10.00", "payment_date": "2026-11-20"
            })),
        )
        .await;
    assert_eq!(paid.status, StatusCode::CREATED, "{:?}", paid.json);
    let part_paid = fetch(&s, &path, true, Some(&due_tag)).await;
    assert_eq!(part_paid.status, StatusCode::OK);
    assert_ne!(part_paid.etag.as_deref(), Some(due_tag.as_str()));
    assert_ne!(part_paid.bytes, due.bytes);
    let by_link = fetch(&s, &format!("/c/{token}/pdf"), false, None).await;
    assert_eq!(by_link.etag, part_paid.etag);
}
