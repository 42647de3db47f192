//! An invoice's balance (API.md §14): what it comes to, what its payments add up to, and
//! the stored status that follows from the two.
//!
//! An invoice is *open* once published: Due, Part Paid or Paid (Overdue is only shown).
//! Only an open invoice takes payments, and never more than its amount due, so what was
//! paid stays between zero and the final amount. The status of an open invoice follows
//! its payments ([`settled`]): nothing paid → Due, everything → Paid, anything between →
//! Part Paid. Every change that touches the balance goes through one function here —
//! [`Balance::record`], [`Balance::remove`], [`Balance::retotal`],
//! [`Balance::set_status`] — which returns the new balance or says why not, so that the
//! store only reads the balance under the invoice's row lock, asks, and writes the
//! answer.

use rust_decimal::Decimal;

use super::InvoiceStatus;
use crate::conflict::Conflict;
use crate::money::Money;

/// What an invoice comes to and what it was paid, with its stored status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Balance {
    /// The stored status (never Overdue, which is derived on read).
    pub status: InvoiceStatus,
    /// The final amount.
    pub total: Money,
    /// The sum of its payments.
    pub paid: Money,
}

/// Why an invoice does not take a payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentRefusal {
    /// No such invoice.
    Unknown,
    /// It is a Draft: it takes payments once it is published.
    Unpublished,
    /// It is Cancelled: it takes no payment at all.
    Cancelled,
    /// The amount is more than the amount due.
    MoreThanDue,
}

/// A new final amount below what was already paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TotalBelowPaid;

/// Whether an invoice stored as `status` is open: published and not cancelled.
pub fn is_open(status: InvoiceStatus) -> bool {
    match status {
        InvoiceStatus::Due
        | InvoiceStatus::Overdue
        | InvoiceStatus::PartPaid
        | InvoiceStatus::Paid => true,
        InvoiceStatus::Draft | InvoiceStatus::Cancelled => false,
    }
}

/// The status payments give an open invoice of `total` of which `paid` was paid: nothing
/// paid → Due, the whole amount (or more than nothing left to pay) → Paid, anything
/// between → Part Paid. A recomputation from scratch.
pub fn derived(total: Money, paid: Money) -> InvoiceStatus {
    if paid.get().is_zero() {
        InvoiceStatus::Due
    } else if paid >= total {
        InvoiceStatus::Paid
    } else {
        InvoiceStatus::PartPaid
    }
}

/// Whether an open invoice stored as `status` agrees with its payments: the derived
/// status, or Paid when nothing is left to pay (an invoice of zero, marked Paid by hand,
/// owes nothing either).
pub fn agrees(status: InvoiceStatus, total: Money, paid: Money) -> bool {
    status == derived(total, paid) || (status == InvoiceStatus::Paid && paid >= total)
}

/// The stored status an invoice stored as `status` has once its balance is `total` and
/// `paid`: a Draft or Cancelled invoice keeps its status (it has no payments), an open one
/// keeps its status while it [`agrees`] with the payments and takes the [`derived`] one
/// otherwise (so that an unrelated change never moves a status that is right).
pub fn settled(status: InvoiceStatus, total: Money, paid: Money) -> InvoiceStatus {
    if !is_open(status) || agrees(status, total, paid) {
        status
    } else {
        derived(total, paid)
    }
}

impl Balance {
    /// The final amount less what was paid (`amount_due`).
    pub fn due(&self) -> Decimal {
        self.total.get() - self.paid.get()
    }

    /// Whether the invoice takes payments at all (it is open).
    pub fn takes_payments(&self) -> bool {
        is_open(self.status)
    }

    /// Why the invoice takes no payment at all, or `None` when it is open.
    pub fn closed(&self) -> Option<PaymentRefusal> {
        match self.status {
            InvoiceStatus::Draft => Some(PaymentRefusal::Unpublished),
            InvoiceStatus::Cancelled => Some(PaymentRefusal::Cancelled),
            InvoiceStatus::Due
            | InvoiceStatus::Overdue
            | InvoiceStatus::PartPaid
            | InvoiceStatus::Paid => None,
        }
    }

    /// A payment of `amount` (> 0) recorded: the new balance, its status settled; refused
    /// when the invoice is not open or the amount is more than the amount due.
    pub fn record(self, amount: Money) -> Result<Balance, PaymentRefusal> {
        if let Some(refusal) = self.closed() {
            return Err(refusal);
        }
        if amount.get() > self.due() {
            return Err(PaymentRefusal::MoreThanDue);
        }
        // Within the range: 0 < paid + amount ≤ total < 10^13.
        let paid =
            Money::new(self.paid.get() + amount.get()).map_err(|_| PaymentRefusal::MoreThanDue)?;
        Ok(self.with(self.total, paid))
    }

    /// A payment of `amount` deleted: the new balance, its status settled (a Paid invoice
    /// is Part Paid or Due again).
    pub fn remove(self, amount: Money) -> Balance {
        let left = (self.paid.get() - amount.get()).max(Decimal::ZERO);
        let paid = Money::new(left).unwrap_or(Money::ZERO);
        self.with(self.total, paid)
    }

    /// The invoice's final amount changed (its items, discount, adjustment or tax mode):
    /// the new balance, its status settled; refused when the new amount is below what was
    /// paid (with nothing paid, any amount will do: a credit of -10.00 too).
    pub fn retotal(self, total: Money) -> Result<Balance, TotalBelowPaid> {
        if !self.paid.get().is_zero() && total < self.paid {
            return Err(TotalBelowPaid);
        }
        Ok(self.with(total, self.paid))
    }

    /// `PUT /invoices/{id}/status` with `wanted` (never Overdue): an invoice with payments
    /// cannot go back to Draft or be Cancelled (delete its payments first), and an open
    /// status must agree with the payments (Part Paid and Paid are recorded, not declared).
    pub fn set_status(self, wanted: InvoiceStatus) -> Result<Balance, Conflict> {
        let has_payments = !self.paid.get().is_zero();
        let allowed = match wanted {
            InvoiceStatus::Draft | InvoiceStatus::Cancelled if has_payments => {
                Err(Conflict::InvoiceHasPayments)
            }
            InvoiceStatus::Draft | InvoiceStatus::Cancelled => Ok(()),
            InvoiceStatus::Due
            | InvoiceStatus::Overdue
            | InvoiceStatus::PartPaid
            | InvoiceStatus::Paid => {
                if agrees(wanted, self.total, self.paid) {
                    Ok(())
                } else {
                    Err(Conflict::InvoiceStatusFollowsPayments)
                }
            }
        };
        allowed.map(|()| Balance {
            status: wanted,
            ..self
        })
    }

    /// The balance with `total` and `paid`, its status settled.
    fn with(self, total: Money, paid: Money) -> Balance {
        Balance {
            status: settled(self.status, total, paid),
            total,
            paid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn m(s: &str) -> Money {
        Money::parse(s).unwrap()
    }

    fn open(total: &str, paid: &str) -> Balance {
        let (total, paid) = (m(total), m(paid));
        Balance {
            status: derived(total, paid),
            total,
            paid,
        }
    }

    #[test]
    fn payments_move_a_due_invoice_to_part_paid_then_paid_to_the_cent() {
        let b = open("100.00", "0");
        assert_eq!(b.status, InvoiceStatus::Due);
        let b = b.record(m("99.99")).unwrap();
        assert_eq!(
            (b.status, b.due()),
            (InvoiceStatus::PartPaid, m("0.01").get())
        );
        assert_eq!(b.record(m("0.02")), Err(PaymentRefusal::MoreThanDue));
        let b = b.record(m("0.01")).unwrap();
        assert_eq!((b.status, b.due()), (InvoiceStatus::Paid, Decimal::ZERO));
        assert_eq!(b.record(m("0.01")), Err(PaymentRefusal::MoreThanDue));
    }

    #[test]
    fn deleting_a_payment_of_a_paid_invoice_makes_it_part_paid_or_due_again() {
        let b = open("100", "0")
            .record(m("60"))
            .unwrap()
            .record(m("40"))
            .unwrap();
        assert_eq!(b.status, InvoiceStatus::Paid);
        let b = b.remove(m("40"));
        assert_eq!((b.status, b.paid), (InvoiceStatus::PartPaid, m("60")));
        let b = b.remove(m("60"));
        assert_eq!((b.status, b.paid), (InvoiceStatus::Due, Money::ZERO));
    }

    #[test]
    fn drafts_and_cancelled_invoices_take_no_payment() {
        for (status, why) in [
            (InvoiceStatus::Draft, PaymentRefusal::Unpublished),
            (InvoiceStatus::Cancelled, PaymentRefusal::Cancelled),
        ] {
            let b = Balance {
                status,
                total: m("10"),
                paid: Money::ZERO,
            };
            assert_eq!(b.record(m("1")), Err(why));
        }
    }

    #[test]
    fn a_total_below_what_was_paid_is_refused_and_a_change_above_it_settles_the_status() {
        let b = open("100", "0").record(m("100")).unwrap();
        assert_eq!(b.retotal(m("99.99")), Err(TotalBelowPaid));
        let more = b.retotal(m("150")).unwrap();
        assert_eq!(more.status, InvoiceStatus::PartPaid);
        assert_eq!(more.retotal(m("100")).unwrap().status, InvoiceStatus::Paid);
        // Without payments a Due invoice stays Due whatever its total, a credit too.
        for total in ["0", "-10"] {
            assert_eq!(
                open("100", "0").retotal(m(total)).unwrap().status,
                InvoiceStatus::Due
            );
        }
    }

    #[test]
    fn the_status_set_by_hand_must_agree_with_the_payments() {
        let unpaid = open("100", "0");
        assert_eq!(
            unpaid.set_status(InvoiceStatus::Paid),
            Err(Conflict::InvoiceStatusFollowsPayments)
        );
        assert_eq!(
            unpaid.set_status(InvoiceStatus::PartPaid),
            Err(Conflict::InvoiceStatusFollowsPayments)
        );
        for ok in [
            InvoiceStatus::Draft,
            InvoiceStatus::Due,
            InvoiceStatus::Cancelled,
        ] {
            assert_eq!(unpaid.set_status(ok).unwrap().status, ok);
        }
        let part = unpaid.record(m("1")).unwrap();
        for refused in [InvoiceStatus::Draft, InvoiceStatus::Cancelled] {
            assert_eq!(part.set_status(refused), Err(Conflict::InvoiceHasPayments));
        }
        assert_eq!(
            part.set_status(InvoiceStatus::Due),
            Err(Conflict::InvoiceStatusFollowsPayments)
        );
        assert_eq!(
            part.set_status(InvoiceStatus::PartPaid).unwrap().status,
            InvoiceStatus::PartPaid
        );
        // An invoice of zero owes nothing: Due or Paid, as its sender says.
        let zero = open("0", "0");
        assert_eq!(
            zero.set_status(InvoiceStatus::Paid).unwrap().status,
            InvoiceStatus::Paid
        );
        assert_eq!(
            zero.set_status(InvoiceStatus::Paid)
                .unwrap()
                .set_status(InvoiceStatus::Due)
                .unwrap()
                .status,
            InvoiceStatus::Due
        );
    }

    #[test]
    fn a_status_that_agrees_is_kept_and_one_that_does_not_is_derived() {
        // A Paid invoice of zero without payments keeps Paid through a change of nothing.
        let zero_paid = Balance {
            status: InvoiceStatus::Paid,
            total: Money::ZERO,
            paid: Money::ZERO,
        };
        assert_eq!(
            zero_paid.retotal(Money::ZERO).unwrap().status,
            InvoiceStatus::Paid
        );
        // A Part Paid invoice without payments (set by hand before payments were
        // recorded) is Due at its next change.
        let legacy = Balance {
            status: InvoiceStatus::PartPaid,
            total: m("10"),
            paid: Money::ZERO,
        };
        assert_eq!(legacy.retotal(m("10")).unwrap().status, InvoiceStatus::Due);
        assert_eq!(
            settled(InvoiceStatus::Cancelled, m("10"), m("10")),
            InvoiceStatus::Cancelled
        );
    }

    /// One step of a history: a payment recorded, the n-th kept payment deleted, or the
    /// invoice's final amount changed.
    #[derive(Debug, Clone)]
    enum Step {
        Record(i64),
        Delete(usize),
        Retotal(i64),
    }

    fn cents(c: i64) -> Money {
        Money::from_cents(c).unwrap()
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            4 => (1i64..=20_000).prop_map(Step::Record),
            2 => any::<usize>().prop_map(Step::Delete),
            1 => (-1_000i64..=60_000).prop_map(Step::Retotal),
        ]
    }

    proptest! {
        /// Any sequence of recorded and deleted payments (and changes of the final amount)
        /// leaves the balance equal to a recomputation from scratch: paid is the sum of
        /// the payments kept, between zero and the total, and the status of an open invoice
        /// is the one its total and that sum give (where both Due and Paid would do, an
        /// invoice of zero or less without payments, one of them); a Draft or Cancelled
        /// invoice takes no payment and keeps its status; a refused step changes nothing.
        #[test]
        fn any_history_of_payments_equals_a_recomputation_from_scratch(
            total in -1_000i64..=50_000,
            start in prop_oneof![Just(InvoiceStatus::Due), Just(InvoiceStatus::Paid),
                                 Just(InvoiceStatus::Draft), Just(InvoiceStatus::Cancelled)],
            steps in proptest::collection::vec(step(), 0..40),
        ) {
            // A consistent start: marked Paid only when nothing is due.
            let start = if start == InvoiceStatus::Paid && total > 0 { InvoiceStatus::Due } else { start };
            let mut b = Balance { status: start, total: cents(total), paid: Money::ZERO };
            let mut kept: Vec<i64> = Vec::new();
            for s in steps {
                let before = b;
                match s {
                    Step::Record(amount) => match b.record(cents(amount)) {
                        Ok(next) => { b = next; kept.push(amount); }
                        Err(why) => {
                            prop_assert_eq!(b, before);
                            if is_open(b.status) {
                                prop_assert_eq!(why, PaymentRefusal::MoreThanDue);
                                prop_assert!(cents(amount).get() > b.due());
                            } else {
                                prop_assert_eq!(Some(why), b.closed());
                            }
                        }
                    },
                    Step::Delete(n) if !kept.is_empty() => {
                        let amount = kept.remove(n % kept.len());
                        b = b.remove(cents(amount));
                    }
                    Step::Delete(_) => {}
                    Step::Retotal(t) => match b.retotal(cents(t)) {
                        Ok(next) => b = next,
                        Err(TotalBelowPaid) => {
                            prop_assert_eq!(b, before);
                            prop_assert!(!kept.is_empty() && cents(t) < b.paid);
                        }
                    },
                }
                let sum: i64 = kept.iter().sum();
                prop_assert_eq!(b.paid, cents(sum));
                prop_assert!(kept.is_empty() || b.paid <= b.total);
                if !is_open(start) {
                    prop_assert!(kept.is_empty());
                    prop_assert_eq!(b.status, start);
                } else if b.total.get() > Decimal::ZERO || !kept.is_empty() {
                    prop_assert_eq!(b.status, derived(b.total, b.paid));
                } else {
                    prop_assert!(matches!(b.status, InvoiceStatus::Due | InvoiceStatus::Paid));
                }
            }
        }
    }
}
