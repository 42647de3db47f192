//! What a person sees of an estimate or invoice (issue 34, API.md §10 and §12): the email,
//! the client page and the PDF, all rendered from one [`Document`] whose figures are the
//! very text the API returns (crm-core's `Money` / `Percent` display).
//!
//! Pure like crm-core: no I/O, no clock, no network. The store renders the email when it
//! queues it; the service renders the page and the PDF when they are asked for.
//!
//! - [`document`]: the [`Document`], the view of one record as a person reads it, built
//!   from crm-core's records (the adapter is one file, [`document::from_core`]).
//! - [`text`]: the line-end and control-character rules every output shares.
//! - [`email`]: the text/plain and text/html alternatives (askama templates, CRLF only).
//! - [`page`]: the client page (`GET /c/{token}`), the 404, 409 and 429 pages, and the
//!   stylesheet with its CSP hash.
//! - [`pdf`]: the PDF (krilla, an embedded DejaVu Sans, A4 or US Letter).

pub mod document;
pub mod email;
pub mod money;
pub mod page;
pub mod pdf;
#[cfg(feature = "sample")]
pub mod sample;
pub mod text;

pub use document::{
    BillKind, Credits, Decision, DecisionKind, Document, DocumentLine, Due, TotalRow,
};
pub use email::Email;
pub use pdf::Paper;

/// Why something could not be rendered. Templates only fail when writing to a string fails
/// and the PDF when a font cannot be read, so none of these is expected in practice; they
/// are errors rather than panics because the service must answer anyway.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A template failed to render.
    #[error("template: {0}")]
    Template(#[from] askama::Error),
    /// The PDF could not be written.
    #[error("pdf: {0}")]
    Pdf(String),
}
