//! E-invoices (API.md §19): `GET /api/invoices/{id}/einvoice?format=…` and
//! `GET /api/credit-notes/{id}/einvoice?format=…` write an issued document in an EN 16931
//! format; `…/einvoice/readiness?format=…` names what keeps it from being written. Both
//! come from one place, [`crm_einvoice::build`]: a document that is not ready is a 422
//! with the same list the readiness check shows. `facturx` is the document's PDF as PDF/A-3
//! with the CII XML inside ([`crate::documents::Documents::facturx`]).

use crm_core::conflict::Resource;
use crm_core::ids::{CreditNoteId, InvoiceId, TaxRateId};
use crm_core::input::RawValue;
use crm_core::validation::{FieldErrors, message};
use crm_einvoice::{Format, Missing, Rates, Source};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde::Serialize;

use super::{Env, Req};
use crate::error::ApiError;
use crate::response::Reply;
use crm_core::bill::{InvoiceKind, LineItem, TaxRecord};

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

/// The tax rates `lines` and `taxes` name, and the system "No Tax" rate.
async fn rates_of(
    env: &Env<'_>,
    lines: &[LineItem],
    taxes: &[TaxRecord],
) -> Result<Vec<crm_core::tax_rate::TaxRate>, ApiError> {
    let mut ids: Vec<TaxRateId> = lines
        .iter()
        .filter_map(|l| l.tax_rate_id)
        .chain(taxes.iter().filter_map(|t| t.tax_rate_id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    Ok(env.store.tax_rates_named(&ids).await?)
}

/// The shown document a Factur-X PDF is made of.
enum Shown<'a> {
    Invoice(&'a crm_core::invoice::Invoice),
    CreditNote(&'a crm_core::credit_note::CreditNote),
}

/// The export of `source` in `format`, or its 422; a Factur-X PDF renders `shown`.
async fn export(
    env: &Env<'_>,
    source: Source<'_>,
    shown: Shown<'_>,
    rates: &Rates<'_>,
    format: Format,
) -> Result<Reply, ApiError> {
    let document = crm_einvoice::build(source, rates, format).map_err(ApiError::NotReady)?;
    let mut bytes = crm_einvoice::write(&document, format)
        .map_err(|e| ApiError::Internal(format!("cannot write an e-invoice: {e}")))?;
    if format == Format::Facturx {
        let page = match shown {
            Shown::Invoice(i) => env.documents.document::<InvoiceKind>(env.store, i).await?,
            Shown::CreditNote(c) => env.documents.credit_note_document(env.store, c).await?,
        };
        bytes = Box::pin(env.documents.facturx(page, bytes, document.issue_date)).await?;
    }
    let mut headers = HeaderMap::new();
    if let Ok(value) = HeaderValue::from_str(&format!(
        "attachment; filename=\"{}\"",
        format.file_name(&document.number)
    )) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    Ok(Reply {
        status: StatusCode::OK,
        body: bytes.into(),
        content_type: format.media_type(),
        headers,
        precompressed: None,
    })
}

/// The readiness of `source` in `format`.
fn readiness(source: Source<'_>, rates: &Rates<'_>, format: Format) -> Result<Reply, ApiError> {
    let missing = match crm_einvoice::build(source, rates, format) {
        Ok(_) => Vec::new(),
        Err(missing) => missing,
    };
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
    let id = req.id(InvoiceId::from_path, Resource::Invoice)?;
    let invoice = env.store.bills::<InvoiceKind>().get(req.ctx, id).await?;
    let format = format(&req)?;
    let rates = rates_of(env, &invoice.line_items, &invoice.taxes).await?;
    let shown = Shown::Invoice(&invoice);
    export(
        env,
        Source::invoice(&invoice),
        shown,
        &Rates::new(&rates),
        format,
    )
    .await
}

/// `GET /api/invoices/{id}/einvoice/readiness`.
pub(crate) async fn invoice_readiness(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(InvoiceId::from_path, Resource::Invoice)?;
    let invoice = env.store.bills::<InvoiceKind>().get(req.ctx, id).await?;
    let format = format(&req)?;
    let rates = rates_of(env, &invoice.line_items, &invoice.taxes).await?;
    readiness(Source::invoice(&invoice), &Rates::new(&rates), format)
}

/// `GET /api/credit-notes/{id}/einvoice`.
pub(crate) async fn credit_note(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CreditNoteId::from_path, Resource::CreditNote)?;
    let note = env.store.credit_note(req.ctx, id).await?;
    let format = format(&req)?;
    let rates = rates_of(env, &note.lines, &note.taxes).await?;
    let shown = Shown::CreditNote(&note);
    export(
        env,
        Source::credit_note(&note),
        shown,
        &Rates::new(&rates),
        format,
    )
    .await
}

/// `GET /api/credit-notes/{id}/einvoice/readiness`.
pub(crate) async fn credit_note_readiness(env: &Env<'_>, req: Req<'_>) -> Result<Reply, ApiError> {
    let id = req.id(CreditNoteId::from_path, Resource::CreditNote)?;
    let note = env.store.credit_note(req.ctx, id).await?;
    let format = format(&req)?;
    let rates = rates_of(env, &note.lines, &note.taxes).await?;
    readiness(Source::credit_note(&note), &Rates::new(&rates), format)
}
