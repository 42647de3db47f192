//! Creating, updating (PATCH), deleting estimates, replacing their items, and setting their
//! status and tags: the estimate's side of the shared bill writes ([`crate::bills`]).

use crm_core::bill::ItemsRequest;
use crm_core::conflict::Resource;
use crm_core::estimate::{Estimate, EstimateUpdate, NewEstimate, StatusChange};
use crm_core::ids::EstimateId;
use crm_core::tags::TagSet;

use super::{SQL, lock, read};
use crate::bills::{LockMode, header, items};
use crate::conditions::{Tx, if_match};
use crate::db::Db;
use crate::{Ctx, Store, StoreError};

const SET_STATUS_SQL: &str =
    "UPDATE estimates SET status = $2, updated_at = now() WHERE id = $1 AND NOT is_document";

impl Store {
    /// Begins a write of estimate `id`: the transaction ([`Store::begin`]), the row locked
    /// `FOR UPDATE`, and the request's `If-Match` compared with the estimate as read under
    /// the lock ([`if_match`]: a mismatch is a 412 and nothing is written).
    async fn begin_on_estimate(&self, ctx: Ctx, id: EstimateId) -> Result<Tx, StoreError> {
        let tx = self.begin().await?;
        if_match(async {
            lock(&tx, id, LockMode::Update).await?;
            read::load(&tx, id, ctx.today).await
        })
        .await?;
        Ok(tx)
    }
    /// `POST /estimates`: a `draft` with no lines, created by `ctx.actor`, its totals
    /// computed by crm-core for zero lines; one statement (`header::create`). Client,
    /// category (of type estimate) and project are checked in it.
    pub async fn create_estimate(
        &self,
        ctx: Ctx,
        cmd: &NewEstimate,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin_single().await?;
        let row = header::create(&tx, &SQL, cmd, ctx.actor, self.policy()).await?;
        let estimate = read::decode(&row, ctx.today)?;
        tx.commit().await?;
        Ok(estimate)
    }

    /// `PATCH /estimates/{id}`: sets the header and recomputes the totals from the stored
    /// lines; the status is kept (`header::update`: every failing field at once; a changed
    /// tax mode clears the taxes and the lines' mode-specific fields).
    pub async fn update_estimate(
        &self,
        ctx: Ctx,
        id: EstimateId,
        cmd: &EstimateUpdate,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin_on_estimate(ctx, id).await?;
        header::update(&tx, &SQL, id.get(), cmd, self.policy()).await?;
        let estimate = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(estimate)
    }

    /// `PUT /estimates/{id}/items`: the complete bill (`items::replace_items`).
    pub async fn replace_estimate_items(
        &self,
        ctx: Ctx,
        id: EstimateId,
        req: ItemsRequest,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin_on_estimate(ctx, id).await?;
        items::replace_items(&tx, &SQL, id.get(), req, self.policy()).await?;
        let estimate = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(estimate)
    }

    /// `DELETE /estimates/{id}`: the estimate with its lines, taxes and tags (cascades) and
    /// its pending queued emails; sent emails stay as history, and an invoice converted
    /// from it stays (its `estimate_id` becomes NULL).
    pub async fn delete_estimate(&self, ctx: Ctx, id: EstimateId) -> Result<(), StoreError> {
        let tx = self.begin_on_estimate(ctx, id).await?;
        header::delete(&tx, &SQL, id.get()).await?;
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
        let tx = self.begin_on_estimate(ctx, id).await?;
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
        let tx = self.begin_on_estimate(ctx, id).await?;
        header::set_tags(&tx, &SQL, id.get(), tags, ctx.actor).await?;
        let estimate = read::load(&tx, id, ctx.today).await?;
        tx.commit().await?;
        Ok(estimate)
    }
}
