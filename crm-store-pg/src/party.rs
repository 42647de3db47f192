//! The columns a party's identity is stored in (`address_*`, `peppol_*`, `bank_*`), shared
//! by the company and the clients: decoded from a row into crm-core's [`Address`],
//! [`Peppol`] and [`Bank`].

use crm_core::party::{Address, Bank, Peppol};
use tokio_postgres::Row;

use crate::{StoreError, rows};

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
