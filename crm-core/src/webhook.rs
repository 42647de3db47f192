//! Webhooks (`/api/webhooks`, API.md §13): endpoints that other systems register, the
//! events the service reports to them, and the rules of their delivery (Standard Webhooks
//! 1.0). Everything here is pure: the URL rules, the address classes a delivery may not
//! reach, the retry schedule and the disable rule take what they judge (and the time) as
//! parameters; the store writes events and deliveries, the worker sends them.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use chrono::Duration;
use serde::Serialize;

use crate::choice::Choice;
use crate::choice_enum;
use crate::ids::{WebhookDeliveryId, WebhookId};
use crate::input::{Form, RawMap, RawValue, TextRule, read_choice, text};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::time::Timestamp;
use crate::validation::{FieldErrors, Rejected, message};

mod access;
pub use access::{Audience, unreadable_message};

choice_enum!(
    /// What happened: the `type` of an event, and what an endpoint subscribes to.
    pub enum EventType {
        /// A category was created.
        CategoryCreated = "category.created",
        /// A category was changed (its fields, its team, or records moved to it).
        CategoryUpdated = "category.updated",
        /// A category was deleted.
        CategoryDeleted = "category.deleted",
        /// A contract was created (or cloned).
        ContractCreated = "contract.created",
        /// A contract was changed.
        ContractUpdated = "contract.updated",
        /// A contract was deleted.
        ContractDeleted = "contract.deleted",
        /// An estimate was created.
        EstimateCreated = "estimate.created",
        /// An estimate was changed (fields, items, tags, status, client link).
        EstimateUpdated = "estimate.updated",
        /// An estimate was deleted.
        EstimateDeleted = "estimate.deleted",
        /// An estimate was published.
        EstimatePublished = "estimate.published",
        /// An estimate's email was queued.
        EstimateEmailed = "estimate.emailed",
        /// An estimate was accepted (by the client on its page, or set so).
        EstimateAccepted = "estimate.accepted",
        /// An estimate was declined (by the client on its page, or set so).
        EstimateDeclined = "estimate.declined",
        /// An estimate was converted to an invoice (`data` is the invoice).
        EstimateConverted = "estimate.converted",
        /// An invoice was created (also by converting an estimate).
        InvoiceCreated = "invoice.created",
        /// An invoice was changed (fields, items, tags, status, payments, client link).
        InvoiceUpdated = "invoice.updated",
        /// An invoice was deleted.
        InvoiceDeleted = "invoice.deleted",
        /// An invoice was published.
        InvoicePublished = "invoice.published",
        /// An invoice's email was queued.
        InvoiceEmailed = "invoice.emailed",
        /// An invoice became paid in full.
        InvoicePaid = "invoice.paid",
        /// A milestone was created.
        MilestoneCreated = "milestone.created",
        /// A milestone was changed (also its position).
        MilestoneUpdated = "milestone.updated",
        /// A milestone was deleted.
        MilestoneDeleted = "milestone.deleted",
        /// A note was created.
        NoteCreated = "note.created",
        /// A note was changed.
        NoteUpdated = "note.updated",
        /// A note was deleted.
        NoteDeleted = "note.deleted",
        /// A payment was recorded.
        PaymentCreated = "payment.created",
        /// A payment was deleted.
        PaymentDeleted = "payment.deleted",
        /// An email was accepted by the mail server.
        EmailSent = "email.sent",
        /// An email was given up.
        EmailFailed = "email.failed",
        /// `POST /api/webhooks/{id}/test`: sent to that endpoint alone.
        WebhookTest = "webhook.test",
    }
);

/// Subscribes to every event.
pub const ALL_EVENTS: &str = "*";
/// The prefix of a secret (`whsec_` + base64 of 32 random bytes).
pub const SECRET_PREFIX: &str = "whsec_";
/// How many random bytes a secret holds.
pub const SECRET_BYTES: usize = 32;
/// How long deliveries carry a signature by the previous secret after a rotation.
pub const ROTATION_OVERLAP: Duration = Duration::hours(24);
/// The longest URL accepted.
pub const MAX_URL_CHARS: usize = 2048;
/// The most event types one endpoint lists.
pub const MAX_EVENTS: usize = 64;
/// How long an endpoint may fail every delivery before it is disabled.
pub const DISABLE_AFTER: Duration = Duration::days(5);
/// The waits between attempts (API.md §13): after the first failure 5 s, then 5 min,
/// 30 min, 2 h, 5 h, 10 h and 10 h; after the eighth attempt the delivery is failed.
pub const RETRY_SCHEDULE: [Duration; 7] = [
    Duration::seconds(5),
    Duration::minutes(5),
    Duration::minutes(30),
    Duration::hours(2),
    Duration::hours(5),
    Duration::hours(10),
    Duration::hours(10),
];
/// The most attempts of one delivery.
pub const MAX_ATTEMPTS: u32 = RETRY_SCHEDULE.len() as u32 + 1;
/// The longest wait a `Retry-After` may ask for (the schedule's longest step).
pub const MAX_RETRY_AFTER: Duration = Duration::hours(10);

impl EventType {
    /// The area this event is about (`estimate` for `estimate.published`).
    pub fn area(self) -> &'static str {
        let text = self.as_str();
        text.split_once('.').map_or(text, |(area, _)| area)
    }
}

/// What happened to an estimate or an invoice, for [`bill_event`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillAction {
    /// Created.
    Created,
    /// Changed.
    Updated,
    /// Deleted.
    Deleted,
    /// Published.
    Published,
    /// Its email was queued.
    Emailed,
}

/// The event type of `action` on a bill of `kind`.
pub fn bill_event(kind: crate::bill::BillKind, action: BillAction) -> EventType {
    use crate::bill::BillKind::{Estimate, Invoice};
    match (kind, action) {
        (Estimate, BillAction::Created) => EventType::EstimateCreated,
        (Estimate, BillAction::Updated) => EventType::EstimateUpdated,
        (Estimate, BillAction::Deleted) => EventType::EstimateDeleted,
        (Estimate, BillAction::Published) => EventType::EstimatePublished,
        (Estimate, BillAction::Emailed) => EventType::EstimateEmailed,
        (Invoice, BillAction::Created) => EventType::InvoiceCreated,
        (Invoice, BillAction::Updated) => EventType::InvoiceUpdated,
        (Invoice, BillAction::Deleted) => EventType::InvoiceDeleted,
        (Invoice, BillAction::Published) => EventType::InvoicePublished,
        (Invoice, BillAction::Emailed) => EventType::InvoiceEmailed,
    }
}

/// The addresses a delivery may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UrlRules {
    /// `http://` URLs are accepted (`--webhook-allow-http`); else `https://` only.
    pub allow_http: bool,
    /// Loopback, private, link-local, multicast and unspecified addresses are accepted
    /// (`--webhook-allow-private`).
    pub allow_private: bool,
}

/// Whether a webhook may not be sent to this address unless private addresses are allowed:
/// anything that is not a public unicast address. IPv4: 0/8 ("this network", 0.0.0.0),
/// 10/8, 100.64/10 (shared, CGNAT), 127/8, 169.254/16, 172.16/12, 192.0.0/24 (protocol
/// assignments), the documentation ranges 192.0.2/24, 198.51.100/24 and 203.0.113/24,
/// 192.88.99/24 (6to4 relays), 192.168/16, 198.18/15 (benchmarking), 224/4 (multicast),
/// 240/4 (reserved, with 255.255.255.255). IPv6: `::` and `::1`, IPv4-mapped
/// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4
/// (`2002::/16`) addresses by the IPv4 address inside, `64:ff9b:1::/48`, `100::/64`
/// (discard), `2001::/32` (Teredo), `2001:2::/48` (benchmarking), `2001:db8::/32` and
/// `3fff::/20` (documentation), `fc00::/7` (unique local), `fe80::/10` (link-local),
/// `fec0::/10` (site-local), `ff00::/8` (multicast).
pub fn forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    a == 0
        || a == 10
        || (a == 100 && (64..128).contains(&b))
        || a == 127
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 0 && (c == 0 || c == 2))
        || (a == 192 && b == 88 && c == 99)
        || (a == 192 && b == 168)
        || (a == 198 && (b == 18 || b == 19))
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113)
        || a >= 224
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    let embedded = |hi: u16, lo: u16| {
        let [a, b] = hi.to_be_bytes();
        let [c, d] = lo.to_be_bytes();
        Ipv4Addr::new(a, b, c, d)
    };
    // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, which includes :: and ::1).
    if s[0..5] == [0; 5] && (s[5] == 0xffff || s[5] == 0) {
        return s[5] == 0 || forbidden_v4(embedded(s[6], s[7]));
    }
    match s[0] {
        // NAT64, well-known prefix (64:ff9b::/96) and local-use (64:ff9b:1::/48).
        0x0064 if s[1] == 0xff9b => {
            s[2] == 1 || (s[2..6] == [0; 4] && forbidden_v4(embedded(s[6], s[7])))
        }
        0x0100 => s[1..4] == [0; 3],
        0x2001 => s[1] == 0 || (s[1] == 2 && s[2] == 0) || s[1] == 0x0db8,
        0x2002 => forbidden_v4(embedded(s[1], s[2])),
        0x3fff => s[1] < 0x1000,
        _ => {
            (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || (s[0] & 0xffc0) == 0xfec0
                || (s[0] & 0xff00) == 0xff00
        }
    }
}

/// Checks a webhook URL under `rules`: an absolute `https://` (or, when allowed,
/// `http://`) URL of at most 2048 characters with a host, no user name or password and no
/// fragment; an address literal (or `localhost`) must not be a forbidden destination
/// unless private destinations are allowed. A host name is checked again on its resolved
/// addresses at every delivery. The error is the field's message.
pub fn check_url(field: &str, text: &str, rules: UrlRules) -> Result<String, String> {
    let attribute = crate::validation::attribute(field);
    let invalid = || format!("The {attribute} must be a valid URL.");
    if text.chars().count() > MAX_URL_CHARS {
        return Err(message::max_chars(field, MAX_URL_CHARS));
    }
    let url = url::Url::parse(text).map_err(|_| invalid())?;
    match url.scheme() {
        "https" => {}
        "http" if rules.allow_http => {}
        "http" => return Err(format!("The {attribute} must start with https://.")),
        _ => return Err(invalid()),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!(
            "The {attribute} may not contain a user name or password."
        ));
    }
    if url.fragment().is_some() {
        return Err(format!("The {attribute} may not contain a fragment."));
    }
    let private = match url.host() {
        None => return Err(invalid()),
        Some(url::Host::Ipv4(ip)) => forbidden(IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => forbidden(IpAddr::V6(ip)),
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.');
            name.eq_ignore_ascii_case("localhost")
                || name.to_ascii_lowercase().ends_with(".localhost")
        }
    };
    if private && !rules.allow_private {
        return Err(format!(
            "The {attribute} may not point to a private, loopback or link-local address."
        ));
    }
    Ok(url.to_string())
}

/// Reads a boolean as Laravel's `boolean` rule does: `true`, `false`, `1`, `0`, `"1"`,
/// `"0"`, `"true"`, `"false"`; anything else → "The … field must be true or false.".
pub fn read_bool(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<bool> {
    let parsed = match value {
        RawValue::Bool(b) => Some(*b),
        RawValue::Number(n) | RawValue::Text(n) => match n.trim() {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        },
        _ => None,
    };
    if parsed.is_none() {
        errors.add(
            field,
            format!(
                "The {} field must be true or false.",
                crate::validation::attribute(field)
            ),
        );
    }
    parsed
}

/// What an endpoint subscribes to: every event, or the listed types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subscription {
    /// `["*"]`.
    All,
    /// The listed types, each once, in the order given.
    Only(Vec<EventType>),
}

impl Subscription {
    /// Whether an event of `kind` is delivered under this subscription
    /// (`webhook.test` is sent only by its own request, whatever the subscription).
    pub fn includes(&self, kind: EventType) -> bool {
        match self {
            Subscription::All => true,
            Subscription::Only(kinds) => kinds.contains(&kind),
        }
    }

    /// The texts, as stored and shown.
    pub fn texts(&self) -> Vec<String> {
        match self {
            Subscription::All => vec![ALL_EVENTS.to_owned()],
            Subscription::Only(kinds) => kinds.iter().map(|k| k.as_str().to_owned()).collect(),
        }
    }

    /// The subscription of stored texts ([`Subscription::texts`]): `*` is every event; a
    /// type this version does not know (written by a newer one) is skipped.
    pub fn stored<S: AsRef<str>>(texts: &[S]) -> Subscription {
        if texts.iter().any(|t| t.as_ref() == ALL_EVENTS) {
            return Subscription::All;
        }
        Subscription::Only(
            texts
                .iter()
                .filter_map(|t| t.as_ref().parse().ok())
                .collect(),
        )
    }

    /// Reads `events`: a non-empty array of event types or `*`.
    fn read(form: &mut Form<'_>, required: bool) -> Option<Subscription> {
        let items = form.list("events", required, MAX_EVENTS)?;
        if items.is_empty() {
            form.error("events", message::required("events"));
            return None;
        }
        let mut all = false;
        let mut kinds = Vec::new();
        let mut ok = true;
        for (i, value) in items {
            let field = format!("events.{i}");
            if matches!(value, RawValue::Text(t) if t.trim() == ALL_EVENTS) {
                all = true;
                continue;
            }
            match form.element(&field, value, read_choice::<EventType>) {
                Some(EventType::WebhookTest) => {
                    form.error_at(&field, message::invalid(&field));
                    ok = false;
                }
                Some(kind) if !kinds.contains(&kind) => kinds.push(kind),
                Some(_) => {}
                None => ok = false,
            }
        }
        match (ok, all) {
            (false, _) => None,
            (true, true) => Some(Subscription::All),
            (true, false) => Some(Subscription::Only(kinds)),
        }
    }
}

/// The event types an endpoint may list (every type but `webhook.test`), for documents.
pub fn subscribable() -> impl Iterator<Item = EventType> {
    <EventType as Choice>::CHOICES
        .iter()
        .map(|(_, kind)| *kind)
        .filter(|kind| *kind != EventType::WebhookTest)
}

/// An endpoint's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WebhookDates {
    /// When it was registered.
    pub created: Timestamp,
    /// When it was disabled (by a `410`, five days of failures, or `enabled=false`).
    pub disabled: Option<Timestamp>,
}

/// A webhook endpoint as the API shows it (never its secret, but on creation and
/// rotation: [`WebhookWithSecret`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Webhook {
    /// Endpoint id.
    pub id: WebhookId,
    /// Where events are posted.
    pub url: String,
    /// What it is for.
    pub description: Option<String>,
    /// The event types it receives, or `["*"]`.
    pub events: Vec<String>,
    /// Whether events are delivered to it.
    pub enabled: bool,
    /// Its dates.
    pub dates: WebhookDates,
    /// Why it was disabled, if it was.
    pub disabled_reason: Option<String>,
    /// Its circuit breaker (issue 47): open after attempts in a row that got no answer in
    /// time, when it gets one attempt at a time.
    pub breaker: fairness::Breaker,
}

/// The answer of a creation or a rotation: the endpoint and its (new) secret, shown once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WebhookWithSecret {
    /// The endpoint.
    #[serde(flatten)]
    pub webhook: Webhook,
    /// `whsec_…`: the key of the signatures.
    pub secret: String,
}

/// Why an endpoint was disabled by the worker.
pub mod disabled_reason {
    /// After a `410 Gone`.
    pub const GONE: &str = "The endpoint answered 410 Gone.";
    /// After [`super::DISABLE_AFTER`] of failures.
    pub const FAILING: &str = "Every delivery failed for 5 days.";
    /// By `PATCH enabled=false`.
    pub const BY_REQUEST: &str = "Disabled by request.";
    /// The API key it belongs to was revoked (or deleted).
    pub const KEY_REVOKED: &str = "The API key this endpoint belongs to was revoked.";
    /// The API key it belongs to expired.
    pub const KEY_EXPIRED: &str = "The API key this endpoint belongs to expired.";
    /// The API key it belongs to acts as a user who is no longer an administrator.
    pub const KEY_DEMOTED: &str =
        "The API key this endpoint belongs to acts as a user who is no longer an administrator.";
    /// Registered before endpoints belonged to a key (migration 0025): enabling it again
    /// makes it the enabling key's.
    pub const NO_OWNER: &str = "Registered before endpoints belonged to an API key: enable it again to make it the enabling key's.";
}

/// `POST /webhooks`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewWebhook {
    /// `url` (checked by [`check_url`]).
    pub url: String,
    /// `description` (at most 250 characters, one line).
    pub description: Option<String>,
    /// `events` (required).
    pub events: Subscription,
    /// `enabled` (default true).
    pub enabled: bool,
}

/// Reads `url` under `rules`.
fn url_reader(rules: UrlRules) -> impl FnOnce(&str, &RawValue, &mut FieldErrors) -> Option<String> {
    move |field, value, errors| {
        let text = crate::input::read_str(field, value, errors)?
            .trim()
            .to_owned();
        check_url(field, &text, rules)
            .map_err(|m| errors.add(field, m))
            .ok()
    }
}

impl NewWebhook {
    /// Reads the command: every failing field with its message.
    pub fn parse(raw: &RawMap, rules: UrlRules) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let url = form.required("url", url_reader(rules));
        let description = form.optional("description", text(TextRule::SHORT));
        let events = Subscription::read(&mut form, true);
        let enabled = form.optional("enabled", read_bool).unwrap_or(true);
        form.finish()?;
        match (url, events) {
            (Some(url), Some(events)) => Ok(NewWebhook {
                url,
                description,
                events,
                enabled,
            }),
            _ => Err(Rejected::default()),
        }
    }
}

/// `PATCH /webhooks/{id}`: the fields sent are changed, the others kept.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WebhookUpdate {
    /// A new URL.
    pub url: Option<String>,
    /// A new description (`Some(None)`: cleared).
    pub description: Option<Option<String>>,
    /// A new subscription.
    pub events: Option<Subscription>,
    /// Enabled or disabled; enabling clears the disabled date and reason and restarts
    /// the failure count.
    pub enabled: Option<bool>,
}

impl WebhookUpdate {
    /// Reads the command: every failing field with its message.
    pub fn parse(raw: &RawMap, rules: UrlRules) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let url = if raw.get("url").is_some() {
            form.required("url", url_reader(rules))
        } else {
            None
        };
        let description = match form.patch("description", text(TextRule::SHORT)) {
            crate::input::Patch::Keep => None,
            crate::input::Patch::Clear => Some(None),
            crate::input::Patch::Set(d) => Some(Some(d)),
        };
        let events = if raw.get("events").is_some() {
            Subscription::read(&mut form, true)
        } else {
            None
        };
        let enabled = if raw.get("enabled").is_some() {
            form.required("enabled", read_bool)
        } else {
            None
        };
        form.finish()?;
        Ok(WebhookUpdate {
            url,
            description,
            events,
            enabled,
        })
    }
}

choice_enum!(
    /// A delivery's state.
    pub enum DeliveryStatus {
        /// Waiting for its (next) attempt.
        Pending = "pending",
        /// The endpoint answered 2xx.
        Delivered = "delivered",
        /// Given up: every attempt failed, or the endpoint answered 410.
        Failed = "failed",
    }
);

choice_enum!(
    /// Sort keys of the delivery list.
    pub enum DeliverySort {
        /// By when the delivery was queued.
        Created = "delivery_created",
    }
);

/// The event a delivery carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventRef {
    /// The `webhook-id` it is sent with (`msg_…`, the same on every attempt).
    pub id: String,
    /// Its type.
    #[serde(rename = "type")]
    pub kind: EventType,
}

/// A delivery's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DeliveryDates {
    /// When it was queued.
    pub created: Timestamp,
    /// When its next attempt is due (`null` once delivered or failed).
    pub next_attempt: Option<Timestamp>,
    /// When the endpoint took it.
    pub delivered: Option<Timestamp>,
}

/// One event's delivery to one endpoint, as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Delivery {
    /// Delivery id.
    pub id: WebhookDeliveryId,
    /// The event.
    pub event: EventRef,
    /// Its state.
    pub status: DeliveryStatus,
    /// Attempts made.
    pub attempts: i32,
    /// The status code of the last answer, if one came.
    pub last_status_code: Option<i32>,
    /// What went wrong in the last attempt, if it failed.
    pub last_error: Option<String>,
    /// Its dates.
    pub dates: DeliveryDates,
}

/// `GET /webhooks/{id}/deliveries`: paging, order, sort, and [`DeliveryFilters`].
pub type DeliveryListQuery = ListQuery<DeliveryFilters>;

/// The delivery list's filters.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeliveryFilters {
    /// `status`.
    pub status: Option<DeliveryStatus>,
    /// `event_type`.
    pub event_type: Option<EventType>,
}

impl ListFilters for DeliveryFilters {
    const LIST: &'static str = "webhook-deliveries";
    type Sort = DeliverySort;

    fn read(form: &mut Form<'_>) -> Self {
        DeliveryFilters {
            status: form.optional("status", read_choice::<DeliveryStatus>),
            event_type: form.optional("event_type", read_choice::<EventType>),
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}",
            self.status.map_or("", DeliveryStatus::as_str),
            self.event_type.map_or("", EventType::as_str)
        )
    }

    fn key_kind(_sort: Option<DeliverySort>) -> KeyKind {
        KeyKind::Integer
    }
}

choice_enum!(
    /// Sort keys of the endpoint list.
    pub enum WebhookSort {
        /// By when the endpoint was registered.
        Created = "webhook_created",
    }
);

/// `GET /webhooks`: paging, order, sort, and [`WebhookFilters`].
pub type WebhookListQuery = ListQuery<WebhookFilters>;

/// The endpoint list's filters (none: a company has a handful of endpoints).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WebhookFilters;

impl ListFilters for WebhookFilters {
    const LIST: &'static str = "webhooks";
    type Sort = WebhookSort;

    fn read(_form: &mut Form<'_>) -> Self {
        WebhookFilters
    }

    fn key(&self) -> String {
        String::new()
    }

    fn key_kind(_sort: Option<WebhookSort>) -> KeyKind {
        KeyKind::Integer
    }
}

/// What an attempt came to, as the schedule sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// A 2xx.
    Delivered,
    /// `410 Gone`: the delivery fails and the endpoint is disabled at once.
    Gone,
    /// Anything else; `retry_after` from a 429 or 503 that named one.
    Failed {
        /// The wait the endpoint asked for.
        retry_after: Option<Duration>,
    },
}

/// What happens after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// The delivery is done.
    Delivered,
    /// Try again at this time.
    RetryAt(Timestamp),
    /// Given up.
    Failed,
}

/// The next step of a delivery after its `attempts`-th attempt (counting this one) came to
/// `attempt` at `now`. `jitter` in `[-1, 1]` moves a scheduled wait by up to ±10 %; a
/// `Retry-After` replaces the scheduled wait (capped at [`MAX_RETRY_AFTER`]) but not the
/// count of attempts.
pub fn next_step(attempts: u32, attempt: Attempt, now: Timestamp, jitter: f64) -> Next {
    match attempt {
        Attempt::Delivered => Next::Delivered,
        Attempt::Gone => Next::Failed,
        Attempt::Failed { .. } if attempts >= MAX_ATTEMPTS => Next::Failed,
        Attempt::Failed { retry_after } => {
            let index = usize::try_from(attempts.max(1) - 1).unwrap_or(usize::MAX);
            let scheduled = RETRY_SCHEDULE[index.min(RETRY_SCHEDULE.len() - 1)];
            let wait = match retry_after {
                Some(asked) => asked.clamp(Duration::zero(), MAX_RETRY_AFTER),
                None => {
                    let millis = scheduled.num_milliseconds() as f64;
                    let moved = millis * (1.0 + 0.1 * jitter.clamp(-1.0, 1.0));
                    Duration::milliseconds(moved.round() as i64)
                }
            };
            Next::RetryAt(Timestamp(now.0 + wait))
        }
    }
}

/// Whether an endpoint failing every delivery since `failing_since` is disabled at `now`.
pub fn disables(failing_since: Timestamp, now: Timestamp) -> bool {
    now.0 - failing_since.0 >= DISABLE_AFTER
}

pub mod fairness;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw, raw_values};
    use chrono::{TimeZone, Utc};

    const OPEN: UrlRules = UrlRules {
        allow_http: true,
        allow_private: true,
    };

    fn at(secs: i64) -> Timestamp {
        Timestamp(Utc.timestamp_opt(1_800_000_000 + secs, 0).unwrap())
    }

    #[test]
    fn urls_are_https_with_a_host_and_no_credentials() {
        let strict = UrlRules::default();
        assert_eq!(
            check_url("url", "https://hooks.example.com/in?x=1", strict).as_deref(),
            Ok("https://hooks.example.com/in?x=1")
        );
        for (url, expected) in [
            (
                "http://hooks.example.com/",
                "The url must start with https://.",
            ),
            ("ftp://hooks.example.com/", "The url must be a valid URL."),
            ("hooks.example.com", "The url must be a valid URL."),
            ("https://", "The url must be a valid URL."),
            (
                "https://u:p@hooks.example.com/",
                "The url may not contain a user name or password.",
            ),
            (
                "https://hooks.example.com/#x",
                "The url may not contain a fragment.",
            ),
        ] {
            assert_eq!(
                check_url("url", url, strict),
                Err(expected.to_owned()),
                "{url}"
            );
        }
        assert!(check_url("url", "http://hooks.example.com/", OPEN).is_ok());
    }

    #[test]
    fn private_literals_and_localhost_are_refused_unless_allowed() {
        let strict = UrlRules::default();
        for url in [
            "https://127.0.0.1/",
            "https://10.1.2.3/",
            "https://169.254.169.254/latest",
            "https://[::1]/",
            "https://[::ffff:127.0.0.1]/",
            "https://[fd00::1]/",
            "https://0.0.0.0/",
            "https://localhost:8443/",
            "https://api.localhost/",
            "https://224.0.0.1/",
        ] {
            assert_eq!(
                check_url("url", url, strict),
                Err(
                    "The url may not point to a private, loopback or link-local address."
                        .to_owned()
                ),
                "{url}"
            );
            assert!(check_url("url", url, OPEN).is_ok(), "{url}");
        }
        assert!(check_url("url", "https://93.184.216.34/", strict).is_ok());
        assert!(check_url("url", "https://[2606:4700::1111]/", strict).is_ok());
    }

    #[test]
    fn forbidden_addresses_include_their_ipv6_forms() {
        for ip in [
            "127.0.0.1",
            "10.0.0.1",
            "172.16.5.4",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.251",
            "::",
            "::1",
            "fe80::1",
            "fc00::1",
            "ff02::1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::7f00:1",
            "::127.0.0.1",
        ] {
            assert!(forbidden(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(!forbidden(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn a_new_webhook_needs_a_url_and_events() {
        let r = NewWebhook::parse(&raw(&[]), OPEN).unwrap_err();
        assert_eq!(msg(&r.errors, "url"), ["The url field is required."]);
        assert_eq!(msg(&r.errors, "events"), ["The events field is required."]);
        let w = NewWebhook::parse(
            &raw_values(&[
                ("url", RawValue::text("https://h.example/in")),
                (
                    "events",
                    RawValue::List(vec![
                        RawValue::text("note.created"),
                        RawValue::text("note.created"),
                        RawValue::text("invoice.paid"),
                    ]),
                ),
            ]),
            UrlRules::default(),
        )
        .unwrap();
        assert_eq!(
            w.events,
            Subscription::Only(vec![EventType::NoteCreated, EventType::InvoicePaid])
        );
        assert!(w.enabled);
        let all = NewWebhook::parse(
            &raw_values(&[
                ("url", RawValue::text("https://h.example/in")),
                ("events", RawValue::List(vec![RawValue::text("*")])),
                ("enabled", RawValue::Bool(false)),
            ]),
            UrlRules::default(),
        )
        .unwrap();
        assert_eq!((all.events, all.enabled), (Subscription::All, false));
    }

    #[test]
    fn unknown_event_types_and_bad_booleans_are_named() {
        let r = NewWebhook::parse(
            &raw_values(&[
                ("url", RawValue::text("https://h.example/in")),
                (
                    "events",
                    RawValue::List(vec![
                        RawValue::text("note.created"),
                        RawValue::text("note.archived"),
                        RawValue::text("webhook.test"),
                    ]),
                ),
                ("enabled", RawValue::text("maybe")),
            ]),
            OPEN,
        )
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "events.1"),
            ["The selected events.1 is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "events.2"),
            ["The selected events.2 is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "enabled"),
            ["The enabled field must be true or false."]
        );
        let r = NewWebhook::parse(
            &raw_values(&[
                ("url", RawValue::text("https://h.example/in")),
                ("events", RawValue::text("note.created")),
            ]),
            OPEN,
        )
        .unwrap_err();
        assert_eq!(msg(&r.errors, "events"), ["The events must be an array."]);
    }

    #[test]
    fn an_update_changes_what_it_names() {
        let u = WebhookUpdate::parse(&raw(&[("enabled", "1")]), OPEN).unwrap();
        assert_eq!(
            u,
            WebhookUpdate {
                enabled: Some(true),
                ..WebhookUpdate::default()
            }
        );
        let u = WebhookUpdate::parse(&raw(&[("description", "")]), OPEN).unwrap();
        assert_eq!(u.description, Some(None));
        let r = WebhookUpdate::parse(&raw(&[("url", "http://h.example/")]), UrlRules::default())
            .unwrap_err();
        assert_eq!(msg(&r.errors, "url"), ["The url must start with https://."]);
    }

    #[test]
    fn the_schedule_waits_longer_each_time_with_jitter_and_gives_up_after_eight_attempts() {
        let failed = Attempt::Failed { retry_after: None };
        assert_eq!(next_step(1, failed, at(0), 0.0), Next::RetryAt(at(5)));
        assert_eq!(next_step(2, failed, at(0), 0.0), Next::RetryAt(at(300)));
        assert_eq!(
            next_step(1, failed, at(0), 1.0),
            Next::RetryAt(Timestamp(at(0).0 + Duration::milliseconds(5500)))
        );
        assert_eq!(
            next_step(1, failed, at(0), -1.0),
            Next::RetryAt(Timestamp(at(0).0 + Duration::milliseconds(4500)))
        );
        assert_eq!(next_step(7, failed, at(0), 0.0), Next::RetryAt(at(36_000)));
        assert_eq!(next_step(8, failed, at(0), 0.0), Next::Failed);
        let total: Duration = RETRY_SCHEDULE.iter().copied().sum();
        assert_eq!(
            total,
            Duration::seconds(5 + 300 + 1800 + 7200 + 18_000 + 36_000 + 36_000)
        );
        assert_eq!(
            next_step(3, Attempt::Delivered, at(0), 0.0),
            Next::Delivered
        );
        assert_eq!(next_step(1, Attempt::Gone, at(0), 0.0), Next::Failed);
    }

    #[test]
    fn retry_after_replaces_the_scheduled_wait_within_bounds() {
        let asked = |d| Attempt::Failed {
            retry_after: Some(d),
        };
        assert_eq!(
            next_step(1, asked(Duration::seconds(120)), at(0), 1.0),
            Next::RetryAt(at(120))
        );
        assert_eq!(
            next_step(1, asked(Duration::days(3)), at(0), 0.0),
            Next::RetryAt(at(36_000))
        );
        assert_eq!(
            next_step(8, asked(Duration::seconds(1)), at(0), 0.0),
            Next::Failed
        );
    }

    #[test]
    fn five_days_of_failures_disable_an_endpoint() {
        assert!(!disables(at(0), at(5 * 86_400 - 1)));
        assert!(disables(at(0), at(5 * 86_400)));
    }

    #[test]
    fn every_event_type_is_an_area_and_an_action() {
        for (text, kind) in <EventType as Choice>::CHOICES {
            let (area, action) = text.split_once('.').unwrap();
            assert_eq!(kind.area(), area);
            assert!(!action.is_empty());
        }
        assert_eq!(
            subscribable().count(),
            <EventType as Choice>::CHOICES.len() - 1
        );
    }

    #[test]
    fn delivery_filters_are_checked() {
        let r = DeliveryListQuery::parse(&raw(&[("status", "sent"), ("event_type", "x.y")]))
            .unwrap_err();
        assert_eq!(
            msg(&r.errors, "status"),
            ["The selected status is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "event_type"),
            ["The selected event type is invalid."]
        );
        let q = DeliveryListQuery::parse(&raw(&[("status", "failed")])).unwrap();
        assert_eq!(q.filters.status, Some(DeliveryStatus::Failed));
    }
}
