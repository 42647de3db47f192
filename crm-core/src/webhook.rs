//! Webhooks (`/api/webhooks`, API.md §13): endpoints that other systems register, the
//! events the service reports to them, and the rules of their delivery (Standard Webhooks
//! 1.0). Everything here is pure: the URL rules, the address classes a delivery may not
//! reach, the retry schedule and the disable rule take what they judge (and the time) as
//! parameters; the store writes events and deliveries, the worker sends them.

mod access;
mod address;
mod delivery;
mod endpoint;
mod events;
pub mod fairness;
mod schedule;

pub use access::{Audience, unreadable_message};
pub use address::{MAX_URL_CHARS, UrlRules, check_url, forbidden};
pub use delivery::{
    Delivery, DeliveryDates, DeliveryFilters, DeliveryListQuery, DeliverySort, DeliveryStatus,
    EventRef,
};
pub use endpoint::{
    MAX_EVENTS, NewWebhook, ROTATION_OVERLAP, SECRET_BYTES, SECRET_PREFIX, Subscription, Webhook,
    WebhookDates, WebhookFilters, WebhookListQuery, WebhookSort, WebhookUpdate, WebhookWithSecret,
    disabled_reason, read_bool,
};
pub use events::{ALL_EVENTS, BillAction, EventType, bill_event, subscribable};
pub use schedule::{
    Attempt, DISABLE_AFTER, MAX_ATTEMPTS, MAX_RETRY_AFTER, Next, RETRY_SCHEDULE, disables,
    next_step,
};
