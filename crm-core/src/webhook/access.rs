//! What an endpoint may receive (issue 47): an endpoint belongs to the API key that
//! registered it (or last set its URL, its events or enabled it), and an event reaches it
//! only when that key could `GET` the event's record through the API: every area whose
//! data the event carries must be readable under the key's scopes, and a private note
//! reaches only its creator's keys. `*` means every event the key may read.
//!
//! The rule is written once, here; the store applies it when it fans events out (from the
//! key's scopes as they are then, so a narrowed, revoked or expired key stops receiving at
//! once) and checks a subscription against it when an endpoint is registered or changed.

use crate::ids::UserId;
use crate::scope::{Area, Level, Need, Scopes};
use crate::validation::FieldErrors;

use super::{EventType, Subscription};

impl EventType {
    /// The areas whose data an event of this type carries: a key receives it only when it
    /// may read every one of them. `estimate.converted` carries the new invoice, so it
    /// needs both estimates and invoices; `webhook.test` carries its endpoint.
    pub fn needs(self) -> &'static [Area] {
        use EventType::*;
        match self {
            CategoryCreated | CategoryUpdated | CategoryDeleted => &[Area::Categories],
            ContractCreated | ContractUpdated | ContractDeleted => &[Area::Contracts],
            EstimateCreated | EstimateUpdated | EstimateDeleted | EstimatePublished
            | EstimateEmailed | EstimateAccepted | EstimateDeclined => &[Area::Estimates],
            EstimateConverted => &[Area::Estimates, Area::Invoices],
            InvoiceCreated | InvoiceUpdated | InvoiceDeleted | InvoicePublished
            | InvoiceEmailed | InvoicePaid | InvoiceReminded | InvoiceOverdue => &[Area::Invoices],
            RecurringInvoiceCreated | RecurringInvoiceUpdated | RecurringInvoiceDeleted => {
                &[Area::RecurringInvoices]
            }
            RecurringInvoiceGenerated => &[Area::RecurringInvoices, Area::Invoices],
            MilestoneCreated | MilestoneUpdated | MilestoneDeleted => &[Area::Milestones],
            NoteCreated | NoteUpdated | NoteDeleted => &[Area::Notes],
            PaymentCreated | PaymentDeleted => &[Area::Payments],
            CreditNoteIssued | CreditNoteUpdated | CreditNoteEmailed => &[Area::CreditNotes],
            EmailSent | EmailFailed => &[Area::Emails],
            CompanyUpdated => &[Area::Company],
            ClientCreated | ClientUpdated | ClientDeleted => &[Area::Clients],
            TaxRateCreated | TaxRateUpdated | TaxRateDeleted => &[Area::TaxRates],
            ProjectCreated | ProjectUpdated | ProjectDeleted => &[Area::Projects],
            UserUpdated => &[Area::Users],
            WebhookTest => &[Area::Webhooks],
        }
    }

    /// Whether a key with `scopes` may read what an event of this type carries.
    pub fn readable_with(self, scopes: &Scopes) -> bool {
        self.needs().iter().all(|&area| {
            scopes.allow(Need {
                area,
                level: Level::Read,
            })
        })
    }
}

/// Who may see an event's record beyond the scopes: everyone the scopes allow, or only one
/// user (a private note's creator).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Audience {
    /// Every key whose scopes allow the event's areas.
    #[default]
    Everyone,
    /// Only the keys of this user (and only those whose scopes allow it).
    Only(UserId),
}

impl Audience {
    /// The user the event is private to, if it is.
    pub fn private_to(self) -> Option<UserId> {
        match self {
            Audience::Everyone => None,
            Audience::Only(user) => Some(user),
        }
    }

    /// Whether the keys of `user` may receive an event with this audience.
    pub fn includes(self, user: UserId) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Only(only) => only == user,
        }
    }
}

/// The message of a subscription naming events the key may not read.
pub fn unreadable_message(kinds: &[EventType]) -> String {
    let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
    format!(
        "This API key may not read these events: {}.",
        names.join(", ")
    )
}

impl Subscription {
    /// The listed event types that a key with `scopes` may not read, in the order listed
    /// (none for `*`, which means every event the key may read).
    pub fn unreadable(&self, scopes: &Scopes) -> Vec<EventType> {
        match self {
            Subscription::All => Vec::new(),
            Subscription::Only(kinds) => kinds
                .iter()
                .copied()
                .filter(|k| !k.readable_with(scopes))
                .collect(),
        }
    }

    /// Whether a key with `scopes` may subscribe to this: `Err` names, on `events`, every
    /// listed type it may not read (422).
    pub fn check_readable(&self, scopes: &Scopes) -> Result<(), FieldErrors> {
        let unreadable = self.unreadable(scopes);
        if unreadable.is_empty() {
            return Ok(());
        }
        let mut errors = FieldErrors::default();
        errors.add("events", unreadable_message(&unreadable));
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::Choice;

    fn scopes(texts: &[&str]) -> Scopes {
        Scopes::parse(texts.iter().copied()).unwrap()
    }

    #[test]
    fn every_event_type_needs_the_area_it_is_named_after() {
        for (_, kind) in <EventType as Choice>::CHOICES {
            let named = match kind.area() {
                "category" => "categories".to_owned(),
                "company" => "company".to_owned(),
                "tax_rate" => "tax-rates".to_owned(),
                "credit_note" => "credit-notes".to_owned(),
                "recurring_invoice" => "recurring-invoices".to_owned(),
                other => format!("{other}s"),
            };
            assert!(
                kind.needs().iter().any(|a| a.as_str() == named),
                "{kind:?} needs {:?}",
                kind.needs()
            );
        }
    }

    #[test]
    fn a_key_reads_the_events_of_the_areas_its_scopes_allow_and_no_others() {
        let notes = scopes(&["notes:read"]);
        assert!(EventType::NoteCreated.readable_with(&notes));
        assert!(EventType::NoteDeleted.readable_with(&notes));
        assert!(!EventType::InvoiceCreated.readable_with(&notes));
        assert!(!EventType::PaymentCreated.readable_with(&notes));
        let hooks = scopes(&["webhooks:write"]);
        for (_, kind) in <EventType as Choice>::CHOICES {
            assert_eq!(
                kind.readable_with(&hooks),
                *kind == EventType::WebhookTest,
                "{kind:?}"
            );
        }
        for all in [scopes(&["read"]), scopes(&["write"])] {
            for (_, kind) in <EventType as Choice>::CHOICES {
                assert!(kind.readable_with(&all), "{kind:?}");
            }
        }
    }

    #[test]
    fn a_conversion_needs_both_the_estimate_and_the_invoice() {
        assert!(!EventType::EstimateConverted.readable_with(&scopes(&["estimates:write"])));
        assert!(!EventType::EstimateConverted.readable_with(&scopes(&["invoices:read"])));
        assert!(
            EventType::EstimateConverted
                .readable_with(&scopes(&["estimates:read", "invoices:read"]))
        );
    }

    #[test]
    fn a_subscription_names_every_event_the_key_may_not_read() {
        let sub = Subscription::Only(vec![
            EventType::NoteCreated,
            EventType::InvoicePaid,
            EventType::PaymentCreated,
        ]);
        let notes = scopes(&["notes:write"]);
        assert_eq!(
            sub.unreadable(&notes),
            vec![EventType::InvoicePaid, EventType::PaymentCreated]
        );
        let errors = sub.check_readable(&notes).unwrap_err();
        assert_eq!(
            errors.get("events"),
            Some(
                &[
                    "This API key may not read these events: invoice.paid, payment.created."
                        .to_owned()
                ][..]
            )
        );
        assert!(Subscription::All.check_readable(&notes).is_ok());
        assert!(sub.check_readable(&scopes(&["read"])).is_ok());
    }

    #[test]
    fn a_private_event_reaches_only_its_user() {
        let (one, two) = (UserId::new(1).unwrap(), UserId::new(2).unwrap());
        assert!(Audience::Everyone.includes(one));
        assert!(Audience::Only(one).includes(one));
        assert!(!Audience::Only(one).includes(two));
        assert_eq!(Audience::Only(two).private_to(), Some(two));
        assert_eq!(Audience::Everyone.private_to(), None);
    }
}
