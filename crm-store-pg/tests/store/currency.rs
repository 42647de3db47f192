//! Currencies with their own minor units in the store (API.md §18, issue 49 item 1): the
//! columns migration 0033 gives, the currency a new bill takes, a change of currency
//! checked against the stored lines, and payments judged in their invoice's currency, each
//! refusal writing nothing.

use crm_core::bill::{EstimateKind, InvoiceKind};
use crm_core::currency::Currency;
use crm_core::estimate::{EstimateUpdate, NewEstimate};
use crm_core::invoice::NewInvoice;
use crm_core::payment::NewPayment;

use crate::common::{
    Seeded, bill_patch, ctx, invalid, item, items, messages, new_bill, raw, seeded,
};

#[tokio::test]
async fn amounts_have_three_decimals_and_thirteen_digits_before_the_point() {
    let s = seeded().await;
    let c = s.sql().await;
    for (table, column) in [
        ("estimates", "final_amount"),
        ("estimates", "adjustment_amount"),
        ("invoices", "tax_total_amount"),
        ("estimate_lines", "discount_value"),
        ("invoice_lines", "total"),
        ("payments", "amount"),
    ] {
        let row = c
            .query_one(
                "SELECT numeric_precision, numeric_scale FROM information_schema.columns \
                 WHERE table_name = $1 AND column_name = $2",
                &[&table, &column],
            )
            .await
            .unwrap();
        let (precision, scale): (i32, i32) = (row.get(0), row.get(1));
        assert_eq!((precision, scale), (16, 3), "{table}.{column}");
    }
    // The list indexes on amounts survived the change of type.
    for index in [
        "estimates_final_amount_idx",
        "invoices_final_amount_idx",
        "payments_amount_idx",
    ] {
        let n = s
            .scalar(&format!(
                "SELECT count(*) FROM pg_indexes WHERE indexname = '{index}'"
            ))
            .await;
        assert_eq!(n, 1, "{index}");
    }
    // A rate comes with the currency it converts to, or not at all.
    let e = c
        .execute(
            "UPDATE invoices SET exchange_rate = 1.1 WHERE id = (SELECT min(id) FROM invoices)",
            &[],
        )
        .await
        .unwrap_err();
    let db = e.as_db_error().unwrap();
    assert_eq!(db.constraint(), Some("invoices_exchange_whole"));
}

/// A new estimate of the first seeded client with `extra` header fields.
async fn create(
    s: &Seeded,
    extra: &[(&str, &str)],
) -> Result<crm_core::estimate::Estimate, crm_store_pg::StoreError> {
    let cmd = NewEstimate::parse(&new_bill(s, "estimate", extra).await).unwrap();
    s.store.bills::<EstimateKind>().create(ctx(), &cmd).await
}

#[tokio::test]
async fn a_new_bill_takes_the_asked_currency_else_the_clients_else_the_companys() {
    let s = seeded().await;
    let create = |extra| create(&s, extra);
    assert_eq!(create(&[]).await.unwrap().currency, Currency::EUR);
    s.exec("UPDATE company SET currency = 'JPY'").await;
    let yen = create(&[]).await.unwrap();
    assert_eq!(yen.currency.code(), "JPY");
    assert_eq!(
        yen.totals.currency.figure(yen.totals.figures.final_amount),
        "0"
    );
    s.exec(&format!(
        "UPDATE clients SET currency = 'KWD' WHERE id = {}",
        s.ids.clients[0].id
    ))
    .await;
    assert_eq!(create(&[]).await.unwrap().currency.code(), "KWD");
    let asked = create(&[("bill_currency", "USD"), ("bill_exchange_rate", "150.25")]).await;
    let asked = asked.unwrap();
    assert_eq!(asked.currency.code(), "USD");
    let exchange = asked.totals.exchange.unwrap();
    assert_eq!(
        (exchange.rate.to_string(), exchange.to.code()),
        ("150.25".into(), "JPY")
    );
    // A rate on a bill in the company's own currency: nothing is written.
    let before = s.scalar("SELECT count(*) FROM estimates").await;
    let e = invalid(create(&[("bill_currency", "JPY"), ("bill_exchange_rate", "1")]).await);
    assert_eq!(
        messages(&e, "bill_exchange_rate"),
        [
            "The bill exchange rate is only allowed when the bill currency is not the company's currency (JPY)."
        ]
    );
    assert_eq!(s.scalar("SELECT count(*) FROM estimates").await, before);
}

#[tokio::test]
async fn a_new_currency_must_fit_the_stored_line_discounts_and_writes_nothing_otherwise() {
    let s = seeded().await;
    let bills = s.store.bills::<EstimateKind>();
    let cmd = NewEstimate::parse(&new_bill(&s, "estimate", &[("bill_tax_type", "inline")]).await)
        .unwrap();
    let e = bills.create(ctx(), &cmd).await.unwrap();
    let lines = items(
        vec![item(&[
            ("description", "A"),
            ("quantity", "2"),
            ("rate", "10.25"),
            ("discount_type", "fixed"),
            ("discount_value", "0.75"),
        ])],
        None,
    );
    let e = bills.replace_items(ctx(), e.id, lines).await.unwrap();
    assert_eq!(e.totals.figures.final_amount.to_string(), "19.75");
    let to = |code: &str| {
        EstimateUpdate::parse(&bill_patch(
            e.category.id.get(),
            e.dates.date,
            &[("bill_currency", code)],
        ))
        .unwrap()
    };
    let refused = invalid(bills.update(ctx(), e.id, &to("JPY")).await);
    assert_eq!(
        messages(&refused, "items.0.discount_value"),
        ["The items.0.discount value may not have more than 0 decimal places."]
    );
    assert_eq!(bills.get(ctx(), e.id).await.unwrap(), e, "nothing written");
    let kwd = bills.update(ctx(), e.id, &to("KWD")).await.unwrap();
    assert_eq!(kwd.currency.code(), "KWD");
    assert_eq!(
        kwd.totals.currency.figure(kwd.totals.figures.final_amount),
        "19.750"
    );
    let stored: String = s
        .sql()
        .await
        .query_one(
            "SELECT final_amount::text FROM estimates WHERE id = $1",
            &[&e.id.get()],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, "19.750");
}

#[tokio::test]
async fn a_payment_is_judged_in_its_invoice_currency_under_the_invoice_lock() {
    let s = seeded().await;
    let bills = s.store.bills::<InvoiceKind>();
    let cmd =
        NewInvoice::parse(&new_bill(&s, "invoice", &[("bill_currency", "JPY")]).await).unwrap();
    let i = bills.create(ctx(), &cmd).await.unwrap();
    let lines = items(
        vec![item(&[
            ("description", "A"),
            ("quantity", "1"),
            ("rate", "1500"),
        ])],
        None,
    );
    bills.replace_items(ctx(), i.id, lines).await.unwrap();
    s.exec(&format!(
        "UPDATE invoices SET status_id = 2, number = 'INV-T-1', issued_at = now() WHERE id = {}",
        i.id.get()
    ))
    .await;
    let pay = |amount: &str| {
        NewPayment::parse(&raw(&[
            ("payment_invoiceid", &i.id.get().to_string()),
            ("payment_amount", amount),
            ("payment_date", "2026-11-20"),
        ]))
        .unwrap()
    };
    let e = invalid(s.store.record_payment(ctx(), &pay("0.5")).await);
    assert_eq!(
        messages(&e, "payment_amount"),
        ["The payment amount may not have more than 0 decimal places."]
    );
    let count = format!(
        "SELECT count(*) FROM payments WHERE invoice_id = {}",
        i.id.get()
    );
    assert_eq!(s.scalar(&count).await, 0, "nothing written");
    let p = s.store.record_payment(ctx(), &pay("500")).await.unwrap();
    assert_eq!(
        (p.currency.code(), p.amount.to_string()),
        ("JPY", "500".to_owned())
    );
    let after = bills.get(ctx(), i.id).await.unwrap();
    assert_eq!(after.totals.amount_due.to_string(), "1000.00");
    let json = serde_json::to_value(&after.totals).unwrap();
    assert_eq!(
        (&json["amount_paid"], &json["amount_due"]),
        (&serde_json::json!("500"), &serde_json::json!("1000"))
    );
}
