//! What the store must know of a kind of bill ([`StoredBill`]: its statements, its
//! decoding, its list's status filter, its status rules), and the reads every operation
//! shares ([`load`], [`load_many`]). The operations themselves are written once for every
//! kind, in [`super::handle`].

use chrono::NaiveDate;
use crm_core::bill::{Kind, Lock};
use crm_core::webhook::EventType;
use tokio_postgres::Row;

use super::list::CountedStatus;
use super::{BillSql, Locked};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::StoreError;
use crate::sql::{SortKey, Sql};

/// What a read needs besides the row: the day the shown status is derived for, and the
/// public address links are written under.
#[derive(Debug, Clone, Copy)]
pub(crate) struct View<'a> {
    /// Today's date.
    pub today: NaiveDate,
    /// The public URL.
    pub public_url: &'a str,
}

/// A kind of bill as the store keeps it (implemented for `EstimateKind` and `InvoiceKind`):
/// crm-core's [`Kind`] (its id, record, list query and status command types) and what the
/// store adds: its statements, its decoding, its list's status filter and its status rules.
/// Crate-private, so that the kinds of bill are the store's (the public operations over it
/// are [`super::handle::Bills`]'s).
pub(crate) trait StoredBill: Kind<Id: BillId<Kind = Self>> {
    /// Its statements.
    fn sql() -> &'static BillSql;

    /// A record from a row of its records statement, the shown status derived for
    /// `view.today` and its link written under `view.public_url`.
    fn decode(row: &Row, view: View<'_>) -> Result<Self::Record, StoreError>;

    /// The whitelisted sort key of its list (over the filtered select's columns).
    fn sort_key(sort: Option<Self::Sort>) -> SortKey;

    /// Appends the shown-status filter to the list's select (alias `b`), from crm-core's
    /// conditions (the one rule).
    fn push_status(select: &mut Sql, status: Self::Status, today: NaiveDate);

    /// The shown-status filter as the maintained counts see it.
    fn counted_status(status: Self::Status) -> CountedStatus;

    /// What follows a write of bill `id`'s header or items (a PATCH, new items), inside its
    /// transaction with the row locked; `field` is the request field a refusal is reported
    /// on. An invoice's total may not fall below what it was paid, and its status follows
    /// its payments; an estimate whose offer changed after it was published is revised.
    fn totals_changed<'a>(
        db: &'a Tx,
        id: i64,
        field: &'static str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'a;

    /// Publishes the locked bill `id` on `day` (crm-core's rule on its stored status: a
    /// conflict unless a draft), giving it its number if it has none, in its transaction.
    fn publish<'a>(
        db: &'a Tx,
        id: i64,
        locked: &'a Locked,
        day: NaiveDate,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'a;

    /// Keeps the parties of bill `id` if a write in `db` issued it and they are not kept
    /// yet (an invoice's, API.md §18: the company, its trading name `fallback` when it set
    /// none, and the client as they are now); an estimate keeps none.
    fn keep_parties<'a>(
        db: &'a Tx,
        fallback: &'a str,
        id: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'a;

    /// How far the locked bill may change (crm-core's rule: an issued invoice, an accepted
    /// estimate keep what they state).
    fn lock_state(locked: &Locked) -> Result<Lock, StoreError>;

    /// Whether the locked bill may be emailed (crm-core's rule: not a draft).
    fn check_send_email(locked: &Locked) -> Result<(), StoreError>;

    /// Stores `cmd`'s status on bill `id` (its row locked, its `If-Match` checked) as far
    /// as the kind's rules allow, on `day` (an invoice issued by it takes its number), and
    /// gives the event the change is.
    fn set_status<'a>(
        db: &'a Tx,
        id: i64,
        cmd: &'a Self::StatusChange,
        day: NaiveDate,
    ) -> impl Future<Output = Result<EventType, StoreError>> + Send + 'a;
}

/// A kind of bill the store keeps: `EstimateKind`, `InvoiceKind` (sealed: its machinery,
/// `StoredBill`, is the store's). The bound of the typed handle
/// [`Bills`](super::handle::Bills), and of code generic over the kinds of bill.
#[allow(
    private_bounds,
    reason = "sealed: the kinds of bill and their statements are the store's"
)]
pub trait StoredKind: StoredBill {}

impl<K: StoredBill> StoredKind for K {}

/// The PATCH field a refused total is reported on (as a total out of range is:
/// `crm_core::bill::header::total_overflow_error`).
pub(crate) const PATCH_TOTAL_FIELD: &str = "bill_adjustment_amount";

/// The id of a kind of bill, which names its kind (so that the operations below infer it).
pub(crate) trait BillId: Copy + Send + Sync + 'static {
    /// The kind it names.
    type Kind: StoredBill<Id = Self>;

    /// The id as stored.
    fn raw(self) -> i64;
}

impl BillId for crm_core::ids::EstimateId {
    type Kind = crm_core::bill::EstimateKind;

    fn raw(self) -> i64 {
        self.get()
    }
}

impl BillId for crm_core::ids::InvoiceId {
    type Kind = crm_core::bill::InvoiceKind;

    fn raw(self) -> i64 {
        self.get()
    }
}

/// The record of the bill whose id is `I`.
pub(crate) type RecordOf<I> = <<I as BillId>::Kind as Kind>::Record;

/// The listed bills of kind `K` among `ids`, whole, in no particular order.
pub(crate) async fn load_many<K: StoredBill>(
    db: &impl Db,
    ids: &[i64],
    view: View<'_>,
) -> Result<Vec<K::Record>, StoreError> {
    let found = db.rows(K::sql().records, &[&ids]).await?;
    found.iter().map(|row| K::decode(row, view)).collect()
}

/// Listed bill `id`, whole; the kind's `NotFound` when missing (or unlisted).
pub(crate) async fn load<I: BillId>(
    db: &impl Db,
    id: I,
    view: View<'_>,
) -> Result<RecordOf<I>, StoreError> {
    load_many::<I::Kind>(db, &[id.raw()], view)
        .await?
        .pop()
        .ok_or(StoreError::NotFound(I::Kind::sql().resource))
}
