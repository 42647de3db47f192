//! `PUT /estimates/{id}/items`: replacing the line items, the tax records and the totals
//! in one transaction, with the estimate row locked (which serialises concurrent
//! replacements: the last one to lock wins whole).

use std::collections::HashMap;

use crm_core::estimate::items::total_overflow_error;
use crm_core::estimate::{Estimate, ItemsRequest, LineItems, TotalsHeader};
use crm_core::ids::EstimateId;
use crm_core::money::Percent;
use crm_core::totals::{Computed, Line, LineDiscount, TaxMode, TotalsInput, compute};
use crm_core::validation::Rejected;
use rust_decimal::Decimal;

use super::{LockMode, bill, lock, read, recompute};
use crate::conditions::if_match;
use crate::db::Db;
use crate::{Ctx, Store, StoreError, refs, rows};

/// A tax rate selected by the request, as it is when the items are set.
#[derive(Debug, Clone)]
struct Rate {
    name: String,
    rate: Percent,
}

const RATES_SQL: &str = "SELECT id, name, rate FROM tax_rates WHERE id = ANY($1)";

const DELETE_TAXES_SQL: &str = "DELETE FROM estimate_taxes WHERE estimate_id = $1";
const DELETE_LINES_SQL: &str = "DELETE FROM estimate_lines WHERE estimate_id = $1";

/// Every line in one statement, positions 1..n from the arrays' order.
const INSERT_LINES_SQL: &str = "INSERT INTO estimate_lines (estimate_id, position, description, long_description, \
     unit, quantity, rate, total, discount_type, discount_value, discount_amount, tax_rate_id) \
     SELECT $1, x.position::int, x.description, x.long_description, x.unit, x.quantity, x.rate, x.total, \
     x.discount_type, x.discount_value, x.discount_amount, x.tax_rate_id \
     FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::numeric[], $8::text[], \
     $9::numeric[], $10::numeric[], $11::bigint[]) WITH ORDINALITY AS x(description, long_description, unit, \
     quantity, rate, total, discount_type, discount_value, discount_amount, tax_rate_id, position) \
     ORDER BY x.position RETURNING id, position";

/// Every tax record in one statement, in the arrays' order (name and rate copied).
const INSERT_TAXES_SQL: &str = "INSERT INTO estimate_taxes (estimate_id, line_id, tax_rate_id, name, rate) \
     SELECT $1, x.line_id, x.tax_rate_id, x.name, x.rate \
     FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::numeric[]) WITH ORDINALITY AS x(line_id, tax_rate_id, name, rate, n) \
     ORDER BY x.n";

impl Store {
    /// `PUT /estimates/{id}/items`: the complete bill. The request is checked against the
    /// estimate's stored tax mode (the other mode's fields are refused, naming them), the
    /// tax rates must exist and be enabled, the totals are computed by crm-core (out of
    /// range → 422 on `items`), then lines, tax records (summary: one per selected rate;
    /// inline: one per line with a rate) and header totals are replaced.
    pub async fn replace_estimate_items(
        &self,
        ctx: Ctx,
        id: EstimateId,
        req: ItemsRequest,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        let locked = lock(&tx, id, LockMode::Update).await?;
        if_match(read::load(&tx, id, ctx.today)).await?;
        let items = match req.for_mode(locked.totals.tax_type) {
            Ok(items) => items,
            Err(rejected) => return Err(with_reference_errors(&tx, rejected).await),
        };
        refs::require(&tx, items.references()).await?;
        let rates = selected_rates(&tx, &items).await?;
        let computed = compute(&input(&locked.totals, &items, &rates)?, self.policy())
            .map_err(|_| StoreError::Invalid(total_overflow_error()))?;
        tx.run(DELETE_TAXES_SQL, &[&id.get()]).await?;
        tx.run(DELETE_LINES_SQL, &[&id.get()]).await?;
        let line_ids = insert_lines(&tx, id, &items, &computed).await?;
        insert_taxes(&tx, id, &items, &rates, &line_ids).await?;
        recompute::write_totals(&tx, id, &computed.totals).await?;
        let estimate = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(estimate)
    }
}

/// A request refused for the mode, with its other references checked too, so that the
/// 422 lists every failing field at once.
async fn with_reference_errors(db: &impl Db, rejected: Rejected) -> StoreError {
    let mut errors = rejected.errors;
    match refs::invalid(db, &rejected.references).await {
        Ok(more) => {
            errors.merge(more);
            StoreError::Invalid(errors)
        }
        Err(e) => e,
    }
}

/// The tax rates the request selects (summary: estimate-level; inline: per line), by id.
async fn selected_rates(db: &impl Db, items: &LineItems) -> Result<HashMap<i64, Rate>, StoreError> {
    let mut ids: Vec<i64> = items.tax_rate_ids.iter().map(|t| t.get()).collect();
    ids.extend(
        items
            .items
            .iter()
            .filter_map(|i| i.tax_rate.map(|t| t.get())),
    );
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let found = db.rows(RATES_SQL, &[&ids]).await?;
    found
        .iter()
        .map(|row| {
            Ok((
                rows::get(row, "id")?,
                Rate {
                    name: rows::get(row, "name")?,
                    rate: rows::percent(row, "rate")?,
                },
            ))
        })
        .collect()
}

/// The rate of tax rate `id` (checked by [`refs::require`] in this transaction).
fn rate_of(rates: &HashMap<i64, Rate>, id: i64) -> Result<&Rate, StoreError> {
    rates
        .get(&id)
        .ok_or_else(|| StoreError::Internal(format!("tax rate {id} vanished after its check")))
}

/// The calculator input: the request's lines and rates with the stored header.
fn input(
    header: &TotalsHeader,
    items: &LineItems,
    rates: &HashMap<i64, Rate>,
) -> Result<TotalsInput, StoreError> {
    let lines = items
        .items
        .iter()
        .map(|i| {
            let tax_rate = i
                .tax_rate
                .map(|t| rate_of(rates, t.get()).map(|r| r.rate))
                .transpose()?;
            Ok(Line {
                quantity: i.quantity,
                rate: i.rate,
                discount: i.discount,
                tax_rate,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let tax_rates = items
        .tax_rate_ids
        .iter()
        .map(|t| rate_of(rates, t.get()).map(|r| r.rate))
        .collect::<Result<_, _>>()?;
    Ok(TotalsInput {
        tax_mode: items.mode,
        lines,
        tax_rates,
        discount: header.discount,
        adjustment: header.adjustment,
    })
}

/// Inserts the lines (positions 1..n) with their computed figures; returns their ids in
/// order.
async fn insert_lines(
    db: &impl Db,
    id: EstimateId,
    items: &LineItems,
    computed: &Computed,
) -> Result<Vec<i64>, StoreError> {
    let inline = items.mode == TaxMode::Inline;
    let lines = &items.items;
    let description: Vec<&str> = lines.iter().map(|l| l.description.as_str()).collect();
    let long_description: Vec<Option<&str>> = lines
        .iter()
        .map(|l| l.long_description.as_deref())
        .collect();
    let unit: Vec<Option<&str>> = lines.iter().map(|l| l.unit.as_deref()).collect();
    let quantity: Vec<Decimal> = lines.iter().map(|l| l.quantity.get()).collect();
    let rate: Vec<Decimal> = lines.iter().map(|l| l.rate.get()).collect();
    let total: Vec<Decimal> = computed.lines.iter().map(|l| l.total.get()).collect();
    let discount_amount: Vec<Decimal> = computed
        .lines
        .iter()
        .map(|l| l.discount_amount.get())
        .collect();
    let (discount_type, discount_value): (Vec<&str>, Vec<Decimal>) = lines
        .iter()
        .map(|l| {
            bill::stored_discount(if inline {
                l.discount
            } else {
                LineDiscount::None
            })
        })
        .unzip();
    let tax_rate_id: Vec<Option<i64>> = lines
        .iter()
        .map(|l| l.tax_rate.filter(|_| inline).map(|t| t.get()))
        .collect();
    let inserted = db
        .rows(
            INSERT_LINES_SQL,
            &[
                &id.get(),
                &description,
                &long_description,
                &unit,
                &quantity,
                &rate,
                &total,
                &discount_type,
                &discount_value,
                &discount_amount,
                &tax_rate_id,
            ],
        )
        .await?;
    let mut ids = vec![0_i64; lines.len()];
    for row in &inserted {
        let position: i32 = rows::get(row, "position")?;
        let slot = usize::try_from(position - 1)
            .ok()
            .and_then(|p| ids.get_mut(p));
        *slot.ok_or_else(|| {
            StoreError::Internal(format!("inserted line position {position} out of range"))
        })? = rows::get(row, "id")?;
    }
    Ok(ids)
}

/// Inserts the tax records: summary, one per selected rate (no line); inline, one per line
/// that has a rate (`line_ids` are the new lines, in order).
async fn insert_taxes(
    db: &impl Db,
    id: EstimateId,
    items: &LineItems,
    rates: &HashMap<i64, Rate>,
    line_ids: &[i64],
) -> Result<(), StoreError> {
    let records: Vec<(Option<i64>, i64)> = match items.mode {
        TaxMode::Summary => items.tax_rate_ids.iter().map(|t| (None, t.get())).collect(),
        TaxMode::Inline => line_ids
            .iter()
            .zip(&items.items)
            .filter_map(|(line, item)| item.tax_rate.map(|t| (Some(*line), t.get())))
            .collect(),
    };
    if records.is_empty() {
        return Ok(());
    }
    let line_id: Vec<Option<i64>> = records.iter().map(|(l, _)| *l).collect();
    let tax_rate_id: Vec<i64> = records.iter().map(|(_, t)| *t).collect();
    let mut name = Vec::with_capacity(records.len());
    let mut rate = Vec::with_capacity(records.len());
    for (_, t) in &records {
        let r = rate_of(rates, *t)?;
        name.push(r.name.as_str());
        rate.push(r.rate.get());
    }
    db.run(
        INSERT_TAXES_SQL,
        &[&id.get(), &line_id, &tax_rate_id, &name, &rate],
    )
    .await?;
    Ok(())
}
