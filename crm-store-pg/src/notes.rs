//! Notes: reads (one statement each, on a shared reader) and the record decoding; the
//! writes are in [`write`].
//!
//! Sticky notes are never listed, served, updated, deleted or tagged (`NOT sticky` in
//! every statement, so they are "not found"), and a private note exists only for its
//! creator ([`note::visible_to`]): for anyone else every operation answers
//! `NotFound(Note)` and lists leave it out. Lists render the rule from
//! [`NoteVisibility::shared`].
//!
//! Locks taken by the writes: update, delete and set tags lock the note row `FOR UPDATE`;
//! create locks nothing beyond the row it inserts.

mod write;

use crm_core::conflict::Resource;
use crm_core::ids::{NoteId, UserId};
use crm_core::input::Choice;
use crm_core::listing::like_pattern;
use crm_core::note::{
    self, Note, NoteListQuery, NoteResource, NoteResourceType, NoteSort, NoteVisibility,
};
use tokio_postgres::Row;

use crate::db::Db;
use crate::sql::{Sql, paged};
use crate::{Ctx, Listed, Store, StoreError, rows};

/// The record's columns except the description and the tags, over `notes n`.
macro_rules! note_columns {
    () => {
        "n.id, n.title, n.visibility, n.resource_type, n.resource_id, n.creator_id, n.created_at, n.updated_at"
    };
}

/// One (non-sticky) note with its description and tags, by id.
const NOTE_SQL: &str = concat!(
    "SELECT ",
    note_columns!(),
    ", n.description, ARRAY(SELECT t.title FROM tags t WHERE t.note_id = n.id ORDER BY t.position) AS tags \
     FROM notes n WHERE n.id = $1 AND NOT n.sticky"
);

/// Description and tags of a page's rows (`p`), added after paging so that the filtered
/// set stays narrow.
const PAGE_EXTRA_COLUMNS: &str = ", (SELECT d.description FROM notes d WHERE d.id = p.id) AS description, \
     ARRAY(SELECT t.title FROM tags t WHERE t.note_id = p.id ORDER BY t.position) AS tags";

impl Store {
    /// One page of the notes the actor may see that match the query, and how many match.
    pub async fn list_notes(
        &self,
        ctx: Ctx,
        q: &NoteListQuery,
    ) -> Result<Listed<Note>, StoreError> {
        let filtered = filtered_sql(ctx.actor, q);
        let sort = match q.params.sort {
            None => "id",
            // Case-insensitive, as contract titles (and upstream's MySQL collation).
            Some(NoteSort::Title) => "lower(title)",
            Some(NoteSort::Created) => "created_at",
            Some(NoteSort::Updated) => "updated_at",
        };
        let sql = paged(
            filtered,
            sort,
            q.params.order,
            q.params.page,
            PAGE_EXTRA_COLUMNS,
        );
        let rows = self.reader().await?.rows(sql.text(), &sql.params()).await?;
        let items = rows::page_rows(&rows)
            .map(note_from_row)
            .collect::<Result<_, _>>()?;
        Ok(Listed {
            items,
            total: rows::page_total(&rows)?,
        })
    }

    /// One note, if the actor may see it.
    pub async fn note(&self, ctx: Ctx, id: NoteId) -> Result<Note, StoreError> {
        read_note(&*self.reader().await?, ctx.actor, id.get()).await
    }
}

/// The notes `viewer` may see (never sticky ones) that match the query's filters; search
/// matches the title or the description.
fn filtered_sql(viewer: UserId, q: &NoteListQuery) -> Sql {
    let shared: Vec<&'static str> = NoteVisibility::CHOICES
        .iter()
        .filter(|(_, v)| v.shared())
        .map(|(text, _)| *text)
        .collect();
    let mut filtered = Sql::default();
    let shared = filtered.param(shared);
    let actor = filtered.param(viewer.get());
    filtered.push(&format!(
        "SELECT {} FROM notes n WHERE NOT n.sticky AND (n.visibility = ANY({shared}) OR n.creator_id = {actor})",
        note_columns!()
    ));
    if let Some(resource_type) = q.resource_type {
        filtered.push_with(" AND n.resource_type = {}", resource_type.as_str());
    }
    if let Some(resource_id) = q.resource_id {
        filtered.push_with(" AND n.resource_id = {}", resource_id);
    }
    if let Some(visibility) = q.visibility {
        filtered.push_with(" AND n.visibility = {}", visibility.as_str());
    }
    if let Some(search) = &q.params.search {
        let pattern = filtered.param(like_pattern(search));
        filtered.push(&format!(
            " AND (n.title ILIKE {pattern} OR n.description ILIKE {pattern})"
        ));
    }
    filtered
}

/// Reads one note for `viewer` (in or out of a transaction); absent, sticky or private to
/// someone else → `NotFound(Note)`.
pub(crate) async fn read_note(db: &impl Db, viewer: UserId, id: i64) -> Result<Note, StoreError> {
    let row = db
        .row_opt(NOTE_SQL, &[&id])
        .await?
        .ok_or(StoreError::NotFound(Resource::Note))?;
    let note = note_from_row(&row)?;
    if note::visible_to(note.visibility, note.creator_id, viewer) {
        Ok(note)
    } else {
        Err(StoreError::NotFound(Resource::Note))
    }
}

/// Decodes a row of [`NOTE_SQL`] (or of the list).
fn note_from_row(row: &Row) -> Result<Note, StoreError> {
    Ok(Note {
        id: rows::id(row, "id", NoteId::new)?,
        title: rows::get(row, "title")?,
        description: rows::get(row, "description")?,
        visibility: rows::choice(row, "visibility")?,
        resource: NoteResource {
            resource_type: rows::opt_choice::<NoteResourceType>(row, "resource_type")?,
            id: rows::get(row, "resource_id")?,
        },
        creator_id: rows::id(row, "creator_id", UserId::new)?,
        tags: rows::get(row, "tags")?,
        dates: rows::record_dates(row)?,
    })
}
