//! `GET /estimates`: the shared bill list ([`crate::bills::list`]) with the estimate's
//! sort columns and shown-status filter.

use chrono::NaiveDate;
use crm_core::estimate::{Estimate, EstimateListQuery, EstimateSort, ShownStatus};

use super::{SQL, read};
use crate::bills::list::{filtered, page};
use crate::sql::Sql;
use crate::{Ctx, Listed, Store, StoreError};

impl Store {
    /// `GET /estimates`: the page of listed estimates matching `q` (filters combine with
    /// AND; `status` is the shown status on `ctx.today`), whole, with the exact total.
    pub async fn list_estimates(
        &self,
        ctx: Ctx,
        q: &EstimateListQuery,
    ) -> Result<Listed<Estimate>, StoreError> {
        let select = filtered(&SQL, q, |s, status| push_status(s, *status, ctx.today));
        let reader = self.reader().await?;
        let db = &*reader;
        let load = |ids: Vec<i64>| async move { read::load_many(db, &ids, ctx.today).await };
        page(db, select, sort_column(q.params.sort), q, load, |e| {
            e.id.get()
        })
        .await
    }
}

/// The whitelisted sort key's column (of the filtered select); no key sorts by id.
fn sort_column(sort: Option<EstimateSort>) -> &'static str {
    match sort {
        None => "id",
        Some(EstimateSort::Date) => "date",
        Some(EstimateSort::ExpiryDate) => "end_date",
        Some(EstimateSort::FinalAmount) => "final_amount",
        Some(EstimateSort::Created) => "created_at",
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
