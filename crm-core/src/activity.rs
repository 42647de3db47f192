//! Activity (API.md §21): who changed what, when, from what to what.
//!
//! Every change the service makes is one entry, written in the change's transaction by the
//! store: its type (the webhook event's type, or one of the endpoints' own
//! [`WebhookChange`]s), the record it is about, the [`Actor`] and the fields that changed.
//! This module holds the words the layers share: who acts, what an entry's type may be,
//! which entries join the tamper-evident chain of issued documents ([`is_chained`]), and
//! the list's filters ([`ActivityFilters`]).

use chrono::NaiveDate;

use crate::choice::Choice;
use crate::choice_enum;
use crate::ids::{ApiKeyId, UserId};
use crate::input::{Form, RawMap, RawValue, read_choice, read_date, read_id};
use crate::listing::{KeyKind, ListFilters, ListParams, ListQuery};
use crate::validation::{FieldErrors, Rejected, message};
use crate::webhook::EventType;

choice_enum!(
    /// The parts of the service that change records on their own.
    pub enum SystemPart {
        /// The delivery worker (an email sent or failed).
        Outbox = "outbox",
        /// The scheduler (recurring invoices, reminders).
        Scheduler = "scheduler",
        /// Anything else that writes outside a request (the command line, a program
        /// linking the store).
        Service = "service",
    }
);

/// Who made a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// A request made with an API key, acting as the key's user.
    Key {
        /// The key.
        key: ApiKeyId,
        /// The user it acts as.
        user: UserId,
    },
    /// The client, through the client link of a record (its page's accept or decline).
    ClientLink {
        /// The resource type of the record whose link was used (`estimate`).
        resource_type: &'static str,
        /// Its id.
        id: i64,
    },
    /// The service itself.
    System(SystemPart),
}

impl Actor {
    /// What acts when nothing says otherwise: [`SystemPart::Service`].
    pub const SERVICE: Actor = Actor::System(SystemPart::Service);

    /// The actor's kind as stored: `key`, `client_link` or `system`.
    pub fn kind(self) -> &'static str {
        match self {
            Actor::Key { .. } => "key",
            Actor::ClientLink { .. } => "client_link",
            Actor::System(_) => "system",
        }
    }
}

choice_enum!(
    /// The changes of webhook endpoints, which report no event of their own (an endpoint's
    /// events are about the records, not about itself).
    pub enum WebhookChange {
        /// An endpoint was registered.
        Created = "webhook.created",
        /// An endpoint was changed.
        Updated = "webhook.updated",
        /// An endpoint was deleted.
        Deleted = "webhook.deleted",
        /// An endpoint got a new secret.
        SecretRotated = "webhook.secret_rotated",
        /// A test event was queued to an endpoint.
        Tested = "webhook.tested",
        /// One of an endpoint's deliveries was queued again.
        DeliveryRetried = "webhook.delivery_retried",
    }
);

/// The type of an entry: an event type, or a webhook endpoint's change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ActivityType {
    /// The change's webhook event type (`note.created`).
    Event(EventType),
    /// A webhook endpoint's change.
    Webhook(WebhookChange),
}

impl ActivityType {
    /// The type's text (`note.created`, `webhook.secret_rotated`).
    pub fn as_str(self) -> &'static str {
        match self {
            ActivityType::Event(kind) => kind.as_str(),
            ActivityType::Webhook(change) => change.as_str(),
        }
    }

    /// The resource type of the record it is about (`credit_note`, `webhook`).
    pub fn resource_type(self) -> &'static str {
        let text = self.as_str();
        text.split_once('.').map_or(text, |(area, _)| area)
    }

    /// Whether the change made the record (its entry lists every field as `[null, value]`).
    pub fn is_creation(self) -> bool {
        match self {
            ActivityType::Event(kind) => {
                kind.as_str().ends_with(".created") || kind == EventType::CreditNoteIssued
            }
            ActivityType::Webhook(change) => change == WebhookChange::Created,
        }
    }

    /// The type named `text`, if there is one.
    pub fn named(text: &str) -> Option<ActivityType> {
        EventType::from_text(text)
            .map(ActivityType::Event)
            .or_else(|| WebhookChange::from_text(text).map(ActivityType::Webhook))
    }

    /// Every type, in the order of the event types and then the endpoints' changes.
    pub fn all() -> impl Iterator<Item = ActivityType> {
        <EventType as Choice>::CHOICES
            .iter()
            .map(|(_, k)| ActivityType::Event(*k))
            .chain(
                <WebhookChange as Choice>::CHOICES
                    .iter()
                    .map(|(_, c)| ActivityType::Webhook(*c)),
            )
    }
}

impl From<EventType> for ActivityType {
    fn from(kind: EventType) -> Self {
        ActivityType::Event(kind)
    }
}

impl From<WebhookChange> for ActivityType {
    fn from(change: WebhookChange) -> Self {
        ActivityType::Webhook(change)
    }
}

/// Whether an entry joins the chain of issued documents (API.md §21): a number assigned
/// (an estimate or an invoice published), a credit note issued, a payment recorded or
/// deleted, and any change of an invoice's status (its cancellation among them).
/// `status_changed` says whether the entry's changes name the record's `status`.
pub fn is_chained(kind: ActivityType, status_changed: bool) -> bool {
    let ActivityType::Event(kind) = kind else {
        return false;
    };
    matches!(
        kind,
        EventType::EstimatePublished
            | EventType::InvoicePublished
            | EventType::InvoicePaid
            | EventType::CreditNoteIssued
            | EventType::PaymentCreated
            | EventType::PaymentDeleted
    ) || (kind.area() == "invoice" && status_changed)
}

choice_enum!(
    /// The resource types an entry may be about (the `resource_type` filter).
    pub enum ResourceType {
        /// Categories.
        Category = "category",
        /// Contracts.
        Contract = "contract",
        /// Estimates.
        Estimate = "estimate",
        /// Invoices.
        Invoice = "invoice",
        /// Credit notes.
        CreditNote = "credit_note",
        /// Recurring invoices (their schedules).
        RecurringInvoice = "recurring_invoice",
        /// Milestones.
        Milestone = "milestone",
        /// Notes.
        Note = "note",
        /// Payments.
        Payment = "payment",
        /// The company.
        Company = "company",
        /// Clients.
        Client = "client",
        /// Tax rates.
        TaxRate = "tax_rate",
        /// Projects.
        Project = "project",
        /// Users.
        User = "user",
        /// Emails of the outbox.
        Email = "email",
        /// Webhook endpoints.
        Webhook = "webhook",
    }
);

impl ResourceType {
    /// The record a record of this type belongs to, and the field of its record (as the
    /// API shows it) that names it: a payment's and a credit note's invoice. A record's own
    /// activity lists the entries of the records that belong to it too.
    ///
    /// ```
    /// use crm_core::activity::ResourceType;
    /// assert_eq!(ResourceType::Payment.parent(), Some((ResourceType::Invoice, "invoice_id")));
    /// assert_eq!(ResourceType::Note.parent(), None);
    /// ```
    pub fn parent(self) -> Option<(ResourceType, &'static str)> {
        match self {
            ResourceType::Payment | ResourceType::CreditNote => {
                Some((ResourceType::Invoice, "invoice_id"))
            }
            _ => None,
        }
    }
}

choice_enum!(
    /// Sort keys of the activity list (by id, newest first, when absent).
    pub enum ActivitySort {
        /// By when the change was made.
        At = "activity_at",
    }
);

/// The filters of `GET /api/activity` (API.md §21); a record's own activity is the same
/// list with `resource_type` and `resource_id` set by its path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActivityFilters {
    /// `resource_type`.
    pub resource_type: Option<ResourceType>,
    /// `resource_id`.
    pub resource_id: Option<i64>,
    /// `actor`: the id of the API key that made the change.
    pub actor: Option<ApiKeyId>,
    /// `type`.
    pub kind: Option<ActivityType>,
    /// `from`: made on or after this day (UTC).
    pub from: Option<NaiveDate>,
    /// `to`: made on or before this day (UTC; not before `from`).
    pub to: Option<NaiveDate>,
    /// Whether the entries of the records that belong to the record `resource_type` and
    /// `resource_id` name are listed too ([`ResourceType::parent`]): a record's own
    /// activity ([`record_query`]); never read from a query.
    pub with_belonging: bool,
}

/// Reads an entry type (`type`): one of [`ActivityType::all`].
fn read_type(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<ActivityType> {
    let found = match value {
        RawValue::Text(text) => ActivityType::named(text.trim()),
        _ => None,
    };
    if found.is_none() {
        errors.add(field, message::invalid(field));
    }
    found
}

impl ListFilters for ActivityFilters {
    const LIST: &'static str = "activity";
    type Sort = ActivitySort;

    fn read(form: &mut Form<'_>) -> Self {
        let resource_type = form.optional("resource_type", read_choice::<ResourceType>);
        let resource_id = form.optional("resource_id", read_id);
        let actor = form.optional("actor", read_id).and_then(ApiKeyId::new);
        let kind = form.optional("type", read_type);
        let from = form.optional("from", read_date);
        let to = form.optional("to", read_date);
        if let (Some(from), Some(to)) = (from, to)
            && to < from
        {
            form.error("to", message::after_or_equal("to", "from"));
        }
        ActivityFilters {
            resource_type,
            resource_id,
            actor,
            kind,
            from,
            to,
            with_belonging: false,
        }
    }

    fn key(&self) -> String {
        let day = |d: Option<NaiveDate>| d.map_or(String::new(), |d| d.to_string());
        format!(
            "{}|{}|{}|{}|{}|{}{}",
            self.resource_type.map_or("", ResourceType::as_str),
            self.resource_id.unwrap_or(0),
            self.actor.map_or(0, ApiKeyId::get),
            self.kind.map_or("", ActivityType::as_str),
            day(self.from),
            day(self.to),
            if self.with_belonging { "|own" } else { "" }
        )
    }

    fn key_kind(_sort: Option<ActivitySort>) -> KeyKind {
        KeyKind::Integer
    }
}

/// `GET /api/activity`'s query.
pub type ActivityListQuery = ListQuery<ActivityFilters>;

/// The query of a record's own activity (`GET /api/{area}/{id}/activity`): the list's
/// parameters and filters, with `resource_type` and `resource_id` those of the record
/// whatever the query says, set before a cursor is checked (a cursor of this record's
/// list is bound to them).
pub fn record_query(
    raw: &RawMap,
    resource_type: ResourceType,
    id: i64,
) -> Result<ActivityListQuery, Rejected> {
    let mut form = Form::new(raw);
    let params = ListParams::read(&mut form);
    let mut filters = ActivityFilters::read(&mut form);
    filters.resource_type = Some(resource_type);
    filters.resource_id = Some(id);
    filters.with_belonging = true;
    let mut query = ListQuery { params, filters };
    let key = query.filters.key();
    let kind = ActivityFilters::key_kind(query.params.sort);
    query
        .params
        .bind(&mut form, ActivityFilters::LIST, &key, kind);
    form.finish()?;
    Ok(query)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw};

    #[test]
    fn every_type_is_named_by_its_text_and_is_about_a_resource_type() {
        for kind in ActivityType::all() {
            assert_eq!(ActivityType::named(kind.as_str()), Some(kind));
            let resource = kind.resource_type();
            assert!(
                resource == "webhook"
                    || <ResourceType as Choice>::CHOICES
                        .iter()
                        .any(|(t, _)| *t == resource),
                "{resource}"
            );
        }
        assert_eq!(ActivityType::named("note.exploded"), None);
    }

    #[test]
    fn creations_are_the_created_types_and_a_credit_note_issued() {
        assert!(ActivityType::from(EventType::NoteCreated).is_creation());
        assert!(ActivityType::from(EventType::CreditNoteIssued).is_creation());
        assert!(ActivityType::from(WebhookChange::Created).is_creation());
        assert!(!ActivityType::from(EventType::NoteUpdated).is_creation());
        assert!(!ActivityType::from(WebhookChange::SecretRotated).is_creation());
    }

    #[test]
    fn issued_documents_and_invoice_status_changes_are_chained_and_nothing_else() {
        let chained = |k: EventType, status| is_chained(k.into(), status);
        assert!(chained(EventType::InvoicePublished, true));
        assert!(chained(EventType::CreditNoteIssued, false));
        assert!(chained(EventType::PaymentCreated, false));
        assert!(chained(EventType::PaymentDeleted, false));
        assert!(chained(EventType::EstimatePublished, true));
        assert!(chained(EventType::InvoiceUpdated, true));
        assert!(!chained(EventType::InvoiceUpdated, false));
        assert!(!chained(EventType::EstimateUpdated, true));
        assert!(!chained(EventType::NoteCreated, false));
        assert!(!is_chained(WebhookChange::Created.into(), true));
    }

    #[test]
    fn the_filters_are_read_and_bad_ones_are_named() {
        let q = ActivityListQuery::parse(&raw(&[
            ("resource_type", "invoice"),
            ("resource_id", "7"),
            ("actor", "3"),
            ("type", "invoice.published"),
            ("from", "2026-11-01"),
            ("to", "2026-11-30"),
        ]))
        .unwrap();
        assert_eq!(q.filters.resource_type, Some(ResourceType::Invoice));
        assert_eq!(q.filters.resource_id, Some(7));
        assert_eq!(q.filters.actor.map(ApiKeyId::get), Some(3));
        assert_eq!(
            q.filters.kind,
            Some(ActivityType::Event(EventType::InvoicePublished))
        );

        let r = ActivityListQuery::parse(&raw(&[
            ("resource_type", "spaceship"),
            ("resource_id", "x"),
            ("actor", "0"),
            ("type", "note.exploded"),
            ("from", "2026-11-30"),
            ("to", "2026-11-01"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "resource_type"),
            ["The selected resource type is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "resource_id"),
            ["The resource id must be an integer."]
        );
        assert_eq!(msg(&r.errors, "actor"), ["The selected actor is invalid."]);
        assert_eq!(msg(&r.errors, "type"), ["The selected type is invalid."]);
        assert_eq!(
            msg(&r.errors, "to"),
            ["The to must be a date after or equal to from."]
        );
        let r = ActivityListQuery::parse(&raw(&[("from", "yesterday")])).unwrap_err();
        assert_eq!(msg(&r.errors, "from"), ["The from is not a valid date."]);
    }

    #[test]
    fn a_records_query_is_about_the_record_whatever_it_says_and_its_cursors_are_bound_to_it() {
        let q = record_query(
            &raw(&[("resource_type", "note"), ("resource_id", "9")]),
            ResourceType::Invoice,
            7,
        )
        .unwrap();
        assert_eq!(q.filters.resource_type, Some(ResourceType::Invoice));
        assert_eq!(q.filters.resource_id, Some(7));
        let cursor = crate::listing::Cursor {
            forward: true,
            page: 2,
            binding: q.binding(),
            key: Some("5".to_owned()),
            id: 5,
        }
        .encode();
        let again = record_query(&raw(&[("cursor", &cursor)]), ResourceType::Invoice, 7);
        assert!(again.is_ok());
        let other =
            record_query(&raw(&[("cursor", &cursor)]), ResourceType::Invoice, 8).unwrap_err();
        assert_eq!(
            msg(&other.errors, "cursor"),
            ["The selected cursor is invalid."]
        );
        let r = ActivityListQuery::parse(&raw(&[("from", "yesterday")])).unwrap_err();
        assert_eq!(msg(&r.errors, "from"), ["The from is not a valid date."]);
    }
}
