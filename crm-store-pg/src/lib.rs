//! PostgreSQL persistence of the CRM business-records API.
//!
//! [`Store`] is the handle the service uses: every operation of the seven areas, each
//! taking crm-core commands and returning crm-core records. Multi-step writes run in one
//! transaction; references and rules that depend on stored data are checked inside it and
//! come back as [`StoreError::Invalid`] (field errors) or [`StoreError::Conflict`].
//!
//! - [`migrate`]: the migration runner; `create_database_if_missing`.
//! - [`pool`]: configuration, the write pool and the shared pipelined readers.
//! - [`replicas`]: reads from streaming replicas with read-your-writes, and their lag.
//! - [`statements`]: the one switch that sends every statement unnamed (PgBouncer).
//! - [`error`]: the error type and the constraint-name mapping.
//! - `company`, `clients`, `tax_rates`, `projects`, `users` (API.md §17; `party`: the
//!   identity columns the company and clients share),
//!   `categories`, `contracts`, `estimates`, `invoices`, `milestones`, `notes`,
//!   `payments`: the areas' queries (an invoice's balance, which its payments drive, is
//!   read and locked in `payments`); `numbers`: the gapless number series documents are
//!   issued with (API.md §18).
//! - `recurring`: recurring invoices (API.md §20): the schedules, and the scheduler's
//!   claims and runs ([`ScheduleRun`]); `reminders`: payment reminders and overdue
//!   reports ([`Reminded`]).
//! - [`activity`]: who changed what (API.md §21): the entries every write makes, their
//!   list, and the chain of issued documents.
//! - [`conditions`]: idempotency claims and `If-Match` preconditions, and the write
//!   transaction every write opens through them.
//! - [`client`]: the client's side: links, what they open, the client's decision.
//! - [`keys`]: API keys (digests only).
//! - [`local`]: the zero-configuration private PostgreSQL cluster (the service's and the
//!   test harnesses').
//! - [`outbox`]: the email outbox: the API's list, the delivery worker's claims.
//! - [`messages`]: the messages writes queue, composed by the caller after the commit.
//! - [`seed`]: the demo data set.
//! - `testing` (feature `testing`): a fresh migrated database per test.

pub mod activity;
pub mod client;
pub mod error;
pub mod keys;
pub mod local;
pub mod messages;
pub mod migrate;
pub mod outbox;
pub mod pool;
pub mod replicas;
pub mod seed;
pub mod settings;

#[macro_use]
mod bills;
mod categories;
mod clients;
mod company;
pub mod conditions;
mod contracts;
pub mod counts;
mod credit_notes;
mod db;
mod estimates;
mod events;
mod invoices;
mod issued;
mod listed;
mod milestones;
mod notes;
mod numbers;
mod party;
mod payments;
mod projects;
mod recurring;
mod refs;
mod reminders;
mod rows;
mod sql;
mod store;
mod tags;
mod tax_rates;
mod users;
mod wake;
mod webhooks;

#[cfg(feature = "testing")]
pub mod testing;

/// How statements are sent: prepared and cached per connection, or unnamed behind
/// PgBouncer's transaction pooling (`--pgbouncer`; see the `db` module's notes).
pub mod statements {
    pub use crate::db::{unnamed_statements, use_unnamed_statements};
}

pub use crate::bills::handle::{Bills, Versioned};
pub use crate::bills::kind::StoredKind;
pub use crate::bills::list::LIST_BYTE_BUDGET;
pub use crate::conditions::{
    Answer, Claim, Claimed, Conditions, IfMatch, Pending, Ticket, etag, etag_of_json,
};
pub use crate::error::StoreError;
pub use crate::listed::{Listed, PageCursors};
pub use crate::pool::{ClientSide, StoreConfig};
pub use crate::recurring::scheduler::Run as ScheduleRun;
pub use crate::reminders::Reminded;
pub use crate::replicas::{Needed, ReplicaStatus, in_session};
pub use crate::store::{Ctx, PoolStatus, Store};
pub use crate::webhooks::{WebhookAttempt, WebhookJob};
