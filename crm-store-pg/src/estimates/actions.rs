//! Publishing, emailing and cloning estimates. Publishing and emailing give the estimate
//! its client link when it has none (API.md §12), so the email carries it.

use crm_core::estimate::{Estimate, EstimateClone, status};
use crm_core::ids::EstimateId;
use crm_core::webhook::EventType;

use super::{SQL, lock, read};
use crate::bills::header::EmailAction;
use crate::bills::link::Queued;
use crate::bills::{LockMode, header};
use crate::conditions::if_match;
use crate::db::Db;
use crate::{Ctx, Store, StoreError};

const PUBLISH_SQL: &str =
    "UPDATE estimates SET status = $2, published_at = now(), updated_at = now() WHERE id = $1";

impl Store {
    /// `PUT /estimates/{id}/publish`: a stored `draft` becomes `new` (409 otherwise), is
    /// stamped `published_at`, and its email is queued in the same transaction.
    pub async fn publish_estimate(&self, ctx: Ctx, id: EstimateId) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        let (stored, _) = lock(&tx, id, LockMode::Update).await?;
        if_match(read::load(&tx, id, self.view(ctx))).await?;
        let published = status::publish(stored)?;
        tx.run(PUBLISH_SQL, &[&id.get(), &published.as_str()])
            .await?;
        let (estimate, _) = self
            .link_and_email(&tx, ctx, id, EmailAction::Publish)
            .await?;
        tx.emit(EventType::EstimatePublished, id.get(), &estimate)?;
        tx.commit().await?;
        Ok(estimate)
    }

    /// `POST /estimates/{id}/send-email`: queues the estimate's email (409 for a draft),
    /// or joins the same message still waiting on an earlier send-email's row (see
    /// `link_and_email`); the estimate is unchanged but for a client link if it had no
    /// working one.
    pub async fn send_estimate_email(
        &self,
        ctx: Ctx,
        id: EstimateId,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        // FOR UPDATE, not FOR SHARE: the link may be written, and two sharers that both
        // write would deadlock.
        let (stored, _) = lock(&tx, id, LockMode::Update).await?;
        status::check_send_email(stored)?;
        let (estimate, queued) = self
            .link_and_email(&tx, ctx, id, EmailAction::SendEmail)
            .await?;
        // Joining an email still waiting queues nothing: no change, so no event.
        if queued != Queued::Joined {
            tx.emit(EventType::EstimateEmailed, id.get(), &estimate)?;
        }
        tx.commit().await?;
        Ok(estimate)
    }

    /// `POST /estimates/{id}/clone`: a new `draft` estimate with client, category, dates
    /// and project from the request, and the source's tax type, discount, adjustment,
    /// notes, terms, totals, line items and tax records copied (not its tags, status or
    /// conversion). The source is locked `FOR SHARE` so that it cannot change half-way
    /// through the copy.
    pub async fn clone_estimate(
        &self,
        ctx: Ctx,
        id: EstimateId,
        cmd: &EstimateClone,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        let copy = header::clone(&tx, &SQL, id.get(), cmd, ctx.actor).await?;
        let copy = EstimateId::new(copy)
            .ok_or_else(|| StoreError::Internal(format!("new estimate id {copy}")))?;
        let estimate = read::load(&tx, copy, self.view(ctx)).await?;
        tx.emit(EventType::EstimateCreated, copy.get(), &estimate)?;
        tx.commit().await?;
        Ok(estimate)
    }
}
