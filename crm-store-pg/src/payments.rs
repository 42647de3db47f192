//! Payments (`/api/payments`, API.md §14): reads (one statement each, on a shared reader),
//! the list, and the invoice's balance as the writes and the invoice area read it; the
//! writes are in [`write`].
//!
//! **What an invoice was paid is never stored**: every read sums its payments
//! (`payments_invoice_idx`), so the figure cannot drift from the rows. **Locks**: a write
//! that changes an invoice's balance — recording or deleting a payment, replacing the
//! invoice's items, a PATCH of its header, setting its status — first locks the invoice
//! row `FOR UPDATE`, then reads the sum in a statement of its own (one taken after the
//! lock was granted, so it sees every payment committed by a transaction it waited for),
//! asks crm-core's [`Balance`] what follows, and writes the status it gives. Payments of
//! one invoice are therefore written one transaction at a time, and their sum never passes
//! the final amount.

/// The sums an invoice's balance is made of, for the invoice whose id is `$id`: `paid`
/// (its payments), `applied` and `refunded` (its credit notes' two parts).
macro_rules! credits_sql {
    ($id:literal) => {
        concat!(
            "(SELECT COALESCE(sum(p.amount), 0) FROM payments p WHERE p.invoice_id = ",
            $id,
            ") AS paid, ",
            "(SELECT COALESCE(sum(c.applied_amount), 0) FROM credit_notes c WHERE c.invoice_id = ",
            $id,
            ") AS applied, ",
            "(SELECT COALESCE(sum(c.refund_amount), 0) FROM credit_notes c WHERE c.invoice_id = ",
            $id,
            ") AS refunded"
        )
    };
}

mod write;

use chrono::NaiveDate;
use crm_core::conflict::Resource;
use crm_core::currency::{Amount, Currency};
use crm_core::ids::{ClientId, InvoiceId, Named, PaymentId, UserId};
use crm_core::invoice::{Balance, InvoiceStatus, TotalBelowPaid};
use crm_core::listing::like_pattern;
use crm_core::payment::{
    Payment, PaymentDates, PaymentListQuery, PaymentSort, refusal_errors, total_below_paid_errors,
};
use crm_core::validation::{FieldErrors, PaymentClaim};
use tokio_postgres::Row;

use crate::db::Db;
use crate::error::StoreError;
use crate::error::corrupt;
use crate::listed::Listed;
use crate::rows;
use crate::sql::{self, CountKeys, PageRequest, SortKey, Sql, micros_key};
use crate::store::{Ctx, Store};

pub(crate) use write::record_in;

/// The record's columns over `payments p` (the client's name is read beside them).
macro_rules! payment_columns {
    () => {
        "p.id, p.invoice_id, p.client_id, p.amount, p.date, p.method, p.transaction_id, p.notes, \
         p.creator_id, p.created_at"
    };
}

/// One payment, whole, by id, with its client's name and its invoice's currency (a
/// payment is in its invoice's currency, API.md §18).
const PAYMENT_SQL: &str = concat!(
    "SELECT ",
    payment_columns!(),
    ", c.company_name AS client_name, i.currency FROM payments p JOIN clients c ON c.id = p.client_id \
     JOIN invoices i ON i.id = p.invoice_id WHERE p.id = $1"
);

/// The client's name and the invoice's currency of a page's rows (`p`), read after paging.
const PAGE_EXTRA_COLUMNS: &str = ", (SELECT c.company_name FROM clients c WHERE c.id = p.client_id) AS client_name, \
     (SELECT i.currency FROM invoices i WHERE i.id = p.invoice_id) AS currency";

/// An invoice's balance as a report reads it (no lock): stored status, final amount,
/// currency, and the sums of its payments and credit notes.
const BALANCE_SQL: &str = concat!(
    "SELECT i.status_id, i.final_amount, i.currency, ",
    credits_sql!("i.id"),
    " FROM invoices i WHERE i.id = $1"
);

/// Locks an invoice for a change of its balance, giving its stored status, final amount,
/// client and currency. The sum of its payments is read after the lock ([`PAID_SQL`]).
const LOCK_INVOICE_SQL: &str = "SELECT status_id, final_amount, client_id, currency, number IS NOT NULL AS issued FROM invoices \
     WHERE id = $1 FOR UPDATE";

/// The sums of an invoice's payments and credit notes.
const PAID_SQL: &str = concat!("SELECT ", credits_sql!("$1::bigint"));

/// An invoice's stored status, after a change of its balance (the invoice changed: its
/// `amount_paid` is part of it).
const SET_STATUS_SQL: &str = "UPDATE invoices SET status_id = $2, updated_at = now() WHERE id = $1";

impl Store {
    /// `GET /payments/{id}`: one payment, in one statement on the shared reader.
    pub async fn payment(&self, _ctx: Ctx, id: PaymentId) -> Result<Payment, StoreError> {
        read_payment(&*self.reader().await?, id.get()).await
    }

    /// `GET /payments`: one page of the payments matching the query (filters combine with
    /// AND; search on method, transaction id and notes), with the exact total.
    pub async fn list_payments(
        &self,
        _ctx: Ctx,
        q: &PaymentListQuery,
    ) -> Result<Listed<Payment>, StoreError> {
        let mut filtered = filtered_sql(q);
        let total = count_keys(q).map(|keys| sql::counted(&mut filtered, "payments", keys));
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(PaymentSort::Date) => SortKey::new("date", "date::text", "{}::date"),
            Some(PaymentSort::Amount) => SortKey::new("amount", "amount::text", "{}::numeric"),
            Some(PaymentSort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page(
            &*self.reader().await?,
            filtered,
            total,
            sort,
            &request,
            PAGE_EXTRA_COLUMNS,
        )
        .await?;
        Listed::decoded(&found, payment_from_row)
    }
}

/// The payments matching the query's filters and search.
fn filtered_sql(q: &PaymentListQuery) -> Sql {
    let mut s = Sql::new(concat!(
        "SELECT ",
        payment_columns!(),
        " FROM payments p WHERE TRUE"
    ));
    let f = &q.filters;
    if let Some(invoice) = f.invoice {
        s.push_with(" AND p.invoice_id = {}", invoice.get());
    }
    if let Some(client) = f.client {
        s.push_with(" AND p.client_id = {}", client.get());
    }
    if let Some(from) = f.date_from {
        s.push_with(" AND p.date >= {}", from);
    }
    if let Some(to) = f.date_to {
        s.push_with(" AND p.date <= {}", to);
    }
    if let Some(search) = &q.params.search {
        // As for notes: the texts lowercased and joined by U+0001 (migration 0020), which
        // no stored text holds, so a search holding one matches nothing.
        if search.contains('\u{1}') {
            s.push(" AND FALSE");
        } else {
            let pattern = s.param(like_pattern(search));
            s.push(&format!(" AND p.search_text LIKE lower({pattern})"));
        }
    }
    s
}

/// The maintained counts that total the payments matching `q` (migration 0020's
/// `payment_count_keys`): all, one invoice's or one client's. `None` (counted row by row)
/// with a search, a date range, or both an invoice and a client.
fn count_keys(q: &PaymentListQuery) -> Option<CountKeys> {
    let f = &q.filters;
    if q.params.search.is_some() || f.date_from.is_some() || f.date_to.is_some() {
        return None;
    }
    let key = match (f.invoice, f.client) {
        (None, None) => "all".to_owned(),
        (Some(invoice), None) => format!("i={}", invoice.get()),
        (None, Some(client)) => format!("c={}", client.get()),
        (Some(_), Some(_)) => return None,
    };
    Some(CountKeys::key(key))
}

/// Reads one payment (in or out of a transaction); absent → `NotFound(Payment)`.
pub(crate) async fn read_payment(db: &impl Db, id: i64) -> Result<Payment, StoreError> {
    let row = db
        .row_opt(PAYMENT_SQL, &[&id])
        .await?
        .ok_or(StoreError::NotFound(Resource::Payment))?;
    payment_from_row(&row)
}

/// Decodes a row of [`PAYMENT_SQL`] (or of the list).
fn payment_from_row(row: &Row) -> Result<Payment, StoreError> {
    let currency = rows::currency(row, "currency")?;
    Ok(Payment {
        id: rows::id(row, "id", PaymentId::new)?,
        invoice_id: rows::id(row, "invoice_id", InvoiceId::new)?,
        client: Named {
            id: rows::id(row, "client_id", ClientId::new)?,
            name: rows::get(row, "client_name")?,
        },
        amount: Amount::new(rows::money(row, "amount")?, currency),
        currency,
        date: rows::get::<NaiveDate>(row, "date")?,
        method: rows::get(row, "method")?,
        transaction_id: rows::get(row, "transaction_id")?,
        notes: rows::get(row, "notes")?,
        creator_id: rows::id(row, "creator_id", UserId::new)?,
        dates: PaymentDates {
            created: rows::timestamp(row, "created_at")?,
        },
    })
}

/// The stored status of an invoice row's `status_id`.
fn stored_status(row: &Row) -> Result<InvoiceStatus, StoreError> {
    let id: i16 = rows::get(row, "status_id")?;
    InvoiceStatus::from_id(id).ok_or_else(|| corrupt("invoice status", id))
}

/// The balance of an invoice from its row (`status_id`, `final_amount`) and the sums of
/// [`credits_sql!`].
fn balance_of(invoice: &Row, sums: &Row) -> Result<Balance, StoreError> {
    Ok(Balance {
        status: stored_status(invoice)?,
        total: rows::money(invoice, "final_amount")?,
        paid: rows::money(sums, "paid")?,
        applied: rows::money(sums, "applied")?,
        refunded: rows::money(sums, "refunded")?,
    })
}

/// An invoice locked for a change of its balance.
pub(crate) struct LockedInvoice {
    /// Its balance, read after the lock.
    pub(crate) balance: Balance,
    /// Its client.
    pub(crate) client: i64,
    /// Whether it was issued (has a number, API.md §18).
    pub(crate) issued: bool,
    /// Its currency: its payments' too.
    pub(crate) currency: Currency,
}

/// Locks invoice `invoice` `FOR UPDATE` and reads its balance after the lock; `None` when
/// there is no such invoice. Call inside a transaction.
pub(crate) async fn lock_invoice(
    db: &impl Db,
    invoice: i64,
) -> Result<Option<LockedInvoice>, StoreError> {
    let Some(row) = db.row_opt(LOCK_INVOICE_SQL, &[&invoice]).await? else {
        return Ok(None);
    };
    let paid = db.row(PAID_SQL, &[&invoice]).await?;
    Ok(Some(LockedInvoice {
        balance: balance_of(&row, &paid)?,
        client: rows::get(&row, "client_id")?,
        issued: rows::get(&row, "issued")?,
        currency: rows::currency(&row, "currency")?,
    }))
}

/// Stores the status of invoice `invoice`'s balance `after` a payment was recorded or
/// deleted (always, even when it is unchanged: the invoice's `updated_at` moves with what
/// it was paid).
pub(crate) async fn write_status(
    db: &impl Db,
    invoice: i64,
    after: &Balance,
) -> Result<(), StoreError> {
    db.run(SET_STATUS_SQL, &[&invoice, &after.status.id()])
        .await?;
    Ok(())
}

/// After a write changed invoice `invoice`'s final amount (its items, or a PATCH of its
/// header), with its row locked: a total below what was paid is a 422 on `field` (the
/// transaction then rolls back), else the status its payments give is stored.
pub(crate) async fn retotal(db: &impl Db, invoice: i64, field: &str) -> Result<(), StoreError> {
    let locked = lock_invoice(db, invoice)
        .await?
        .ok_or(StoreError::NotFound(Resource::Invoice))?;
    let balance = locked.balance;
    let after = balance
        .retotal(balance.total)
        .map_err(|e: TotalBelowPaid| StoreError::Invalid(total_below_paid_errors(e, field)))?;
    if after.status != balance.status {
        write_status(db, invoice, &after).await?;
    }
    Ok(())
}

/// The errors of a payment a rejected request asks for (its invoice, its amount against
/// the invoice's currency and amount due), judged by the same rules as a write, on the
/// balance as it is now.
pub(crate) async fn judge(db: &impl Db, claim: &PaymentClaim) -> Result<FieldErrors, StoreError> {
    use crm_core::invoice::PaymentRefusal;
    let row = db.row_opt(BALANCE_SQL, &[&claim.invoice]).await?;
    let mut errors = FieldErrors::new();
    let refusal = match row {
        None => Some(PaymentRefusal::Unknown),
        Some(row) => {
            let balance = balance_of(&row, &row)?;
            let currency = rows::currency(&row, "currency")?;
            let amount = claim
                .amount
                .and_then(|a| currency.money(&claim.amount_field, a, &mut errors));
            match amount {
                _ if !balance.takes_payments() => balance.closed(),
                Some(amount) => balance.record(amount).err(),
                None => None,
            }
        }
    };
    if let Some(refusal) = refusal {
        errors.merge(refusal_errors(refusal));
    }
    Ok(errors)
}
