//! Estimates: the record, status rules ([`status`]), the client's answer ([`decision`])
//! and the list query. The header commands, line items, totals and client link are
//! [`crate::bill`]'s, for the estimate kind.
//!
//! Totals are never sent by clients: the store recomputes them with
//! [`crate::totals::compute`] (policy `CrmParity` in the service) on every header or item
//! write, from [`crate::bill::totals_input`].

pub mod decision;
pub mod status;

use chrono::NaiveDate;
use serde::Serialize;

use crate::bill::{BillTotals, ClientLink, LineItem, TaxRecord};
use crate::choice_enum;
use crate::ids::{CategoryId, ClientId, EstimateId, InvoiceId, Named, ProjectId};
use crate::time::Timestamp;
use crate::totals::TaxMode;

pub use crate::bill::header::{
    self, EstimateClone, EstimateUpdate, NewEstimate, ResolvedHeader, TotalsHeader,
};
pub use decision::{ClientResponse, Decision};
pub use status::{ShownStatus, StatusChange, StoredStatus};

choice_enum!(
    /// Sort keys of the estimate list.
    pub enum EstimateSort {
        /// By estimate date.
        Date = "bill_date",
        /// By expiry date.
        ExpiryDate = "bill_expiry_date",
        /// By final amount.
        FinalAmount = "bill_final_amount",
        /// By creation time.
        Created = "bill_created",
    }
);

/// An estimate's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EstimateDates {
    /// Estimate date.
    pub date: NaiveDate,
    /// Expiry date.
    pub expiry_date: Option<NaiveDate>,
    /// Creation time.
    pub created: Timestamp,
    /// When its offer last changed after it was published (API.md §18: its page says
    /// "Revised on …"); `null` when it never did.
    pub revised: Option<Timestamp>,
}

/// Whether and into what the estimate was converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Converted {
    /// True once converted.
    pub is_converted: bool,
    /// The invoice created.
    pub invoice_id: Option<InvoiceId>,
}

/// An estimate as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Estimate {
    /// Estimate id.
    pub id: EstimateId,
    /// Its number (`EST-2026-00007`), given when it is first published; `null` before
    /// (API.md §18).
    pub number: Option<String>,
    /// The shown status.
    pub status: ShownStatus,
    /// The client.
    pub client: Named<ClientId>,
    /// The project.
    pub project_id: Option<ProjectId>,
    /// The category.
    pub category: Named<CategoryId>,
    /// Dates.
    pub dates: EstimateDates,
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
    /// Computed totals.
    pub totals: BillTotals,
    /// Conversion state.
    pub converted: Converted,
    /// Line items, in order.
    pub line_items: Vec<LineItem>,
    /// Tax records.
    pub taxes: Vec<TaxRecord>,
    /// Tag titles.
    pub tags: Vec<String>,
    /// The client's link, while it has a working one (API.md §12).
    pub client_link: Option<ClientLink>,
    /// The client's answer from the estimate's page, once given.
    pub client_response: Option<ClientResponse>,
}

/// `GET /estimates`: filters `status` (the shown status), `client_id`, `project_id`,
/// `category_id`; search on the client name, notes and terms (an integer also the id).
pub type EstimateListQuery = crate::bill::BillListQuery<EstimateSort, ShownStatus>;

impl crate::bill::BillSort for EstimateSort {
    const LIST: &'static str = "estimates";

    fn key_kind(sort: Option<Self>) -> crate::listing::KeyKind {
        use crate::listing::KeyKind;
        match sort {
            None | Some(EstimateSort::Created) => KeyKind::Integer,
            Some(EstimateSort::Date | EstimateSort::ExpiryDate) => KeyKind::Date,
            Some(EstimateSort::FinalAmount) => KeyKind::Decimal,
        }
    }
}

impl crate::bill::Kind for crate::bill::EstimateKind {
    const KIND: crate::bill::BillKind = crate::bill::BillKind::Estimate;
    const END_DATE: &'static str = "bill_expiry_date";
    const CATEGORY: crate::category::CategoryType = crate::category::CategoryType::Estimate;
    const CLONE_TAKES_CATEGORY: bool = true;
    const RESOURCE: crate::conflict::Resource = crate::conflict::Resource::Estimate;

    type Id = EstimateId;
    type Record = Estimate;
    type Sort = EstimateSort;
    type Status = ShownStatus;
    type StatusChange = StatusChange;

    fn default_end_date(_date: NaiveDate) -> Option<NaiveDate> {
        None
    }

    fn id(raw: i64) -> Option<EstimateId> {
        EstimateId::new(raw)
    }

    fn raw(id: EstimateId) -> i64 {
        id.get()
    }

    fn id_from_path(segment: &str) -> Option<EstimateId> {
        EstimateId::from_path(segment)
    }

    fn record_id(record: &Estimate) -> EstimateId {
        record.id
    }

    fn status_change(
        input: &crate::input::RawMap,
    ) -> Result<StatusChange, crate::validation::Rejected> {
        StatusChange::parse(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::raw;

    #[test]
    fn the_list_status_filter_takes_shown_statuses_including_expired() {
        let q = EstimateListQuery::parse(&raw(&[
            ("status", "expired"),
            ("sort", "bill_final_amount"),
        ]))
        .unwrap();
        assert_eq!(q.filters.status, Some(ShownStatus::Expired));
        assert_eq!(q.params.sort, Some(EstimateSort::FinalAmount));
        let r =
            EstimateListQuery::parse(&raw(&[("status", "paid"), ("project_id", "x")])).unwrap_err();
        assert_eq!(
            r.errors.get("status"),
            Some(&["The selected status is invalid.".to_owned()][..])
        );
        assert_eq!(
            r.errors.get("project_id"),
            Some(&["The project id must be an integer.".to_owned()][..])
        );
    }

    #[test]
    fn an_integer_search_also_matches_the_id() {
        let q = EstimateListQuery::parse(&raw(&[("search", "42")])).unwrap();
        assert_eq!(q.search_id(), Some(42));
        let q = EstimateListQuery::parse(&raw(&[("search", "4x")])).unwrap();
        assert_eq!(q.search_id(), None);
    }
}
