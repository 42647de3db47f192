//! Deleting a milestone: its tasks move to the project's `uncategorised` milestone, or are
//! deleted with their attachments, comments, timers and notes (foreign keys cascade).
//!
//! One transaction that locks the PROJECT row (like creates and reorders of the project),
//! then the milestone row: a task being added to the milestone takes a key-share lock on
//! it, so the tasks moved or deleted are all there are when the milestone goes.

use crm_core::conflict::Resource;
use crm_core::ids::{MilestoneId, ProjectId};
use crm_core::milestone::{self, MilestoneDeletion, MilestoneType};
use crm_core::webhook::EventType;

use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::store::Store;

/// The milestone's project, or not found.
async fn project_of(db: &impl Db, id: MilestoneId) -> Result<ProjectId, StoreError> {
    const SQL: &str = "SELECT project_id FROM milestones WHERE id = $1";
    match db.row_opt(SQL, &[&id.get()]).await? {
        Some(row) => rows::id(&row, "project_id", ProjectId::new),
        None => Err(StoreError::NotFound(Resource::Milestone)),
    }
}

/// Locks the project row; returns its `uncategorised` milestone, if it has one.
async fn lock_project(db: &impl Db, project: ProjectId) -> Result<Option<i64>, StoreError> {
    const SQL: &str = "SELECT (SELECT id FROM milestones m WHERE m.project_id = p.id AND m.type = 'uncategorised') \
                       AS default_id FROM projects p WHERE p.id = $1 FOR UPDATE OF p";
    match db.row_opt(SQL, &[&project.get()]).await? {
        Some(row) => rows::get(&row, "default_id"),
        // The project went, and its milestones with it.
        None => Err(StoreError::NotFound(Resource::Milestone)),
    }
}

/// Locks the milestone row; returns its type (not found if it went meanwhile).
async fn lock_milestone(db: &impl Db, id: MilestoneId) -> Result<MilestoneType, StoreError> {
    const SQL: &str = "SELECT type FROM milestones WHERE id = $1 FOR UPDATE";
    match db.row_opt(SQL, &[&id.get()]).await? {
        Some(row) => rows::choice(&row, "type"),
        None => Err(StoreError::NotFound(Resource::Milestone)),
    }
}

impl Store {
    /// Deletes a `categorised` milestone (the `uncategorised` one is a 409), moving its
    /// tasks to the project's `uncategorised` milestone or, with `delete_tasks`, deleting
    /// them; all in one transaction.
    pub async fn delete_milestone(
        &self,
        id: MilestoneId,
        opts: MilestoneDeletion,
    ) -> Result<(), StoreError> {
        const DELETE_TASKS_SQL: &str = "DELETE FROM tasks WHERE milestone_id = $1";
        const MOVE_TASKS_SQL: &str =
            "UPDATE tasks SET milestone_id = $2, updated_at = now() WHERE milestone_id = $1";
        const DELETE_SQL: &str = "DELETE FROM milestones WHERE id = $1";
        let tx = self.begin().await?;
        let project = project_of(&tx, id).await?;
        let default = lock_project(&tx, project).await?;
        let kind = lock_milestone(&tx, id).await?;
        tx.if_match(super::read(&tx, id)).await?;
        milestone::check_deletion(kind)?;
        if opts.delete_tasks {
            tx.run(DELETE_TASKS_SQL, &[&id.get()]).await?;
        } else {
            let default = default.ok_or_else(|| {
                StoreError::Internal(format!("project {project} has no uncategorised milestone"))
            })?;
            tx.run(MOVE_TASKS_SQL, &[&id.get(), &default]).await?;
        }
        tx.run(DELETE_SQL, &[&id.get()]).await?;
        tx.emit_deleted(EventType::MilestoneDeleted, id.get())?;
        tx.commit().await?;
        Ok(())
    }
}
