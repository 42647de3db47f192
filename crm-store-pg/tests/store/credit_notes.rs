//! Credit notes (API.md §18): a whole or partial credit of an issued invoice, applied to
//! what is due first and refunded beyond it; the invoice's amounts and status follow in
//! the same transaction; refusals write nothing; concurrent credit notes and payments never
//! pass the final amount; what was issued cannot be changed or deleted, not even in SQL;
//! and any sequence of payments, credit notes and deletions keeps the books whole.

use crm_core::conflict::Conflict;
use crm_core::credit_note::{CreditNote, NewCreditNote};
use crm_core::ids::InvoiceId;
use crm_core::input::{RawMap, RawValue};
use crm_core::invoice::{Invoice, InvoiceStatus};
use crm_store_pg::StoreError;
use proptest::prelude::*;

use crate::common::{Seeded, ctx, invalid, item, messages, raw, seeded};
use crate::payments::{assert_consistent, pay, payment, published, read};

/// A credit note command: `reason`, and lines of (quantity, rate) when given.
fn command(reason: &str, lines: Option<&[(&str, &str)]>) -> NewCreditNote {
    let mut map: RawMap = raw(&[("reason", reason)]);
    if let Some(lines) = lines {
        let items = lines
            .iter()
            .map(|(q, r)| item(&[("description", "Credited"), ("quantity", q), ("rate", r)]))
            .collect();
        map.insert("items", RawValue::List(items));
    }
    NewCreditNote::parse(&map).unwrap()
}

/// Issues a credit note of one line of `amount` against `invoice`.
async fn credit(s: &Seeded, invoice: InvoiceId, amount: &str) -> Result<CreditNote, StoreError> {
    s.store
        .issue_credit_note(
            ctx(),
            invoice,
            &command("Overcharged", Some(&[("1", amount)])),
        )
        .await
}

/// (status, paid, credited, due) of an invoice as read now.
async fn books(s: &Seeded, id: InvoiceId) -> (InvoiceStatus, String, String, String) {
    let i: Invoice = read(s, id).await;
    (
        i.status,
        i.totals.amount_paid.to_string(),
        i.totals.amount_credited.to_string(),
        i.totals.amount_due.to_string(),
    )
}

fn state(
    status: InvoiceStatus,
    paid: &str,
    credited: &str,
    due: &str,
) -> (InvoiceStatus, String, String, String) {
    (status, paid.into(), credited.into(), due.into())
}

#[tokio::test]
async fn a_whole_credit_copies_the_invoice_and_cancels_it_when_nothing_was_paid() {
    let s = seeded().await;
    let i = published(&s, "3", "33.33").await;
    let note = s
        .store
        .issue_credit_note(ctx(), i.id, &command("Sent to the wrong client", None))
        .await
        .unwrap();
    assert_eq!(note.number, "CN-2026-00001");
    assert_eq!(note.invoice_id, i.id);
    assert_eq!(Some(note.invoice_number.clone()), i.number);
    assert_eq!(note.totals, i.totals.bill);
    assert_eq!(note.lines.len(), i.line_items.len());
    assert_eq!(note.lines[0].total, i.line_items[0].total);
    assert_eq!(
        (
            note.applied_amount.to_string(),
            note.refund_amount.to_string()
        ),
        ("99.99".into(), "0.00".into())
    );
    assert_eq!(note.date, ctx().today);
    assert_eq!(
        books(&s, i.id).await,
        state(InvoiceStatus::Cancelled, "0.00", "99.99", "0.00")
    );
    assert_consistent(&s, i.id).await;
    // Nothing is left to credit, nor to pay.
    let errors = invalid(credit(&s, i.id, "0.01").await);
    assert_eq!(
        messages(&errors, "items"),
        ["The credit note may not be greater than the amount not yet credited."]
    );
    assert!(
        s.store
            .record_payment(ctx(), &payment(i.id, "1.00", &[]))
            .await
            .is_err()
    );
    // Read back, listed by its invoice.
    assert_eq!(s.store.credit_note(ctx(), note.id).await.unwrap(), note);
}

#[tokio::test]
async fn a_partial_credit_after_payments_applies_what_is_due_and_refunds_the_rest() {
    let s = seeded().await;
    let i = published(&s, "1", "100").await;
    pay(&s, i.id, "60.00").await;
    let first = credit(&s, i.id, "30.00").await.unwrap();
    assert_eq!(
        (
            first.applied_amount.to_string(),
            first.refund_amount.to_string()
        ),
        ("30.00".into(), "0.00".into())
    );
    assert_eq!(
        books(&s, i.id).await,
        state(InvoiceStatus::PartPaid, "60.00", "30.00", "10.00")
    );
    // 25.00 more: 10.00 is what was due, 15.00 is owed back; the invoice is paid.
    let second = credit(&s, i.id, "25.00").await.unwrap();
    assert_eq!(
        (
            second.applied_amount.to_string(),
            second.refund_amount.to_string()
        ),
        ("10.00".into(), "15.00".into())
    );
    assert_eq!(second.number, "CN-2026-00002");
    assert_eq!(
        books(&s, i.id).await,
        state(InvoiceStatus::Paid, "60.00", "55.00", "0.00")
    );
    assert_consistent(&s, i.id).await;
    // The refund stands on the payment: it cannot be deleted.
    let p: i64 = s
        .scalar(&format!(
            "SELECT id FROM payments WHERE invoice_id = {}",
            i.id
        ))
        .await;
    let deleted = s
        .store
        .delete_payment(ctx(), crm_core::ids::PaymentId::new(p).unwrap())
        .await;
    assert!(
        matches!(
            deleted,
            Err(StoreError::Conflict(Conflict::RefundStandsOnPayments))
        ),
        "{deleted:?}"
    );
    assert_eq!(
        books(&s, i.id).await,
        state(InvoiceStatus::Paid, "60.00", "55.00", "0.00")
    );
    // 45.00 can still be credited (100.00 − 55.00), all of it refunded; then nothing.
    let last = credit(&s, i.id, "45.00").await.unwrap();
    assert_eq!(last.refund_amount.to_string(), "45.00");
    assert!(credit(&s, i.id, "0.01").await.is_err());
    assert_consistent(&s, i.id).await;
}

#[tokio::test]
async fn refused_credit_notes_write_nothing_and_say_why() {
    let s = seeded().await;
    let before = || async {
        (
            s.scalar("SELECT count(*) FROM credit_notes").await,
            s.scalar(
                "SELECT COALESCE(max(last_seq), 0) FROM number_series WHERE kind = 'credit_note'",
            )
            .await,
        )
    };
    let empty = before().await;
    // A draft is changed, not credited.
    let draft = crate::invoices::create(&s, &[]).await;
    let refused = s
        .store
        .issue_credit_note(ctx(), draft.id, &command("x", None))
        .await;
    assert!(
        matches!(
            refused,
            Err(StoreError::Conflict(Conflict::InvoiceNotIssued))
        ),
        "{refused:?}"
    );
    // No such invoice.
    let none = InvoiceId::new(9_999_999).unwrap();
    assert!(matches!(
        s.store
            .issue_credit_note(ctx(), none, &command("x", None))
            .await,
        Err(StoreError::NotFound(crm_core::conflict::Resource::Invoice))
    ));
    let i = published(&s, "1", "100").await;
    // More than the invoice.
    let errors = invalid(credit(&s, i.id, "100.01").await);
    assert_eq!(
        messages(&errors, "items"),
        ["The credit note may not be greater than the amount not yet credited."]
    );
    // A date before the invoice's.
    let mut early = command("x", None);
    early.date = Some(crate::common::day("2026-10-31"));
    let errors = invalid(s.store.issue_credit_note(ctx(), i.id, &early).await);
    assert_eq!(
        messages(&errors, "date"),
        ["The date must be a date after or equal to invoice date."]
    );
    // A line field of the other tax mode, and an unknown tax rate, named together.
    let mut map = raw(&[("reason", "x")]);
    map.insert(
        "items",
        RawValue::List(vec![item(&[
            ("description", "A"),
            ("quantity", "1"),
            ("rate", "5"),
            ("tax_rate_id", "1"),
        ])]),
    );
    map.insert(
        "tax_rate_ids",
        RawValue::List(vec![RawValue::text("999999")]),
    );
    let cmd = NewCreditNote::parse(&map).unwrap();
    let errors = invalid(s.store.issue_credit_note(ctx(), i.id, &cmd).await);
    assert_eq!(
        messages(&errors, "items.0.tax_rate_id"),
        ["The items.0.tax rate id field is prohibited when bill tax type is summary."]
    );
    assert!(!messages(&errors, "tax_rate_ids.0").is_empty());
    assert_eq!(before().await, empty);
    assert_eq!(
        books(&s, i.id).await,
        state(InvoiceStatus::Due, "0.00", "0.00", "100.00")
    );
}

#[tokio::test]
async fn what_a_credit_note_states_cannot_be_changed_or_deleted_even_in_sql() {
    let s = seeded().await;
    let i = published(&s, "1", "100").await;
    let note = credit(&s, i.id, "10.00").await.unwrap();
    let c = s.sql().await;
    for statement in [
        format!(
            "UPDATE credit_notes SET reason = 'changed' WHERE id = {}",
            note.id
        ),
        format!(
            "UPDATE credit_notes SET final_amount = 1 WHERE id = {}",
            note.id
        ),
        format!("DELETE FROM credit_notes WHERE id = {}", note.id),
        format!(
            "UPDATE credit_note_lines SET rate = 1 WHERE credit_note_id = {}",
            note.id
        ),
        format!(
            "DELETE FROM credit_note_lines WHERE credit_note_id = {}",
            note.id
        ),
        format!("DELETE FROM invoices WHERE id = {}", i.id),
    ] {
        assert!(
            c.batch_execute(&statement).await.is_err(),
            "{statement} ran"
        );
    }
    // Its link is the one thing that changes.
    let linked = s.store.make_credit_note_link(ctx(), note.id).await.unwrap();
    assert!(linked.client_link.is_some());
    let revoked = s
        .store
        .revoke_credit_note_link(ctx(), note.id)
        .await
        .unwrap();
    assert!(revoked.client_link.is_none());
    assert_eq!(revoked.totals, note.totals);
}

#[tokio::test]
async fn concurrent_credit_notes_and_payments_never_pass_the_final_amount() {
    let s = seeded().await;
    let i = published(&s, "1", "100").await;
    // 6 credits and 6 payments of 15.00 against 100.00: the invoice's lock judges them
    // one after the other.
    let credits = (0..6).map(|_| credit(&s, i.id, "15.00"));
    let cmd = payment(i.id, "15.00", &[]);
    let payments = (0..6).map(|_| s.store.record_payment(ctx(), &cmd));
    let (credited, paid) = futures_util::future::join(
        futures_util::future::join_all(credits),
        futures_util::future::join_all(payments),
    )
    .await;
    let credited: Vec<_> = credited.into_iter().filter_map(Result::ok).collect();
    let paid = paid.into_iter().filter(Result::is_ok).count();
    assert!(!credited.is_empty() || paid > 0);
    assert_consistent(&s, i.id).await;
    let invoice = read(&s, i.id).await;
    assert!(invoice.totals.amount_credited.get() <= invoice.totals.bill.figures.final_amount.get());
    // The credit notes' numbers are 1..n without a gap.
    let mut numbers: Vec<String> = credited.iter().map(|c| c.number.clone()).collect();
    numbers.sort();
    let expected: Vec<String> = (1..=credited.len())
        .map(|n| format!("CN-2026-{n:05}"))
        .collect();
    assert_eq!(numbers, expected);
}

/// One step of a history against the store: a payment, a credit note, a payment deleted,
/// or another invoice published while a credit note of this one is issued.
#[derive(Debug, Clone)]
enum Step {
    Pay(u32),
    Credit(u32),
    DeletePayment(usize),
    PublishBeside(u32),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (1u32..=4_000).prop_map(Step::Pay),
        3 => (1u32..=4_000).prop_map(Step::Credit),
        1 => any::<usize>().prop_map(Step::DeletePayment),
        1 => (1u32..=4_000).prop_map(Step::PublishBeside),
    ]
}

/// The sequence numbers of the numbers of `table` starting with `prefix`, in order.
async fn sequence(s: &Seeded, table: &str, prefix: &str) -> Vec<i64> {
    s.sql()
        .await
        .query(
            &format!(
                "SELECT substr(number, length($1) + 1)::bigint FROM {table} \
                 WHERE number LIKE $1 || '%' ORDER BY 1"
            ),
            &[&prefix],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

/// Random sequences of payments, credit notes and deletions of payments against the real
/// store (an invoice of 100.00 each): after every step, Σ payments + Σ applied credits +
/// amount due = final amount, the status is the one the books give, the credit notes'
/// numbers are contiguous, and what a credit note states never changed.
#[test]
fn any_history_of_payments_and_credit_notes_keeps_the_books_whole() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let s = rt.block_on(seeded());
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 12,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let strategy = proptest::collection::vec(step(), 1..14);
    runner
        .run(&strategy, |steps| {
            rt.block_on(async {
                let i = published(&s, "1", "100").await;
                let mut issued: Vec<CreditNote> = Vec::new();
                for step in steps {
                    match step {
                        Step::Pay(cents) => {
                            let amount = format!("{}.{:02}", cents / 100, cents % 100);
                            let _ = s
                                .store
                                .record_payment(ctx(), &payment(i.id, &amount, &[]))
                                .await;
                        }
                        Step::Credit(cents) => {
                            let amount = format!("{}.{:02}", cents / 100, cents % 100);
                            if let Ok(note) = credit(&s, i.id, &amount).await {
                                issued.push(note);
                            }
                        }
                        Step::PublishBeside(cents) => {
                            let amount = format!("{}.{:02}", cents / 100, cents % 100);
                            let draft = crate::invoices::create(&s, &[]).await;
                            let letterhead = crm_store_pg::messages::Letterhead([0; 32]);
                            let invoices = s.store.bills::<crm_core::bill::InvoiceKind>();
                            let (published, credited) = futures_util::future::join(
                                invoices.publish(ctx(), draft.id, &letterhead),
                                credit(&s, i.id, &amount),
                            )
                            .await;
                            assert!(published.is_ok(), "{published:?}");
                            if let Ok(note) = credited {
                                issued.push(note);
                            }
                        }
                        Step::DeletePayment(n) => {
                            let ids: Vec<i64> = s
                                .sql()
                                .await
                                .query(
                                    &format!(
                                        "SELECT id FROM payments WHERE invoice_id = {} ORDER BY id",
                                        i.id
                                    ),
                                    &[],
                                )
                                .await
                                .unwrap()
                                .iter()
                                .map(|r| r.get(0))
                                .collect();
                            if !ids.is_empty() {
                                let id = crm_core::ids::PaymentId::new(ids[n % ids.len()]).unwrap();
                                let _ = s.store.delete_payment(ctx(), id).await;
                            }
                        }
                    }
                    assert_consistent(&s, i.id).await;
                    for note in &issued {
                        assert_eq!(&s.store.credit_note(ctx(), note.id).await.unwrap(), note);
                    }
                }
                // Every series is 1..n without a gap: the credit notes', and the invoices'
                // published beside them (the seed's invoices are of their own year).
                for (table, prefix) in [("credit_notes", "CN-2026-"), ("invoices", "INV-2026-")] {
                    let numbers = sequence(&s, table, prefix).await;
                    let expected: Vec<i64> = (1..=i64::try_from(numbers.len()).unwrap()).collect();
                    assert_eq!(numbers, expected, "{table}");
                }
            });
            Ok(())
        })
        .unwrap();
}
