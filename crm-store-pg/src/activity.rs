//! Activity (API.md §21): one entry per change, written in the change's transaction.
//!
//! There is one mechanism, in the write transaction (`Tx`, in `conditions`), so
//! that no write can forget its entry:
//!
//! - **Before.** Every write that changes an existing record compares the request's
//!   `If-Match` with the record as its GET shows it, read under the row's lock
//!   (`Tx::if_match`). That read is now always made, and kept as the record's state before
//!   the change (`Recorder::before`).
//! - **After.** Every write reports its change as a webhook event with the record as the
//!   API answers after it (`Tx::emit`, or `Tx::record` for a webhook endpoint's own
//!   changes, which are no event). The first change a transaction reports is its entry:
//!   its type, its record, and the fields that differ between the record before and after
//!   (`diff`; nested objects flattened with dots, arrays compared whole). A creation
//!   lists every field as `[null, value]`, a deletion as `[value, null]`; an action that
//!   reads no state before (a send-email, a test event) lists none.
//! - **Who.** The actor is the request's (`Store::acting`, set by the service for every
//!   keyed request), a client link's (`Tx::act_as`), or the service's.
//! - **When.** `Tx`'s commit inserts the entry in the same round trip as the `COMMIT`,
//!   with the webhook events; an entry of an issued document is appended to the chain
//!   first ([`chain`]).
//!
//! Reading: [`Store::activity`] lists entries with the filters of §21, paged as every list
//! (by number or by cursor); a record's own activity is the same list with its resource.

pub mod chain;

use std::collections::BTreeMap;

use crm_core::activity::{
    ActivityListQuery, ActivitySort, ActivityType, Actor, ResourceType, is_chained,
};
use crm_core::time::Timestamp;
use serde::Serialize;
use serde_json::{Map, Value};
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use crate::error::StoreError;
use crate::listed::Listed;
use crate::rows;
use crate::sql::{self, PageRequest, SortKey, Sql, micros_key};
use crate::store::{Ctx, Store};

/// An entry in the making: what a transaction's first reported change was.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Draft {
    kind: ActivityType,
    resource_id: i64,
    private_to: Option<i64>,
    changes: Map<String, Value>,
    parent: Option<(ResourceType, i64)>,
}

/// A [`Recorder`]'s state at a savepoint ([`Recorder::mark`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RecorderMark {
    befores: usize,
    draft: Option<Draft>,
}

/// What a write transaction knows of its activity: who acts, the records it read before
/// changing them, and its entry once a change was reported.
#[derive(Debug)]
pub(crate) struct Recorder {
    actor: Actor,
    befores: Vec<Value>,
    draft: Option<Draft>,
}

impl Recorder {
    /// A transaction's recorder, acting as `actor`.
    pub(crate) fn new(actor: Actor) -> Recorder {
        Recorder {
            actor,
            befores: Vec::new(),
            draft: None,
        }
    }

    /// Where it stands: what [`Recorder::go_back`] returns to when the statements after
    /// it are rolled back to a savepoint.
    pub(crate) fn mark(&self) -> RecorderMark {
        RecorderMark {
            befores: self.befores.len(),
            draft: self.draft.clone(),
        }
    }

    /// Forgets what was read and reported after `mark`: those changes were rolled back,
    /// and an entry is never written without its change.
    pub(crate) fn go_back(&mut self, mark: RecorderMark) {
        self.befores.truncate(mark.befores);
        self.draft = mark.draft;
    }

    /// The actor of the transaction's entry from now on.
    pub(crate) fn act_as(&mut self, actor: Actor) {
        self.actor = actor;
    }

    /// Keeps `record` (as its GET shows it, before the change) to compare with what the
    /// change reports; a list (a project's milestones) is kept record by record.
    pub(crate) fn before(&mut self, record: Value) {
        match record {
            Value::Array(records) => self.befores.extend(records),
            record => self.befores.push(record),
        }
    }

    /// Records a change of the record `id` (`after`: as the API answers now; `None` for a
    /// deletion). The first change reported is the transaction's entry; later ones (an
    /// invoice's status after a payment, the other milestones of a reorder) follow from
    /// the same request and add nothing to it.
    pub(crate) fn changed(
        &mut self,
        kind: ActivityType,
        id: i64,
        after: Option<Value>,
        private_to: Option<i64>,
    ) {
        if self.draft.is_some() {
            return;
        }
        let before = self.take_before(id);
        let parent = parent_of(kind, after.as_ref().or(before.as_ref()));
        let changes = if before.is_none() && !kind.is_creation() {
            Map::new()
        } else {
            diff(before.as_ref(), after.as_ref())
        };
        self.draft = Some(Draft {
            kind,
            resource_id: id,
            private_to,
            changes,
            parent,
        });
    }

    /// The record `id` as it was read before the change: the one read with that id, or
    /// the only one read when it has no id (the company).
    fn take_before(&mut self, id: i64) -> Option<Value> {
        let at = self
            .befores
            .iter()
            .position(|b| b.get("id").and_then(Value::as_i64) == Some(id))
            .or_else(|| {
                (self.befores.len() == 1 && self.befores[0].get("id").is_none()).then_some(0)
            })?;
        Some(self.befores.swap_remove(at))
    }

    /// The entry to insert at the commit, if a change was reported, made `at`.
    pub(crate) fn take(&mut self, at: Timestamp) -> Option<Written> {
        let draft = self.draft.take()?;
        Some(Written::new(self.actor, draft, at))
    }
}

/// The record that the record of an entry of `kind` belongs to ([`ResourceType::parent`]),
/// as `record` (after the change, or before a deletion) names it.
fn parent_of(kind: ActivityType, record: Option<&Value>) -> Option<(ResourceType, i64)> {
    let resource: ResourceType = kind.resource_type().parse().ok()?;
    let (parent, field) = resource.parent()?;
    let id = record?.get(field)?.as_i64()?;
    Some((parent, id))
}

/// The fields that differ between `before` and `after`: `{field: [before, after]}`, nested
/// objects flattened with dots (`totals.amount_due`), arrays compared whole; a field only
/// one side has is `null` on the other.
pub(crate) fn diff(before: Option<&Value>, after: Option<&Value>) -> Map<String, Value> {
    let flat = |value: Option<&Value>| {
        let mut out = BTreeMap::new();
        if let Some(value) = value {
            flatten("", value, &mut out);
        }
        out
    };
    let (mut before, mut after) = (flat(before), flat(after));
    let fields: std::collections::BTreeSet<String> =
        before.keys().chain(after.keys()).cloned().collect();
    let mut changes = Map::new();
    for field in fields {
        let old = before.remove(&field).unwrap_or(Value::Null);
        let new = after.remove(&field).unwrap_or(Value::Null);
        if old != new {
            changes.insert(field, Value::Array(vec![old, new]));
        }
    }
    changes
}

fn flatten(prefix: &str, value: &Value, out: &mut BTreeMap<String, Value>) {
    match value {
        Value::Object(fields) if !fields.is_empty() => {
            for (name, inner) in fields {
                let path = if prefix.is_empty() {
                    name.clone()
                } else {
                    format!("{prefix}.{name}")
                };
                flatten(&path, inner, out);
            }
        }
        other => {
            out.insert(prefix.to_owned(), other.clone());
        }
    }
}

/// Now, to the microsecond (what the database keeps, so that a chained entry's canonical
/// form is the same when it is verified).
pub(crate) fn now() -> Timestamp {
    use chrono::SubsecRound;
    Timestamp(chrono::Utc::now().trunc_subsecs(6))
}

/// An entry as it is inserted (and, for a chained one, hashed: [`chain::canonical`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Written {
    pub(crate) at: Timestamp,
    pub(crate) kind: &'static str,
    pub(crate) resource_type: &'static str,
    pub(crate) resource_id: i64,
    pub(crate) actor_kind: &'static str,
    pub(crate) key_id: Option<i64>,
    pub(crate) user_id: Option<i64>,
    pub(crate) detail: Option<String>,
    pub(crate) private_to: Option<i64>,
    pub(crate) changes: Value,
    /// Whether it joins the chain of issued documents.
    pub(crate) chained: bool,
    /// The record its record belongs to (not part of the chain's canonical form: it is
    /// read off the record).
    pub(crate) parent: Option<(ResourceType, i64)>,
}

impl Written {
    fn new(actor: Actor, draft: Draft, at: Timestamp) -> Written {
        let (key_id, user_id, detail) = match actor {
            Actor::Key { key, user } => (Some(key.get()), Some(user.get()), None),
            Actor::ClientLink { resource_type, id } => {
                (None, None, Some(format!("{resource_type}:{id}")))
            }
            Actor::System(part) => (None, None, Some(part.as_str().to_owned())),
        };
        let chained = is_chained(draft.kind, draft.changes.contains_key("status"));
        Written {
            at,
            kind: draft.kind.as_str(),
            resource_type: draft.kind.resource_type(),
            resource_id: draft.resource_id,
            actor_kind: actor.kind(),
            key_id,
            user_id,
            detail,
            private_to: draft.private_to,
            changes: Value::Object(draft.changes),
            chained,
            parent: draft.parent,
        }
    }
}

/// Inserts an entry: `$1` when, `$2` type, `$3`/`$4` the record, `$5`–`$8` the actor, `$9`
/// private to, `$10` the changes (JSON text), `$11`/`$12` its place in the chain and the
/// previous entry's hash (NULL outside the chain), `$13`/`$14` the record its record
/// belongs to.
pub(crate) const INSERT_SQL: &str = "INSERT INTO activity (made_at, type, resource_type, \
     resource_id, actor_kind, actor_key_id, actor_user_id, actor_detail, private_to, changes, \
     chain_seq, prev_hash, parent_type, parent_id) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text::jsonb, $11, $12, $13, $14)";

/// The parameters of [`INSERT_SQL`] for one entry.
pub(crate) struct Params {
    at: chrono::DateTime<chrono::Utc>,
    kind: &'static str,
    resource_type: &'static str,
    resource_id: i64,
    actor_kind: &'static str,
    key_id: Option<i64>,
    user_id: Option<i64>,
    detail: Option<String>,
    private_to: Option<i64>,
    changes: String,
    seq: Option<i64>,
    prev: Option<Vec<u8>>,
    parent_type: Option<&'static str>,
    parent_id: Option<i64>,
}

impl Params {
    /// `entry`'s parameters, at `link` of the chain (its place and the previous hash).
    pub(crate) fn of(entry: &Written, link: Option<(i64, [u8; 32])>) -> Params {
        Params {
            at: entry.at.0,
            kind: entry.kind,
            resource_type: entry.resource_type,
            resource_id: entry.resource_id,
            actor_kind: entry.actor_kind,
            key_id: entry.key_id,
            user_id: entry.user_id,
            detail: entry.detail.clone(),
            private_to: entry.private_to,
            changes: entry.changes.to_string(),
            seq: link.map(|(seq, _)| seq),
            prev: link.map(|(_, prev)| prev.to_vec()),
            parent_type: entry.parent.map(|(kind, _)| kind.as_str()),
            parent_id: entry.parent.map(|(_, id)| id),
        }
    }

    /// The statement's parameters, in order.
    pub(crate) fn params(&self) -> [&(dyn ToSql + Sync); 14] {
        [
            &self.at,
            &self.kind,
            &self.resource_type,
            &self.resource_id,
            &self.actor_kind,
            &self.key_id,
            &self.user_id,
            &self.detail,
            &self.private_to,
            &self.changes,
            &self.seq,
            &self.prev,
            &self.parent_type,
            &self.parent_id,
        ]
    }
}

/// An entry as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// The entry's id (entries are numbered in the order they were written).
    pub id: i64,
    /// When the change was made.
    pub at: Timestamp,
    /// What happened (`invoice.published`).
    #[serde(rename = "type")]
    pub kind: String,
    /// The record it is about.
    pub resource: ResourceRef,
    /// Who made it.
    pub actor: ShownActor,
    /// `{field: [before, after]}`.
    pub changes: Value,
}

/// A record named by its resource type and id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResourceRef {
    /// `invoice`, `credit_note`, …
    #[serde(rename = "type")]
    pub kind: String,
    /// Its id.
    pub id: i64,
}

/// Who made a change, as the API shows it (API.md §21).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ShownActor {
    /// An API key and the user it acts as.
    Key {
        /// The user.
        user_id: Option<i64>,
        /// The key.
        key_id: i64,
        /// The key's name (`None` once the key itself is gone with its user).
        key_name: Option<String>,
    },
    /// The client, through the link of a record.
    ClientLink {
        /// The record whose link was used.
        client_link: ResourceRef,
    },
    /// The service (`outbox`, `scheduler`, `service`).
    System {
        /// Which part of it.
        system: String,
    },
}

/// The columns of an entry, with its key's name.
const COLUMNS: &str = "SELECT a.id, a.made_at, a.type, a.resource_type, a.resource_id, \
     a.actor_kind, a.actor_key_id, a.actor_user_id, a.actor_detail, a.changes, k.name AS key_name \
     FROM activity a LEFT JOIN api_keys k ON k.id = a.actor_key_id";

fn entry_from_row(row: &Row) -> Result<Entry, StoreError> {
    let kind: String = rows::get(row, "actor_kind")?;
    let detail: Option<String> = rows::get(row, "actor_detail")?;
    let actor = match (kind.as_str(), detail) {
        ("key", _) => ShownActor::Key {
            user_id: rows::get(row, "actor_user_id")?,
            key_id: rows::get(row, "actor_key_id")?,
            key_name: rows::get(row, "key_name")?,
        },
        ("client_link", Some(detail)) => {
            let (kind, id) = detail
                .split_once(':')
                .and_then(|(k, id)| Some((k, id.parse().ok()?)))
                .ok_or_else(|| crate::error::corrupt("client link actor", detail.clone()))?;
            ShownActor::ClientLink {
                client_link: ResourceRef {
                    kind: kind.to_owned(),
                    id,
                },
            }
        }
        (_, detail) => ShownActor::System {
            system: detail.unwrap_or_default(),
        },
    };
    Ok(Entry {
        id: rows::get(row, "id")?,
        at: rows::timestamp(row, "made_at")?,
        kind: rows::get(row, "type")?,
        resource: ResourceRef {
            kind: rows::get(row, "resource_type")?,
            id: rows::get(row, "resource_id")?,
        },
        actor,
        changes: rows::get(row, "changes")?,
    })
}

impl Store {
    /// `GET /api/activity`: the entries `q` selects that `ctx.actor` may see (a private
    /// note's are its creator's alone), newest first by default, paged as every list.
    pub async fn activity(
        &self,
        ctx: Ctx,
        q: &ActivityListQuery,
    ) -> Result<Listed<Entry>, StoreError> {
        let f = &q.filters;
        let mut select = Sql::new(COLUMNS);
        select.push_with(
            " WHERE (a.private_to IS NULL OR a.private_to = {})",
            ctx.actor.get(),
        );
        match (f.resource_type, f.resource_id) {
            (Some(kind), Some(id)) if f.with_belonging => {
                select.push_with(" AND ((a.resource_type = {}", kind.as_str());
                select.push_with(" AND a.resource_id = {})", id);
                select.push_with(" OR (a.parent_type = {}", kind.as_str());
                select.push_with(" AND a.parent_id = {}))", id);
            }
            (kind, id) => {
                if let Some(kind) = kind {
                    select.push_with(" AND a.resource_type = {}", kind.as_str());
                }
                if let Some(id) = id {
                    select.push_with(" AND a.resource_id = {}", id);
                }
            }
        }
        if let Some(key) = f.actor {
            select.push_with(" AND a.actor_key_id = {}", key.get());
        }
        if let Some(kind) = f.kind {
            select.push_with(" AND a.type = {}", kind.as_str());
        }
        if let Some(from) = f.from {
            select.push_with(
                " AND a.made_at >= ({}::date)::timestamp AT TIME ZONE 'UTC'",
                from,
            );
        }
        if let Some(to) = f.to {
            select.push_with(
                " AND a.made_at < ({}::date + 1)::timestamp AT TIME ZONE 'UTC'",
                to,
            );
        }
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(ActivitySort::At) => SortKey::timestamp("made_at", micros_key!("made_at")),
        };
        let request = PageRequest::of(&q.params, q.binding());
        let reader = self.reader().await?;
        let found = sql::page(&*reader, select, None, sort, &request, "").await?;
        Listed::decoded(&found, entry_from_row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crm_core::webhook::EventType;
    use serde_json::json;

    #[test]
    fn a_diff_flattens_objects_compares_arrays_whole_and_keeps_only_what_changed() {
        let before = json!({"id": 7, "title": "A", "status": {"id": 1, "name": "Draft"},
            "tags": ["a", "b"], "notes": null});
        let after = json!({"id": 7, "title": "B", "status": {"id": 2, "name": "Due"},
            "tags": ["a", "c"], "notes": null, "number": "INV-1"});
        let changes = Value::Object(diff(Some(&before), Some(&after)));
        assert_eq!(
            changes,
            json!({"title": ["A", "B"], "status.id": [1, 2], "status.name": ["Draft", "Due"],
                "tags": [["a", "b"], ["a", "c"]], "number": [null, "INV-1"]})
        );
        let created = Value::Object(diff(None, Some(&json!({"id": 1, "notes": null}))));
        assert_eq!(created, json!({"id": [null, 1]}));
    }

    #[test]
    fn the_first_reported_change_is_the_entry_compared_with_the_state_read_before_it() {
        let mut r = Recorder::new(Actor::SERVICE);
        r.before(json!([{"id": 1, "position": 1}, {"id": 2, "position": 2}]));
        r.changed(
            EventType::MilestoneUpdated.into(),
            2,
            Some(json!({"id": 2, "position": 1})),
            None,
        );
        r.changed(
            EventType::MilestoneUpdated.into(),
            1,
            Some(json!({"id": 1, "position": 2})),
            None,
        );
        let entry = r.take(now()).unwrap();
        assert_eq!(entry.resource_id, 2);
        assert_eq!(entry.changes, json!({"position": [2, 1]}));
        assert_eq!(entry.actor_kind, "system");
        assert!(r.take(now()).is_none(), "one entry per transaction");
    }

    #[test]
    fn a_payments_entry_names_its_invoice_as_created_and_as_deleted() {
        let mut r = Recorder::new(Actor::SERVICE);
        r.changed(
            EventType::PaymentCreated.into(),
            9,
            Some(json!({"id": 9, "invoice_id": 4, "amount": "10.00"})),
            None,
        );
        assert_eq!(
            r.take(now()).unwrap().parent,
            Some((ResourceType::Invoice, 4))
        );
        r.before(json!({"id": 9, "invoice_id": 4, "amount": "10.00"}));
        r.changed(EventType::PaymentDeleted.into(), 9, None, None);
        let deleted = r.take(now()).unwrap();
        assert_eq!(deleted.parent, Some((ResourceType::Invoice, 4)));
        assert_eq!(deleted.changes["invoice_id"], json!([4, null]));
        r.changed(
            EventType::NoteCreated.into(),
            5,
            Some(json!({"id": 5, "invoice_id": 4})),
            None,
        );
        assert_eq!(
            r.take(now()).unwrap().parent,
            None,
            "a note belongs to no invoice"
        );
    }

    #[test]
    fn an_action_with_no_state_before_lists_no_fields_but_a_creation_lists_them_all() {
        let mut r = Recorder::new(Actor::SERVICE);
        r.changed(
            EventType::InvoiceEmailed.into(),
            3,
            Some(json!({"id": 3})),
            None,
        );
        assert_eq!(r.take(now()).unwrap().changes, json!({}));
        r.changed(
            EventType::NoteCreated.into(),
            4,
            Some(json!({"id": 4, "title": "T"})),
            None,
        );
        assert_eq!(
            r.take(now()).unwrap().changes,
            json!({"id": [null, 4], "title": [null, "T"]})
        );
    }
}
