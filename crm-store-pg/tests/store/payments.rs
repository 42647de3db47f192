//! Payments (API.md §14): recording and deleting them moves the invoice's status and
//! amounts to the cent, in the same transaction; concurrent payments never pass the amount
//! due; an invoice's total may not fall below what was paid, an invoice with payments is
//! not deleted, and a status set by hand must agree with the payments. Lists, counts and
//! the seed.

mod concurrency;
mod lists;

use crm_core::bill::InvoiceKind;
use crm_core::conflict::Conflict;
use crm_core::ids::{InvoiceId, PaymentId};
use crm_core::invoice::{Balance, Invoice, InvoiceStatus, InvoiceStatusChange, balance};
use crm_core::money::Decimal;
use crm_core::payment::{NewPayment, Payment};
use crm_store_pg::StoreError;

use crate::common::{Seeded, ctx, invalid, item, items, messages, raw, seeded};
use crate::invoices::{create, patch};

/// A published invoice (Due) of one line: `quantity` × `rate`, no tax.
pub(crate) async fn published(s: &Seeded, quantity: &str, rate: &str) -> Invoice {
    let i = create(s, &[]).await;
    let lines = vec![item(&[
        ("description", "Work"),
        ("quantity", quantity),
        ("rate", rate),
    ])];
    s.store
        .bills::<InvoiceKind>()
        .replace_items(ctx(), i.id, items(lines, None))
        .await
        .unwrap();
    s.store
        .bills::<InvoiceKind>()
        .publish(ctx(), i.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap()
}

/// An invoice as one published before numbers were given (migration 0031) is: open,
/// without a number, so not locked. Its header and items may still change, and the rules
/// of its balance (a total never below what was paid, a status that follows the payments)
/// are what keep it consistent.
pub(crate) async fn legacy(s: &Seeded, quantity: &str, rate: &str) -> Invoice {
    let i = published(s, quantity, rate).await;
    s.exec(&format!(
        "UPDATE invoices SET number = NULL, issued_at = NULL WHERE id = {}",
        i.id
    ))
    .await;
    read(s, i.id).await
}

/// The command of a payment of `amount` on `invoice`, received 2026-11-20, with `extra`.
pub(crate) fn payment(invoice: InvoiceId, amount: &str, extra: &[(&str, &str)]) -> NewPayment {
    let invoice = invoice.get().to_string();
    let mut pairs = vec![
        ("payment_invoiceid", invoice.as_str()),
        ("payment_amount", amount),
        ("payment_date", "2026-11-20"),
    ];
    pairs.extend_from_slice(extra);
    NewPayment::parse(&raw(&pairs)).unwrap()
}

/// Records a payment of `amount` on `invoice`, which must succeed.
pub(crate) async fn pay(s: &Seeded, invoice: InvoiceId, amount: &str) -> Payment {
    s.store
        .record_payment(ctx(), &payment(invoice, amount, &[]))
        .await
        .unwrap()
}

/// The invoice as read now.
pub(crate) async fn read(s: &Seeded, id: InvoiceId) -> Invoice {
    s.store.bills::<InvoiceKind>().get(ctx(), id).await.unwrap()
}

/// (status, amount paid, amount due) of an invoice as read now.
pub(crate) async fn state(s: &Seeded, id: InvoiceId) -> (InvoiceStatus, String, String) {
    let i = read(s, id).await;
    (
        i.status,
        i.totals.amount_paid.to_string(),
        i.totals.amount_due.to_string(),
    )
}

fn shown(status: InvoiceStatus, paid: &str, due: &str) -> (InvoiceStatus, String, String) {
    (status, paid.to_owned(), due.to_owned())
}

/// What an invoice shows it was paid is the sum of its payment rows, never more than its
/// total, and its stored status agrees with it (a Draft or Cancelled invoice has none).
pub(crate) async fn assert_consistent(s: &Seeded, id: InvoiceId) {
    let i = read(s, id).await;
    let cents = |sql: String| async move {
        crm_core::money::Money::from_cents(s.scalar(&sql).await).unwrap()
    };
    let paid = cents(format!(
        "SELECT (COALESCE(sum(amount), 0) * 100)::bigint FROM payments WHERE invoice_id = {id}"
    ))
    .await;
    let applied = cents(format!(
        "SELECT (COALESCE(sum(applied_amount), 0) * 100)::bigint FROM credit_notes WHERE invoice_id = {id}"
    ))
    .await;
    let refunded = cents(format!(
        "SELECT (COALESCE(sum(refund_amount), 0) * 100)::bigint FROM credit_notes WHERE invoice_id = {id}"
    ))
    .await;
    let total = i.totals.bill.figures.final_amount;
    assert_eq!(i.totals.amount_paid, paid);
    assert_eq!(
        i.totals.amount_credited.get(),
        applied.get() + refunded.get()
    );
    // What was paid, what credit notes took off, and what is due make the final amount.
    assert_eq!(
        paid.get() + applied.get() + i.totals.amount_due.get(),
        total.get()
    );
    assert!(paid <= total);
    assert!(applied.get() + refunded.get() <= total.get().max(Decimal::ZERO));
    let stored = s
        .scalar(&format!(
            "SELECT status_id::bigint FROM invoices WHERE id = {id}"
        ))
        .await;
    let stored = InvoiceStatus::from_id(i16::try_from(stored).unwrap()).unwrap();
    let b = Balance {
        status: stored,
        total,
        paid,
        applied,
        refunded,
    };
    if balance::is_open(stored) {
        assert!(b.agrees(stored), "invoice {id}: {stored:?}");
    } else {
        assert_eq!(
            paid,
            crm_core::money::Money::ZERO,
            "invoice {id}: {stored:?}"
        );
    }
}

#[tokio::test]
async fn payments_move_an_invoice_from_due_to_part_paid_to_paid_to_the_cent() {
    let s = seeded().await;
    let i = published(&s, "3", "33.33").await;
    assert_eq!(
        state(&s, i.id).await,
        shown(InvoiceStatus::Due, "0.00", "99.99")
    );
    let p = s
        .store
        .record_payment(
            ctx(),
            &payment(
                i.id,
                "40.5",
                &[
                    ("payment_method", " Bank transfer "),
                    ("payment_transaction_id", "TX-1"),
                    ("payment_notes", "First half\nthanks"),
                ],
            ),
        )
        .await
        .unwrap();
    assert_eq!(p.invoice_id, i.id);
    assert_eq!(p.amount.to_string(), "40.50");
    assert_eq!(p.client.name, "Acme Inc");
    assert_eq!(p.date.to_string(), "2026-11-20");
    assert_eq!(
        (
            p.method.as_deref(),
            p.transaction_id.as_deref(),
            p.notes.as_deref()
        ),
        (
            Some("Bank transfer"),
            Some("TX-1"),
            Some("First half\nthanks")
        )
    );
    assert_eq!(p.creator_id.get(), 1);
    assert_eq!(s.store.payment(ctx(), p.id).await.unwrap(), p);
    assert_eq!(
        state(&s, i.id).await,
        shown(InvoiceStatus::PartPaid, "40.50", "59.49")
    );
    let more = s
        .store
        .record_payment(ctx(), &payment(i.id, "59.50", &[]))
        .await;
    assert_eq!(
        messages(&invalid(more), "payment_amount"),
        ["The payment amount may not be greater than the amount due."]
    );
    pay(&s, i.id, "59.49").await;
    assert_eq!(
        state(&s, i.id).await,
        shown(InvoiceStatus::Paid, "99.99", "0.00")
    );
    let again = s
        .store
        .record_payment(ctx(), &payment(i.id, "0.01", &[]))
        .await;
    assert_eq!(
        messages(&invalid(again), "payment_amount"),
        ["The payment amount may not be greater than the amount due."]
    );
    assert_consistent(&s, i.id).await;
}

#[tokio::test]
async fn deleting_payments_of_a_paid_invoice_makes_it_part_paid_then_due() {
    let s = seeded().await;
    let i = published(&s, "1", "100").await;
    let first = pay(&s, i.id, "30").await;
    let second = pay(&s, i.id, "70").await;
    assert_eq!(read(&s, i.id).await.status, InvoiceStatus::Paid);
    s.store.delete_payment(ctx(), second.id).await.unwrap();
    assert_eq!(
        state(&s, i.id).await,
        shown(InvoiceStatus::PartPaid, "30.00", "70.00")
    );
    s.store.delete_payment(ctx(), first.id).await.unwrap();
    assert_eq!(
        state(&s, i.id).await,
        shown(InvoiceStatus::Due, "0.00", "100.00")
    );
    for gone in [first.id, PaymentId::new(999_999).unwrap()] {
        assert!(matches!(
            s.store.delete_payment(ctx(), gone).await,
            Err(StoreError::NotFound(crm_core::conflict::Resource::Payment))
        ));
        assert!(matches!(
            s.store.payment(ctx(), gone).await,
            Err(StoreError::NotFound(crm_core::conflict::Resource::Payment))
        ));
    }
    // A Part Paid invoice past its due date shows Overdue, and is still paid into.
    s.exec(&format!(
        "UPDATE invoices SET due_date = DATE '2026-11-01' WHERE id = {}",
        i.id
    ))
    .await;
    pay(&s, i.id, "1").await;
    assert_eq!(
        state(&s, i.id).await,
        shown(InvoiceStatus::Overdue, "1.00", "99.00")
    );
    assert_consistent(&s, i.id).await;
}

#[tokio::test]
async fn drafts_cancelled_and_unknown_invoices_take_no_payment() {
    let s = seeded().await;
    let draft = create(&s, &[]).await;
    let cancelled = legacy(&s, "1", "10").await;
    let set = |status: &str| InvoiceStatusChange::parse(&raw(&[("status", status)])).unwrap();
    s.store
        .bills::<InvoiceKind>()
        .set_status(ctx(), cancelled.id, &set("20"))
        .await
        .unwrap();
    for (invoice, message) in [
        (
            draft.id,
            "The invoice must be published before a payment is recorded.",
        ),
        (cancelled.id, "A cancelled invoice takes no payment."),
        (
            InvoiceId::new(999_999).unwrap(),
            "The selected payment invoiceid is invalid.",
        ),
    ] {
        let refused = s
            .store
            .record_payment(ctx(), &payment(invoice, "1", &[]))
            .await;
        assert_eq!(messages(&invalid(refused), "payment_invoiceid"), [message]);
    }
    assert_eq!(s.scalar("SELECT count(*) FROM payments").await, 1);
}

#[tokio::test]
async fn a_rejected_request_names_its_invoice_and_amount_beside_its_other_fields() {
    let s = seeded().await;
    let i = published(&s, "1", "10").await;
    let draft = create(&s, &[]).await;
    let check = |invoice: InvoiceId, amount: &str| {
        let invoice = invoice.get().to_string();
        let amount = amount.to_owned();
        let store = s.store.clone();
        async move {
            let rejected = NewPayment::parse(&raw(&[
                ("payment_invoiceid", &invoice),
                ("payment_amount", &amount),
            ]))
            .unwrap_err();
            let mut errors = rejected.errors;
            errors.merge(
                store
                    .check_references(&rejected.references, None)
                    .await
                    .unwrap(),
            );
            errors
        }
    };
    let e = check(i.id, "10.01").await;
    assert_eq!(
        messages(&e, "payment_date"),
        ["The payment date field is required."]
    );
    assert_eq!(
        messages(&e, "payment_amount"),
        ["The payment amount may not be greater than the amount due."]
    );
    let e = check(draft.id, "1").await;
    assert_eq!(
        messages(&e, "payment_invoiceid"),
        ["The invoice must be published before a payment is recorded."]
    );
    assert!(messages(&e, "payment_amount").is_empty());
    let e = check(i.id, "10").await;
    assert!(messages(&e, "payment_amount").is_empty());
    assert!(messages(&e, "payment_invoiceid").is_empty());
}

#[tokio::test]
async fn an_items_change_below_what_was_paid_is_refused_and_one_above_it_moves_the_status() {
    let s = seeded().await;
    let i = legacy(&s, "1", "100").await;
    pay(&s, i.id, "100").await;
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
    let refused = s
        .store
        .bills::<InvoiceKind>()
        .replace_items(ctx(), i.id, lines("99.99"))
        .await;
    assert_eq!(
        messages(&invalid(refused), "items"),
        ["The invoice total may not be less than the amount paid."]
    );
    assert_eq!(
        read(&s, i.id)
            .await
            .totals
            .bill
            .figures
            .final_amount
            .to_string(),
        "100.00"
    );
    let more = s
        .store
        .bills::<InvoiceKind>()
        .replace_items(ctx(), i.id, lines("150"))
        .await
        .unwrap();
    assert_eq!(
        (more.status, more.totals.amount_due.to_string()),
        (InvoiceStatus::PartPaid, "50.00".to_owned())
    );
    let back = s
        .store
        .bills::<InvoiceKind>()
        .replace_items(ctx(), i.id, lines("100"))
        .await
        .unwrap();
    assert_eq!(back.status, InvoiceStatus::Paid);
    // A PATCH that discounts below what was paid is refused the same way.
    let discounted = s
        .store
        .bills::<InvoiceKind>()
        .update(
            ctx(),
            i.id,
            &patch(
                &back,
                &[
                    ("bill_discount_type", "fixed"),
                    ("bill_discount_amount", "0.01"),
                ],
            ),
        )
        .await;
    assert_eq!(
        messages(&invalid(discounted), "bill_adjustment_amount"),
        ["The invoice total may not be less than the amount paid."]
    );
    let raised = s
        .store
        .bills::<InvoiceKind>()
        .update(
            ctx(),
            i.id,
            &patch(&back, &[("bill_adjustment_amount", "5")]),
        )
        .await
        .unwrap();
    assert_eq!(
        (raised.status, raised.totals.amount_due.to_string()),
        (InvoiceStatus::PartPaid, "5.00".to_owned())
    );
    assert_consistent(&s, i.id).await;
}

#[tokio::test]
async fn an_invoice_with_payments_is_not_deleted_until_they_are() {
    let s = seeded().await;
    let i = legacy(&s, "1", "100").await;
    let p = pay(&s, i.id, "10").await;
    assert!(matches!(
        s.store.bills::<InvoiceKind>().delete(ctx(), i.id).await,
        Err(StoreError::Conflict(Conflict::InvoiceHasPayments))
    ));
    assert_eq!(
        Conflict::InvoiceHasPayments.message(),
        "Invoice has payments."
    );
    assert_eq!(read(&s, i.id).await.totals.amount_paid.to_string(), "10.00");
    s.store.delete_payment(ctx(), p.id).await.unwrap();
    s.store
        .bills::<InvoiceKind>()
        .delete(ctx(), i.id)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_status_set_by_hand_must_agree_with_the_payments() {
    let s = seeded().await;
    let i = published(&s, "1", "100").await;
    let set = |status: &str| InvoiceStatusChange::parse(&raw(&[("status", status)])).unwrap();
    let status = |st: &'static str| {
        let store = s.store.clone();
        let cmd = set(st);
        async move {
            store
                .bills::<InvoiceKind>()
                .set_status(ctx(), i.id, &cmd)
                .await
        }
    };
    for (wanted, why) in [
        ("5", Conflict::InvoiceStatusFollowsPayments),
        ("4", Conflict::InvoiceStatusFollowsPayments),
    ] {
        assert!(matches!(status(wanted).await, Err(StoreError::Conflict(c)) if c == why));
    }
    assert_eq!(
        Conflict::InvoiceStatusFollowsPayments.message(),
        "Invoice status follows its payments."
    );
    pay(&s, i.id, "40").await;
    for (wanted, why) in [
        ("1", Conflict::IssuedInvoiceChanged),
        ("20", Conflict::IssuedInvoiceCancelled),
        ("2", Conflict::InvoiceStatusFollowsPayments),
        ("5", Conflict::InvoiceStatusFollowsPayments),
    ] {
        assert!(
            matches!(status(wanted).await, Err(StoreError::Conflict(c)) if c == why),
            "{wanted}"
        );
    }
    assert_eq!(status("4").await.unwrap().status, InvoiceStatus::PartPaid);
    assert_consistent(&s, i.id).await;
    // An unnumbered one without payments takes every status, Paid only when nothing is
    // owed (and Due issues it again, with a number).
    let free = legacy(&s, "1", "100").await;
    for (st, expected) in [
        ("20", InvoiceStatus::Cancelled),
        ("1", InvoiceStatus::Draft),
        ("2", InvoiceStatus::Due),
    ] {
        let cmd = set(st);
        let got = s
            .store
            .bills::<InvoiceKind>()
            .set_status(ctx(), free.id, &cmd)
            .await
            .unwrap();
        assert_eq!(got.status, expected);
    }
    assert!(read(&s, free.id).await.number.is_some());
    let zero = create(&s, &[]).await;
    let got = s
        .store
        .bills::<InvoiceKind>()
        .set_status(ctx(), zero.id, &set("5"))
        .await
        .unwrap();
    assert_eq!(got.status, InvoiceStatus::Paid);
}

#[tokio::test]
async fn the_seeded_paid_invoice_has_its_payment() {
    let s = seeded().await;
    assert_eq!(s.ids.payments.len(), 1);
    let p = s
        .store
        .payment(ctx(), PaymentId::new(s.ids.payments[0]).unwrap())
        .await
        .unwrap();
    let paid = InvoiceId::new(s.ids.invoices[0]).unwrap();
    assert_eq!(p.invoice_id, paid);
    assert_eq!(p.amount.to_string(), "2637.34");
    assert_eq!(p.method.as_deref(), Some("Bank transfer"));
    assert_eq!(
        state(&s, paid).await,
        shown(InvoiceStatus::Paid, "2637.34", "0.00")
    );
    for id in &s.ids.invoices {
        assert_consistent(&s, InvoiceId::new(*id).unwrap()).await;
    }
}

/// Back to the schema before 0020, as an upgrade finds it: no payments, and the seeded Paid
/// invoice marked Paid by hand.
const BEFORE_0020: &str = "
    DROP TABLE payments CASCADE;
    DROP FUNCTION payments_count_row();
    DROP FUNCTION payment_count_keys(BIGINT, BIGINT);
    DELETE FROM list_count_deltas WHERE list = 'payments';
    DELETE FROM list_counts WHERE list = 'payments';
    DELETE FROM schema_migrations WHERE version = 20;";

#[tokio::test]
async fn the_upgrade_gives_invoices_marked_paid_their_payment_and_nothing_else() {
    let s = seeded().await;
    let part = published(&s, "1", "80").await;
    let zero = create(&s, &[]).await;
    s.exec(BEFORE_0020).await;
    s.exec(&format!(
        "UPDATE invoices SET status_id = 4 WHERE id = {part};
         UPDATE invoices SET status_id = 5 WHERE id = {zero};",
        part = part.id,
        zero = zero.id
    ))
    .await;
    assert_eq!(
        crm_store_pg::migrate::migrate(s.db.config()).await.unwrap(),
        vec![20]
    );
    // The seeded Paid invoice: one payment of its whole amount, counted.
    let paid = InvoiceId::new(s.ids.invoices[0]).unwrap();
    assert_eq!(
        state(&s, paid).await,
        shown(InvoiceStatus::Paid, "2637.34", "0.00")
    );
    let q = crm_core::payment::PaymentListQuery::parse(&raw(&[])).unwrap();
    let listed = s.store.list_payments(ctx(), &q).await.unwrap();
    assert_eq!(listed.total, 1);
    let p = &listed.items[0];
    assert_eq!(
        (p.invoice_id, p.amount.to_string()),
        (paid, "2637.34".to_owned())
    );
    assert!(p.notes.as_deref().unwrap().contains("marked Paid"));
    // A Part Paid invoice's amount is unknown: nothing is invented; an invoice of zero
    // marked Paid owes nothing and gets no payment.
    assert_eq!(
        state(&s, part.id).await,
        shown(InvoiceStatus::PartPaid, "0.00", "80.00")
    );
    assert_eq!(
        state(&s, zero.id).await,
        shown(InvoiceStatus::Paid, "0.00", "0.00")
    );
    // The first payment of the Part Paid invoice settles its status.
    pay(&s, part.id, "80").await;
    assert_eq!(read(&s, part.id).await.status, InvoiceStatus::Paid);
}
