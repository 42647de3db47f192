//! Paging by number: [`page`] and [`page_with`] (which hand a cursor to
//! [`by_cursor`](super::cursor::by_cursor)), page 1 from its matches, a parted sort's
//! numbered page, and the cursors of a numbered page.

use crm_core::listing::Order;
use tokio_postgres::Row;

use super::cursor::by_cursor;
use super::page::{PageRequest, PageRows, mint};
use super::statement::{Part, SortKey, Sql, order_by, order_by_expr, read_by_ids};
use crate::db::Db;
use crate::error::StoreError;
use crate::rows;

/// Reads one page of a list in as few statements as the request allows:
///
/// - the total is `total` when given (an expression over the filtered select's parameters
///   that reads maintained counts: the `list_counts` rows and the pending deltas of
///   migrations 0010 to 0013), else
///   `count(*)` of the filtered rows;
/// - page 1 is one statement (total and rows, same snapshot); without maintained counts,
///   few matches are found once for both ([`first_page_of_matches`]);
/// - a later page reads the total first, then the rows from the nearer end: a page in the
///   second half is read in the reverse order (`OFFSET` counted from the end) and turned
///   back, so the last page costs what the first does;
/// - a cursor reads the rows after (or before) its position with a keyset condition
///   (`(key, id) > ($k, $id)`) that the sort's index answers, one statement at any depth;
/// - every read takes the page's ids first, then its rows ([`read_by_ids`]).
///
/// `filtered` must expose `id` and the sort key's columns; `extra_columns` (`, …`) are
/// computed for the page's rows only (`p.…`).
pub(crate) async fn page(
    db: &impl Db,
    filtered: Sql,
    total: Option<String>,
    sort: SortKey,
    request: &PageRequest<'_>,
    extra_columns: &str,
) -> Result<PageRows, StoreError> {
    page_with(db, filtered, total, sort, &[], request, extra_columns).await
}

/// [`page`], for a sort given as `parts` (none: an ordinary sort). The parts must be
/// exclusive, cover every row, and the key must equal each part's value on its rows.
pub(crate) async fn page_with(
    db: &impl Db,
    filtered: Sql,
    total: Option<String>,
    sort: SortKey,
    parts: &[Part],
    request: &PageRequest<'_>,
    extra_columns: &str,
) -> Result<PageRows, StoreError> {
    let limit = i64::from(request.page.limit);
    let counted_by_rows = total.is_none();
    let total_sql = total.unwrap_or_else(|| "(SELECT count(*) FROM f)".to_owned());
    if let Some(cursor) = request.cursor {
        return by_cursor(
            db,
            filtered,
            &total_sql,
            sort,
            parts,
            request,
            cursor,
            extra_columns,
        )
        .await;
    }
    let number = request.page.page;
    let offset = request.page.offset();
    if !parts.is_empty() {
        return parted_page(
            db,
            filtered,
            &total_sql,
            sort,
            parts,
            request,
            extra_columns,
        )
        .await;
    }
    if number == 1 && counted_by_rows {
        return first_page_of_matches(db, filtered, sort, request, extra_columns).await;
    }
    if number == 1 {
        let mut sql = filtered;
        let limit_p = sql.param(limit);
        let text = format!(
            "WITH f AS NOT MATERIALIZED ({}) SELECT c.total, p.*, ({}) AS cursor_key{extra_columns} \
             FROM (SELECT {total_sql} AS total) c LEFT JOIN LATERAL {} p ON TRUE",
            sql.text,
            sort.key,
            read_by_ids("TRUE", &order_by(sort, request.order, true), &limit_p, None),
        );
        sql.text = text;
        let found = db.rows(sql.text(), &sql.params()).await?;
        let total = rows::page_total(&found)?;
        let rows: Vec<Row> = rows::page_rows(&found).cloned().collect();
        return Ok(numbered(rows, total, request));
    }
    // `f` is named (and never read: LIMIT 0) so that every parameter has its type.
    let count_sql = format!(
        "WITH f AS NOT MATERIALIZED ({}) SELECT c.total FROM (SELECT {total_sql} AS total) c \
         LEFT JOIN LATERAL (SELECT 1 FROM f LIMIT 0) unread ON TRUE",
        filtered.text
    );
    let total_row = db.row(&count_sql, &filtered.params()).await?;
    let total: i64 = rows::get(&total_row, "total")?;
    let total = total.max(0);
    if offset >= total {
        return Ok(numbered(
            Vec::new(),
            u64::try_from(total).unwrap_or(0),
            request,
        ));
    }
    // The nearer end: from the front with OFFSET, or from the back in reverse order.
    let backward = offset.saturating_mul(2) > total;
    let (read_limit, read_offset) = if backward {
        let count = limit.min(total - offset);
        (count, (total - offset - count).max(0))
    } else {
        (limit, offset)
    };
    let mut sql = filtered;
    let limit_p = sql.param(read_limit);
    let offset_p = sql.param(read_offset);
    let order = order_by(sort, request.order, !backward);
    let rows = read_by_ids("TRUE", &order, &limit_p, Some(&offset_p));
    // The total's expression is named (and never evaluated: WHERE FALSE) so that its
    // parameters have their types.
    let text = format!(
        "WITH f AS NOT MATERIALIZED ({}) SELECT p.*, ({}) AS cursor_key{extra_columns} \
         FROM {rows} p LEFT JOIN LATERAL (SELECT {total_sql} AS total WHERE FALSE) unread ON TRUE",
        sql.text, sort.key,
    );
    sql.text = text;
    let mut found = db.rows(sql.text(), &sql.params()).await?;
    if backward {
        found.reverse();
    }
    Ok(numbered(found, u64::try_from(total).unwrap_or(0), request))
}

/// How many matches [`first_page_of_matches`] keeps: a list with fewer is counted and paged
/// from them; a larger one is counted and walked as any other, and the kept matches were
/// wasted work. 2,000 (it was 10,000): a search or a combination of filters counted row by
/// row with 2,000–10,000 matches now finds them twice (a few ms more, far within its
/// target), and a common word wastes a fifth of what it did (docs/decisions.md, "Page 1 of
/// a list counted row by row").
const MATCHES_KEPT: i64 = 2_000;

/// Page 1 of a list without maintained counts (a search, filters counted together), in
/// one statement that finds the matching rows once when they are few: up to
/// [`MATCHES_KEPT`] of their ids and sort keys are kept (`m`); when fewer were found, they
/// are all the matches, and the total and the page's ids come from them. Otherwise the
/// total is a `count(*)` of the rows and the page is read in list order, as on a list with
/// maintained counts (the branch not taken is never run: its condition is a one-time
/// filter). A selective search thus runs its trigram index scans and rechecks once instead
/// of twice; a broad one stops keeping matches at the cap and pays the count it always paid.
async fn first_page_of_matches(
    db: &impl Db,
    filtered: Sql,
    sort: SortKey,
    request: &PageRequest<'_>,
    extra_columns: &str,
) -> Result<PageRows, StoreError> {
    let mut sql = filtered;
    let limit_p = sql.param(i64::from(request.page.limit));
    let kept_p = sql.param(MATCHES_KEPT);
    let order = order_by(sort, request.order, true);
    let text = format!(
        "WITH f AS NOT MATERIALIZED ({}), \
         m AS MATERIALIZED (SELECT id, {} AS k FROM f LIMIT {kept_p}), \
         n AS MATERIALIZED (SELECT count(*) AS found, count(*) < {kept_p} AS whole FROM m) \
         SELECT c.total, p.*, ({}) AS cursor_key{extra_columns} \
         FROM (SELECT CASE WHEN (SELECT whole FROM n) THEN (SELECT found FROM n) \
                           ELSE (SELECT count(*) FROM f) END AS total) c \
         LEFT JOIN LATERAL (SELECT f.* FROM (\
             (SELECT id FROM m WHERE (SELECT whole FROM n) ORDER BY {} LIMIT {limit_p}) \
             UNION ALL (SELECT id FROM f WHERE NOT (SELECT whole FROM n) ORDER BY {order} LIMIT {limit_p})\
         ) ids JOIN f USING (id) ORDER BY {order}) p ON TRUE",
        sql.text,
        sort.order,
        sort.key,
        order_by_expr("k", request.order, true),
    );
    sql.text = text;
    let found = db.rows(sql.text(), &sql.params()).await?;
    let total = rows::page_total(&found)?;
    let rows: Vec<Row> = rows::page_rows(&found).cloned().collect();
    Ok(numbered(rows, total, request))
}

/// A numbered page of a parted sort: the parts' sizes first (their sum is the total),
/// then, from each part the page overlaps, its rows at the page's offset within the part,
/// in id order from the part's nearer end; one statement each.
async fn parted_page(
    db: &impl Db,
    filtered: Sql,
    total_sql: &str,
    sort: SortKey,
    parts: &[Part],
    request: &PageRequest<'_>,
    extra_columns: &str,
) -> Result<PageRows, StoreError> {
    let sizes_sql: Vec<String> = parts
        .iter()
        .map(|part| format!("({})::bigint", part.size))
        .collect();
    // `f` and the list's total are named (and never read: LIMIT 0, WHERE FALSE) so that
    // every parameter has its type; the total is the sum of the parts' sizes.
    let count_sql = format!(
        "WITH f AS NOT MATERIALIZED ({}) SELECT {} FROM (SELECT 1) one \
         LEFT JOIN LATERAL (SELECT 1 FROM f LIMIT 0) unread ON TRUE \
         LEFT JOIN LATERAL (SELECT {total_sql} AS total WHERE FALSE) unread_total ON TRUE",
        filtered.text,
        sizes_sql.join(", ")
    );
    let sizes_row = db.row(&count_sql, &filtered.params()).await?;
    let mut sizes = Vec::with_capacity(parts.len());
    for i in 0..parts.len() {
        sizes.push(sizes_row.try_get::<_, i64>(i)?.max(0));
    }
    let total: i64 = sizes.iter().sum();
    let limit = i64::from(request.page.limit);
    let offset = request.page.offset();
    // The parts in list order.
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| parts[i].value);
    if request.order == Order::Desc {
        order.reverse();
    }
    let (forward, backward) = if request.order == Order::Asc {
        ("ASC", "DESC")
    } else {
        ("DESC", "ASC")
    };
    let mut sql = filtered;
    let mut reads = Vec::new();
    let mut start = 0;
    for i in order {
        let (from, to) = (start, start + sizes[i]);
        start = to;
        let (lo, hi) = (offset.max(from), offset.saturating_add(limit).min(to));
        if lo >= hi {
            continue;
        }
        let (count, within) = (hi - lo, lo - from);
        // From the part's nearer end.
        let (dir, skip) = if within.saturating_mul(2) > sizes[i] {
            (backward, sizes[i] - within - count)
        } else {
            (forward, within)
        };
        let count_p = sql.param(count);
        let skip_p = sql.param(skip);
        reads.push(read_by_ids(
            &parts[i].condition,
            &format!("id {dir}"),
            &count_p,
            Some(&skip_p),
        ));
    }
    if reads.is_empty() {
        return Ok(numbered(
            Vec::new(),
            u64::try_from(total).unwrap_or(0),
            request,
        ));
    }
    // The parts' sizes and the total are named (and never evaluated: WHERE FALSE) so that
    // their parameters have their types.
    let text = format!(
        "WITH f AS NOT MATERIALIZED ({}) SELECT p.*, ({}) AS cursor_key{extra_columns} \
         FROM ({}) p LEFT JOIN LATERAL (SELECT {}, {total_sql} AS total WHERE FALSE) unread ON TRUE \
         ORDER BY {}",
        sql.text,
        sort.key,
        reads.join(" UNION ALL "),
        sizes_sql.join(", "),
        order_by(sort, request.order, true),
    );
    sql.text = text;
    let found = db.rows(sql.text(), &sql.params()).await?;
    Ok(numbered(found, u64::try_from(total).unwrap_or(0), request))
}

/// A page read by number, with its cursors: the next page starts after its last row
/// unless it ends the list, the previous one ends before its first row unless it is the
/// first page.
fn numbered(rows: Vec<Row>, total: u64, request: &PageRequest<'_>) -> PageRows {
    let number = request.page.page;
    let seen = u64::try_from(request.page.offset()).unwrap_or(0) + rows.len() as u64;
    let next = (seen < total)
        .then(|| {
            rows.last()
                .and_then(|r| mint(r, true, number.saturating_add(1), request))
        })
        .flatten();
    let prev = (number > 1)
        .then(|| {
            rows.first()
                .and_then(|r| mint(r, false, number - 1, request))
        })
        .flatten();
    PageRows {
        rows,
        total,
        page: number,
        next,
        prev,
    }
}
