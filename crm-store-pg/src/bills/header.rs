//! The header writes both kinds share: PATCH, clone's copies, delete, tags and the email.
//! Each runs inside the caller's transaction.

use crm_core::bill::{BillClone, BillUpdate, Kind, NewBill, Terms, check_end_date};
use crm_core::currency::Currency;
use crm_core::ids::{ProjectId, UserId};
use crm_core::input::Patch;
use crm_core::mail;
use crm_core::tags::TagSet;
use crm_core::totals::Policy;

use super::kind::StoredBill;
use super::{BillSql, LockMode, lock, recompute};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::StoreError;
use crate::messages::{Body, Template};
use crate::{refs, rows, tags};
use tokio_postgres::Row;

/// The default currencies of a bill: the company's and client `$1`'s (NULL when never
/// set, or no such client).
const DEFAULT_CURRENCIES_SQL: &str = "SELECT (SELECT currency FROM company) AS company, \
     (SELECT currency FROM clients WHERE id = $1) AS client";

/// The company's currency (`EUR` when never set).
const COMPANY_CURRENCY_SQL: &str = "SELECT currency FROM company";

/// The company's currency, as a document currency ([`Currency::default_for`]: `EUR` when
/// never set): what an exchange rate converts to.
pub(crate) async fn company_currency(db: &impl Db) -> Result<Currency, StoreError> {
    let code: Option<String> = match db.row_opt(COMPANY_CURRENCY_SQL, &[]).await? {
        Some(row) => rows::get(&row, "currency")?,
        None => None,
    };
    Ok(Currency::default_for(None, code.as_deref()))
}

/// The company's currency ([`Currency::default_for`]: `EUR` when never set) and, for
/// `client`, the currency a new bill of its gets when the request names none.
async fn default_currencies(db: &impl Db, client: i64) -> Result<(Currency, Currency), StoreError> {
    let row = db.row(DEFAULT_CURRENCIES_SQL, &[&client]).await?;
    let company: Option<String> = rows::get(&row, "company")?;
    let client: Option<String> = rows::get(&row, "client")?;
    Ok((
        Currency::default_for(None, company.as_deref()),
        Currency::default_for(client.as_deref(), company.as_deref()),
    ))
}

/// A PATCH field as SQL parameters: (keep the stored value?, the new value).
fn patch_params<T: Clone>(patch: &Patch<T>) -> (bool, Option<T>) {
    match patch {
        Patch::Keep => (true, None),
        Patch::Clear => (false, None),
        Patch::Set(v) => (false, Some(v.clone())),
    }
}

/// PATCH: locks bill `id`, sets the header and recomputes the totals from the stored
/// lines; the status is kept. Every failing field is reported together (references, the
/// second date against the date, also when the stored one is kept, and the discount rules
/// of [`BillUpdate::resolve`]).
///
/// A changed tax mode (either direction) deletes the bill's tax records and gives every
/// line no tax rate and no discount, so that nothing of the other mode survives unseen;
/// the totals are then recomputed from what remains.
pub(crate) async fn update<K: StoredBill>(
    db: &impl Db,
    id: i64,
    cmd: &BillUpdate<K>,
) -> Result<(), StoreError> {
    let sql = K::sql();
    let locked = lock(db, sql, id, LockMode::Update).await?;
    let mut errors = refs::invalid(db, cmd.references()).await?;
    let end_date = cmd.end_date.apply_ref(locked.end_date);
    if let Err(e) = check_end_date::<K>(cmd.date, end_date) {
        errors.merge(e);
    }
    let company = company_currency(db).await?;
    let resolved = cmd.resolve(&locked.totals, company);
    if let Err(e) = &resolved {
        errors.merge(e.clone());
    }
    errors.into_result()?;
    let resolved = resolved?;
    let after = Terms {
        date: cmd.date,
        end_date,
        totals: resolved.header,
        adjustment_description: cmd
            .adjustment_description
            .apply_ref(locked.adjustment_description.clone()),
    };
    K::lock_state(&locked)?.check_update(&locked.terms(), &after)?;
    let (keep_project, project) = patch_params(&cmd.project);
    let (keep_notes, notes) = patch_params(&cmd.notes);
    let (keep_terms, terms) = patch_params(&cmd.terms);
    let (keep_label, label) = patch_params(&cmd.adjustment_description);
    let header = &resolved.header;
    let rate = header.exchange.map(|e| e.rate.get());
    let rate_currency = header.exchange.map(|e| e.to.code());
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 17] = [
        &id,
        &cmd.category.get(),
        &cmd.date,
        &end_date,
        &keep_project,
        &project.map(ProjectId::get),
        &keep_notes,
        &notes,
        &keep_terms,
        &terms,
        &keep_label,
        &label,
        &header.tax_type.as_str(),
        &header.discount.kind().as_str(),
        &header.currency.code(),
        &rate,
        &rate_currency,
    ];
    db.run(sql.update_header, &params).await?;
    if resolved.mode_changed {
        db.run(sql.delete_taxes, &[&id]).await?;
        db.run(sql.clear_line_fields, &[&id]).await?;
    }
    recompute::recompute(db, sql, id, &resolved.header, locked.policy).await
}

/// Create: a draft with no lines, created by `actor`, in the currency asked for (else the
/// client's, else the company's: [`NewBill::money`], which also judges the exchange rate),
/// its totals computed by crm-core for zero lines, inserted and read back whole in one statement ([`BillSql::create`]) that
/// writes only if client, category (of the kind's type) and project hold; when one does
/// not, the usual check reports every failing field. Returns the record's row (the kind's
/// [`records_sql!`] columns).
pub(crate) async fn create<K: Kind>(
    db: &impl Db,
    sql: &BillSql,
    cmd: &NewBill<K>,
    actor: UserId,
    policy: Policy,
) -> Result<Row, StoreError> {
    let references = cmd.references();
    let (company, default) = default_currencies(db, cmd.client.get()).await?;
    let (currency, exchange) = match cmd.money(default, company) {
        Ok(money) => money,
        Err(errors) => {
            let mut all = refs::invalid(db, references).await?;
            all.merge(errors);
            return Err(StoreError::Invalid(all));
        }
    };
    let (kinds, ids) = refs::statement_params(references)?;
    let totals =
        recompute::TotalsColumns::of(&recompute::empty_totals(cmd.tax_type, currency, policy)?);
    let rate = exchange.map(|e| e.rate.get());
    let rate_currency = exchange.map(|e| e.to.code());
    let header: [&(dyn tokio_postgres::types::ToSql + Sync); 15] = [
        &kinds,
        &ids,
        &cmd.client.get(),
        &cmd.category.get(),
        &cmd.date,
        &cmd.end_date,
        &cmd.project.map(ProjectId::get),
        &cmd.tax_type.as_str(),
        &cmd.notes,
        &cmd.terms,
        &actor.get(),
        &policy.name(),
        &currency.code(),
        &rate,
        &rate_currency,
    ];
    let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
        header.into_iter().chain(totals.params()).collect();
    match db.row_opt(sql.create, &params).await? {
        Some(row) => Ok(row),
        None => Err(refs::refused(db, references).await),
    }
}

/// Clone: a new draft with client, category (or the source's), dates and project from the
/// request, and the source's tax type, discount, adjustment, notes, terms, totals, line
/// items and tax records copied (not its tags, status or links). The source is locked
/// `FOR SHARE` so that it cannot change half-way through the copy. Returns the new id.
pub(crate) async fn clone<K: Kind>(
    db: &impl Db,
    sql: &BillSql,
    id: i64,
    cmd: &BillClone<K>,
    actor: UserId,
) -> Result<i64, StoreError> {
    lock(db, sql, id, LockMode::Share).await?;
    refs::require(db, cmd.references()).await?;
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 7] = [
        &id,
        &cmd.client.get(),
        &cmd.category.map(|c| c.get()),
        &cmd.date,
        &cmd.end_date,
        &cmd.project.map(ProjectId::get),
        &actor.get(),
    ];
    let copy: i64 = rows::get(&db.row(sql.clone_header, &params).await?, "id")?;
    copy_lines(db, sql, id, copy).await?;
    Ok(copy)
}

/// Clone: copies the line items and tax records of bill `from` to the new bill `to`.
async fn copy_lines(db: &impl Db, sql: &BillSql, from: i64, to: i64) -> Result<(), StoreError> {
    db.run(sql.clone_lines, &[&from, &to]).await?;
    db.run(sql.clone_taxes, &[&from, &to]).await?;
    Ok(())
}

/// Delete: locks bill `id`, deletes its pending queued emails (and the stored messages no
/// email refers to any more) and the bill with its lines, taxes and tags (cascades); sent
/// emails stay as history, with their messages.
pub(crate) async fn delete<K: StoredBill>(db: &impl Db, id: i64) -> Result<(), StoreError> {
    let sql = K::sql();
    let locked = lock(db, sql, id, LockMode::Update).await?;
    K::lock_state(&locked)?.check_delete()?;
    db.run(sql.delete_pending_emails, &[&id]).await?;
    let kind = K::KIND.template();
    crate::messages::prune(db, kind, id).await?;
    db.run(sql.delete, &[&id]).await?;
    Ok(())
}

/// `PUT …/tags`: locks bill `id` and replaces its tags with `tags`, in order.
pub(crate) async fn set_tags(
    db: &impl Db,
    sql: &BillSql,
    id: i64,
    tags: &TagSet,
    actor: UserId,
) -> Result<(), StoreError> {
    lock(db, sql, id, LockMode::Update).await?;
    tags::replace(db, (sql.tag_owner)(id), tags, actor).await
}

/// The document's client's contact address, if the client has one (else no email is
/// queued), and the versions of the parties its documents name (the company's settings and
/// the client's record: part of its email's version), by the kind's `statement` (a bill's
/// `contact`, a credit note's).
pub(crate) async fn contact(
    db: &impl Db,
    statement: &str,
    id: i64,
) -> Result<(Option<String>, String), StoreError> {
    let row = db.row(statement, &[&id]).await?;
    let contact: Option<String> = rows::get(&row, "contact_email")?;
    let parties: String = rows::get(&row, "parties")?;
    Ok((
        mail::recipient(contact.as_deref()).map(str::to_owned),
        parties,
    ))
}

/// What queued a bill's email (`email_queue.queued_by`, migration 0028).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EmailAction {
    /// `PUT …/publish`: its email is always queued.
    Publish,
    /// `POST …/send-email`: joins an identical email still waiting (see [`waiting`]).
    SendEmail,
}

impl EmailAction {
    /// Its `queued_by` value.
    fn as_str(self) -> &'static str {
        match self {
            EmailAction::Publish => "publish",
            EmailAction::SendEmail => "send-email",
        }
    }
}

/// A send-email's row still waiting with the same message for the same recipient: pending
/// and not being sent (a leased row may already be on the network).
const WAITING_SQL: &str = "SELECT id FROM email_queue WHERE body_id = $1 AND recipient = $2 \
     AND queued_by = 'send-email' AND status = 'pending' AND leased_until IS NULL LIMIT 1";

/// Whether a send-email's row with `body` for `recipient` is still waiting (pending, not
/// being sent): a send-email then joins it rather than queuing the same message again.
pub(crate) async fn waiting(
    db: &impl Db,
    body: &Body,
    recipient: &str,
) -> Result<bool, StoreError> {
    Ok(db
        .row_opt(WAITING_SQL, &[&body.id, &recipient])
        .await?
        .is_some())
}

/// Queues `body` about document `id` to `recipient` by the kind's `statement` (`template`
/// names what it is in the outbox, `action` what queued it), in the transaction `db`, which wakes the delivery
/// workers once it has committed (a row whose message is not composed yet waits for it).
pub(crate) async fn queue_body(
    db: &Tx,
    (statement, template): (&str, Template),
    recipient: &str,
    id: i64,
    body: &Body,
    action: EmailAction,
) -> Result<(), StoreError> {
    db.run(
        statement,
        &[
            &recipient,
            &body.subject,
            &template.as_str(),
            &id,
            &body.id,
            &action.as_str(),
        ],
    )
    .await?;
    db.wake_workers();
    Ok(())
}
