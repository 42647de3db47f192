//! The deliveries: one event's delivery to one endpoint, as the API shows it, and their
//! list.

use serde::Serialize;

use super::events::EventType;
use crate::choice_enum;
use crate::ids::WebhookDeliveryId;
use crate::input::{Form, read_choice};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::time::Timestamp;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw};

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
