//! `GET /estimates`, `GET /invoices`: the filtered select and the page of ids.
//!
//! Two statements on the shared reader: the page of ids with the total ([`sql::page`] over a
//! narrow filtered select, [`filtered`]: page numbers or a cursor, the total from maintained
//! counts when the kind gives them), then the page's whole records (the kind's `load_many`,
//! `= ANY($1)`), put back in page order ([`page`]).

use std::collections::HashMap;

use chrono::NaiveDate;
use crm_core::bill::{BillListQuery, BillSort, StatusFilter};
use crm_core::listing::like_pattern;

use super::BillSql;
use crate::db::Db;
use crate::error::StoreError;
use crate::listed::Listed;
use crate::rows;
use crate::sql::{self, CountKeys, PageRequest, SortKey, Sql};

/// The listed bills matching the query's filters (`id`, `date`, `end_date`,
/// `final_amount`, `created_at`); `status` renders the kind's status filter on the alias
/// `b`.
pub(crate) fn filtered<S: BillSort, T: StatusFilter>(
    sql: &BillSql,
    q: &BillListQuery<S, T>,
    status: impl FnOnce(&mut Sql, &T),
) -> Sql {
    let mut s = Sql::new(sql.list_select);
    s.push(sql.list_where);
    if let Some(value) = &q.filters.status {
        status(&mut s, value);
    }
    if let Some(client) = q.filters.client {
        s.push_with(" AND b.client_id = {}", client.get());
    }
    if let Some(project) = q.filters.project {
        s.push_with(" AND b.project_id = {}", project.get());
    }
    if let Some(category) = q.filters.category {
        s.push_with(" AND b.category_id = {}", category.get());
    }
    if let Some(search) = &q.params.search {
        let pattern = s.param(like_pattern(search));
        let id = match q.search_id() {
            Some(id) => format!(" OR b.id = {}", s.param(id)),
            None => String::new(),
        };
        // The matching clients first (a small table), so that each arm of the OR is an
        // index scan (client id, and the trigram indexes): a join would filter every bill.
        s.push(&format!(
            " AND (b.client_id = ANY(ARRAY(SELECT c.id FROM clients c WHERE c.company_name ILIKE {pattern})) \
             OR b.notes ILIKE {pattern} OR b.terms ILIKE {pattern}{id})"
        ));
    }
    s
}

/// Appends the day comparison of a shown-status filter (when its conditions have one): the
/// bill's `column` (expiry, due date) before `today` or not, as [`sql::date_before`] writes it.
pub(crate) fn push_day(s: &mut Sql, column: &str, today: NaiveDate, before_today: Option<bool>) {
    if let Some(before) = before_today {
        let day = s.param(today);
        s.push(&format!(" AND {}", sql::date_before(column, &day, before)));
    }
}

/// A shown-status filter as the maintained counts see it: the stored statuses (their key
/// text: an estimate's status, an invoice's status id) and whether the bill's date (expiry,
/// due) must be before the day (`Some(true)`), on or after it or missing (`Some(false)`), or
/// either (`None`).
pub(crate) struct CountedStatus {
    pub(crate) stored: Vec<String>,
    pub(crate) before_today: Option<bool>,
}

/// The maintained counts that total the bills matching `q` (migration 0011's
/// `bill_count_keys`), when no search is given and one owner filter (client, project or
/// category) at most, with or without a status: a status sums the range of its stored
/// statuses' dated keys that the day selects (within the owner's keys when there is one).
/// `None` otherwise (counted row by row, among the bills of the owners' index).
pub(crate) fn count_keys<S: BillSort, T: StatusFilter>(
    q: &BillListQuery<S, T>,
    status: Option<CountedStatus>,
    today: NaiveDate,
) -> Option<CountKeys> {
    if q.params.search.is_some() {
        return None;
    }
    let owner = match (q.filters.client, q.filters.project, q.filters.category) {
        (None, None, None) => None,
        (Some(client), None, None) => Some(format!("c={}", client.get())),
        (None, Some(project), None) => Some(format!("p={}", project.get())),
        (None, None, Some(category)) => Some(format!("cat={}", category.get())),
        _ => return None,
    };
    let Some(status) = status else {
        return Some(CountKeys::key(owner.unwrap_or_else(|| "all".to_owned())));
    };
    let within = owner.map(|owner| format!("{owner}|")).unwrap_or_default();
    let ranges = status
        .stored
        .iter()
        .map(|stored| {
            sql::dated_range(
                &format!("{within}st={stored}|d="),
                today,
                status.before_today,
            )
        })
        .collect();
    Some(CountKeys {
        exact: Vec::new(),
        ranges,
    })
}

/// The most bytes of JSON a page of bills is let grow to (estimated from the stored text,
/// in the `list_bytes` column of the page's statement): a page stops early, after its first
/// record at least, rather than pass it. Lists embed whole bills, and a page of 100 bills
/// of 1,000 long lines each would otherwise be over 100 MB, held in memory until the client
/// has read it. A page cut short says so (`meta.truncated`), and its `next_cursor` goes on
/// right after its last record.
pub const LIST_BYTE_BUDGET: u64 = 4 * 1024 * 1024;

/// The page of `filtered` sorted by `sort` (over [`filtered`]'s columns), with the total
/// (`total`: an expression over maintained counts, else `count(*)`): the page's ids, then
/// `load` for their whole records (the kind's one-statement read), put back in page order.
/// A record deleted between the two statements is simply left out. The page stops early
/// at [`LIST_BYTE_BUDGET`] (the kind's `list_bytes` column).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn page<F: crm_core::listing::ListFilters, R, Fut>(
    db: &impl Db,
    list_bytes: &str,
    filtered: Sql,
    total: Option<String>,
    sort: SortKey,
    q: &crm_core::listing::ListQuery<F>,
    load: impl FnOnce(Vec<i64>) -> Fut,
    id_of: fn(&R) -> i64,
) -> Result<Listed<R>, StoreError>
where
    Fut: Future<Output = Result<Vec<R>, StoreError>>,
{
    let request = PageRequest::of(&q.params, q.binding());
    let mut found = sql::page(db, filtered, total, sort, &request, list_bytes).await?;
    let truncated = found.within_budget("list_bytes", LIST_BYTE_BUDGET, &request)?;
    let ids = found
        .rows
        .iter()
        .map(|row| rows::get::<i64>(row, "id"))
        .collect::<Result<Vec<_>, _>>()?;
    if ids.is_empty() {
        return Ok(Listed::paged(Vec::new(), &found));
    }
    let records = load(ids.clone()).await?;
    let mut by_id: HashMap<i64, R> = records.into_iter().map(|r| (id_of(&r), r)).collect();
    let items = ids.iter().filter_map(|id| by_id.remove(id)).collect();
    let mut listed = Listed::paged(items, &found);
    listed.truncated = truncated;
    Ok(listed)
}
