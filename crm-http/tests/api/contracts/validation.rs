//! The validation of create and PATCH (messages of the reference), and PATCH's
//! keep-absent / clear-empty rule.

use chrono::NaiveDate;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Body, TestServer, form};

use super::{
    START, assert_invalid, clear_with_json_null, client, contract_category, create, get, id_of,
    new_contract_category, required_plus,
};

#[tokio::test]
async fn the_reference_example_error_is_reproduced_exactly_and_nothing_is_written() {
    let s = TestServer::start().await;
    let category = contract_category(&s).await.to_string();
    let a = s
        .post(
            "/api/contracts",
            form(&[
                ("doc_client_id", "999999"),
                ("doc_date_start", START),
                ("doc_categoryid", &category),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        a.json,
        json!({
            "message": "The given data was invalid.",
            "errors": {
                "doc_client_id": ["The selected doc client id is invalid."],
                "doc_title": ["The doc title field is required."]
            }
        })
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM contracts WHERE id > $1", 0)
            .await,
        0
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM estimates WHERE id > $1", 0)
            .await,
        0
    );
}

#[tokio::test]
async fn every_missing_required_field_is_reported() {
    let s = TestServer::start().await;
    let a = s
        .post("/api/contracts", form(&[("doc_title", "   ")]))
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        a.json["errors"],
        json!({
            "doc_client_id": ["The doc client id field is required."],
            "doc_title": ["The doc title field is required."],
            "doc_date_start": ["The doc date start field is required."],
            "doc_categoryid": ["The doc categoryid field is required."]
        })
    );
}

#[tokio::test]
async fn every_reference_must_exist_as_what_it_must_be() {
    let s = TestServer::start().await;
    let estimate_category = s.default_category("estimate").await.to_string();
    let body = required_plus(
        &s,
        "Refs",
        &[
            ("doc_categoryid", &estimate_category),
            ("doc_project_id", "999999"),
            ("doc_lead_id", "999999"),
            ("contract_template", "999999"),
        ],
    )
    .await;
    let a = s.post("/api/contracts", Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        a.json,
        json!({
            "message": "The given data was invalid.",
            "errors": {
                "doc_categoryid": ["The selected doc categoryid is invalid."],
                "doc_project_id": ["The selected doc project id is invalid."],
                "doc_lead_id": ["The selected doc lead id is invalid."],
                "contract_template": ["The selected contract template is invalid."]
            }
        })
    );
    // Ids that are not integers at all.
    let body = required_plus(
        &s,
        "Refs",
        &[("doc_client_id", "acme"), ("doc_project_id", "1.5")],
    )
    .await;
    let a = s.post("/api/contracts", Body::Form(body)).await;
    assert_invalid(
        &a,
        "doc_client_id",
        &["The doc client id must be an integer."],
    );
    assert_invalid(
        &a,
        "doc_project_id",
        &["The doc project id must be an integer."],
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM contracts WHERE id > $1", 0)
            .await,
        0
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM estimates WHERE id > $1", 0)
            .await,
        0
    );
}

#[tokio::test]
async fn the_end_date_may_equal_but_not_precede_the_start() {
    let s = TestServer::start().await;
    let body = required_plus(&s, "Backwards", &[("doc_date_end", "2026-05-31")]).await;
    let a = s.post("/api/contracts", Body::Form(body)).await;
    assert_invalid(
        &a,
        "doc_date_end",
        &["The doc date end must be a date after or equal to doc date start."],
    );
    assert_eq!(
        a.json["errors"].as_object().unwrap().len(),
        1,
        "{:?}",
        a.json
    );
    let same_day = create(&s, "One day", &[("doc_date_end", START)]).await;
    assert_eq!(same_day["dates"]["end"], START);
}

#[tokio::test]
async fn titles_values_and_dates_are_validated_with_the_laravel_messages() {
    let s = TestServer::start().await;
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "doc_title",
            "x".repeat(251),
            "The doc title may not be greater than 250 characters.",
        ),
        (
            "doc_title",
            "<b>Bold</b> deal".into(),
            "The doc title must not contain any HTML.",
        ),
        (
            "doc_title",
            "<script>alert(1)</script>".into(),
            "The doc title must not contain any HTML.",
        ),
        (
            "doc_value",
            "12.345".into(),
            "The doc value may not have more than 2 decimal places.",
        ),
        (
            "doc_value",
            "lots".into(),
            "The doc value must be a number.",
        ),
        (
            "doc_value",
            "10000000000000".into(),
            "The doc value must be between -9999999999999.99 and 9999999999999.99.",
        ),
        (
            "doc_date_start",
            "2026-02-30".into(),
            "The doc date start is not a valid date.",
        ),
        (
            "doc_date_start",
            "01/06/2026".into(),
            "The doc date start is not a valid date.",
        ),
        (
            "doc_date_end",
            "2026-13-01".into(),
            "The doc date end is not a valid date.",
        ),
    ];
    for (field, value, message) in cases {
        let body = required_plus(&s, "Valid title", &[(field, value.as_str())]).await;
        let a = s.post("/api/contracts", Body::Form(body)).await;
        assert_invalid(&a, field, &[message]);
    }
    assert_eq!(
        s.scalar("SELECT count(*) FROM contracts WHERE id > $1", 0)
            .await,
        0
    );

    // The limits themselves are accepted; a lone `<` is not HTML.
    let long = "y".repeat(250);
    assert_eq!(
        create(&s, &long, &[("doc_value", "9999999999999.99")]).await["title"],
        long.as_str()
    );
    assert_eq!(create(&s, "a < b", &[]).await["title"], "a < b");
}

#[tokio::test]
async fn an_update_keeps_absent_optional_fields_and_clears_empty_ones() {
    let s = TestServer::start().await;
    let full = [
        ("doc_date_end", "2026-12-31"),
        ("doc_value", "5000"),
        ("doc_body", "<p>Terms</p>"),
    ];
    let c = create(&s, "Service Agreement", &full).await;
    let id = id_of(&c);
    let path = format!("/api/contracts/{id}");

    // Only the required fields: the optional ones stay.
    let body = required_plus(
        &s,
        "Service Agreement v2",
        &[("doc_date_start", "2026-06-02")],
    )
    .await;
    let a = s.patch(&path, Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Contract updated successfully.");
    assert_eq!(a.data()["title"], "Service Agreement v2");
    assert_eq!(a.data()["dates"]["start"], "2026-06-02");
    assert_eq!(a.data()["dates"]["end"], "2026-12-31");
    assert_eq!(a.data()["value"], "5000.00");
    assert_eq!(a.data()["body"], "<p>Terms</p>");
    assert_eq!(&get(&s, id).await, a.data());

    // New values are set.
    let body = required_plus(
        &s,
        "v3",
        &[
            ("doc_date_end", "2027-01-31"),
            ("doc_value", "7500.25"),
            ("doc_body", "<p>New</p>"),
        ],
    )
    .await;
    let a = s.patch(&path, Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(
        (
            &a.data()["dates"]["end"],
            &a.data()["value"],
            &a.data()["body"]
        ),
        (
            &json!("2027-01-31"),
            &json!("7500.25"),
            &json!("<p>New</p>")
        )
    );

    // Sent empty: cleared.
    let body = required_plus(
        &s,
        "v4",
        &[("doc_date_end", ""), ("doc_value", ""), ("doc_body", "")],
    )
    .await;
    let a = s.patch(&path, Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(
        (
            &a.data()["dates"]["end"],
            &a.data()["value"],
            &a.data()["body"]
        ),
        (&Value::Null, &Value::Null, &Value::Null)
    );
    let row = s
        .sql()
        .await
        .query_one(
            "SELECT date_end, value::text, body FROM contracts WHERE id = $1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, Option<NaiveDate>>(0), None);
    assert_eq!(row.get::<_, Option<String>>(1), None);
    assert_eq!(row.get::<_, Option<String>>(2), None);

    // JSON null clears too.
    clear_with_json_null(&s, id).await;
}

#[tokio::test]
async fn an_update_checks_a_kept_end_date_against_the_new_start() {
    let s = TestServer::start().await;
    let c = create(&s, "Short", &[("doc_date_end", "2026-06-30")]).await;
    let id = id_of(&c);
    let body = required_plus(&s, "Moved", &[("doc_date_start", "2026-07-01")]).await;
    let a = s
        .patch(&format!("/api/contracts/{id}"), Body::Form(body))
        .await;
    assert_invalid(
        &a,
        "doc_date_end",
        &["The doc date end must be a date after or equal to doc date start."],
    );
    assert_eq!(get(&s, id).await, c);

    // Clearing the end date at the same time makes the move valid.
    let body = required_plus(
        &s,
        "Moved",
        &[("doc_date_start", "2026-07-01"), ("doc_date_end", "")],
    )
    .await;
    let a = s
        .patch(&format!("/api/contracts/{id}"), Body::Form(body))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(
        a.data()["dates"],
        json!({"start": "2026-07-01", "end": null, "created": c["dates"]["created"], "published": null})
    );
}

#[tokio::test]
async fn an_update_validates_its_fields_and_writes_nothing_when_refused() {
    let s = TestServer::start().await;
    let c = create(&s, "Original", &[("doc_value", "10")]).await;
    let id = id_of(&c);
    let path = format!("/api/contracts/{id}");

    let a = s.patch(&path, form(&[("doc_value", "20")])).await;
    assert_eq!(
        a.json["errors"],
        json!({
            "doc_title": ["The doc title field is required."],
            "doc_date_start": ["The doc date start field is required."],
            "doc_categoryid": ["The doc categoryid field is required."]
        })
    );

    let estimate_category = s.default_category("estimate").await.to_string();
    let body = required_plus(
        &s,
        "<i>Changed</i>",
        &[
            ("doc_categoryid", &estimate_category),
            ("doc_value", "1.001"),
            ("doc_date_end", "2026-05-01"),
        ],
    )
    .await;
    let a = s.patch(&path, Body::Form(body)).await;
    assert_invalid(
        &a,
        "doc_title",
        &["The doc title must not contain any HTML."],
    );
    assert_invalid(
        &a,
        "doc_categoryid",
        &["The selected doc categoryid is invalid."],
    );
    assert_invalid(
        &a,
        "doc_value",
        &["The doc value may not have more than 2 decimal places."],
    );
    assert_invalid(
        &a,
        "doc_date_end",
        &["The doc date end must be a date after or equal to doc date start."],
    );
    assert_eq!(get(&s, id).await, c);

    // The client cannot be changed by PATCH (the field is not part of it and is ignored).
    let body = required_plus(
        &s,
        "Same client",
        &[("doc_client_id", &client(&s, 1).to_string())],
    )
    .await;
    let a = s.patch(&path, Body::Form(body)).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.data()["client"]["id"], client(&s, 0));
}

#[tokio::test]
async fn an_update_can_move_the_contract_to_another_contract_category() {
    let s = TestServer::start().await;
    let premium = new_contract_category(&s, "Premium").await;
    let c = create(&s, "Movable", &[]).await;
    let body = required_plus(&s, "Movable", &[("doc_categoryid", &premium.to_string())]).await;
    let a = s
        .patch(&format!("/api/contracts/{}", id_of(&c)), Body::Form(body))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(
        a.data()["category"],
        json!({"id": premium, "name": "Premium"})
    );
}
