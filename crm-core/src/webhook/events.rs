//! What the service reports: the event types, the bill events, and the types an endpoint
//! may subscribe to.

use crate::choice::Choice;
use crate::choice_enum;

choice_enum!(
    /// What happened: the `type` of an event, and what an endpoint subscribes to.
    pub enum EventType {
        /// A category was created.
        CategoryCreated = "category.created",
        /// A category was changed (its fields, its team, or records moved to it).
        CategoryUpdated = "category.updated",
        /// A category was deleted.
        CategoryDeleted = "category.deleted",
        /// A contract was created (or cloned).
        ContractCreated = "contract.created",
        /// A contract was changed.
        ContractUpdated = "contract.updated",
        /// A contract was deleted.
        ContractDeleted = "contract.deleted",
        /// An estimate was created.
        EstimateCreated = "estimate.created",
        /// An estimate was changed (fields, items, tags, status, client link).
        EstimateUpdated = "estimate.updated",
        /// An estimate was deleted.
        EstimateDeleted = "estimate.deleted",
        /// An estimate was published.
        EstimatePublished = "estimate.published",
        /// An estimate's email was queued.
        EstimateEmailed = "estimate.emailed",
        /// An estimate was accepted (by the client on its page, or set so).
        EstimateAccepted = "estimate.accepted",
        /// An estimate was declined (by the client on its page, or set so).
        EstimateDeclined = "estimate.declined",
        /// An estimate was converted to an invoice (`data` is the invoice).
        EstimateConverted = "estimate.converted",
        /// An invoice was created (also by converting an estimate).
        InvoiceCreated = "invoice.created",
        /// An invoice was changed (fields, items, tags, status, payments, client link).
        InvoiceUpdated = "invoice.updated",
        /// An invoice was deleted.
        InvoiceDeleted = "invoice.deleted",
        /// An invoice was published.
        InvoicePublished = "invoice.published",
        /// An invoice's email was queued.
        InvoiceEmailed = "invoice.emailed",
        /// An invoice became paid in full.
        InvoicePaid = "invoice.paid",
        /// A credit note was issued (its invoice's change follows as `invoice.updated`).
        CreditNoteIssued = "credit_note.issued",
        /// A credit note's client link was made or revoked (nothing else of it changes).
        CreditNoteUpdated = "credit_note.updated",
        /// A credit note's email was queued.
        CreditNoteEmailed = "credit_note.emailed",
        /// An invoice's payment reminder was queued (API.md §20; `data` is the invoice).
        InvoiceReminded = "invoice.reminded",
        /// An issued, unpaid invoice passed its due date (`data` is the invoice).
        InvoiceOverdue = "invoice.overdue",
        /// A recurring invoice was created.
        RecurringInvoiceCreated = "recurring_invoice.created",
        /// A recurring invoice was changed (by a request, or as the scheduler went on).
        RecurringInvoiceUpdated = "recurring_invoice.updated",
        /// A recurring invoice was deleted (the invoices it made stay).
        RecurringInvoiceDeleted = "recurring_invoice.deleted",
        /// A recurring invoice made an invoice (`data` is the invoice).
        RecurringInvoiceGenerated = "recurring_invoice.generated",
        /// A milestone was created.
        MilestoneCreated = "milestone.created",
        /// A milestone was changed (also its position).
        MilestoneUpdated = "milestone.updated",
        /// A milestone was deleted.
        MilestoneDeleted = "milestone.deleted",
        /// A note was created.
        NoteCreated = "note.created",
        /// A note was changed.
        NoteUpdated = "note.updated",
        /// A note was deleted.
        NoteDeleted = "note.deleted",
        /// A payment was recorded.
        PaymentCreated = "payment.created",
        /// A payment was deleted.
        PaymentDeleted = "payment.deleted",
        /// The company's settings were changed.
        CompanyUpdated = "company.updated",
        /// A client was created.
        ClientCreated = "client.created",
        /// A client was changed.
        ClientUpdated = "client.updated",
        /// A client was deleted.
        ClientDeleted = "client.deleted",
        /// A tax rate was created.
        TaxRateCreated = "tax_rate.created",
        /// A tax rate was changed.
        TaxRateUpdated = "tax_rate.updated",
        /// A tax rate was deleted.
        TaxRateDeleted = "tax_rate.deleted",
        /// A project was created (with its `uncategorised` milestone).
        ProjectCreated = "project.created",
        /// A project was changed.
        ProjectUpdated = "project.updated",
        /// A project was deleted (with its milestones).
        ProjectDeleted = "project.deleted",
        /// A user changed their name or email (`/api/users/me`).
        UserUpdated = "user.updated",
        /// An email was accepted by the mail server.
        EmailSent = "email.sent",
        /// An email was given up.
        EmailFailed = "email.failed",
        /// `POST /api/webhooks/{id}/test`: sent to that endpoint alone.
        WebhookTest = "webhook.test",
    }
);

/// Subscribes to every event.
pub const ALL_EVENTS: &str = "*";

impl EventType {
    /// The area this event is about (`estimate` for `estimate.published`).
    pub fn area(self) -> &'static str {
        let text = self.as_str();
        text.split_once('.').map_or(text, |(area, _)| area)
    }
}

/// What happened to an estimate or an invoice, for [`bill_event`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillAction {
    /// Created.
    Created,
    /// Changed.
    Updated,
    /// Deleted.
    Deleted,
    /// Published.
    Published,
    /// Its email was queued.
    Emailed,
}

/// The event type of `action` on a bill of `kind`. A credit note is issued when it is
/// created (and never published after), and never deleted: what changes of it (its client
/// link) is an update.
pub fn bill_event(kind: crate::bill::BillKind, action: BillAction) -> EventType {
    use crate::bill::BillKind::{CreditNote, Estimate, Invoice};
    match (kind, action) {
        (Estimate, BillAction::Created) => EventType::EstimateCreated,
        (Estimate, BillAction::Updated) => EventType::EstimateUpdated,
        (Estimate, BillAction::Deleted) => EventType::EstimateDeleted,
        (Estimate, BillAction::Published) => EventType::EstimatePublished,
        (Estimate, BillAction::Emailed) => EventType::EstimateEmailed,
        (Invoice, BillAction::Created) => EventType::InvoiceCreated,
        (Invoice, BillAction::Updated) => EventType::InvoiceUpdated,
        (Invoice, BillAction::Deleted) => EventType::InvoiceDeleted,
        (Invoice, BillAction::Published) => EventType::InvoicePublished,
        (Invoice, BillAction::Emailed) => EventType::InvoiceEmailed,
        (CreditNote, BillAction::Created | BillAction::Published) => EventType::CreditNoteIssued,
        (CreditNote, BillAction::Updated | BillAction::Deleted) => EventType::CreditNoteUpdated,
        (CreditNote, BillAction::Emailed) => EventType::CreditNoteEmailed,
    }
}

/// The event types an endpoint may list (every type but `webhook.test`), for documents.
pub fn subscribable() -> impl Iterator<Item = EventType> {
    <EventType as Choice>::CHOICES
        .iter()
        .map(|(_, kind)| *kind)
        .filter(|kind| *kind != EventType::WebhookTest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_type_is_an_area_and_an_action() {
        for (text, kind) in <EventType as Choice>::CHOICES {
            let (area, action) = text.split_once('.').unwrap();
            assert_eq!(kind.area(), area);
            assert!(!action.is_empty());
        }
        assert_eq!(
            subscribable().count(),
            <EventType as Choice>::CHOICES.len() - 1
        );
    }
}
