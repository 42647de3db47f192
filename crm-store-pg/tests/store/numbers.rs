//! Numbers and locks (API.md §18): gapless series under concurrent publishes on two
//! instances with publishes that roll back, formats and their prefixes, what an issued
//! invoice and an accepted estimate keep, and an estimate revised after a decision.

use std::collections::BTreeSet;

use crm_core::bill::{EstimateKind, InvoiceKind};
use crm_core::company::CompanyUpdate;
use crm_core::conflict::Conflict;
use crm_core::estimate::decision::{DecisionRequest, Refusal};
use crm_core::estimate::{Decision, ShownStatus, StatusChange};
use crm_core::input::{RawMap, RawValue};
use crm_core::invoice::{Invoice, InvoiceStatus, InvoiceStatusChange};
use crm_store_pg::client::{DecisionOutcome, Opened};
use crm_store_pg::messages::Letterhead;
use crm_store_pg::{Ctx, Store, StoreError};

use crate::common::{Seeded, ctx, day, item, items, raw, seeded};

const LETTERHEAD: Letterhead = Letterhead([0; 32]);

/// A draft invoice with one line of `rate`.
async fn draft(s: &Seeded, rate: &str) -> Invoice {
    let i = crate::invoices::create(s, &[]).await;
    s.store
        .bills::<InvoiceKind>()
        .replace_items(
            ctx(),
            i.id,
            items(
                vec![item(&[
                    ("description", "Work"),
                    ("quantity", "1"),
                    ("rate", rate),
                ])],
                None,
            ),
        )
        .await
        .unwrap()
}

/// A new draft invoice published on `ctx`'s day: its number.
async fn publish_one(s: &Seeded, ctx: Ctx) -> String {
    let i = draft(s, "10").await;
    s.store
        .bills::<InvoiceKind>()
        .publish(ctx, i.id, &LETTERHEAD)
        .await
        .unwrap()
        .record
        .number
        .unwrap()
}

fn conflict_of<T: std::fmt::Debug>(r: Result<T, StoreError>) -> Conflict {
    match r {
        Err(StoreError::Conflict(c)) => c,
        other => panic!("not a conflict: {other:?}"),
    }
}

/// Every invoice number of the series `prefix` (`INV-2026-`), as its sequence numbers.
async fn sequence(s: &Seeded, prefix: &str) -> Vec<i64> {
    let rows = s
        .sql()
        .await
        .query(
            "SELECT substr(number, length($1) + 1)::bigint AS n FROM invoices \
             WHERE number LIKE $1 || '%' ORDER BY 1",
            &[&prefix],
        )
        .await
        .unwrap();
    rows.iter().map(|r| r.get("n")).collect()
}

/// 32 drafts published at once, half on each of two stores (two instances of the service
/// on one database), while another connection kills backends that hold or wait for the
/// series' row: every publish that failed rolled back (the invoice is still a draft) and
/// is published again. The numbers end up 1..=n without a gap or a duplicate, one per
/// issued invoice, and no draft has one.
#[tokio::test]
async fn numbers_are_gapless_across_two_instances_concurrent_publishes_and_rollbacks() {
    let s = seeded().await;
    let other: Store = s.db.store().expect("a second store");
    let mut drafts = Vec::new();
    for n in 0..32 {
        drafts.push(draft(&s, &format!("{}.00", 10 + n)).await.id);
    }
    let killer = {
        let client = s.sql().await;
        tokio::spawn(async move {
            let mut killed = 0u32;
            for _ in 0..200 {
                let row = client
                    .query_one(
                        "SELECT count(*) FILTER (WHERE pg_terminate_backend(l.pid)) AS n \
                         FROM (SELECT DISTINCT l.pid FROM pg_locks l \
                               JOIN pg_class c ON c.oid = l.relation \
                               WHERE c.relname = 'number_series' AND l.pid <> pg_backend_pid() \
                               AND l.database = (SELECT oid FROM pg_database \
                                                 WHERE datname = current_database()) \
                               LIMIT 1) l",
                        &[],
                    )
                    .await
                    .unwrap();
                killed += u32::try_from(row.get::<_, i64>("n")).unwrap();
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
            killed
        })
    };
    let mut left = drafts.clone();
    let mut rounds = 0;
    while !left.is_empty() {
        rounds += 1;
        assert!(rounds < 50, "publishes keep failing");
        let tasks: Vec<_> = left
            .iter()
            .enumerate()
            .map(|(n, id)| {
                let store = if n % 2 == 0 {
                    s.store.clone()
                } else {
                    other.clone()
                };
                let id = *id;
                tokio::spawn(async move {
                    let r = store
                        .bills::<InvoiceKind>()
                        .publish(ctx(), id, &LETTERHEAD)
                        .await;
                    (id, r.is_ok())
                })
            })
            .collect();
        let mut failed = Vec::new();
        for t in tasks {
            let (id, ok) = t.await.unwrap();
            if !ok {
                failed.push(id);
            }
        }
        // A failed publish wrote nothing: still a draft, without a number.
        for id in &failed {
            let i = s
                .store
                .bills::<InvoiceKind>()
                .get(ctx(), *id)
                .await
                .unwrap();
            assert_eq!((i.status, i.number), (InvoiceStatus::Draft, None));
        }
        left = failed;
    }
    let killed = killer.await.unwrap();
    eprintln!("{killed} backends killed, {rounds} rounds");
    let numbers = sequence(&s, "INV-2026-").await;
    let expected: Vec<i64> = (1..=i64::try_from(drafts.len()).unwrap() + 2).collect();
    assert_eq!(
        numbers, expected,
        "after {killed} killed backends, {rounds} rounds"
    );
    let mut seen = BTreeSet::new();
    for id in drafts {
        let i = s.store.bills::<InvoiceKind>().get(ctx(), id).await.unwrap();
        assert_eq!(i.status, InvoiceStatus::Due);
        assert!(seen.insert(i.number.expect("numbered")));
    }
    let unnumbered_issued = s
        .scalar("SELECT count(*) FROM invoices WHERE (status_id = 1) <> (number IS NULL)")
        .await;
    assert_eq!(unnumbered_issued, 0);
}

fn formats(pairs: &[(&str, &str)]) -> CompanyUpdate {
    let members: RawMap = pairs
        .iter()
        .map(|(k, v)| (*k, RawValue::text(*v)))
        .collect();
    let input: RawMap = [("number_formats", RawValue::Map(members))]
        .into_iter()
        .collect();
    CompanyUpdate::parse(&input).unwrap()
}

#[tokio::test]
async fn a_series_follows_the_company_format_and_restarts_with_its_prefix() {
    let s = seeded().await;
    let company = s
        .store
        .update_company(ctx(), &formats(&[("invoice", "F{YY}{MM}/{SEQ:3}")]))
        .await
        .unwrap();
    assert_eq!(company.number_formats.invoice.as_str(), "F{YY}{MM}/{SEQ:3}");
    assert_eq!(
        company.number_formats.estimate.as_str(),
        "EST-{YYYY}-{SEQ:5}"
    );
    let on = |d: &str| Ctx {
        today: day(d),
        ..ctx()
    };
    let mut got = Vec::new();
    for d in ["2026-11-22", "2026-11-30", "2026-12-01", "2026-11-22"] {
        got.push(publish_one(&s, on(d)).await);
    }
    assert_eq!(got, ["F2611/001", "F2611/002", "F2612/001", "F2611/003"]);
    // A wider sequence is the same series; back to the default, the year's series goes on.
    s.store
        .update_company(ctx(), &formats(&[("invoice", "F{YY}{MM}/{SEQ:5}")]))
        .await
        .unwrap();
    assert_eq!(publish_one(&s, ctx()).await, "F2611/00004");
    s.store
        .update_company(ctx(), &formats(&[("invoice", "")]))
        .await
        .unwrap();
    assert_eq!(publish_one(&s, ctx()).await, "INV-2026-00003");
    // Estimates have their own series, given at their first publish and kept.
    let e = crate::estimates::create(&s, &[]).await;
    let first = s
        .store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &LETTERHEAD)
        .await
        .unwrap()
        .record
        .number
        .unwrap();
    assert!(first.starts_with("EST-2026-"), "{first}");
    let set = |st: &str| StatusChange::parse(&raw(&[("status", st)])).unwrap();
    s.store
        .bills::<EstimateKind>()
        .set_status(ctx(), e.id, &set("draft"))
        .await
        .unwrap();
    let again = s
        .store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &LETTERHEAD)
        .await
        .unwrap();
    assert_eq!(again.record.number.as_deref(), Some(first.as_str()));
}

#[tokio::test]
async fn an_issued_invoice_keeps_what_it_states_and_its_notes_may_change() {
    let s = seeded().await;
    let i = draft(&s, "100").await;
    let issued = s
        .store
        .bills::<InvoiceKind>()
        .publish(ctx(), i.id, &LETTERHEAD)
        .await
        .unwrap()
        .record;
    let bills = s.store.bills::<InvoiceKind>();
    let lines = items(
        vec![item(&[
            ("description", "X"),
            ("quantity", "1"),
            ("rate", "1"),
        ])],
        None,
    );
    assert_eq!(
        conflict_of(bills.replace_items(ctx(), i.id, lines).await),
        Conflict::IssuedInvoiceChanged
    );
    use crate::invoices::patch;
    for change in [
        &[("bill_date", "2026-11-02")][..],
        &[("bill_adjustment_amount", "1.00")],
        &[
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "5"),
        ],
        &[("bill_due_date", "2027-01-01")],
        &[("bill_tax_type", "inline")],
        &[("bill_adjustment_description", "Rounding")],
    ] {
        assert_eq!(
            conflict_of(bills.update(ctx(), i.id, &patch(&issued, change)).await),
            Conflict::IssuedInvoiceChanged,
            "{change:?}"
        );
    }
    let noted = bills
        .update(ctx(), i.id, &patch(&issued, &[("bill_notes", "Thank you")]))
        .await
        .unwrap();
    assert_eq!(noted.notes.as_deref(), Some("Thank you"));
    assert_eq!(noted.totals, issued.totals);
    assert_eq!(noted.number, issued.number);
    let set = |st: &str| InvoiceStatusChange::parse(&raw(&[("status", st)])).unwrap();
    assert_eq!(
        conflict_of(bills.set_status(ctx(), i.id, &set("1")).await),
        Conflict::IssuedInvoiceChanged
    );
    assert_eq!(
        conflict_of(bills.set_status(ctx(), i.id, &set("20")).await),
        Conflict::IssuedInvoiceCancelled
    );
    assert_eq!(
        conflict_of(bills.delete(ctx(), i.id).await),
        Conflict::IssuedInvoiceDeleted
    );
    assert_eq!(
        conflict_of(bills.publish(ctx(), i.id, &LETTERHEAD).await),
        Conflict::InvoiceAlreadyPublished
    );
    let after = bills.get(ctx(), i.id).await.unwrap();
    assert_eq!(after.line_items, issued.line_items);
    assert_eq!(after.dates.date, issued.dates.date);
}

/// The version a live link's page shows now.
async fn version(s: &Seeded, token: &str) -> String {
    match s.store.open_link(token, ctx().today).await.unwrap() {
        Some(Opened::Estimate(_, v)) => v,
        other => panic!("{other:?}"),
    }
}

/// The client's decision `d` through link `token`, sent from a page that showed `version`.
async fn decide(s: &Seeded, token: &str, d: Decision, version: &str) -> DecisionOutcome {
    let request = DecisionRequest::parse(d, &raw(&[("version", version)])).unwrap();
    s.store
        .decide_by_link(token, &request, ctx().today, &LETTERHEAD)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_revision_withdraws_a_decline_and_a_decision_on_an_older_offer_is_refused() {
    let s = seeded().await;
    let e = crate::estimates::create(&s, &[("bill_expiry_date", "2099-01-01")]).await;
    let bills = s.store.bills::<EstimateKind>();
    let lines = |rate: &str| {
        items(
            vec![item(&[
                ("description", "Work"),
                ("quantity", "1"),
                ("rate", rate),
            ])],
            None,
        )
    };
    bills.replace_items(ctx(), e.id, lines("5")).await.unwrap();
    let published = bills
        .publish(ctx(), e.id, &LETTERHEAD)
        .await
        .unwrap()
        .record;
    let url = published.client_link.unwrap().url;
    let token = url.rsplit_once("/c/").unwrap().1.to_owned();
    let shown = version(&s, &token).await;
    // Declined on the first offer.
    let declined = decide(&s, &token, Decision::Declined, &shown).await;
    assert!(
        matches!(declined, DecisionOutcome::Recorded(_)),
        "{declined:?}"
    );
    // The company revises it: the decline is withdrawn and the page says "Revised".
    let revised = bills.replace_items(ctx(), e.id, lines("4")).await.unwrap();
    assert_eq!(revised.status, ShownStatus::New);
    assert!(revised.client_response.is_none());
    assert!(revised.dates.revised.is_some());
    let kept = s
        .sql()
        .await
        .query_one(
            "SELECT decision, record->'totals'->>'final_amount' AS amount, \
             withdrawn_at IS NOT NULL AS withdrawn FROM estimate_decisions WHERE estimate_id = $1",
            &[&e.id.get()],
        )
        .await
        .unwrap();
    assert_eq!(kept.get::<_, String>("decision"), "declined");
    assert_eq!(kept.get::<_, String>("amount"), "5.00");
    assert!(kept.get::<_, bool>("withdrawn"));
    // A decision from the page of the first offer is refused; from the new page, recorded.
    let stale = decide(&s, &token, Decision::Accepted, &shown).await;
    assert!(
        matches!(stale, DecisionOutcome::Refused(Refusal::Changed)),
        "{stale:?}"
    );
    let current = version(&s, &token).await;
    assert_ne!(current, shown);
    let accepted = decide(&s, &token, Decision::Accepted, &current).await;
    assert!(
        matches!(accepted, DecisionOutcome::Recorded(_)),
        "{accepted:?}"
    );
    // Accepted, it keeps what was agreed (its notes may change).
    let agreed = bills.get(ctx(), e.id).await.unwrap();
    assert_eq!(agreed.status, ShownStatus::Accepted);
    assert_eq!(
        conflict_of(bills.replace_items(ctx(), e.id, lines("1")).await),
        Conflict::AcceptedEstimateChanged
    );
    assert_eq!(
        conflict_of(bills.delete(ctx(), e.id).await),
        Conflict::AcceptedEstimateChanged
    );
    use crate::estimates::patch;
    assert_eq!(
        conflict_of(
            bills
                .update(
                    ctx(),
                    e.id,
                    &patch(&agreed, &[("bill_expiry_date", "2099-02-01")])
                )
                .await
        ),
        Conflict::AcceptedEstimateChanged
    );
    let noted = bills
        .update(ctx(), e.id, &patch(&agreed, &[("bill_notes", "See you")]))
        .await
        .unwrap();
    assert_eq!(noted.totals, agreed.totals);
    assert_eq!(noted.status, ShownStatus::Accepted);
}

/// A store on the same database whose new documents use `policy`.
fn store_with(s: &Seeded, policy: crm_core::totals::Policy) -> Store {
    let mut config = s.db.config().clone();
    config.totals_policy = policy;
    Store::new(&config).expect("a store")
}

/// The lines where the two arithmetics differ: 1.5 × 1385.27 is 2077.905, which the CRM
/// shows as 2077.90 and exact decimal arithmetic as 2077.91 (TOTALS.md).
fn tie() -> crm_core::bill::ItemsRequest {
    items(
        vec![item(&[
            ("description", "Design"),
            ("quantity", "1.5"),
            ("rate", "1385.27"),
        ])],
        None,
    )
}

#[tokio::test]
async fn each_document_keeps_the_totals_policy_it_was_created_with() {
    use crm_core::totals::Policy;
    let s = seeded().await;
    let exact = store_with(&s, Policy::ExactDecimal);
    let crm = store_with(&s, Policy::CrmParity);
    // Created under `exact`, its figures stay exact whichever instance writes it later.
    let cmd =
        crm_core::estimate::NewEstimate::parse(&crate::common::new_bill(&s, "estimate", &[]).await)
            .unwrap();
    let e = exact
        .bills::<EstimateKind>()
        .create(ctx(), &cmd)
        .await
        .unwrap();
    let by_crm = crm
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, tie())
        .await
        .unwrap();
    assert_eq!(by_crm.line_items[0].total.to_string(), "2077.91");
    assert_eq!(by_crm.totals.figures.final_amount.to_string(), "2077.91");
    // Its invoice keeps it too.
    let invoice = crm.convert_estimate(ctx(), e.id).await.unwrap();
    let patched = crm
        .bills::<InvoiceKind>()
        .update(
            ctx(),
            invoice.id,
            &crate::invoices::patch(&invoice, &[("bill_adjustment_amount", "0")]),
        )
        .await
        .unwrap();
    assert_eq!(
        patched.totals.bill.figures.final_amount.to_string(),
        "2077.91"
    );
    // Created under `crm`, the CRM's figure, whichever instance writes it.
    let e = crm
        .bills::<EstimateKind>()
        .create(ctx(), &cmd)
        .await
        .unwrap();
    let by_exact = exact
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, tie())
        .await
        .unwrap();
    assert_eq!(by_exact.totals.figures.final_amount.to_string(), "2077.90");
    let stored = s
        .sql()
        .await
        .query_one(
            "SELECT totals_policy FROM estimates WHERE id = $1",
            &[&e.id.get()],
        )
        .await
        .unwrap()
        .get::<_, String>(0);
    assert_eq!(stored, "crm");
}
