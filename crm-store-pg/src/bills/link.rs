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
//! [`link_api!`] gives each kind its public `make_…_link` and `revoke_…_link`.

use chrono::NaiveDate;
use crm_core::bill::Kind;
use crm_core::bill::link::{self, ClientLink, TOKEN_BYTES};
use crm_core::webhook::{BillAction, bill_event};
use tokio_postgres::Row;

use super::BillSql;
use super::header::{self, EmailAction};
use super::kind::{BillId, RecordOf, StoredBill, View, load};
use crate::conditions::Tx;
use crate::db::Db;
use crate::{Ctx, Store, StoreError, rows};

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

/// Gives bill `id` a link unless it has a working one (publish and email, in their
/// transaction, with the row locked).
async fn ensure_link(
    db: &impl Db,
    sql: &BillSql,
    id: i64,
    ttl_days: u32,
) -> Result<(), StoreError> {
    db.run(sql.ensure_link, &[&id, &new_token()?, &ttl(ttl_days)])
        .await?;
    Ok(())
}

/// The lifetime as the statements take it (`make_interval(days => int)`).
fn ttl(days: u32) -> i32 {
    i32::try_from(days.min(link::MAX_TTL_DAYS)).unwrap_or(i32::MAX)
}

/// What became of the email of a publish or send-email.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Queued {
    /// The bill's client has no contact address: nothing is queued (the action succeeds).
    NoRecipient,
    /// A new outbox row.
    New,
    /// A send-email joined a send-email's row still waiting with the same message for the
    /// same recipient: nothing new is queued, and nothing changed.
    Joined,
}

/// A rendering failure (a template could not write to a string): an internal fault.
pub(crate) fn render_error(e: crm_render::RenderError) -> StoreError {
    StoreError::Internal(format!("rendering: {e}"))
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

    /// Gives bill `id` a link unless it has a working one, reads it back, and queues its
    /// email: publish and send-email, in their transaction with the row locked `FOR
    /// UPDATE`.
    ///
    /// The message is rendered once per version of the record (the record as the API shows
    /// it, with the settings the rendering reads: [`Store::email_version`]) and stored in
    /// `email_bodies`; a later email of the same version shares it (migration 0028). A
    /// send-email whose message, for the same recipient, is already on a send-email's row
    /// that is still pending and not being sent joins that row ([`Queued::Joined`]): the
    /// client receives it once. Publish's own email is never joined.
    pub(crate) async fn link_and_email<I: BillId>(
        &self,
        db: &Tx,
        ctx: Ctx,
        id: I,
        action: EmailAction,
    ) -> Result<(RecordOf<I>, Queued), StoreError> {
        let sql = I::Kind::sql();
        let kind = <I::Kind as Kind>::KIND.template();
        ensure_link(db, sql, id.raw(), self.inner.client.link_ttl_days).await?;
        let record = load(db, id, self.view(ctx)).await?;
        let Some(recipient) = header::contact(db, sql, id.raw()).await? else {
            return Ok((record, Queued::NoRecipient));
        };
        let version = self.email_version(&record)?;
        let body = match header::find_body(db, kind, id.raw(), &version).await? {
            Some(body) => {
                if action == EmailAction::SendEmail
                    && header::waiting(db, &body, &recipient).await?
                {
                    return Ok((record, Queued::Joined));
                }
                body
            }
            None => {
                let doc = I::Kind::document(self, &record);
                let email = crm_render::email::render(&doc).map_err(render_error)?;
                let client = &self.inner.client;
                let pdf = match client.attach_pdf {
                    true => {
                        Some(crm_render::pdf::render(&doc, client.paper).map_err(render_error)?)
                    }
                    false => None,
                };
                header::store_body(db, kind, id.raw(), &version, &email, pdf.as_deref()).await?
            }
        };
        header::queue_body(db, sql, &recipient, kind, id.raw(), &body, action).await?;
        Ok((record, Queued::New))
    }

    /// The version of `record` its email is rendered from: the SHA-256 of the record as the
    /// API shows it (its figures, texts, status and link) and of the settings the rendering
    /// reads (the company name, the paper, whether the PDF is attached).
    fn email_version<T: serde::Serialize>(&self, record: &T) -> Result<Vec<u8>, StoreError> {
        use sha2::{Digest, Sha256};
        let json = serde_json::to_vec(record)
            .map_err(|e| StoreError::Internal(format!("cannot serialise a record: {e}")))?;
        let client = &self.inner.client;
        let mut hasher = Sha256::new();
        for part in [
            json.as_slice(),
            client.company.as_bytes(),
            client.paper.name().as_bytes(),
            &[u8::from(client.attach_pdf)],
        ] {
            hasher.update(u64::try_from(part.len()).unwrap_or(u64::MAX).to_be_bytes());
            hasher.update(part);
        }
        Ok(hasher.finalize().to_vec())
    }

    /// `POST /estimates/{id}/link`, `POST /invoices/{id}/link`: a new link (any old one
    /// stops working at once), expiring `link_ttl_days` from now.
    pub(crate) async fn make_link<I: BillId>(
        &self,
        ctx: Ctx,
        id: I,
    ) -> Result<RecordOf<I>, StoreError> {
        let sql = I::Kind::sql();
        let tx = self.begin_on_bill(ctx, id).await?;
        let ttl = ttl(self.inner.client.link_ttl_days);
        tx.run(sql.set_link, &[&id.raw(), &new_token()?, &ttl])
            .await?;
        let record = load(&tx, id, self.view(ctx)).await?;
        tx.emit(
            bill_event(I::Kind::KIND, BillAction::Updated),
            id.raw(),
            &record,
        )?;
        tx.commit().await?;
        Ok(record)
    }

    /// `DELETE /estimates/{id}/link`, `DELETE /invoices/{id}/link`: the link stops working.
    pub(crate) async fn revoke_link<I: BillId>(
        &self,
        ctx: Ctx,
        id: I,
    ) -> Result<RecordOf<I>, StoreError> {
        let tx = self.begin_on_bill(ctx, id).await?;
        tx.run(I::Kind::sql().clear_link, &[&id.raw()]).await?;
        let record = load(&tx, id, self.view(ctx)).await?;
        tx.emit(
            bill_event(I::Kind::KIND, BillAction::Updated),
            id.raw(),
            &record,
        )?;
        tx.commit().await?;
        Ok(record)
    }
}

/// The public link methods of one kind of bill: `link_api!(Id, Record, "estimate",
/// "estimates": make_link, revoke_link)` with the methods' names.
macro_rules! link_api {
    ($id:ty, $record:ty, $one:literal, $many:literal: $make:ident, $revoke:ident $(,)?) => {
        impl $crate::Store {
            #[doc = concat!("`POST /", $many, "/{id}/link`: a new client link for the ", $one, ", expiring after the configured lifetime; any old link stops working at once.")]
            pub async fn $make(&self, ctx: $crate::Ctx, id: $id) -> Result<$record, $crate::StoreError> {
                self.make_link(ctx, id).await
            }

            #[doc = concat!("`DELETE /", $many, "/{id}/link`: the ", $one, "'s client link stops working (the ", $one, " then has none).")]
            pub async fn $revoke(&self, ctx: $crate::Ctx, id: $id) -> Result<$record, $crate::StoreError> {
                self.revoke_link(ctx, id).await
            }
        }
    };
}
