//! Credit notes (API.md §18): the correction of an issued invoice, which is never changed.
//!
//! A credit note credits the whole invoice or some lines of it, is issued at once with its
//! own number (the `CN-…` series), and is immutable: it is issued, read, listed and shown,
//! never edited nor deleted. What it does to its invoice — the part that reduces the amount
//! due and the part refunded — is the invoice's [`Balance::credit`](crate::invoice::Balance::credit);
//! this module has the record, the command, the list query, and the refusals told as the
//! API tells them.

use chrono::NaiveDate;
use serde::Serialize;

use crate::bill::{BillTotals, ClientLink, ItemsRequest, LineItem, TaxRecord};
use crate::choice_enum;
use crate::conflict::Conflict;
use crate::currency::{Amount, Currency};
use crate::ids::{CategoryId, ClientId, CreditNoteId, InvoiceId, Named, ProjectId, UserId};
use crate::input::{Form, RawMap, TextRule, read_date, text};
use crate::invoice::CreditRefusal;
use crate::invoice::records::{InvoiceRecordFilters, InvoiceRecordSort};
use crate::listing::{KeyKind, ListQuery};
use crate::time::Timestamp;
use crate::totals::TaxMode;
use crate::validation::{FieldErrors, Rejected, message};

/// The field a credit note's amount is judged on: its lines (a credit of the whole invoice
/// names them too, as listing them is how to credit less).
pub const ITEMS_FIELD: &str = "items";

choice_enum!(
    /// Sort keys of the credit note list.
    pub enum CreditNoteSort {
        /// By the credit note's date.
        Date = "date",
        /// By its final amount.
        Amount = "final_amount",
        /// By when it was issued.
        Created = "created",
    }
);

/// A credit note's dates (it is never updated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CreditNoteDates {
    /// Its date (the day it credits on).
    pub date: NaiveDate,
    /// When it was issued.
    pub created: Timestamp,
}

/// A credit note as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CreditNote {
    /// Credit note id.
    pub id: CreditNoteId,
    /// Its number (`CN-2026-00001`), given when it was issued.
    pub number: String,
    /// The invoice it credits.
    pub invoice_id: InvoiceId,
    /// That invoice's number.
    pub invoice_number: String,
    /// The invoice's client.
    pub client: Named<ClientId>,
    /// The invoice's project.
    pub project_id: Option<ProjectId>,
    /// The invoice's category.
    pub category: Named<CategoryId>,
    /// The invoice's currency, in which every amount of it is.
    pub currency: Currency,
    /// Its date.
    pub date: NaiveDate,
    /// Why it was issued.
    pub reason: String,
    /// The invoice's tax mode, which its lines follow.
    pub tax_type: TaxMode,
    /// The lines it credits, in order.
    pub lines: Vec<LineItem>,
    /// Its tax records.
    pub taxes: Vec<TaxRecord>,
    /// Its totals (`final_amount` is what it credits).
    pub totals: BillTotals,
    /// The part of it that reduced the invoice's amount due.
    pub applied_amount: Amount,
    /// The part beyond the amount due: owed back to the client (recorded, not moved).
    pub refund_amount: Amount,
    /// Who issued it (`None` once that user is gone).
    pub creator_id: Option<UserId>,
    /// Its dates.
    pub dates: CreditNoteDates,
    /// The client link, while one works.
    pub client_link: Option<ClientLink>,
    /// Who it is from and to, as they were when it was issued.
    pub parties: crate::party::Parties,
}

/// `POST /invoices/{id}/credit-notes`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCreditNote {
    /// `reason` (required, at most 65,535 characters).
    pub reason: String,
    /// `date` (`None`: today).
    pub date: Option<NaiveDate>,
    /// The lines to credit, as `PUT …/items` takes them (`items`, `tax_rate_ids`),
    /// checked against the invoice's tax mode by the store; `None` credits the whole
    /// invoice.
    pub items: Option<ItemsRequest>,
}

impl NewCreditNote {
    /// Reads the command. Lines are read when `items` or `tax_rate_ids` is given; the
    /// errors that do not depend on the invoice's tax mode are reported with the others
    /// (those that do, once the invoice is read).
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let items = (raw.get("items").is_some() || raw.get("tax_rate_ids").is_some())
            .then(|| ItemsRequest::read(raw));
        let mut form = Form::new(raw);
        let reason = form.required("reason", text(TextRule::LONG));
        let date = form.optional("date", read_date);
        if let Err(mut rejected) = form.finish() {
            if let Some(items) = &items {
                rejected.errors.merge(items.errors().clone());
            }
            return Err(rejected);
        }
        match reason {
            Some(reason) => Ok(NewCreditNote {
                reason,
                date,
                items,
            }),
            None => Err(Rejected::default()),
        }
    }
}

/// A credit note dated before its invoice: 422 on `date`.
pub fn check_date(date: NaiveDate, invoice_date: NaiveDate) -> Result<(), FieldErrors> {
    if date < invoice_date {
        Err(FieldErrors::single(
            "date",
            message::after_or_equal("date", "invoice date"),
        ))
    } else {
        Ok(())
    }
}

/// What a refused credit note is: a conflict for an invoice never issued (409: a draft is
/// changed, not credited), else a 422 on `items`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The invoice's state does not allow it.
    Conflict(Conflict),
    /// The amount does not.
    Invalid(FieldErrors),
}

/// The API's answer to `refusal`: "Only an issued invoice can be credited; change a draft
/// instead." (409), "The credit note must be greater than zero." and "The credit note may
/// not be greater than the amount not yet credited." (422 on `items`).
pub fn refused(refusal: CreditRefusal) -> Refused {
    match refusal {
        CreditRefusal::NotIssued => Refused::Conflict(Conflict::InvoiceNotIssued),
        CreditRefusal::NotPositive => Refused::Invalid(FieldErrors::single(
            ITEMS_FIELD,
            "The credit note must be greater than zero.".to_owned(),
        )),
        CreditRefusal::MoreThanNotCredited => Refused::Invalid(FieldErrors::single(
            ITEMS_FIELD,
            "The credit note may not be greater than the amount not yet credited.".to_owned(),
        )),
    }
}

/// `GET /credit-notes`: paging, order, sort, search (number and reason), and
/// [`CreditNoteFilters`].
pub type CreditNoteListQuery = ListQuery<CreditNoteFilters>;

/// The credit note list's filters: `invoice_id`, `client_id`, and the credit notes' dates
/// (`date_from`, `date_to`).
pub type CreditNoteFilters = InvoiceRecordFilters<CreditNoteSort>;

impl InvoiceRecordSort for CreditNoteSort {
    const LIST: &'static str = "credit-notes";

    fn key_kind(sort: Option<CreditNoteSort>) -> KeyKind {
        match sort {
            None | Some(CreditNoteSort::Created) => KeyKind::Integer,
            Some(CreditNoteSort::Date) => KeyKind::Date,
            Some(CreditNoteSort::Amount) => KeyKind::Decimal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw};

    #[test]
    fn a_credit_note_needs_a_reason_and_credits_the_whole_invoice_without_lines() {
        let r = NewCreditNote::parse(&raw(&[])).unwrap_err();
        assert_eq!(msg(&r.errors, "reason"), ["The reason field is required."]);
        let c = NewCreditNote::parse(&raw(&[("reason", "Wrong rate"), ("date", "2026-11-28")]))
            .unwrap();
        assert_eq!(c.reason, "Wrong rate");
        assert_eq!(c.date, NaiveDate::from_ymd_opt(2026, 11, 28));
        assert!(c.items.is_none());
    }

    #[test]
    fn a_bad_date_and_bad_lines_are_reported_together() {
        let mut input = raw(&[("reason", "x"), ("date", "2026-13-01")]);
        input.insert("items", crate::input::RawValue::text("not a list"));
        let r = NewCreditNote::parse(&input).unwrap_err();
        assert_eq!(msg(&r.errors, "date"), ["The date is not a valid date."]);
        assert_eq!(msg(&r.errors, "items"), ["The items must be an array."]);
    }

    #[test]
    fn a_credit_note_is_dated_on_or_after_its_invoice() {
        let day = |d| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
        assert!(check_date(day(20), day(20)).is_ok());
        let errors = check_date(day(19), day(20)).unwrap_err();
        assert_eq!(
            msg(&errors, "date"),
            ["The date must be a date after or equal to invoice date."]
        );
    }

    #[test]
    fn refusals_say_what_to_do() {
        assert_eq!(
            refused(CreditRefusal::NotIssued),
            Refused::Conflict(Conflict::InvoiceNotIssued)
        );
        let Refused::Invalid(errors) = refused(CreditRefusal::MoreThanNotCredited) else {
            panic!("a 422");
        };
        assert_eq!(
            msg(&errors, "items"),
            ["The credit note may not be greater than the amount not yet credited."]
        );
    }
}
