//! What the lists of an invoice's own records share: payments and credit notes are both
//! listed by invoice, by client and by a range of days ([`InvoiceRecordFilters`]), each
//! with its own sort keys ([`InvoiceRecordSort`]).

use std::marker::PhantomData;

use chrono::NaiveDate;

use crate::choice::Choice;
use crate::ids::{ClientId, InvoiceId};
use crate::input::{Form, read_date, read_id};
use crate::listing::{KeyKind, ListFilters};
use crate::validation::message;

/// The sort keys of a list of an invoice's records: the list's name (what its cursors are
/// bound to) and the kind of value each sort's cursor key is.
pub trait InvoiceRecordSort: Choice + PartialEq {
    /// `payments`, `credit-notes`.
    const LIST: &'static str;

    /// The kind of the cursor key of `sort` (`None`: by id).
    fn key_kind(sort: Option<Self>) -> KeyKind;
}

/// The filters of a list of an invoice's records; `S` is its sort whitelist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceRecordFilters<S> {
    /// `invoice_id` filter.
    pub invoice: Option<InvoiceId>,
    /// `client_id` filter (the invoice's client).
    pub client: Option<ClientId>,
    /// `date_from`: dated on or after this day.
    pub date_from: Option<NaiveDate>,
    /// `date_to`: dated on or before this day (not before `date_from`).
    pub date_to: Option<NaiveDate>,
    sort: PhantomData<S>,
}

impl<S: InvoiceRecordSort> ListFilters for InvoiceRecordFilters<S> {
    const LIST: &'static str = S::LIST;
    type Sort = S;

    fn read(form: &mut Form<'_>) -> Self {
        let invoice = form
            .optional("invoice_id", read_id)
            .and_then(InvoiceId::new);
        let client = form.optional("client_id", read_id).and_then(ClientId::new);
        let date_from = form.optional("date_from", read_date);
        let date_to = form.optional("date_to", read_date);
        if let (Some(from), Some(to)) = (date_from, date_to)
            && to < from
        {
            form.error("date_to", message::after_or_equal("date_to", "date_from"));
        }
        InvoiceRecordFilters {
            invoice,
            client,
            date_from,
            date_to,
            sort: PhantomData,
        }
    }

    fn key(&self) -> String {
        let day = |d: Option<NaiveDate>| d.map_or(String::new(), |d| d.to_string());
        format!(
            "{}|{}|{}|{}",
            self.invoice.map_or(0, InvoiceId::get),
            self.client.map_or(0, ClientId::get),
            day(self.date_from),
            day(self.date_to)
        )
    }

    fn key_kind(sort: Option<S>) -> KeyKind {
        S::key_kind(sort)
    }
}
