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
use crate::error::StoreError;
use crate::listed::Listed;
use crate::rows;
use crate::sql::{self, CountKeys, PageRequest, SortKey, Sql, micros_key};
use crate::store::{Ctx, Store};

/// The record's columns except the description and the tags, over `notes n`.
macro_rules! note_columns {
    () => {
        "n.id, n.title, n.visibility, n.resource_type, n.resource_id, n.creator_id, n.created_at, n.updated_at"
    };
}
pub(crate) use note_columns;

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
        let mut filtered = filtered_sql(ctx.actor, q);
        let total = count_keys(ctx.actor, q).map(|keys| sql::counted(&mut filtered, "notes", keys));
        let sort = match q.params.sort {
            None => SortKey::ID,
            // Case-insensitive, as contract titles (and upstream's MySQL collation).
            Some(NoteSort::Title) => SortKey::new("lower(title)", "lower(title)", "{}::text"),
            Some(NoteSort::Created) => SortKey::timestamp("created_at", micros_key!("created_at")),
            Some(NoteSort::Updated) => SortKey::timestamp("updated_at", micros_key!("updated_at")),
        };
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page(
            &*self.reader().await?,
            filtered,
            total,
            sort,
            &request,
            PAGE_EXTRA_COLUMNS,
        )
        .await?;
        Listed::decoded(&found, note_from_row)
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
    // Who may see what, narrowed by the visibility filter where it can be (so that each
    // case is answered by its own index): shared notes, or the viewer's own private ones.
    let visible = match q.filters.visibility {
        Some(v) if v.shared() => format!("n.visibility = {}", filtered.param(v.as_str())),
        Some(v) => format!(
            "n.visibility = {} AND n.creator_id = {}",
            filtered.param(v.as_str()),
            filtered.param(viewer.get())
        ),
        None => format!(
            "(n.visibility = ANY({}) OR n.creator_id = {})",
            filtered.param(shared),
            filtered.param(viewer.get())
        ),
    };
    filtered.push(&format!(
        "SELECT {} FROM notes n WHERE NOT n.sticky AND {visible}",
        note_columns!()
    ));
    if let Some(resource_type) = q.filters.resource_type {
        filtered.push_with(" AND n.resource_type = {}", resource_type.as_str());
    }
    if let Some(resource_id) = q.filters.resource_id {
        filtered.push_with(" AND n.resource_id = {}", resource_id);
    }
    if let Some(search) = &q.params.search {
        // `search_text` is the lowercased title and description joined by U+0001
        // (migration 0015), and ILIKE is LIKE on the lowercased text and pattern, so this
        // is ILIKE on either text with a byte-wise recheck, as long as the search holds no
        // U+0001: no stored text holds one (the API refuses control characters), so such a
        // search matches nothing, and saying so keeps a match from spanning the two.
        if search.contains('\u{1}') {
            filtered.push(" AND FALSE");
        } else {
            let pattern = filtered.param(like_pattern(search));
            filtered.push(&format!(" AND n.search_text LIKE lower({pattern})"));
        }
    }
    filtered
}

/// The maintained counts that total the notes `viewer` may see matching `q` (migration
/// 0010's `list_count_keys(notes)`): the shared group and the viewer's own private group (or the
/// one the visibility filter names), each with the resource filters. `None` with a search,
/// which is counted row by row.
fn count_keys(viewer: UserId, q: &NoteListQuery) -> Option<CountKeys> {
    if q.params.search.is_some() {
        return None;
    }
    let own = format!("private:{}", viewer.get());
    let groups: Vec<String> = match q.filters.visibility {
        Some(v) if v.shared() => vec![v.as_str().to_owned()],
        Some(_) => vec![own],
        None => NoteVisibility::CHOICES
            .iter()
            .filter(|(_, v)| v.shared())
            .map(|(text, _)| (*text).to_owned())
            .chain(std::iter::once(own))
            .collect(),
    };
    // A resource id alone is counted under each resource type.
    let suffixes: Vec<String> = match (q.filters.resource_type, q.filters.resource_id) {
        (Some(t), Some(id)) => vec![format!("|rt={}|rid={id}", t.as_str())],
        (Some(t), None) => vec![format!("|rt={}", t.as_str())],
        (None, Some(id)) => NoteResourceType::CHOICES
            .iter()
            .map(|(text, _)| format!("|rt={text}|rid={id}"))
            .collect(),
        (None, None) => vec![String::new()],
    };
    let exact = groups
        .iter()
        .flat_map(|g| suffixes.iter().map(move |suffix| format!("{g}{suffix}")))
        .collect();
    Some(CountKeys {
        exact,
        ranges: Vec::new(),
    })
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
