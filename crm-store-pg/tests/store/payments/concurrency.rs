//! Concurrent payments of one invoice: the invoice row's lock judges them one after the
//! other, so those that fit are recorded and the others refused, and what the invoice
//! shows is the sum of what was recorded.

use crm_core::bill::InvoiceKind;
use crm_core::invoice::InvoiceStatus;
use crm_store_pg::StoreError;

use super::{assert_consistent, payment, published, read};
use crate::common::{ctx, messages, seeded};

/// Sends `amounts` as concurrent payments of one invoice of `total`; returns how many were
/// recorded and asserts that every refusal is the amount-due 422.
async fn race(
    s: &crate::common::Seeded,
    invoice: crm_core::ids::InvoiceId,
    amounts: &[&str],
) -> Vec<String> {
    let commands: Vec<_> = amounts.iter().map(|a| payment(invoice, a, &[])).collect();
    let results = futures_util::future::join_all(
        commands
            .iter()
            .map(|cmd| s.store.record_payment(ctx(), cmd)),
    )
    .await;
    let mut recorded = Vec::new();
    for result in results {
        match result {
            Ok(p) => recorded.push(p.amount.to_string()),
            Err(StoreError::Invalid(errors)) => assert_eq!(
                messages(&errors, "payment_amount"),
                ["The payment amount may not be greater than the amount due."]
            ),
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    recorded
}

#[tokio::test]
async fn eight_concurrent_payments_that_exceed_the_amount_due_record_exactly_those_that_fit() {
    let s = seeded().await;
    // 8 × 15.00 = 120.00 against 100.00 due: exactly six fit, whichever they are.
    let i = published(&s, "1", "100").await;
    let recorded = race(&s, i.id, &["15.00"; 8]).await;
    assert_eq!(recorded.len(), 6, "{recorded:?}");
    let shown = read(&s, i.id).await;
    assert_eq!(shown.totals.amount_paid.to_string(), "90.00");
    assert_eq!(shown.totals.amount_due.to_string(), "10.00");
    assert_eq!(shown.status, InvoiceStatus::PartPaid);
    assert_consistent(&s, i.id).await;

    // Different amounts (sum 140.00 against 100.00): whatever the order, the recorded ones
    // never pass the total, and one that would still fit was not refused.
    let i = published(&s, "1", "100").await;
    let amounts = [
        "40.00", "30.00", "25.00", "20.00", "10.00", "7.50", "5.00", "2.50",
    ];
    let recorded = race(&s, i.id, &amounts).await;
    let paid: f64 = recorded.iter().map(|a| a.parse::<f64>().unwrap()).sum();
    assert!(paid <= 100.0, "{recorded:?}");
    let due = 100.0 - paid;
    for refused in amounts
        .iter()
        .filter(|a| !recorded.contains(&(**a).to_owned()))
    {
        assert!(
            refused.parse::<f64>().unwrap() > due - 1e-9,
            "{refused} fitted in {due}"
        );
    }
    assert_consistent(&s, i.id).await;

    // 8 × 12.50 = 100.00 exactly: all fit, and the invoice is Paid.
    let i = published(&s, "1", "100").await;
    assert_eq!(race(&s, i.id, &["12.50"; 8]).await.len(), 8);
    let shown = read(&s, i.id).await;
    assert_eq!(
        (shown.status, shown.totals.amount_due.to_string()),
        (InvoiceStatus::Paid, "0.00".to_owned())
    );
    assert_consistent(&s, i.id).await;
}

#[tokio::test]
async fn concurrent_payments_deletions_and_item_changes_keep_the_invoice_consistent() {
    let s = seeded().await;
    // Unnumbered (published before numbers), so that its items may change.
    let i = super::legacy(&s, "1", "100").await;
    let mut kept = Vec::new();
    for _ in 0..4 {
        kept.push(
            s.store
                .record_payment(ctx(), &payment(i.id, "10", &[]))
                .await
                .unwrap(),
        );
    }
    let lines = |rate: &str| {
        crate::common::items(
            vec![crate::common::item(&[
                ("description", "Work"),
                ("quantity", "1"),
                ("rate", rate),
            ])],
            None,
        )
    };
    for round in 0..4 {
        let deleted = kept.pop().unwrap();
        let pay = payment(i.id, "25", &[]);
        let (d, p1, p2, items) = tokio::join!(
            s.store.delete_payment(ctx(), deleted.id),
            s.store.record_payment(ctx(), &pay),
            s.store.record_payment(ctx(), &pay),
            s.store.bills::<InvoiceKind>().replace_items(
                ctx(),
                i.id,
                lines(if round % 2 == 0 { "120" } else { "95" })
            ),
        );
        d.unwrap();
        for p in [p1, p2] {
            match p {
                Ok(p) => kept.push(p),
                Err(StoreError::Invalid(_)) => {}
                Err(other) => panic!("{other:?}"),
            }
        }
        assert!(
            matches!(items, Ok(_) | Err(StoreError::Invalid(_))),
            "{items:?}"
        );
        assert_consistent(&s, i.id).await;
    }
}
