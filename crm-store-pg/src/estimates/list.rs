//! `GET /estimates`: the shared bill list ([`crate::bills::list`]) with the estimate's
//! sort columns and shown-status filter.

use chrono::NaiveDate;
use crm_core::estimate::{Estimate, EstimateListQuery, EstimateSort, ShownStatus};

use super::{SQL, read};
use crate::bills::list::{filtered, page};
use crate::sql::{self, CountKeys, SortKey, Sql, micros_key};
use crate::{Ctx, Listed, Store, StoreError};

impl Store {
    /// `GET /estimates`: the page of listed estimates matching `q` (filters combine with
    /// AND; `status` is the shown status on `ctx.today`), whole, with the exact total.
    pub async fn list_estimates(
        &self,
        ctx: Ctx,
        q: &EstimateListQuery,
    ) -> Result<Listed<Estimate>, StoreError> {
        let mut select = filtered(&SQL, q, |s, status| push_status(s, *status, ctx.today));
        let total =
            count_keys(ctx.today, q).map(|keys| sql::counted(&mut select, "estimates", keys));
        let reader = self.reader().await?;
        let db = &*reader;
        let load = |ids: Vec<i64>| async move { read::load_many(db, &ids, ctx.today).await };
        page(db, select, total, sort_key(q.params.sort), q, load, |e| {
            e.id.get()
        })
        .await
    }
}

/// The whitelisted sort key (over the filtered select's columns); no key sorts by id.
fn sort_key(sort: Option<EstimateSort>) -> SortKey {
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

/// The maintained counts that total the estimates matching `q` (migration 0008's
/// `estimate_count_keys`), when one filter at most is given and no search; the shown
/// status `new`/`expired` sums a range of expiry dates around `today`. `None` otherwise
/// (counted row by row, among one client's, project's or category's estimates).
fn count_keys(today: NaiveDate, q: &EstimateListQuery) -> Option<CountKeys> {
    if q.params.search.is_some() {
        return None;
    }
    let exact = |key: String| {
        Some(CountKeys {
            exact: vec![key],
            ranges: Vec::new(),
        })
    };
    match (q.status, q.client, q.project, q.category) {
        (None, None, None, None) => exact("all".to_owned()),
        (None, Some(client), None, None) => exact(format!("c={}", client.get())),
        (None, None, Some(project), None) => exact(format!("p={}", project.get())),
        (None, None, None, Some(category)) => exact(format!("cat={}", category.get())),
        (Some(status), None, None, None) => {
            let c = status.conditions();
            let stored = c.stored.as_str();
            let today = today.format("%Y-%m-%d").to_string();
            let prefix = format!("st={stored}|exp=");
            let range = match c.expired {
                Some(true) => (format!("{prefix}0"), format!("{prefix}{today}")),
                Some(false) => (format!("{prefix}{today}"), format!("{prefix}none~")),
                None if stored == "new" => (format!("{prefix}0"), format!("{prefix}none~")),
                None => return exact(format!("st={stored}")),
            };
            Some(CountKeys {
                exact: Vec::new(),
                ranges: vec![range],
            })
        }
        _ => None,
    }
}

/// The shown-status filter, rendered from crm-core's conditions (the one rule).
fn push_status(s: &mut Sql, status: ShownStatus, today: NaiveDate) {
    let conditions = status.conditions();
    s.push_with(" AND b.status = {}", conditions.stored.as_str());
    match conditions.expired {
        Some(true) => s.push_with(" AND b.expiry_date < {}", today),
        Some(false) => s.push_with(" AND (b.expiry_date IS NULL OR b.expiry_date >= {})", today),
        None => s,
    };
}
