//! Client links of bills (API.md §12): a random token on the bill's own row (migration
//! 0016) with its expiry, shown on the record as `client_link`. A link is made when the
//! bill is first published or emailed ([`Store::link_and_email`], in that action's
//! transaction, so the email carries it), or on demand (`make_link`, which replaces any old
//! one), and removed by `revoke_link`. What a token opens, and the client's decision, are
//! [`crate::client`]'s.
//!
//! The record's link needs the public address of the service, which the store is
//! configured with (`ClientSide`); reads get it through a [`View`].
//!
//! The typed handle ([`super::handle::Bills`]) gives each kind its `make_link` and
//! `revoke_link` over these.

use chrono::NaiveDate;
use crm_core::bill::link::{self, ClientLink, TOKEN_BYTES};
use crm_core::bill::{BillKind, Kind};
use tokio_postgres::Row;

use super::BillSql;
use super::header::{self, EmailAction};
use super::kind::{BillId, RecordOf, StoredBill, View, load};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::StoreError;
use crate::messages::{self, Letterhead, Queued, Template};
use crate::rows;
use crate::store::{Ctx, Store};

/// The record's link from its row (`client_token` is NULL unless live, see
/// `records_sql!`).
pub(crate) fn link_of(row: &Row, public_url: &str) -> Result<Option<ClientLink>, StoreError> {
    let token: Option<String> = rows::get(row, "client_token")?;
    let Some(token) = token else {
        return Ok(None);
    };
    let expires = rows::timestamp(row, "client_token_expires_at")?;
    Ok(Some(ClientLink::new(public_url, &token, expires)))
}

/// A new token: [`TOKEN_BYTES`] from the operating system's generator.
fn new_token() -> Result<String, StoreError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Internal(format!("no random bytes for a link: {e}")))?;
    Ok(link::token_text(&bytes))
}

/// What emailing a document of one kind runs: its kind, and its statements that give it a
/// link unless it has a working one (`$2` the token, `$3` the lifetime in days), read its
/// client's contact and the parties' versions ([`header::contact`]), and queue its email
/// ([`header::queue_body`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mailing {
    /// The kind of document.
    pub(crate) kind: BillKind,
    /// `ensure_link`.
    pub(crate) ensure_link: &'static str,
    /// `contact`.
    pub(crate) contact: &'static str,
    /// `queue_email`.
    pub(crate) queue_email: &'static str,
}

impl Mailing {
    /// A bill's.
    fn of(kind: BillKind, sql: &'static BillSql) -> Mailing {
        Mailing {
            kind,
            ensure_link: sql.ensure_link,
            contact: sql.contact,
            queue_email: sql.queue_email,
        }
    }
}

/// The lifetime as the statements take it (`make_interval(days => int)`).
fn ttl(days: u32) -> i32 {
    i32::try_from(days.min(link::MAX_TTL_DAYS)).unwrap_or(i32::MAX)
}

impl Store {
    /// The view of records for `ctx`.
    pub(crate) fn view(&self, ctx: Ctx) -> View<'_> {
        self.view_on(ctx.today)
    }

    /// The view of records on `today` (the client's pages, which have no actor).
    pub(crate) fn view_on(&self, today: NaiveDate) -> View<'_> {
        View {
            today,
            public_url: &self.inner.client.public_url,
        }
    }

    /// Gives bill `id` a new link (rotation: any old one stops working at once), expiring
    /// `link_ttl_days` from now.
    /// `statement` is the kind's (a bill's `set_link`, a credit note's).
    pub(crate) async fn set_link(
        &self,
        db: &Tx,
        statement: &str,
        id: i64,
    ) -> Result<(), StoreError> {
        let ttl = ttl(self.inner.client.link_ttl_days);
        db.run(statement, &[&id, &new_token()?, &ttl]).await?;
        Ok(())
    }

    /// Gives bill `id` a link unless it has a working one, reads it back, and queues its
    /// email: publish and send-email, in their transaction with the row locked `FOR
    /// UPDATE`.
    ///
    /// Nothing is rendered here: the message of a version of the record (the record as
    /// the API shows it, and the caller's [`Letterhead`]) is stored once in
    /// `email_bodies`, composed by the caller after the commit ([`crate::messages`]); a
    /// later email of the same version shares it. A send-email whose message, for the same
    /// recipient, is already on a send-email's row that is still pending and not being sent
    /// joins that row ([`Queued::Joined`]): the client receives it once. Publish's own
    /// email is never joined.
    pub(crate) async fn link_and_email<I: BillId>(
        &self,
        db: &Tx,
        ctx: Ctx,
        id: I,
        action: EmailAction,
        letterhead: &Letterhead,
    ) -> Result<(RecordOf<I>, Queued), StoreError> {
        let mailing = Mailing::of(<I::Kind as Kind>::KIND, I::Kind::sql());
        let view = self.view(ctx);
        self.link_and_email_with(db, &mailing, id.raw(), action, letterhead, || {
            load(db, id, view)
        })
        .await
    }

    /// [`Store::link_and_email`] for a document of any kind: `mailing` its statements,
    /// `read` its record as the API shows it (read after the link is made).
    pub(crate) async fn link_and_email_with<R, F>(
        &self,
        db: &Tx,
        mailing: &Mailing,
        id: i64,
        action: EmailAction,
        letterhead: &Letterhead,
        read: impl FnOnce() -> F,
    ) -> Result<(R, Queued), StoreError>
    where
        R: serde::Serialize,
        F: Future<Output = Result<R, StoreError>>,
    {
        let template = Template::of(mailing.kind);
        let ttl = ttl(self.inner.client.link_ttl_days);
        db.run(mailing.ensure_link, &[&id, &new_token()?, &ttl])
            .await?;
        let record = read().await?;
        let (recipient, parties) = header::contact(db, mailing.contact, id).await?;
        let Some(recipient) = recipient else {
            return Ok((record, Queued::NoRecipient));
        };
        let version = messages::version(template, &(&record, parties), letterhead)?;
        let resource = mailing.kind.template();
        let body = messages::body(db, resource, template, id, &version).await?;
        if action == EmailAction::SendEmail && header::waiting(db, &body, &recipient).await? {
            return Ok((record, Queued::Joined));
        }
        let queue = (mailing.queue_email, template);
        header::queue_body(db, queue, &recipient, id, &body, action).await?;
        Ok((record, body.queued()))
    }
}
