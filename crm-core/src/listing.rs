//! List queries: page, limit, order, a sort key from each resource's whitelist, and search.
//!
//! `page` ≥ 1 (default 1), `limit` ≥ 1 (default 35, values above 100 capped at 100),
//! `order` `asc`/`desc` (default `desc`), `sort` from the resource's list. Invalid values
//! are 422s naming the parameter. Ties are always broken by id in the same direction so
//! that pages never overlap (the store's job, documented here as part of the contract).

use crate::choice::Choice;
use crate::choice_enum;
use crate::input::{Form, TextRule, read_choice, read_integer, text};
use crate::validation::{FieldErrors, message};

choice_enum!(
    /// Sort direction.
    pub enum Order {
        /// Ascending.
        Asc = "asc",
        /// Descending (the default).
        Desc = "desc",
    }
);

/// The default page size.
pub const DEFAULT_LIMIT: u32 = 35;
/// The largest page size; larger requested limits are capped to it.
pub const MAX_LIMIT: u32 = 100;
/// The largest page number accepted.
pub const MAX_PAGE: u32 = 2_147_483_647;

/// Which page of a list to return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// 1-based page number.
    pub page: u32,
    /// Page size, 1 to [`MAX_LIMIT`].
    pub limit: u32,
}

impl Default for Page {
    fn default() -> Self {
        Page {
            page: 1,
            limit: DEFAULT_LIMIT,
        }
    }
}

impl Page {
    /// Rows to skip.
    pub fn offset(self) -> i64 {
        (i64::from(self.page) - 1) * i64::from(self.limit)
    }

    /// The `meta` object of a list response for `total` matching rows.
    pub fn meta(self, total: u64) -> PageMeta {
        let per_page = u64::from(self.limit);
        PageMeta {
            current_page: self.page,
            per_page: self.limit,
            total,
            last_page: total.div_ceil(per_page).max(1),
        }
    }
}

/// The `meta` object of a list response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PageMeta {
    /// The page returned.
    pub current_page: u32,
    /// The page size used.
    pub per_page: u32,
    /// How many records match.
    pub total: u64,
    /// `max(1, ceil(total / per_page))`.
    pub last_page: u64,
}

/// Paging, order, sort and search of a list request; `S` is the resource's sort whitelist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListParams<S> {
    /// Which page.
    pub page: Page,
    /// Direction; ties are broken by id in the same direction.
    pub order: Order,
    /// The sort key; `None` means the resource's default order.
    pub sort: Option<S>,
    /// Case-insensitive substring search (`%` and `_` literal), if given.
    pub search: Option<String>,
}

impl<S: Choice> ListParams<S> {
    /// Reads `page`, `limit`, `order`, `sort` and `search` from a query (invalid values are
    /// recorded in `form`; the defaults stand in for them).
    pub fn read(form: &mut Form<'_>) -> Self {
        let page = form
            .optional("page", |f, v, e| bounded(f, v, e, 1, MAX_PAGE))
            .unwrap_or(1);
        let limit = form
            .optional("limit", |f, v, e| bounded(f, v, e, 1, u32::MAX))
            .map_or(DEFAULT_LIMIT, |l| l.min(MAX_LIMIT));
        let order = form
            .optional("order", read_choice::<Order>)
            .unwrap_or(Order::Desc);
        let sort = form.optional("sort", read_choice::<S>);
        let search = form.optional("search", text(TextRule::SEARCH));
        ListParams {
            page: Page { page, limit },
            order,
            sort,
            search,
        }
    }
}

/// An integer between `min` and `max` (values above `u32` count as above `max`).
fn bounded(
    field: &str,
    value: &crate::input::RawValue,
    errors: &mut FieldErrors,
    min: u32,
    max: u32,
) -> Option<u32> {
    let n = read_integer(field, value, errors)?;
    if n < i64::from(min) {
        errors.add(field, message::at_least(field, &min.to_string()));
        return None;
    }
    if n > i64::from(max) {
        if max == u32::MAX {
            return Some(u32::MAX);
        }
        errors.add(field, message::at_most(field, &max.to_string()));
        return None;
    }
    u32::try_from(n).ok()
}

/// Escapes `%`, `_` and `\` so that `search` matches literally inside `ILIKE '%' || … || '%'`
/// (with the default escape character `\`).
pub fn like_pattern(search: &str) -> String {
    let mut out = String::with_capacity(search.len() + 2);
    out.push('%');
    for c in search.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{RawMap, RawValue};

    choice_enum!(
        /// A test whitelist.
        enum TestSort {
            /// By title.
            Title = "title",
        }
    );

    fn read(pairs: &[(&str, &str)]) -> Result<ListParams<TestSort>, FieldErrors> {
        let raw: RawMap = pairs
            .iter()
            .map(|(k, v)| (*k, RawValue::text(*v)))
            .collect();
        let mut form = Form::new(&raw);
        let params = ListParams::<TestSort>::read(&mut form);
        form.finish().map_err(|r| r.errors)?;
        Ok(params)
    }

    #[test]
    fn defaults_are_page_one_thirty_five_per_page_newest_first() {
        let p = read(&[]).unwrap();
        assert_eq!(p.page, Page { page: 1, limit: 35 });
        assert_eq!(p.order, Order::Desc);
        assert_eq!(p.sort, None);
        assert_eq!(p.search, None);
    }

    #[test]
    fn limits_above_a_hundred_are_capped() {
        assert_eq!(read(&[("limit", "500")]).unwrap().page.limit, 100);
        assert_eq!(
            read(&[("limit", "99999999999999")]).unwrap().page.limit,
            100
        );
    }

    #[test]
    fn invalid_paging_order_and_sort_are_reported_together() {
        let errors = read(&[
            ("page", "0"),
            ("limit", "x"),
            ("order", "up"),
            ("sort", "price"),
        ])
        .unwrap_err();
        assert_eq!(
            errors.get("page"),
            Some(&["The page must be at least 1.".to_owned()][..])
        );
        assert_eq!(
            errors.get("limit"),
            Some(&["The limit must be an integer.".to_owned()][..])
        );
        assert_eq!(
            errors.get("order"),
            Some(&["The selected order is invalid.".to_owned()][..])
        );
        assert_eq!(
            errors.get("sort"),
            Some(&["The selected sort is invalid.".to_owned()][..])
        );
        let errors = read(&[("limit", "0"), ("page", "2147483648")]).unwrap_err();
        assert_eq!(
            errors.get("limit"),
            Some(&["The limit must be at least 1.".to_owned()][..])
        );
        assert_eq!(
            errors.get("page"),
            Some(&["The page may not be greater than 2147483647.".to_owned()][..])
        );
    }

    #[test]
    fn meta_has_at_least_one_page() {
        let page = Page { page: 3, limit: 25 };
        assert_eq!(page.meta(0).last_page, 1);
        assert_eq!(page.meta(51).last_page, 3);
        assert_eq!(page.meta(50).last_page, 2);
        assert_eq!(page.offset(), 50);
    }

    #[test]
    fn search_patterns_match_percent_and_underscore_literally() {
        assert_eq!(like_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }
}
