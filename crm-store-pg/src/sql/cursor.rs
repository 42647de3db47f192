//! Paging by cursor (keyset): the rows after (or before) a cursor's position.

use crm_core::listing::{Cursor, Order};
use tokio_postgres::Row;

use super::page::{PageRequest, PageRows, mint};
use super::statement::{Part, SortKey, Sql, order_by, read_by_ids};
use crate::db::Db;
use crate::error::StoreError;
use crate::rows;

/// A page read from a cursor's position: `limit + 1` rows in the reading direction (the
/// extra one says whether more follow), one statement with the total.
#[allow(clippy::too_many_arguments)]
pub(super) async fn by_cursor(
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
