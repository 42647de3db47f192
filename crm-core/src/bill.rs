//! What estimates and invoices share (one implementation for both kinds of bill), and the
//! vocabulary both speak:
//!
//! - [`BillKind`] (a value) and the [`Kind`] trait (a type) that name their differences;
//! - [`header`]: the header commands (create, update, clone);
//! - [`items`]: the line items request and its validation;
//! - [`lines`]: the parts as shown: [`BillTotals`], [`LineItem`], [`TaxRecord`], and the
//!   calculator input ([`totals_input`]) built from what is stored;
//! - [`link`]: the client link ([`ClientLink`]) both kinds show;
//! - [`lock`]: what an issued invoice or an accepted estimate keeps ([`Lock`]);
//! - [`BillListQuery`]: the list query.
//!
//! The modules of the two kinds (`estimate`, `invoice`) and the email (`mail`) build on
//! these; nothing here imports them.

pub mod breakdown;
pub mod header;
pub mod items;
pub mod lines;
pub mod link;
pub mod lock;

use std::marker::PhantomData;

use chrono::{Days, NaiveDate};

use crate::category::CategoryType;
use crate::conflict::Resource;
use crate::ids::{CategoryId, ClientId, ProjectId};
use crate::input::{Choice, Form, RawMap, RawValue, read_id};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::validation::{FieldErrors, Rejected};

pub use header::{
    BillClone, BillUpdate, NewBill, ResolvedHeader, TotalsHeader, check_end_date,
    total_overflow_error,
};
pub use items::{ItemInput, ItemsRequest, LineItems};
pub use lines::{BillTotals, LineDiscountView, LineItem, StoredLine, TaxRecord, totals_input};
pub use link::ClientLink;
pub use lock::{Lock, Terms};

/// Which kind of record a message is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillKind {
    /// An estimate.
    Estimate,
    /// An invoice.
    Invoice,
    /// A credit note (API.md §18).
    CreditNote,
}

impl BillKind {
    /// `Estimate` / `Invoice`, as in the subject.
    pub fn title(self) -> &'static str {
        match self {
            BillKind::Estimate => "Estimate",
            BillKind::Invoice => "Invoice",
            BillKind::CreditNote => "Credit note",
        }
    }

    /// `estimate` / `invoice` / `credit_note`: the outbox row's template and resource type.
    pub fn template(self) -> &'static str {
        match self {
            BillKind::Estimate => "estimate",
            BillKind::Invoice => "invoice",
            BillKind::CreditNote => "credit_note",
        }
    }
}

/// Days between an invoice's date and its default due date (a new invoice without
/// `bill_due_date`, a converted estimate).
pub const DUE_DAYS: u64 = 30;

/// The default due date of an invoice dated `date`.
pub fn due_date(date: NaiveDate) -> NaiveDate {
    date.checked_add_days(Days::new(DUE_DAYS))
        .unwrap_or(NaiveDate::MAX)
}

/// What differs between the kinds of bill, at the type level: their constants, and the
/// types of their ids, records, list queries and status commands. Estimates and invoices
/// implement it in their own modules (`estimate`, `invoice`), so that this module imports
/// neither; a new kind of bill is a new implementation.
pub trait Kind: Copy + std::fmt::Debug + PartialEq + Eq + Send + Sync + 'static {
    /// The kind as a value (subjects, templates, the store's tables).
    const KIND: BillKind;
    /// The second date's field: `bill_expiry_date` or `bill_due_date`.
    const END_DATE: &'static str;
    /// The type `bill_categoryid` must have.
    const CATEGORY: CategoryType;
    /// Whether a clone takes `bill_categoryid` from the request (estimates) or copies the
    /// source's and requires the second date instead (invoices).
    const CLONE_TAKES_CATEGORY: bool;
    /// The resource its 404s and conflicts name.
    const RESOURCE: Resource;

    /// Its id.
    type Id: Copy + std::fmt::Debug + PartialEq + Eq + Send + Sync + 'static;
    /// Its record, as the API shows it.
    type Record: serde::Serialize + Clone + std::fmt::Debug + Send + Sync + 'static;
    /// Its list's sort whitelist.
    type Sort: BillSort + Copy + std::fmt::Debug + Send + Sync + 'static;
    /// Its list's `status` filter (the shown status).
    type Status: StatusFilter + Copy + std::fmt::Debug + Send + Sync + 'static;
    /// Its `PUT …/status` command.
    type StatusChange: std::fmt::Debug + Send + Sync + 'static;

    /// The second date a new record gets when the request has none.
    fn default_end_date(date: NaiveDate) -> Option<NaiveDate>;

    /// The id of a stored row (`None` for a number no id has).
    fn id(raw: i64) -> Option<Self::Id>;

    /// The id as stored.
    fn raw(id: Self::Id) -> i64;

    /// The id a path segment names: decimal digits of a positive 64-bit integer.
    fn id_from_path(segment: &str) -> Option<Self::Id>;

    /// The id of a record.
    fn record_id(record: &Self::Record) -> Self::Id;

    /// The `PUT …/status` command from a request's input: every failing field at once.
    fn status_change(input: &RawMap) -> Result<Self::StatusChange, Rejected>;
}

/// The list query of kind `K`.
pub type ListQueryOf<K> = BillListQuery<<K as Kind>::Sort, <K as Kind>::Status>;

/// Estimates: `bill_expiry_date`, optional, no default (the rest of the kind is in
/// `crate::estimate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EstimateKind;

/// Invoices: `bill_due_date`, defaulting to `bill_date` + 30 days on create (the rest of
/// the kind is in `crate::invoice`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvoiceKind;

/// A list's `status` filter value: an estimate's shown status text, an invoice's shown
/// status id. Anything else is "The selected status is invalid.".
pub trait StatusFilter: Sized {
    /// The filter value of `value`, or `None`.
    fn from_raw(value: &RawValue) -> Option<Self>;

    /// The value's canonical text (what a cursor is bound to).
    fn filter_key(&self) -> String;
}

impl<C: Choice + PartialEq> StatusFilter for C {
    fn from_raw(value: &RawValue) -> Option<Self> {
        match value {
            RawValue::Text(s) => C::from_text(s.trim()),
            _ => None,
        }
    }

    fn filter_key(&self) -> String {
        C::CHOICES
            .iter()
            .find(|(_, v)| v == self)
            .map_or(String::new(), |(text, _)| (*text).to_owned())
    }
}

/// A bill list's sort keys: the list's name (what its cursors are bound to, with the
/// sort, order, filters and search) and the kind of value each sort's cursor key is.
pub trait BillSort: Choice + PartialEq {
    /// `estimates` or `invoices`.
    const LIST: &'static str;

    /// The kind of the cursor key of `sort` (`None`: by id).
    fn key_kind(sort: Option<Self>) -> KeyKind;
}

fn read_status<T: StatusFilter>(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<T> {
    let parsed = T::from_raw(value);
    if parsed.is_none() {
        errors.add(field, crate::validation::message::invalid(field));
    }
    parsed
}

/// `GET /estimates`, `GET /invoices`: paging, order, sort, search (client name, notes,
/// terms; an integer also the id: [`ListQuery::search_id`]), and [`BillFilters`].
pub type BillListQuery<S, T> = ListQuery<BillFilters<S, T>>;

/// A bill list's filters; `S` is the sort whitelist, `T` the status filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillFilters<S, T> {
    /// `status` filter (the shown status).
    pub status: Option<T>,
    /// `client_id` filter.
    pub client: Option<ClientId>,
    /// `project_id` filter.
    pub project: Option<ProjectId>,
    /// `category_id` filter.
    pub category: Option<CategoryId>,
    sort: PhantomData<S>,
}

impl<S: BillSort, T: StatusFilter> ListFilters for BillFilters<S, T> {
    const LIST: &'static str = S::LIST;
    type Sort = S;

    fn read(form: &mut Form<'_>) -> Self {
        BillFilters {
            status: form.optional("status", read_status::<T>),
            client: form.optional("client_id", read_id).and_then(ClientId::new),
            project: form
                .optional("project_id", read_id)
                .and_then(ProjectId::new),
            category: form
                .optional("category_id", read_id)
                .and_then(CategoryId::new),
            sort: PhantomData,
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}|{}|{}",
            self.status.as_ref().map_or(String::new(), T::filter_key),
            self.client.map_or(0, ClientId::get),
            self.project.map_or(0, ProjectId::get),
            self.category.map_or(0, CategoryId::get)
        )
    }

    fn key_kind(sort: Option<S>) -> KeyKind {
        S::key_kind(sort)
    }
}
