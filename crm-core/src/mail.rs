//! The outbox (API.md §10): who an estimate or invoice email goes to ([`recipient`]), the
//! queued emails as `GET /api/emails` shows them, and the delivery worker's retry rules.
//! The message itself is rendered by `crm-render` from the record as it is when the action
//! happens; headers that depend on the configuration (From) or on the outbox row
//! (Message-ID, Date) are added when sending.
//!
//! [`retry_after`] and [`classify`] are the worker's pure rules: exponential backoff with
//! jitter for temporary failures for up to [`RETRY_WINDOW_SECS`], then `failed`; a 5xx
//! reply fails at once. The caller supplies the time and the random jitter.

use crate::choice_enum;
use crate::input::{Form, read_choice, read_id};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::time::Timestamp;

/// Where the email goes, given the client's contact address: `None` when there is none
/// (or it is blank), and then no email is queued; the action still succeeds.
pub fn recipient(contact_email: Option<&str>) -> Option<&str> {
    contact_email.map(str::trim).filter(|e| !e.is_empty())
}

/// A queued email as `GET /api/emails` shows it (never the body).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Email {
    /// Outbox row id.
    pub id: i64,
    /// Where it goes.
    pub recipient: String,
    /// Its subject; `None` while its message is being composed (the moment after the
    /// write that queued it).
    pub subject: Option<String>,
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
    /// The names of the files it carries, in order: the record's PDF
    /// (`--mail-attach-pdf`), its e-invoice (`--mail-attach-einvoice`); empty while its
    /// message is being composed.
    pub attachments: Vec<String>,
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
        /// Credit note emails.
        CreditNote = "credit_note",
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
