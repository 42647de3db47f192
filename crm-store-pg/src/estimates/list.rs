//! `GET /estimates`: filters, search, sort and paging.
//!
//! Two statements on the shared reader: the page of ids with the count of all matches
//! ([`sql::paged`] over a narrow filtered select), then the page's whole records
//! ([`read::load_many`], `= ANY($1)`), put back in page order.

use std::collections::HashMap;

use chrono::NaiveDate;
use crm_core::estimate::{Estimate, EstimateListQuery, EstimateSort, ShownStatus};
use crm_core::listing::like_pattern;

use super::read;
use crate::sql::{self, CountKeys, PageRequest, SortKey, Sql, micros_key};
use crate::{Ctx, Listed, Store, StoreError, rows};

impl Store {
    /// `GET /estimates`: the page of listed estimates matching `q` (filters combine with
    /// AND; `status` is the shown status on `ctx.today`), whole, with the exact total.
    pub async fn list_estimates(
        &self,
        ctx: Ctx,
        q: &EstimateListQuery,
    ) -> Result<Listed<Estimate>, StoreError> {
        let mut filtered = filtered(q, ctx.today);
        let total =
            count_keys(ctx.today, q).map(|keys| sql::counted(&mut filtered, "estimates", keys));
        let request = PageRequest {
            page: q.params.page,
            cursor: q.params.cursor.as_ref(),
            order: q.params.order,
            binding: q.binding(),
        };
        let reader = self.reader().await?;
        let found = sql::page(
            &*reader,
            filtered,
            total,
            sort_key(q.params.sort),
            &request,
            "",
        )
        .await?;
        let ids = found
            .rows
            .iter()
            .map(|row| rows::get::<i64>(row, "id"))
            .collect::<Result<Vec<_>, _>>()?;
        if ids.is_empty() {
            return Ok(Listed::paged(Vec::new(), &found));
        }
        let mut by_id: HashMap<i64, Estimate> = read::load_many(&*reader, &ids, ctx.today)
            .await?
            .into_iter()
            .map(|e| (e.id.get(), e))
            .collect();
        // An estimate deleted between the two statements is simply left out.
        let items = ids.iter().filter_map(|id| by_id.remove(id)).collect();
        Ok(Listed::paged(items, &found))
    }
}

/// The whitelisted sort key (over the filtered select's columns); no key sorts by id.
fn sort_key(sort: Option<EstimateSort>) -> SortKey {
    match sort {
        None => SortKey::ID,
        Some(EstimateSort::Date) => SortKey::new("date", "date::text", "{}::date"),
        Some(EstimateSort::ExpiryDate) => {
            SortKey::new("expiry_date", "expiry_date::text", "{}::date").nullable()
        }
        Some(EstimateSort::FinalAmount) => {
            SortKey::new("final_amount", "final_amount::text", "{}::numeric")
        }
        Some(EstimateSort::Created) => SortKey::timestamp("created_at", micros_key!("created_at")),
    }
}

/// The maintained counts that total the estimates matching `q` (migration 0006's
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

/// The listed estimates matching the query's filters: id and the sortable columns.
fn filtered(q: &EstimateListQuery, today: NaiveDate) -> Sql {
    let mut s = Sql::new(
        "SELECT e.id, e.date, e.expiry_date, e.final_amount, e.created_at FROM estimates e",
    );
    if q.params.search.is_some() {
        s.push(" JOIN clients c ON c.id = e.client_id");
    }
    s.push(" WHERE NOT e.is_document");
    if let Some(status) = q.status {
        push_status(&mut s, status, today);
    }
    if let Some(client) = q.client {
        s.push_with(" AND e.client_id = {}", client.get());
    }
    if let Some(project) = q.project {
        s.push_with(" AND e.project_id = {}", project.get());
    }
    if let Some(category) = q.category {
        s.push_with(" AND e.category_id = {}", category.get());
    }
    if let Some(search) = &q.params.search {
        let pattern = s.param(like_pattern(search));
        let id = match q.search_id() {
            Some(id) => format!(" OR e.id = {}", s.param(id)),
            None => String::new(),
        };
        s.push(&format!(
            " AND (c.company_name ILIKE {pattern} OR e.notes ILIKE {pattern} OR e.terms ILIKE {pattern}{id})"
        ));
    }
    s
}

/// The shown-status filter, rendered from crm-core's conditions (the one rule).
fn push_status(s: &mut Sql, status: ShownStatus, today: NaiveDate) {
    let conditions = status.conditions();
    s.push_with(" AND e.status = {}", conditions.stored.as_str());
    match conditions.expired {
        Some(true) => s.push_with(" AND e.expiry_date < {}", today),
        Some(false) => s.push_with(" AND (e.expiry_date IS NULL OR e.expiry_date >= {})", today),
        None => s,
    };
}
