//! An invoice's balance (API.md §14, §18): what it comes to, what its payments and credit
//! notes add up to, and the stored status that follows from them.
//!
//! An invoice is *open* once published: Due, Part Paid or Paid (Overdue is only shown).
//! Only an open invoice takes payments, and never more than its amount due; only an issued
//! one takes credit notes, and never more than what is not yet credited. A credit note
//! first reduces what is still due (its *applied* part); the rest is a *refund* owed back
//! to the client. So `amount_due = final − paid − applied` stays between zero and the final
//! amount, and what was paid plus what was applied plus what is due is the final amount.
//! The status of an open invoice follows ([`settled`]): nothing due and something paid →
//! Paid, nothing due and nothing paid but credited → Cancelled, something paid → Part
//! Paid, else Due. Every change that touches the balance goes through one function here —
//! [`Balance::record`], [`Balance::remove`], [`Balance::credit`], [`Balance::retotal`],
//! [`Balance::set_status`] — which returns the new balance or says why not, so that the
//! store only reads the balance under the invoice's row lock, asks, and writes the
//! answer.

use rust_decimal::Decimal;

use super::InvoiceStatus;
use crate::conflict::Conflict;
use crate::money::Money;

/// What an invoice comes to, what it was paid and credited, with its stored status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Balance {
    /// The stored status (never Overdue, which is derived on read).
    pub status: InvoiceStatus,
    /// The final amount.
    pub total: Money,
    /// The sum of its payments.
    pub paid: Money,
    /// The sum of its credit notes' applied amounts (what they took off the amount due).
    pub applied: Money,
    /// The sum of its credit notes' refunds (what they credited beyond the amount due).
    pub refunded: Money,
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

/// Why an invoice does not take a credit note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreditRefusal {
    /// It was never issued (a draft, or an invoice from before numbers): there is nothing
    /// to correct, change it instead.
    NotIssued,
    /// The credit note is zero or less.
    NotPositive,
    /// The credit note is more than what is not yet credited of the final amount.
    MoreThanNotCredited,
}

/// What a credit note does to its invoice's balance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Credit {
    /// The part that reduced the amount due.
    pub applied: Money,
    /// The part beyond the amount due: owed back to the client (recorded, not moved).
    pub refund: Money,
}

/// A new final amount below what was already paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TotalBelowPaid;

/// Deleting a payment that a credit note's refund stands on: the refund was owed because
/// the invoice was paid; without the payment it would be owed for nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefundStandsOnPayments;

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

/// The status payments and credits give an open invoice of `total` of which `paid` was
/// paid and `applied` credited against the amount due: nothing due and something paid →
/// Paid; nothing due, nothing paid, something credited → Cancelled; something paid → Part
/// Paid; else Due (an invoice of zero or less without payments too). A recomputation from
/// scratch.
pub fn derived(total: Money, paid: Money, applied: Money) -> InvoiceStatus {
    let due = total.get() - paid.get() - applied.get();
    let paid_any = !paid.get().is_zero();
    if due <= Decimal::ZERO && paid_any {
        InvoiceStatus::Paid
    } else if due <= Decimal::ZERO && !applied.get().is_zero() {
        InvoiceStatus::Cancelled
    } else if paid_any {
        InvoiceStatus::PartPaid
    } else {
        InvoiceStatus::Due
    }
}

impl Balance {
    /// An invoice stored as `status`, of `total`, paid `paid`, neither credited.
    pub fn uncredited(status: InvoiceStatus, total: Money, paid: Money) -> Balance {
        Balance {
            status,
            total,
            paid,
            applied: Money::ZERO,
            refunded: Money::ZERO,
        }
    }

    /// The final amount less what was paid and what credit notes took off it
    /// (`amount_due`).
    pub fn due(&self) -> Decimal {
        self.total.get() - self.paid.get() - self.applied.get()
    }

    /// What its credit notes add up to (`amount_credited`): applied and refunded.
    pub fn credited(&self) -> Decimal {
        self.applied.get() + self.refunded.get()
    }

    /// What may still be credited: the final amount less what was credited.
    pub fn not_credited(&self) -> Decimal {
        self.total.get() - self.credited()
    }

    /// Whether the invoice takes payments at all (it is open).
    pub fn takes_payments(&self) -> bool {
        is_open(self.status)
    }

    /// Whether the stored status agrees with the payments and credits: the derived
    /// status, or Paid when nothing is left to pay and nothing was credited (an invoice of
    /// zero, marked Paid by hand, owes nothing either).
    pub fn agrees(&self, status: InvoiceStatus) -> bool {
        status == derived(self.total, self.paid, self.applied)
            || (status == InvoiceStatus::Paid
                && self.applied.get().is_zero()
                && self.due() <= Decimal::ZERO)
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
    /// is Part Paid or Due again); refused while a credit note's refund stands on what was
    /// paid (an invoice with a refund has nothing due, so any payment deleted would leave
    /// the refund owed for nothing).
    pub fn remove(self, amount: Money) -> Result<Balance, RefundStandsOnPayments> {
        if !self.refunded.get().is_zero() {
            return Err(RefundStandsOnPayments);
        }
        let left = (self.paid.get() - amount.get()).max(Decimal::ZERO);
        let paid = Money::new(left).unwrap_or(Money::ZERO);
        Ok(self.with(self.total, paid))
    }

    /// A credit note of `amount` issued against the invoice (`issued`: it has a number):
    /// the new balance and what the credit note applied and refunded; refused for an
    /// invoice never issued, an amount of zero or less, or one above what is not yet
    /// credited. The applied part is what was due, at most; the status follows.
    pub fn credit(self, issued: bool, amount: Money) -> Result<(Balance, Credit), CreditRefusal> {
        if !issued || self.status == InvoiceStatus::Draft {
            return Err(CreditRefusal::NotIssued);
        }
        if amount.get() <= Decimal::ZERO {
            return Err(CreditRefusal::NotPositive);
        }
        if amount.get() > self.not_credited() {
            return Err(CreditRefusal::MoreThanNotCredited);
        }
        let applied = amount.get().min(self.due().max(Decimal::ZERO));
        let refund = amount.get() - applied;
        // Within the range: both parts are between zero and the final amount < 10^13.
        let money = |d: Decimal| Money::new(d).map_err(|_| CreditRefusal::MoreThanNotCredited);
        let credit = Credit {
            applied: money(applied)?,
            refund: money(refund)?,
        };
        let after = Balance {
            applied: money(self.applied.get() + applied)?,
            refunded: money(self.refunded.get() + refund)?,
            ..self
        };
        let status = match after.status {
            // Open, or cancelled by hand before numbers were kept: the credits decide.
            InvoiceStatus::Cancelled => InvoiceStatus::Cancelled,
            _ => derived(after.total, after.paid, after.applied),
        };
        Ok((Balance { status, ..after }, credit))
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
                if self.agrees(wanted) {
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

    /// The balance with `total` and `paid`, its status [`settled`].
    fn with(self, total: Money, paid: Money) -> Balance {
        let next = Balance {
            total,
            paid,
            ..self
        };
        Balance {
            status: settled(next),
            ..next
        }
    }
}

/// The stored status `balance` settles on: a Draft or Cancelled invoice keeps its status,
/// an open one keeps its status while it [`agrees`](Balance::agrees) with its payments and
/// credits and takes the [`derived`] one otherwise (so that an unrelated change never moves
/// a status that is right).
pub fn settled(balance: Balance) -> InvoiceStatus {
    if !is_open(balance.status) || balance.agrees(balance.status) {
        balance.status
    } else {
        derived(balance.total, balance.paid, balance.applied)
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
        Balance::uncredited(derived(total, paid, Money::ZERO), total, paid)
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
        let b = b.remove(m("40")).unwrap();
        assert_eq!((b.status, b.paid), (InvoiceStatus::PartPaid, m("60")));
        let b = b.remove(m("60")).unwrap();
        assert_eq!((b.status, b.paid), (InvoiceStatus::Due, Money::ZERO));
    }

    #[test]
    fn drafts_and_cancelled_invoices_take_no_payment() {
        for (status, why) in [
            (InvoiceStatus::Draft, PaymentRefusal::Unpublished),
            (InvoiceStatus::Cancelled, PaymentRefusal::Cancelled),
        ] {
            let b = Balance::uncredited(status, m("10"), Money::ZERO);
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
        let zero_paid = Balance::uncredited(InvoiceStatus::Paid, Money::ZERO, Money::ZERO);
        assert_eq!(
            zero_paid.retotal(Money::ZERO).unwrap().status,
            InvoiceStatus::Paid
        );
        // A Part Paid invoice without payments (set by hand before payments were
        // recorded) is Due at its next change.
        let legacy = Balance::uncredited(InvoiceStatus::PartPaid, m("10"), Money::ZERO);
        assert_eq!(legacy.retotal(m("10")).unwrap().status, InvoiceStatus::Due);
        assert_eq!(
            settled(Balance::uncredited(
                InvoiceStatus::Cancelled,
                m("10"),
                m("10")
            )),
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
            let mut b = Balance::uncredited(start, cents(total), Money::ZERO);
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
                        b = b.remove(cents(amount)).expect("nothing refunded");
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
                    prop_assert_eq!(b.status, derived(b.total, b.paid, Money::ZERO));
                } else {
                    prop_assert!(matches!(b.status, InvoiceStatus::Due | InvoiceStatus::Paid));
                }
            }
        }
    }

    #[test]
    fn a_credit_note_reduces_what_is_due_first_and_refunds_the_rest() {
        // 100 due, 60 paid: a credit of 50 applies 40 and refunds 10; the invoice is paid.
        let b = open("100", "0").record(m("60")).unwrap();
        let (after, credit) = b.credit(true, m("50")).unwrap();
        assert_eq!((credit.applied, credit.refund), (m("40"), m("10")));
        assert_eq!(after.status, InvoiceStatus::Paid);
        assert_eq!(
            (after.due(), after.credited()),
            (Decimal::ZERO, m("50").get())
        );
        assert_eq!(after.not_credited(), m("50").get());
        // Nothing more can be paid; 50 more can be credited, all of it refunded.
        assert_eq!(after.record(m("0.01")), Err(PaymentRefusal::MoreThanDue));
        assert_eq!(
            after.credit(true, m("50.01")),
            Err(CreditRefusal::MoreThanNotCredited)
        );
        let (last, credit) = after.credit(true, m("50")).unwrap();
        assert_eq!((credit.applied, credit.refund), (Money::ZERO, m("50")));
        assert_eq!(last.status, InvoiceStatus::Paid);
        // The payments the refunds stand on stay.
        assert_eq!(last.remove(m("60")), Err(RefundStandsOnPayments));
    }

    #[test]
    fn a_credit_of_everything_due_cancels_an_unpaid_invoice_and_part_of_it_keeps_it_due() {
        let (part, _) = open("100", "0").credit(true, m("30")).unwrap();
        assert_eq!(
            (part.status, part.due()),
            (InvoiceStatus::Due, m("70").get())
        );
        let (rest, credit) = part.credit(true, m("70")).unwrap();
        assert_eq!((credit.applied, credit.refund), (m("70"), Money::ZERO));
        assert_eq!(rest.status, InvoiceStatus::Cancelled);
        assert_eq!(rest.record(m("1")), Err(PaymentRefusal::Cancelled));
        // A payment after a partial credit pays what is left: Paid.
        let paid = part.record(m("70")).unwrap();
        assert_eq!(paid.status, InvoiceStatus::Paid);
        // Deleting it (no refund stands on it) makes the invoice Due again.
        assert_eq!(paid.remove(m("70")).unwrap().status, InvoiceStatus::Due);
    }

    #[test]
    fn drafts_unissued_invoices_and_amounts_of_nothing_take_no_credit_note() {
        let draft = Balance::uncredited(InvoiceStatus::Draft, m("10"), Money::ZERO);
        assert_eq!(draft.credit(true, m("1")), Err(CreditRefusal::NotIssued));
        assert_eq!(
            open("10", "0").credit(false, m("1")),
            Err(CreditRefusal::NotIssued)
        );
        assert_eq!(
            open("10", "0").credit(true, Money::ZERO),
            Err(CreditRefusal::NotPositive)
        );
        assert_eq!(
            open("0", "0").credit(true, m("0.01")),
            Err(CreditRefusal::MoreThanNotCredited)
        );
    }

    /// One step of an issued invoice's history: a payment, the n-th kept payment deleted,
    /// or a credit note.
    #[derive(Debug, Clone)]
    enum IssuedStep {
        Pay(i64),
        Delete(usize),
        Credit(i64),
    }

    fn issued_step() -> impl Strategy<Value = IssuedStep> {
        prop_oneof![
            3 => (1i64..=20_000).prop_map(IssuedStep::Pay),
            1 => any::<usize>().prop_map(IssuedStep::Delete),
            2 => (-100i64..=20_000).prop_map(IssuedStep::Credit),
        ]
    }

    proptest! {
        /// Any sequence of payments, deletions of payments and credit notes on an issued
        /// invoice keeps Σ payments + Σ applied credits + amount due = final amount, the
        /// amount due between zero and the final amount, Σ credits at most the final
        /// amount, a refund only where nothing is due, and the status the one derived from
        /// scratch; a refused step changes nothing.
        #[test]
        fn payments_and_credit_notes_always_add_up_to_the_final_amount(
            total in 1i64..=50_000,
            steps in proptest::collection::vec(issued_step(), 0..40),
        ) {
            let mut b = Balance::uncredited(InvoiceStatus::Due, cents(total), Money::ZERO);
            let mut kept: Vec<i64> = Vec::new();
            let (mut applied, mut refunded) = (0i64, 0i64);
            for s in steps {
                let before = b;
                match s {
                    IssuedStep::Pay(amount) => match b.record(cents(amount)) {
                        Ok(next) => { b = next; kept.push(amount); }
                        Err(_) => prop_assert_eq!(b, before),
                    },
                    IssuedStep::Delete(n) if !kept.is_empty() => {
                        let at = n % kept.len();
                        match b.remove(cents(kept[at])) {
                            Ok(next) => { b = next; kept.remove(at); }
                            Err(RefundStandsOnPayments) => {
                                prop_assert_eq!(b, before);
                                prop_assert!(refunded > 0);
                            }
                        }
                    }
                    IssuedStep::Delete(_) => {}
                    IssuedStep::Credit(c) => {
                        let amount = Money::new(Decimal::new(c, 2)).unwrap();
                        match b.credit(true, amount) {
                            Ok((next, credit)) => {
                                prop_assert_eq!(credit.applied.get() + credit.refund.get(), amount.get());
                                applied += (credit.applied.get() * Decimal::ONE_HUNDRED).try_into().unwrap_or(0i64);
                                refunded += (credit.refund.get() * Decimal::ONE_HUNDRED).try_into().unwrap_or(0i64);
                                b = next;
                            }
                            Err(why) => {
                                prop_assert_eq!(b, before);
                                prop_assert!(
                                    (why == CreditRefusal::NotPositive && c <= 0)
                                        || (why == CreditRefusal::MoreThanNotCredited
                                            && amount.get() > b.not_credited())
                                );
                            }
                        }
                    }
                }
                let paid: i64 = kept.iter().sum();
                prop_assert_eq!(b.paid, cents(paid));
                prop_assert_eq!((b.applied, b.refunded), (cents(applied), cents(refunded)));
                prop_assert_eq!(b.paid.get() + b.applied.get() + b.due(), b.total.get());
                prop_assert!(b.due() >= Decimal::ZERO && b.due() <= b.total.get());
                prop_assert!(b.credited() <= b.total.get());
                prop_assert!(refunded == 0 || b.due().is_zero());
                prop_assert_eq!(b.status, derived(b.total, b.paid, b.applied));
            }
        }
    }
}
