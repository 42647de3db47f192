//! `PUT /estimates/{id}/items`, `PUT /invoices/{id}/items`: replacing the line items, the
//! tax records and the totals in one transaction, with the bill row locked (which
//! serialises concurrent replacements: the last one to lock wins whole).

use std::collections::HashMap;

use crm_core::bill::TotalsHeader;
use crm_core::bill::items::total_overflow_error;
use crm_core::bill::{ItemsRequest, LineItems};
use crm_core::money::Percent;
use crm_core::tax_rate::VatCategory;
use crm_core::totals::vat::VatRate;
use crm_core::totals::{Computed, Line, LineDiscount, Policy, TaxMode, TotalsInput, compute};
use crm_core::validation::Rejected;
use rust_decimal::Decimal;

use super::kind::StoredBill;
use super::{BillSql, LockMode, decode, lock, recompute};
use crate::db::Db;
use crate::error::StoreError;
use crate::{refs, rows};

/// A tax rate selected by the request, as it is when the items are set.
#[derive(Debug, Clone)]
struct Rate {
    name: String,
    rate: Percent,
    category: VatCategory,
}

const RATES_SQL: &str = "SELECT id, name, rate, vat_category FROM tax_rates WHERE id = ANY($1)";

/// The complete bill. The request is checked against the bill's stored tax mode (the
/// other mode's fields are refused, naming them) and currency (a fixed line discount has
/// at most its decimals), the tax rates must exist and be
/// enabled, the totals are computed by crm-core (out of range → 422 on `items`), then
/// lines, tax records (summary: one per selected rate; inline: one per line with a rate)
/// and header totals are replaced. An issued invoice or an accepted estimate keeps its
/// items (a conflict, before anything else is checked). Call inside a transaction; the
/// caller reads the record back.
pub(crate) async fn replace_items<K: StoredBill>(
    db: &impl Db,
    id: i64,
    req: ItemsRequest,
) -> Result<(), StoreError> {
    let sql = K::sql();
    let locked = lock(db, sql, id, LockMode::Update).await?;
    K::lock_state(&locked)?.check_change()?;
    let priced = price(db, &locked.totals, locked.policy, req).await?;
    db.run(sql.delete_taxes, &[&id]).await?;
    db.run(sql.delete_lines, &[&id]).await?;
    insert(db, Statements::of(sql), id, &priced).await?;
    recompute::write_totals(db, sql, id, &priced.computed.totals).await
}

/// Lines priced under a document's header: the request checked against its tax mode, its
/// tax rates as they are now, and crm-core's figures.
#[derive(Debug)]
pub(crate) struct Priced {
    items: LineItems,
    rates: HashMap<i64, Rate>,
    /// The computed lines and totals.
    pub(crate) computed: Computed,
}

/// Prices `req` under `header` with `policy`: the request is checked against the header's
/// tax mode (the other mode's fields are refused, naming them, with every other failing
/// field), the tax rates must exist and be enabled, the totals are computed by crm-core
/// (out of range → 422 on `items`). Writes nothing.
pub(crate) async fn price(
    db: &impl Db,
    header: &TotalsHeader,
    policy: Policy,
    req: ItemsRequest,
) -> Result<Priced, StoreError> {
    let items = match req.for_mode(header.tax_type, header.currency) {
        Ok(items) => items,
        Err(rejected) => return Err(with_reference_errors(db, rejected).await),
    };
    refs::require(db, items.references()).await?;
    let rates = selected_rates(db, &items).await?;
    let computed = compute(&input(header, &items, &rates)?, policy)
        .map_err(|_| StoreError::Invalid(total_overflow_error()))?;
    Ok(Priced {
        items,
        rates,
        computed,
    })
}

/// The statements that write a document's lines and tax records
/// ([`insert_lines_sql!`], [`insert_taxes_sql!`] over its tables).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Statements {
    /// The lines' insert.
    pub(crate) lines: &'static str,
    /// The tax records' insert.
    pub(crate) taxes: &'static str,
}

impl Statements {
    /// A bill's.
    fn of(sql: &'static BillSql) -> Statements {
        Statements {
            lines: sql.insert_lines,
            taxes: sql.insert_taxes,
        }
    }
}

/// Inserts the priced lines of document `id` (positions 1..n) and its tax records (summary:
/// one per selected rate; inline: one per line with a rate).
pub(crate) async fn insert(
    db: &impl Db,
    statements: Statements,
    id: i64,
    priced: &Priced,
) -> Result<(), StoreError> {
    let line_ids = insert_lines(db, statements.lines, id, &priced.items, &priced.computed).await?;
    insert_taxes(
        db,
        statements.taxes,
        id,
        &priced.items,
        &priced.rates,
        &line_ids,
    )
    .await
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

/// The tax rates the request selects (summary: bill-level; inline: per line), by id.
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
                    category: rows::choice(row, "vat_category")?,
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
            let found = i
                .tax_rate
                .map(|t| rate_of(rates, t.get()).map(|r| (t, r)))
                .transpose()?;
            Ok(Line {
                quantity: i.quantity,
                rate: i.rate,
                discount: i.discount,
                tax_rate: found.map(|(_, r)| r.rate),
                vat: found.map(|(t, r)| VatRate {
                    id: t.get(),
                    category: r.category,
                    rate: r.rate,
                }),
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
        minor_units: header.currency.minor_units(),
    })
}

/// Inserts the lines (positions 1..n) with their computed figures; returns their ids in
/// order.
async fn insert_lines(
    db: &impl Db,
    statement: &str,
    id: i64,
    items: &LineItems,
    computed: &Computed,
) -> Result<Vec<i64>, StoreError> {
    // Inline and VAT modes keep a rate and a discount per line.
    let inline = items.mode != TaxMode::Summary;
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
            decode::stored_discount(if inline {
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
            statement,
            &[
                &id,
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

/// Inserts the tax records: summary, one per selected rate (no line); inline and VAT, one
/// per line that has a rate (`line_ids` are the new lines, in order).
async fn insert_taxes(
    db: &impl Db,
    statement: &str,
    id: i64,
    items: &LineItems,
    rates: &HashMap<i64, Rate>,
    line_ids: &[i64],
) -> Result<(), StoreError> {
    let records: Vec<(Option<i64>, i64)> = match items.mode {
        TaxMode::Summary => items.tax_rate_ids.iter().map(|t| (None, t.get())).collect(),
        TaxMode::Inline | TaxMode::Vat => line_ids
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
    db.run(statement, &[&id, &line_id, &tax_rate_id, &name, &rate])
        .await?;
    Ok(())
}
