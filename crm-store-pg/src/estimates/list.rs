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
use crate::db::Db;
use crate::sql::{self, Sql};
use crate::{Ctx, Listed, Store, StoreError, rows};

impl Store {
    /// `GET /estimates`: the page of listed estimates matching `q` (filters combine with
    /// AND; `status` is the shown status on `ctx.today`), whole, with the exact total.
    pub async fn list_estimates(
        &self,
        ctx: Ctx,
        q: &EstimateListQuery,
    ) -> Result<Listed<Estimate>, StoreError> {
        let page = sql::paged(
            filtered(q, ctx.today),
            sort_column(q.params.sort),
            q.params.order,
            q.params.page,
            "",
        );
        let reader = self.reader().await?;
        let found = reader.rows(page.text(), &page.params()).await?;
        let total = rows::page_total(&found)?;
        let ids = rows::page_rows(&found)
            .map(|row| rows::get::<i64>(row, "id"))
            .collect::<Result<Vec<_>, _>>()?;
        if ids.is_empty() {
            return Ok(Listed {
                items: Vec::new(),
                total,
            });
        }
        let mut by_id: HashMap<i64, Estimate> = read::load_many(&*reader, &ids, ctx.today)
            .await?
            .into_iter()
            .map(|e| (e.id.get(), e))
            .collect();
        // An estimate deleted between the two statements is simply left out.
        let items = ids.iter().filter_map(|id| by_id.remove(id)).collect();
        Ok(Listed { items, total })
    }
}

/// The whitelisted sort key's column (of the filtered select); no key sorts by id.
fn sort_column(sort: Option<EstimateSort>) -> &'static str {
    match sort {
        None => "id",
        Some(EstimateSort::Date) => "date",
        Some(EstimateSort::ExpiryDate) => "expiry_date",
        Some(EstimateSort::FinalAmount) => "final_amount",
        Some(EstimateSort::Created) => "created_at",
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
