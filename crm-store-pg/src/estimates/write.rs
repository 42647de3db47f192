//! Setting an estimate's status; the other writes of one estimate are the shared bill
//! writes ([`crate::bills::kind`]).

use crm_core::conflict::Resource;
use crm_core::estimate::{Estimate, StatusChange, StoredStatus};
use crm_core::ids::EstimateId;
use crm_core::webhook::EventType;

use super::read;
use crate::db::Db;
use crate::{Ctx, Store, StoreError};

const SET_STATUS_SQL: &str =
    "UPDATE estimates SET status = $2, updated_at = now() WHERE id = $1 AND NOT is_document";

impl Store {
    /// `PUT /estimates/{id}/status`: stores any of the five statuses, from any status.
    pub async fn set_estimate_status(
        &self,
        ctx: Ctx,
        id: EstimateId,
        cmd: &StatusChange,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin_on_bill(ctx, id).await?;
        if tx
            .run(SET_STATUS_SQL, &[&id.get(), &cmd.status.as_str()])
            .await?
            == 0
        {
            return Err(StoreError::NotFound(Resource::Estimate));
        }
        let estimate = read::load(&tx, id, self.view(ctx)).await?;
        let kind = match cmd.status {
            StoredStatus::Accepted => EventType::EstimateAccepted,
            StoredStatus::Declined => EventType::EstimateDeclined,
            _ => EventType::EstimateUpdated,
        };
        tx.emit(kind, id.get(), &estimate)?;
        tx.commit().await?;
        Ok(estimate)
    }
}
