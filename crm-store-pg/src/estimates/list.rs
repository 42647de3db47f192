//! `GET /estimates`: the shared bill list ([`crate::bills::list`]) with the estimate's
//! sort columns and shown-status filter.

use chrono::NaiveDate;
use crm_core::estimate::{Estimate, EstimateListQuery, EstimateSort, ShownStatus};

use super::{SQL, read};
use crate::bills::list::{CountedStatus, count_keys, filtered, page, push_day};
use crate::sql::{self, SortKey, Sql, micros_key};
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
        let status = q.filters.status.map(|status| {
            let c = status.conditions();
            CountedStatus {
                stored: vec![c.stored.as_str().to_owned()],
                before_today: c.expired,
            }
        });
        let total = count_keys(q, status, ctx.today)
            .map(|keys| sql::counted(&mut select, "estimates", keys));
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

/// The shown-status filter, rendered from crm-core's conditions (the one rule).
fn push_status(s: &mut Sql, status: ShownStatus, today: NaiveDate) {
    let conditions = status.conditions();
    s.push_with(" AND b.status = {}", conditions.stored.as_str());
    push_day(s, "b.expiry_date", today, conditions.expired);
}
