//! The company (`/api/company`, API.md §17): one row (migration 0030), read in one
//! statement, changed under its row lock. What the API shows is crm-core's
//! [`Company`]: the stored settings with the defaults of what was never set (the trading
//! name of `--company-name`, the currency EUR).

use crm_core::company::{Company, CompanySettings, CompanyUpdate};
use crm_core::numbering::{NumberFormat, StoredFormats};
use crm_core::reminder::ReminderSteps;
use crm_core::webhook::EventType;
use tokio_postgres::Row;

use crate::db::Db;
use crate::party::{address, address_columns, bank, peppol};
use crate::{Ctx, Store, StoreError, rows};

/// The company's row.
const COMPANY_SQL: &str = "SELECT * FROM company WHERE id = 1";

/// The row, locked for a change.
const LOCK_SQL: &str = "SELECT * FROM company WHERE id = 1 FOR UPDATE";

/// Every setting at once (what a PATCH gives after crm-core applied it).
const UPDATE_SQL: &str = concat!(
    "UPDATE company SET legal_name = $1, trading_name = $2, (",
    address_columns!(),
    ") = ($3, $4, $5, $6, $7, $8), vat_id = $9, tax_id = $10, registration = $11, \
     contact_name = $12, email = $13, phone = $14, website = $15, bank_iban = $16, \
     bank_bic = $17, bank_account_name = $18, peppol_scheme = $19, peppol_id = $20, \
     currency = $21, timezone = $22, payment_terms = $23, invoice_number_format = $24, \
     estimate_number_format = $25, credit_note_number_format = $26, reminders = $27, \
     updated_at = now() WHERE id = 1"
);

impl Store {
    /// `GET /company`.
    pub async fn company(&self) -> Result<Company, StoreError> {
        read(&*self.reader().await?, self.company_name()).await
    }

    /// `PATCH /company`: the fields sent, under the row's lock.
    pub async fn update_company(
        &self,
        _ctx: Ctx,
        cmd: &CompanyUpdate,
    ) -> Result<Company, StoreError> {
        let tx = self.begin().await?;
        let row = tx.row(LOCK_SQL, &[]).await?;
        tx.if_match(async { self.shown_company(&row) }).await?;
        let s = cmd.apply(settings(&row)?);
        let a = &s.address;
        tx.run(
            UPDATE_SQL,
            &[
                &s.legal_name,
                &s.trading_name,
                &a.line1,
                &a.line2,
                &a.city,
                &a.postcode,
                &a.region,
                &a.country,
                &s.vat_id,
                &s.tax_id,
                &s.registration,
                &s.contact_name,
                &s.email,
                &s.phone,
                &s.website,
                &s.bank.iban,
                &s.bank.bic,
                &s.bank.account_name,
                &s.peppol.scheme,
                &s.peppol.id,
                &s.currency,
                &s.timezone,
                &s.payment_terms,
                &format_text(&s.number_formats.invoice),
                &format_text(&s.number_formats.estimate),
                &format_text(&s.number_formats.credit_note),
                &s.reminders.offsets(),
            ],
        )
        .await?;
        let company = self.shown_company(&tx.row(COMPANY_SQL, &[]).await?)?;
        tx.emit(EventType::CompanyUpdated, 1, &company)?;
        tx.commit().await?;
        Ok(company)
    }

    /// The company as the API shows the row.
    fn shown_company(&self, row: &Row) -> Result<Company, StoreError> {
        shown(row, self.company_name())
    }
}

/// The company as it is now, read on `db` (inside a transaction: as it commits), its
/// trading name `fallback` when it set none.
pub(crate) async fn read(db: &impl Db, fallback: &str) -> Result<Company, StoreError> {
    shown(&db.row(COMPANY_SQL, &[]).await?, fallback)
}

/// The company as the API shows the company's row, its trading name `fallback` when it
/// set none.
fn shown(row: &Row, fallback: &str) -> Result<Company, StoreError> {
    Ok(Company::shown(
        settings(row)?,
        fallback,
        rows::timestamp(row, "updated_at")?,
    ))
}

/// The stored settings of the company's row.
fn settings(row: &Row) -> Result<CompanySettings, StoreError> {
    Ok(CompanySettings {
        legal_name: rows::get(row, "legal_name")?,
        trading_name: rows::get(row, "trading_name")?,
        address: address(row)?,
        vat_id: rows::get(row, "vat_id")?,
        tax_id: rows::get(row, "tax_id")?,
        registration: rows::get(row, "registration")?,
        contact_name: rows::get(row, "contact_name")?,
        email: rows::get(row, "email")?,
        phone: rows::get(row, "phone")?,
        website: rows::get(row, "website")?,
        bank: bank(row)?,
        peppol: peppol(row)?,
        currency: rows::get(row, "currency")?,
        timezone: rows::get(row, "timezone")?,
        payment_terms: rows::get(row, "payment_terms")?,
        number_formats: StoredFormats {
            invoice: stored_format(row, "invoice_number_format")?,
            estimate: stored_format(row, "estimate_number_format")?,
            credit_note: stored_format(row, "credit_note_number_format")?,
        },
        reminders: reminder_steps(row)?,
    })
}

/// The reminder steps of the company's row.
pub(crate) fn reminder_steps(row: &Row) -> Result<ReminderSteps, StoreError> {
    let steps: Vec<i32> = rows::get(row, "reminders")?;
    ReminderSteps::new(steps.clone())
        .map_err(|_| crate::error::corrupt("reminders", format!("{steps:?}")))
}

/// A format as stored.
fn format_text(format: &Option<NumberFormat>) -> Option<&str> {
    format.as_ref().map(NumberFormat::as_str)
}

/// The number format in `column` (NULL: never set).
pub(crate) fn stored_format(row: &Row, column: &str) -> Result<Option<NumberFormat>, StoreError> {
    let text: Option<String> = rows::get(row, column)?;
    text.map(|t| NumberFormat::parse(&t).ok_or_else(|| crate::error::corrupt(column, t)))
        .transpose()
}
