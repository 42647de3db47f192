//! The endpoints: what they subscribe to, how the API shows them, the commands that
//! register and change them, their list, and why one was disabled.

use chrono::Duration;
use serde::Serialize;

use super::address::{UrlRules, check_url};
use super::events::{ALL_EVENTS, EventType};
use super::fairness;
use crate::choice_enum;
use crate::ids::WebhookId;
use crate::input::{Form, RawMap, RawValue, TextRule, read_choice, text};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::time::Timestamp;
use crate::validation::{FieldErrors, Rejected, message};

/// The prefix of a secret (`whsec_` + base64 of 32 random bytes).
pub const SECRET_PREFIX: &str = "whsec_";
/// How many random bytes a secret holds.
pub const SECRET_BYTES: usize = 32;
/// How long deliveries carry a signature by the previous secret after a rotation.
pub const ROTATION_OVERLAP: Duration = Duration::hours(24);

/// The most event types one endpoint lists.
pub const MAX_EVENTS: usize = 64;

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
    /// After [`DISABLE_AFTER`](crate::webhook::DISABLE_AFTER) of failures.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw, raw_values};
    use crate::webhook::address::OPEN;

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
        assert_eq!(
            msg(&r.errors, "url"),
            [
                "The url must start with https://; http:// is accepted when the service runs with --webhook-allow-http."
            ]
        );
    }
}
