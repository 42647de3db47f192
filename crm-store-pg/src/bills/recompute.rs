//! Storing computed totals, and recomputing them from the stored lines (after a header
//! change). Runs inside the caller's transaction, with the bill row locked.

use crm_core::bill::items::check_stored_lines;
use crm_core::bill::{StoredLine, totals_input};
use crm_core::bill::{TotalsHeader, total_overflow_error};
use crm_core::money::Percent;
use crm_core::totals::TaxMode;
use crm_core::totals::vat::VatRate;
use crm_core::totals::{Computed, Policy, Totals, compute};
use futures_util::future::try_join;
use rust_decimal::Decimal;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::{BillSql, decode};
use crate::db::Db;
use crate::error::StoreError;
use crate::rows;

/// Recomputes bill `id`'s totals for `header` from its stored lines and tax records,
/// and stores the lines' totals and discount amounts and the header's totals. Totals out
/// of range are the header's fault (the lines were in range when set): 422 on the
/// adjustment ([`total_overflow_error`]). A stored fixed line discount with more decimals
/// than the header's currency (after a change of currency) is a 422 naming the line
/// ([`check_stored_lines`]).
pub(crate) async fn recompute(
    db: &impl Db,
    sql: &BillSql,
    id: i64,
    header: &TotalsHeader,
    policy: Policy,
) -> Result<(), StoreError> {
    let (lines, rates) = try_join(
        db.rows(sql.stored_lines, &[&id]),
        db.rows(sql.summary_rates, &[&id]),
    )
    .await?;
    let stored = lines
        .iter()
        .map(stored_line)
        .collect::<Result<Vec<_>, _>>()?;
    check_stored_lines(&stored, header.currency).map_err(StoreError::Invalid)?;
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
    write_lines(db, sql, &ids, &computed).await?;
    write_totals(db, sql, id, &computed.totals).await
}

fn stored_line(row: &Row) -> Result<StoredLine, StoreError> {
    let tax_rate = match rows::get::<Option<Decimal>>(row, "tax_rate")? {
        Some(_) => Some(rows::percent(row, "tax_rate")?),
        None => None,
    };
    Ok(StoredLine {
        quantity: rows::quantity(row, "quantity")?,
        rate: rows::unit_rate(row, "rate")?,
        discount: decode::line_discount(
            rows::choice(row, "discount_type")?,
            rows::get(row, "discount_value")?,
        )?,
        vat: match (rows::get::<Option<i64>>(row, "tax_rate_id")?, tax_rate) {
            (Some(id), Some(rate)) => Some(VatRate {
                id,
                category: rows::choice(row, "vat_category")?,
                rate,
            }),
            _ => None,
        },
        tax_rate,
    })
}

/// Stores each line's computed total and discount amount (`ids` in the computed order).
async fn write_lines(
    db: &impl Db,
    sql: &BillSql,
    ids: &[i64],
    computed: &Computed,
) -> Result<(), StoreError> {
    if ids.is_empty() {
        return Ok(());
    }
    let totals: Vec<Decimal> = computed.lines.iter().map(|l| l.total.get()).collect();
    let discounts: Vec<Decimal> = computed
        .lines
        .iter()
        .map(|l| l.discount_amount.get())
        .collect();
    db.run(sql.write_lines, &[&ids, &totals, &discounts])
        .await?;
    Ok(())
}

/// Computed totals as the header stores them: the discount's kind, then its percentage and
/// amount, subtotal, subtotal before discount, amount before tax, tax percentage and
/// amount, adjustment and final amount (the parameter order of [`BillSql::write_totals`]
/// after the id, and of [`BillSql::create`] after the creator).
pub(crate) struct TotalsColumns {
    discount_type: &'static str,
    amounts: [Decimal; 9],
}

impl TotalsColumns {
    pub(crate) fn of(t: &Totals) -> Self {
        TotalsColumns {
            discount_type: t.discount_type.as_str(),
            amounts: [
                t.discount_percentage.get(),
                t.discount_amount.get(),
                t.subtotal.get(),
                t.subtotal_before_discount.get(),
                t.amount_before_tax.get(),
                t.tax_total_percentage.get(),
                t.tax_total_amount.get(),
                t.adjustment_amount.get(),
                t.final_amount.get(),
            ],
        }
    }

    /// The ten statement parameters, in order.
    pub(crate) fn params(&self) -> impl Iterator<Item = &(dyn ToSql + Sync)> {
        std::iter::once(&self.discount_type as &(dyn ToSql + Sync)).chain(
            self.amounts
                .iter()
                .map(|amount| amount as &(dyn ToSql + Sync)),
        )
    }
}

/// Stores computed totals in bill `id`'s header (the header discount's kind and
/// percentage included, so that they always match the amounts).
pub(crate) async fn write_totals(
    db: &impl Db,
    sql: &BillSql,
    id: i64,
    t: &Totals,
) -> Result<(), StoreError> {
    let columns = TotalsColumns::of(t);
    let params: Vec<&(dyn ToSql + Sync)> = std::iter::once(&id as &(dyn ToSql + Sync))
        .chain(columns.params())
        .collect();
    db.run(sql.write_totals, &params).await?;
    Ok(())
}

/// The totals of a new bill with no lines (its header: `tax_type`, no discount, no
/// adjustment, `currency`), computed by crm-core like every other.
pub(crate) fn empty_totals(
    tax_type: TaxMode,
    currency: crm_core::currency::Currency,
    policy: Policy,
) -> Result<Totals, StoreError> {
    let header = TotalsHeader {
        tax_type,
        discount: crm_core::totals::HeaderDiscount::None,
        adjustment: crm_core::money::Money::ZERO,
        currency,
        exchange: None,
    };
    compute(&totals_input(&header, &[], &[]), policy)
        .map(|computed| computed.totals)
        .map_err(|e| StoreError::Internal(format!("totals of an empty bill: {e}")))
}
