//! Document numbers (API.md §18): the next number of a gapless series, taken inside the
//! transaction that issues the document.
//!
//! A series is a row of `number_series` (migration 0031) keyed by the kind and the prefix
//! the company's format renders for the day of issue. Taking a number increments that
//! row (`INSERT … ON CONFLICT DO UPDATE`), which keeps it locked until the transaction
//! ends: concurrent issues of one series, on any instance, wait for each other and each
//! sees the last committed count; a transaction that rolls back (a failed write, a killed
//! connection, a server crash) gives its number back. So numbers are never skipped and
//! never given twice; the unique indexes on the numbers (`invoices_number_key`,
//! `estimates_number_key`) guard against two formats whose numbers meet.

use chrono::NaiveDate;
use crm_core::numbering::Series;

use crate::db::Db;
use crate::error::StoreError;
use crate::rows;

/// The company's format of each series.
const FORMATS_SQL: &str = "SELECT invoice_number_format, estimate_number_format, \
     credit_note_number_format FROM company WHERE id = 1";

/// The next count of series (`$1` kind, `$2` prefix), the row locked until commit.
const NEXT_SQL: &str = "INSERT INTO number_series (kind, prefix, last_seq) VALUES ($1, $2, 1) \
     ON CONFLICT (kind, prefix) DO UPDATE SET last_seq = number_series.last_seq + 1 \
     RETURNING last_seq";

/// The next number of `series` for a document issued on `day`, taken in the caller's
/// transaction (see the module's description).
pub(crate) async fn next(
    db: &impl Db,
    series: Series,
    day: NaiveDate,
) -> Result<String, StoreError> {
    let row = db.row(FORMATS_SQL, &[]).await?;
    let column = match series {
        Series::Invoice => "invoice_number_format",
        Series::Estimate => "estimate_number_format",
        Series::CreditNote => "credit_note_number_format",
    };
    let format =
        crate::company::stored_format(&row, column)?.unwrap_or_else(|| series.default_format());
    let counted = db
        .row(NEXT_SQL, &[&series.as_str(), &format.prefix(day)])
        .await?;
    let seq: i64 = rows::get(&counted, "last_seq")?;
    let seq = u64::try_from(seq).map_err(|_| crate::error::corrupt("number series", seq))?;
    Ok(format.render(day, seq))
}
