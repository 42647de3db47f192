//! Estimates (`/api/estimates`, API.md §5), and the invoice that converting one creates.
//!
//! Document estimates (`is_document`: the backing estimates of contracts) are invisible
//! here: every statement of this module filters them out, so for every operation their ids
//! are "Estimate not found.".
//!
//! **Reads are one statement** ([`read`]): the header with its client and category names,
//! the converted invoice's id, and the lines, taxes and tags aggregated per estimate (lines
//! and taxes as JSON whose numbers are text, so no precision is lost). One statement means
//! one round trip and one snapshot: a response never mixes the lines of one item
//! replacement with the totals of another. A list is two statements: the page of ids with
//! the total ([`crate::sql::paged`]), then that same full-record statement for the page's
//! ids (`= ANY($1)`).
//!
//! **Writes are one transaction each**, which first locks the estimate row:
//!
//! | operation | locks |
//! |---|---|
//! | create | nothing (a new row) |
//! | update, replace items, delete, set tags, publish, convert | the estimate row, `FOR UPDATE` |
//! | set status | the estimate row, by its `UPDATE` |
//! | clone, send email | the (source) estimate row, `FOR SHARE`: waits for its writers and holds them off until commit, readers are not blocked |
//!
//! Locking first serialises every change of one estimate, so concurrent item replacements
//! leave one request's lines with the totals computed from exactly those lines. Totals are
//! computed by crm-core ([`crm_core::totals::compute`], the store's policy) whenever the
//! header or the lines change, and stored with the lines in the same transaction.

use chrono::NaiveDate;
use crm_core::conflict::Resource;
use crm_core::estimate::{StoredStatus, TotalsHeader};
use crm_core::ids::EstimateId;
use crm_core::totals::{DiscountKind, HeaderDiscount};
use tokio_postgres::Row;

use crate::db::Db;
use crate::{StoreError, rows};

/// The SQL expression (a JSON array, `[]` when empty) of the line items of the bill whose
/// id is `$id`, in `position` order: `$lines` is the lines table, `$owner` its bill column.
/// Decoded by [`bill::line_items`].
macro_rules! lines_json {
    ($lines:literal, $owner:literal, $id:literal) => {
        concat!(
            "COALESCE((SELECT json_agg(json_build_object(",
            "'id', l.id, 'position', l.position, 'description', l.description, ",
            "'long_description', l.long_description, 'unit', l.unit, 'quantity', l.quantity::text, ",
            "'rate', l.rate::text, 'total', l.total::text, 'discount_type', l.discount_type, ",
            "'discount_value', l.discount_value::text, 'discount_amount', l.discount_amount::text, ",
            "'tax_rate_id', l.tax_rate_id) ORDER BY l.position) FROM ",
            $lines,
            " l WHERE l.",
            $owner,
            " = ",
            $id,
            "), '[]')"
        )
    };
}

/// The SQL expression (a JSON array) of the tax records of the bill whose id is `$id`, in
/// id order. Decoded by [`bill::taxes`].
macro_rules! taxes_json {
    ($taxes:literal, $owner:literal, $id:literal) => {
        concat!(
            "COALESCE((SELECT json_agg(json_build_object(",
            "'name', t.name, 'rate', t.rate::text, 'tax_rate_id', t.tax_rate_id, 'lineitem_id', t.line_id",
            ") ORDER BY t.id) FROM ",
            $taxes,
            " t WHERE t.",
            $owner,
            " = ",
            $id,
            "), '[]')"
        )
    };
}

/// The totals columns, shared by `estimates` and `invoices`, of the table aliased `$t`
/// (decoded by [`bill::totals`]).
#[rustfmt::skip]
macro_rules! totals_columns {
    ($t:literal) => {
        concat!(
            $t, ".subtotal, ", $t, ".subtotal_before_discount, ", $t, ".discount_type, ",
            $t, ".discount_percentage, ", $t, ".discount_amount, ", $t, ".amount_before_tax, ",
            $t, ".tax_total_percentage, ", $t, ".tax_total_amount, ", $t, ".adjustment_description, ",
            $t, ".adjustment_amount, ", $t, ".final_amount"
        )
    };
}

mod actions;
mod bill;
mod convert;
mod items;
mod list;
mod read;
mod recompute;
mod write;

/// How an operation locks the estimate row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LockMode {
    /// `FOR UPDATE`: the operation changes the estimate.
    Update,
    /// `FOR SHARE`: the operation reads it (or adds records beside it) and must not see
    /// it change before commit.
    Share,
}

/// The stored header fields the writing operations decide on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Locked {
    /// The stored status.
    status: StoredStatus,
    /// The expiry date.
    expiry: Option<NaiveDate>,
    /// Tax mode, header discount and adjustment.
    totals: TotalsHeader,
}

const LOCK_UPDATE_SQL: &str = "SELECT status, expiry_date, tax_type, discount_type, discount_percentage, \
     discount_amount, adjustment_amount FROM estimates WHERE id = $1 AND NOT is_document FOR UPDATE";

const LOCK_SHARE_SQL: &str = "SELECT status, expiry_date, tax_type, discount_type, discount_percentage, \
     discount_amount, adjustment_amount FROM estimates WHERE id = $1 AND NOT is_document FOR SHARE";

/// Locks estimate `id` (call inside a transaction) and returns its header; a missing or
/// document estimate is `NotFound`. The row returned is the latest committed version, as
/// PostgreSQL re-reads a row it had to wait for.
async fn lock(db: &impl Db, id: EstimateId, mode: LockMode) -> Result<Locked, StoreError> {
    let sql = match mode {
        LockMode::Update => LOCK_UPDATE_SQL,
        LockMode::Share => LOCK_SHARE_SQL,
    };
    let row = db
        .row_opt(sql, &[&id.get()])
        .await?
        .ok_or(StoreError::NotFound(Resource::Estimate))?;
    Ok(Locked {
        status: rows::choice(&row, "status")?,
        expiry: rows::get(&row, "expiry_date")?,
        totals: TotalsHeader {
            tax_type: rows::choice(&row, "tax_type")?,
            discount: header_discount(&row)?,
            adjustment: rows::money(&row, "adjustment_amount")?,
        },
    })
}

/// The stored header discount: `fixed` keeps its amount in `discount_amount`, `percentage`
/// its percentage in `discount_percentage` (the amount there is computed).
fn header_discount(row: &Row) -> Result<HeaderDiscount, StoreError> {
    Ok(match rows::choice::<DiscountKind>(row, "discount_type")? {
        DiscountKind::None => HeaderDiscount::None,
        DiscountKind::Fixed => HeaderDiscount::Fixed(rows::money(row, "discount_amount")?),
        DiscountKind::Percentage => {
            HeaderDiscount::Percentage(rows::percent(row, "discount_percentage")?)
        }
    })
}
