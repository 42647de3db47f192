//! What estimates and invoices share (one implementation for both kinds of bill): the
//! [`Kind`] trait that names their differences, the header commands ([`header`]) and the
//! list query ([`BillListQuery`]). Line items ([`crate::estimate::items`]), totals
//! ([`crate::estimate::BillTotals`], [`crate::totals`]), tags and the email
//! ([`crate::mail::Bill`]) are shared as well.

pub mod header;

use chrono::NaiveDate;

use crate::category::CategoryType;
use crate::ids::{CategoryId, ClientId, ProjectId};
use crate::input::{Choice, Form, RawMap, RawValue, read_id};
use crate::listing::ListParams;
use crate::mail::BillKind;
use crate::validation::{FieldErrors, Rejected};

pub use header::{
    BillClone, BillUpdate, NewBill, ResolvedHeader, TotalsHeader, check_end_date,
    total_overflow_error,
};

/// What differs between the kinds of bill, at the type level.
pub trait Kind: Copy + std::fmt::Debug + PartialEq + Eq + 'static {
    /// The kind as a value (subjects, templates, the store's tables).
    const KIND: BillKind;
    /// The second date's field: `bill_expiry_date` or `bill_due_date`.
    const END_DATE: &'static str;
    /// The type `bill_categoryid` must have.
    const CATEGORY: CategoryType;
    /// Whether a clone takes `bill_categoryid` from the request (estimates) or copies the
    /// source's and requires the second date instead (invoices).
    const CLONE_TAKES_CATEGORY: bool;

    /// The second date a new record gets when the request has none.
    fn default_end_date(date: NaiveDate) -> Option<NaiveDate>;
}

/// Estimates: `bill_expiry_date`, optional, no default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EstimateKind;

impl Kind for EstimateKind {
    const KIND: BillKind = BillKind::Estimate;
    const END_DATE: &'static str = "bill_expiry_date";
    const CATEGORY: CategoryType = CategoryType::Estimate;
    const CLONE_TAKES_CATEGORY: bool = true;

    fn default_end_date(_date: NaiveDate) -> Option<NaiveDate> {
        None
    }
}

/// Invoices: `bill_due_date`, defaulting to `bill_date` + 30 days on create.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvoiceKind;

impl Kind for InvoiceKind {
    const KIND: BillKind = BillKind::Invoice;
    const END_DATE: &'static str = "bill_due_date";
    const CATEGORY: CategoryType = CategoryType::Invoice;
    const CLONE_TAKES_CATEGORY: bool = false;

    fn default_end_date(date: NaiveDate) -> Option<NaiveDate> {
        Some(crate::invoice::due_date(date))
    }
}

/// A list's `status` filter value: an estimate's shown status text, an invoice's shown
/// status id. Anything else is "The selected status is invalid.".
pub trait StatusFilter: Sized {
    /// The filter value of `value`, or `None`.
    fn from_raw(value: &RawValue) -> Option<Self>;
}

impl<C: Choice> StatusFilter for C {
    fn from_raw(value: &RawValue) -> Option<Self> {
        match value {
            RawValue::Text(s) => C::from_text(s.trim()),
            _ => None,
        }
    }
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

/// `GET /estimates`, `GET /invoices`: `S` is the sort whitelist, `T` the status filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillListQuery<S, T> {
    /// Paging, order, sort, search (client name, notes, terms; an integer also the id).
    pub params: ListParams<S>,
    /// `status` filter (the shown status).
    pub status: Option<T>,
    /// `client_id` filter.
    pub client: Option<ClientId>,
    /// `project_id` filter.
    pub project: Option<ProjectId>,
    /// `category_id` filter.
    pub category: Option<CategoryId>,
}

impl<S: Choice, T: StatusFilter> BillListQuery<S, T> {
    /// Reads the query string.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let params = ListParams::read(&mut form);
        let status = form.optional("status", read_status::<T>);
        let client = form.optional("client_id", read_id).and_then(ClientId::new);
        let project = form
            .optional("project_id", read_id)
            .and_then(ProjectId::new);
        let category = form
            .optional("category_id", read_id)
            .and_then(CategoryId::new);
        form.finish()?;
        Ok(BillListQuery {
            params,
            status,
            client,
            project,
            category,
        })
    }
}

impl<S, T> BillListQuery<S, T> {
    /// The id the search also matches, when the search is a positive integer.
    pub fn search_id(&self) -> Option<i64> {
        let s = self.params.search.as_deref()?;
        if s.bytes().all(|b| b.is_ascii_digit()) {
            s.parse().ok().filter(|n| *n > 0)
        } else {
            None
        }
    }
}
