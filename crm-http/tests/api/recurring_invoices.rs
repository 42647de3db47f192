//! `/api/recurring-invoices` (API.md §20): a schedule and its template in the three
//! encodings, every failing field named (the template's by the invoice's own rules, in the
//! template's words) with nothing written, PATCH of the fields sent, delete, and the list
//! of what a schedule made.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{TestServer, assert_errors, assert_page, form, json as body, multipart};

/// A valid schedule of client 1 in the default invoice category, with `more` fields.
pub(crate) async fn schedule(s: &TestServer, more: Value) -> Value {
    let category = s.default_category("invoice").await;
    let mut b = json!({
        "client_id": s.ids.clients[0].id, "category_id": category,
        "frequency": "monthly", "start_date": "2026-01-31", "notes": "Retainer",
        "items": [{"description": "Retainer", "quantity": 2, "rate": "50"}]
    });
    if let (Some(b), Value::Object(more)) = (b.as_object_mut(), more) {
        b.extend(more);
    }
    b
}

#[tokio::test]
async fn every_encoding_creates_a_schedule_that_shows_its_template_and_next_date() {
    let s = TestServer::start().await;
    let category = s.default_category("invoice").await.to_string();
    let client = s.ids.clients[0].id.to_string();
    let fields = [
        ("client_id", client.as_str()),
        ("category_id", category.as_str()),
        ("frequency", "quarterly"),
        ("interval", "2"),
        ("start_date", "2026-03-31"),
        ("count", "4"),
        ("due_days", "10"),
        ("auto_publish", "1"),
        ("catch_up", "all"),
        ("timezone", "America/New_York"),
        ("items[0][description]", "Hosting"),
        ("items[0][quantity]", "1"),
        ("items[0][rate]", "19.99"),
    ];
    let cases = [
        ("json", body(schedule(&s, json!({"frequency": "quarterly", "interval": 2, "start_date": "2026-03-31", "count": 4, "due_days": 10, "auto_publish": true, "catch_up": "all", "timezone": "America/New_York"})).await)),
        ("form", form(&fields)),
        ("multipart", multipart(&fields)),
    ];
    for (encoding, b) in cases {
        let a = s.post("/api/recurring-invoices", b).await;
        assert_eq!(a.status, StatusCode::CREATED, "{encoding}: {}", a.json);
        assert_eq!(a.message(), "Recurring invoice created successfully.");
        let d = a.data();
        assert_eq!(
            d["client_id"],
            json!(s.ids.clients[0].id),
            "{encoding}: ids are numbers"
        );
        assert_eq!(
            (&d["frequency"], &d["interval"], &d["count"], &d["due_days"]),
            (&json!("quarterly"), &json!(2), &json!(4), &json!(10)),
            "{encoding}"
        );
        assert_eq!(
            (
                &d["auto_publish"],
                &d["catch_up"],
                &d["status"],
                &d["timezone"]
            ),
            (
                &json!(true),
                &json!("all"),
                &json!("active"),
                &json!("America/New_York")
            )
        );
        assert_eq!(d["next_date"], "2026-03-31");
        assert_eq!(d["invoices_made"], 0);
        assert_eq!(d["items"].as_array().map(Vec::len), Some(1));
        let path = format!("/api/recurring-invoices/{}", d["id"]);
        let a = s.get(&path).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        assert_eq!(a.message(), "Recurring invoice retrieved successfully.");
    }
    let a = s.get("/api/recurring-invoices?status=active&limit=2").await;
    assert_page(&a, "Recurring invoices retrieved successfully.", 1, 2, 3);
}

#[tokio::test]
async fn a_schedule_defaults_to_monthly_terms_in_the_companys_time_zone() {
    let s = TestServer::start().await;
    let a = s
        .patch("/api/company", body(json!({"timezone": "Europe/Berlin"})))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let a = s
        .post(
            "/api/recurring-invoices",
            body(schedule(&s, json!({})).await),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let d = a.data();
    assert_eq!(
        (
            &d["timezone"],
            &d["interval"],
            &d["due_days"],
            &d["catch_up"],
            &d["auto_publish"]
        ),
        (
            &json!("Europe/Berlin"),
            &json!(1),
            &json!(30),
            &json!("latest"),
            &json!(false)
        )
    );
    assert_eq!((&d["end_date"], &d["count"]), (&Value::Null, &Value::Null));
}

#[tokio::test]
async fn every_failing_field_is_named_and_nothing_is_written() {
    let s = TestServer::start().await;
    let estimate_category = s.default_category("estimate").await;
    let bad = schedule(
        &s,
        json!({
            "frequency": "daily", "interval": 0, "start_date": "2026-02-30",
            "timezone": "Europe/Atlantis", "category_id": estimate_category,
            "status": "finished", "auto_publish": "maybe",
            "items": [{"description": "", "quantity": "-1", "rate": "x"}]
        }),
    )
    .await;
    let a = s.post("/api/recurring-invoices", body(bad)).await;
    assert_errors(
        &a,
        json!({
            "frequency": ["The selected frequency is invalid."],
            "interval": ["The interval must be between 1 and 1000."],
            "start_date": ["The start date is not a valid date."],
            "timezone": ["The selected timezone is invalid."],
            "category_id": ["The selected category id is invalid."],
            "status": ["The selected status is invalid."],
            "auto_publish": ["The auto publish field must be true or false."],
            "items.0.description": ["The items.0.description field is required."],
            "items.0.quantity": ["The items.0.quantity must be greater than 0."],
            "items.0.rate": ["The items.0.rate must be a number."]
        }),
    );
    let a = s
        .post(
            "/api/recurring-invoices",
            body(schedule(&s, json!({"end_date": "2026-01-01", "count": 3})).await),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "count": ["The count field is prohibited when end date is present."],
            "end_date": ["The end date must be a date after or equal to start date."]
        }),
    );
    let a = s
        .post(
            "/api/recurring-invoices",
            body(json!({"frequency": "weekly", "start_date": "2026-01-01"})),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "client_id": ["The client id field is required."],
            "category_id": ["The category id field is required."],
            "items": ["The items field is required."]
        }),
    );
    let rows = s
        .scalar("SELECT count(*) FROM recurring_invoices WHERE id > $1", 0)
        .await;
    assert_eq!(rows, 0);
    let invoices = s
        .scalar("SELECT count(*) FROM invoices WHERE id > $1", 0)
        .await;
    assert_eq!(
        invoices,
        s.ids.invoices.len() as i64,
        "the check's invoice is rolled back"
    );
}

#[tokio::test]
async fn a_patch_changes_the_fields_sent_and_a_delete_keeps_the_invoices() {
    let s = TestServer::start().await;
    let id = s
        .created("/api/recurring-invoices", schedule(&s, json!({})).await)
        .await;
    let path = format!("/api/recurring-invoices/{id}");
    let a = s
        .patch(&path, form(&[("status", "paused"), ("notes", "Changed")]))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.message(), "Recurring invoice updated successfully.");
    assert_eq!(
        (&a.data()["status"], &a.data()["notes"]),
        (&json!("paused"), &json!("Changed"))
    );
    assert_eq!(a.data()["frequency"], "monthly", "kept");
    let a = s
        .patch(&path, body(json!({"end_date": "2025-12-31"})))
        .await;
    assert_errors(
        &a,
        json!({"end_date": ["The end date must be a date after or equal to start date."]}),
    );
    let a = s.patch(&path, body(json!({"client_id": 999_999}))).await;
    assert_errors(
        &a,
        json!({"client_id": ["The selected client id is invalid."]}),
    );
    let a = s.get(&format!("{path}/invoices")).await;
    assert_page(&a, "Invoices retrieved successfully.", 1, 35, 0);
    let a = s.delete(&path).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.message(), "Recurring invoice deleted successfully.");
    let a = s.get(&path).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert_eq!(a.message(), "Recurring invoice not found.");
    let a = s.get(&format!("{path}/invoices")).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_companys_reminder_steps_are_set_shown_in_order_and_checked() {
    let s = TestServer::start().await;
    let a = s
        .patch(
            "/api/company",
            form(&[
                ("reminders[]", "30"),
                ("reminders[]", "-3"),
                ("reminders[]", "7"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["reminders"], json!([-3, 7, 30]));
    let a = s
        .patch("/api/company", body(json!({"reminders": [7, 400, 7]})))
        .await;
    assert_errors(
        &a,
        json!({
            "reminders.1": ["The reminders.1 must be between -365 and 365."],
            "reminders.2": ["The reminders.2 field has a duplicate value."]
        }),
    );
    let a = s.get("/api/company").await;
    assert_eq!(a.data()["reminders"], json!([-3, 7, 30]), "nothing written");
    let a = s
        .patch("/api/company", body(json!({"reminders": null})))
        .await;
    assert_eq!(a.data()["reminders"], json!([]), "{}", a.json);
}
