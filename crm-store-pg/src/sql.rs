//! Building list statements: only the filters a request uses, whitelisted sort columns,
//! the id tie-break, and the count of all matching rows in the same statement.

use crm_core::listing::{Order, Page};
use tokio_postgres::types::ToSql;

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

/// `ASC` or `DESC`.
pub(crate) fn direction(order: Order) -> &'static str {
    match order {
        Order::Asc => "ASC",
        Order::Desc => "DESC",
    }
}

/// Wraps a filtered `SELECT` (the `filtered` statement, which must expose `id` and the
/// sort column) into one statement returning the page's rows plus a `total` column:
///
/// ```sql
/// WITH f AS NOT MATERIALIZED (<filtered>)
/// SELECT c.total, p.* FROM (SELECT count(*) AS total FROM f) c
/// LEFT JOIN LATERAL (SELECT * FROM f ORDER BY <sort> <dir>, id <dir> LIMIT … OFFSET …) p ON TRUE
/// ```
///
/// An empty page still returns one row, whose `id` is NULL, so the total is always known.
/// `NOT MATERIALIZED` lets the planner push the page's `ORDER BY … LIMIT` into an index
/// scan instead of sorting every matching row; only the count visits them all (the price
/// of an exact total), and both parts read the same snapshot.
pub(crate) fn paged(
    filtered: Sql,
    sort_column: &str,
    order: Order,
    page: Page,
    extra_columns: &str,
) -> Sql {
    let dir = direction(order);
    let mut sql = Sql {
        text: String::new(),
        params: filtered.params,
    };
    sql.text = format!(
        "WITH f AS NOT MATERIALIZED ({}) SELECT c.total, p.*{extra_columns} FROM (SELECT count(*) AS total FROM f) c LEFT JOIN LATERAL (SELECT * FROM f ORDER BY {sort_column} {dir}, id {dir}",
        filtered.text
    );
    let limit = sql.param(i64::from(page.limit));
    let offset = sql.param(page.offset());
    sql.text
        .push_str(&format!(" LIMIT {limit} OFFSET {offset}) p ON TRUE"));
    sql
}
