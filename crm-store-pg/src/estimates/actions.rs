//! Publishing, emailing and cloning estimates.

use crm_core::estimate::{Estimate, EstimateClone, email, status};
use crm_core::ids::{EstimateId, ProjectId};
use crm_core::mail;

use super::{LockMode, lock, read};
use crate::conditions::if_match;
use crate::db::Db;
use crate::{Ctx, Store, StoreError, refs, rows};

const PUBLISH_SQL: &str =
    "UPDATE estimates SET status = $2, published_at = now(), updated_at = now() WHERE id = $1";

const CONTACT_SQL: &str =
    "SELECT c.contact_email FROM estimates e JOIN clients c ON c.id = e.client_id WHERE e.id = $1";

const QUEUE_SQL: &str = "INSERT INTO email_queue (recipient, subject, template, resource_type, resource_id, estimate_id, \
     body_text, body_html) VALUES ($1, $2, $3, 'estimate', $4, $4, $5, $6)";

/// The new estimate: header from the request, the rest copied from `$1`; a `draft`.
const CLONE_SQL: &str = "INSERT INTO estimates (client_id, category_id, date, expiry_date, project_id, status, \
     tax_type, discount_type, discount_percentage, discount_amount, subtotal, subtotal_before_discount, \
     amount_before_tax, tax_total_percentage, tax_total_amount, adjustment_description, adjustment_amount, \
     final_amount, notes, terms, creator_id) \
     SELECT $2, $3, $4, $5, $6, 'draft', s.tax_type, s.discount_type, s.discount_percentage, s.discount_amount, \
     s.subtotal, s.subtotal_before_discount, s.amount_before_tax, s.tax_total_percentage, s.tax_total_amount, \
     s.adjustment_description, s.adjustment_amount, s.final_amount, s.notes, s.terms, $7 \
     FROM estimates s WHERE s.id = $1 RETURNING id";

const CLONE_LINES_SQL: &str = "INSERT INTO estimate_lines (estimate_id, position, description, long_description, \
     unit, quantity, rate, total, type, tax_status, discount_type, discount_value, discount_amount, tax_rate_id) \
     SELECT $2, position, description, long_description, unit, quantity, rate, total, type, tax_status, \
     discount_type, discount_value, discount_amount, tax_rate_id \
     FROM estimate_lines WHERE estimate_id = $1 ORDER BY position";

/// Tax records copied in order, each line's record pointing at the copy of its line (the
/// line at the same position).
const CLONE_TAXES_SQL: &str = "INSERT INTO estimate_taxes (estimate_id, line_id, tax_rate_id, name, rate) \
     SELECT $2, n.id, t.tax_rate_id, t.name, t.rate FROM estimate_taxes t \
     LEFT JOIN estimate_lines o ON o.id = t.line_id \
     LEFT JOIN estimate_lines n ON n.estimate_id = $2 AND n.position = o.position \
     WHERE t.estimate_id = $1 ORDER BY t.id";

/// Queues the email of `estimate` (as read inside the action's transaction) to its
/// client's contact address, if the client has one: the message is rendered now, from the
/// record as it is, and the delivery worker is notified when the transaction commits.
async fn queue_email(db: &impl Db, estimate: &Estimate) -> Result<(), StoreError> {
    let id = estimate.id;
    let contact: Option<String> =
        rows::get(&db.row(CONTACT_SQL, &[&id.get()]).await?, "contact_email")?;
    if let Some(recipient) = email::recipient(contact.as_deref()) {
        let mut dates = Vec::new();
        let message = mail::render(&mail::Bill::estimate(estimate, &mut dates));
        db.run(
            QUEUE_SQL,
            &[
                &recipient,
                &message.subject,
                &email::TEMPLATE,
                &id.get(),
                &message.text,
                &message.html,
            ],
        )
        .await?;
        crate::outbox::notify(db).await?;
    }
    Ok(())
}

impl Store {
    /// `PUT /estimates/{id}/publish`: a stored `draft` becomes `new` (409 otherwise), is
    /// stamped `published_at`, and its email is queued in the same transaction.
    pub async fn publish_estimate(&self, ctx: Ctx, id: EstimateId) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        let locked = lock(&tx, id, LockMode::Update).await?;
        if_match(read::load(&tx, id, ctx.today)).await?;
        let published = status::publish(locked.status)?;
        tx.run(PUBLISH_SQL, &[&id.get(), &published.as_str()])
            .await?;
        let estimate = read::load(&tx, id, ctx.today).await?;
        queue_email(&tx, &estimate).await?;
        tx.commit().await?;
        Ok(estimate)
    }

    /// `POST /estimates/{id}/send-email`: queues the estimate's email (409 for a draft);
    /// the estimate is unchanged.
    pub async fn send_estimate_email(
        &self,
        ctx: Ctx,
        id: EstimateId,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        let locked = lock(&tx, id, LockMode::Share).await?;
        status::check_send_email(locked.status)?;
        let estimate = read::load(&tx, id, ctx.today).await?;
        queue_email(&tx, &estimate).await?;
        tx.commit().await?;
        Ok(estimate)
    }

    /// `POST /estimates/{id}/clone`: a new `draft` estimate with client, category, dates
    /// and project from the request, and the source's tax type, discount, adjustment,
    /// notes, terms, totals, line items and tax records copied (not its tags, status or
    /// conversion). The source is locked `FOR SHARE` so that it cannot change half-way
    /// through the copy.
    pub async fn clone_estimate(
        &self,
        ctx: Ctx,
        id: EstimateId,
        cmd: &EstimateClone,
    ) -> Result<Estimate, StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id, LockMode::Share).await?;
        refs::require(&tx, cmd.references()).await?;
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 7] = [
            &id.get(),
            &cmd.client.get(),
            &cmd.category.get(),
            &cmd.date,
            &cmd.expiry,
            &cmd.project.map(ProjectId::get),
            &ctx.actor.get(),
        ];
        let copy = rows::id(&tx.row(CLONE_SQL, &params).await?, "id", EstimateId::new)?;
        tx.run(CLONE_LINES_SQL, &[&id.get(), &copy.get()]).await?;
        tx.run(CLONE_TAXES_SQL, &[&id.get(), &copy.get()]).await?;
        let estimate = read::load(&tx, copy, ctx.today).await?;
        tx.commit().await?;
        Ok(estimate)
    }
}
