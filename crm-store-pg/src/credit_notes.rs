//! Credit notes (`/api/credit-notes`, API.md §18): issued against an issued invoice, read,
//! listed, linked; never changed nor deleted (migration 0033's triggers refuse it).
//!
//! **Issuing is one transaction** ([`Store::issue_credit_note`]) that locks the invoice row
//! first, as every write of its balance does (payments too, so that concurrent credit notes
//! and payments are judged one after the other): the lines are priced by the bills' own
//! machinery ([`crate::bills::items`]) under the invoice's tax mode and totals policy, or
//! copied whole from the invoice; crm-core's [`Balance::credit`](crm_core::invoice::Balance::credit)
//! says how much is applied and refunded, or why not; the number is the next of the
//! `credit_note` series ([`crate::numbers`]); the invoice's new status is stored; and the
//! events `credit_note.issued` and the invoice's own follow at commit.
//!
//! **Reads are one statement** ([`RECORDS_SQL`]) with the lines and tax records as JSON,
//! decoded by the bills' decoders; the category and project are the invoice's.

use chrono::NaiveDate;
use crm_core::bill::{BillKind, InvoiceKind, TotalsHeader};
use crm_core::conflict::{Conflict, Resource};
use crm_core::credit_note::{
    self, CreditNote, CreditNoteDates, CreditNoteListQuery, CreditNoteSort, NewCreditNote, Refused,
};
use crm_core::currency::Amount;
use crm_core::ids::{CategoryId, ClientId, CreditNoteId, InvoiceId, Named, ProjectId, UserId};
use crm_core::invoice::CreditRefusal;
use crm_core::money::Money;
use crm_core::numbering::Series;
use crm_core::totals::{HeaderDiscount, Totals};
use crm_core::webhook::EventType;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use crate::bills::header::EmailAction;
use crate::bills::items::{self, Statements};
use crate::bills::kind::{StoredBill, View};
use crate::bills::link::{Mailing, link_of};
use crate::bills::recompute::TotalsColumns;
use crate::bills::{LockMode, decode};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::{StoreError, corrupt};
use crate::listed::Listed;
use crate::messages::{Emailed, Letterhead, Queued};
use crate::rows;
use crate::sql::{SortKey, Sql, micros_key};
use crate::store::{Ctx, Store};

/// Whole credit notes for the ids in `$1`.
const RECORDS_SQL: &str = concat!(
    "SELECT b.id, b.number, b.invoice_id, i.number AS invoice_number, b.client_id, ",
    "c.company_name AS client_name, i.project_id, i.category_id, g.name AS category_name, ",
    "b.date, b.created_at, b.reason, b.tax_type, b.applied_amount, b.refund_amount, b.creator_id, ",
    "b.currency, b.exchange_rate, b.exchange_currency, ",
    "CASE WHEN b.client_token_expires_at > now() THEN b.client_token END AS client_token, ",
    "b.client_token_expires_at, b.parties::text AS parties, ",
    totals_columns!("b"),
    ", ",
    lines_json!("credit_note_lines", "credit_note_id", "b.id"),
    " AS lines, ",
    taxes_json!("credit_note_taxes", "credit_note_id", "b.id"),
    " AS taxes FROM credit_notes b JOIN invoices i ON i.id = b.invoice_id ",
    "JOIN clients c ON c.id = b.client_id JOIN categories g ON g.id = i.category_id ",
    "WHERE b.id = ANY($1)"
);

/// The version of credit note `$1` (no row: no such credit note): a digest of its read,
/// with the versions of the company's settings and the client's record its documents name
/// (its PDFs are kept by it, as a bill's: [`crate::bills::BillSql::version`]).
pub(crate) const VERSION_SQL: &str = concat!(
    "SELECT encode(sha256(convert_to(v::text || '/' || ",
    "coalesce((SELECT updated_at::text FROM company), '') || '/' || ",
    "coalesce((SELECT c.updated_at::text FROM clients c WHERE c.id = v.client_id), ''), ",
    "'UTF8')), 'hex') AS version FROM (SELECT b.*, i.number AS invoice_number, i.category_id, ",
    "i.project_id FROM credit_notes b JOIN invoices i ON i.id = b.invoice_id WHERE b.id = $1) v"
);

/// A new credit note: `$1` number, `$2` invoice, `$3` client, `$4` date, `$5` reason, `$6`
/// tax type, `$7` totals policy, `$8` adjustment description, `$9` applied, `$10` refund,
/// `$11` creator, `$12` the parties (JSON text), `$13` the currency, `$14` the exchange
/// rate and `$15` its currency (the invoice's), then the totals ([`TotalsColumns`],
/// `$16`…`$25`).
const INSERT_SQL: &str = "INSERT INTO credit_notes (number, invoice_id, client_id, date, reason, \
     tax_type, totals_policy, adjustment_description, applied_amount, refund_amount, creator_id, \
     parties, currency, exchange_rate, exchange_currency, discount_type, discount_percentage, \
     discount_amount, subtotal, subtotal_before_discount, amount_before_tax, \
     tax_total_percentage, tax_total_amount, adjustment_amount, final_amount) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::text::jsonb, $13, $14, $15, \
     $16, $17, $18, $19, $20, $21, $22, $23, $24, $25) RETURNING id";

/// A whole credit: the invoice `$1`'s lines copied to credit note `$2`.
const COPY_LINES_SQL: &str = "INSERT INTO credit_note_lines (credit_note_id, position, \
     description, long_description, unit, quantity, rate, total, discount_type, discount_value, \
     discount_amount, tax_rate_id) SELECT $2, position, description, long_description, unit, \
     quantity, rate, total, discount_type, discount_value, discount_amount, tax_rate_id \
     FROM invoice_lines WHERE invoice_id = $1 ORDER BY position";

/// A whole credit: the invoice `$1`'s tax records copied in order, a line's record
/// pointing at the copy of its line (the line at the same position).
const COPY_TAXES_SQL: &str = "INSERT INTO credit_note_taxes (credit_note_id, line_id, \
     tax_rate_id, name, rate) SELECT $2, n.id, t.tax_rate_id, t.name, t.rate FROM invoice_taxes t \
     LEFT JOIN invoice_lines o ON o.id = t.line_id \
     LEFT JOIN credit_note_lines n ON n.credit_note_id = $2 AND n.position = o.position \
     WHERE t.invoice_id = $1 ORDER BY t.id";

/// The statements that write a partial credit note's priced lines.
const LINES: Statements = Statements {
    lines: insert_lines_sql!("credit_note_lines", "credit_note_id"),
    taxes: insert_taxes_sql!("credit_note_taxes", "credit_note_id"),
};

/// The extra column of a list page's ids: each record's estimated size as JSON, as the
/// bills' (`list_bytes_sql!`): 1.5 KB and the reason, 384 bytes and the texts per line.
const LIST_BYTES: &str = ", (SELECT 1536 + octet_length(x.reason) \
     + coalesce((SELECT sum(384 + octet_length(l.description) \
     + octet_length(coalesce(l.long_description, '')) + octet_length(coalesce(l.unit, ''))) \
     FROM credit_note_lines l WHERE l.credit_note_id = p.id), 0) \
     FROM credit_notes x WHERE x.id = p.id)::bigint AS list_bytes";

/// A new link: `$2` the token, `$3` its lifetime in days.
pub(crate) const SET_LINK_SQL: &str = "UPDATE credit_notes SET client_token = $2, \
     client_token_expires_at = now() + make_interval(days => $3) WHERE id = $1";

/// The same, only when the credit note has no working link (its email makes one).
const ENSURE_LINK_SQL: &str = "UPDATE credit_notes SET client_token = $2, \
     client_token_expires_at = now() + make_interval(days => $3) \
     WHERE id = $1 AND (client_token IS NULL OR client_token_expires_at <= now())";

/// The client's contact address and the versions of the parties the documents name.
const CONTACT_SQL: &str = "SELECT c.contact_email, concat((SELECT updated_at::text FROM company), \
     '/', c.updated_at::text) AS parties FROM credit_notes b JOIN clients c ON c.id = b.client_id \
     WHERE b.id = $1";

/// The outbox row of a credit note's email (the bills' `queue_email`).
const QUEUE_EMAIL_SQL: &str = "INSERT INTO email_queue (recipient, subject, template, \
     resource_type, resource_id, body_id, queued_by) VALUES ($1, $2, $3, 'credit_note', $4, $5, $6)";

/// What emailing a credit note runs.
const MAILING: Mailing = Mailing {
    kind: BillKind::CreditNote,
    ensure_link: ENSURE_LINK_SQL,
    contact: CONTACT_SQL,
    queue_email: QUEUE_EMAIL_SQL,
};

/// No link.
const CLEAR_LINK_SQL: &str =
    "UPDATE credit_notes SET client_token = NULL, client_token_expires_at = NULL WHERE id = $1";

/// Locks credit note `$1` (a link's change, its email).
const LOCK_SQL: &str = "SELECT id FROM credit_notes WHERE id = $1 FOR UPDATE";

/// Credit notes `ids`, whole, in no particular order.
pub(crate) async fn load_many(
    db: &impl Db,
    ids: &[i64],
    view: View<'_>,
) -> Result<Vec<CreditNote>, StoreError> {
    let found = db.rows(RECORDS_SQL, &[&ids]).await?;
    found.iter().map(|row| decode_row(row, view)).collect()
}

/// Credit note `id`, whole; `NotFound(CreditNote)` when there is none.
pub(crate) async fn load(db: &impl Db, id: i64, view: View<'_>) -> Result<CreditNote, StoreError> {
    load_many(db, &[id], view)
        .await?
        .pop()
        .ok_or(StoreError::NotFound(Resource::CreditNote))
}

/// A credit note from a row of [`RECORDS_SQL`].
fn decode_row(row: &Row, view: View<'_>) -> Result<CreditNote, StoreError> {
    let date: NaiveDate = rows::get(row, "date")?;
    let currency = rows::currency(row, "currency")?;
    let amount =
        |column: &str| Ok::<_, StoreError>(Amount::new(rows::money(row, column)?, currency));
    let tax_type = rows::choice(row, "tax_type")?;
    let lines = decode::line_items(row, "lines", currency)?;
    let taxes = decode::taxes(row, "taxes")?;
    Ok(CreditNote {
        id: rows::id(row, "id", CreditNoteId::new)?,
        number: rows::get(row, "number")?,
        invoice_id: rows::id(row, "invoice_id", InvoiceId::new)?,
        invoice_number: rows::get::<Option<String>>(row, "invoice_number")?
            .ok_or_else(|| corrupt("credited invoice number", "NULL"))?,
        client: Named {
            id: rows::id(row, "client_id", ClientId::new)?,
            name: rows::get(row, "client_name")?,
        },
        project_id: rows::opt_id(row, "project_id", ProjectId::new)?,
        category: Named {
            id: rows::id(row, "category_id", CategoryId::new)?,
            name: rows::get(row, "category_name")?,
        },
        currency,
        date,
        reason: rows::get(row, "reason")?,
        tax_type,
        totals: decode::with_breakdown(decode::totals(row)?, tax_type, &lines, &taxes),
        lines,
        taxes,
        applied_amount: amount("applied_amount")?,
        refund_amount: amount("refund_amount")?,
        creator_id: rows::opt_id(row, "creator_id", UserId::new)?,
        dates: CreditNoteDates {
            date,
            created: rows::timestamp(row, "created_at")?,
        },
        client_link: link_of(row, view.public_url)?,
        parties: crate::issued::stored(row, "parties")?
            .ok_or_else(|| corrupt("credit note parties", "NULL"))?,
    })
}

/// A credit note refused by crm-core's rules, as the store reports it.
fn refusal(refusal: CreditRefusal) -> StoreError {
    match credit_note::refused(refusal) {
        Refused::Conflict(conflict) => StoreError::Conflict(conflict),
        Refused::Invalid(errors) => StoreError::Invalid(errors),
    }
}

/// Issues `cmd` against invoice `invoice` by `ctx.actor` inside the caller's transaction
/// (see the module's description), naming the parties as they are now (the company's
/// trading name `fallback` when it set none). Returns the new credit note's id.
async fn issue_in(
    db: &Tx,
    ctx: Ctx,
    fallback: &str,
    invoice: i64,
    cmd: &NewCreditNote,
) -> Result<i64, StoreError> {
    let header = crate::bills::lock(db, InvoiceKind::sql(), invoice, LockMode::Update).await?;
    let locked = crate::payments::lock_invoice(db, invoice)
        .await?
        .ok_or(StoreError::NotFound(Resource::Invoice))?;
    if !locked.issued {
        return Err(refusal(CreditRefusal::NotIssued));
    }
    let date = cmd.date.unwrap_or(ctx.today);
    credit_note::check_date(date, header.date).map_err(StoreError::Invalid)?;
    let (totals, adjustment_description, priced) = match &cmd.items {
        None => {
            let whole = crate::invoices::load(
                db,
                InvoiceId::new(invoice).ok_or_else(|| corrupt("invoice id", invoice))?,
                View {
                    today: ctx.today,
                    public_url: "",
                },
            )
            .await?;
            let bill = whole.totals.bill;
            (bill.figures, bill.adjustment_description, None)
        }
        Some(request) => {
            // The lines credited, priced like the invoice's, without its header discount
            // or adjustment (they belong to the whole invoice).
            let lines_header = TotalsHeader {
                tax_type: header.totals.tax_type,
                discount: HeaderDiscount::None,
                adjustment: Money::ZERO,
                currency: header.totals.currency,
                exchange: header.totals.exchange,
            };
            let priced = items::price(db, &lines_header, header.policy, request.clone()).await?;
            (priced.computed.totals, None, Some(priced))
        }
    };
    let (after, credit) = locked
        .balance
        .credit(true, totals.final_amount)
        .map_err(refusal)?;
    let number = crate::numbers::next(db, Series::CreditNote, ctx.today).await?;
    let id = insert(
        db,
        &Header {
            number: &number,
            invoice,
            client: locked.client,
            date,
            reason: &cmd.reason,
            tax_type: header.totals.tax_type.as_str(),
            policy: header.policy.name(),
            adjustment_description: adjustment_description.as_deref(),
            applied: credit.applied,
            refund: credit.refund,
            creator: ctx.actor.get(),
            currency: header.totals.currency.code(),
            exchange: header.totals.exchange,
            parties: crate::issued::to_json(
                &crate::issued::issued(db, fallback, locked.client).await?,
            )?,
        },
        &totals,
    )
    .await?;
    match &priced {
        None => {
            db.run(COPY_LINES_SQL, &[&invoice, &id]).await?;
            db.run(COPY_TAXES_SQL, &[&invoice, &id]).await?;
        }
        Some(priced) => items::insert(db, LINES, id, priced).await?,
    }
    crate::payments::write_status(db, invoice, &after).await?;
    Ok(id)
}

/// A credit note's header as inserted.
struct Header<'a> {
    number: &'a str,
    invoice: i64,
    client: i64,
    date: NaiveDate,
    reason: &'a str,
    tax_type: &'static str,
    policy: &'static str,
    adjustment_description: Option<&'a str>,
    applied: Money,
    refund: Money,
    creator: i64,
    parties: String,
    currency: &'static str,
    exchange: Option<crm_core::currency::Exchange>,
}

/// Inserts the credit note's row; returns its id.
async fn insert(db: &impl Db, h: &Header<'_>, totals: &Totals) -> Result<i64, StoreError> {
    let (applied, refund) = (h.applied.get(), h.refund.get());
    let columns = TotalsColumns::of(totals);
    let rate = h.exchange.map(|e| e.rate.get());
    let rate_currency = h.exchange.map(|e| e.to.code());
    let head: [&(dyn ToSql + Sync); 15] = [
        &h.number,
        &h.invoice,
        &h.client,
        &h.date,
        &h.reason,
        &h.tax_type,
        &h.policy,
        &h.adjustment_description,
        &applied,
        &refund,
        &h.creator,
        &h.parties,
        &h.currency,
        &rate,
        &rate_currency,
    ];
    let params: Vec<&(dyn ToSql + Sync)> = head.into_iter().chain(columns.params()).collect();
    let row = db.row(INSERT_SQL, &params).await?;
    rows::get(&row, "id")
}

impl Store {
    /// `POST /invoices/{id}/credit-notes`: issues a credit note of `ctx.actor` against an
    /// issued invoice, in one transaction that locks the invoice (see the module's
    /// description): a 404 for no such invoice, a 409 for one never issued, a 422 for bad
    /// lines, a date before the invoice's, or an amount of nothing or above what is not yet
    /// credited; nothing is written then.
    pub async fn issue_credit_note(
        &self,
        ctx: Ctx,
        invoice: InvoiceId,
        cmd: &NewCreditNote,
    ) -> Result<CreditNote, StoreError> {
        let tx = self.begin().await?;
        let id = issue_in(&tx, ctx, self.company_name(), invoice.get(), cmd).await?;
        let note = load(&tx, id, self.view(ctx)).await?;
        tx.emit(EventType::CreditNoteIssued, id, &note)?;
        self.emit_invoice_balance(&tx, ctx, invoice).await?;
        tx.commit().await?;
        Ok(note)
    }

    /// `GET /credit-notes/{id}`: one statement on the shared reader.
    pub async fn credit_note(&self, ctx: Ctx, id: CreditNoteId) -> Result<CreditNote, StoreError> {
        self.credit_note_on(ctx.today, id).await
    }

    /// The credit note as shown on `today`, for readers with no actor (the client's page).
    pub async fn credit_note_on(
        &self,
        today: NaiveDate,
        id: CreditNoteId,
    ) -> Result<CreditNote, StoreError> {
        load(&*self.reader().await?, id.get(), self.view_on(today)).await
    }

    /// Credit note `id`'s version now: a digest, made by PostgreSQL, of its read and of the
    /// versions of the company's settings and the client's record its documents name; what
    /// its rendered PDFs are kept by. `NotFound(CreditNote)` when there is none.
    pub async fn credit_note_version(&self, id: CreditNoteId) -> Result<String, StoreError> {
        let row = self
            .reader()
            .await?
            .row_opt(VERSION_SQL, &[&id.get()])
            .await?
            .ok_or(StoreError::NotFound(Resource::CreditNote))?;
        rows::get(&row, "version")
    }

    /// `GET /credit-notes`: one page of the credit notes matching the query (filters
    /// combine with AND; search on the number and the reason), whole, with the exact total.
    pub async fn list_credit_notes(
        &self,
        ctx: Ctx,
        q: &CreditNoteListQuery,
    ) -> Result<Listed<CreditNote>, StoreError> {
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(CreditNoteSort::Date) => SortKey::new("date", "date::text", "{}::date"),
            Some(CreditNoteSort::Amount) => {
                SortKey::new("final_amount", "final_amount::text", "{}::numeric")
            }
            Some(CreditNoteSort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let reader = self.reader().await?;
        let db = &*reader;
        let view = self.view(ctx);
        let load = |ids: Vec<i64>| async move { load_many(db, &ids, view).await };
        let record_id = |note: &CreditNote| note.id.get();
        crate::bills::list::page(db, LIST_BYTES, filtered(q), None, sort, q, load, record_id).await
    }

    /// `POST /credit-notes/{id}/send-email`: queues the credit note's email to its client (a
    /// conflict for a client without a contact address: nothing is written), or joins the
    /// same message still waiting on an earlier send-email's row, as a bill's
    /// ([`crate::bills::handle::Bills::send_email`]); a link is made if it has no working
    /// one.
    pub async fn send_credit_note_email(
        &self,
        ctx: Ctx,
        id: CreditNoteId,
        letterhead: &Letterhead,
    ) -> Result<Emailed<CreditNote>, StoreError> {
        let tx = self.begin().await?;
        tx.row_opt(LOCK_SQL, &[&id.get()])
            .await?
            .ok_or(StoreError::NotFound(Resource::CreditNote))?;
        let view = self.view(ctx);
        let (record, queued) = self
            .link_and_email_with(
                &tx,
                &MAILING,
                id.get(),
                EmailAction::SendEmail,
                letterhead,
                || load(&tx, id.get(), view),
            )
            .await?;
        match queued {
            Queued::NoRecipient => return Err(Conflict::NoContactEmail.into()),
            Queued::Joined => {}
            Queued::New(_) => tx.emit(EventType::CreditNoteEmailed, id.get(), &record)?,
        }
        tx.commit().await?;
        Ok(queued.emailed(record))
    }

    /// `POST /credit-notes/{id}/link`: a new client link (any old one stops working).
    pub async fn make_credit_note_link(
        &self,
        ctx: Ctx,
        id: CreditNoteId,
    ) -> Result<CreditNote, StoreError> {
        self.change_link(ctx, id, Some(SET_LINK_SQL)).await
    }

    /// `DELETE /credit-notes/{id}/link`: the client link stops working.
    pub async fn revoke_credit_note_link(
        &self,
        ctx: Ctx,
        id: CreditNoteId,
    ) -> Result<CreditNote, StoreError> {
        self.change_link(ctx, id, None).await
    }

    /// A change of credit note `id`'s link in one transaction, the row locked and
    /// `If-Match` compared first, reported as `credit_note.updated`: a new link made by
    /// `make` (its statement), or none.
    async fn change_link(
        &self,
        ctx: Ctx,
        id: CreditNoteId,
        make: Option<&'static str>,
    ) -> Result<CreditNote, StoreError> {
        let tx = self.begin().await?;
        tx.if_match(async {
            tx.row_opt(LOCK_SQL, &[&id.get()])
                .await?
                .ok_or(StoreError::NotFound(Resource::CreditNote))?;
            load(&tx, id.get(), self.view(ctx)).await
        })
        .await?;
        match make {
            Some(statement) => self.set_link(&tx, statement, id.get()).await?,
            None => drop(tx.run(CLEAR_LINK_SQL, &[&id.get()]).await?),
        }
        let note = load(&tx, id.get(), self.view(ctx)).await?;
        tx.emit(EventType::CreditNoteUpdated, id.get(), &note)?;
        tx.commit().await?;
        Ok(note)
    }
}

/// The credit notes matching the query's filters and search: `id`, `date`,
/// `final_amount`, `created_at` of the alias `b`.
fn filtered(q: &CreditNoteListQuery) -> Sql {
    let mut s = Sql::new(
        "SELECT b.id, b.date, b.final_amount, b.created_at FROM credit_notes b WHERE TRUE",
    );
    let f = &q.filters;
    if let Some(invoice) = f.invoice {
        s.push_with(" AND b.invoice_id = {}", invoice.get());
    }
    if let Some(client) = f.client {
        s.push_with(" AND b.client_id = {}", client.get());
    }
    if let Some(from) = f.date_from {
        s.push_with(" AND b.date >= {}", from);
    }
    if let Some(to) = f.date_to {
        s.push_with(" AND b.date <= {}", to);
    }
    if let Some(search) = &q.params.search {
        let pattern = s.param(crm_core::listing::like_pattern(search));
        s.push(&format!(
            " AND (lower(b.number) LIKE lower({pattern}) OR lower(b.reason) LIKE lower({pattern}))"
        ));
    }
    s
}
