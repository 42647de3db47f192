//! The lists' maintained counts (migrations 0010 to 0013): each write appends one delta row
//! per sign (its keys, +1 or -1), which
//! [`Store::fold_list_counts`] moves into the folded counts. A total read by a list is exact
//! whether or not the deltas are folded; folding keeps the deltas a list sums few, and
//! [`Store::vacuum_list_count_deltas`] keeps the table they are scanned from small.

use crate::db::Db;
use crate::{Store, StoreError};

/// How often `crm serve` folds the deltas.
pub const FOLD_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// How many deltas folded since the last vacuum make `crm serve` vacuum the deltas table:
/// the table's own autovacuum threshold (migration 0012).
pub const VACUUM_AFTER_FOLDED: u64 = 2_000;

impl Store {
    /// Folds the committed count deltas into the folded counts, in one statement (a
    /// concurrent list sees each delta on one side or the other); returns how many deltas
    /// were folded. Safe to run from several processes at once.
    pub async fn fold_list_counts(&self) -> Result<i64, StoreError> {
        let conn = self.writer().await?;
        let row = conn.row("SELECT fold_list_counts()", &[]).await?;
        Ok(row.try_get(0)?)
    }

    /// Vacuums the deltas table: the fold deletes every delta it moves, and a total scans
    /// the whole table, dead rows' pages and all, so the table must be vacuumed for totals
    /// to stay fast (the space reused, its empty tail given back). Autovacuum does it at
    /// 2,000 dead rows, unless it is off, behind, or busy with another table; `crm serve`
    /// also does it itself after [`VACUUM_AFTER_FOLDED`] folded deltas. Skips the table
    /// while another vacuum holds it, and does nothing (with a warning from the server)
    /// for a role that does not own it.
    pub async fn vacuum_list_count_deltas(&self) -> Result<(), StoreError> {
        let conn = self.writer().await?;
        conn.batch_execute("VACUUM (SKIP_LOCKED) list_count_deltas")
            .await?;
        Ok(())
    }
}
