//! `/api/notes` handlers.

use crm_core::conflict::Resource;
use crm_core::ids::NoteId;
use crm_core::note::{NewNote, NoteListQuery, NoteUpdate};
use crm_core::tags::TagSet;

use super::{Req, valid};
use crate::app::App;
use crate::error::ApiError;
use crate::response::Reply;

const R: Resource = Resource::Note;

pub(crate) async fn list(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let query = valid(app, req.ctx, NoteListQuery::parse(&req.query), None).await?;
    let listed = app.store.list_notes(req.ctx, &query).await?;
    Reply::list(&listed, query.params.page, "Notes retrieved successfully.")
}

pub(crate) async fn create(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let cmd = valid(app, req.ctx, NewNote::parse(&req.body), None).await?;
    Reply::created(
        &app.store.create_note(req.ctx, &cmd).await?,
        "Note created successfully.",
    )
}

pub(crate) async fn get(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    Reply::ok(
        &app.store.note(req.ctx, id).await?,
        "Note retrieved successfully.",
    )
}

pub(crate) async fn update(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    let cmd = valid(
        app,
        req.ctx,
        NoteUpdate::parse(&req.body),
        Some((R, id.get())),
    )
    .await?;
    Reply::ok(
        &app.store.update_note(req.ctx, id, &cmd).await?,
        "Note updated successfully.",
    )
}

pub(crate) async fn delete(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    app.store.delete_note(req.ctx, id).await?;
    Reply::deleted(id.get(), "Note deleted successfully.")
}

pub(crate) async fn tags(app: &App, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(NoteId::from_path, R)?;
    let tags = valid(app, req.ctx, TagSet::parse(&req.body), Some((R, id.get()))).await?;
    Reply::ok(
        &app.store.set_note_tags(req.ctx, id, &tags).await?,
        "Note tags updated successfully.",
    )
}
