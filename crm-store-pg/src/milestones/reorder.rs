//! Reordering a project's milestones: the listed ones get positions 1..N, the others
//! follow in their previous order (`MilestoneReorder::positions`).
//!
//! One transaction that locks the PROJECT row, so that it never interleaves with a create
//! (which takes the highest position) or another reorder of the project; every position is
//! then rewritten by one statement.

use crm_core::ids::{MilestoneId, ProjectId};
use crm_core::milestone::{Milestone, MilestoneReorder};
use crm_core::webhook::EventType;

use super::{lock_project, milestone_from};
use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::store::Store;

/// The project of each of `ids` that exists.
async fn projects_of(
    db: &impl Db,
    ids: &[i64],
) -> Result<Vec<(MilestoneId, ProjectId)>, StoreError> {
    const SQL: &str = "SELECT id, project_id FROM milestones WHERE id = ANY ($1)";
    db.rows(SQL, &[&ids])
        .await?
        .iter()
        .map(|row| {
            Ok((
                rows::id(row, "id", MilestoneId::new)?,
                rows::id(row, "project_id", ProjectId::new)?,
            ))
        })
        .collect()
}

/// The project's milestones in board order.
async fn current_order(db: &impl Db, project: ProjectId) -> Result<Vec<MilestoneId>, StoreError> {
    const SQL: &str = "SELECT id FROM milestones WHERE project_id = $1 ORDER BY position, id";
    db.rows(SQL, &[&project.get()])
        .await?
        .iter()
        .map(|row| rows::id(row, "id", MilestoneId::new))
        .collect()
}

impl Store {
    /// Puts `cmd.ids` (existing milestones of one project, else 422 naming each offending
    /// `milestones.N`) first, in that order; returns the project's milestones in the new order.
    pub async fn reorder_milestones(
        &self,
        cmd: &MilestoneReorder,
    ) -> Result<Vec<Milestone>, StoreError> {
        const UPDATE_SQL: &str = "UPDATE milestones m SET position = n.position, updated_at = now() \
             FROM unnest($2::bigint[], $3::int[]) AS n(id, position) \
             WHERE m.id = n.id AND m.project_id = $1 AND m.position <> n.position RETURNING m.id";
        const LIST_SQL: &str = concat!(
            "SELECT m.*, ",
            milestone_counts!("m"),
            " FROM milestones m WHERE m.project_id = $1 ORDER BY m.position, m.id"
        );
        let requested: Vec<i64> = cmd.ids.iter().map(|id| id.get()).collect();
        let tx = self.begin().await?;
        let project = cmd.check_projects(&projects_of(&tx, &requested).await?)?;
        // A project or listed milestone deleted while we waited for the lock leaves fewer
        // (or no) milestones, and the ones missing are reported as invalid.
        lock_project(&tx, project).await?;
        // The representation `If-Match` names: the project's milestones, as this answers.
        tx.if_match(async {
            tx.rows(LIST_SQL, &[&project.get()])
                .await?
                .iter()
                .map(milestone_from)
                .collect::<Result<Vec<_>, _>>()
        })
        .await?;
        let current = current_order(&tx, project).await?;
        let still_there: Vec<(MilestoneId, ProjectId)> =
            current.iter().map(|id| (*id, project)).collect();
        cmd.check_projects(&still_there)?;
        let (ids, positions): (Vec<i64>, Vec<i32>) = cmd
            .positions(&current)
            .into_iter()
            .map(|(id, position)| (id.get(), position))
            .unzip();
        let moved = tx
            .rows(UPDATE_SQL, &[&project.get(), &ids, &positions])
            .await?
            .iter()
            .map(|row| crate::rows::get::<i64>(row, "id"))
            .collect::<Result<Vec<_>, _>>()?;
        let milestones: Vec<Milestone> = tx
            .rows(LIST_SQL, &[&project.get()])
            .await?
            .iter()
            .map(milestone_from)
            .collect::<Result<_, _>>()?;
        // Each milestone whose position changed is reported, in the new order.
        for milestone in milestones.iter().filter(|m| moved.contains(&m.id.get())) {
            tx.emit(EventType::MilestoneUpdated, milestone.id.get(), milestone)?;
        }
        tx.commit().await?;
        Ok(milestones)
    }
}
