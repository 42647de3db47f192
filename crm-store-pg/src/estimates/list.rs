//! `GET /estimates`: the shared bill list ([`crate::bills::list`]) with the estimate's
//! sort columns and shown-status filter.

use chrono::NaiveDate;
use crm_core::estimate::{EstimateSort, ShownStatus};

use crate::bills::list::push_day;
use crate::sql::{SortKey, Sql, micros_key};

/// The whitelisted sort key (over the filtered select's columns); no key sorts by id.
pub(super) fn sort_key(sort: Option<EstimateSort>) -> SortKey {
    match sort {
        None => SortKey::ID,
        Some(EstimateSort::Date) => SortKey::new("date", "date::text", "{}::date"),
        Some(EstimateSort::ExpiryDate) => {
            SortKey::new("end_date", "end_date::text", "{}::date").nullable()
        }
        Some(EstimateSort::FinalAmount) => {
            SortKey::new("final_amount", "final_amount::text", "{}::numeric")
        }
        Some(EstimateSort::Created) => SortKey::timestamp("created_at", micros_key!("created_at")),
    }
}

/// The shown-status filter, rendered from crm-core's conditions (the one rule).
pub(super) fn push_status(s: &mut Sql, status: ShownStatus, today: NaiveDate) {
    let conditions = status.conditions();
    s.push_with(" AND b.status = {}", conditions.stored.as_str());
    push_day(s, "b.expiry_date", today, conditions.expired);
}
