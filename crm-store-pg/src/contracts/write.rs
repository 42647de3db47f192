//! Creating, updating, deleting and tagging contracts. Each operation is one transaction
//! and returns the contract as re-read inside it.

use chrono::NaiveDate;
use crm_core::conflict::Resource;
use crm_core::contract::{Contract, ContractUpdate, NewContract, check_period};
use crm_core::ids::ContractId;
use crm_core::money::Money;
use crm_core::tags::TagSet;
use crm_core::webhook::EventType;
use rust_decimal::Decimal;

use super::{contract_from_row, read_contract};
use crate::db::Db;
use crate::error::StoreError;
use crate::store::{Ctx, Store};
use crate::tags::{self, TagOwner};
use crate::{refs, rows};

/// A new contract and its backing estimate, read back as [`super::read_contract`] reads it
/// (a new contract has no tags), in one statement: both rows are inserted only if every
/// reference holds (`$1`, `$2`: [`refs::invalid_refs_sql`]); no row returned means one does not.
/// `$3` title, `$4` client, `$5` category, `$6` start, `$7` end, `$8` value, `$9` project,
/// `$10` lead, `$11` template, `$12` body, `$13` creator.
const CREATE_CONTRACT_SQL: &str = concat!(
    "WITH bad AS (",
    refs::invalid_refs_sql!(),
    "), e AS (INSERT INTO estimates (is_document, category_id, client_id, project_id, date, status, creator_id) \
         SELECT TRUE, NULL, $4, $9, $6, 'draft', $13 WHERE NOT EXISTS (SELECT 1 FROM bad) RETURNING id), \
     c AS (INSERT INTO contracts (title, client_id, category_id, date_start, date_end, value, project_id, \
               lead_id, template_id, body, estimate_id, creator_id) \
           SELECT $3, $4, $5, $6, $7, $8, $9, $10, $11, \
                  COALESCE($12::text, (SELECT body FROM contract_templates WHERE id = $11)), e.id, $13 \
           FROM e RETURNING *) \
     SELECT ",
    super::contract_columns!(),
    ", c.body, ARRAY[]::text[] AS tags \
     FROM c"
);

/// Locks a contract; gives its backing estimate.
const LOCK_CONTRACT_SQL: &str = "SELECT estimate_id FROM contracts WHERE id = $1 FOR UPDATE";

/// Locks a contract and reads the values an update may keep.
const LOCK_FOR_UPDATE_SQL: &str =
    "SELECT date_end, value, body FROM contracts WHERE id = $1 FOR UPDATE";

const UPDATE_CONTRACT_SQL: &str = "UPDATE contracts SET title = $2, date_start = $3, category_id = $4, date_end = $5, \
     value = $6, body = $7, updated_at = now() WHERE id = $1";

const DELETE_CONTRACT_SQL: &str = "DELETE FROM contracts WHERE id = $1";

/// The backing estimate goes with its contract (its lines and taxes cascade).
const DELETE_ESTIMATE_SQL: &str = "DELETE FROM estimates WHERE id = $1 AND is_document";

/// The values of a locked contract that an update may keep.
struct Current {
    date_end: Option<NaiveDate>,
    value: Option<Money>,
    body: Option<String>,
}

/// Locks the contract row `FOR UPDATE` and gives its backing estimate's id; absent →
/// `NotFound(Contract)`.
async fn lock(db: &impl Db, id: i64) -> Result<i64, StoreError> {
    let row = db
        .row_opt(LOCK_CONTRACT_SQL, &[&id])
        .await?
        .ok_or(StoreError::NotFound(Resource::Contract))?;
    rows::get(&row, "estimate_id")
}

/// Locks the contract row `FOR UPDATE` and reads its keepable values.
async fn lock_for_update(db: &impl Db, id: i64) -> Result<Current, StoreError> {
    let row = db
        .row_opt(LOCK_FOR_UPDATE_SQL, &[&id])
        .await?
        .ok_or(StoreError::NotFound(Resource::Contract))?;
    Ok(Current {
        date_end: rows::get(&row, "date_end")?,
        value: rows::opt_money(&row, "value")?,
        body: rows::get(&row, "body")?,
    })
}

impl Store {
    /// Creates a contract and its backing estimate (a draft document estimate), in one
    /// transaction. The body is `doc_body`, else the template's body.
    pub async fn create_contract(
        &self,
        ctx: Ctx,
        cmd: &NewContract,
    ) -> Result<Contract, StoreError> {
        let references = cmd.references();
        let (kinds, ids) = refs::statement_params(references)?;
        let tx = self.begin().await?;
        let value: Option<Decimal> = cmd.value.map(Money::get);
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 13] = [
            &kinds,
            &ids,
            &cmd.title,
            &cmd.client.get(),
            &cmd.category.get(),
            &cmd.date_start,
            &cmd.date_end,
            &value,
            &cmd.project.map(|p| p.get()),
            &cmd.lead.map(|l| l.get()),
            &cmd.template.map(|t| t.get()),
            &cmd.body,
            &ctx.actor.get(),
        ];
        match tx.row_opt(CREATE_CONTRACT_SQL, &params).await? {
            Some(row) => {
                let contract = contract_from_row(&row, ctx.today)?;
                tx.emit(EventType::ContractCreated, contract.id.get(), &contract)?;
                tx.commit().await?;
                Ok(contract)
            }
            None => Err(refs::refused(&tx, references).await),
        }
    }

    /// Updates a contract: absent optional fields are kept, empty ones cleared; a kept end
    /// date is re-checked against the new start. Reference and period errors are reported
    /// together.
    pub async fn update_contract(
        &self,
        ctx: Ctx,
        id: ContractId,
        cmd: &ContractUpdate,
    ) -> Result<Contract, StoreError> {
        let tx = self.begin().await?;
        let current = lock_for_update(&tx, id.get()).await?;
        tx.if_match(read_contract(&tx, ctx.today, id.get())).await?;
        let mut errors = refs::invalid(&tx, cmd.references()).await?;
        let date_end = cmd.date_end.apply_ref(current.date_end);
        if let Err(period) = check_period(cmd.date_start, date_end) {
            errors.merge(period);
        }
        errors.into_result()?;
        let value: Option<Decimal> = cmd.value.apply_ref(current.value).map(Money::get);
        let body = cmd.body.apply_ref(current.body);
        tx.run(
            UPDATE_CONTRACT_SQL,
            &[
                &id.get(),
                &cmd.title,
                &cmd.date_start,
                &cmd.category.get(),
                &date_end,
                &value,
                &body,
            ],
        )
        .await?;
        let contract = read_contract(&tx, ctx.today, id.get()).await?;
        tx.emit(EventType::ContractUpdated, id.get(), &contract)?;
        tx.commit().await?;
        Ok(contract)
    }

    /// Deletes a contract, its tags and its backing estimate (with the estimate's lines and
    /// taxes), in one transaction.
    pub async fn delete_contract(&self, ctx: Ctx, id: ContractId) -> Result<(), StoreError> {
        let tx = self.begin().await?;
        let estimate_id = lock(&tx, id.get()).await?;
        tx.if_match(read_contract(&tx, ctx.today, id.get())).await?;
        tx.run(DELETE_CONTRACT_SQL, &[&id.get()]).await?;
        tx.run(DELETE_ESTIMATE_SQL, &[&estimate_id]).await?;
        tx.emit_deleted(EventType::ContractDeleted, id.get())?;
        tx.commit().await?;
        Ok(())
    }

    /// Replaces a contract's tags with `tags`, in order.
    pub async fn set_contract_tags(
        &self,
        ctx: Ctx,
        id: ContractId,
        tags: &TagSet,
    ) -> Result<Contract, StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id.get()).await?;
        tx.if_match(read_contract(&tx, ctx.today, id.get())).await?;
        tags::replace(&tx, TagOwner::Contract(id.get()), tags, ctx.actor).await?;
        let contract = read_contract(&tx, ctx.today, id.get()).await?;
        tx.emit(EventType::ContractUpdated, id.get(), &contract)?;
        tx.commit().await?;
        Ok(contract)
    }
}
