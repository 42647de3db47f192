//! Currencies with their own minor units (API.md §18, issue 49 item 1), end to end: the
//! default currency of a new bill, amounts computed, validated and written with the
//! currency's decimals (`JPY` 0, `EUR` 2, `KWD` 3), a change of currency on a draft, the
//! exchange rate and the VAT total in the company's currency, the lock of an issued
//! invoice, conversion and clone, payments in the invoice's currency, and the client's
//! page and email. Every refused request writes nothing.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Body, TestServer, assert_errors, client, json as body};

/// Creates an estimate or invoice (`area`: `estimates`, `invoices`) for client `n` with the
/// extra header fields `extra`; the answer's `data`.
async fn bill(s: &TestServer, area: &str, n: usize, extra: Value) -> Value {
    let kind = area.trim_end_matches('s');
    let mut fields = json!({
        "bill_clientid": client(s, n),
        "bill_categoryid": s.default_category(kind).await,
        "bill_date": "2026-11-01",
    });
    for (k, v) in extra.as_object().unwrap() {
        fields[k] = v.clone();
    }
    let a = s.post(&format!("/api/{area}"), body(fields)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    a.data().clone()
}

/// `PUT …/items` with `items` (and `tax_rate_ids`), asserting 200; the record.
async fn items(s: &TestServer, area: &str, id: i64, lines: Value) -> Value {
    let a = s.put(&format!("/api/{area}/{id}/items"), body(lines)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    a.data().clone()
}

/// A PATCH of the header of bill `id` with `fields` besides its category and date.
async fn patch(s: &TestServer, area: &str, id: i64, fields: Value) -> crate::common::Answer {
    let kind = area.trim_end_matches('s');
    let mut all = json!({
        "bill_categoryid": s.default_category(kind).await,
        "bill_date": "2026-11-01",
    });
    for (k, v) in fields.as_object().unwrap() {
        all[k] = v.clone();
    }
    s.patch(&format!("/api/{area}/{id}"), body(all)).await
}

/// A tax rate of `rate` percent; its id.
async fn tax_rate(s: &TestServer, rate: &str) -> i64 {
    s.created(
        "/api/tax-rates",
        json!({"name": format!("VAT {rate}%"), "rate": rate}),
    )
    .await
}

/// The record at `path` as the API shows it now.
async fn record(s: &TestServer, path: &str) -> Value {
    let a = s.get(path).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    a.data().clone()
}

#[tokio::test]
async fn a_new_bill_takes_the_asked_currency_else_the_clients_else_the_companys_else_eur() {
    let s = TestServer::start().await;
    for area in ["estimates", "invoices"] {
        let e = bill(&s, area, 0, json!({})).await;
        assert_eq!(
            (&e["currency"], &e["exchange_rate"]),
            (&json!("EUR"), &Value::Null)
        );
        assert_eq!(e["totals"]["final_amount"], "0.00", "{area}");
        assert_eq!(e["totals"]["company_currency"], Value::Null);
        assert_eq!(e["totals"]["tax_total_in_company_currency"], Value::Null);
    }
    let a = s
        .patch("/api/company", body(json!({"currency": "JPY"})))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let c = client(&s, 1);
    let a = s
        .patch(
            &format!("/api/clients/{c}"),
            body(json!({"currency": "KWD"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    for area in ["estimates", "invoices"] {
        let company = bill(&s, area, 0, json!({})).await;
        assert_eq!(company["currency"], "JPY", "{area}");
        assert_eq!(company["totals"]["final_amount"], "0", "{area}");
        let client = bill(&s, area, 1, json!({})).await;
        assert_eq!(client["currency"], "KWD", "{area}");
        assert_eq!(client["totals"]["subtotal"], "0.000", "{area}");
        let asked = bill(&s, area, 1, json!({"bill_currency": "USD"})).await;
        assert_eq!(asked["currency"], "USD", "{area}");
        assert_eq!(asked["totals"]["final_amount"], "0.00", "{area}");
    }
}

#[tokio::test]
async fn an_unknown_currency_or_a_rate_in_the_company_currency_is_named_and_nothing_is_written() {
    let s = TestServer::start().await;
    let count = "SELECT count(*) FROM estimates WHERE id > $1";
    let before = s.scalar(count, 0).await;
    let category = s.default_category("estimate").await;
    for code in ["ZZZ", "XAU", "eur", "CLF"] {
        let a = s
            .post(
                "/api/estimates",
                body(
                    json!({"bill_clientid": client(&s, 0), "bill_categoryid": category,
                    "bill_date": "2026-11-01", "bill_currency": code, "bill_exchange_rate": "0"}),
                ),
            )
            .await;
        assert_errors(
            &a,
            json!({
                "bill_currency": ["The selected bill currency is invalid."],
                "bill_exchange_rate": ["The bill exchange rate must be greater than 0."]
            }),
        );
    }
    // A rate on a bill in the company's own currency (EUR: never set).
    let a = s
        .post(
            "/api/estimates",
            body(
                json!({"bill_clientid": client(&s, 0), "bill_categoryid": category,
                "bill_date": "2026-11-01", "bill_exchange_rate": "1.1"}),
            ),
        )
        .await;
    assert_errors(
        &a,
        json!({"bill_exchange_rate": [
            "The bill exchange rate is only allowed when the bill currency is not the company's currency (EUR)."
        ]}),
    );
    assert_eq!(s.scalar(count, 0).await, before, "nothing written");
}

#[tokio::test]
async fn amounts_are_computed_and_written_with_the_currency_decimals() {
    let s = TestServer::start().await;
    let vat = tax_rate(&s, "10").await;
    // Yen: 1.5 × 999 = 1498.5 → 1499 (the double is the exact tie); VAT 149.9 → 150.
    let yen = bill(&s, "estimates", 0, json!({"bill_currency": "JPY"})).await;
    let id = yen["id"].as_i64().unwrap();
    let e = items(
        &s,
        "estimates",
        id,
        json!({"items": [{"description": "Design", "quantity": "1.5", "rate": "999"}], "tax_rate_ids": [vat]}),
    )
    .await;
    assert_eq!(e["line_items"][0]["total"], "1499");
    assert_eq!(
        e["line_items"][0]["discount"],
        json!({"type": "none", "value": "0", "amount": "0"})
    );
    let t = &e["totals"];
    assert_eq!(
        (
            &t["subtotal"],
            &t["tax_total_amount"],
            &t["tax_total_percentage"],
            &t["final_amount"]
        ),
        (
            &json!("1499"),
            &json!("150"),
            &json!("10.00"),
            &json!("1649")
        )
    );
    // Dinars: 3 × 4.1675 = 12.5025 → 12.503 (the double 12.502500000000001 rounds up too).
    let dinar = bill(&s, "invoices", 0, json!({"bill_currency": "KWD"})).await;
    let id = dinar["id"].as_i64().unwrap();
    let i = items(
        &s,
        "invoices",
        id,
        json!({"items": [{"description": "Audit", "quantity": "3", "rate": "4.1675"}]}),
    )
    .await;
    assert_eq!(i["line_items"][0]["total"], "12.503");
    let a = patch(
        &s,
        "invoices",
        id,
        json!({"bill_adjustment_amount": "-0.125"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let t = &a.data()["totals"];
    assert_eq!(
        (
            &t["adjustment_amount"],
            &t["final_amount"],
            &t["amount_paid"],
            &t["amount_due"]
        ),
        (
            &json!("-0.125"),
            &json!("12.378"),
            &json!("0.000"),
            &json!("12.378")
        )
    );
}

#[tokio::test]
async fn more_decimals_than_the_currency_has_is_named_and_nothing_is_written() {
    let s = TestServer::start().await;
    let yen = bill(
        &s,
        "estimates",
        0,
        json!({"bill_currency": "JPY", "bill_tax_type": "inline"}),
    )
    .await;
    let id = yen["id"].as_i64().unwrap();
    let path = format!("/api/estimates/{id}");
    let before = record(&s, &path).await;
    let a = patch(
        &s,
        "estimates",
        id,
        json!({"bill_adjustment_amount": "0.5", "bill_discount_amount": "1.5"}),
    )
    .await;
    assert_errors(
        &a,
        json!({
            "bill_adjustment_amount": ["The bill adjustment amount may not have more than 0 decimal places."],
            "bill_discount_amount": ["The bill discount amount may not have more than 0 decimal places."]
        }),
    );
    let a = s
        .put(
            &format!("{path}/items"),
            body(json!({"items": [
                {"description": "A", "quantity": "1", "rate": "100", "discount_type": "fixed", "discount_value": "10"},
                {"description": "B", "quantity": "1", "rate": "100", "discount_type": "fixed", "discount_value": "0.5"}
            ]})),
        )
        .await;
    assert_errors(
        &a,
        json!({"items.1.discount_value": ["The items.1.discount value may not have more than 0 decimal places."]}),
    );
    assert_eq!(record(&s, &path).await, before, "nothing written");
    // A third decimal in euros; three are fine in dinars.
    let euro = bill(&s, "estimates", 0, json!({})).await["id"]
        .as_i64()
        .unwrap();
    let a = patch(
        &s,
        "estimates",
        euro,
        json!({"bill_adjustment_amount": "1.125"}),
    )
    .await;
    assert_errors(
        &a,
        json!({"bill_adjustment_amount": ["The bill adjustment amount may not have more than 2 decimal places."]}),
    );
    let dinar = bill(&s, "estimates", 0, json!({"bill_currency": "KWD"})).await["id"]
        .as_i64()
        .unwrap();
    let a = patch(
        &s,
        "estimates",
        dinar,
        json!({"bill_adjustment_amount": "1.125"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["totals"]["final_amount"], "1.125");
}

#[tokio::test]
async fn a_new_currency_on_a_draft_recomputes_its_totals_when_its_amounts_fit() {
    let s = TestServer::start().await;
    let e = bill(&s, "estimates", 0, json!({"bill_tax_type": "inline"})).await;
    let id = e["id"].as_i64().unwrap();
    let path = format!("/api/estimates/{id}");
    items(
        &s,
        "estimates",
        id,
        json!({"items": [{"description": "A", "quantity": "1.5", "rate": "10.01",
            "discount_type": "fixed", "discount_value": "1.50"}]}),
    )
    .await;
    let before = record(&s, &path).await;
    assert_eq!(before["totals"]["final_amount"], "13.52");
    let a = patch(&s, "estimates", id, json!({"bill_currency": "JPY"})).await;
    assert_errors(
        &a,
        json!({"items.0.discount_value": ["The items.0.discount value may not have more than 0 decimal places."]}),
    );
    assert_eq!(record(&s, &path).await, before, "nothing written");
    // Into dinars the same amounts fit: 15.015 − 1.5 = 13.515.
    let a = patch(&s, "estimates", id, json!({"bill_currency": "KWD"})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["currency"], "KWD");
    assert_eq!(a.data()["line_items"][0]["discount"]["value"], "1.500");
    assert_eq!(a.data()["totals"]["final_amount"], "13.515");
    // Whole amounts fit yen: 15.015 − 2 = 13.015 → 13.
    items(
        &s,
        "estimates",
        id,
        json!({"items": [{"description": "A", "quantity": "1.5", "rate": "10.01",
            "discount_type": "fixed", "discount_value": "2"}]}),
    )
    .await;
    let a = patch(&s, "estimates", id, json!({"bill_currency": "JPY"})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["line_items"][0]["total"], "13");
    assert_eq!(a.data()["totals"]["final_amount"], "13");
}

#[tokio::test]
async fn an_exchange_rate_shows_the_vat_total_in_the_company_currency_and_is_locked_on_issue() {
    let s = TestServer::start().await;
    let vat = tax_rate(&s, "20").await;
    let i = bill(
        &s,
        "invoices",
        0,
        json!({"bill_currency": "USD", "bill_exchange_rate": "0.9215"}),
    )
    .await;
    let id = i["id"].as_i64().unwrap();
    assert_eq!(i["exchange_rate"], "0.9215");
    let i = items(
        &s,
        "invoices",
        id,
        json!({"items": [{"description": "Support", "quantity": "3", "rate": "33.33"}], "tax_rate_ids": [vat]}),
    )
    .await;
    // 99.99 × 20 % = 19.998 → 20.00 USD; 20.00 × 0.9215 = 18.43 EUR.
    let t = &i["totals"];
    assert_eq!(
        (
            &t["tax_total_amount"],
            &t["company_currency"],
            &t["tax_total_in_company_currency"]
        ),
        (&json!("20.00"), &json!("EUR"), &json!("18.43"))
    );
    // Settable until issue; cleared by an empty value.
    let a = patch(&s, "invoices", id, json!({"bill_exchange_rate": "0.93"})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["totals"]["tax_total_in_company_currency"], "18.60");
    let a = patch(&s, "invoices", id, json!({"bill_exchange_rate": ""})).await;
    assert_eq!(a.data()["exchange_rate"], Value::Null);
    assert_eq!(
        a.data()["totals"]["tax_total_in_company_currency"],
        Value::Null
    );
    let a = patch(&s, "invoices", id, json!({"bill_exchange_rate": "0.9215"})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    // Into the company's currency, the rate has nothing left to convert.
    let a = patch(
        &s,
        "invoices",
        id,
        json!({"bill_currency": "EUR", "bill_exchange_rate": "1"}),
    )
    .await;
    assert!(
        a.errors("bill_exchange_rate")[0].starts_with("The bill exchange rate is only allowed")
    );
    let a = s
        .put(&format!("/api/invoices/{id}/publish"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let path = format!("/api/invoices/{id}");
    let issued = record(&s, &path).await;
    for change in [
        json!({"bill_exchange_rate": "0.95"}),
        json!({"bill_exchange_rate": ""}),
        json!({"bill_currency": "GBP"}),
    ] {
        let a = patch(&s, "invoices", id, change.clone()).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{change}: {}", a.json);
        assert_eq!(
            a.message(),
            "An issued invoice cannot be changed. Issue a credit note instead."
        );
    }
    // The same values sent again are no change: the notes may still move.
    let a = patch(
        &s,
        "invoices",
        id,
        json!({"bill_currency": "USD", "bill_exchange_rate": "0.9215", "bill_notes": "Thanks",
            "bill_due_date": issued["dates"]["due_date"]}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["totals"], issued["totals"]);
    // The company now keeps its books in dollars: the issued invoice still states its rate
    // to euros, and its notes may still change.
    let company = s
        .patch("/api/company", body(json!({"currency": "USD"})))
        .await;
    assert_eq!(company.status, StatusCode::OK, "{}", company.json);
    let a = patch(&s, "invoices", id, json!({"bill_notes": "Thank you"})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(a.data()["exchange_rate"], "0.9215");
    assert_eq!(a.data()["totals"]["company_currency"], "EUR");
    assert_eq!(a.data()["totals"], issued["totals"]);
}

#[tokio::test]
async fn conversion_and_clone_copy_the_currency_and_rate() {
    let s = TestServer::start().await;
    let e = bill(
        &s,
        "estimates",
        0,
        json!({"bill_currency": "JPY", "bill_exchange_rate": "0.0061"}),
    )
    .await;
    let id = e["id"].as_i64().unwrap();
    let vat = tax_rate(&s, "10").await;
    let e = items(
        &s,
        "estimates",
        id,
        json!({"items": [{"description": "A", "quantity": "2", "rate": "1250"}], "tax_rate_ids": [vat]}),
    )
    .await;
    assert_eq!(e["totals"]["tax_total_in_company_currency"], "1.53");
    let a = s
        .post(
            &format!("/api/estimates/{id}/convert-to-invoice"),
            Body::None,
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let i = a.data().clone();
    assert_eq!(
        (&i["currency"], &i["exchange_rate"]),
        (&json!("JPY"), &json!("0.0061"))
    );
    for member in [
        "subtotal",
        "tax_total_amount",
        "final_amount",
        "tax_total_in_company_currency",
    ] {
        assert_eq!(i["totals"][member], e["totals"][member], "{member}");
    }
    assert_eq!(i["line_items"][0]["total"], "2500");
    let invoice = i["id"].as_i64().unwrap();
    let a = s
        .post(
            &format!("/api/invoices/{invoice}/clone"),
            body(json!({"bill_clientid": client(&s, 1), "bill_date": "2026-11-02", "bill_due_date": "2026-12-02"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(
        (&a.data()["currency"], &a.data()["totals"]["final_amount"]),
        (&json!("JPY"), &json!("2750"))
    );
    let a = s
        .post(
            &format!("/api/estimates/{id}/clone"),
            body(json!({"bill_clientid": client(&s, 1), "bill_categoryid": s.default_category("estimate").await,
                "bill_date": "2026-11-02"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(
        (&a.data()["currency"], &a.data()["exchange_rate"]),
        (&json!("JPY"), &json!("0.0061"))
    );
}

/// A published invoice of one line of `rate` in `currency`; its id.
async fn published_in(s: &TestServer, currency: &str, rate: &str) -> i64 {
    let i = bill(s, "invoices", 0, json!({"bill_currency": currency})).await;
    let id = i["id"].as_i64().unwrap();
    items(
        s,
        "invoices",
        id,
        json!({"items": [{"description": "Work", "quantity": "1", "rate": rate}]}),
    )
    .await;
    let a = s
        .put(&format!("/api/invoices/{id}/publish"), Body::None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    id
}

#[tokio::test]
async fn payments_are_in_their_invoice_currency() {
    let s = TestServer::start().await;
    let yen = published_in(&s, "JPY", "1500").await;
    let count = "SELECT count(*) FROM payments WHERE invoice_id = $1";
    let pay = |invoice: i64, amount: &str| {
        body(
            json!({"payment_invoiceid": invoice, "payment_amount": amount, "payment_date": "2026-11-20"}),
        )
    };
    let a = s.post("/api/payments", pay(yen, "100.5")).await;
    assert_errors(
        &a,
        json!({"payment_amount": ["The payment amount may not have more than 0 decimal places."]}),
    );
    assert_eq!(s.scalar(count, yen).await, 0, "nothing written");
    let a = s.post("/api/payments", pay(yen, "100")).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(
        (&a.data()["amount"], &a.data()["currency"]),
        (&json!("100"), &json!("JPY"))
    );
    let t = record(&s, &format!("/api/invoices/{yen}")).await["totals"].clone();
    assert_eq!(
        (&t["amount_paid"], &t["amount_due"]),
        (&json!("100"), &json!("1400"))
    );
    let listed = s.get(&format!("/api/payments?invoice_id={yen}")).await;
    assert_eq!(listed.data()[0]["currency"], "JPY");
    assert_eq!(listed.data()[0]["amount"], "100");
    let dinar = published_in(&s, "KWD", "10").await;
    let a = s.post("/api/payments", pay(dinar, "1.125")).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(a.data()["amount"], "1.125");
    let a = s.post("/api/payments", pay(dinar, "1.0005")).await;
    assert_errors(
        &a,
        json!({"payment_amount": ["The payment amount may not have more than 3 decimal places."]}),
    );
    let t = record(&s, &format!("/api/invoices/{dinar}")).await["totals"].clone();
    assert_eq!(
        (&t["amount_paid"], &t["amount_due"]),
        (&json!("1.125"), &json!("8.875"))
    );
}

/// The composed text of the email queued for invoice `id` (composed after the commit:
/// waits for it a little).
async fn email_text(s: &TestServer, id: i64) -> String {
    for _ in 0..100 {
        let row = s
            .sql()
            .await
            .query_opt(
                "SELECT b.body_text FROM email_queue q JOIN email_bodies b ON b.id = q.body_id \
                 WHERE q.resource_type = 'invoice' AND q.resource_id = $1",
                &[&id],
            )
            .await
            .unwrap();
        if let Some(text) = row.and_then(|r| r.get::<_, Option<String>>(0)) {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no email composed for invoice {id}");
}

#[tokio::test]
async fn the_clients_page_and_email_show_the_amounts_with_symbol_and_code() {
    let s = TestServer::start().await;
    for (currency, rate, shown) in [
        ("KWD", "12.5", "12.500 KWD"),
        ("JPY", "1500", "¥1500 JPY"),
        ("EUR", "12.5", "€12.50 EUR"),
    ] {
        let id = published_in(&s, currency, rate).await;
        let i = record(&s, &format!("/api/invoices/{id}")).await;
        let text = email_text(&s, id).await;
        assert!(
            text.contains(&format!("Total: {shown}")),
            "{currency}: {text}"
        );
        assert!(
            text.contains(&format!("Amount due: {shown}, by ")),
            "{currency}: {text}"
        );
        let link = i["client_link"]["url"].as_str().unwrap();
        let token = link.rsplit_once("/c/").unwrap().1;
        let page = reqwest::get(format!("{}/c/{token}", s.base))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            page.contains(&format!("<th scope=\"row\">Total</th><td>{shown}</td>")),
            "{currency}: {page}"
        );
        let pdf = s.get(&format!("/api/invoices/{id}/pdf")).await;
        assert_eq!(pdf.status, StatusCode::OK, "{currency}");
    }
}
