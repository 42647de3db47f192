//! Payments (`/api/payments`, API.md §14): money received against an invoice. The record,
//! the command that records one, its list query, and the refusals of the invoice's
//! [`Balance`](crate::invoice::Balance) told as field errors.
//!
//! A payment is never edited: it is recorded, read, listed and deleted. Recording or
//! deleting one changes the invoice's balance, and so its status, by the rules of
//! [`crate::invoice::balance`].

use chrono::NaiveDate;
use serde::Serialize;

use crate::choice_enum;
use crate::currency::{Amount, Currency};
use crate::ids::{ClientId, InvoiceId, Named, PaymentId, UserId};
use crate::input::{Form, RawMap, TextRule, read_date, read_id, read_money_input_positive, text};
use crate::invoice::records::{InvoiceRecordFilters, InvoiceRecordSort};
use crate::invoice::{PaymentRefusal, TotalBelowPaid};
use crate::listing::{KeyKind, ListQuery};
use crate::money::{Money, MoneyInput};
use crate::time::Timestamp;
use crate::validation::{FieldErrors, Rejected, message};

/// The invoice field of a payment.
pub const INVOICE_FIELD: &str = "payment_invoiceid";
/// The amount field of a payment.
pub const AMOUNT_FIELD: &str = "payment_amount";

choice_enum!(
    /// Sort keys of the payment list.
    pub enum PaymentSort {
        /// By the date the money was received.
        Date = "payment_date",
        /// By amount.
        Amount = "payment_amount",
        /// By when it was recorded.
        Created = "payment_created",
    }
);

/// A payment's dates (it is never updated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PaymentDates {
    /// When it was recorded.
    pub created: Timestamp,
}

/// A payment as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Payment {
    /// Payment id.
    pub id: PaymentId,
    /// The invoice it pays.
    pub invoice_id: InvoiceId,
    /// The invoice's client.
    pub client: Named<ClientId>,
    /// The amount received, in the invoice's currency (its decimals).
    pub amount: Amount,
    /// The invoice's currency (API.md §18: a payment is in its invoice's currency).
    pub currency: Currency,
    /// The day it was received.
    pub date: NaiveDate,
    /// How it was paid (bank transfer, card, …).
    pub method: Option<String>,
    /// The bank's or processor's reference.
    pub transaction_id: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Who recorded it.
    pub creator_id: UserId,
    /// When it was recorded.
    pub dates: PaymentDates,
}

/// `POST /payments`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPayment {
    /// `payment_invoiceid`: an invoice that takes payments (checked by the store, under
    /// the invoice's lock).
    pub invoice: i64,
    /// `payment_amount`: more than 0, at most the amount due, with at most the invoice
    /// currency's decimals ([`NewPayment::amount_in`]).
    pub amount: MoneyInput,
    /// `payment_date`.
    pub date: NaiveDate,
    /// `payment_method` (at most 100 characters, one line).
    pub method: Option<String>,
    /// `payment_transaction_id` (at most 250 characters, one line).
    pub transaction_id: Option<String>,
    /// `payment_notes` (at most 65,535 characters).
    pub notes: Option<String>,
}

impl NewPayment {
    /// Reads the command from a request. A request refused for its own fields still
    /// carries the payment it asks for ([`crate::validation::PaymentClaim`]), so that the
    /// invoice and the amount due are judged beside them.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let invoice = form.required(INVOICE_FIELD, read_id);
        let amount = form.required(AMOUNT_FIELD, read_money_input_positive);
        let date = form.required("payment_date", read_date);
        let method = form.optional("payment_method", text(TextRule::LABEL));
        let transaction_id = form.optional("payment_transaction_id", text(TextRule::SHORT));
        let notes = form.optional("payment_notes", text(TextRule::LONG));
        if let Some(invoice) = invoice
            && form.has_errors()
        {
            form.claim_payment(INVOICE_FIELD, invoice, AMOUNT_FIELD, amount);
        }
        form.finish()?;
        match (invoice, amount, date) {
            (Some(invoice), Some(amount), Some(date)) => Ok(NewPayment {
                invoice,
                amount,
                date,
                method,
                transaction_id,
                notes,
            }),
            _ => Err(Rejected::default()),
        }
    }
}

impl NewPayment {
    /// The amount in the invoice's `currency`: more decimals than it has is
    /// "The payment amount may not have more than 0 decimal places.".
    pub fn amount_in(&self, currency: Currency) -> Result<Money, FieldErrors> {
        let mut errors = FieldErrors::new();
        match currency.money(AMOUNT_FIELD, self.amount, &mut errors) {
            Some(amount) => Ok(amount),
            None => Err(errors),
        }
    }
}

/// The field errors of a payment refused by its invoice's balance, each saying what to do:
/// an unknown invoice is "The selected payment invoiceid is invalid.", a Draft "The
/// invoice must be published before a payment is recorded.", a Cancelled one "A cancelled
/// invoice takes no payment.", an amount past the amount due "The payment amount may not be
/// greater than the amount due.".
pub fn refusal_errors(refusal: PaymentRefusal) -> FieldErrors {
    match refusal {
        PaymentRefusal::Unknown => {
            FieldErrors::single(INVOICE_FIELD, message::invalid(INVOICE_FIELD))
        }
        PaymentRefusal::Unpublished => FieldErrors::single(
            INVOICE_FIELD,
            "The invoice must be published before a payment is recorded.".to_owned(),
        ),
        PaymentRefusal::Cancelled => FieldErrors::single(
            INVOICE_FIELD,
            "A cancelled invoice takes no payment.".to_owned(),
        ),
        PaymentRefusal::MoreThanDue => FieldErrors::single(
            AMOUNT_FIELD,
            format!(
                "The {} may not be greater than the amount due.",
                crate::validation::attribute(AMOUNT_FIELD)
            ),
        ),
    }
}

/// The message of a change that would bring an invoice's final amount below what was
/// paid, on `field` (`items`, or the PATCH field totals are blamed on).
pub fn total_below_paid_errors(_: TotalBelowPaid, field: &str) -> FieldErrors {
    FieldErrors::single(
        field,
        "The invoice total may not be less than the amount paid.".to_owned(),
    )
}

/// `GET /payments`: paging, order, sort, search (method, transaction id and notes), and
/// [`PaymentFilters`].
pub type PaymentListQuery = ListQuery<PaymentFilters>;

/// The payment list's filters: `invoice_id`, `client_id`, and the days received
/// (`date_from`, `date_to`).
pub type PaymentFilters = InvoiceRecordFilters<PaymentSort>;

impl InvoiceRecordSort for PaymentSort {
    const LIST: &'static str = "payments";

    fn key_kind(sort: Option<PaymentSort>) -> KeyKind {
        match sort {
            None | Some(PaymentSort::Created) => KeyKind::Integer,
            Some(PaymentSort::Date) => KeyKind::Date,
            Some(PaymentSort::Amount) => KeyKind::Decimal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawValue;
    use crate::input::test_input::{msg, raw, raw_values};

    fn base() -> Vec<(&'static str, &'static str)> {
        vec![
            ("payment_invoiceid", "7"),
            ("payment_amount", "120.50"),
            ("payment_date", "2026-11-20"),
        ]
    }

    #[test]
    fn a_payment_needs_an_invoice_an_amount_and_a_date() {
        let r = NewPayment::parse(&raw(&[])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "payment_invoiceid"),
            ["The payment invoiceid field is required."]
        );
        assert_eq!(
            msg(&r.errors, "payment_amount"),
            ["The payment amount field is required."]
        );
        assert_eq!(
            msg(&r.errors, "payment_date"),
            ["The payment date field is required."]
        );
        let p = NewPayment::parse(&raw(&base())).unwrap();
        assert_eq!(
            (p.invoice, p.amount_in(Currency::EUR).unwrap().to_string()),
            (7, "120.50".to_owned())
        );
        assert_eq!((p.method, p.transaction_id, p.notes), (None, None, None));
    }

    #[test]
    fn the_amount_is_more_than_zero_with_the_currency_decimals_at_most() {
        for (value, expected) in [
            ("0", "The payment amount must be greater than 0."),
            ("-5", "The payment amount must be greater than 0."),
            ("-1e20", "The payment amount must be greater than 0."),
            (
                "10000000000000",
                "The payment amount may not be greater than 9999999999999.99.",
            ),
            ("ten", "The payment amount must be a number."),
        ] {
            let mut pairs = base();
            pairs[1] = ("payment_amount", value);
            let r = NewPayment::parse(&raw(&pairs)).unwrap_err();
            assert_eq!(msg(&r.errors, "payment_amount"), [expected], "{value}");
        }
        let json = raw_values(&[
            ("payment_invoiceid", RawValue::Number("7".into())),
            ("payment_amount", RawValue::Number("0.01".into())),
            ("payment_date", RawValue::text("2026-11-20")),
        ]);
        let p = NewPayment::parse(&json).unwrap();
        assert_eq!(p.amount_in(Currency::EUR).unwrap().to_string(), "0.01");
        let mut pairs = base();
        pairs[1] = ("payment_amount", "1.005");
        let p = NewPayment::parse(&raw(&pairs)).unwrap();
        let e = p.amount_in(Currency::EUR).unwrap_err();
        assert_eq!(
            msg(&e, "payment_amount"),
            ["The payment amount may not have more than 2 decimal places."]
        );
        assert!(p.amount_in(Currency::from_code("KWD").unwrap()).is_ok());
        pairs[1] = ("payment_amount", "1500.5");
        let p = NewPayment::parse(&raw(&pairs)).unwrap();
        let e = p
            .amount_in(Currency::from_code("JPY").unwrap())
            .unwrap_err();
        assert_eq!(
            msg(&e, "payment_amount"),
            ["The payment amount may not have more than 0 decimal places."]
        );
    }

    #[test]
    fn texts_have_their_limits_and_the_method_is_one_line() {
        let mut pairs = base();
        let long = "x".repeat(101);
        pairs.push(("payment_method", &long));
        pairs.push(("payment_transaction_id", "TX\n2"));
        let r = NewPayment::parse(&raw(&pairs)).unwrap_err();
        assert_eq!(
            msg(&r.errors, "payment_method"),
            ["The payment method may not be greater than 100 characters."]
        );
        assert_eq!(
            msg(&r.errors, "payment_transaction_id"),
            ["The payment transaction id format is invalid."]
        );
    }

    #[test]
    fn a_refused_request_carries_its_payment_for_the_database_to_judge() {
        let mut pairs = base();
        pairs[2] = ("payment_date", "2026-02-30");
        let r = NewPayment::parse(&raw(&pairs)).unwrap_err();
        let claim = &r.references.payments()[0];
        assert_eq!(
            (claim.invoice, claim.amount),
            (7, Some(MoneyInput::parse("120.50").unwrap()))
        );
        assert_eq!(
            (claim.invoice_field.as_str(), claim.amount_field.as_str()),
            ("payment_invoiceid", "payment_amount")
        );
    }

    #[test]
    fn refusals_are_the_contracts_messages() {
        let e = refusal_errors(PaymentRefusal::Unknown);
        assert_eq!(
            msg(&e, "payment_invoiceid"),
            ["The selected payment invoiceid is invalid."]
        );
        let e = refusal_errors(PaymentRefusal::Unpublished);
        assert_eq!(
            msg(&e, "payment_invoiceid"),
            ["The invoice must be published before a payment is recorded."]
        );
        let e = refusal_errors(PaymentRefusal::Cancelled);
        assert_eq!(
            msg(&e, "payment_invoiceid"),
            ["A cancelled invoice takes no payment."]
        );
        let e = refusal_errors(PaymentRefusal::MoreThanDue);
        assert_eq!(
            msg(&e, "payment_amount"),
            ["The payment amount may not be greater than the amount due."]
        );
        let e = total_below_paid_errors(TotalBelowPaid, "items");
        assert_eq!(
            msg(&e, "items"),
            ["The invoice total may not be less than the amount paid."]
        );
    }

    #[test]
    fn list_filters_are_checked_and_a_period_runs_forward() {
        let r = PaymentListQuery::parse(&raw(&[
            ("invoice_id", "x"),
            ("client_id", "0"),
            ("date_from", "2026-11-20"),
            ("date_to", "2026-11-19"),
            ("sort", "bill_date"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "invoice_id"),
            ["The invoice id must be an integer."]
        );
        assert_eq!(
            msg(&r.errors, "client_id"),
            ["The selected client id is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "date_to"),
            ["The date to must be a date after or equal to date from."]
        );
        assert_eq!(msg(&r.errors, "sort"), ["The selected sort is invalid."]);
        let q = PaymentListQuery::parse(&raw(&[
            ("date_from", "2026-11-20"),
            ("date_to", "2026-11-20"),
            ("sort", "payment_amount"),
        ]))
        .unwrap();
        assert_eq!(q.params.sort, Some(PaymentSort::Amount));
        assert_eq!(q.filters.date_to, q.filters.date_from);
    }
}
