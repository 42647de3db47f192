//! Creating, updating, deleting and tagging notes. Each operation is one transaction and
//! returns the note as re-read inside it.

use crm_core::conflict::Resource;
use crm_core::ids::{NoteId, UserId};
use crm_core::note::{self, NewNote, Note, NoteResourceType, NoteUpdate, NoteVisibility};
use crm_core::tags::TagSet;
use crm_core::webhook::EventType;

use super::read_note;
use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::store::{Ctx, Store};
use crate::tags::{self, TagOwner};

/// A new note, returned as [`super::read_note`] reads it (a new note has no tags): one
/// statement, so creating a note is one round trip. Exactly the foreign key column of its
/// resource type is set; a resource that does not exist fails the statement on that
/// column's foreign key, which the store reports as `noteresource_id` (nothing written).
const INSERT_NOTE_SQL: &str = concat!(
    "WITH n AS (INSERT INTO notes (title, description, visibility, resource_type, \
         client_id, lead_id, project_id, task_id, user_id, creator_id) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *) SELECT ",
    super::note_columns!(),
    ", n.description, ARRAY[]::text[] AS tags FROM n"
);

/// Locks a (non-sticky) note and reads who may see it.
const LOCK_NOTE_SQL: &str =
    "SELECT visibility, creator_id FROM notes WHERE id = $1 AND NOT sticky FOR UPDATE";

/// The attachment is never changed here.
const UPDATE_NOTE_SQL: &str = "UPDATE notes SET title = $2, description = $3, visibility = $4, updated_at = now() WHERE id = $1";

/// Tags go with the note (cascade).
const DELETE_NOTE_SQL: &str = "DELETE FROM notes WHERE id = $1";

/// The note's foreign key columns (client, lead, project, task, user): only the one of
/// its resource type is set.
fn resource_columns(resource: Option<(NoteResourceType, i64)>) -> [Option<i64>; 5] {
    let mut columns = [None; 5];
    if let Some((resource_type, id)) = resource {
        let index = match resource_type {
            NoteResourceType::Client => 0,
            NoteResourceType::Lead => 1,
            NoteResourceType::Project => 2,
            NoteResourceType::Task => 3,
            NoteResourceType::User => 4,
        };
        columns[index] = Some(id);
    }
    columns
}

/// Locks the note row `FOR UPDATE` if `viewer` may see it, and gives its visibility and
/// creator; absent, sticky or private to someone else → `NotFound(Note)`.
async fn lock_visible(
    db: &impl Db,
    viewer: UserId,
    id: i64,
) -> Result<(NoteVisibility, UserId), StoreError> {
    let row = db
        .row_opt(LOCK_NOTE_SQL, &[&id])
        .await?
        .ok_or(StoreError::NotFound(Resource::Note))?;
    let visibility: NoteVisibility = rows::choice(&row, "visibility")?;
    let creator = rows::id(&row, "creator_id", UserId::new)?;
    if note::visible_to(visibility, creator, viewer) {
        Ok((visibility, creator))
    } else {
        Err(StoreError::NotFound(Resource::Note))
    }
}

impl Store {
    /// Creates a note of the actor, attached to the resource it names (which must exist).
    pub async fn create_note(&self, ctx: Ctx, cmd: &NewNote) -> Result<Note, StoreError> {
        let tx = self.begin().await?;
        let resource_type = cmd.resource.map(|(t, _)| t.as_str());
        let [client_id, lead_id, project_id, task_id, user_id] = resource_columns(cmd.resource);
        let row = tx
            .row(
                INSERT_NOTE_SQL,
                &[
                    &cmd.title,
                    &cmd.description,
                    &cmd.visibility.as_str(),
                    &resource_type,
                    &client_id,
                    &lead_id,
                    &project_id,
                    &task_id,
                    &user_id,
                    &ctx.actor.get(),
                ],
            )
            .await?;
        let note = super::note_from_row(&row)?;
        tx.emit_to(
            note.audience(),
            EventType::NoteCreated,
            note.id.get(),
            &note,
        )?;
        tx.commit().await?;
        Ok(note)
    }

    /// Updates a note's title, description and visibility (the attachment is kept).
    ///
    /// The answer is the note as written, read as its creator (who always sees it): when
    /// another user makes a public note private, they get the note they wrote, and from then
    /// on it is hidden from them like any private note of someone else.
    pub async fn update_note(
        &self,
        ctx: Ctx,
        id: NoteId,
        cmd: &NoteUpdate,
    ) -> Result<Note, StoreError> {
        let tx = self.begin().await?;
        let (current, creator) = lock_visible(&tx, ctx.actor, id.get()).await?;
        tx.if_match(read_note(&tx, ctx.actor, id.get())).await?;
        let visibility = cmd.visibility_after(current);
        tx.run(
            UPDATE_NOTE_SQL,
            &[
                &id.get(),
                &cmd.title,
                &cmd.description,
                &visibility.as_str(),
            ],
        )
        .await?;
        let note = read_note(&tx, creator, id.get()).await?;
        tx.emit_to(note.audience(), EventType::NoteUpdated, id.get(), &note)?;
        tx.commit().await?;
        Ok(note)
    }

    /// Deletes a note and its tags.
    pub async fn delete_note(&self, ctx: Ctx, id: NoteId) -> Result<(), StoreError> {
        let tx = self.begin().await?;
        let (visibility, creator) = lock_visible(&tx, ctx.actor, id.get()).await?;
        tx.if_match(read_note(&tx, ctx.actor, id.get())).await?;
        tx.run(DELETE_NOTE_SQL, &[&id.get()]).await?;
        let audience = note::audience(visibility, creator);
        tx.emit_deleted_to(audience, EventType::NoteDeleted, id.get())?;
        tx.commit().await?;
        Ok(())
    }

    /// Replaces a note's tags with `tags`, in order.
    pub async fn set_note_tags(
        &self,
        ctx: Ctx,
        id: NoteId,
        tags: &TagSet,
    ) -> Result<Note, StoreError> {
        let tx = self.begin().await?;
        lock_visible(&tx, ctx.actor, id.get()).await?;
        tx.if_match(read_note(&tx, ctx.actor, id.get())).await?;
        tags::replace(&tx, TagOwner::Note(id.get()), tags, ctx.actor).await?;
        let note = read_note(&tx, ctx.actor, id.get()).await?;
        tx.emit_to(note.audience(), EventType::NoteUpdated, id.get(), &note)?;
        tx.commit().await?;
        Ok(note)
    }
}
