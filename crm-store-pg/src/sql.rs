//! Building list statements: only the filters a request uses, whitelisted sort columns,
//! the id tie-break, exact totals (maintained counts or `count(*)`), and [`page`]: pages by
//! number from the nearer end, or by cursor (keyset).

mod counts;
mod cursor;
mod number;
mod page;
mod statement;

pub(crate) use counts::{CountKeys, counted, date_before, dated_range};
pub(crate) use number::{page, page_with};
pub(crate) use page::{PageRequest, PageRows};
pub(crate) use statement::{Part, SortKey, Sql, micros_key};
