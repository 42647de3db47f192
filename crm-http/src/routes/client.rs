//! The client's pages (API.md §12): `GET /c/{token}` (the record for a person),
//! `GET /c/{token}/pdf`, `GET /c/{token}/einvoice` (API.md §19: an issued invoice's or
//! credit note's e-invoice in the service's format, `--mail-attach-einvoice`), and
//! `POST /c/{token}/accept` / `decline`.
//!
//! No key: the token is the credential. Every bad link (unknown, replaced, revoked,
//! expired, a deleted record, a token of the wrong form) gets the same 404 page. Links
//! inside the pages are relative to the page (`<token>/accept` from `/c/<token>`,
//! `../<token>` from `/c/<token>/accept`), so they hold behind a proxy that mounts the
//! service under a path prefix.

use crm_core::bill::{EstimateKind, InvoiceKind};
use crm_core::estimate::decision::{self, Decision, DecisionRequest};
use crm_render::page::{self, PageView};
use crm_store_pg::client::{DecisionOutcome, Opened};
use http::{HeaderValue, StatusCode, header};

use super::{Env, Visit};
use crate::documents::rendering;
use crate::error::ApiError;
use crate::response::Reply;

/// `GET /c/{token}`: the record's page, with Accept and Decline for an estimate shown
/// `new` that was not converted into an invoice.
pub(crate) async fn page(env: &Env<'_>, visit: Visit<'_>) -> Result<Reply, ApiError> {
    let Some(opened) = env.store.open_link(visit.token, visit.today).await? else {
        return not_found(env);
    };
    let einvoice = einvoice_offered(env, &opened).await?;
    let (can_decide, version) = match &opened {
        Opened::Estimate(e, version) => (
            decision::can_decide(e.status, e.converted.is_converted),
            Some(version.as_str()),
        ),
        Opened::Invoice(_) | Opened::CreditNote(_) => (false, None),
    };
    let doc = document(env, &opened).await?;
    let view = PageView {
        base: visit.token,
        can_decide,
        version,
        einvoice: einvoice.map(crm_einvoice::Format::label),
    };
    let html = page::client_page(&doc, view).map_err(rendering)?;
    Ok(Reply::page(StatusCode::OK, html))
}

/// `GET /c/{token}/pdf`: the record as a PDF, rendered once per version
/// ([`crate::documents::pdfs`]), with its `ETag`.
pub(crate) async fn pdf(env: &Env<'_>, visit: Visit<'_>) -> Result<Reply, ApiError> {
    match env
        .documents
        .link_pdf(env.store, visit.token, visit.today)
        .await?
    {
        Some(pdf) => Ok(Reply::pdf(pdf)),
        None => not_found(env),
    }
}

/// The record a link opened, as its page and PDF show it.
async fn document(env: &Env<'_>, opened: &Opened) -> Result<crm_render::Document, ApiError> {
    match opened {
        Opened::Estimate(e, _) => env.documents.document::<EstimateKind>(env.store, e).await,
        Opened::Invoice(i) => env.documents.document::<InvoiceKind>(env.store, i).await,
        Opened::CreditNote(c) => env.documents.credit_note_document(env.store, c).await,
    }
}

/// The service's e-invoice format (`--mail-attach-einvoice`) and what the e-invoice of
/// `opened` is made from: `None` without a format, or for a record that has no e-invoice
/// (an estimate, an invoice not issued).
fn einvoice_of<'a>(
    env: &Env<'_>,
    opened: &'a Opened,
) -> Option<(crm_einvoice::Format, crm_einvoice::Source<'a>)> {
    let format = env.documents.presentation().einvoice?;
    let source = match opened {
        Opened::Estimate(..) => None,
        Opened::Invoice(i) => <InvoiceKind as crate::documents::Shown>::einvoice_source(i),
        Opened::CreditNote(c) => Some(crm_einvoice::Source::credit_note(c)),
    }?;
    Some((format, source))
}

/// The e-invoice format the page of `opened` offers: the service's, for an issued
/// document ready for it.
async fn einvoice_offered(
    env: &Env<'_>,
    opened: &Opened,
) -> Result<Option<crm_einvoice::Format>, ApiError> {
    let Some((format, source)) = einvoice_of(env, opened) else {
        return Ok(None);
    };
    let missing = env
        .documents
        .einvoice_missing(env.store, source, format)
        .await?;
    Ok(missing.is_empty().then_some(format))
}

/// `GET /c/{token}/einvoice`: the e-invoice the page offers, as a download; the bad-link
/// page when it offers none (an estimate, no format configured, a document not ready).
pub(crate) async fn einvoice(env: &Env<'_>, visit: Visit<'_>) -> Result<Reply, ApiError> {
    let Some(opened) = env.store.open_link(visit.token, visit.today).await? else {
        return not_found(env);
    };
    let Some((format, source)) = einvoice_of(env, &opened) else {
        return not_found(env);
    };
    let page = document(env, &opened);
    match env
        .documents
        .einvoice(env.store, source, format, page)
        .await
    {
        Ok(file) => Ok(super::einvoices::file_reply(file, format)),
        Err(ApiError::NotReady(_)) => not_found(env),
        Err(e) => Err(e),
    }
}

/// `POST /c/{token}/accept`.
pub(crate) async fn accept(env: &Env<'_>, visit: Visit<'_>) -> Result<Reply, ApiError> {
    decide(env, visit, Decision::Accepted).await
}

/// `POST /c/{token}/decline` (`reason` optional).
pub(crate) async fn decline(env: &Env<'_>, visit: Visit<'_>) -> Result<Reply, ApiError> {
    decide(env, visit, Decision::Declined).await
}

/// Records the decision: 303 back to the page, which then states it; the 409 page when
/// the estimate cannot be decided; the 404 page for a bad link (an invoice's link too:
/// its page has no buttons).
async fn decide(env: &Env<'_>, visit: Visit<'_>, decision: Decision) -> Result<Reply, ApiError> {
    let company = &env.documents.presentation().company;
    let back = format!("../{}", visit.token);
    let request = match DecisionRequest::parse(decision, &visit.body) {
        Ok(request) => request,
        Err(rejected) => {
            let problems = rejected
                .errors
                .iter()
                .flat_map(|(_, messages)| messages.iter().cloned())
                .collect();
            let html = page::invalid(company, problems, Some(&back)).map_err(rendering)?;
            return Ok(Reply::page(StatusCode::UNPROCESSABLE_ENTITY, html));
        }
    };
    let letterhead = env.documents.letterhead();
    match env
        .store
        .decide_by_link(visit.token, &request, visit.today, letterhead)
        .await?
    {
        DecisionOutcome::Recorded(notice) => {
            if let Some(notice) = notice {
                env.documents.compose_notice(env.store, &notice).await?;
            }
            let mut reply = Reply::page(StatusCode::SEE_OTHER, String::new());
            let location = HeaderValue::from_str(&back)
                .map_err(|_| ApiError::Internal("a link's location".into()))?;
            reply.headers.insert(header::LOCATION, location);
            Ok(reply)
        }
        DecisionOutcome::Refused(refusal) => {
            let html = page::refused(company, refusal, Some(&back)).map_err(rendering)?;
            Ok(Reply::page(StatusCode::CONFLICT, html))
        }
        DecisionOutcome::NotFound => not_found(env),
    }
}

/// The one answer to every bad link.
fn not_found(env: &Env<'_>) -> Result<Reply, ApiError> {
    let html = page::not_found(&env.documents.presentation().company).map_err(rendering)?;
    Ok(Reply::page(StatusCode::NOT_FOUND, html))
}
