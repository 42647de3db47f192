//! `/api/notes` handlers.

use crm_core::conflict::Resource;
use crm_core::ids::NoteId;
use crm_core::note::{NewNote, NoteListQuery, NoteUpdate};
use crm_core::tags::TagSet;

use super::{Req, valid};
use crate::error::ApiError;
use crate::response::Reply;
use crm_store_pg::Store;

const R: Resource = Resource::Note;

pub(crate) async fn list(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(store, req.ctx, NoteListQuery::parse(&req.query), None).await?;
    let listed = store.list_notes(req.ctx, &query).await?;
    Reply::list(&listed, query.params.page, "Notes retrieved successfully.")
}

pub(crate) async fn create(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(store, req.ctx, NewNote::parse(&req.body), None).await?;
    Reply::created(
        &store.create_note(req.ctx, &cmd).await?,
        "Note created successfully.",
    )
}

pub(crate) async fn get(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    Reply::ok(
        &store.note(req.ctx, id).await?,
        "Note retrieved successfully.",
    )
}

pub(crate) async fn update(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    let cmd = valid(
        store,
        req.ctx,
        NoteUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.update_note(req.ctx, id, &cmd).await?,
        "Note updated successfully.",
    )
}

pub(crate) async fn delete(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    store.delete_note(req.ctx, id).await?;
    Reply::deleted(id.get(), "Note deleted successfully.")
}

pub(crate) async fn tags(store: &Store, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    let tags = valid(
        store,
        req.ctx,
        TagSet::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &store.set_note_tags(req.ctx, id, &tags).await?,
        "Note tags updated successfully.",
    )
}
