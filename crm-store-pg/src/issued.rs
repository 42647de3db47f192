//! The parties an issued document names (API.md §18): the company and the client as they
//! are in the issuing transaction, kept with the document as JSON (crm-core's [`Parties`])
//! and read back with it.

use crm_core::party::Parties;
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
