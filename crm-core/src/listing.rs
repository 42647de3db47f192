//! List queries: page, limit, order, a sort key from each resource's whitelist, and search.
//!
//! `page` ≥ 1 (default 1), `limit` ≥ 1 (default 35, values above 100 capped at 100),
//! `order` `asc`/`desc` (default `desc`), `sort` from the resource's list. Invalid values
//! are 422s naming the parameter. Ties are always broken by id in the same direction so
//! that pages never overlap (the store's job, documented here as part of the contract).
//!
//! **Cursors.** Beside page numbers, a list answers with `meta.next_cursor` and
//! `meta.prev_cursor`: opaque strings ([`Cursor::encode`]) naming a position in the list
//! (the sort key's value and the id of the row next to it) and the direction to read in.
//! A cursor is bound to the list, sort, order, filters and search it came from (a 64-bit
//! digest of them, [`binding`]): sent with other ones, or forged, or corrupt, it is a 422
//! naming `cursor` ([`ListParams::bind`]). Its key is checked against the sort's kind
//! ([`KeyKind`]) here, so whatever a client sends, the store gets only values its
//! statements accept.

use crate::choice::Choice;
use crate::choice_enum;
use crate::input::{Form, RawMap, TextRule, read_choice, read_integer, read_str, text};
use crate::validation::{FieldErrors, Rejected, message};

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

    /// The `meta` object of a list response for `total` matching rows (no cursors).
    pub fn meta(self, total: u64) -> PageMeta {
        let per_page = u64::from(self.limit);
        PageMeta {
            current_page: self.page,
            per_page: self.limit,
            total,
            last_page: total.div_ceil(per_page).max(1),
            next_cursor: None,
            prev_cursor: None,
            truncated: false,
        }
    }
}

/// The `meta` object of a list response.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PageMeta {
    /// The page returned.
    pub current_page: u32,
    /// The page size used.
    pub per_page: u32,
    /// How many records match.
    pub total: u64,
    /// `max(1, ceil(total / per_page))`.
    pub last_page: u64,
    /// Where the next page starts ([`Cursor::encode`]), or `None` after the last page.
    pub next_cursor: Option<String>,
    /// Where the previous page ends, or `None` on the first page.
    pub prev_cursor: Option<String>,
    /// Present, and `true`, only when the page stopped before `per_page` records because
    /// they reached the list byte budget (lists of estimates and invoices, which embed
    /// their lines); `next_cursor` then goes on right after the last record returned.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub truncated: bool,
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
    /// Where to read from instead of `page`, if a cursor was sent (checked by
    /// [`ListParams::bind`]).
    pub cursor: Option<Cursor>,
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
        let cursor = form.optional("cursor", |f, v, e| {
            let decoded = read_str(f, v, e).and_then(Cursor::decode);
            if decoded.is_none() && !e.has(f) {
                e.add(f, message::invalid(f));
            }
            decoded
        });
        ListParams {
            page: Page { page, limit },
            order,
            sort,
            search,
            cursor,
        }
    }
}

impl<S: Choice + PartialEq> ListParams<S> {
    /// Checks the cursor, if any, against the query it is used with: `list` names the list
    /// and `filters` renders the request's filters canonically (each list's own); the sort,
    /// order and search are added here. A cursor made for another query, or whose key is
    /// not a value of the sort's `kind`, is reported as "The selected cursor is invalid."
    /// and dropped.
    pub fn bind(&mut self, form: &mut Form<'_>, list: &str, filters: &str, kind: KeyKind) {
        let expected = self.binding(list, filters);
        if let Some(cursor) = &self.cursor {
            let key_ok = match &cursor.key {
                Some(key) => kind.accepts(key),
                None => true,
            };
            if cursor.binding != expected || !key_ok {
                form.error("cursor", message::invalid("cursor"));
                self.cursor = None;
            }
        }
    }

    /// The digest a cursor of this query carries (see [`ListParams::bind`]).
    pub fn binding(&self, list: &str, filters: &str) -> u64 {
        let sort = self.sort.map_or("", |sort| {
            S::CHOICES
                .iter()
                .find(|(_, v)| *v == sort)
                .map_or("", |(text, _)| *text)
        });
        let search = self.search.as_deref().unwrap_or("");
        binding(&[list, sort, self.order.as_str(), filters, search])
    }
}

/// FNV-1a (64 bits) over `parts`, each followed by a 0xff separator (a byte no UTF-8 text
/// contains), so that no two different lists of parts share their input.
pub fn binding(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain(std::iter::once(0xff)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// What one list adds to the parameters every list shares: its name, its sort whitelist
/// and the kind of key each sort has, and its filters. [`ListQuery`] does the rest.
pub trait ListFilters: Sized {
    /// The list's name (what its cursors are bound to, with the sort, order, filters and
    /// search).
    const LIST: &'static str;
    /// The sort whitelist.
    type Sort: Choice + PartialEq;

    /// Reads the filters from the query string (errors are recorded in `form`).
    fn read(form: &mut Form<'_>) -> Self;

    /// The filters, canonically (what a cursor is bound to besides sort, order, search).
    fn key(&self) -> String;

    /// The kind of the cursor key of `sort` (`None`: the list's default order).
    fn key_kind(sort: Option<Self::Sort>) -> KeyKind;
}

/// A list request: the parameters every list shares and the list's own filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListQuery<F: ListFilters> {
    /// Paging, order, sort, search.
    pub params: ListParams<F::Sort>,
    /// The list's filters.
    pub filters: F,
}

impl<F: ListFilters> ListQuery<F> {
    /// Reads the query string: every invalid parameter or filter is reported, and a cursor
    /// must have been minted for the same list, sort, order, filters and search.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let params = ListParams::read(&mut form);
        let filters = F::read(&mut form);
        let mut query = ListQuery { params, filters };
        let key = query.filters.key();
        let kind = F::key_kind(query.params.sort);
        query.params.bind(&mut form, F::LIST, &key, kind);
        form.finish()?;
        Ok(query)
    }

    /// The digest the cursors of this query carry.
    pub fn binding(&self) -> u64 {
        self.params.binding(F::LIST, &self.filters.key())
    }

    /// The id the search also matches, when the search is a positive integer (the lists
    /// whose search matches ids use it).
    pub fn search_id(&self) -> Option<i64> {
        let s = self.params.search.as_deref()?;
        if s.bytes().all(|b| b.is_ascii_digit()) {
            s.parse().ok().filter(|n| *n > 0)
        } else {
            None
        }
    }
}

/// The kind of value a sort key has; a cursor's key must be one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// A 64-bit integer (ids, and timestamps as microseconds since the Unix epoch).
    Integer,
    /// Text without NUL characters.
    Text,
    /// A calendar date `YYYY-MM-DD` between years 1 and 9999.
    Date,
    /// A decimal number.
    Decimal,
}

impl KeyKind {
    /// Whether `key` is a value of this kind, in the store's text form.
    pub fn accepts(self, key: &str) -> bool {
        match self {
            KeyKind::Integer => {
                key.parse::<i64>().is_ok() && !key.starts_with('+') && key.trim() == key
            }
            KeyKind::Text => !key.contains('\0'),
            KeyKind::Date => {
                key.len() == 10
                    && chrono::NaiveDate::parse_from_str(key, "%Y-%m-%d")
                        .is_ok_and(|d| (1..=9999).contains(&chrono::Datelike::year(&d)))
            }
            KeyKind::Decimal => {
                key.len() <= 40
                    && key
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
                    && key.parse::<rust_decimal::Decimal>().is_ok()
            }
        }
    }
}

/// A position in a sorted list and the direction to read from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// `true`: the rows after the position (in the list's order); `false`: the rows before.
    pub forward: bool,
    /// The page number the rows read make (informational: `meta.current_page`).
    pub page: u32,
    /// The digest of the query the cursor belongs to ([`ListParams::binding`]).
    pub binding: u64,
    /// The sort key's value at the position, in the store's text form (`None`: SQL NULL;
    /// lists sorted by id carry the id here too).
    pub key: Option<String>,
    /// The id at the position (the tie-break).
    pub id: i64,
}

impl Cursor {
    /// The opaque text form: lowercase hex of `1|f|page|binding|id|k|key` (`b` for
    /// backward, `n` for a NULL key).
    pub fn encode(&self) -> String {
        let plain = format!(
            "1|{}|{}|{:016x}|{}|{}",
            if self.forward { 'f' } else { 'b' },
            self.page,
            self.binding,
            self.id,
            match &self.key {
                Some(key) => format!("k|{key}"),
                None => "n|".to_owned(),
            }
        );
        // Digit by digit: a page carries two cursors, and a string formatted per byte
        // cost more than the rest of the cursor (issue 55's profile of a page of 25).
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut out = String::with_capacity(plain.len() * 2);
        for byte in plain.bytes() {
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
        out
    }

    /// Reads [`Cursor::encode`]'s form strictly; anything else is `None`.
    pub fn decode(text: &str) -> Option<Cursor> {
        if !text.len().is_multiple_of(2) || text.len() > 4096 {
            return None;
        }
        let bytes = (0..text.len())
            .step_by(2)
            .map(|i| {
                let pair = text.get(i..i + 2)?;
                if pair
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
                {
                    u8::from_str_radix(pair, 16).ok()
                } else {
                    None
                }
            })
            .collect::<Option<Vec<u8>>>()?;
        let plain = String::from_utf8(bytes).ok()?;
        let mut parts = plain.splitn(7, '|');
        let version = parts.next()?;
        let direction = parts.next()?;
        let page = parts.next()?;
        let digest = parts.next()?;
        let id = parts.next()?;
        let null = parts.next()?;
        let key = parts.next()?;
        if version != "1" || digest.len() != 16 {
            return None;
        }
        let forward = match direction {
            "f" => true,
            "b" => false,
            _ => return None,
        };
        let page: u32 = page.parse().ok().filter(|p| (1..=MAX_PAGE).contains(p))?;
        let binding = u64::from_str_radix(digest, 16).ok()?;
        let id: i64 = id.parse().ok()?;
        let key = match (null, key) {
            ("k", key) => Some(key.to_owned()),
            ("n", "") => None,
            _ => return None,
        };
        let cursor = Cursor {
            forward,
            page,
            binding,
            key,
            id,
        };
        // Only the canonical form is accepted (no `+7`, leading zeros or upper case).
        (cursor.encode() == text).then_some(cursor)
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

/// The `LIKE` / `ILIKE` pattern that finds `search` anywhere in a text, literally: `%`, `_`
/// and `\` escaped (with the default escape character `\`), between two `%`. Lowercasing
/// it with PostgreSQL's `lower()` keeps every escape (no character lowercases to one of
/// the three), which the notes' `LIKE` on lowercased text relies on.
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
    fn cursors_round_trip_and_only_their_canonical_form_is_read() {
        for key in [
            Some("plain".to_owned()),
            Some("with|bars|and ünïcode".to_owned()),
            None,
        ] {
            let cursor = Cursor {
                forward: false,
                page: 7,
                binding: 0x0123_4567_89ab_cdef,
                key,
                id: -3,
            };
            let text = cursor.encode();
            assert!(text.bytes().all(|b| b.is_ascii_hexdigit()));
            assert_eq!(Cursor::decode(&text), Some(cursor));
            assert_eq!(Cursor::decode(&text.to_uppercase()), None);
            assert_eq!(Cursor::decode(&text[1..]), None);
        }
        let hex = |s: &str| s.bytes().map(|b| format!("{b:02x}")).collect::<String>();
        for plain in [
            "1|f|2|0123456789abcdef|5|k|x",
            "1|b|1|0123456789abcdef|5|n|",
        ] {
            assert!(Cursor::decode(&hex(plain)).is_some(), "{plain}");
        }
        for plain in [
            "2|f|2|0123456789abcdef|5|k|x",
            "1|x|2|0123456789abcdef|5|k|x",
            "1|f|0|0123456789abcdef|5|k|x",
            "1|f|02|0123456789abcdef|5|k|x",
            "1|f|2|0123456789ABCDEF|5|k|x",
            "1|f|2|123456789abcdef|5|k|x",
            "1|f|2|0123456789abcdef|+5|k|x",
            "1|f|2|0123456789abcdef|5|n|x",
            "1|f|2|0123456789abcdef|5|q|x",
            "1|f|2|0123456789abcdef|5",
            "",
        ] {
            assert_eq!(Cursor::decode(&hex(plain)), None, "{plain}");
        }
        assert_eq!(Cursor::decode("zz"), None);
        assert_eq!(Cursor::decode(&"00".repeat(3000)), None);
    }

    #[test]
    fn cursor_keys_must_be_values_of_the_sort_kind() {
        assert!(KeyKind::Integer.accepts("-12"));
        assert!(!KeyKind::Integer.accepts("+12"));
        assert!(!KeyKind::Integer.accepts("99999999999999999999"));
        assert!(KeyKind::Date.accepts("2026-02-28"));
        assert!(!KeyKind::Date.accepts("2026-02-30"));
        assert!(!KeyKind::Date.accepts("0000-01-01"));
        assert!(!KeyKind::Date.accepts("+2026-01-01"));
        assert!(KeyKind::Decimal.accepts("-12.50"));
        assert!(!KeyKind::Decimal.accepts("NaN"));
        assert!(!KeyKind::Decimal.accepts("1e5"));
        assert!(KeyKind::Text.accepts("any text"));
        assert!(!KeyKind::Text.accepts("nul\0byte"));
    }

    #[test]
    fn a_cursor_is_refused_with_another_query_or_a_key_of_another_kind() {
        let binding = read(&[("sort", "title")]).unwrap().binding("things", "a");
        let cursor = |binding: u64, key: &str| {
            Cursor {
                forward: true,
                page: 2,
                binding,
                key: Some(key.to_owned()),
                id: 1,
            }
            .encode()
        };
        let bind = |pairs: &[(&str, &str)], filters: &str, kind: KeyKind| {
            let raw: RawMap = pairs
                .iter()
                .map(|(k, v)| (*k, RawValue::text(*v)))
                .collect();
            let mut form = Form::new(&raw);
            let mut params = ListParams::<TestSort>::read(&mut form);
            params.bind(&mut form, "things", filters, kind);
            form.finish().map(|_| params).map_err(|r| r.errors)
        };
        let good = cursor(binding, "b");
        let params = bind(&[("sort", "title"), ("cursor", &good)], "a", KeyKind::Text).unwrap();
        assert_eq!(params.cursor.unwrap().key.as_deref(), Some("b"));
        for (pairs, filters) in [
            (
                vec![("sort", "title"), ("cursor", good.as_str())],
                "other filters",
            ),
            (vec![("cursor", good.as_str())], "a"),
            (
                vec![
                    ("sort", "title"),
                    ("order", "asc"),
                    ("cursor", good.as_str()),
                ],
                "a",
            ),
            (
                vec![
                    ("sort", "title"),
                    ("search", "x"),
                    ("cursor", good.as_str()),
                ],
                "a",
            ),
        ] {
            let errors = bind(&pairs, filters, KeyKind::Text).unwrap_err();
            assert_eq!(
                errors.get("cursor"),
                Some(&["The selected cursor is invalid.".to_owned()][..])
            );
        }
        let errors = bind(&[("sort", "title"), ("cursor", &good)], "a", KeyKind::Date).unwrap_err();
        assert!(errors.has("cursor"));
        let errors = bind(&[("cursor", "0g")], "a", KeyKind::Text).unwrap_err();
        assert!(errors.has("cursor"));
    }

    #[test]
    fn search_patterns_match_percent_and_underscore_literally() {
        assert_eq!(like_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }
}
