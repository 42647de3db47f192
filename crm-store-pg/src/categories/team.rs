//! A category's team, its records' migration to another category, and the category-based
//! project permissions both re-sync.
//!
//! Every project of a category has the category's team as assigned users of source
//! `category` (`project_assignments`); rows of source `manual` are never touched.
//!
//! What each transaction locks:
//! - team: the category row (`FOR UPDATE`), so that two team changes, or a team change and
//!   a migration into the category, apply one after the other;
//! - migration: the source and target rows, in id order (so that two migrations between
//!   the same categories in opposite directions cannot deadlock). Adding a record to the
//!   source takes a key-share lock on it, so the records moved are all there are.

use crm_core::category::{
    Category, CategoryMigration, CategoryTeam, CategoryType, migration_target_error,
};
use crm_core::conflict::Resource;
use crm_core::ids::CategoryId;
use crm_core::webhook::EventType;

use super::{lock, read};
use crate::db::Db;
use crate::error::StoreError;
use crate::store::Store;
use crate::{refs, rows};

/// Makes the `category` assignments of the category's projects (all of them, or only
/// `projects` when given) exactly its team: missing ones are added, others removed.
const SYNC_SQL: &str = "
WITH p AS (
    SELECT id FROM projects WHERE category_id = $1 AND ($2::bigint[] IS NULL OR id = ANY ($2))
), team AS (
    SELECT user_id FROM category_users WHERE category_id = $1
), removed AS (
    DELETE FROM project_assignments a USING p
    WHERE a.project_id = p.id AND a.source = 'category'
      AND NOT EXISTS (SELECT 1 FROM team WHERE team.user_id = a.user_id)
)
INSERT INTO project_assignments (project_id, user_id, source)
SELECT p.id, team.user_id, 'category' FROM p CROSS JOIN team
ON CONFLICT DO NOTHING";

/// Re-syncs the project permissions of `category` (see [`SYNC_SQL`]).
pub(crate) async fn sync_projects(
    db: &impl Db,
    category: CategoryId,
    projects: Option<&[i64]>,
) -> Result<(), StoreError> {
    let projects: Option<Vec<i64>> = projects.map(<[i64]>::to_vec);
    db.run(SYNC_SQL, &[&category.get(), &projects]).await?;
    Ok(())
}

/// Moves every record of every table that references categories from `$1` to `$2`;
/// returns the moved projects. Document estimates have no category and stay as they are.
pub(super) const MOVE_SQL: &str = "
WITH moved_clients AS (
    UPDATE clients SET category_id = $2, updated_at = now() WHERE category_id = $1
), moved_leads AS (
    UPDATE leads SET category_id = $2, updated_at = now() WHERE category_id = $1
), moved_contracts AS (
    UPDATE contracts SET category_id = $2, updated_at = now() WHERE category_id = $1
), moved_estimates AS (
    UPDATE estimates SET category_id = $2, updated_at = now() WHERE category_id = $1
), moved_invoices AS (
    UPDATE invoices SET category_id = $2, updated_at = now() WHERE category_id = $1
), moved_tickets AS (
    UPDATE tickets SET category_id = $2 WHERE category_id = $1
), moved_items AS (
    UPDATE items SET category_id = $2 WHERE category_id = $1
), moved_expenses AS (
    UPDATE expenses SET category_id = $2 WHERE category_id = $1
)
UPDATE projects SET category_id = $2, updated_at = now() WHERE category_id = $1 RETURNING id";

impl Store {
    /// Replaces the category's team with `cmd.users` (each must be a team user) and
    /// re-syncs the project permissions of its projects, in one transaction.
    pub async fn set_category_team(
        &self,
        id: CategoryId,
        cmd: &CategoryTeam,
    ) -> Result<Category, StoreError> {
        // Keeps the rows of members that stay (and their `created_at`).
        const REPLACE_SQL: &str = "
WITH gone AS (
    DELETE FROM category_users WHERE category_id = $1 AND user_id <> ALL ($2::bigint[])
)
INSERT INTO category_users (category_id, user_id)
SELECT $1, u FROM unnest($2::bigint[]) AS u
ON CONFLICT DO NOTHING";
        let tx = self.begin().await?;
        lock(&tx, id).await?;
        tx.if_match(read(&tx, id)).await?;
        refs::require(&tx, cmd.references()).await?;
        let users: Vec<i64> = cmd.users.iter().map(|u| u.get()).collect();
        tx.run(REPLACE_SQL, &[&id.get(), &users]).await?;
        sync_projects(&tx, id, None).await?;
        let category = read(&tx, id).await?;
        tx.emit(EventType::CategoryUpdated, id.get(), &category)?;
        tx.commit().await?;
        Ok(category)
    }

    /// Moves every record of the category to `cmd.target` (an existing category of the
    /// same type, else 422 on `target_id`), re-syncs the moved projects' permissions to the
    /// target's team, and returns the emptied source.
    pub async fn migrate_category(
        &self,
        id: CategoryId,
        cmd: &CategoryMigration,
    ) -> Result<Category, StoreError> {
        const LOCK_SQL: &str =
            "SELECT id, type FROM categories WHERE id = ANY ($1) ORDER BY id FOR UPDATE";
        let tx = self.begin().await?;
        let locked = tx
            .rows(LOCK_SQL, &[&vec![id.get(), cmd.target.get()]])
            .await?;
        let type_of = |wanted: CategoryId| -> Result<Option<CategoryType>, StoreError> {
            for row in &locked {
                if rows::id(row, "id", CategoryId::new)? == wanted {
                    return rows::choice(row, "type").map(Some);
                }
            }
            Ok(None)
        };
        let source_type = type_of(id)?.ok_or(StoreError::NotFound(Resource::Category))?;
        tx.if_match(read(&tx, id)).await?;
        if cmd.target == id || type_of(cmd.target)? != Some(source_type) {
            return Err(StoreError::Invalid(migration_target_error()));
        }
        let moved = tx.rows(MOVE_SQL, &[&id.get(), &cmd.target.get()]).await?;
        let projects = moved
            .iter()
            .map(|row| rows::get::<i64>(row, "id"))
            .collect::<Result<Vec<_>, _>>()?;
        if !projects.is_empty() {
            sync_projects(&tx, cmd.target, Some(&projects)).await?;
        }
        let source = read(&tx, id).await?;
        let target = read(&tx, cmd.target).await?;
        tx.emit(EventType::CategoryUpdated, id.get(), &source)?;
        tx.emit(EventType::CategoryUpdated, cmd.target.get(), &target)?;
        tx.commit().await?;
        Ok(source)
    }
}
