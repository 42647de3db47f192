//! Projects (`/api/projects`, API.md §17): reads, the list, and the writes, each one
//! transaction.
//!
//! - Create inserts the project and its `uncategorised` milestone (position 1: the last
//!   of none) in one statement, and gives the project its category's team
//!   (`project_assignments` of source `category`), in the same transaction.
//! - A category change re-syncs those assignments.
//! - Delete locks the project's row `FOR UPDATE` and refuses a project with estimates or
//!   invoices ([`Conflict::ProjectHasBills`]); an estimate or invoice that names the
//!   project takes a key-share lock on the row through its foreign key, so the check and
//!   a new bill never cross. Its milestones, tasks, notes and assignments go with it (their
//!   foreign keys cascade); contracts and expenses that name it keep none.

use crm_core::category::CategoryType;
use crm_core::conflict::{Conflict, Resource};
use crm_core::ids::{CategoryId, ClientId, ProjectId, UserId};
use crm_core::listing::like_pattern;
use crm_core::project::{Project, ProjectFields, ProjectInput, ProjectListQuery, ProjectSort};
use crm_core::webhook::EventType;
use tokio_postgres::Row;

use crate::categories::sync_projects;
use crate::clients::default_category;
use crate::db::Db;
use crate::sql::{self, PageRequest, SortKey, Sql, micros_key};
use crate::{Ctx, Listed, Store, StoreError, refs, rows};

/// The record's columns over `projects p`.
macro_rules! project_columns {
    () => {
        "p.id, p.title, p.client_id, p.category_id, p.status, p.start_date, p.due_date, \
         p.creator_id, p.created_at, p.updated_at"
    };
}

const PROJECT_SQL: &str = concat!(
    "SELECT ",
    project_columns!(),
    " FROM projects p WHERE p.id = $1"
);

const LOCK_SQL: &str = "SELECT id FROM projects WHERE id = $1 FOR UPDATE";

/// A new project and its `uncategorised` milestone, in one statement.
const INSERT_SQL: &str = "WITH p AS (INSERT INTO projects \
     (title, client_id, category_id, status, start_date, due_date, creator_id) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id), \
     m AS (INSERT INTO milestones (project_id, title, type, position, creator_id) \
     SELECT id, 'Uncategorised', 'uncategorised', 1, $7 FROM p) \
     SELECT id FROM p";

const UPDATE_SQL: &str = "UPDATE projects SET title = $1, client_id = $2, category_id = $3, \
     status = $4, start_date = $5, due_date = $6, updated_at = now() WHERE id = $7";

const HAS_BILLS_SQL: &str = "SELECT \
     EXISTS (SELECT 1 FROM estimates WHERE project_id = $1) \
     OR EXISTS (SELECT 1 FROM invoices WHERE project_id = $1)";

const DELETE_SQL: &str = "DELETE FROM projects WHERE id = $1";

impl Store {
    /// `GET /projects/{id}`.
    pub async fn project(&self, id: ProjectId) -> Result<Project, StoreError> {
        read(&*self.reader().await?, id.get()).await
    }

    /// `GET /projects`: one page with the exact total (counted row by row).
    pub async fn list_projects(&self, q: &ProjectListQuery) -> Result<Listed<Project>, StoreError> {
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(ProjectSort::Title) => SortKey::new("lower(title)", "lower(title)", "{}::text"),
            Some(ProjectSort::StartDate) => {
                SortKey::new("start_date", "start_date::text", "{}::date").nullable()
            }
            Some(ProjectSort::DueDate) => {
                SortKey::new("due_date", "due_date::text", "{}::date").nullable()
            }
            Some(ProjectSort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let mut s = Sql::new(concat!(
            "SELECT ",
            project_columns!(),
            " FROM projects p WHERE TRUE"
        ));
        let f = &q.filters;
        if let Some(status) = f.status {
            s.push_with(" AND p.status = {}", status.as_str());
        }
        if let Some(client) = f.client {
            s.push_with(" AND p.client_id = {}", client.get());
        }
        if let Some(category) = f.category {
            s.push_with(" AND p.category_id = {}", category.get());
        }
        if let Some(search) = &q.params.search {
            s.push_with(" AND p.title ILIKE {}", like_pattern(search));
        }
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page(&*self.reader().await?, s, None, sort, &request, "").await?;
        Listed::decoded(&found, from_row)
    }

    /// `POST /projects`: the project, its `uncategorised` milestone and its category's
    /// team, in one transaction.
    pub async fn create_project(
        &self,
        ctx: Ctx,
        cmd: &ProjectInput,
    ) -> Result<Project, StoreError> {
        let tx = self.begin().await?;
        refs::require(&tx, cmd.references()).await?;
        let mut f = cmd.apply(ProjectFields::default())?;
        if f.category.is_none() {
            f.category = Some(default_category(&tx, CategoryType::Project).await?);
        }
        let status = f
            .status
            .unwrap_or(crm_core::project::ProjectStatus::NotStarted);
        let row = tx
            .row(
                INSERT_SQL,
                &[
                    &f.title,
                    &f.client,
                    &f.category,
                    &status.as_str(),
                    &f.start_date,
                    &f.due_date,
                    &ctx.actor.get(),
                ],
            )
            .await?;
        let id: i64 = rows::get(&row, "id")?;
        sync_category(&tx, f.category, id).await?;
        let project = read(&tx, id).await?;
        tx.emit(EventType::ProjectCreated, id, &project)?;
        tx.commit().await?;
        Ok(project)
    }

    /// `PATCH /projects/{id}`: the fields sent, under the row's lock.
    pub async fn update_project(
        &self,
        _ctx: Ctx,
        id: ProjectId,
        cmd: &ProjectInput,
    ) -> Result<Project, StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id.get()).await?;
        let current = read(&tx, id.get()).await?;
        tx.if_match(async { Ok(current.clone()) }).await?;
        refs::require(&tx, cmd.references()).await?;
        let f = cmd.apply(current.fields())?;
        let status = f.status.unwrap_or(current.status);
        tx.run(
            UPDATE_SQL,
            &[
                &f.title,
                &f.client,
                &f.category,
                &status.as_str(),
                &f.start_date,
                &f.due_date,
                &id.get(),
            ],
        )
        .await?;
        if f.category != Some(current.category_id.get()) {
            sync_category(&tx, f.category, id.get()).await?;
        }
        let project = read(&tx, id.get()).await?;
        tx.emit(EventType::ProjectUpdated, id.get(), &project)?;
        tx.commit().await?;
        Ok(project)
    }

    /// `DELETE /projects/{id}`: a project without estimates or invoices, with its
    /// milestones (see the module's notes).
    pub async fn delete_project(&self, _ctx: Ctx, id: ProjectId) -> Result<(), StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id.get()).await?;
        tx.if_match(read(&tx, id.get())).await?;
        let has_bills: bool = tx.row(HAS_BILLS_SQL, &[&id.get()]).await?.get(0);
        if has_bills {
            return Err(Conflict::ProjectHasBills.into());
        }
        tx.run(DELETE_SQL, &[&id.get()]).await?;
        tx.emit_deleted(EventType::ProjectDeleted, id.get())?;
        tx.commit().await?;
        Ok(())
    }
}

/// Gives project `id` the team of its category as its `category` assignments.
async fn sync_category(db: &impl Db, category: Option<i64>, id: i64) -> Result<(), StoreError> {
    if let Some(category) = category.and_then(CategoryId::new) {
        sync_projects(db, category, Some(&[id])).await?;
    }
    Ok(())
}

/// Locks a project's row; an unknown one is `NotFound(Project)`.
async fn lock(db: &impl Db, id: i64) -> Result<(), StoreError> {
    db.row_opt(LOCK_SQL, &[&id])
        .await?
        .map(drop)
        .ok_or(StoreError::NotFound(Resource::Project))
}

/// Reads one project (in or out of a transaction).
async fn read(db: &impl Db, id: i64) -> Result<Project, StoreError> {
    let row = db
        .row_opt(PROJECT_SQL, &[&id])
        .await?
        .ok_or(StoreError::NotFound(Resource::Project))?;
    from_row(&row)
}

fn from_row(row: &Row) -> Result<Project, StoreError> {
    Ok(Project {
        id: rows::id(row, "id", ProjectId::new)?,
        title: rows::get(row, "title")?,
        client_id: rows::id(row, "client_id", ClientId::new)?,
        category_id: rows::id(row, "category_id", CategoryId::new)?,
        status: rows::choice(row, "status")?,
        start_date: rows::get(row, "start_date")?,
        due_date: rows::get(row, "due_date")?,
        creator_id: rows::opt_id(row, "creator_id", UserId::new)?,
        dates: rows::record_dates(row)?,
    })
}
