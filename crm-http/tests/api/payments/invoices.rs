//! What payments do to their invoice over HTTP: `totals.amount_paid` and `amount_due`, the
//! status, items and PATCH below what was paid (422), deletion with payments (409), and a
//! status set by hand (409 unless it agrees with the payments).

use reqwest::StatusCode;
use serde_json::json;

use super::{balance, pay, published, shown};
use crate::common::{TestServer, assert_invalid, json};

#[tokio::test]
async fn an_invoices_totals_show_what_was_paid_and_what_is_due() {
    let s = TestServer::start().await;
    // The seeded Paid invoice carries its payment.
    let paid = s.ids.invoices[0];
    let a = s.get(&format!("/api/invoices/{paid}")).await;
    let totals = &a.data()["totals"];
    assert_eq!(
        (
            &totals["final_amount"],
            &totals["amount_paid"],
            &totals["amount_due"]
        ),
        (&json!("2637.34"), &json!("2637.34"), &json!("0.00"))
    );
    assert_eq!(a.data()["status"]["title"], "Paid");
    // Every invoice of the list shows both.
    let list = s.get("/api/invoices").await;
    for invoice in list.data().as_array().unwrap() {
        let t = &invoice["totals"];
        assert!(
            t["amount_paid"].is_string() && t["amount_due"].is_string(),
            "{invoice}"
        );
    }
    let id = published(&s, 0, "80").await;
    let before = s.get(&format!("/api/invoices/{id}")).await;
    pay(&s, id, "30").await;
    let after = s.get(&format!("/api/invoices/{id}")).await;
    assert_ne!(
        before.headers["etag"], after.headers["etag"],
        "the invoice's ETag moves"
    );
    assert_eq!(balance(&s, id).await, shown(4, "30.00", "50.00"));
    assert_eq!(
        after.data()["status"],
        json!({"id": 4, "title": "Part Paid", "color": "warning"})
    );
    // The status filter sees it.
    let a = s.get("/api/invoices?status=4").await;
    assert!(crate::common::ids(&a).contains(&id));
}

#[tokio::test]
async fn items_or_a_patch_below_what_was_paid_are_refused_and_above_it_move_the_status() {
    let s = TestServer::start().await;
    let id = pay_in_full(&s).await;
    unnumbered(&s, id).await;
    let items = |rate: &str| {
        json(json!({"items": [{"description": "Work", "quantity": "1", "rate": rate}]}))
    };
    let a = s
        .put(&format!("/api/invoices/{id}/items"), items("99.99"))
        .await;
    assert_invalid(
        &a,
        "items",
        &["The invoice total may not be less than the amount paid."],
    );
    assert_eq!(balance(&s, id).await, shown(5, "100.00", "0.00"));
    let a = s
        .put(&format!("/api/invoices/{id}/items"), items("125"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["status"]["id"], 4);
    assert_eq!(a.data()["totals"]["amount_due"], "25.00");
    let category = s.default_category("invoice").await;
    let patch = |extra: serde_json::Value| {
        let mut body = json!({"bill_categoryid": category, "bill_date": "2026-11-01"});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        json(body)
    };
    let a = s
        .patch(
            &format!("/api/invoices/{id}"),
            patch(json!({"bill_adjustment_amount": "-25.01"})),
        )
        .await;
    assert_invalid(
        &a,
        "bill_adjustment_amount",
        &["The invoice total may not be less than the amount paid."],
    );
    let a = s
        .patch(
            &format!("/api/invoices/{id}"),
            patch(json!({"bill_adjustment_amount": "-25"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(balance(&s, id).await, shown(5, "100.00", "0.00"));
}

/// Makes invoice `id` one published before numbers were given (migration 0031): open and
/// unnumbered, so not locked; what keeps it consistent are its balance's rules.
async fn unnumbered(s: &TestServer, id: i64) {
    s.sql()
        .await
        .execute(
            "UPDATE invoices SET number = NULL, issued_at = NULL WHERE id = $1",
            &[&id],
        )
        .await
        .unwrap();
}

/// A published invoice of 100.00, paid in full; its id.
async fn pay_in_full(s: &TestServer) -> i64 {
    let id = published(s, 0, "100").await;
    pay(s, id, "100").await;
    assert_eq!(balance(s, id).await, shown(5, "100.00", "0.00"));
    id
}

#[tokio::test]
async fn an_invoice_with_payments_is_not_deleted_and_its_status_follows_them() {
    let s = TestServer::start().await;
    let id = published(&s, 0, "100").await;
    unnumbered(&s, id).await;
    let payment = pay(&s, id, "40").await["id"].as_i64().unwrap();
    let a = s.delete(&format!("/api/invoices/{id}")).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);
    assert_eq!(a.json, json!({"message": "Invoice has payments."}));
    for (status, message) in [
        (1, "Invoice has payments."),
        (20, "Invoice has payments."),
        (2, "Invoice status follows its payments."),
        (5, "Invoice status follows its payments."),
    ] {
        let a = s
            .put(
                &format!("/api/invoices/{id}/status"),
                json(json!({"status": status})),
            )
            .await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{status}: {}", a.json);
        assert_eq!(a.json, json!({"message": message}));
    }
    let a = s
        .put(
            &format!("/api/invoices/{id}/status"),
            json(json!({"status": 4})),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(balance(&s, id).await, shown(4, "40.00", "60.00"));
    let a = s.delete(&format!("/api/payments/{payment}")).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(balance(&s, id).await, shown(2, "0.00", "100.00"));
    let a = s
        .put(
            &format!("/api/invoices/{id}/status"),
            json(json!({"status": 5})),
        )
        .await;
    assert_eq!(
        a.json,
        json!({"message": "Invoice status follows its payments."})
    );
    let a = s.delete(&format!("/api/invoices/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
}
