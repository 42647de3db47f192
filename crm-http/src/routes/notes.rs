//! `/api/notes` handlers.

use crm_core::conflict::Resource;
use crm_core::ids::NoteId;
use crm_core::note::{NewNote, NoteListQuery, NoteUpdate};
use crm_core::tags::TagSet;

use super::{Env, Req, valid};
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Note;

pub(crate) async fn list(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(env.store, req.ctx, NoteListQuery::parse(&req.query), None).await?;
    let listed = env.store.list_notes(req.ctx, &query).await?;
    Reply::list(&listed, query.params.page, "Notes retrieved successfully.")
}

pub(crate) async fn create(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(env.store, req.ctx, NewNote::parse(&req.body), None).await?;
    Reply::created(
        &env.store.create_note(req.ctx, &cmd).await?,
        "Note created successfully.",
    )
}

pub(crate) async fn get(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    Reply::ok(
        &env.store.note(req.ctx, id).await?,
        "Note retrieved successfully.",
    )
}

pub(crate) async fn update(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    let cmd = valid(
        env.store,
        req.ctx,
        NoteUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &env.store.update_note(req.ctx, id, &cmd).await?,
        "Note updated successfully.",
    )
}

pub(crate) async fn delete(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    env.store.delete_note(req.ctx, id).await?;
    Reply::deleted(id.get(), "Note deleted successfully.")
}

pub(crate) async fn tags(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    let tags = valid(
        env.store,
        req.ctx,
        TagSet::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &env.store.set_note_tags(req.ctx, id, &tags).await?,
        "Note tags updated successfully.",
    )
}
