//! Webhook events (API.md §13), written by the change they report: a write calls
//! [`Tx::emit`](crate::conditions::Tx) with the record as the API answers it after the
//! change, and the transaction's commit inserts its events in the same round trip as the
//! `COMMIT` (pipelined: the insert runs first, and if it fails the `COMMIT` rolls the change
//! back). So a change and its event commit together or not at all, and, since every write
//! emits after taking its row locks, the events about one record are numbered in the order
//! their changes committed.
//!
//! An event is stored only when an enabled endpoint subscribes to its type, and the change
//! writes nothing else: the outbox worker fans events out into one delivery per subscribed
//! endpoint, giving each its message id, just before it claims
//! ([`Outbox::claim_webhooks`](crate::outbox::Outbox::claim_webhooks), migration 0024). With
//! no endpoint, the statement writes nothing.

use crm_core::time::Timestamp;
use crm_core::webhook::{Audience, EventType};
use serde::Serialize;

use crate::error::StoreError;

/// One event, its body serialized once: what every attempt to every endpoint signs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Event {
    pub(crate) kind: EventType,
    /// `<area>:<id>`: the record whose deliveries keep their order.
    pub(crate) record_key: String,
    /// `{"type", "timestamp", "data"}`.
    pub(crate) body: String,
    /// Who may receive it beyond the endpoints' scopes (a private note's creator alone).
    pub(crate) audience: Audience,
}

#[derive(Serialize)]
struct Body<'a, T: Serialize> {
    #[serde(rename = "type")]
    kind: &'static str,
    timestamp: Timestamp,
    data: &'a T,
}

/// `data` of a deletion.
#[derive(Serialize)]
struct Deleted {
    id: i64,
}

impl Event {
    /// An event of `kind` about the record `id` of the event's area, with `data` (the
    /// record as the API answered after the change) at `now`.
    pub(crate) fn new<T: Serialize>(
        kind: EventType,
        id: i64,
        data: &T,
        now: Timestamp,
    ) -> Result<Event, StoreError> {
        let body = serde_json::to_string(&Body {
            kind: kind.as_str(),
            timestamp: now,
            data,
        })
        .map_err(|e| StoreError::Internal(format!("an event's body: {e}")))?;
        Ok(Event {
            kind,
            record_key: format!("{}:{id}", kind.area()),
            body,
            audience: Audience::Everyone,
        })
    }

    /// The same event, for `audience` alone.
    pub(crate) fn for_audience(self, audience: Audience) -> Event {
        Event { audience, ..self }
    }

    /// A deletion's event: `data` is `{"id"}`.
    pub(crate) fn deleted(kind: EventType, id: i64, now: Timestamp) -> Result<Event, StoreError> {
        Event::new(kind, id, &Deleted { id }, now)
    }
}

/// Inserts a transaction's events (`$1` types, `$2` record keys, `$3` bodies, `$4` the user
/// each is private to or NULL, in order), each only if an enabled endpoint subscribes to its
/// type (whether that endpoint's key may read it is decided by the fan-out, off the write's
/// path). `unnest` gives the arrays' rows
/// in order and nothing reorders them, so the events' ids follow that order (a `WITH
/// ORDINALITY … ORDER BY` would sort what is already sorted, on every write); their
/// deliveries are queued by the fan-out, in the order of the ids.
pub(crate) const INSERT_EVENTS_SQL: &str = "INSERT INTO webhook_events (type, record_key, body, private_to) \
     SELECT x.t, x.k, x.b, x.p FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[]) AS x(t, k, b, p) \
     WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.enabled AND w.events && ARRAY[x.t, '*'])";

/// The parameters of [`INSERT_EVENTS_SQL`], one array per column.
pub(crate) struct Columns<'a> {
    kinds: Vec<&'static str>,
    keys: Vec<&'a str>,
    bodies: Vec<&'a str>,
    private_to: Vec<Option<i64>>,
}

impl Columns<'_> {
    /// The statement's parameters, in order.
    pub(crate) fn params(&self) -> [&(dyn tokio_postgres::types::ToSql + Sync); 4] {
        [&self.kinds, &self.keys, &self.bodies, &self.private_to]
    }
}

/// The parameters of [`INSERT_EVENTS_SQL`].
pub(crate) fn columns(events: &[Event]) -> Columns<'_> {
    Columns {
        kinds: events.iter().map(|e| e.kind.as_str()).collect(),
        keys: events.iter().map(|e| e.record_key.as_str()).collect(),
        bodies: events.iter().map(|e| e.body.as_str()).collect(),
        private_to: events
            .iter()
            .map(|e| e.audience.private_to().map(|u| u.get()))
            .collect(),
    }
}

/// Now, as events are stamped.
pub(crate) fn now() -> Timestamp {
    Timestamp(chrono::Utc::now())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    #[test]
    fn a_body_is_type_timestamp_and_data_and_the_key_names_the_record() {
        let at = Timestamp(Utc.with_ymd_and_hms(2026, 11, 27, 10, 0, 0).unwrap());
        let e = Event::deleted(EventType::NoteDeleted, 7, at).unwrap();
        assert_eq!(
            e.body,
            r#"{"type":"note.deleted","timestamp":"2026-11-27T10:00:00.000000Z","data":{"id":7}}"#
        );
        assert_eq!(e.record_key, "note:7");
        let converted =
            Event::new(EventType::EstimateConverted, 3, &Deleted { id: 9 }, at).unwrap();
        assert_eq!(converted.record_key, "estimate:3");
    }
}
