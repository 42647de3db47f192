//! `GET /estimates`, `GET /invoices`: the filtered select and the page of ids.
//!
//! Two statements on the shared reader: the page of ids with the count of all matches
//! ([`sql::paged`] over a narrow filtered select, [`filtered`]), then the page's whole
//! records (the kind's `load_many`, `= ANY($1)`), put back in page order ([`page`]).

use std::collections::HashMap;

use crm_core::bill::BillListQuery;
use crm_core::listing::like_pattern;

use super::BillSql;
use crate::db::Db;
use crate::sql::{self, Sql};
use crate::{Listed, StoreError, rows};

/// The listed bills matching the query's filters (`id`, `date`, `end_date`,
/// `final_amount`, `created_at`); `status` renders the kind's status filter on the alias
/// `b`.
pub(crate) fn filtered<S, T>(
    sql: &BillSql,
    q: &BillListQuery<S, T>,
    status: impl FnOnce(&mut Sql, &T),
) -> Sql {
    let mut s = Sql::new(sql.list_select);
    if q.params.search.is_some() {
        s.push(" JOIN clients c ON c.id = b.client_id");
    }
    s.push(sql.list_where);
    if let Some(value) = &q.status {
        status(&mut s, value);
    }
    if let Some(client) = q.client {
        s.push_with(" AND b.client_id = {}", client.get());
    }
    if let Some(project) = q.project {
        s.push_with(" AND b.project_id = {}", project.get());
    }
    if let Some(category) = q.category {
        s.push_with(" AND b.category_id = {}", category.get());
    }
    if let Some(search) = &q.params.search {
        let pattern = s.param(like_pattern(search));
        let id = match q.search_id() {
            Some(id) => format!(" OR b.id = {}", s.param(id)),
            None => String::new(),
        };
        s.push(&format!(
            " AND (c.company_name ILIKE {pattern} OR b.notes ILIKE {pattern} OR b.terms ILIKE {pattern}{id})"
        ));
    }
    s
}

/// The page of `filtered` sorted by `sort_column` (a column of [`filtered`]), with the
/// total: the page's ids, then `load` for their whole records (the kind's one-statement
/// read), put back in page order. A record deleted between the two statements is simply
/// left out.
pub(crate) async fn page<S, T, R, Fut>(
    db: &impl Db,
    filtered: Sql,
    sort_column: &str,
    q: &BillListQuery<S, T>,
    load: impl FnOnce(Vec<i64>) -> Fut,
    id_of: fn(&R) -> i64,
) -> Result<Listed<R>, StoreError>
where
    Fut: Future<Output = Result<Vec<R>, StoreError>>,
{
    let page = sql::paged(filtered, sort_column, q.params.order, q.params.page, "");
    let found = db.rows(page.text(), &page.params()).await?;
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
    let records = load(ids.clone()).await?;
    let mut by_id: HashMap<i64, R> = records.into_iter().map(|r| (id_of(&r), r)).collect();
    let items = ids.iter().filter_map(|id| by_id.remove(id)).collect();
    Ok(Listed { items, total })
}
