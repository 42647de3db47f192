//! Tax rates (`/api/tax-rates`, API.md §17): reads, the list, and the writes, each one
//! transaction.
//!
//! **A rate in use keeps its rate and category.** "In use" is: a line or a tax record of
//! any estimate or invoice names it (`in_use!`). A PATCH or a delete locks the rate's row
//! `FOR UPDATE` first; a document that starts to use the rate takes a key-share lock on
//! that row through its foreign key, which waits for the change (and the other way
//! round), so the check and a first use never cross. The system "No Tax" rate (migration
//! 0003) keeps its rate and category and is never deleted.

use crm_core::conflict::{Conflict, Resource};
use crm_core::ids::TaxRateId;
use crm_core::listing::like_pattern;
use crm_core::tax_rate::{
    TaxRate, TaxRateInput, TaxRateListQuery, TaxRateSort, changes_what_documents_use,
};
use crm_core::webhook::EventType;
use tokio_postgres::Row;

use crate::db::Db;
use crate::sql::{self, PageRequest, SortKey, Sql, micros_key};
use crate::{Ctx, Listed, Store, StoreError, rows};

/// Whether a document uses the rate `t.id` (a column expression over `tax_rates t`).
macro_rules! in_use {
    () => {
        "(EXISTS (SELECT 1 FROM estimate_lines WHERE tax_rate_id = t.id) \
          OR EXISTS (SELECT 1 FROM estimate_taxes WHERE tax_rate_id = t.id) \
          OR EXISTS (SELECT 1 FROM invoice_lines WHERE tax_rate_id = t.id) \
          OR EXISTS (SELECT 1 FROM invoice_taxes WHERE tax_rate_id = t.id) \
          OR EXISTS (SELECT 1 FROM credit_note_lines WHERE tax_rate_id = t.id) \
          OR EXISTS (SELECT 1 FROM credit_note_taxes WHERE tax_rate_id = t.id))"
    };
}

/// The record's columns over `tax_rates t` (without `in_use`, which a page adds after
/// paging).
macro_rules! tax_rate_columns {
    () => {
        "t.id, t.name, t.rate, t.status, t.vat_category, t.exemption_reason, t.exemption_code, \
         t.system, t.created_at, t.updated_at"
    };
}

/// One tax rate by id, with whether it is in use.
const TAX_RATE_SQL: &str = concat!(
    "SELECT ",
    tax_rate_columns!(),
    ", ",
    in_use!(),
    " AS in_use FROM tax_rates t WHERE t.id = $1"
);

/// `in_use` of a page's rows (`p`).
const PAGE_EXTRA_COLUMNS: &str = ", (SELECT (EXISTS (SELECT 1 FROM estimate_lines WHERE tax_rate_id = p.id) \
     OR EXISTS (SELECT 1 FROM estimate_taxes WHERE tax_rate_id = p.id) \
     OR EXISTS (SELECT 1 FROM invoice_lines WHERE tax_rate_id = p.id) \
     OR EXISTS (SELECT 1 FROM invoice_taxes WHERE tax_rate_id = p.id) \
     OR EXISTS (SELECT 1 FROM credit_note_lines WHERE tax_rate_id = p.id) \
     OR EXISTS (SELECT 1 FROM credit_note_taxes WHERE tax_rate_id = p.id))) AS in_use";

/// The rates of a document (ids `$1`) and the system "No Tax" rate, with `in_use` true
/// (a document names them).
const NAMED_SQL: &str = concat!(
    "SELECT ",
    tax_rate_columns!(),
    ", TRUE AS in_use FROM tax_rates t WHERE t.id = ANY($1) OR t.system ORDER BY t.id"
);

const LOCK_SQL: &str = "SELECT id FROM tax_rates WHERE id = $1 FOR UPDATE";

const INSERT_SQL: &str = "INSERT INTO tax_rates \
     (name, rate, status, vat_category, exemption_reason, exemption_code, creator_id) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id";

const UPDATE_SQL: &str = "UPDATE tax_rates SET name = $1, rate = $2, status = $3, \
     vat_category = $4, exemption_reason = $5, exemption_code = $6, updated_at = now() \
     WHERE id = $7";

const DELETE_SQL: &str = "DELETE FROM tax_rates WHERE id = $1";

impl Store {
    /// `GET /tax-rates/{id}`.
    pub async fn tax_rate(&self, id: TaxRateId) -> Result<TaxRate, StoreError> {
        read(&*self.reader().await?, id.get()).await
    }

    /// The tax rates `ids` and the system "No Tax" rate (what a line without a rate is
    /// taxed at): what an e-invoice of a document that names `ids` states about them.
    pub async fn tax_rates_named(&self, ids: &[TaxRateId]) -> Result<Vec<TaxRate>, StoreError> {
        let ids: Vec<i64> = ids.iter().map(|id| id.get()).collect();
        let rows = self.reader().await?.rows(NAMED_SQL, &[&ids]).await?;
        rows.iter().map(from_row).collect()
    }

    /// `GET /tax-rates`: one page with the exact total (counted row by row).
    pub async fn list_tax_rates(
        &self,
        q: &TaxRateListQuery,
    ) -> Result<Listed<TaxRate>, StoreError> {
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(TaxRateSort::Name) => SortKey::new("lower(name)", "lower(name)", "{}::text"),
            Some(TaxRateSort::Rate) => SortKey::new("rate", "rate::text", "{}::numeric"),
            Some(TaxRateSort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let mut s = Sql::new(concat!(
            "SELECT ",
            tax_rate_columns!(),
            " FROM tax_rates t WHERE TRUE"
        ));
        if let Some(status) = q.filters.status {
            s.push_with(" AND t.status = {}", status.as_str());
        }
        if let Some(category) = q.filters.vat_category {
            s.push_with(" AND t.vat_category = {}", category.as_str());
        }
        if let Some(search) = &q.params.search {
            s.push_with(" AND t.name ILIKE {}", like_pattern(search));
        }
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page(
            &*self.reader().await?,
            s,
            None,
            sort,
            &request,
            PAGE_EXTRA_COLUMNS,
        )
        .await?;
        Listed::decoded(&found, from_row)
    }

    /// `POST /tax-rates`.
    pub async fn create_tax_rate(
        &self,
        ctx: Ctx,
        cmd: &TaxRateInput,
    ) -> Result<TaxRate, StoreError> {
        let f = cmd.fields_of_new()?;
        let tx = self.begin().await?;
        let row = tx
            .row(
                INSERT_SQL,
                &[
                    &f.name,
                    &f.rate.get(),
                    &f.status.as_str(),
                    &f.vat_category.as_str(),
                    &f.exemption_reason,
                    &f.exemption_code,
                    &ctx.actor.get(),
                ],
            )
            .await?;
        let id: i64 = rows::get(&row, "id")?;
        let rate = read(&tx, id).await?;
        tx.emit(EventType::TaxRateCreated, id, &rate)?;
        tx.commit().await?;
        Ok(rate)
    }

    /// `PATCH /tax-rates/{id}`: the fields sent, checked together with the stored ones;
    /// the rate and category of a rate in use (or of the system rate) do not change.
    pub async fn update_tax_rate(
        &self,
        _ctx: Ctx,
        id: TaxRateId,
        cmd: &TaxRateInput,
    ) -> Result<TaxRate, StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id.get()).await?;
        let current = read(&tx, id.get()).await?;
        tx.if_match(async { Ok(current.clone()) }).await?;
        let before = current.fields();
        let after = cmd.apply(before.clone())?;
        if changes_what_documents_use(&before, &after) {
            if current.system {
                return Err(Conflict::SystemTaxRate.into());
            }
            if current.in_use {
                return Err(Conflict::TaxRateInUse.into());
            }
        }
        tx.run(
            UPDATE_SQL,
            &[
                &after.name,
                &after.rate.get(),
                &after.status.as_str(),
                &after.vat_category.as_str(),
                &after.exemption_reason,
                &after.exemption_code,
                &id.get(),
            ],
        )
        .await?;
        let rate = read(&tx, id.get()).await?;
        tx.emit(EventType::TaxRateUpdated, id.get(), &rate)?;
        tx.commit().await?;
        Ok(rate)
    }

    /// `DELETE /tax-rates/{id}`: an unused rate other than the system one.
    pub async fn delete_tax_rate(&self, _ctx: Ctx, id: TaxRateId) -> Result<(), StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id.get()).await?;
        let current = read(&tx, id.get()).await?;
        tx.if_match(async { Ok(current.clone()) }).await?;
        if current.system {
            return Err(Conflict::SystemTaxRate.into());
        }
        if current.in_use {
            return Err(Conflict::TaxRateInUse.into());
        }
        tx.run(DELETE_SQL, &[&id.get()]).await?;
        tx.emit_deleted(EventType::TaxRateDeleted, id.get())?;
        tx.commit().await?;
        Ok(())
    }
}

/// Locks a rate's row; an unknown one is `NotFound(TaxRate)`.
async fn lock(db: &impl Db, id: i64) -> Result<(), StoreError> {
    db.row_opt(LOCK_SQL, &[&id])
        .await?
        .map(drop)
        .ok_or(StoreError::NotFound(Resource::TaxRate))
}

/// Reads one rate (in or out of a transaction).
async fn read(db: &impl Db, id: i64) -> Result<TaxRate, StoreError> {
    let row = db
        .row_opt(TAX_RATE_SQL, &[&id])
        .await?
        .ok_or(StoreError::NotFound(Resource::TaxRate))?;
    from_row(&row)
}

/// Decodes a row of [`TAX_RATE_SQL`] (or of the list).
fn from_row(row: &Row) -> Result<TaxRate, StoreError> {
    Ok(TaxRate {
        id: rows::id(row, "id", TaxRateId::new)?,
        name: rows::get(row, "name")?,
        rate: rows::percent(row, "rate")?,
        status: rows::choice(row, "status")?,
        vat_category: rows::choice(row, "vat_category")?,
        exemption_reason: rows::get(row, "exemption_reason")?,
        exemption_code: rows::get(row, "exemption_code")?,
        system: rows::get(row, "system")?,
        in_use: rows::get(row, "in_use")?,
        dates: rows::record_dates(row)?,
    })
}
