//! The client's pages (API.md §12): the record's page (`GET /c/{token}`), and the pages
//! that explain a bad link (404), a refused decision (409) and too many requests (429).
//!
//! Full HTML5 documents made for a person: responsive (a stacked table below 40rem),
//! printable (`@media print` hides the forms), no JavaScript at all, accessible (a `lang`,
//! landmarks, captions, `scope`d headers, labelled fields, contrast of at least 4.5:1). The
//! stylesheet is one `<style>` element whose hash is [`STYLE_HASH`], so the service's
//! Content-Security-Policy ([`CONTENT_SECURITY_POLICY`]) allows it and nothing else:
//! no script, no inline style attribute, no other origin.
//!
//! Escaping is askama's, on for every `.html` template: record text cannot become markup.

use askama::Template;

use crate::RenderError;
use crate::document::Document;

/// Expands to the stylesheet's CSP source; one literal for the two constants below.
macro_rules! style_hash {
    () => {
        "sha256-ErUQz2VUQZ7+80CXtH/4S8GsvjNbTxtQZZwHoNDh98w="
    };
}

/// The stylesheet every page carries in its `<style>` element.
pub const STYLESHEET: &str = include_str!("../templates/page.css");

/// The CSP source that allows [`STYLESHEET`] as an inline `<style>`:
/// `'sha256-<base64 of its SHA-256>'` without the quotes (a test checks it).
pub const STYLE_HASH: &str = style_hash!();

/// A Content-Security-Policy for the pages: nothing by default, the one stylesheet, forms
/// posting to the same origin only, no framing, no `<base>` (API.md §12).
pub const CONTENT_SECURITY_POLICY: &str = concat!(
    "default-src 'none'; style-src '",
    style_hash!(),
    "'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
);

/// The longest decline reason the form lets a client type (API.md §12).
pub const REASON_MAX_CHARS: usize = 1000;

/// What the page needs besides the document.
#[derive(Debug, Clone, Copy)]
pub struct PageView<'a> {
    /// The link's path, `/c/<token>`: the forms post to `<base>/accept` and
    /// `<base>/decline`, the PDF is `<base>/pdf`.
    pub base: &'a str,
    /// Whether to offer Accept and Decline: an estimate whose shown status is `new`. The
    /// service decides; an invoice's page never has them.
    pub can_decide: bool,
    /// The version of the offer the page shows, which the forms send with a decision
    /// (API.md §18: a decision on an offer that changed since is refused).
    pub version: Option<&'a str>,
    /// The name of the e-invoice the page offers for download at `<base>/einvoice`
    /// (`None`: none; the service offers one for an issued document that is ready for
    /// its format).
    pub einvoice: Option<&'a str>,
}

#[derive(Template)]
#[template(path = "page.html")]
struct PageTemplate<'a> {
    company: &'a str,
    css: &'static str,
    title: String,
    doc: &'a Document,
    base: &'a str,
    can_decide: bool,
    version: Option<&'a str>,
    einvoice: Option<&'a str>,
    reason_max: usize,
}

/// The record's page.
pub fn client_page(doc: &Document, view: PageView<'_>) -> Result<String, RenderError> {
    let can_decide = view.can_decide && doc.kind == crate::BillKind::Estimate;
    Ok(PageTemplate {
        company: &doc.company,
        css: STYLESHEET,
        title: doc.title(),
        doc,
        base: view.base,
        can_decide,
        version: view.version,
        einvoice: view.einvoice,
        reason_max: REASON_MAX_CHARS,
    }
    .render()?)
}

#[derive(Template)]
#[template(path = "message.html")]
struct MessageTemplate<'a> {
    company: &'a str,
    css: &'static str,
    heading: &'a str,
    paragraphs: Vec<String>,
    back: Option<&'a str>,
}

fn message(
    company: &str,
    heading: &str,
    paragraphs: Vec<String>,
    back: Option<&str>,
) -> Result<String, RenderError> {
    Ok(MessageTemplate {
        company,
        css: STYLESHEET,
        heading,
        paragraphs,
        back,
    }
    .render()?)
}

/// The heading of the 404 page, one answer for every bad link (API.md §12).
pub const NOT_FOUND: &str = "This link is no longer valid.";

/// The 404 page: an unknown, rotated, revoked or expired link, or a deleted record. It
/// says the same for all of them, so it tells nothing about which tokens existed.
pub fn not_found(company: &str) -> Result<String, RenderError> {
    let company = crate::text::one_line(company);
    message(
        &company,
        NOT_FOUND,
        vec![format!(
            "It may have expired or been replaced by a newer one. Please ask {company} to send you a new link."
        )],
        None,
    )
}

pub use crm_core::estimate::decision::Refusal;

/// Why a decision was refused, in a sentence.
fn refusal_reason(refusal: Refusal) -> &'static str {
    match refusal {
        Refusal::AlreadyDecided => "This estimate has already been answered.",
        Refusal::Expired => "This estimate has expired.",
        Refusal::Revised => "This estimate has been revised and replaced.",
        Refusal::Draft => "This estimate is being prepared again and is not open for a decision.",
        Refusal::Converted => "This estimate has already been turned into an invoice.",
        Refusal::Changed => {
            "It changed after the page you answered from was shown, so your answer was not recorded."
        }
    }
}

/// The heading of the 409 page when the estimate changed since its page was shown
/// (API.md §18).
pub const CHANGED: &str = "This estimate was revised; please review it again.";

/// The heading of the 409 page.
pub const REFUSED: &str = "This estimate can no longer be accepted or declined.";

/// The 409 page: the decision was not recorded, and why. `base` (`/c/<token>`) links back
/// to the estimate's page.
pub fn refused(company: &str, refusal: Refusal, base: Option<&str>) -> Result<String, RenderError> {
    let company = crate::text::one_line(company);
    let heading = match refusal {
        Refusal::Changed => CHANGED,
        _ => REFUSED,
    };
    message(
        &company,
        heading,
        vec![
            format!("{} Nothing was changed.", refusal_reason(refusal)),
            format!("Please contact {company} if you have a question about it."),
        ],
        base,
    )
}

/// The heading of the 422 page.
pub const NOT_RECORDED: &str = "Your answer was not recorded.";

/// The 422 page: the form's fields were not acceptable (a reason longer than the form
/// allows, sent by something other than the form). `back` links to the estimate.
pub fn invalid(
    company: &str,
    problems: Vec<String>,
    back: Option<&str>,
) -> Result<String, RenderError> {
    let company = crate::text::one_line(company);
    message(&company, NOT_RECORDED, problems, back)
}

/// The heading of the 429 page.
pub const TOO_MANY_REQUESTS: &str = "Too many requests";

/// The 429 page, with the wait the `Retry-After` header gives.
pub fn too_many_requests(company: &str, retry_after_secs: u64) -> Result<String, RenderError> {
    let company = crate::text::one_line(company);
    let wait = match retry_after_secs {
        0 | 1 => "a second".to_owned(),
        n => format!("{n} seconds"),
    };
    message(
        &company,
        TOO_MANY_REQUESTS,
        vec![format!(
            "This page was asked for too often from your address. Please wait {wait} and try again."
        )],
        None,
    )
}

#[cfg(test)]
mod tests;
