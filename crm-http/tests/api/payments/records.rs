//! Recording, reading, listing and deleting payments, in every body encoding, with the
//! contract's messages.

use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::json;

use super::{balance, listed, published, shown};
use crate::common::{
    TestServer, assert_invalid, assert_page, assert_timestamp, client, form, json, keys, multipart,
};

#[tokio::test]
async fn every_encoding_records_the_same_payment_and_the_invoice_follows() {
    let s = TestServer::start().await;
    let invoice = published(&s, 0, "300").await;
    let id = invoice.to_string();
    let fields = [
        ("payment_invoiceid", id.as_str()),
        ("payment_amount", "100"),
        ("payment_date", "2026-11-20"),
        ("payment_method", "Bank transfer"),
        ("payment_transaction_id", "TX-42"),
        ("payment_notes", "First third"),
    ];
    let bodies = [
        ("form", form(&fields)),
        ("multipart", multipart(&fields)),
        (
            "json",
            json(
                json!({"payment_invoiceid": invoice, "payment_amount": 100, "payment_date": "2026-11-20",
                "payment_method": "Bank transfer", "payment_transaction_id": "TX-42", "payment_notes": "First third"}),
            ),
        ),
    ];
    let expected_status = [
        (4, "100.00", "200.00"),
        (4, "200.00", "100.00"),
        (5, "300.00", "0.00"),
    ];
    let mut recorded = Vec::new();
    for ((encoding, body), (status, paid, due)) in bodies.into_iter().zip(expected_status) {
        let a = s.post("/api/payments", body).await;
        assert_eq!(a.status, StatusCode::CREATED, "{encoding}: {}", a.json);
        assert_eq!(a.message(), "Payment recorded successfully.");
        assert!(a.headers.contains_key("etag"), "{encoding}");
        let p = a.data().clone();
        assert_eq!(
            keys(&p),
            [
                "amount",
                "client",
                "creator_id",
                "currency",
                "date",
                "dates",
                "id",
                "invoice_id",
                "method",
                "notes",
                "transaction_id"
            ]
        );
        assert_eq!(p["invoice_id"], invoice);
        assert_eq!(
            p["client"],
            json!({"id": client(&s, 0), "name": "Acme Inc"})
        );
        assert_eq!(
            (
                &p["amount"],
                &p["date"],
                &p["method"],
                &p["transaction_id"],
                &p["notes"]
            ),
            (
                &json!("100.00"),
                &json!("2026-11-20"),
                &json!("Bank transfer"),
                &json!("TX-42"),
                &json!("First third")
            )
        );
        assert_eq!(p["creator_id"], 1);
        assert_timestamp(&p["dates"]["created"]);
        assert_eq!(
            balance(&s, invoice).await,
            shown(status, paid, due),
            "{encoding}"
        );
        recorded.push(p);
    }
    let first = recorded[0]["id"].as_i64().unwrap();
    let a = s.get(&format!("/api/payments/{first}")).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.message(), "Payment retrieved successfully.");
    assert_eq!(a.data(), &recorded[0]);
    // Paid in full: nothing more is taken.
    let a = s
        .post(
            "/api/payments",
            json(json!({"payment_invoiceid": invoice, "payment_amount": "0.01", "payment_date": "2026-11-21"})),
        )
        .await;
    assert_invalid(
        &a,
        "payment_amount",
        &["The payment amount may not be greater than the amount due."],
    );
    // Deleted: 200 with the id, the invoice Part Paid again, then 404.
    let a = s.delete(&format!("/api/payments/{first}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(
        a.json,
        json!({"data": {"id": first}, "message": "Payment deleted successfully."})
    );
    assert_eq!(balance(&s, invoice).await, shown(4, "200.00", "100.00"));
    for path in [
        format!("/api/payments/{first}"),
        "/api/payments/abc".to_owned(),
    ] {
        let a = s.get(&path).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND);
        assert_eq!(a.json, json!({"message": "Payment not found."}));
        let a = s.delete(&path).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn a_bad_payment_names_every_failing_field_with_the_contracts_messages() {
    let s = TestServer::start().await;
    let invoice = published(&s, 0, "50").await;
    let a = s.post("/api/payments", json(json!({}))).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        a.json["errors"],
        json!({
            "payment_invoiceid": ["The payment invoiceid field is required."],
            "payment_amount": ["The payment amount field is required."],
            "payment_date": ["The payment date field is required."]
        })
    );
    // Over the amount due and a bad date: both at once.
    let a = s
        .post(
            "/api/payments",
            form(&[
                ("payment_invoiceid", &invoice.to_string()),
                ("payment_amount", "50.01"),
                ("payment_date", "2026-02-30"),
                ("payment_method", &"m".repeat(101)),
            ]),
        )
        .await;
    assert_eq!(
        a.json["errors"],
        json!({
            "payment_amount": ["The payment amount may not be greater than the amount due."],
            "payment_date": ["The payment date is not a valid date."],
            "payment_method": ["The payment method may not be greater than 100 characters."]
        })
    );
    // A draft invoice, a cancelled one, an unknown one.
    let category = s.default_category("invoice").await;
    let draft = s
        .created(
            "/api/invoices",
            json!({"bill_clientid": client(&s, 0), "bill_categoryid": category, "bill_date": "2026-11-01"}),
        )
        .await;
    // Cancelled before it was issued (an issued one is not cancelled by hand, API.md §18).
    let cancelled = s
        .created(
            "/api/invoices",
            json!({"bill_clientid": client(&s, 0), "bill_categoryid": category, "bill_date": "2026-11-01"}),
        )
        .await;
    let a = s
        .put(
            &format!("/api/invoices/{cancelled}/status"),
            json(json!({"status": 20})),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    for (bad, message) in [
        (
            draft,
            "The invoice must be published before a payment is recorded.",
        ),
        (cancelled, "A cancelled invoice takes no payment."),
        (999_999, "The selected payment invoiceid is invalid."),
    ] {
        let a = s
            .post(
                "/api/payments",
                multipart(&[
                    ("payment_invoiceid", &bad.to_string()),
                    ("payment_amount", "1"),
                    ("payment_date", "2026-11-20"),
                ]),
            )
            .await;
        assert_invalid(&a, "payment_invoiceid", &[message]);
        assert_eq!(a.errors("payment_amount"), Vec::<String>::new());
    }
    for (amount, message) in [
        ("0", "The payment amount must be greater than 0."),
        ("-3", "The payment amount must be greater than 0."),
        (
            "1.005",
            "The payment amount may not have more than 2 decimal places.",
        ),
        ("lots", "The payment amount must be a number."),
    ] {
        let a = s
            .post(
                "/api/payments",
                json(json!({"payment_invoiceid": invoice, "payment_amount": amount, "payment_date": "2026-11-20"})),
            )
            .await;
        assert_invalid(&a, "payment_amount", &[message]);
    }
    assert_eq!(balance(&s, invoice).await, shown(2, "0.00", "50.00"));
}

#[tokio::test]
async fn eight_concurrent_requests_record_exactly_the_payments_that_fit() {
    let s = TestServer::start().await;
    let invoice = published(&s, 0, "100").await;
    let sent = (0..8).map(|_| {
        s.post(
            "/api/payments",
            json(json!({"payment_invoiceid": invoice, "payment_amount": "30.00", "payment_date": "2026-11-20"})),
        )
    });
    let answers = join_all(sent).await;
    let created = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 3);
    for a in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_invalid(
            a,
            "payment_amount",
            &["The payment amount may not be greater than the amount due."],
        );
    }
    assert_eq!(balance(&s, invoice).await, shown(4, "90.00", "10.00"));
}

#[tokio::test]
async fn the_list_filters_searches_sorts_and_pages() {
    let s = TestServer::start().await;
    let seeded = s.ids.payments[0];
    let acme = published(&s, 0, "1000").await;
    let globex = published(&s, 1, "1000").await;
    let mut made = Vec::new();
    for (invoice, amount, date, method) in [
        (acme, "10", "2026-11-10", "Card"),
        (acme, "20", "2026-11-12", "Bank transfer"),
        (globex, "30", "2026-11-11", "Cash"),
    ] {
        let a = s
            .post(
                "/api/payments",
                json(json!({"payment_invoiceid": invoice, "payment_amount": amount, "payment_date": date, "payment_method": method})),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED);
        made.push(a.data()["id"].as_i64().unwrap());
    }
    let [a, b, c] = made[..] else { unreachable!() };
    let page = s.get("/api/payments").await;
    assert_page(&page, "Payments retrieved successfully.", 1, 35, 4);
    assert_eq!(listed(&page), [c, b, a, seeded]);
    let q = |query: &str| {
        let s = &s;
        let query = query.to_owned();
        async move { listed(&s.get(&format!("/api/payments?{query}")).await) }
    };
    assert_eq!(q(&format!("invoice_id={acme}")).await, [b, a]);
    assert_eq!(q(&format!("client_id={}", client(&s, 1))).await, [c]);
    assert_eq!(q("date_from=2026-11-11&date_to=2026-11-12").await, [c, b]);
    assert_eq!(q("search=CARD").await, [a]);
    assert_eq!(q("search=transfer").await, [b, seeded]);
    assert_eq!(q("sort=payment_amount&order=asc").await, [a, b, c, seeded]);
    assert_eq!(q("sort=payment_date&order=asc").await, [seeded, a, c, b]);
    assert_eq!(q("sort=payment_created").await, [c, b, a, seeded]);
    let page = s.get("/api/payments?limit=3&page=2").await;
    assert_page(&page, "Payments retrieved successfully.", 2, 3, 4);
    assert_eq!(listed(&page), [seeded]);
    let a = s
        .get("/api/payments?date_from=2026-11-12&date_to=2026-11-11&sort=bill_date")
        .await;
    assert_invalid(
        &a,
        "date_to",
        &["The date to must be a date after or equal to date from."],
    );
    assert_eq!(a.errors("sort"), ["The selected sort is invalid."]);
}
