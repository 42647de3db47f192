//! The statement builder: SQL text with numbered parameters, a list's sort key, and the
//! pieces of text both kinds of paging write (the order, the read by ids).

use crm_core::listing::Order;
use tokio_postgres::types::ToSql;

/// SQL text with numbered parameters, built step by step.
#[derive(Default)]
pub(crate) struct Sql {
    pub(super) text: String,
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

/// A read of rows of `f` meeting `condition`, in `order`, `limit` of them (after `offset`):
/// their ids first, then the rows themselves joined back by id, in `order` again. The ids
/// are read from an index alone where one holds the condition and the order (an index-only
/// scan skips rows without fetching them: a status beside the id, the rows an `OFFSET`
/// passes), and only the rows read are fetched whole.
pub(super) fn read_by_ids(
    condition: &str,
    order: &str,
    limit: &str,
    offset: Option<&str>,
) -> String {
    let offset = offset.map(|o| format!(" OFFSET {o}")).unwrap_or_default();
    format!(
        "(SELECT f.* FROM (SELECT id FROM f WHERE {condition} ORDER BY {order} LIMIT {limit}{offset}) ids \
         JOIN f USING (id) ORDER BY {order})"
    )
}

/// `ORDER BY` of the list read forward (the list's order) or backward.
pub(super) fn order_by(sort: SortKey, order: Order, forward: bool) -> String {
    order_by_expr(sort.order, order, forward)
}

/// `ORDER BY` on the sort expression `key` (then the id).
pub(super) fn order_by_expr(key: &str, order: Order, forward: bool) -> String {
    let ascending = (order == Order::Asc) == forward;
    let dir = if ascending { "ASC" } else { "DESC" };
    format!("{key} {dir}, id {dir}")
}

/// A sort whose key takes a few values only, each shown by the rows that meet a condition
/// over the filtered columns (a contract's derived status): `value` the key's text (as
/// `sort.key` gives it), `condition` what selects its rows, `size` how many there are. No
/// index orders by such a key, so [`page_with`](super::page_with) reads a numbered page from the parts it
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
