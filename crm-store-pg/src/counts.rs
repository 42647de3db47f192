//! The lists' maintained counts (migrations 0010 to 0013): each write appends one delta row
//! per sign (its keys, +1 or -1), which
//! [`Store::fold_list_counts`] moves into the folded counts. A total read by a list is exact
//! whether or not the deltas are folded; folding keeps the deltas a list sums few.

use crate::db::Db;
use crate::{Store, StoreError};

/// How often `crm serve` folds the deltas.
pub const FOLD_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

impl Store {
    /// Folds the committed count deltas into the folded counts, in one statement (a
    /// concurrent list sees each delta on one side or the other); returns how many deltas
    /// were folded. Safe to run from several processes at once.
    pub async fn fold_list_counts(&self) -> Result<i64, StoreError> {
        let conn = self.writer().await?;
        let row = conn.row("SELECT fold_list_counts()", &[]).await?;
        Ok(row.try_get(0)?)
    }
}
