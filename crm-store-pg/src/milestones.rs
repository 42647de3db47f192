//! Project milestones: list, read, create and update (delete and reorder in [`removal`]
//! and [`reorder`]).
//!
//! `tasks_count` is computed by the statement that reads the milestone.
//!
//! What each write locks:
//! - create locks the PROJECT row (`FOR UPDATE`): creates and reorders of one project are
//!   serialised, so `max(position) + 1` is never taken twice. A title the project already
//!   has (ignoring case, width, spacing and invisible characters: `name_key`, migration
//!   0018) is refused by the unique index `milestones_project_title_key`
//!   (→ `Conflict::DuplicateMilestoneTitle`), also under concurrency;
//! - update is one statement (the same index decides duplicates);
//! - delete and reorder: see [`removal`] and [`reorder`].

use crm_core::conflict::Resource;
use crm_core::ids::{MilestoneId, ProjectId, UserId};
use crm_core::listing::like_pattern;
use crm_core::milestone::{
    Milestone, MilestoneListQuery, MilestoneSort, MilestoneUpdate, NewMilestone,
};
use crm_core::webhook::EventType;
use tokio_postgres::Row;

use crate::db::Db;
use crate::error::StoreError;
use crate::listed::Listed;
use crate::sql::{self, PageRequest, SortKey, Sql, micros_key};
use crate::store::{Ctx, Store};
use crate::{refs, rows};

/// The computed column of a milestone row aliased `$a` (a string literal): `tasks_count`.
macro_rules! milestone_counts {
    ($a:literal) => {
        concat!(
            "(SELECT count(*) FROM tasks t WHERE t.milestone_id = ",
            $a,
            ".id) AS tasks_count"
        )
    };
}

// Declared after the macro, which they use.
mod removal;
mod reorder;

/// Decodes a row of `milestones` plus `tasks_count`.
fn milestone_from(row: &Row) -> Result<Milestone, StoreError> {
    Ok(Milestone {
        id: rows::id(row, "id", MilestoneId::new)?,
        title: rows::get(row, "title")?,
        project_id: rows::id(row, "project_id", ProjectId::new)?,
        milestone_type: rows::choice(row, "type")?,
        color: rows::choice(row, "color")?,
        position: rows::get(row, "position")?,
        creator_id: rows::opt_id(row, "creator_id", UserId::new)?,
        tasks_count: rows::get(row, "tasks_count")?,
        dates: rows::record_dates(row)?,
    })
}

const MILESTONE_SQL: &str = concat!(
    "SELECT m.*, ",
    milestone_counts!("m"),
    " FROM milestones m WHERE m.id = $1"
);

/// The milestone `id` as seen by `db`.
async fn read(db: &impl Db, id: MilestoneId) -> Result<Milestone, StoreError> {
    match db.row_opt(MILESTONE_SQL, &[&id.get()]).await? {
        Some(row) => milestone_from(&row),
        None => Err(StoreError::NotFound(Resource::Milestone)),
    }
}

/// Locks the project row until the end of the transaction; false if there is none.
async fn lock_project(db: &impl Db, project: ProjectId) -> Result<bool, StoreError> {
    const SQL: &str = "SELECT id FROM projects WHERE id = $1 FOR UPDATE";
    Ok(db.row_opt(SQL, &[&project.get()]).await?.is_some())
}

impl Store {
    /// One page of a project's milestones (the project must exist: 422 on `project_id`):
    /// filter `type`, search on the title, sort by title, position or creation time; ties
    /// broken by id.
    pub async fn list_milestones(
        &self,
        q: &MilestoneListQuery,
    ) -> Result<Listed<Milestone>, StoreError> {
        // The project is the first parameter ($1): the extra columns test it exists, so a
        // valid request is one round trip.
        let mut filtered = Sql::new("SELECT m.* FROM milestones m WHERE ");
        filtered.push_with("m.project_id = {}", q.project.get());
        if let Some(t) = q.milestone_type {
            filtered.push_with(" AND m.type = {}", t.as_str());
        }
        if let Some(search) = &q.params.search {
            filtered.push_with(" AND m.title ILIKE {}", like_pattern(search));
        }
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(MilestoneSort::Title) => SortKey::new("lower(title)", "lower(title)", "{}::text"),
            Some(MilestoneSort::Position) => {
                SortKey::new("position", "position::text", "{}::bigint")
            }
            Some(MilestoneSort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let request = PageRequest::of(&q.params, q.binding());
        let extra = concat!(
            ", ",
            milestone_counts!("p"),
            ", EXISTS (SELECT 1 FROM projects WHERE id = $1) AS project_exists"
        );
        let reader = self.reader().await?;
        let found = sql::page(&*reader, filtered, None, sort, &request, extra).await?;
        // An empty page (or none read) says nothing of the project: check it then.
        let project_exists = match found.rows.first() {
            Some(row) => rows::get::<bool>(row, "project_exists")?,
            None => false,
        };
        if !project_exists {
            refs::require(&*reader, q.references()).await?;
        }
        Listed::decoded(&found, milestone_from)
    }

    /// The milestone `id`.
    pub async fn milestone(&self, id: MilestoneId) -> Result<Milestone, StoreError> {
        let reader = self.reader().await?;
        read(&*reader, id).await
    }

    /// Creates a `categorised` milestone after the project's highest position.
    pub async fn create_milestone(
        &self,
        ctx: Ctx,
        cmd: &NewMilestone,
    ) -> Result<Milestone, StoreError> {
        const SQL: &str = concat!(
            "WITH m AS (INSERT INTO milestones (project_id, title, type, color, position, creator_id)",
            " SELECT $1, $2, 'categorised', $3, COALESCE(max(position), 0) + 1, $4",
            " FROM milestones WHERE project_id = $1 RETURNING *)",
            " SELECT m.*, ",
            milestone_counts!("m"),
            " FROM m"
        );
        let tx = self.begin().await?;
        refs::require(&tx, cmd.references()).await?;
        if !lock_project(&tx, cmd.project).await? {
            // Deleted since the check: report it through the references.
            refs::require(&tx, cmd.references()).await?;
            return Err(StoreError::Internal(format!(
                "project {} vanished while being locked",
                cmd.project
            )));
        }
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 4] = [
            &cmd.project.get(),
            &cmd.title,
            &cmd.color.as_str(),
            &ctx.actor.get(),
        ];
        let milestone = milestone_from(&tx.row(SQL, &params).await?)?;
        tx.emit(EventType::MilestoneCreated, milestone.id.get(), &milestone)?;
        tx.commit().await?;
        Ok(milestone)
    }

    /// Changes the title and colour (a title the project already has is a 409).
    pub async fn update_milestone(
        &self,
        id: MilestoneId,
        cmd: &MilestoneUpdate,
    ) -> Result<Milestone, StoreError> {
        const SQL: &str = concat!(
            "WITH m AS (UPDATE milestones SET title = $2, color = $3, updated_at = now()",
            " WHERE id = $1 RETURNING *)",
            " SELECT m.*, ",
            milestone_counts!("m"),
            " FROM m"
        );
        const LOCK_SQL: &str = "SELECT id FROM milestones WHERE id = $1 FOR UPDATE";
        let tx = self.begin().await?;
        // With `If-Match`: lock the row and compare under the lock before writing.
        tx.if_match(async {
            if tx.row_opt(LOCK_SQL, &[&id.get()]).await?.is_none() {
                return Err(StoreError::NotFound(Resource::Milestone));
            }
            read(&tx, id).await
        })
        .await?;
        let milestone = match tx
            .row_opt(SQL, &[&id.get(), &cmd.title, &cmd.color.as_str()])
            .await?
        {
            Some(row) => milestone_from(&row)?,
            None => return Err(StoreError::NotFound(Resource::Milestone)),
        };
        tx.emit(EventType::MilestoneUpdated, id.get(), &milestone)?;
        tx.commit().await?;
        Ok(milestone)
    }
}
