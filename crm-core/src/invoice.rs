//! Invoices (`/api/invoices`, API.md §9): the record, its status rules and the list query.
//!
//! Everything an invoice shares with an estimate is the same code: the header commands
//! ([`NewInvoice`], [`InvoiceUpdate`], [`InvoiceClone`] are [`crate::bill::header`]'s for
//! [`InvoiceKind`]), line items ([`crate::bill::items`]), totals, tags, the client link
//! ([`crate::bill::link`]) and the email (rendered by `crm-render`).
//!
//! Status is stored as set (`invoicestatus_id`); the shown status is derived: a stored Due or
//! Part Paid invoice whose due date is before today shows as Overdue. `PUT status` takes 1,
//! 2, 4, 5 or 20, as far as the invoice's payments allow ([`Balance::set_status`]).
//! Publishing moves a stored Draft to Due; emailing needs a non-draft. A new, cloned or converted invoice is a Draft; a converted one is in the
//! system-default invoice category, dated today and due in [`crate::bill::DUE_DAYS`] days.
//!
//! Payments (API.md §14) drive the status of a published invoice: [`balance`] holds the
//! rules (what an invoice takes, how its status follows what was paid, what a change of its
//! total or a status set by hand may do), and the record's `totals` show `amount_paid` and
//! `amount_due` ([`InvoiceTotals`]).

pub mod balance;
pub mod records;

use chrono::NaiveDate;
use serde::Serialize;

use crate::bill::{
    BillClone, BillListQuery, BillTotals, BillUpdate, InvoiceKind, LineItem, Lock, NewBill,
    StatusFilter, TaxRecord,
};
use crate::choice_enum;
use crate::conflict::Conflict;
use crate::ids::{CategoryId, ClientId, EstimateId, InvoiceId, Named, ProjectId};
use crate::input::{Form, RawMap, RawValue};
use crate::listing::KeyKind;
use crate::money::{AmountError, Money};
use crate::time::Timestamp;
use crate::totals::TaxMode;
use crate::validation::{FieldErrors, Rejected, message};

/// `POST /invoices`.
pub type NewInvoice = NewBill<InvoiceKind>;
/// `PATCH /invoices/{id}`.
pub type InvoiceUpdate = BillUpdate<InvoiceKind>;
/// `POST /invoices/{id}/clone`.
pub type InvoiceClone = BillClone<InvoiceKind>;
/// `GET /invoices`: filters `status` (the shown status id), `client_id`, `project_id`,
/// `category_id`; search on the client name, notes and terms (an integer also the id).
pub type InvoiceListQuery = BillListQuery<InvoiceSort, InvoiceStatus>;

choice_enum!(
    /// Sort keys of the invoice list.
    pub enum InvoiceSort {
        /// By invoice date.
        Date = "bill_date",
        /// By due date.
        DueDate = "bill_due_date",
        /// By final amount.
        FinalAmount = "bill_final_amount",
        /// By creation time.
        Created = "bill_created",
    }
);

/// An invoice status (`invoicestatus_id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InvoiceStatus {
    /// 1: not yet sent.
    Draft,
    /// 2: sent, not yet due.
    Due,
    /// 3: past its due date.
    Overdue,
    /// 4: partly paid.
    PartPaid,
    /// 5: paid.
    Paid,
    /// 20: cancelled.
    Cancelled,
}

impl InvoiceStatus {
    /// The stored id.
    pub fn id(self) -> i16 {
        match self {
            InvoiceStatus::Draft => 1,
            InvoiceStatus::Due => 2,
            InvoiceStatus::Overdue => 3,
            InvoiceStatus::PartPaid => 4,
            InvoiceStatus::Paid => 5,
            InvoiceStatus::Cancelled => 20,
        }
    }

    /// The status with stored id `id`.
    pub fn from_id(id: i16) -> Option<Self> {
        [
            Self::Draft,
            Self::Due,
            Self::Overdue,
            Self::PartPaid,
            Self::Paid,
            Self::Cancelled,
        ]
        .into_iter()
        .find(|s| s.id() == id)
    }

    /// The display title.
    pub fn title(self) -> &'static str {
        match self {
            InvoiceStatus::Draft => "Draft",
            InvoiceStatus::Due => "Due",
            InvoiceStatus::Overdue => "Overdue",
            InvoiceStatus::PartPaid => "Part Paid",
            InvoiceStatus::Paid => "Paid",
            InvoiceStatus::Cancelled => "Cancelled",
        }
    }

    /// The display colour key.
    pub fn color(self) -> &'static str {
        match self {
            InvoiceStatus::Draft => "default",
            InvoiceStatus::Due => "info",
            InvoiceStatus::Overdue => "danger",
            InvoiceStatus::PartPaid => "warning",
            InvoiceStatus::Paid => "success",
            InvoiceStatus::Cancelled => "default",
        }
    }

    /// The status of an integer value (text or JSON number, surrounding blanks ignored).
    fn from_raw_id(value: &RawValue) -> Option<Self> {
        let text = match value {
            RawValue::Text(s) | RawValue::Number(s) => s.trim(),
            _ => return None,
        };
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) || text.len() > 3 {
            return None;
        }
        Self::from_id(text.parse().ok()?)
    }

    /// The shown status of an invoice stored as `self` due on `due_date`, on `today`: a
    /// Due or Part Paid invoice past its due date shows as Overdue.
    pub fn shown(self, due_date: Option<NaiveDate>, today: NaiveDate) -> Self {
        match self {
            InvoiceStatus::Due | InvoiceStatus::PartPaid if due_date.is_some_and(|d| d < today) => {
                InvoiceStatus::Overdue
            }
            other => other,
        }
    }

    /// The stored statuses and due-date condition under which an invoice shows `self`.
    pub fn conditions(self) -> ShownConditions {
        let (stored, overdue): (&'static [InvoiceStatus], _) = match self {
            InvoiceStatus::Draft => (&[InvoiceStatus::Draft], None),
            InvoiceStatus::Due => (&[InvoiceStatus::Due], Some(false)),
            InvoiceStatus::PartPaid => (&[InvoiceStatus::PartPaid], Some(false)),
            InvoiceStatus::Overdue => (&[InvoiceStatus::Due, InvoiceStatus::PartPaid], Some(true)),
            InvoiceStatus::Paid => (&[InvoiceStatus::Paid], None),
            InvoiceStatus::Cancelled => (&[InvoiceStatus::Cancelled], None),
        };
        ShownConditions { stored, overdue }
    }
}

/// The conditions that select one shown invoice status: one of the stored statuses, and
/// whether the due date must be before today (`Some(true)`), must not be (`Some(false)`:
/// on or after today, or none), or does not matter (`None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShownConditions {
    /// The stored statuses.
    pub stored: &'static [InvoiceStatus],
    /// Whether the due date is before today.
    pub overdue: Option<bool>,
}

impl StatusFilter for InvoiceStatus {
    /// Any shown status id, Overdue (3) included.
    fn from_raw(value: &RawValue) -> Option<Self> {
        InvoiceStatus::from_raw_id(value)
    }

    fn filter_key(&self) -> String {
        self.id().to_string()
    }
}

impl crate::bill::BillSort for InvoiceSort {
    const LIST: &'static str = "invoices";

    fn key_kind(sort: Option<Self>) -> KeyKind {
        match sort {
            None | Some(InvoiceSort::Created) => KeyKind::Integer,
            Some(InvoiceSort::Date | InvoiceSort::DueDate) => KeyKind::Date,
            Some(InvoiceSort::FinalAmount) => KeyKind::Decimal,
        }
    }
}

/// `PUT /invoices/{id}/status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvoiceStatusChange {
    /// The new stored status (never Overdue, which is derived).
    pub status: InvoiceStatus,
}

impl InvoiceStatusChange {
    /// Reads `status` (required; 1, 2, 4, 5 or 20).
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let status = form.required("status", |field, value, errors: &mut FieldErrors| {
            let status = InvoiceStatus::from_raw_id(value).filter(|s| *s != InvoiceStatus::Overdue);
            if status.is_none() {
                errors.add(field, message::invalid(field));
            }
            status
        });
        form.finish()?;
        status
            .map(|status| InvoiceStatusChange { status })
            .ok_or_else(Rejected::default)
    }
}

/// Publishing is allowed only from a stored Draft, and gives Due.
pub fn publish(stored: InvoiceStatus) -> Result<InvoiceStatus, Conflict> {
    match stored {
        InvoiceStatus::Draft => Ok(InvoiceStatus::Due),
        _ => Err(Conflict::InvoiceAlreadyPublished),
    }
}

/// How far an invoice may change (API.md §18): once issued (it has a number) it keeps
/// what it states ([`Lock::Issued`]).
pub fn lock(issued: bool) -> Lock {
    if issued { Lock::Issued } else { Lock::Open }
}

/// Whether storing `to` on an invoice stored as `from` issues it: one not yet issued
/// becomes open (Due, Part Paid or Paid) from Draft or Cancelled, by publishing or by a
/// status set by hand. Issuing gives its number. (An invoice published before numbers
/// existed is open without one: moving between open statuses does not number it.)
pub fn issues(issued: bool, from: InvoiceStatus, to: InvoiceStatus) -> bool {
    !issued && !balance::is_open(from) && balance::is_open(to)
}

/// A status set by hand on an issued invoice: never back to Draft (409 "An issued invoice
/// cannot be changed."), never Cancelled by hand (credit notes cancel it); the open
/// statuses as its payments allow ([`Balance::set_status`]).
pub fn check_status_change(issued: bool, wanted: InvoiceStatus) -> Result<(), Conflict> {
    match wanted {
        InvoiceStatus::Draft if issued => Err(Conflict::IssuedInvoiceChanged),
        InvoiceStatus::Cancelled if issued => Err(Conflict::IssuedInvoiceCancelled),
        _ => Ok(()),
    }
}

/// Emailing the client is allowed for every invoice that is not a stored Draft.
pub fn check_send_email(stored: InvoiceStatus) -> Result<(), Conflict> {
    match stored {
        InvoiceStatus::Draft => Err(Conflict::InvoiceStillDraft),
        _ => Ok(()),
    }
}

impl Serialize for InvoiceStatus {
    /// `{"id": 1, "title": "Draft", "color": "default"}`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("InvoiceStatus", 3)?;
        s.serialize_field("id", &self.id())?;
        s.serialize_field("title", self.title())?;
        s.serialize_field("color", self.color())?;
        s.end()
    }
}

pub use balance::{
    Balance, Credit, CreditRefusal, PaymentRefusal, RefundStandsOnPayments, TotalBelowPaid,
};

/// The `totals` object of an invoice: the bill's totals, then what its payments and credit
/// notes add up to and what is left to pay (`final_amount` − `amount_paid` − the credits'
/// applied amounts), in one flat object, every amount in the invoice's currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceTotals {
    /// The computed figures and the adjustment's label, as an estimate shows them.
    pub bill: BillTotals,
    /// The sum of the invoice's payments.
    pub amount_paid: Money,
    /// The sum of its credit notes (what they took off the amount due and what they
    /// refunded).
    pub amount_credited: Money,
    /// The final amount less what was paid and what credit notes took off it.
    pub amount_due: Money,
}

impl Serialize for InvoiceTotals {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let c = self.bill.currency;
        let mut m = serializer.serialize_map(Some(16))?;
        self.bill.write_members(&mut m)?;
        m.serialize_entry("amount_paid", &c.figure(self.amount_paid))?;
        m.serialize_entry("amount_credited", &c.figure(self.amount_credited))?;
        m.serialize_entry("amount_due", &c.figure(self.amount_due))?;
        m.end()
    }
}

impl InvoiceTotals {
    /// The totals of an invoice whose payments add up to `paid` and whose credit notes
    /// add up to `credited`, of which `applied` reduced the amount due.
    pub fn new(
        bill: BillTotals,
        paid: Money,
        credited: Money,
        applied: Money,
    ) -> Result<Self, AmountError> {
        let due = Money::new(bill.figures.final_amount.get() - paid.get() - applied.get())?;
        Ok(InvoiceTotals {
            bill,
            amount_paid: paid,
            amount_credited: credited,
            amount_due: due,
        })
    }
}

/// An invoice's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InvoiceDates {
    /// Invoice date.
    pub date: NaiveDate,
    /// Due date.
    pub due_date: Option<NaiveDate>,
    /// Creation time.
    pub created: Timestamp,
    /// When it was issued (given its number); `null` while not issued.
    pub issued: Option<Timestamp>,
}

/// An invoice as the API shows it (`reference/invoices.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Invoice {
    /// Invoice id.
    pub id: InvoiceId,
    /// Its number (`INV-2026-00042`), given when it is issued; `null` before (API.md §18).
    pub number: Option<String>,
    /// The shown status.
    pub status: InvoiceStatus,
    /// The client.
    pub client: Named<ClientId>,
    /// The project.
    pub project_id: Option<ProjectId>,
    /// The category.
    pub category: Named<CategoryId>,
    /// Dates.
    pub dates: InvoiceDates,
    /// Notes.
    pub notes: Option<String>,
    /// Terms.
    pub terms: Option<String>,
    /// Summary or inline.
    pub tax_type: TaxMode,
    /// The currency (ISO 4217) every amount is in, with its decimals (API.md §18).
    pub currency: crate::currency::Currency,
    /// The caller-given exchange rate to the company's currency (`totals` then shows the
    /// VAT total in it), or `null`.
    pub exchange_rate: Option<crate::money::ExchangeRate>,
    /// Totals, with what was paid and what is due.
    pub totals: InvoiceTotals,
    /// The estimate it was converted from.
    pub estimate_id: Option<EstimateId>,
    /// The recurring invoice that made it (API.md §20).
    pub recurring_invoice_id: Option<crate::ids::RecurringInvoiceId>,
    /// Line items.
    pub line_items: Vec<LineItem>,
    /// Tax records.
    pub taxes: Vec<TaxRecord>,
    /// Tag titles.
    pub tags: Vec<String>,
    /// The client's link, while it has a working one (API.md §12).
    pub client_link: Option<crate::bill::ClientLink>,
    /// Who it is from and to as it was issued (`None` while a draft, and for an invoice
    /// issued before parties were kept: its documents then name them as they are now).
    pub parties: Option<crate::party::Parties>,
}

impl crate::bill::Kind for InvoiceKind {
    const KIND: crate::bill::BillKind = crate::bill::BillKind::Invoice;
    const END_DATE: &'static str = "bill_due_date";
    const CATEGORY: crate::category::CategoryType = crate::category::CategoryType::Invoice;
    const CLONE_TAKES_CATEGORY: bool = false;
    const RESOURCE: crate::conflict::Resource = crate::conflict::Resource::Invoice;

    type Id = InvoiceId;
    type Record = Invoice;
    type Sort = InvoiceSort;
    type Status = InvoiceStatus;
    type StatusChange = InvoiceStatusChange;

    fn default_end_date(date: NaiveDate) -> Option<NaiveDate> {
        Some(crate::bill::due_date(date))
    }

    fn id(raw: i64) -> Option<InvoiceId> {
        InvoiceId::new(raw)
    }

    fn raw(id: InvoiceId) -> i64 {
        id.get()
    }

    fn id_from_path(segment: &str) -> Option<InvoiceId> {
        InvoiceId::from_path(segment)
    }

    fn record_id(record: &Invoice) -> InvoiceId {
        record.id
    }

    fn status_change(input: &RawMap) -> Result<InvoiceStatusChange, Rejected> {
        InvoiceStatusChange::parse(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{day, raw_values};

    #[test]
    fn a_converted_invoice_is_due_thirty_days_after_its_date() {
        let d: NaiveDate = "2026-11-22".parse().unwrap();
        assert_eq!(
            crate::bill::due_date(d),
            "2026-12-22".parse::<NaiveDate>().unwrap()
        );
    }

    #[test]
    fn the_colours_are_the_contracts() {
        let colours: Vec<_> = [1, 2, 3, 4, 5, 20]
            .into_iter()
            .map(|id| InvoiceStatus::from_id(id).unwrap().color())
            .collect();
        assert_eq!(
            colours,
            ["default", "info", "danger", "warning", "success", "default"]
        );
    }

    #[test]
    fn a_due_or_part_paid_invoice_past_its_due_date_shows_as_overdue() {
        let today = day("2026-11-22");
        for stored in [InvoiceStatus::Due, InvoiceStatus::PartPaid] {
            assert_eq!(
                stored.shown(Some(day("2026-11-21")), today),
                InvoiceStatus::Overdue
            );
            assert_eq!(stored.shown(Some(today), today), stored);
            assert_eq!(stored.shown(None, today), stored);
        }
        for stored in [
            InvoiceStatus::Draft,
            InvoiceStatus::Paid,
            InvoiceStatus::Cancelled,
        ] {
            assert_eq!(stored.shown(Some(day("2000-01-01")), today), stored);
        }
    }

    #[test]
    fn the_filter_conditions_select_exactly_the_shown_status() {
        let today = day("2026-11-22");
        let all = [1, 2, 3, 4, 5, 20].map(|id| InvoiceStatus::from_id(id).unwrap());
        for stored in all.into_iter().filter(|s| *s != InvoiceStatus::Overdue) {
            for due in [None, Some(day("2026-11-21")), Some(today)] {
                let overdue = due.is_some_and(|d| d < today);
                let matching: Vec<_> = all
                    .into_iter()
                    .filter(|s| {
                        let c = s.conditions();
                        c.stored.contains(&stored) && c.overdue.is_none_or(|o| o == overdue)
                    })
                    .collect();
                assert_eq!(matching, vec![stored.shown(due, today)]);
            }
        }
    }

    #[test]
    fn put_status_takes_the_settable_ids_as_text_or_number() {
        for (value, id) in [
            (RawValue::text("1"), 1),
            (RawValue::Number("2".into()), 2),
            (RawValue::text(" 4 "), 4),
            (RawValue::text("5"), 5),
            (RawValue::Number("20".into()), 20),
        ] {
            let c = InvoiceStatusChange::parse(&raw_values(&[("status", value)])).unwrap();
            assert_eq!(c.status.id(), id);
        }
        for bad in [
            RawValue::text("3"),
            RawValue::text("6"),
            RawValue::text("draft"),
            RawValue::Number("2.0".into()),
            RawValue::text("-1"),
            RawValue::Bool(true),
        ] {
            let r = InvoiceStatusChange::parse(&raw_values(&[("status", bad)])).unwrap_err();
            assert_eq!(
                r.errors.get("status"),
                Some(&["The selected status is invalid.".to_owned()][..])
            );
        }
        let r = InvoiceStatusChange::parse(&RawMap::new()).unwrap_err();
        assert_eq!(
            r.errors.get("status"),
            Some(&["The status field is required.".to_owned()][..])
        );
    }

    #[test]
    fn only_a_draft_is_published_and_becomes_due_and_a_draft_is_not_emailed() {
        assert_eq!(publish(InvoiceStatus::Draft), Ok(InvoiceStatus::Due));
        assert_eq!(
            publish(InvoiceStatus::Paid),
            Err(Conflict::InvoiceAlreadyPublished)
        );
        assert_eq!(
            Conflict::InvoiceAlreadyPublished.message(),
            "Invoice has already been published."
        );
        assert_eq!(
            check_send_email(InvoiceStatus::Draft),
            Err(Conflict::InvoiceStillDraft)
        );
        assert_eq!(check_send_email(InvoiceStatus::Cancelled), Ok(()));
        assert_eq!(
            Conflict::InvoiceStillDraft.message(),
            "Invoice is still in draft status."
        );
    }

    #[test]
    fn the_list_filter_takes_shown_status_ids_and_the_invoice_sorts() {
        let q = InvoiceListQuery::parse(&raw_values(&[
            ("status", RawValue::text("3")),
            ("sort", RawValue::text("bill_due_date")),
        ]))
        .unwrap();
        assert_eq!(q.filters.status, Some(InvoiceStatus::Overdue));
        assert_eq!(q.params.sort, Some(InvoiceSort::DueDate));
        let r = InvoiceListQuery::parse(&raw_values(&[
            ("status", RawValue::text("new")),
            ("sort", RawValue::text("bill_expiry_date")),
        ]))
        .unwrap_err();
        assert_eq!(
            r.errors.get("status"),
            Some(&["The selected status is invalid.".to_owned()][..])
        );
        assert_eq!(
            r.errors.get("sort"),
            Some(&["The selected sort is invalid.".to_owned()][..])
        );
    }

    #[test]
    fn invoice_statuses_show_id_title_and_colour() {
        let json = serde_json::to_value(InvoiceStatus::Draft).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"id": 1, "title": "Draft", "color": "default"})
        );
        assert_eq!(InvoiceStatus::from_id(20), Some(InvoiceStatus::Cancelled));
        assert_eq!(InvoiceStatus::from_id(6), None);
    }
}
