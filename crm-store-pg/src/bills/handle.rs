//! The operations of a kind of bill, written once for every kind: [`Bills`], the typed
//! handle `store.bills::<InvoiceKind>()` gives. A new kind of bill is a crm-core [`Kind`],
//! a [`StoredBill`] implementation (its statements and rules) and its migration; these
//! operations, and the HTTP handlers over them, are the same for it.

use std::marker::PhantomData;

use chrono::NaiveDate;
use crm_core::bill::{BillClone, BillUpdate, ItemsRequest, Kind, ListQueryOf, NewBill};
use crm_core::conflict::Conflict;
use crm_core::tags::TagSet;
use crm_core::webhook::{BillAction, bill_event};

use super::header::{self, EmailAction};
use super::kind::{BillId, PATCH_TOTAL_FIELD, StoredKind, load, load_many};
use super::list::{count_keys, filtered, page};
use super::{LockMode, items};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::StoreError;
use crate::listed::Listed;
use crate::messages::{Emailed, Letterhead, Queued};
use crate::sql;
use crate::store::{Ctx, Store};

/// The operations of the bills of kind `K` (`EstimateKind`, `InvoiceKind`):
/// `store.bills::<EstimateKind>().get(ctx, id)`. Every write is one transaction that first
/// locks the bill's row (`FOR UPDATE`), compares the request's `If-Match` with the bill as
/// read under the lock, and reports the change as a webhook event in the same
/// transaction.
#[derive(Debug)]
pub struct Bills<'s, K> {
    store: &'s Store,
    kind: PhantomData<K>,
}

impl<K> Clone for Bills<'_, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for Bills<'_, K> {}

impl Store {
    /// The operations of the bills of kind `K`.
    pub fn bills<K: StoredKind>(&self) -> Bills<'_, K> {
        Bills {
            store: self,
            kind: PhantomData,
        }
    }
}

impl<'s, K: StoredKind> Bills<'s, K> {
    /// `GET /estimates/{id}`, `GET /invoices/{id}`: the bill, whole, in one statement on the
    /// shared reader. `NotFound` for an unknown id (and for a contract's backing estimate).
    pub async fn get(self, ctx: Ctx, id: K::Id) -> Result<K::Record, StoreError> {
        self.get_on(ctx.today, id).await
    }

    /// The bill as shown on `today`, for readers with no actor (the client's page, the
    /// outbox's composing).
    pub async fn get_on(self, today: NaiveDate, id: K::Id) -> Result<K::Record, StoreError> {
        let reader = self.store.reader().await?;
        load(&*reader, id, self.store.view_on(today)).await
    }

    /// `GET /estimates`, `GET /invoices`: the page of listed bills matching `q` (filters
    /// combine with AND; `status` is the shown status on `ctx.today`), whole, with the exact
    /// total.
    pub async fn list(self, ctx: Ctx, q: &ListQueryOf<K>) -> Result<Listed<K::Record>, StoreError> {
        let sql = K::sql();
        let mut select = filtered(sql, q, |s, status| K::push_status(s, *status, ctx.today));
        let status = q.filters.status.map(K::counted_status);
        let total =
            count_keys(q, status, ctx.today).map(|keys| sql::counted(&mut select, sql.table, keys));
        let reader = self.store.reader().await?;
        let db = &*reader;
        let view = self.store.view(ctx);
        let load = |ids: Vec<i64>| async move { load_many::<K>(db, &ids, view).await };
        let record_id = |record: &K::Record| K::raw(K::record_id(record));
        page(
            db,
            sql.list_bytes,
            select,
            total,
            K::sort_key(q.params.sort),
            q,
            load,
            record_id,
        )
        .await
    }

    /// `POST /estimates`, `POST /invoices`: a draft with no lines, created by `ctx.actor`,
    /// its totals computed by crm-core for zero lines; one statement (`header::create`), in
    /// which client, category (of the kind's type) and project are checked.
    pub async fn create(self, ctx: Ctx, cmd: &NewBill<K>) -> Result<K::Record, StoreError> {
        let tx = self.store.begin().await?;
        let row = header::create(&tx, K::sql(), cmd, ctx.actor, self.store.policy()).await?;
        let record = K::decode(&row, self.store.view(ctx))?;
        let id: i64 = crate::rows::get(&row, "id")?;
        tx.emit(bill_event(K::KIND, BillAction::Created), id, &record)?;
        tx.commit().await?;
        Ok(record)
    }

    /// `PATCH /estimates/{id}`, `PATCH /invoices/{id}`: sets the header and recomputes the
    /// totals from the stored lines; the status is kept but for an invoice's, which follows
    /// its payments (`header::update`: every failing field at once; a changed tax mode
    /// clears the taxes and the lines' mode-specific fields; then
    /// the kind's `totals_changed`).
    pub async fn update(
        self,
        ctx: Ctx,
        id: K::Id,
        cmd: &BillUpdate<K>,
    ) -> Result<K::Record, StoreError> {
        let tx = self.begin_on(ctx, id).await?;
        header::update::<K>(&tx, id.raw(), cmd).await?;
        K::totals_changed(&tx, id.raw(), PATCH_TOTAL_FIELD).await?;
        self.finish(tx, id, ctx, bill_event(K::KIND, BillAction::Updated))
            .await
    }

    /// `PUT …/{id}/items`: the complete bill (lines, tax records, totals) replaced in one
    /// transaction (`items::replace_items`), then the kind's `totals_changed`.
    pub async fn replace_items(
        self,
        ctx: Ctx,
        id: K::Id,
        req: ItemsRequest,
    ) -> Result<K::Record, StoreError> {
        let tx = self.begin_on(ctx, id).await?;
        items::replace_items::<K>(&tx, id.raw(), req).await?;
        K::totals_changed(&tx, id.raw(), "items").await?;
        self.finish(tx, id, ctx, bill_event(K::KIND, BillAction::Updated))
            .await
    }

    /// `PUT …/{id}/tags`: replaces the tags with `tags`, in order.
    pub async fn set_tags(
        self,
        ctx: Ctx,
        id: K::Id,
        tags: &TagSet,
    ) -> Result<K::Record, StoreError> {
        let tx = self.begin_on(ctx, id).await?;
        header::set_tags(&tx, K::sql(), id.raw(), tags, ctx.actor).await?;
        self.finish(tx, id, ctx, bill_event(K::KIND, BillAction::Updated))
            .await
    }

    /// `PUT …/{id}/status`: stores the status as far as the kind's rules allow (any of
    /// an estimate's five; an invoice's as its payments allow).
    pub async fn set_status(
        self,
        ctx: Ctx,
        id: K::Id,
        cmd: &K::StatusChange,
    ) -> Result<K::Record, StoreError> {
        let tx = self.begin_on(ctx, id).await?;
        let event = K::set_status(&tx, id.raw(), cmd, ctx.today).await?;
        K::keep_parties(&tx, self.store.company_name(), id.raw()).await?;
        self.finish(tx, id, ctx, event).await
    }

    /// `POST …/{id}/clone`: a new draft with the request's header fields and the source's
    /// tax type, discount, adjustment, notes, terms, totals, line items and tax records
    /// copied (not its tags, status, link or conversion). The source is locked `FOR
    /// SHARE`, so that it cannot change half-way through the copy.
    pub async fn clone_bill(
        self,
        ctx: Ctx,
        id: K::Id,
        cmd: &BillClone<K>,
    ) -> Result<K::Record, StoreError> {
        let tx = self.store.begin().await?;
        let copy = header::clone(&tx, K::sql(), id.raw(), cmd, ctx.actor).await?;
        let copy = K::id(copy).ok_or_else(|| crate::error::corrupt("new bill id", copy))?;
        self.finish(tx, copy, ctx, bill_event(K::KIND, BillAction::Created))
            .await
    }

    /// `DELETE /estimates/{id}`, `DELETE /invoices/{id}`: the bill with its lines, taxes and
    /// tags (cascades) and its pending queued emails; sent emails stay as history. An
    /// invoice converted from a deleted estimate stays (its `estimate_id` becomes NULL); an
    /// estimate whose invoice is deleted can be converted again.
    pub async fn delete(self, ctx: Ctx, id: K::Id) -> Result<(), StoreError> {
        let tx = self.begin_on(ctx, id).await?;
        header::delete::<K>(&tx, id.raw()).await?;
        tx.emit_deleted(bill_event(K::KIND, BillAction::Deleted), id.raw())?;
        tx.commit().await
    }

    /// `PUT …/{id}/publish`: a draft is published (a conflict otherwise), gets a client
    /// link if it has none, and its email to the client is queued, all in one transaction.
    /// The message is composed by the caller after the commit ([`Emailed::compose`]).
    pub async fn publish(
        self,
        ctx: Ctx,
        id: K::Id,
        letterhead: &Letterhead,
    ) -> Result<Emailed<K::Record>, StoreError> {
        let tx = self.store.begin().await?;
        let locked = super::lock(&tx, K::sql(), id.raw(), LockMode::Update).await?;
        tx.if_match(load(&tx, id, self.store.view(ctx))).await?;
        K::publish(&tx, id.raw(), &locked, ctx.today).await?;
        K::keep_parties(&tx, self.store.company_name(), id.raw()).await?;
        let (record, queued) = self
            .store
            .link_and_email(&tx, ctx, id, EmailAction::Publish, letterhead)
            .await?;
        tx.emit(
            bill_event(K::KIND, BillAction::Published),
            id.raw(),
            &record,
        )?;
        tx.commit().await?;
        Ok(queued.emailed(record))
    }

    /// `POST …/{id}/send-email`: queues the bill's email (a conflict for a draft, and for a
    /// client without a contact address: nothing would be sent, so nothing is written), or
    /// joins the same message still waiting on an earlier send-email's row; the bill is
    /// unchanged but for a client link if it had no working one. Joining queues nothing
    /// new, so it reports no event.
    pub async fn send_email(
        self,
        ctx: Ctx,
        id: K::Id,
        letterhead: &Letterhead,
    ) -> Result<Emailed<K::Record>, StoreError> {
        let tx = self.store.begin().await?;
        // FOR UPDATE, not FOR SHARE: the link may be written, and two sharers that both
        // write would deadlock.
        let locked = super::lock(&tx, K::sql(), id.raw(), LockMode::Update).await?;
        K::check_send_email(&locked)?;
        let (record, queued) = self
            .store
            .link_and_email(&tx, ctx, id, EmailAction::SendEmail, letterhead)
            .await?;
        match queued {
            Queued::NoRecipient => return Err(Conflict::NoContactEmail.into()),
            Queued::Joined => {}
            Queued::New(_) => {
                tx.emit(bill_event(K::KIND, BillAction::Emailed), id.raw(), &record)?;
            }
        }
        tx.commit().await?;
        Ok(queued.emailed(record))
    }

    /// `POST …/{id}/link`: a new client link (any old one stops working at once), expiring
    /// after the configured lifetime.
    pub async fn make_link(self, ctx: Ctx, id: K::Id) -> Result<K::Record, StoreError> {
        let tx = self.begin_on(ctx, id).await?;
        self.store
            .set_link(&tx, K::sql().set_link, id.raw())
            .await?;
        self.finish(tx, id, ctx, bill_event(K::KIND, BillAction::Updated))
            .await
    }

    /// `DELETE …/{id}/link`: the client link stops working (the bill then has none).
    pub async fn revoke_link(self, ctx: Ctx, id: K::Id) -> Result<K::Record, StoreError> {
        let tx = self.begin_on(ctx, id).await?;
        tx.run(K::sql().clear_link, &[&id.raw()]).await?;
        self.finish(tx, id, ctx, bill_event(K::KIND, BillAction::Updated))
            .await
    }

    /// The bill's version now (a digest, made by PostgreSQL, of every column its read
    /// returns, each line by its row version) and the reader it was read on, from which
    /// [`Versioned::record`] reads the bill itself: what a cache of rendered documents is
    /// keyed by. `NotFound` as [`Bills::get`].
    pub async fn versioned(
        self,
        today: NaiveDate,
        id: K::Id,
    ) -> Result<Versioned<'s, K>, StoreError> {
        let reader = self.store.reader().await?;
        Versioned::read(self.store, reader, today, id).await
    }

    /// Begins a write of bill `id`: the transaction, the row locked, and the request's
    /// `If-Match` compared with the bill as read under the lock ([`Tx::if_match`]: a
    /// mismatch is a 412 and nothing is written; that read is also the bill before the
    /// change, for its activity entry).
    async fn begin_on(self, ctx: Ctx, id: K::Id) -> Result<Tx, StoreError> {
        let tx = self.store.begin().await?;
        tx.if_match(async {
            super::lock(&tx, K::sql(), id.raw(), LockMode::Update).await?;
            load(&tx, id, self.store.view(ctx)).await
        })
        .await?;
        Ok(tx)
    }

    /// The end of a write of bill `id`: the bill read back in its transaction, reported as
    /// `event`, and the commit.
    async fn finish(
        self,
        tx: Tx,
        id: K::Id,
        ctx: Ctx,
        event: crm_core::webhook::EventType,
    ) -> Result<K::Record, StoreError> {
        let record = load(&tx, id, self.store.view(ctx)).await?;
        tx.emit(event, id.raw(), &record)?;
        tx.commit().await?;
        Ok(record)
    }
}

/// A bill's version and the connection it was read on ([`Bills::versioned`]).
#[derive(Debug)]
pub struct Versioned<'s, K: Kind> {
    store: &'s Store,
    reader: std::sync::Arc<deadpool_postgres::ClientWrapper>,
    today: NaiveDate,
    id: K::Id,
    /// The version: a hex digest that changes with any column of the bill's read.
    pub version: String,
}

impl<'s, K: StoredKind> Versioned<'s, K> {
    /// Reads bill `id`'s version on `reader`.
    pub(crate) async fn read(
        store: &'s Store,
        reader: std::sync::Arc<deadpool_postgres::ClientWrapper>,
        today: NaiveDate,
        id: K::Id,
    ) -> Result<Versioned<'s, K>, StoreError> {
        let sql = K::sql();
        let row = reader
            .row_opt(sql.version, &[&id.raw()])
            .await?
            .ok_or(StoreError::NotFound(sql.resource))?;
        Ok(Versioned {
            store,
            reader,
            today,
            id,
            version: crate::rows::get(&row, "version")?,
        })
    }

    /// The bill's id.
    pub fn id(&self) -> K::Id {
        self.id
    }

    /// The day its shown status is derived for.
    pub fn today(&self) -> NaiveDate {
        self.today
    }

    /// The store it was read from (to read what else its documents show).
    pub fn store(&self) -> &'s Store {
        self.store
    }

    /// The public address its link is written under.
    pub fn public_url(&self) -> &str {
        &self.store.client_side().public_url
    }

    /// The bill itself, read on the same connection after its version, so that what is
    /// kept under a version is never newer than it.
    pub async fn record(&self) -> Result<K::Record, StoreError> {
        load(&*self.reader, self.id, self.store.view_on(self.today)).await
    }
}
