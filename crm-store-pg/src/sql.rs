//! Building list statements: only the filters a request uses, whitelisted sort columns,
//! the id tie-break, exact totals (maintained counts or `count(*)`), and [`page`]: pages by
//! number from the nearer end, or by cursor (keyset).

use crm_core::listing::{Cursor, ListParams, MAX_PAGE, Order, Page};
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use crate::db::Db;
use crate::{StoreError, rows};

/// SQL text with numbered parameters, built step by step.
#[derive(Default)]
pub(crate) struct Sql {
    text: String,
    params: Vec<Box<dyn ToSql + Sync + Send>>,
}

impl Sql {
    /// Starts with `text`.
    pub(crate) fn new(text: &str) -> Self {
        Sql {
            text: text.to_owned(),
            params: Vec::new(),
        }
    }

    /// Appends literal SQL (never user input).
    pub(crate) fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    /// Adds a parameter and returns its placeholder (`$3`).
    pub(crate) fn param<T: ToSql + Sync + Send + 'static>(&mut self, value: T) -> String {
        self.params.push(Box::new(value));
        format!("${}", self.params.len())
    }

    /// Appends `text` with `{}` replaced by a new parameter's placeholder.
    pub(crate) fn push_with<T: ToSql + Sync + Send + 'static>(
        &mut self,
        text: &str,
        value: T,
    ) -> &mut Self {
        let placeholder = self.param(value);
        self.text.push_str(&text.replace("{}", &placeholder));
        self
    }

    /// The statement text.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The parameters, in placeholder order.
    pub(crate) fn params(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.params
            .iter()
            .map(|p| &**p as &(dyn ToSql + Sync))
            .collect()
    }
}

/// How a list is sorted: the `ORDER BY` expression over the filtered select's columns, the
/// text form of a row's key that cursors carry, and how a cursor's key becomes a value of
/// the sort's type again (crm-core's [`KeyKind`](crm_core::listing::KeyKind) has checked it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SortKey {
    /// `ORDER BY` expression (`lower(title)`), over the filtered select's columns.
    pub(crate) order: &'static str,
    /// The key's text form over the same columns (`lower(title)`, `date::text`).
    pub(crate) key: &'static str,
    /// The key's value from its text, `{}` standing for the parameter (`{}::date`).
    pub(crate) cast: &'static str,
    /// Whether the sort column may be NULL (NULLs come last ascending, first descending).
    pub(crate) nullable: bool,
}

impl SortKey {
    /// By id (every list's default or tie-break).
    pub(crate) const ID: SortKey = SortKey::new("id", "id::text", "{}::bigint");

    /// A NOT NULL sort column.
    pub(crate) const fn new(order: &'static str, key: &'static str, cast: &'static str) -> Self {
        SortKey {
            order,
            key,
            cast,
            nullable: false,
        }
    }

    /// A timestamp column: keys are microseconds since the Unix epoch (exact).
    pub(crate) const fn timestamp(column: &'static str, key: &'static str) -> Self {
        SortKey::new(
            column,
            key,
            "('epoch'::timestamptz + ({}::bigint) * interval '1 microsecond')",
        )
    }

    /// The same key on a column that may be NULL.
    pub(crate) const fn nullable(self) -> Self {
        SortKey {
            nullable: true,
            ..self
        }
    }
}

/// Writes a timestamp column's key expression (`created_at` → microseconds as text).
macro_rules! micros_key {
    ($column:literal) => {
        concat!(
            "(extract(epoch FROM ",
            $column,
            ") * 1000000)::bigint::text"
        )
    };
}
pub(crate) use micros_key;

/// What one list request asks of [`page`]: the page or cursor, the order, the cursor's
/// binding, and where the total comes from.
pub(crate) struct PageRequest<'a> {
    /// Page number and size.
    pub(crate) page: Page,
    /// The cursor, if one was sent (it wins over `page`).
    pub(crate) cursor: Option<&'a Cursor>,
    /// The list's order.
    pub(crate) order: Order,
    /// The digest the cursors minted for this query carry.
    pub(crate) binding: u64,
}

impl<'a> PageRequest<'a> {
    /// The request of a list query's parameters, its cursors bound to `binding`.
    pub(crate) fn of<S>(params: &'a ListParams<S>, binding: u64) -> Self {
        PageRequest {
            page: params.page,
            cursor: params.cursor.as_ref(),
            order: params.order,
            binding,
        }
    }
}

/// One page of rows read by [`page`], in list order, with the total and the cursors.
pub(crate) struct PageRows {
    /// The page's rows (each with the filtered columns, the extra ones and `cursor_key`).
    pub(crate) rows: Vec<Row>,
    /// How many rows match.
    pub(crate) total: u64,
    /// `meta.current_page`.
    pub(crate) page: u32,
    /// `meta.next_cursor`.
    pub(crate) next: Option<String>,
    /// `meta.prev_cursor`.
    pub(crate) prev: Option<String>,
}

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

/// A sort whose key takes a few values only, each shown by the rows that meet a condition
/// over the filtered columns (a contract's derived status): `value` the key's text (as
/// `sort.key` gives it), `condition` what selects its rows, `size` how many there are. No
/// index orders by such a key, so [`page_with`] reads a numbered page from the parts it
/// falls in (known from their sizes), each in id order from the id index and from its
/// nearer end, and a cursor page from the parts at and after the cursor's, instead of
/// sorting every row.
pub(crate) struct Part {
    /// The sort key's value in this part.
    pub(crate) value: &'static str,
    /// The SQL condition (over the filtered select's columns) of the part's rows.
    pub(crate) condition: String,
    /// An SQL expression of the part's size (maintained counts, or a count over `f`).
    pub(crate) size: String,
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

/// A read of rows of `f` meeting `condition`, in `order`, `limit` of them (after `offset`):
/// their ids first, then the rows themselves joined back by id, in `order` again. The ids
/// are read from an index alone where one holds the condition and the order (an index-only
/// scan skips rows without fetching them: a status beside the id, the rows an `OFFSET`
/// passes), and only the rows read are fetched whole.
fn read_by_ids(condition: &str, order: &str, limit: &str, offset: Option<&str>) -> String {
    let offset = offset.map(|o| format!(" OFFSET {o}")).unwrap_or_default();
    format!(
        "(SELECT f.* FROM (SELECT id FROM f WHERE {condition} ORDER BY {order} LIMIT {limit}{offset}) ids \
         JOIN f USING (id) ORDER BY {order})"
    )
}

/// `ORDER BY` of the list read forward (the list's order) or backward.
fn order_by(sort: SortKey, order: Order, forward: bool) -> String {
    order_by_expr(sort.order, order, forward)
}

/// `ORDER BY` on the sort expression `key` (then the id).
fn order_by_expr(key: &str, order: Order, forward: bool) -> String {
    let ascending = (order == Order::Asc) == forward;
    let dir = if ascending { "ASC" } else { "DESC" };
    format!("{key} {dir}, id {dir}")
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

impl PageRows {
    /// Keeps the page's longest prefix whose sizes (the `i64` column `column`) add up to at
    /// most `budget`, and at least its first row. When rows are left out, the next cursor
    /// starts right after the last row kept (nothing is skipped by a client that follows
    /// it). Returns whether the page was cut.
    pub(crate) fn within_budget(
        &mut self,
        column: &str,
        budget: u64,
        request: &PageRequest<'_>,
    ) -> Result<bool, StoreError> {
        let mut used = 0u64;
        let mut keep = self.rows.len();
        for (i, row) in self.rows.iter().enumerate() {
            let size: Option<i64> = rows::get(row, column)?;
            used = used.saturating_add(u64::try_from(size.unwrap_or(0)).unwrap_or(0));
            if used > budget && i > 0 {
                keep = i;
                break;
            }
        }
        if keep == self.rows.len() {
            return Ok(false);
        }
        self.rows.truncate(keep);
        self.next = self
            .rows
            .last()
            .and_then(|r| mint(r, true, self.page.saturating_add(1), request));
        Ok(true)
    }
}

/// The cursor at `row` reading `forward` (or backward) for page `page`.
fn mint(row: &Row, forward: bool, page: u32, request: &PageRequest<'_>) -> Option<String> {
    let id: i64 = row.try_get("id").ok()?;
    let key: Option<String> = row.try_get("cursor_key").ok()?;
    Some(
        Cursor {
            forward,
            page: page.clamp(1, MAX_PAGE),
            binding: request.binding,
            key,
            id,
        }
        .encode(),
    )
}

/// A page read from a cursor's position: `limit + 1` rows in the reading direction (the
/// extra one says whether more follow), one statement with the total.
#[allow(clippy::too_many_arguments)]
async fn by_cursor(
    db: &impl Db,
    filtered: Sql,
    total_sql: &str,
    sort: SortKey,
    sort_parts: &[Part],
    request: &PageRequest<'_>,
    cursor: &Cursor,
    extra_columns: &str,
) -> Result<PageRows, StoreError> {
    let limit = i64::from(request.page.limit);
    let mut sql = filtered;
    let ascending = (request.order == Order::Asc) == cursor.forward;
    let op = if ascending { ">" } else { "<" };
    let order = order_by(sort, request.order, cursor.forward);
    let limit_p = sql.param(limit + 1);
    let reads: Vec<String> = if sort_parts.is_empty() {
        let id_p = sql.param(cursor.id);
        // The rows after the position, as one or two conditions each read in index order
        // (NULLs come last ascending and first descending, so a nullable sort continues
        // past its values into its NULLs, or from its NULLs into its values).
        let conditions: Vec<String> = match &cursor.key {
            Some(key) => {
                let key_p = sql.param(key.clone());
                // The parameter is text; the cast makes it the sort's type.
                let value = sort.cast.replace("{}", &format!("({key_p}::text)"));
                let after = format!("({}, id) {op} ({value}, {id_p})", sort.order);
                if sort.nullable && ascending {
                    vec![after, format!("{} IS NULL", sort.order)]
                } else {
                    vec![after]
                }
            }
            None if ascending => vec![format!("{} IS NULL AND id > {id_p}", sort.order)],
            None => vec![
                format!("{} IS NULL AND id < {id_p}", sort.order),
                format!("{} IS NOT NULL", sort.order),
            ],
        };
        conditions
            .iter()
            .map(|condition| read_by_ids(condition, &order, &limit_p, None))
            .collect()
    } else {
        // A parted sort: the parts past the cursor's value whole, and its own part after
        // its id, each in id order.
        let dir = if ascending { "ASC" } else { "DESC" };
        let at = cursor.key.as_deref().unwrap_or_default();
        let mut reads = Vec::new();
        for part in sort_parts {
            let after = match part.value.cmp(at) {
                std::cmp::Ordering::Equal => {
                    format!(" AND id {op} {}", sql.param(cursor.id))
                }
                std::cmp::Ordering::Greater if ascending => String::new(),
                std::cmp::Ordering::Less if !ascending => String::new(),
                _ => continue,
            };
            reads.push(read_by_ids(
                &format!("{}{after}", part.condition),
                &format!("id {dir}"),
                &limit_p,
                None,
            ));
        }
        if reads.is_empty() {
            // A key past every part (only a forged cursor has one): nothing follows.
            reads.push(format!("(SELECT * FROM f WHERE FALSE LIMIT {limit_p})"));
        }
        reads
    };
    let rows_sql = if reads.len() == 1 {
        reads.join("")
    } else {
        format!(
            "(SELECT * FROM ({}) u ORDER BY {order} LIMIT {limit_p})",
            reads.join(" UNION ALL ")
        )
    };
    // A parted sort's sizes are named (and never evaluated) so that their parameters have
    // their types.
    let unread = if sort_parts.is_empty() {
        String::new()
    } else {
        let sizes: Vec<&str> = sort_parts.iter().map(|part| part.size.as_str()).collect();
        format!(
            " LEFT JOIN LATERAL (SELECT {} WHERE FALSE) unread ON TRUE",
            sizes.join(", ")
        )
    };
    let text = format!(
        "WITH f AS NOT MATERIALIZED ({}) SELECT c.total, p.*, ({}) AS cursor_key{extra_columns} \
         FROM (SELECT {total_sql} AS total) c LEFT JOIN LATERAL {rows_sql} p ON TRUE{unread}",
        sql.text, sort.key,
    );
    sql.text = text;
    let found = db.rows(sql.text(), &sql.params()).await?;
    let total = rows::page_total(&found)?;
    let mut rows: Vec<Row> = rows::page_rows(&found).cloned().collect();
    let more = rows.len() > request.page.limit as usize;
    rows.truncate(request.page.limit as usize);
    if !cursor.forward {
        rows.reverse();
    }
    let number = cursor.page;
    let (next, prev) = if cursor.forward {
        (
            more.then(|| {
                rows.last()
                    .and_then(|r| mint(r, true, number.saturating_add(1), request))
            })
            .flatten(),
            (number > 1 || !rows.is_empty())
                .then(|| {
                    rows.first()
                        .and_then(|r| mint(r, false, number.saturating_sub(1), request))
                })
                .flatten(),
        )
    } else {
        (
            rows.last()
                .and_then(|r| mint(r, true, number.saturating_add(1), request)),
            more.then(|| {
                rows.first()
                    .and_then(|r| mint(r, false, number.saturating_sub(1), request))
            })
            .flatten(),
        )
    };
    Ok(PageRows {
        rows,
        total,
        page: number,
        next,
        prev,
    })
}

/// Which `list_counts` keys a total sums: exact keys and half-open key ranges
/// (`[from, to)`, compared bytewise: the column is `COLLATE "C"`).
#[derive(Debug, Default)]
pub(crate) struct CountKeys {
    /// Keys summed as they are.
    pub(crate) exact: Vec<String>,
    /// Key ranges summed whole.
    pub(crate) ranges: Vec<(String, String)>,
}

impl CountKeys {
    /// One exact key.
    pub(crate) fn key(key: String) -> Self {
        CountKeys {
            exact: vec![key],
            ranges: Vec::new(),
        }
    }
}

/// The condition that a date `column` is before the day (`before`), or not (on or after
/// it, or missing: a missing date is never before the day), `day` being its placeholder.
/// Written as the expression migration 0011 indexes beside the stored status and the id
/// (`COALESCE(column, 'infinity')`), so that a status read in id order skips from the
/// index alone, and the planner has the expression's statistics.
pub(crate) fn date_before(column: &str, day: &str, before: bool) -> String {
    let op = if before { "<" } else { ">=" };
    format!("COALESCE({column}, 'infinity'::date) {op} {day}")
}

/// The range of dated keys `<prefix><YYYY-MM-DD|none>` whose date is before `today`
/// (`Some(true)`), on or after it or missing (`Some(false)`), or any (`None`): dates sort
/// before `none` bytewise, and a missing date is never before the day.
pub(crate) fn dated_range(
    prefix: &str,
    today: chrono::NaiveDate,
    before_today: Option<bool>,
) -> (String, String) {
    let today = today.format("%Y-%m-%d");
    match before_today {
        Some(true) => (format!("{prefix}0"), format!("{prefix}{today}")),
        Some(false) => (format!("{prefix}{today}"), format!("{prefix}none~")),
        None => (format!("{prefix}0"), format!("{prefix}none~")),
    }
}

/// The total of a list from its maintained counts (migrations 0010 to 0013): a scalar subquery over
/// `sql`'s parameters summing, for `keys`, the folded counts and the deltas not yet folded
/// (one statement, so one snapshot: a concurrent fold moves a delta from one side to the
/// other without changing the sum).
pub(crate) fn counted(sql: &mut Sql, list: &'static str, keys: CountKeys) -> String {
    let list = sql.param(list);
    let mut conditions = Vec::new();
    if !keys.exact.is_empty() {
        conditions.push(format!("k.key = ANY({}::text[])", sql.param(keys.exact)));
    }
    for (from, to) in keys.ranges {
        let from = sql.param(from);
        let to = sql.param(to);
        conditions.push(format!(
            "(k.key >= {from}::text COLLATE \"C\" AND k.key < {to}::text COLLATE \"C\")"
        ));
    }
    if conditions.is_empty() {
        conditions.push("FALSE".to_owned());
    }
    format!(
        "(SELECT COALESCE(sum(k.n), 0)::bigint FROM (\
         SELECT key, n FROM list_counts WHERE list = {list}::text \
         UNION ALL SELECT key, n FROM list_count_pending WHERE list = {list}::text) k WHERE {})",
        conditions.join(" OR ")
    )
}
