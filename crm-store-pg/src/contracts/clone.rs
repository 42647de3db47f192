//! Cloning a contract: a new contract with the request's header (title, client, category,
//! dates, project, value) and the source's body, lead, template and value (unless given),
//! backed by a new document estimate that copies the source's pricing table (line items,
//! taxes, totals). Tags, publication and signatures are not copied: the clone is a draft.

use crm_core::conflict::Resource;
use crm_core::contract::{Contract, ContractClone};
use crm_core::ids::ContractId;
use crm_core::money::Money;
use crm_core::webhook::EventType;
use rust_decimal::Decimal;

use super::read_contract;
use crate::db::Db;
use crate::error::StoreError;
use crate::store::{Ctx, Store};
use crate::{refs, rows};

/// Locks the source `FOR SHARE` (no delete or edit while it is copied); gives its
/// backing estimate.
const LOCK_SOURCE_SQL: &str = "SELECT estimate_id FROM contracts WHERE id = $1 FOR SHARE";

/// The clone's backing estimate: a draft document estimate of the new client, project and
/// start date, with the source estimate's pricing header (tax mode, discount, adjustment,
/// totals, notes, terms).
const COPY_ESTIMATE_SQL: &str = "INSERT INTO estimates (is_document, category_id, client_id, project_id, date, status, creator_id, \
         tax_type, discount_type, discount_percentage, discount_amount, subtotal, subtotal_before_discount, \
         amount_before_tax, tax_total_percentage, tax_total_amount, adjustment_description, adjustment_amount, \
         final_amount, notes, terms, currency) \
     SELECT TRUE, NULL, $2, $3, $4, 'draft', $5, \
         s.tax_type, s.discount_type, s.discount_percentage, s.discount_amount, s.subtotal, s.subtotal_before_discount, \
         s.amount_before_tax, s.tax_total_percentage, s.tax_total_amount, s.adjustment_description, s.adjustment_amount, \
         s.final_amount, s.notes, s.terms, s.currency \
     FROM estimates s WHERE s.id = $1 RETURNING id";

/// Copies the lines of estimate $1 to estimate $2 (same positions and values), then its
/// taxes, pointing each line tax at the new line of the same position.
const COPY_LINES_SQL: &str = "WITH new_lines AS ( \
         INSERT INTO estimate_lines (estimate_id, position, description, long_description, unit, quantity, rate, total, \
             type, tax_status, discount_type, discount_value, discount_amount, tax_rate_id) \
         SELECT $2, position, description, long_description, unit, quantity, rate, total, \
             type, tax_status, discount_type, discount_value, discount_amount, tax_rate_id \
         FROM estimate_lines WHERE estimate_id = $1 ORDER BY position \
         RETURNING id, position) \
     INSERT INTO estimate_taxes (estimate_id, line_id, tax_rate_id, name, rate) \
     SELECT $2, n.id, t.tax_rate_id, t.name, t.rate \
     FROM estimate_taxes t \
     LEFT JOIN estimate_lines l ON l.id = t.line_id \
     LEFT JOIN new_lines n ON n.position = l.position \
     WHERE t.estimate_id = $1 ORDER BY t.id";

/// The clone itself; body, lead, template and (unless given) value come from the source.
const INSERT_CLONE_SQL: &str = "INSERT INTO contracts (title, client_id, category_id, date_start, date_end, project_id, value, \
         body, lead_id, template_id, estimate_id, creator_id) \
     SELECT $2, $3, $4, $5, $6, $7, COALESCE($8::numeric, s.value), s.body, s.lead_id, s.template_id, $9, $10 \
     FROM contracts s WHERE s.id = $1 RETURNING id";

impl Store {
    /// Clones a contract (see the module documentation), in one transaction; returns the
    /// new contract.
    pub async fn clone_contract(
        &self,
        ctx: Ctx,
        id: ContractId,
        cmd: &ContractClone,
    ) -> Result<Contract, StoreError> {
        let tx = self.begin().await?;
        let source = tx
            .row_opt(LOCK_SOURCE_SQL, &[&id.get()])
            .await?
            .ok_or(StoreError::NotFound(Resource::Contract))?;
        let source_estimate: i64 = rows::get(&source, "estimate_id")?;
        refs::require(&tx, cmd.references()).await?;
        let project = cmd.project.map(|p| p.get());
        let estimate_row = tx
            .row(
                COPY_ESTIMATE_SQL,
                &[
                    &source_estimate,
                    &cmd.client.get(),
                    &project,
                    &cmd.date_start,
                    &ctx.actor.get(),
                ],
            )
            .await?;
        let estimate_id: i64 = rows::get(&estimate_row, "id")?;
        tx.run(COPY_LINES_SQL, &[&source_estimate, &estimate_id])
            .await?;
        let value: Option<Decimal> = cmd.value.map(Money::get);
        let row = tx
            .row(
                INSERT_CLONE_SQL,
                &[
                    &id.get(),
                    &cmd.title,
                    &cmd.client.get(),
                    &cmd.category.get(),
                    &cmd.date_start,
                    &cmd.date_end,
                    &project,
                    &value,
                    &estimate_id,
                    &ctx.actor.get(),
                ],
            )
            .await?;
        let contract = read_contract(&tx, ctx.today, rows::get(&row, "id")?).await?;
        tx.emit(EventType::ContractCreated, contract.id.get(), &contract)?;
        tx.commit().await?;
        Ok(contract)
    }
}
