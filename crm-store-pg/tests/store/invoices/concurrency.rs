//! "One live invoice per estimate" under concurrent conversions, and conversion again
//! after the invoice is deleted.

use crm_core::bill::EstimateKind;
use crm_core::bill::InvoiceKind;
use crm_core::conflict::Conflict;
use crm_store_pg::StoreError;

use crate::common::{ctx, seeded};
use crate::estimates::create;

#[tokio::test]
async fn deleting_the_invoice_frees_its_estimate_for_another_conversion() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let first = s.store.convert_estimate(ctx(), e.id).await.unwrap();
    assert_eq!(first.estimate_id, Some(e.id));
    s.store
        .bills::<InvoiceKind>()
        .delete(ctx(), first.id)
        .await
        .unwrap();
    let freed = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), e.id)
        .await
        .unwrap();
    assert_eq!(
        (freed.converted.is_converted, freed.converted.invoice_id),
        (false, None)
    );
    let second = s.store.convert_estimate(ctx(), e.id).await.unwrap();
    assert_ne!(second.id, first.id);
    let converted = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), e.id)
        .await
        .unwrap();
    assert_eq!(converted.converted.invoice_id, Some(second.id));
}

/// Rounds of three racing requests on one estimate: a delete of its live invoice and two
/// conversions. Whatever the order, at most one invoice of the estimate is live at any
/// commit (the unique index), every failure is the conversion's 409 or the delete's 404,
/// and the estimate's `converted` names the live invoice.
#[tokio::test]
async fn concurrent_conversions_and_deletes_keep_one_live_invoice_per_estimate() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let mut live = s.store.convert_estimate(ctx(), e.id).await.unwrap().id;
    for _ in 0..8 {
        let (deleted, a, b) = tokio::join!(
            s.store.bills::<InvoiceKind>().delete(ctx(), live),
            s.store.convert_estimate(ctx(), e.id),
            s.store.convert_estimate(ctx(), e.id)
        );
        deleted.unwrap();
        for r in [&a, &b] {
            assert!(
                matches!(
                    r,
                    Ok(_) | Err(StoreError::Conflict(Conflict::EstimateAlreadyConverted))
                ),
                "{r:?}"
            );
        }
        let count = s
            .scalar(&format!(
                "SELECT count(*) FROM invoices WHERE estimate_id = {}",
                e.id
            ))
            .await;
        assert!(count <= 1, "{count} invoices for one estimate");
        let converted = s
            .store
            .bills::<EstimateKind>()
            .get(ctx(), e.id)
            .await
            .unwrap()
            .converted;
        live = match converted.invoice_id {
            Some(id) => id,
            None => s.store.convert_estimate(ctx(), e.id).await.unwrap().id,
        };
        assert_eq!(
            s.scalar(&format!(
                "SELECT count(*) FROM invoices WHERE estimate_id = {}",
                e.id
            ))
            .await,
            1
        );
    }
}
