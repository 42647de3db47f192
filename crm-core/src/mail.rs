//! The outbox: the message an estimate or invoice email carries, rendered from the record
//! as it is when the action happens (API.md §10), and the delivery worker's retry rules.
//!
//! [`render`] takes a [`Bill`] (what estimates and invoices have in common) and gives the
//! subject and the text/plain and text/html alternatives. Every value that comes from a
//! record is escaped in the HTML part ([`escape_html`]). Headers that depend on the
//! configuration (From) or on the outbox row (Message-ID, Date) are added when sending.
//!
//! [`retry_after`] and [`classify`] are the worker's pure rules: exponential backoff with
//! jitter for temporary failures for up to [`RETRY_WINDOW_SECS`], then `failed`; a 5xx
//! reply fails at once. The caller supplies the time and the random jitter.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::bill::{BillKind, BillTotals, LineItem, TaxRecord};
use crate::choice_enum;
use crate::input::{Form, read_choice, read_id};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::money::{Money, round_half_away};
use crate::time::Timestamp;
use crate::totals::TaxMode;

/// What a message is rendered from: the parts estimates and invoices share.
#[derive(Debug, Clone, Copy)]
pub struct Bill<'a> {
    /// Estimate or invoice.
    pub kind: BillKind,
    /// The record's id (the number).
    pub id: i64,
    /// The client's name.
    pub client_name: &'a str,
    /// The dates to show, labelled (`Date`, `Expiry date`, `Due date`), in order.
    pub dates: &'a [(&'static str, NaiveDate)],
    /// Summary or inline taxes.
    pub tax_type: TaxMode,
    /// Line items, in order.
    pub lines: &'a [LineItem],
    /// Tax records.
    pub taxes: &'a [TaxRecord],
    /// Totals.
    pub totals: &'a BillTotals,
    /// Notes.
    pub notes: Option<&'a str>,
    /// Terms.
    pub terms: Option<&'a str>,
}

/// A rendered message body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// `Estimate #12`.
    pub subject: String,
    /// The text/plain alternative.
    pub text: String,
    /// The text/html alternative.
    pub html: String,
}

/// The subject of a record's email: `Estimate #12`, `Invoice #7`.
pub fn subject(kind: BillKind, id: i64) -> String {
    format!("{} #{id}", kind.title())
}

/// Where the email goes, given the client's contact address: `None` when there is none
/// (or it is blank), and then no email is queued; the action still succeeds.
pub fn recipient(contact_email: Option<&str>) -> Option<&str> {
    contact_email.map(str::trim).filter(|e| !e.is_empty())
}

/// Escapes text for HTML element content and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text and keeps its line breaks (`<br>`).
fn escape_lines(text: &str) -> String {
    escape_html(text)
        .replace("\r\n", "\n")
        .replace('\n', "<br>\n")
}

impl<'a> Bill<'a> {
    /// The totals to show, labelled, in order: those that are not zero (subtotal,
    /// discount, each tax, adjustment); the final amount is separate. In summary mode the
    /// discount (negative) and the taxes apply to the subtotal; in inline mode the lines'
    /// totals, and so the subtotal, already include their discounts and taxes (TOTALS.md),
    /// so those rows say "included" and the discount is shown as the positive amount it
    /// was, and the rows still add up to the total.
    pub fn total_rows(&self) -> Vec<(String, Money)> {
        let t = &self.totals.figures;
        let mut rows = Vec::new();
        if !t.subtotal.get().is_zero() {
            rows.push(("Subtotal".to_owned(), t.subtotal));
        }
        if !t.discount_amount.get().is_zero() {
            rows.push(match self.tax_type {
                TaxMode::Summary => (
                    "Discount".to_owned(),
                    Money::new(-t.discount_amount.get()).unwrap_or(t.discount_amount),
                ),
                TaxMode::Inline => ("Discounts included".to_owned(), t.discount_amount),
            });
        }
        for (label, amount) in self.tax_rows() {
            if !amount.get().is_zero() {
                rows.push((label, amount));
            }
        }
        if !t.adjustment_amount.get().is_zero() {
            let label = match self.totals.adjustment_description.as_deref().map(str::trim) {
                Some(d) if !d.is_empty() => format!("Adjustment ({d})"),
                _ => "Adjustment".to_owned(),
            };
            rows.push((label, t.adjustment_amount));
        }
        rows
    }

    /// One row per tax: summary taxes apply to the amount before tax; inline taxes are the
    /// tax part of the lines that carry them (their totals include it, and the label says
    /// so), grouped by rate.
    fn tax_rows(&self) -> Vec<(String, Money)> {
        let hundred = Decimal::ONE_HUNDRED;
        let label = |t: &TaxRecord| match self.tax_type {
            TaxMode::Summary => format!("{} ({}%)", t.name, t.rate),
            TaxMode::Inline => format!("{} ({}%) included", t.name, t.rate),
        };
        match self.tax_type {
            TaxMode::Summary => self
                .taxes
                .iter()
                .filter(|t| t.lineitem_id.is_none())
                .map(|t| {
                    let base = self.totals.figures.amount_before_tax.get();
                    let amount = round_half_away(base * t.rate.get() / hundred, 2);
                    (label(t), Money::new(amount).unwrap_or(Money::ZERO))
                })
                .collect(),
            TaxMode::Inline => {
                let mut grouped: BTreeMap<String, Decimal> = BTreeMap::new();
                let mut order: Vec<String> = Vec::new();
                for t in self.taxes {
                    let Some(line) = self.lines.iter().find(|l| Some(l.id) == t.lineitem_id) else {
                        continue;
                    };
                    let rate = t.rate.get();
                    let part = line.total.get() * rate / (hundred + rate);
                    let key = label(t);
                    if !grouped.contains_key(&key) {
                        order.push(key.clone());
                    }
                    *grouped.entry(key).or_default() += part;
                }
                order
                    .into_iter()
                    .map(|key| {
                        let sum = grouped.get(&key).copied().unwrap_or_default();
                        let amount = Money::new(round_half_away(sum, 2)).unwrap_or(Money::ZERO);
                        (key, amount)
                    })
                    .collect()
            }
        }
    }
}

/// `2.00 hours × 50.00`, or `2.00 × 50.00` without a unit.
fn quantity_text(line: &LineItem) -> String {
    match line.unit.as_deref().map(str::trim) {
        Some(unit) if !unit.is_empty() => format!("{} {unit}", line.quantity),
        _ => line.quantity.to_string(),
    }
}

/// Renders the message of `bill` (pure: the same record gives the same message).
pub fn render(bill: &Bill<'_>) -> Rendered {
    let subject = subject(bill.kind, bill.id);
    let rows = bill.total_rows();
    let final_amount = bill.totals.figures.final_amount;

    // text/plain
    let mut text = String::new();
    let _ = writeln!(text, "{subject}");
    let _ = writeln!(text);
    let _ = writeln!(text, "Client: {}", bill.client_name);
    let _ = writeln!(text, "Number: {}", bill.id);
    for (label, date) in bill.dates {
        let _ = writeln!(text, "{label}: {date}");
    }
    let _ = writeln!(text);
    let _ = writeln!(text, "Items:");
    for line in bill.lines {
        let _ = writeln!(
            text,
            "{}. {}: {} x {} = {}",
            line.position,
            line.description,
            quantity_text(line),
            line.rate,
            line.total
        );
        if let Some(long) = line.long_description.as_deref().filter(|s| !s.is_empty()) {
            for l in long.lines() {
                let _ = writeln!(text, "   {l}");
            }
        }
    }
    let _ = writeln!(text);
    for (label, amount) in &rows {
        let _ = writeln!(text, "{label}: {amount}");
    }
    let _ = writeln!(text, "Total: {final_amount}");
    for (title, body) in [("Notes", bill.notes), ("Terms", bill.terms)] {
        if let Some(body) = body.filter(|s| !s.trim().is_empty()) {
            let _ = writeln!(text);
            let _ = writeln!(text, "{title}:");
            let _ = writeln!(text, "{body}");
        }
    }

    // text/html: every record value goes through escape_html.
    let e = escape_html;
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title></head><body>\n",
        e(&subject)
    );
    let _ = writeln!(html, "<h1>{}</h1>", e(&subject));
    let _ = writeln!(html, "<p>Client: {}<br>", e(bill.client_name));
    let _ = writeln!(html, "Number: {}", bill.id);
    for (label, date) in bill.dates {
        let _ = write!(html, "<br>\n{}: {}", e(label), e(&date.to_string()));
    }
    let _ = writeln!(html, "</p>");
    let _ = writeln!(
        html,
        "<table border=\"1\" cellpadding=\"4\" cellspacing=\"0\">\n<thead><tr><th>#</th><th>Description</th><th>Quantity</th><th>Unit</th><th>Rate</th><th>Total</th></tr></thead>\n<tbody>"
    );
    for line in bill.lines {
        let long = line
            .long_description
            .as_deref()
            .filter(|s| !s.is_empty())
            .map(|s| format!("<br><small>{}</small>", escape_lines(s)))
            .unwrap_or_default();
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}{long}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            line.position,
            e(&line.description),
            e(&line.quantity.to_string()),
            e(line.unit.as_deref().unwrap_or("")),
            e(&line.rate.to_string()),
            e(&line.total.to_string()),
        );
    }
    let _ = writeln!(html, "</tbody>\n</table>\n<table cellpadding=\"4\">");
    for (label, amount) in &rows {
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td></tr>",
            e(label),
            e(&amount.to_string())
        );
    }
    let _ = writeln!(
        html,
        "<tr><td><strong>Total</strong></td><td><strong>{}</strong></td></tr>\n</table>",
        e(&final_amount.to_string())
    );
    for (title, body) in [("Notes", bill.notes), ("Terms", bill.terms)] {
        if let Some(body) = body.filter(|s| !s.trim().is_empty()) {
            let _ = writeln!(html, "<h2>{title}</h2>\n<p>{}</p>", escape_lines(body));
        }
    }
    html.push_str("</body></html>\n");

    Rendered {
        subject,
        text,
        html,
    }
}

/// A queued email as `GET /api/emails` shows it (never the body).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Email {
    /// Outbox row id.
    pub id: i64,
    /// Where it goes.
    pub recipient: String,
    /// Its subject.
    pub subject: String,
    /// `pending`, `sent` or `failed`.
    pub status: EmailStatus,
    /// Delivery attempts made so far.
    pub attempts: i32,
    /// The last failure (the server's reply or the connection error), if any.
    pub last_error: Option<String>,
    /// What it is about.
    pub resource: EmailResource,
    /// When it was queued, when it is next tried, when it was sent.
    pub dates: EmailDates,
}

/// `resource: {type, id}` of an email.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EmailResource {
    /// `estimate` or `invoice`.
    #[serde(rename = "type")]
    pub resource_type: String,
    /// The record's id.
    pub id: i64,
}

/// `dates: {created, next_attempt, sent}` of an email.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct EmailDates {
    /// When it was queued.
    pub created: Timestamp,
    /// When the worker tries it next (pending only).
    pub next_attempt: Option<Timestamp>,
    /// When the mail server accepted it.
    pub sent: Option<Timestamp>,
}

choice_enum!(
    /// An outbox row's status.
    pub enum EmailStatus {
        /// Waiting for (another) delivery attempt.
        Pending = "pending",
        /// Accepted by the mail server.
        Sent = "sent",
        /// Given up: a permanent refusal, or temporary failures for a whole day.
        Failed = "failed",
    }
);

choice_enum!(
    /// The `resource_type` filter of the email list.
    pub enum EmailResourceType {
        /// Estimate emails.
        Estimate = "estimate",
        /// Invoice emails.
        Invoice = "invoice",
    }
);

choice_enum!(
    /// Sort keys of the email list.
    pub enum EmailSort {
        /// By queuing time.
        Created = "email_created",
        /// By sending time (unsent last in ascending order, first in descending).
        Sent = "email_sent",
    }
);

/// `GET /emails`: paging, order, sort (search is read but the list has no searched
/// fields), and [`EmailFilters`].
pub type EmailListQuery = ListQuery<EmailFilters>;

/// The email list's filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailFilters {
    /// `status` filter.
    pub status: Option<EmailStatus>,
    /// `resource_type` filter.
    pub resource_type: Option<EmailResourceType>,
    /// `resource_id` filter.
    pub resource_id: Option<i64>,
}

impl ListFilters for EmailFilters {
    const LIST: &'static str = "emails";
    type Sort = EmailSort;

    fn read(form: &mut Form<'_>) -> Self {
        EmailFilters {
            status: form.optional("status", read_choice::<EmailStatus>),
            resource_type: form.optional("resource_type", read_choice::<EmailResourceType>),
            resource_id: form.optional("resource_id", read_id),
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}|{}",
            self.status.map_or("", |s| s.as_str()),
            self.resource_type.map_or("", |t| t.as_str()),
            self.resource_id.map_or(String::new(), |id| id.to_string())
        )
    }

    fn key_kind(_sort: Option<EmailSort>) -> KeyKind {
        KeyKind::Integer
    }
}

/// How long temporary failures are retried, counted from the row's creation: one day.
pub const RETRY_WINDOW_SECS: i64 = 24 * 60 * 60;
/// The first retry's base delay.
pub const FIRST_RETRY_SECS: i64 = 1;
/// The largest delay between two attempts.
pub const MAX_RETRY_SECS: i64 = 30 * 60;

/// How a delivery attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The server accepted the message (a 2xx reply to the end of data).
    Sent,
    /// Worth trying again: no connection, a timeout, a 4xx reply.
    Temporary(String),
    /// Not worth trying again: a 5xx reply (or a message that cannot be built).
    Permanent(String),
}

/// What a failure is, from the SMTP reply code when there was one.
pub fn classify(reply_code: Option<u16>, error: String) -> Outcome {
    match reply_code {
        Some(code) if (500..600).contains(&code) => Outcome::Permanent(error),
        _ => Outcome::Temporary(error),
    }
}

/// What to do with a row after a temporary failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Try again at this time.
    At(chrono::DateTime<chrono::Utc>),
    /// The day is over: mark it `failed`.
    GiveUp,
}

/// After the `attempts`-th failed attempt (1 for the first) of a row created at
/// `created`, failing at `now`: exponential backoff (1 s, 2 s, 4 s, … capped at
/// [`MAX_RETRY_SECS`]) with "equal jitter" — half the delay fixed, the other half scaled by
/// `jitter` in `[0, 1)` — until [`RETRY_WINDOW_SECS`] after creation, then give up.
pub fn retry_after(
    attempts: i32,
    created: chrono::DateTime<chrono::Utc>,
    now: chrono::DateTime<chrono::Utc>,
    jitter: f64,
) -> Retry {
    let exp = u32::try_from(attempts.saturating_sub(1).clamp(0, 30)).unwrap_or(30);
    let base_ms = (FIRST_RETRY_SECS * 1000)
        .saturating_mul(1_i64 << exp)
        .min(MAX_RETRY_SECS * 1000);
    let jitter = if jitter.is_finite() {
        jitter.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let half = base_ms / 2;
    // `half` is at most 900_000, exactly representable; the product stays below it.
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
    let jittered = half + (half as f64 * jitter) as i64;
    let next = now + chrono::Duration::milliseconds(jittered.max(1));
    let deadline = created + chrono::Duration::seconds(RETRY_WINDOW_SECS);
    if next > deadline {
        Retry::GiveUp
    } else {
        Retry::At(next)
    }
}

#[cfg(test)]
mod tests;
