//! `/api/tax-rates` (API.md §17): CRUD in the three encodings, the VAT category's defaults
//! and rules, a rate in use keeping its rate and category, and the system rate.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, assert_errors, assert_page, form, json as body, multipart};

#[tokio::test]
async fn every_encoding_creates_a_rate_with_its_default_category() {
    let s = TestServer::start().await;
    let cases = [
        ("json", body(json!({"name": "VAT 19%", "rate": 19})), "S"),
        ("form", form(&[("name", "Zero"), ("rate", "0")]), "Z"),
        (
            "multipart",
            multipart(&[
                ("name", "Reverse charge"),
                ("rate", "0.00"),
                ("vat_category", "AE"),
                ("exemption_code", "VATEX-EU-AE"),
            ]),
            "AE",
        ),
    ];
    for (encoding, b, category) in cases {
        let a = s.post("/api/tax-rates", b).await;
        assert_eq!(a.status, StatusCode::CREATED, "{encoding}: {}", a.json);
        assert_eq!(a.message(), "Tax rate created successfully.");
        assert_eq!(a.data()["vat_category"], category, "{encoding}");
        assert_eq!(
            (a.data()["in_use"].as_bool(), a.data()["system"].as_bool()),
            (Some(false), Some(false))
        );
        let path = format!("/api/tax-rates/{}", a.data()["id"]);
        let a = s.patch(&path, form(&[("name", "Renamed")])).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        assert_eq!(a.data()["vat_category"], category, "kept");
        let a = s.delete(&path).await;
        assert_eq!(
            a.status,
            StatusCode::OK,
            "an unused rate is deleted: {}",
            a.json
        );
    }
    let a = s.get("/api/tax-rates?vat_category=Z&limit=100").await;
    assert_page(
        &a,
        "Tax rates retrieved successfully.",
        1,
        100,
        a.json["meta"]["total"].as_i64().unwrap(),
    );
    assert!(
        a.data()
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["vat_category"] == "Z")
    );
}

#[tokio::test]
async fn an_exempt_category_needs_its_reason_and_every_error_comes_at_once() {
    let s = TestServer::start().await;
    let a = s
        .post(
            "/api/tax-rates",
            body(json!({"name": "<b>x</b>", "rate": "101", "vat_category": "Q"})),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "name": ["The name must not contain any HTML."],
            "rate": ["The rate must be between 0 and 100."],
            "vat_category": ["The selected vat category is invalid."]
        }),
    );
    let a = s
        .post(
            "/api/tax-rates",
            body(json!({"name": "Exempt", "rate": "5", "vat_category": "E"})),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "exemption_reason": ["The exemption reason field is required when vat category is E."],
            "rate": ["The rate must be 0 when vat category is E."]
        }),
    );
}

#[tokio::test]
async fn a_rate_in_use_keeps_its_rate_and_category_and_is_not_deleted() {
    let s = TestServer::start().await;
    let rate = s
        .created("/api/tax-rates", json!({"name": "VAT 20%", "rate": "20"}))
        .await;
    let category = s.default_category("estimate").await;
    let estimate = s
        .created(
            "/api/estimates",
            json!({"bill_clientid": crate::common::client(&s, 0), "bill_categoryid": category, "bill_date": "2026-11-01"}),
        )
        .await;
    let a = s
        .put(
            &format!("/api/estimates/{estimate}/items"),
            body(json!({"items": [{"description": "Work", "quantity": 1, "rate": 100}], "tax_rate_ids": [rate]})),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let path = format!("/api/tax-rates/{rate}");
    assert_eq!(s.get(&path).await.data()["in_use"], true);
    for change in [json!({"rate": "19"}), json!({"vat_category": "L"})] {
        let a = s.patch(&path, body(change)).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);
        assert_eq!(a.message(), "Tax rate is in use.");
    }
    assert_eq!(s.delete(&path).await.message(), "Tax rate is in use.");
    // The same rate, a new name, or disabling it are fine.
    let a = s
        .patch(
            &path,
            body(json!({"rate": "20.00", "name": "VAT", "status": "disabled"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["status"], "disabled");
}

#[tokio::test]
async fn the_system_rate_stays() {
    let s = TestServer::start().await;
    let a = s.get("/api/tax-rates/1").await;
    assert_eq!(
        (
            a.data()["system"].as_bool(),
            a.data()["vat_category"].as_str()
        ),
        (Some(true), Some("Z"))
    );
    let a = s.delete("/api/tax-rates/1").await;
    assert_eq!(a.status, StatusCode::CONFLICT);
    assert_eq!(
        a.message(),
        "The system tax rate cannot be changed or deleted."
    );
    let a = s
        .patch(
            "/api/tax-rates/1",
            body(json!({"rate": "5", "vat_category": "S"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT);
    assert_eq!(
        s.get("/api/tax-rates/999999").await.message(),
        "Tax rate not found."
    );
}
