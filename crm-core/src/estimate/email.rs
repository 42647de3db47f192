//! The estimate email that publishing and `send-email` queue for the client.
//!
//! The email goes to the client's contact address; a client without one (or with a blank
//! one) gets none, and the action still succeeds. The email is written to the queue in the
//! same transaction as the action; a worker outside the service sends it.

use crate::ids::EstimateId;

/// The template the queue worker renders.
pub const TEMPLATE: &str = "estimate";

/// The subject line of estimate `id`'s email: `Estimate #42`.
pub fn subject(id: EstimateId) -> String {
    crate::mail::subject(crate::bill::BillKind::Estimate, id.get())
}

/// Where the email goes, given the client's contact address: `None` when there is none.
pub fn recipient(contact_email: Option<&str>) -> Option<&str> {
    crate::mail::recipient(contact_email)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subject_names_the_estimate() {
        assert_eq!(subject(EstimateId::new(42).unwrap()), "Estimate #42");
    }

    #[test]
    fn a_client_without_a_contact_address_gets_no_email() {
        assert_eq!(
            recipient(Some(" billing@acme.example ")),
            Some("billing@acme.example")
        );
        assert_eq!(recipient(Some("  ")), None);
        assert_eq!(recipient(None), None);
    }
}
