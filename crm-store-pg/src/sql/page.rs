//! What one list request asks (its page or cursor) and the page it gets back, with the
//! cursors minted from its rows.

use crm_core::listing::{Cursor, ListParams, MAX_PAGE, Order, Page};
use tokio_postgres::Row;

use crate::error::StoreError;
use crate::rows;

/// What one list request asks of [`page`](super::page): the page or cursor, the order, the cursor's
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

/// One page of rows read by [`page`](super::page), in list order, with the total and the cursors.
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
pub(super) fn mint(
    row: &Row,
    forward: bool,
    page: u32,
    request: &PageRequest<'_>,
) -> Option<String> {
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
