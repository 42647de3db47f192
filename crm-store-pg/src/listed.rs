//! A page of a list ([`Listed`]) and where its neighbours are ([`PageCursors`]).

use crate::error::StoreError;
use crate::sql;

/// One page of a list, and how many records match in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed<T> {
    /// The page's records.
    pub items: Vec<T>,
    /// Every matching record's count.
    pub total: u64,
    /// The page number and the cursors of the neighbouring pages.
    pub cursors: PageCursors,
    /// Whether the page stopped before its size because its records reached the list byte
    /// budget ([`crate::LIST_BYTE_BUDGET`]); `cursors.next` then goes on right after the last one.
    pub truncated: bool,
}

/// Where a page is and how to reach its neighbours (`meta.current_page`,
/// `meta.next_cursor`, `meta.prev_cursor`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageCursors {
    /// The page number, when it differs from the requested one (a cursor's page).
    pub page: Option<u32>,
    /// The next page's cursor, `None` after the last page.
    pub next: Option<String>,
    /// The previous page's cursor, `None` on the first page.
    pub prev: Option<String>,
}

impl<T> Listed<T> {
    /// A page's records decoded from its rows by `decode`, with the total and cursors
    /// [`sql::page`] read.
    pub(crate) fn decoded(
        page: &sql::PageRows,
        decode: impl FnMut(&tokio_postgres::Row) -> Result<T, StoreError>,
    ) -> Result<Self, StoreError> {
        let items = page.rows.iter().map(decode).collect::<Result<_, _>>()?;
        Ok(Listed::paged(items, page))
    }

    /// A page's records with the total and cursors [`sql::page`] read.
    pub(crate) fn paged(items: Vec<T>, page: &sql::PageRows) -> Self {
        Listed {
            items,
            total: page.total,
            cursors: PageCursors {
                page: Some(page.page),
                next: page.next.clone(),
                prev: page.prev.clone(),
            },
            truncated: false,
        }
    }
}
