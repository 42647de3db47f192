//! E-invoices (API.md §19): `GET /api/invoices/{id}/einvoice?format=…` and
//! `GET /api/credit-notes/{id}/einvoice?format=…` write an issued document in an EN 16931
//! format; `…/einvoice/readiness?format=…` names what keeps it from being written. Both
//! come from one place, [`crm_einvoice::build`]: a document that is not ready is a 422
//! with the same list the readiness check shows. `facturx` is the document's PDF as PDF/A-3
//! with the CII XML inside ([`crate::documents::Documents::facturx`]). The files are made
//! by [`crate::documents::Documents::einvoice`], as the emails' and the client page's are.

use crm_core::conflict::Resource;
use crm_core::ids::{CreditNoteId, InvoiceId};
use crm_core::input::RawValue;
use crm_core::validation::{FieldErrors, message};
use crm_einvoice::{Format, Missing, Source};
use crm_store_pg::messages::Attached;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde::Serialize;

use super::{Env, Req};
use crate::error::ApiError;
use crate::response::Reply;
use crm_core::bill::InvoiceKind;

/// `readiness`'s `data`.
#[derive(Serialize)]
struct Readiness<'a> {
    format: &'static str,
    ready: bool,
    missing: &'a [Missing],
}

/// The `format` query parameter (required; one of [`Format::ALL`]).
fn format(req: &Req<'_>) -> Result<Format, ApiError> {
    let invalid = |m: String| ApiError::Invalid(FieldErrors::single("format", m));
    match req.query.get("format") {
        None | Some(RawValue::Null) => Err(invalid(message::required("format"))),
        Some(RawValue::Text(name)) if name.is_empty() => Err(invalid(message::required("format"))),
        Some(RawValue::Text(name)) => {
            Format::from_name(name).ok_or_else(|| invalid(message::invalid("format")))
        }
        Some(_) => Err(invalid(message::invalid("format"))),
    }
}

/// The issued document a request names, read as the API shows it.
enum Issued {
    Invoice(crm_core::invoice::Invoice),
    CreditNote(crm_core::credit_note::CreditNote),
}

impl Issued {
    /// The invoice (`credit_note` false) or credit note of the request's `{id}` (its 404
    /// first), and the request's format (its 422 next).
    async fn open(
        env: &Env<'_>,
        req: &Req<'_>,
        credit_note: bool,
    ) -> Result<(Issued, Format), ApiError> {
        let issued = if credit_note {
            let id = req.id(CreditNoteId::from_path, Resource::CreditNote)?;
            Issued::CreditNote(env.store.credit_note(req.ctx, id).await?)
        } else {
            let id = req.id(InvoiceId::from_path, Resource::Invoice)?;
            Issued::Invoice(env.store.bills::<InvoiceKind>().get(req.ctx, id).await?)
        };
        Ok((issued, format(req)?))
    }

    /// What an e-invoice is made from.
    fn source(&self) -> Source<'_> {
        match self {
            Issued::Invoice(i) => Source::invoice(i),
            Issued::CreditNote(c) => Source::credit_note(c),
        }
    }

    /// Its page, as its PDF shows it (what a Factur-X PDF renders).
    async fn page(&self, env: &Env<'_>) -> Result<crm_render::Document, ApiError> {
        match self {
            Issued::Invoice(i) => env.documents.document::<InvoiceKind>(env.store, i).await,
            Issued::CreditNote(c) => env.documents.credit_note_document(env.store, c).await,
        }
    }
}

/// The export of `issued` in `format`, or its 422.
async fn export(env: &Env<'_>, req: Req<'_>, credit_note: bool) -> Result<Reply, ApiError> {
    let (issued, format) = Issued::open(env, &req, credit_note).await?;
    let file = env
        .documents
        .einvoice(env.store, issued.source(), format, issued.page(env))
        .await?;
    Ok(file_reply(file, format))
}

/// An e-invoice in `format` as a download: `Content-Disposition: attachment` with its
/// name, not kept by shared caches.
pub(crate) fn file_reply(file: Attached, format: Format) -> Reply {
    let mut headers = HeaderMap::new();
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{}\"", file.name)) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    Reply {
        status: StatusCode::OK,
        body: file.data.into(),
        content_type: format.media_type(),
        headers,
        precompressed: None,
    }
}

/// The readiness of the request's document in its format.
async fn readiness(env: &Env<'_>, req: Req<'_>, credit_note: bool) -> Result<Reply, ApiError> {
    let (issued, format) = Issued::open(env, &req, credit_note).await?;
    let missing = env
        .documents
        .einvoice_missing(env.store, issued.source(), format)
        .await?;
    Reply::ok(
        &Readiness {
            format: format.name(),
            ready: missing.is_empty(),
            missing: &missing,
        },
        "E-invoice readiness retrieved successfully.",
    )
}

/// `GET /api/invoices/{id}/einvoice`.
pub(crate) async fn invoice(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    export(env, req, false).await
}

/// `GET /api/invoices/{id}/einvoice/readiness`.
pub(crate) async fn invoice_readiness(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    readiness(env, req, false).await
}

/// `GET /api/credit-notes/{id}/einvoice`.
pub(crate) async fn credit_note(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    export(env, req, true).await
}

/// `GET /api/credit-notes/{id}/einvoice/readiness`.
pub(crate) async fn credit_note_readiness(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    readiness(env, req, true).await
}
