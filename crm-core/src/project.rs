//! Projects (`/api/projects`, API.md §17): the record, one command for create and PATCH
//! ([`ProjectInput`]), and the list query. Creating a project also creates its
//! `uncategorised` milestone (the store, in the same transaction); a project with
//! estimates or invoices cannot be deleted
//! ([`Conflict::ProjectHasBills`](crate::conflict::Conflict::ProjectHasBills)).

use chrono::NaiveDate;
use serde::Serialize;

use crate::category::CategoryType;
use crate::choice_enum;
use crate::client::{kept_unless_cleared, required_unless_absent};
use crate::ids::{CategoryId, ClientId, ProjectId, UserId};
use crate::input::{Form, Patch, RawMap, read_choice, read_date, read_id};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::time::RecordDates;
use crate::validation::{FieldErrors, RefKind, References, Rejected, message};

choice_enum!(
    /// Where a project stands.
    pub enum ProjectStatus {
        /// Not started (the default).
        NotStarted = "not_started",
        /// In progress.
        InProgress = "in_progress",
        /// On hold.
        OnHold = "on_hold",
        /// Cancelled.
        Cancelled = "cancelled",
        /// Completed.
        Completed = "completed",
    }
);

choice_enum!(
    /// Sort keys of the project list.
    pub enum ProjectSort {
        /// By title (case-insensitive).
        Title = "title",
        /// By start date (projects without one last ascending).
        StartDate = "start_date",
        /// By due date (projects without one last ascending).
        DueDate = "due_date",
        /// By creation time.
        Created = "project_created",
    }
);

/// What a project holds, as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectFields {
    /// Title.
    pub title: String,
    /// Its client.
    pub client: Option<i64>,
    /// A project category; `None` on create means the system default one.
    pub category: Option<i64>,
    /// Its status.
    pub status: Option<ProjectStatus>,
    /// When it starts.
    pub start_date: Option<NaiveDate>,
    /// When it is due (not before the start).
    pub due_date: Option<NaiveDate>,
}

/// A project as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Project {
    /// Project id.
    pub id: ProjectId,
    /// Title.
    pub title: String,
    /// Its client.
    pub client_id: ClientId,
    /// Its category.
    pub category_id: CategoryId,
    /// Status.
    pub status: ProjectStatus,
    /// Start date.
    pub start_date: Option<NaiveDate>,
    /// Due date.
    pub due_date: Option<NaiveDate>,
    /// Who created it.
    pub creator_id: Option<UserId>,
    /// Creation and update times.
    pub dates: RecordDates,
}

impl Project {
    /// The stored fields (what a PATCH starts from).
    pub fn fields(&self) -> ProjectFields {
        ProjectFields {
            title: self.title.clone(),
            client: Some(self.client_id.get()),
            category: Some(self.category_id.get()),
            status: Some(self.status),
            start_date: self.start_date,
            due_date: self.due_date,
        }
    }
}

/// `POST /projects` (title and client required) and `PATCH /projects/{id}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectInput {
    title: Option<String>,
    client: Option<i64>,
    category: Option<i64>,
    status: Option<ProjectStatus>,
    start_date: Patch<NaiveDate>,
    due_date: Patch<NaiveDate>,
    references: References,
}

impl ProjectInput {
    /// Reads a create (`creating`) or a PATCH.
    pub fn parse(raw: &RawMap, creating: bool) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let title = required_unless_absent(&mut form, "title", creating);
        let client = if creating {
            form.required_ref("client_id", RefKind::Client)
        } else {
            let id = kept_unless_cleared(&mut form, "client_id", read_id);
            if let Some(id) = id {
                form.reference("client_id", RefKind::Client, id);
            }
            id
        };
        let category = kept_unless_cleared(&mut form, "category_id", read_id);
        if let Some(id) = category {
            form.reference("category_id", RefKind::Category(CategoryType::Project), id);
        }
        let status = kept_unless_cleared(&mut form, "status", read_choice::<ProjectStatus>);
        let start_date = form.patch("start_date", read_date);
        let due_date = form.patch("due_date", read_date);
        if let (Patch::Set(start), Patch::Set(due)) = (&start_date, &due_date)
            && due < start
        {
            form.error(
                "due_date",
                message::after_or_equal("due_date", "start_date"),
            );
        }
        let references = form.finish()?;
        Ok(ProjectInput {
            title,
            client,
            category,
            status,
            start_date,
            due_date,
            references,
        })
    }

    /// The references to check (client, category).
    pub fn references(&self) -> &References {
        &self.references
    }

    /// The fields after this input, from `current`; a due date before the start (one of
    /// them stored) is refused.
    pub fn apply(&self, current: ProjectFields) -> Result<ProjectFields, FieldErrors> {
        let after = ProjectFields {
            title: self.title.clone().unwrap_or(current.title),
            client: self.client.or(current.client),
            category: self.category.or(current.category),
            status: self.status.or(current.status),
            start_date: self.start_date.apply_ref(current.start_date),
            due_date: self.due_date.apply_ref(current.due_date),
        };
        match (after.start_date, after.due_date) {
            (Some(start), Some(due)) if due < start => Err(FieldErrors::single(
                "due_date",
                message::after_or_equal("due_date", "start_date"),
            )),
            _ => Ok(after),
        }
    }
}

/// `GET /projects`: paging, order, sort, search (title), and [`ProjectFilters`].
pub type ProjectListQuery = ListQuery<ProjectFilters>;

/// The project list's filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectFilters {
    /// `status` filter.
    pub status: Option<ProjectStatus>,
    /// `client_id` filter.
    pub client: Option<ClientId>,
    /// `category_id` filter.
    pub category: Option<CategoryId>,
}

impl ListFilters for ProjectFilters {
    const LIST: &'static str = "projects";
    type Sort = ProjectSort;

    fn read(form: &mut Form<'_>) -> Self {
        ProjectFilters {
            status: form.optional("status", read_choice::<ProjectStatus>),
            client: form.optional("client_id", read_id).and_then(ClientId::new),
            category: form
                .optional("category_id", read_id)
                .and_then(CategoryId::new),
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}|{}",
            self.status.map_or("", ProjectStatus::as_str),
            self.client.map_or(0, ClientId::get),
            self.category.map_or(0, CategoryId::get)
        )
    }

    fn key_kind(sort: Option<ProjectSort>) -> KeyKind {
        match sort {
            None | Some(ProjectSort::Created) => KeyKind::Integer,
            Some(ProjectSort::Title) => KeyKind::Text,
            Some(ProjectSort::StartDate | ProjectSort::DueDate) => KeyKind::Date,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{day, msg, raw};

    #[test]
    fn a_project_needs_a_title_and_a_client() {
        let r = ProjectInput::parse(&raw(&[("status", "done")]), true).unwrap_err();
        assert_eq!(msg(&r.errors, "title"), ["The title field is required."]);
        assert_eq!(
            msg(&r.errors, "client_id"),
            ["The client id field is required."]
        );
        assert_eq!(
            msg(&r.errors, "status"),
            ["The selected status is invalid."]
        );
        let p = ProjectInput::parse(&raw(&[("title", "Site"), ("client_id", "3")]), true).unwrap();
        assert_eq!(p.references().as_slice().len(), 1);
    }

    #[test]
    fn the_due_date_is_not_before_the_start_also_against_the_stored_one() {
        let r = ProjectInput::parse(
            &raw(&[("start_date", "2026-05-02"), ("due_date", "2026-05-01")]),
            false,
        )
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "due_date"),
            ["The due date must be a date after or equal to start date."]
        );
        let stored = ProjectFields {
            title: "Site".into(),
            start_date: Some(day("2026-05-02")),
            ..ProjectFields::default()
        };
        let patch = ProjectInput::parse(&raw(&[("due_date", "2026-05-01")]), false).unwrap();
        assert!(patch.apply(stored.clone()).is_err());
        let clear = ProjectInput::parse(&raw(&[("start_date", "")]), false).unwrap();
        assert_eq!(clear.apply(stored).unwrap().start_date, None);
    }
}
