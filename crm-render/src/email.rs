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
//!
//! [`decision_notice`] is the company's side: the email to an estimate's creator when its
//! client accepts or declines it.

use askama::Template;

use crate::RenderError;
use crate::document::Document;

/// A rendered email body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email {
    /// `Estimate #12 from Acme Co`, `Invoice #7 from Acme Co`.
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

#[derive(Template)]
#[template(path = "notice.txt", escape = "none")]
struct NoticeText<'a> {
    doc: &'a Document,
    sentence: &'a str,
    reason: Option<&'a str>,
}

#[derive(Template)]
#[template(path = "notice.html")]
struct NoticeHtml<'a> {
    doc: &'a Document,
    subject: &'a str,
    sentence: &'a str,
    reason: Option<&'a str>,
}

/// The notice to an estimate's creator that its client decided (API.md §12): subject
/// `Estimate #12 accepted by Acme Ltd`, the decision with its date and reason, the amount,
/// and the client's page. `None` when `doc` holds no decision.
pub fn decision_notice(doc: &Document) -> Result<Option<Email>, RenderError> {
    let Some(decision) = &doc.decision else {
        return Ok(None);
    };
    let word = decision.kind.word().to_lowercase();
    let subject = if doc.client.is_empty() {
        format!("{} {word} by the client", doc.title())
    } else {
        format!("{} {word} by {}", doc.title(), doc.client)
    };
    let sentence = if doc.client.is_empty() {
        format!("The client {word} {} on {}.", doc.title(), decision.day())
    } else {
        format!(
            "{} {word} {} on {}.",
            doc.client,
            doc.title(),
            decision.day()
        )
    };
    let reason = decision.reason.as_deref();
    let text = NoticeText {
        doc,
        sentence: &sentence,
        reason,
    }
    .render()?;
    let html = NoticeHtml {
        doc,
        subject: &subject,
        sentence: &sentence,
        reason,
    }
    .render()?;
    Ok(Some(Email {
        subject,
        text: crate::text::crlf(&text),
        html: crate::text::crlf(&html),
    }))
}

/// Renders the email of `doc` (pure: the same document gives the same email). The
/// subject names the company (`Estimate #12 from Acme Co`): in a client's inbox the
/// number alone does not say who sent it.
pub fn render(doc: &Document) -> Result<Email, RenderError> {
    let title = doc.title();
    let text = TextTemplate { doc, title: &title }.render()?;
    let html = HtmlTemplate { doc, title: &title }.render()?;
    let company = crate::text::one_line(&doc.company);
    let subject = if company.trim().is_empty() {
        title
    } else {
        format!("{title} from {company}")
    };
    Ok(Email {
        text: crate::text::crlf(&text),
        html: crate::text::crlf(&html),
        subject,
    })
}

#[cfg(test)]
mod tests;
