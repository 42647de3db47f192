//! Concurrent writes to one estimate: item replacements never mix, and an estimate converts
//! exactly once.

use crm_core::money::{Money, Percent, Quantity, UnitRate};
use crm_core::totals::{HeaderDiscount, Line, LineDiscount, Policy, TaxMode, TotalsInput, compute};
use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{Encoding, Item, create, get, id_of, items_body, patch, put_items, tax_rate};
use crate::common::{Body, TestServer};

/// Line set `k`: `k + 2` lines with figures of their own.
fn line_set(k: usize) -> Vec<(String, String, String)> {
    (0..k + 2)
        .map(|j| {
            (
                format!("Set {k} line {j}"),
                format!("{}.{}", j + 1, (k * 3 + j) % 10),
                format!("{}.{:02}", 10 + 7 * k + j, (13 * k + 29 * j) % 100),
            )
        })
        .collect()
}

/// The totals crm-core computes for line set `k` under the estimate's header (10 %
/// percentage discount, one 10 % rate, adjustment −1.25), as the API shows them.
fn expected_totals(k: usize) -> Value {
    let lines = line_set(k)
        .into_iter()
        .map(|(_, q, r)| Line {
            quantity: q.parse::<Quantity>().unwrap(),
            rate: r.parse::<UnitRate>().unwrap(),
            discount: LineDiscount::None,
            tax_rate: None,
            vat: None,
        })
        .collect();
    let input = TotalsInput {
        tax_mode: TaxMode::Summary,
        lines,
        tax_rates: vec!["10".parse::<Percent>().unwrap()],
        discount: HeaderDiscount::Percentage("10".parse::<Percent>().unwrap()),
        adjustment: "-1.25".parse::<Money>().unwrap(),
        minor_units: crm_core::money::MinorUnits::TWO,
    };
    let computed = compute(&input, Policy::CrmParity).unwrap();
    let mut totals = serde_json::to_value(computed.totals).unwrap();
    totals["adjustment_description"] = Value::Null;
    // A bill in the company's own currency: no VAT total in another.
    totals["company_currency"] = Value::Null;
    totals["tax_total_in_company_currency"] = Value::Null;
    // The adjustment (−1.25) is not a rounding amount: EN 16931 cannot state these totals.
    totals["tax_breakdown"] = Value::Null;
    json!({"totals": totals, "lines": computed.lines.iter().map(|l| l.total.to_string()).collect::<Vec<_>>()})
}

/// The line set an answer shows, checked whole: which `k`, after asserting its lines and
/// totals are exactly that set's.
fn shown_set(data: &Value) -> usize {
    let lines = data["line_items"].as_array().unwrap();
    let first = lines[0]["description"].as_str().unwrap();
    let k: usize = first
        .trim_start_matches("Set ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let want = line_set(k);
    let expected = expected_totals(k);
    assert_eq!(lines.len(), want.len(), "set {k}: {lines:?}");
    for (j, (line, (d, q, r))) in lines.iter().zip(&want).enumerate() {
        assert_eq!(line["description"], d.as_str());
        assert_eq!(
            line["quantity"]
                .as_str()
                .unwrap()
                .parse::<Quantity>()
                .unwrap(),
            q.parse::<Quantity>().unwrap()
        );
        assert_eq!(
            line["rate"].as_str().unwrap().parse::<UnitRate>().unwrap(),
            r.parse::<UnitRate>().unwrap()
        );
        assert_eq!(line["position"], j + 1);
        assert_eq!(line["total"], expected["lines"][j]);
    }
    assert_eq!(data["totals"], expected["totals"], "set {k}");
    assert_eq!(data["taxes"].as_array().unwrap().len(), 1);
    k
}

#[tokio::test]
async fn parallel_item_replacements_leave_exactly_one_whole_line_set() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let p = patch(
        &s,
        id,
        &[
            ("bill_discount_type", "percentage"),
            ("bill_discount_percentage", "10"),
            ("bill_adjustment_amount", "-1.25"),
        ],
    )
    .await;
    assert_eq!(p.status, StatusCode::OK, "{:?}", p.json);
    let gst = tax_rate(&s, "GST 10%");
    let encodings = [
        Encoding::Form,
        Encoding::Json,
        Encoding::Multipart,
        Encoding::RawBrackets,
        Encoding::JsonStrings,
    ];
    let requests = (0..10).map(|k| {
        let items: Vec<Item> = line_set(k)
            .into_iter()
            .map(|(d, q, r)| vec![("description", d), ("quantity", q), ("rate", r)])
            .collect();
        let body = items_body(encodings[k % encodings.len()], &items, &[gst]);
        let s = &s;
        async move { (k, put_items(s, id, body).await) }
    });
    let answers = join_all(requests).await;
    for (k, a) in &answers {
        assert_eq!(a.status, StatusCode::OK, "set {k}: {:?}", a.json);
        assert_eq!(shown_set(a.data()), *k, "each answer shows its own set");
    }
    // The totals of the ten sets differ, so the final figures name one set.
    let finals: std::collections::BTreeSet<String> = (0..10)
        .map(|k| expected_totals(k)["totals"]["final_amount"].to_string())
        .collect();
    assert_eq!(finals.len(), 10);

    let last = get(&s, id).await;
    let k = shown_set(&last);
    assert!(k < 10);
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_lines WHERE estimate_id = $1",
            id
        )
        .await,
        i64::try_from(k + 2).unwrap()
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM estimate_taxes WHERE estimate_id = $1",
            id
        )
        .await,
        1
    );
}

#[tokio::test]
async fn parallel_conversions_create_exactly_one_invoice() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let lines = [vec![
        ("description", "Design".to_owned()),
        ("quantity", "2".to_owned()),
        ("rate", "100".to_owned()),
    ]];
    assert_eq!(
        put_items(&s, id, items_body(Encoding::Form, &lines, &[]))
            .await
            .status,
        StatusCode::OK
    );
    let path = format!("/api/estimates/{id}/convert-to-invoice");
    let answers = join_all((0..5).map(|_| s.post(&path, Body::None))).await;
    let created: Vec<_> = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .collect();
    assert_eq!(created.len(), 1, "{answers:?}");
    for a in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_eq!(a.status, StatusCode::CONFLICT, "{:?}", a.json);
        assert_eq!(
            a.json,
            json!({"message": "Estimate has already been converted to an invoice."})
        );
    }
    assert_eq!(
        s.scalar("SELECT count(*) FROM invoices WHERE estimate_id = $1", id)
            .await,
        1
    );
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM invoices WHERE estimate_id IS NOT NULL AND $1::bigint > 0",
            1
        )
        .await,
        1
    );
    let invoice = id_of(created[0].data());
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM invoice_lines WHERE invoice_id = $1",
            invoice
        )
        .await,
        1
    );
    assert_eq!(
        get(&s, id).await["converted"],
        json!({"is_converted": true, "invoice_id": invoice})
    );
}

#[tokio::test]
async fn parallel_publishes_publish_once_and_queue_one_email() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let path = format!("/api/estimates/{id}/publish");
    let answers = join_all((0..5).map(|_| s.put(&path, Body::None))).await;
    let published = answers
        .iter()
        .filter(|a| a.status == StatusCode::OK)
        .count();
    assert_eq!(published, 1, "{answers:?}");
    for a in answers.iter().filter(|a| a.status != StatusCode::OK) {
        assert_eq!(a.status, StatusCode::CONFLICT, "{:?}", a.json);
        assert_eq!(
            a.json,
            json!({"message": "Estimate has already been published."})
        );
    }
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM email_queue WHERE estimate_id = $1",
            id
        )
        .await,
        1
    );
    assert_eq!(get(&s, id).await["status"], "new");
}
