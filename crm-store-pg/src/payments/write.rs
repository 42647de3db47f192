//! Recording and deleting payments: one transaction each, which locks the invoice row
//! first ([`super::lock_invoice`]), asks crm-core's balance what follows, and stores the
//! payment (or removes it) with the invoice's new status.

use crm_core::conflict::{Conflict, Resource};
use crm_core::ids::{InvoiceId, PaymentId, UserId};
use crm_core::invoice::{InvoiceStatus, PaymentRefusal};
use crm_core::payment::{NewPayment, Payment, refusal_errors};
use crm_core::webhook::EventType;

use super::{lock_invoice, read_payment, write_status};
use crate::conditions::Tx;
use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::store::{Ctx, Store};

/// A new payment; its client is its invoice's.
const INSERT_SQL: &str = "INSERT INTO payments (invoice_id, client_id, amount, date, method, \
     transaction_id, notes, creator_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id";

/// The invoice a payment pays (it never changes), read before anything is locked.
const INVOICE_OF_SQL: &str = "SELECT invoice_id FROM payments WHERE id = $1";

/// Locks a payment once its invoice is locked, giving its amount.
const LOCK_PAYMENT_SQL: &str = "SELECT amount FROM payments WHERE id = $1 FOR UPDATE";

const DELETE_SQL: &str = "DELETE FROM payments WHERE id = $1";

/// Records `cmd` by `actor` inside the caller's transaction, as the API does (the seed's
/// payment too): the invoice locked, the amount judged against its currency and balance, the payment
/// inserted and the invoice's status stored. Returns the payment's id.
pub(crate) async fn record_in(
    db: &impl Db,
    actor: UserId,
    cmd: &NewPayment,
) -> Result<i64, StoreError> {
    let refused = |r: PaymentRefusal| StoreError::Invalid(refusal_errors(r));
    let locked = lock_invoice(db, cmd.invoice)
        .await?
        .ok_or_else(|| refused(PaymentRefusal::Unknown))?;
    // In the invoice's currency: at most its decimals (with the invoice's own refusal, when
    // it takes no payment, in the same 422).
    let amount = cmd.amount_in(locked.currency).map_err(|mut errors| {
        if let Some(closed) = locked.balance.closed() {
            errors.merge(refusal_errors(closed));
        }
        StoreError::Invalid(errors)
    })?;
    let after = locked.balance.record(amount).map_err(refused)?;
    let row = db
        .row(
            INSERT_SQL,
            &[
                &cmd.invoice,
                &locked.client,
                &amount.get(),
                &cmd.date,
                &cmd.method,
                &cmd.transaction_id,
                &cmd.notes,
                &actor.get(),
            ],
        )
        .await?;
    write_status(db, cmd.invoice, &after).await?;
    rows::get(&row, "id")
}

impl Store {
    /// `POST /payments`: records a payment of `ctx.actor` against an invoice that takes
    /// payments (neither Draft nor Cancelled), of at most its amount due, and stores the
    /// invoice's new status (Part Paid or Paid), in one transaction that locks the invoice
    /// row: concurrent payments of one invoice are judged one after the other.
    pub async fn record_payment(&self, ctx: Ctx, cmd: &NewPayment) -> Result<Payment, StoreError> {
        let tx = self.begin().await?;
        let id = record_in(&tx, ctx.actor, cmd).await?;
        let payment = read_payment(&tx, id).await?;
        tx.emit(EventType::PaymentCreated, id, &payment)?;
        self.emit_invoice_balance(&tx, ctx, payment.invoice_id)
            .await?;
        tx.commit().await?;
        Ok(payment)
    }

    /// `DELETE /payments/{id}`: deletes the payment and stores its invoice's new status (a
    /// Paid invoice is Part Paid or Due again), with the invoice row locked, then the
    /// payment's; `If-Match` is compared with the payment under those locks.
    pub async fn delete_payment(&self, ctx: Ctx, id: PaymentId) -> Result<(), StoreError> {
        let not_found = || StoreError::NotFound(Resource::Payment);
        let tx = self.begin().await?;
        let invoice: i64 = match tx.row_opt(INVOICE_OF_SQL, &[&id.get()]).await? {
            Some(row) => rows::get(&row, "invoice_id")?,
            None => return Err(not_found()),
        };
        // The invoice first, as every write of its balance locks it: no lock-order cycle.
        let locked = lock_invoice(&tx, invoice).await?.ok_or_else(not_found)?;
        let payment = tx
            .row_opt(LOCK_PAYMENT_SQL, &[&id.get()])
            .await?
            .ok_or_else(not_found)?;
        tx.if_match(read_payment(&tx, id.get())).await?;
        let after = locked
            .balance
            .remove(rows::money(&payment, "amount")?)
            .map_err(|_| StoreError::Conflict(Conflict::RefundStandsOnPayments))?;
        tx.run(DELETE_SQL, &[&id.get()]).await?;
        write_status(&tx, invoice, &after).await?;
        tx.emit_deleted(EventType::PaymentDeleted, id.get())?;
        let invoice =
            InvoiceId::new(invoice).ok_or_else(|| crate::error::corrupt("invoice id", invoice))?;
        self.emit_invoice_balance(&tx, ctx, invoice).await?;
        tx.commit().await
    }

    /// Reports the invoice whose payments changed: `invoice.paid` when it is now paid in
    /// full, `invoice.updated` otherwise.
    pub(crate) async fn emit_invoice_balance(
        &self,
        tx: &Tx,
        ctx: Ctx,
        id: InvoiceId,
    ) -> Result<(), StoreError> {
        let invoice = crate::invoices::load(tx, id, self.view(ctx)).await?;
        let kind = if invoice.status == InvoiceStatus::Paid {
            EventType::InvoicePaid
        } else {
            EventType::InvoiceUpdated
        };
        tx.emit(kind, id.get(), &invoice)
    }
}
