//! Creating, updating (PATCH), deleting estimates, and setting their status and tags.

use crm_core::conflict::Resource;
use crm_core::estimate::{
    Estimate, EstimateUpdate, NewEstimate, StatusChange, TotalsHeader, check_expiry, totals_input,
};
use crm_core::ids::{EstimateId, ProjectId};
use crm_core::input::Patch;
use crm_core::money::Money;
use crm_core::tags::TagSet;
use crm_core::totals::{HeaderDiscount, compute};

use super::{LockMode, lock, read, recompute};
use crate::conditions::if_match;
use crate::db::Db;
use crate::tags::{self, TagOwner};
use crate::{Ctx, Store, StoreError, refs, rows};

const INSERT_SQL: &str = "INSERT INTO estimates (client_id, category_id, date, expiry_date, project_id, tax_type, \
     notes, terms, status, creator_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'draft', $9) RETURNING id";

/// PATCH: `CASE WHEN <keep> THEN <column> ELSE <new value> END` for the optional fields.
/// The discount kind is set with the tax type (the table allows a header discount in
/// summary mode only); the discount's figures follow with the recomputed totals.
const UPDATE_SQL: &str = "UPDATE estimates SET category_id = $2, date = $3, expiry_date = $4, \
     project_id = CASE WHEN $5 THEN project_id ELSE $6 END, notes = CASE WHEN $7 THEN notes ELSE $8 END, \
     terms = CASE WHEN $9 THEN terms ELSE $10 END, \
     adjustment_description = CASE WHEN $11 THEN adjustment_description ELSE $12 END, \
     tax_type = $13, discount_type = $14, updated_at = now() WHERE id = $1";

/// A changed tax mode drops every tax record (summary and per line)…
const CLEAR_TAXES_SQL: &str = "DELETE FROM estimate_taxes WHERE estimate_id = $1";
/// …and every line's mode-specific fields (its tax rate and its discount).
const CLEAR_LINE_FIELDS_SQL: &str = "UPDATE estimate_lines SET tax_rate_id = NULL, discount_type = 'none', \
     discount_value = 0, discount_amount = 0 WHERE estimate_id = $1";

const DELETE_PENDING_EMAILS_SQL: &str =
    "DELETE FROM email_queue WHERE estimate_id = $1 AND status = 'pending'";
const DELETE_SQL: &str = "DELETE FROM estimates WHERE id = $1";

const SET_STATUS_SQL: &str =
    "UPDATE estimates SET status = $2, updated_at = now() WHERE id = $1 AND NOT is_document";

/// A PATCH field as SQL parameters: (keep the stored value?, the new value).
fn patch_params<T: Clone>(patch: &Patch<T>) -> (bool, Option<T>) {
    match patch {
        Patch::Keep => (true, None),
        Patch::Clear => (false, None),
        Patch::Set(v) => (false, Some(v.clone())),
    }
}

impl Store {
    /// `POST /estimates`: a `draft` with no lines, created by `ctx.actor`, its totals
    /// computed by crm-core for zero lines. Client, category (of type estimate) and project
    /// are checked in the transaction.
    pub async fn create_estimate(
        &self,
        ctx: Ctx,
        cmd: &NewEstimate,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        refs::require(&tx, cmd.references()).await?;
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 9] = [
            &cmd.client.get(),
            &cmd.category.get(),
            &cmd.date,
            &cmd.expiry,
            &cmd.project.map(ProjectId::get),
            &cmd.tax_type.as_str(),
            &cmd.notes,
            &cmd.terms,
            &ctx.actor.get(),
        ];
        let id = rows::id(&tx.row(INSERT_SQL, &params).await?, "id", EstimateId::new)?;
        let header = TotalsHeader {
            tax_type: cmd.tax_type,
            discount: HeaderDiscount::None,
            adjustment: Money::ZERO,
        };
        let computed = compute(&totals_input(&header, &[], &[]), self.policy())
            .map_err(|e| StoreError::Internal(format!("totals of an empty estimate: {e}")))?;
        recompute::write_totals(&tx, id, &computed.totals).await?;
        let estimate = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(estimate)
    }

    /// `PATCH /estimates/{id}`: sets the header and recomputes the totals from the stored
    /// lines; the status is kept. Every failing field is reported together (references,
    /// the expiry date against the date, also when the stored expiry is kept, and the
    /// discount rules of [`EstimateUpdate::resolve`]).
    ///
    /// A changed tax mode (either direction) deletes the estimate's tax records and gives
    /// every line no tax rate and no discount, so that nothing of the other mode survives
    /// unseen; the totals are then recomputed from what remains.
    pub async fn update_estimate(
        &self,
        ctx: Ctx,
        id: EstimateId,
        cmd: &EstimateUpdate,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        let locked = lock(&tx, id, LockMode::Update).await?;
        if_match(read::load(&tx, id, ctx.today)).await?;
        let mut errors = refs::invalid(&tx, cmd.references()).await?;
        let expiry = cmd.expiry.apply_ref(locked.expiry);
        if let Err(e) = check_expiry(cmd.date, expiry) {
            errors.merge(e);
        }
        let resolved = cmd.resolve(&locked.totals);
        if let Err(e) = &resolved {
            errors.merge(e.clone());
        }
        errors.into_result()?;
        let resolved = resolved?;
        let (keep_project, project) = patch_params(&cmd.project);
        let (keep_notes, notes) = patch_params(&cmd.notes);
        let (keep_terms, terms) = patch_params(&cmd.terms);
        let (keep_label, label) = patch_params(&cmd.adjustment_description);
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 14] = [
            &id.get(),
            &cmd.category.get(),
            &cmd.date,
            &expiry,
            &keep_project,
            &project.map(ProjectId::get),
            &keep_notes,
            &notes,
            &keep_terms,
            &terms,
            &keep_label,
            &label,
            &resolved.header.tax_type.as_str(),
            &resolved.header.discount.kind().as_str(),
        ];
        tx.run(UPDATE_SQL, &params).await?;
        if resolved.mode_changed {
            tx.run(CLEAR_TAXES_SQL, &[&id.get()]).await?;
            tx.run(CLEAR_LINE_FIELDS_SQL, &[&id.get()]).await?;
        }
        recompute::recompute(&tx, id, &resolved.header, self.policy()).await?;
        let estimate = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(estimate)
    }

    /// `DELETE /estimates/{id}`: the estimate with its lines, taxes and tags (cascades) and
    /// its pending queued emails; sent emails stay as history, and an invoice converted
    /// from it stays (its `estimate_id` becomes NULL).
    pub async fn delete_estimate(&self, ctx: Ctx, id: EstimateId) -> Result<(), StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id, LockMode::Update).await?;
        if_match(read::load(&tx, id, ctx.today)).await?;
        tx.run(DELETE_PENDING_EMAILS_SQL, &[&id.get()]).await?;
        tx.run(DELETE_SQL, &[&id.get()]).await?;
        tx.commit().await?;
        Ok(())
    }

    /// `PUT /estimates/{id}/status`: stores any of the five statuses, from any status.
    pub async fn set_estimate_status(
        &self,
        ctx: Ctx,
        id: EstimateId,
        cmd: &StatusChange,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        // With `If-Match`: lock the row and compare under the lock before writing.
        if_match(async {
            lock(&tx, id, LockMode::Update).await?;
            read::load(&tx, id, ctx.today).await
        })
        .await?;
        if tx
            .run(SET_STATUS_SQL, &[&id.get(), &cmd.status.as_str()])
            .await?
            == 0
        {
            return Err(StoreError::NotFound(Resource::Estimate));
        }
        let estimate = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(estimate)
    }

    /// `PUT /estimates/{id}/tags`: replaces the tags with `tags`, in order.
    pub async fn set_estimate_tags(
        &self,
        ctx: Ctx,
        id: EstimateId,
        tags: &TagSet,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id, LockMode::Update).await?;
        if_match(read::load(&tx, id, ctx.today)).await?;
        tags::replace(&tx, TagOwner::Estimate(id.get()), tags, ctx.actor).await?;
        let estimate = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(estimate)
    }
}
