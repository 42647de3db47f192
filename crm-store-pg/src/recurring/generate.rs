//! Making the invoice of one occurrence, inside the caller's transaction, with the
//! invoices' own machinery: the header as `POST /invoices` creates it, the discount as
//! `PATCH /invoices/{id}` sets it, the lines as `PUT …/items` prices them, and, for a
//! schedule that issues its invoices, the publish of `PUT …/publish` (its number from the
//! series, its client link, its email). A template is checked by the same path, in a
//! savepoint that is rolled back ([`check_template`]).

use chrono::NaiveDate;
use crm_core::bill::{BillUpdate, InvoiceKind, ItemsRequest, Kind};
use crm_core::ids::{InvoiceId, RecurringInvoiceId, UserId};
use crm_core::input::RawMap;
use crm_core::invoice::{Invoice, NewInvoice};
use crm_core::recurring::template::{has_discount, invoice_input};
use crm_core::recurring::template_errors;
use crm_core::validation::{FieldErrors, Rejected};
use crm_core::webhook::{BillAction, EventType, bill_event};

use crate::bills::header::{self, EmailAction};
use crate::bills::kind::{StoredBill, load};
use crate::bills::{self, LockMode, items};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::{StoreError, corrupt};
use crate::messages::{Letterhead, Queued};
use crate::store::{Ctx, Store};
use crate::{refs, rows};

/// One occurrence to make: the schedule's template and terms, and its date.
pub(crate) struct Occurrence<'a> {
    /// The schedule (`None` while a template is only checked).
    pub schedule: Option<RecurringInvoiceId>,
    /// The template, as kept.
    pub template: &'a RawMap,
    /// The occurrence's date: the invoice's date.
    pub date: NaiveDate,
    /// Days from the date to the due date.
    pub due_days: u32,
    /// Issue and email it.
    pub publish: bool,
    /// Who the invoice is created by, and the day its shown status is derived for.
    pub ctx: Ctx,
}

/// The invoice an occurrence made, and what its publish queued.
pub(crate) struct Made {
    /// The invoice as committed with the occurrence.
    pub invoice: Invoice,
    /// Its email (`None`: left a draft).
    pub queued: Option<Queued>,
}

/// Marks the invoice as made by its schedule.
const LINK_SQL: &str = "UPDATE invoices SET recurring_invoice_id = $2 WHERE id = $1";

/// The refusal of a command: its field errors with those of the references that parsed.
async fn refusal(db: &impl Db, rejected: Rejected) -> StoreError {
    match refs::invalid(db, &rejected.references).await {
        Ok(mut errors) => {
            errors.merge(rejected.errors);
            StoreError::Invalid(errors)
        }
        Err(e) => e,
    }
}

/// The field errors of `raw`'s lines that do not depend on the invoice (reported with the
/// header's, when the header is refused and the lines are never reached).
fn line_errors(raw: &RawMap) -> FieldErrors {
    ItemsRequest::parse(raw)
        .err()
        .map(|r| r.errors)
        .unwrap_or_default()
}

/// `result`'s field errors with `more`.
fn with_errors<T>(result: Result<T, StoreError>, more: FieldErrors) -> Result<T, StoreError> {
    result.map_err(|e| match e {
        StoreError::Invalid(mut errors) => {
            errors.merge(more);
            StoreError::Invalid(errors)
        }
        other => other,
    })
}

/// Makes the invoice of `o` in transaction `tx` and reports it (`invoice.created`, and
/// `invoice.published` when it is issued, both with the invoice as it commits); a refusal
/// is the invoice's own, in its field names.
pub(crate) async fn make_invoice(
    store: &Store,
    tx: &Tx,
    o: &Occurrence<'_>,
    letterhead: &Letterhead,
) -> Result<Made, StoreError> {
    let raw = invoice_input(o.template, o.date, o.due_days).ok_or_else(|| {
        StoreError::Invalid(FieldErrors::single(
            "bill_due_date",
            crm_core::validation::message::date("bill_due_date"),
        ))
    })?;
    let cmd = match NewInvoice::parse(&raw) {
        Ok(cmd) => cmd,
        Err(r) => return with_errors(Err(refusal(tx, r).await), line_errors(&raw)),
    };
    let sql = InvoiceKind::sql();
    let row = with_errors(
        header::create(tx, sql, &cmd, o.ctx.actor, store.policy()).await,
        line_errors(&raw),
    )?;
    let raw_id: i64 = rows::get(&row, "id")?;
    let id = InvoiceId::new(raw_id).ok_or_else(|| corrupt("new invoice id", raw_id))?;
    if has_discount(o.template) {
        let update = match BillUpdate::<InvoiceKind>::parse(&raw) {
            Ok(update) => update,
            Err(r) => return with_errors(Err(refusal(tx, r).await), line_errors(&raw)),
        };
        with_errors(
            header::update::<InvoiceKind>(tx, raw_id, &update).await,
            line_errors(&raw),
        )?;
    }
    let lines = ItemsRequest::parse(&raw).map_err(|r| StoreError::Invalid(r.errors))?;
    items::replace_items::<InvoiceKind>(tx, raw_id, lines).await?;
    if let Some(schedule) = o.schedule {
        tx.run(LINK_SQL, &[&raw_id, &schedule.get()]).await?;
    }
    let created_event = bill_event(InvoiceKind::KIND, BillAction::Created);
    if !o.publish {
        let created = load(tx, id, store.view(o.ctx)).await?;
        tx.emit(created_event, raw_id, &created)?;
        return Ok(Made {
            invoice: created,
            queued: None,
        });
    }
    let locked = bills::lock(tx, sql, raw_id, LockMode::Update).await?;
    InvoiceKind::publish(tx, raw_id, &locked, o.ctx.today).await?;
    InvoiceKind::keep_parties(tx, store.company_name(), raw_id).await?;
    let (invoice, queued) = store
        .link_and_email(tx, o.ctx, id, EmailAction::Publish, letterhead)
        .await?;
    // Made and issued in one transaction: no one ever sees the draft, so both events
    // carry the invoice as it commits (one read, not two).
    tx.emit(created_event, raw_id, &invoice)?;
    tx.emit(EventType::InvoicePublished, raw_id, &invoice)?;
    Ok(Made {
        invoice,
        queued: Some(queued),
    })
}

/// Checks that `template` makes an invoice, as its first occurrence on `date` would (in a
/// savepoint of `tx`, rolled back: nothing of it stays, its events neither): the
/// invoice's refusal, in the template's field names.
pub(crate) async fn check_template(
    store: &Store,
    tx: &Tx,
    template: &RawMap,
    date: NaiveDate,
    due_days: u32,
    actor: UserId,
) -> Result<FieldErrors, StoreError> {
    tx.run("SAVEPOINT recurring_template", &[]).await?;
    let occurrence = Occurrence {
        schedule: None,
        template,
        date,
        due_days,
        publish: false,
        ctx: Ctx { actor, today: date },
    };
    let events = tx.mark_events();
    let made = make_invoice(store, tx, &occurrence, &Letterhead([0; 32])).await;
    tx.run("ROLLBACK TO SAVEPOINT recurring_template", &[])
        .await?;
    tx.forget_events_since(events);
    match made {
        Ok(_) => Ok(FieldErrors::new()),
        Err(StoreError::Invalid(errors)) => Ok(template_errors(errors)),
        Err(e) => Err(e),
    }
}
