//! Storing computed totals, and recomputing them from the stored lines (after a header
//! change). Runs inside the caller's transaction, with the estimate row locked.

use crm_core::estimate::header::total_overflow_error;
use crm_core::estimate::{StoredLine, TotalsHeader, totals_input};
use crm_core::ids::EstimateId;
use crm_core::money::Percent;
use crm_core::totals::{Computed, Policy, Totals, compute};
use futures_util::future::try_join;
use rust_decimal::Decimal;
use tokio_postgres::Row;

use super::bill;
use crate::db::Db;
use crate::{StoreError, rows};

/// The lines as the calculator needs them, in order; an inline line's rate is the one
/// copied into its tax record when the items were set (later edits of the tax rate do not
/// rewrite the estimate).
const STORED_LINES_SQL: &str = "SELECT l.id, l.quantity, l.rate, l.discount_type, l.discount_value, \
     (SELECT t.rate FROM estimate_taxes t WHERE t.line_id = l.id ORDER BY t.id LIMIT 1) AS tax_rate \
     FROM estimate_lines l WHERE l.estimate_id = $1 ORDER BY l.position";

/// The estimate-level (summary) tax rates, as copied when the items were set.
const SUMMARY_RATES_SQL: &str =
    "SELECT rate FROM estimate_taxes WHERE estimate_id = $1 AND line_id IS NULL ORDER BY id";

const WRITE_LINES_SQL: &str = "UPDATE estimate_lines l SET total = x.total, discount_amount = x.discount_amount \
     FROM unnest($1::bigint[], $2::numeric[], $3::numeric[]) AS x(id, total, discount_amount) WHERE l.id = x.id";

const WRITE_TOTALS_SQL: &str = "UPDATE estimates SET discount_type = $2, discount_percentage = $3, \
     discount_amount = $4, subtotal = $5, subtotal_before_discount = $6, amount_before_tax = $7, \
     tax_total_percentage = $8, tax_total_amount = $9, adjustment_amount = $10, final_amount = $11, \
     updated_at = now() WHERE id = $1";

/// Recomputes estimate `id`'s totals for `header` from its stored lines and tax records,
/// and stores the lines' totals and discount amounts and the header's totals. Totals out
/// of range are the header's fault (the lines were in range when set): 422 on the
/// adjustment ([`total_overflow_error`]).
pub(super) async fn recompute(
    db: &impl Db,
    id: EstimateId,
    header: &TotalsHeader,
    policy: Policy,
) -> Result<(), StoreError> {
    let (lines, rates) = try_join(
        db.rows(STORED_LINES_SQL, &[&id.get()]),
        db.rows(SUMMARY_RATES_SQL, &[&id.get()]),
    )
    .await?;
    let stored = lines
        .iter()
        .map(stored_line)
        .collect::<Result<Vec<_>, _>>()?;
    let rates = rates
        .iter()
        .map(|r| rows::percent(r, "rate"))
        .collect::<Result<Vec<Percent>, _>>()?;
    let computed = compute(&totals_input(header, &stored, &rates), policy)
        .map_err(|_| StoreError::Invalid(total_overflow_error()))?;
    let ids = lines
        .iter()
        .map(|r| rows::get::<i64>(r, "id"))
        .collect::<Result<Vec<_>, _>>()?;
    write_lines(db, &ids, &computed).await?;
    write_totals(db, id, &computed.totals).await
}

fn stored_line(row: &Row) -> Result<StoredLine, StoreError> {
    let tax_rate = match rows::get::<Option<Decimal>>(row, "tax_rate")? {
        Some(_) => Some(rows::percent(row, "tax_rate")?),
        None => None,
    };
    Ok(StoredLine {
        quantity: rows::quantity(row, "quantity")?,
        rate: rows::unit_rate(row, "rate")?,
        discount: bill::line_discount(
            rows::choice(row, "discount_type")?,
            rows::get(row, "discount_value")?,
        )?,
        tax_rate,
    })
}

/// Stores each line's computed total and discount amount (`ids` in the computed order).
async fn write_lines(db: &impl Db, ids: &[i64], computed: &Computed) -> Result<(), StoreError> {
    if ids.is_empty() {
        return Ok(());
    }
    let totals: Vec<Decimal> = computed.lines.iter().map(|l| l.total.get()).collect();
    let discounts: Vec<Decimal> = computed
        .lines
        .iter()
        .map(|l| l.discount_amount.get())
        .collect();
    db.run(WRITE_LINES_SQL, &[&ids, &totals, &discounts])
        .await?;
    Ok(())
}

/// Stores computed totals in estimate `id`'s header (the header discount's kind and
/// percentage included, so that they always match the amounts).
pub(super) async fn write_totals(
    db: &impl Db,
    id: EstimateId,
    t: &Totals,
) -> Result<(), StoreError> {
    db.run(
        WRITE_TOTALS_SQL,
        &[
            &id.get(),
            &t.discount_type.as_str(),
            &t.discount_percentage.get(),
            &t.discount_amount.get(),
            &t.subtotal.get(),
            &t.subtotal_before_discount.get(),
            &t.amount_before_tax.get(),
            &t.tax_total_percentage.get(),
            &t.tax_total_amount.get(),
            &t.adjustment_amount.get(),
            &t.final_amount.get(),
        ],
    )
    .await?;
    Ok(())
}
