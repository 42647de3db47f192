//! Decoding columns into crm-core types. A stored value that does not fit its type is an
//! internal error (a broken invariant), reported as such rather than panicking.

use chrono::{DateTime, Utc};
use crm_core::input::Choice;
use crm_core::money::{Money, Percent, Quantity, UnitRate};
use crm_core::time::{RecordDates, Timestamp};
use rust_decimal::Decimal;
use tokio_postgres::Row;
use tokio_postgres::types::FromSql;

use crate::error::StoreError;
use crate::error::corrupt;

/// A column's value, decoding errors reported as internal errors.
pub(crate) fn get<'a, T: FromSql<'a>>(row: &'a Row, column: &str) -> Result<T, StoreError> {
    row.try_get(column).map_err(|e| corrupt(column, e))
}

/// A positive id column as its id type.
pub(crate) fn id<T>(row: &Row, column: &str, make: fn(i64) -> Option<T>) -> Result<T, StoreError> {
    let raw: i64 = get(row, column)?;
    make(raw).ok_or_else(|| corrupt(column, raw))
}

/// A nullable id column.
pub(crate) fn opt_id<T>(
    row: &Row,
    column: &str,
    make: fn(i64) -> Option<T>,
) -> Result<Option<T>, StoreError> {
    let raw: Option<i64> = get(row, column)?;
    raw.map(|r| make(r).ok_or_else(|| corrupt(column, r)))
        .transpose()
}

/// A `TEXT` column holding one of a [`Choice`]'s values.
pub(crate) fn choice<C: Choice>(row: &Row, column: &str) -> Result<C, StoreError> {
    let text: &str = get(row, column)?;
    C::from_text(text).ok_or_else(|| corrupt(column, text))
}

/// A nullable [`Choice`] column.
pub(crate) fn opt_choice<C: Choice>(row: &Row, column: &str) -> Result<Option<C>, StoreError> {
    let text: Option<&str> = get(row, column)?;
    text.map(|t| C::from_text(t).ok_or_else(|| corrupt(column, t)))
        .transpose()
}

fn amount<T>(
    row: &Row,
    column: &str,
    make: fn(Decimal) -> Result<T, crm_core::money::AmountError>,
) -> Result<T, StoreError> {
    let d: Decimal = get(row, column)?;
    make(d).map_err(|e| corrupt(column, format!("{d}: {e}")))
}

/// A `NUMERIC(15,2)` money column.
pub(crate) fn money(row: &Row, column: &str) -> Result<Money, StoreError> {
    amount(row, column, Money::new)
}

/// A document's currency column (`currency`, an ISO 4217 code crm-core accepts).
pub(crate) fn currency(
    row: &Row,
    column: &str,
) -> Result<crm_core::currency::Currency, StoreError> {
    let code: String = get(row, column)?;
    crm_core::currency::Currency::from_code(&code).ok_or_else(|| corrupt(column, code))
}

/// A document's exchange rate (`exchange_rate`, `exchange_currency`: both or neither).
pub(crate) fn exchange(row: &Row) -> Result<Option<crm_core::currency::Exchange>, StoreError> {
    let rate: Option<Decimal> = get(row, "exchange_rate")?;
    let Some(rate) = rate else {
        return Ok(None);
    };
    let rate = crm_core::money::ExchangeRate::new(rate)
        .map_err(|e| corrupt("exchange_rate", format!("{rate}: {e}")))?;
    Ok(Some(crm_core::currency::Exchange {
        rate,
        to: currency(row, "exchange_currency")?,
    }))
}

/// A nullable money column.
pub(crate) fn opt_money(row: &Row, column: &str) -> Result<Option<Money>, StoreError> {
    let d: Option<Decimal> = get(row, column)?;
    d.map(|d| Money::new(d).map_err(|e| corrupt(column, format!("{d}: {e}"))))
        .transpose()
}

/// A `NUMERIC(10,2)` percentage column.
pub(crate) fn percent(row: &Row, column: &str) -> Result<Percent, StoreError> {
    amount(row, column, Percent::new)
}

/// A quantity column.
pub(crate) fn quantity(row: &Row, column: &str) -> Result<Quantity, StoreError> {
    amount(row, column, Quantity::new)
}

/// A unit rate column.
pub(crate) fn unit_rate(row: &Row, column: &str) -> Result<UnitRate, StoreError> {
    amount(row, column, UnitRate::new)
}

/// A `TIMESTAMPTZ` column.
pub(crate) fn timestamp(row: &Row, column: &str) -> Result<Timestamp, StoreError> {
    Ok(Timestamp(get::<DateTime<Utc>>(row, column)?))
}

/// A nullable `TIMESTAMPTZ` column.
pub(crate) fn opt_timestamp(row: &Row, column: &str) -> Result<Option<Timestamp>, StoreError> {
    Ok(get::<Option<DateTime<Utc>>>(row, column)?.map(Timestamp))
}

/// The `created_at` / `updated_at` pair.
pub(crate) fn record_dates(row: &Row) -> Result<RecordDates, StoreError> {
    Ok(RecordDates {
        created: timestamp(row, "created_at")?,
        updated: timestamp(row, "updated_at")?,
    })
}

/// The `total` column of a paged statement, and whether the row carries a record.
pub(crate) fn page_total(rows: &[Row]) -> Result<u64, StoreError> {
    match rows.first() {
        Some(row) => {
            let total: i64 = get(row, "total")?;
            Ok(u64::try_from(total).unwrap_or(0))
        }
        None => Ok(0),
    }
}

/// The rows of a paged statement that carry a record (an empty page has one row with a
/// NULL id).
pub(crate) fn page_rows(rows: &[Row]) -> impl Iterator<Item = &Row> {
    rows.iter()
        .filter(|r| r.try_get::<_, Option<i64>>("id").ok().flatten().is_some())
}
