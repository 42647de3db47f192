//! The columns a party's identity is stored in (`address_*`, `peppol_*`, `bank_*`), shared
//! by the company and the clients: decoded from a row into crm-core's [`Address`],
//! [`Peppol`] and [`Bank`].

use crm_core::party::{Address, Bank, Parties, Peppol};
use tokio_postgres::Row;

use crate::db::Db;
use crate::{StoreError, rows};

/// The parties of a document for client `client` issued now, read on `db` (the issuing
/// transaction): the company's identity (its trading name `fallback` when it set none) and
/// the client's (API.md §18).
pub(crate) async fn issued(
    db: &impl Db,
    fallback: &str,
    client: i64,
) -> Result<Parties, StoreError> {
    let company = crate::company::read(db, fallback).await?;
    let client = crate::clients::read(db, client).await?;
    Ok(Parties {
        seller: company.seller(),
        buyer: client.buyer(),
    })
}

/// The parties as stored (JSON text of [`Parties`]).
pub(crate) fn to_json(parties: &Parties) -> Result<String, StoreError> {
    serde_json::to_string(parties).map_err(|e| StoreError::Internal(format!("parties: {e}")))
}

/// The parties stored in `column` (JSON text), if any.
pub(crate) fn stored(row: &Row, column: &str) -> Result<Option<Parties>, StoreError> {
    let text: Option<String> = rows::get(row, column)?;
    text.map(|t| serde_json::from_str(&t).map_err(|e| crate::error::corrupt("parties", e)))
        .transpose()
}

/// Keeps the parties of invoice `id` if it is issued and has none yet (publishing, or an
/// open status set by hand, issued it in the caller's transaction; the seed's), with the
/// company and the client as they are in that transaction.
pub(crate) async fn freeze_invoice(
    db: &impl Db,
    fallback: &str,
    id: i64,
) -> Result<(), StoreError> {
    let Some(row) = db.row_opt(UNFROZEN_INVOICE_SQL, &[&id]).await? else {
        return Ok(());
    };
    let parties = issued(db, fallback, rows::get(&row, "client_id")?).await?;
    db.run(FREEZE_INVOICE_SQL, &[&id, &to_json(&parties)?])
        .await?;
    Ok(())
}

/// An issued invoice whose parties are not kept yet.
const UNFROZEN_INVOICE_SQL: &str =
    "SELECT client_id FROM invoices WHERE id = $1 AND number IS NOT NULL AND parties IS NULL";

/// Keeps an invoice's parties.
const FREEZE_INVOICE_SQL: &str = "UPDATE invoices SET parties = $2::text::jsonb WHERE id = $1";

/// The address columns, in the order of [`Address`]'s fields.
macro_rules! address_columns {
    () => {
        "address_line1, address_line2, address_city, address_postcode, address_region, address_country"
    };
}
pub(crate) use address_columns;

/// The address of a row with the [`address_columns`].
pub(crate) fn address(row: &Row) -> Result<Address, StoreError> {
    Ok(Address {
        line1: rows::get(row, "address_line1")?,
        line2: rows::get(row, "address_line2")?,
        city: rows::get(row, "address_city")?,
        postcode: rows::get(row, "address_postcode")?,
        region: rows::get(row, "address_region")?,
        country: rows::get(row, "address_country")?,
    })
}

/// The Peppol endpoint of a row (`peppol_scheme`, `peppol_id`).
pub(crate) fn peppol(row: &Row) -> Result<Peppol, StoreError> {
    Ok(Peppol {
        scheme: rows::get(row, "peppol_scheme")?,
        id: rows::get(row, "peppol_id")?,
    })
}

/// The bank account of a row (`bank_iban`, `bank_bic`, `bank_account_name`).
pub(crate) fn bank(row: &Row) -> Result<Bank, StoreError> {
    Ok(Bank {
        iban: rows::get(row, "bank_iban")?,
        bic: rows::get(row, "bank_bic")?,
        account_name: rows::get(row, "bank_account_name")?,
    })
}
