//! The count keys: which maintained counts (`list_counts`) a list's total sums.

use super::statement::Sql;

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
