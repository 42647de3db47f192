//! `/api/company` (API.md §17): the seller's identity, read with its defaults and changed
//! field by field in the three encodings; bad codes are refused all at once with nothing
//! written; `If-Match` guards it like any record.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Body, TestServer, assert_errors, form, multipart};

#[tokio::test]
async fn the_company_shows_its_defaults_until_it_is_set() {
    let s = TestServer::start().await;
    let a = s.get("/api/company").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.message(), "Company retrieved successfully.");
    let d = a.data();
    assert_eq!(d["trading_name"], "CRM", "the --company-name fallback");
    assert_eq!(d["currency"], "EUR");
    assert_eq!(d["timezone"], serde_json::Value::Null);
    assert_eq!(d["address"]["country"], serde_json::Value::Null);
    assert!(a.headers.get("etag").is_some());
}

#[tokio::test]
async fn every_encoding_changes_only_the_fields_sent() {
    let s = TestServer::start().await;
    let a = s
        .patch(
            "/api/company",
            crate::common::json(json!({
                "legal_name": "Acme Software GmbH",
                "address": {"line1": "Hauptstraße 1", "city": "Berlin", "postcode": "10115", "country": "DE"},
                "vat_id": "de 123 456 789",
                "bank": {"iban": "DE89 3704 0044 0532 0130 00", "bic": "COBADEFFXXX"},
                "peppol": {"scheme": "9930", "id": "DE123456789"},
                "currency": "CHF",
                "timezone": "Europe/Berlin"
            })),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.message(), "Company updated successfully.");
    let d = a.data();
    assert_eq!(d["vat_id"], "DE123456789", "spaces removed, upper case");
    assert_eq!(d["bank"]["iban"], "DE89370400440532013000");
    assert_eq!(d["address"]["city"], "Berlin");

    // Form: one member of a group; the rest stays.
    let a = s
        .patch(
            "/api/company",
            form(&[("address[city]", "München"), ("trading_name", "Acme")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let d = a.data();
    assert_eq!(
        (
            d["address"]["city"].as_str(),
            d["address"]["line1"].as_str()
        ),
        (Some("München"), Some("Hauptstraße 1"))
    );
    assert_eq!(d["trading_name"], "Acme");
    assert_eq!(d["legal_name"], "Acme Software GmbH");

    // Multipart: an empty field clears it; an empty group clears every member.
    let a = s
        .patch(
            "/api/company",
            multipart(&[
                ("vat_id", ""),
                ("bank", ""),
                ("payment_terms", "14 days net"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let d = a.data();
    assert_eq!(d["vat_id"], serde_json::Value::Null);
    assert_eq!(
        d["bank"],
        json!({"iban": null, "bic": null, "account_name": null})
    );
    assert_eq!(d["payment_terms"], "14 days net");
    assert_eq!(d["currency"], "CHF");

    // JSON null clears too; a cleared trading name falls back to --company-name.
    let a = s
        .patch(
            "/api/company",
            crate::common::json(json!({"trading_name": null, "currency": null})),
        )
        .await;
    assert_eq!(
        (
            a.data()["trading_name"].as_str(),
            a.data()["currency"].as_str()
        ),
        (Some("CRM"), Some("EUR"))
    );
}

#[tokio::test]
async fn bad_codes_are_refused_together_and_nothing_is_written() {
    let s = TestServer::start().await;
    let before = s.get("/api/company").await.json;
    let a = s
        .patch(
            "/api/company",
            crate::common::json(json!({
                "legal_name": "Changed",
                "address": {"country": "Germany"},
                "bank": {"iban": "DE88370400440532013000"},
                "vat_id": "123456789",
                "currency": "EURO",
                "timezone": "Europe/Atlantis",
                "email": "billing",
                "peppol": {"scheme": "99"}
            })),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "address.country": ["The selected address.country is invalid."],
            "bank.iban": ["The bank.iban must be a valid IBAN."],
            "vat_id": ["The vat id must be a valid VAT identifier with its country prefix."],
            "currency": ["The selected currency is invalid."],
            "timezone": ["The selected timezone is invalid."],
            "email": ["The email must be a valid email address."],
            "peppol.scheme": ["The peppol.scheme format is invalid."]
        }),
    );
    assert_eq!(s.get("/api/company").await.json, before);
}

#[tokio::test]
async fn a_stale_if_match_is_refused() {
    let s = TestServer::start().await;
    let etag = s.get("/api/company").await.headers["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    let patch = |name: &'static str| crate::common::json(json!({"legal_name": name}));
    let first = s
        .call_with(
            &s.key,
            Method::PATCH,
            "/api/company",
            patch("Mine"),
            &[("if-match", &etag)],
        )
        .await;
    assert_eq!(first.status, StatusCode::OK);
    let second = s
        .call_with(
            &s.key,
            Method::PATCH,
            "/api/company",
            patch("Theirs"),
            &[("if-match", &etag)],
        )
        .await;
    assert_eq!(second.status, StatusCode::PRECONDITION_FAILED);
    assert_eq!(s.get("/api/company").await.data()["legal_name"], "Mine");
    let _ = Body::None;
}
