//! The email of an estimate or invoice (API.md §10, §12): the subject and the text/plain
//! and text/html alternatives, rendered when the email is queued.
//!
//! Each alternative greets the client, names the company, gives the link as the call to
//! action ("View and accept the estimate" / "View the invoice") when there is one, then
//! the record: dates, lines, the totals that are not zero and the final amount, notes and
//! terms. The number is in the subject and the first sentence, not repeated as
//! "Number: 12". The HTML part is an askama template (record text escaped by default),
//! styled inline since mail readers drop stylesheets. Both parts have CRLF line ends only,
//! whatever the record's text held ([`crate::text::crlf`]).

use askama::Template;

use crate::RenderError;
use crate::document::Document;

/// A rendered email body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email {
    /// `Estimate #12`, `Invoice #7`.
    pub subject: String,
    /// The text/plain alternative (CRLF line ends).
    pub text: String,
    /// The text/html alternative (CRLF line ends).
    pub html: String,
}

#[derive(Template)]
#[template(path = "email.txt", escape = "none")]
struct TextTemplate<'a> {
    doc: &'a Document,
    title: &'a str,
}

#[derive(Template)]
#[template(path = "email.html")]
struct HtmlTemplate<'a> {
    doc: &'a Document,
    title: &'a str,
}

/// Renders the email of `doc` (pure: the same document gives the same email).
pub fn render(doc: &Document) -> Result<Email, RenderError> {
    let title = doc.title();
    let text = TextTemplate { doc, title: &title }.render()?;
    let html = HtmlTemplate { doc, title: &title }.render()?;
    Ok(Email {
        text: crate::text::crlf(&text),
        html: crate::text::crlf(&html),
        subject: title,
    })
}

#[cfg(test)]
mod tests;
