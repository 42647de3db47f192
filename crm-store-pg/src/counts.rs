//! The lists' maintained counts (migrations 0010 to 0013): each write appends one delta row
//! per sign (its keys, +1 or -1), which
//! [`Store::fold_list_counts`] moves into the folded counts. A total read by a list is exact
//! whether or not the deltas are folded; folding keeps the deltas a list sums few, and
//! [`Store::vacuum_list_count_deltas`] keeps the table they are scanned from small.

use crate::db::Db;
use crate::error::StoreError;
use crate::store::Store;

/// How often `crm serve` folds the deltas.
pub const FOLD_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// How many deltas folded since the last vacuum make `crm serve` vacuum the deltas table
/// (the table's own autovacuum threshold, migration 0012); a fold of fewer is a quiet
/// second, when the table's empty tail is given back.
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
    /// to stay fast. Autovacuum does it at 2,000 dead rows, unless it is off, behind, or
    /// busy with another table; `crm serve` also does it itself (`crm_http::ops::upkeep`).
    /// The dead rows' space is always made reusable; with `give_back` the table's empty
    /// tail is also returned (the size a burst of writes left), which needs the table's
    /// lock for a moment: PostgreSQL tries for up to 5 s while writers hold it, so ask for
    /// it when writes are quiet. Skips the table while another vacuum holds it, and does
    /// nothing (the server warns) for a role that does not own it.
    pub async fn vacuum_list_count_deltas(&self, give_back: bool) -> Result<(), StoreError> {
        let conn = self.writer().await?;
        conn.batch_execute(if give_back {
            "VACUUM (SKIP_LOCKED, TRUNCATE) list_count_deltas"
        } else {
            "VACUUM (SKIP_LOCKED, TRUNCATE false) list_count_deltas"
        })
        .await?;
        Ok(())
    }
}
