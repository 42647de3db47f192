//! The client's answer to an estimate (API.md §12): Accept or Decline from the client's
//! page, which rule allows it, and what the record shows of it (`client_response`).
//!
//! An estimate whose shown status is `new` can be decided: accepting stores `accepted`,
//! declining stores `declined`. Repeating the decision already recorded changes nothing
//! and is not an error (a double click, a reloaded form). Every other shown status refuses
//! with the reason the page gives: already decided the other way, expired, revised, or a
//! draft.

use serde::Serialize;

use crate::choice_enum;
use crate::input::{Form, RawMap, TextRule, text};
use crate::time::Timestamp;
use crate::validation::Rejected;

use super::status::{ShownStatus, StoredStatus};

/// The longest decline reason, in characters (API.md §12).
pub const REASON_MAX_CHARS: usize = 1000;

/// The longest `version` a form may send (a version is 64 hex digits).
pub const VERSION_MAX_CHARS: usize = 128;

choice_enum!(
    /// Accepted or declined.
    pub enum Decision {
        /// The client accepted the estimate.
        Accepted = "accepted",
        /// The client declined it.
        Declined = "declined",
    }
);

impl Decision {
    /// The stored status the decision sets.
    pub fn status(self) -> StoredStatus {
        match self {
            Decision::Accepted => StoredStatus::Accepted,
            Decision::Declined => StoredStatus::Declined,
        }
    }
}

/// What the estimate shows of the client's answer: `client_response`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClientResponse {
    /// Accepted or declined.
    pub decision: Decision,
    /// The reason given with a decline (`null` when none was given, and for an accept).
    pub reason: Option<String>,
    /// When the client answered.
    pub at: Timestamp,
}

/// A decision as the client's form sends it: the decision is the route
/// (`/c/{token}/accept` or `/decline`), the reason and the version of the offer the page
/// showed form fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionRequest {
    /// Accept or decline.
    pub decision: Decision,
    /// The version of the offer the page showed (`version`, API.md §18); `None` from a
    /// form that sent none (a page from before versions), which matches no offer.
    pub version: Option<String>,
    /// The reason, declines only: trimmed, at most [`REASON_MAX_CHARS`] characters, blank
    /// read as none. An accept ignores any `reason` it is sent.
    pub reason: Option<String>,
}

impl DecisionRequest {
    /// Reads the form of `decision`: `reason` is optional (declines only).
    pub fn parse(decision: Decision, raw: &RawMap) -> Result<DecisionRequest, Rejected> {
        let mut form = Form::new(raw);
        let reason = match decision {
            Decision::Declined => form.optional(
                "reason",
                text(TextRule {
                    max_chars: REASON_MAX_CHARS,
                    forbid_html: false,
                    one_line: false,
                }),
            ),
            Decision::Accepted => None,
        };
        let version = form.optional(
            "version",
            text(TextRule {
                max_chars: VERSION_MAX_CHARS,
                forbid_html: false,
                one_line: true,
            }),
        );
        form.finish()?;
        let reason = reason
            .map(|r| r.trim().to_owned())
            .filter(|r| !r.is_empty());
        Ok(DecisionRequest {
            decision,
            reason,
            version: version.map(|v| v.trim().to_owned()),
        })
    }
}

/// Why a decision was not recorded (the page answers 409 with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The estimate was already accepted or declined, the other way.
    AlreadyDecided,
    /// It is `new` but past its expiry date.
    Expired,
    /// It was revised: a newer estimate replaces it.
    Revised,
    /// It is a draft (not published, or set back to draft).
    Draft,
    /// It was converted to an invoice: nothing is left to accept or decline.
    Converted,
    /// The offer changed since the page the decision came from was shown (API.md §18):
    /// the client must review it again.
    Changed,
}

/// What a decision does to an estimate shown as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// Store this status and the response.
    Record(StoredStatus),
    /// The same decision is already recorded: nothing changes.
    AlreadyRecorded,
}

/// The rule: only an estimate shown `new` can be decided, and only on the offer the client
/// saw (`seen_current`: the form's version is the estimate's current one); the same
/// decision again is harmless; every other status refuses, saying why.
pub fn decide(
    shown: ShownStatus,
    converted: bool,
    decision: Decision,
    seen_current: bool,
) -> Result<Decided, Refusal> {
    match (shown, decision) {
        (ShownStatus::New, _) if converted => Err(Refusal::Converted),
        (ShownStatus::New, _) if !seen_current => Err(Refusal::Changed),
        (ShownStatus::New, d) => Ok(Decided::Record(d.status())),
        (ShownStatus::Accepted, Decision::Accepted)
        | (ShownStatus::Declined, Decision::Declined) => Ok(Decided::AlreadyRecorded),
        (ShownStatus::Accepted, Decision::Declined)
        | (ShownStatus::Declined, Decision::Accepted) => Err(Refusal::AlreadyDecided),
        (ShownStatus::Expired, _) => Err(Refusal::Expired),
        (ShownStatus::Revised, _) => Err(Refusal::Revised),
        (ShownStatus::Draft, _) => Err(Refusal::Draft),
    }
}

/// Whether the page offers Accept and Decline for an estimate shown as `shown`
/// (`converted`: it became an invoice).
pub fn can_decide(shown: ShownStatus, converted: bool) -> bool {
    decide(shown, converted, Decision::Accepted, true)
        .is_ok_and(|d| matches!(d, Decided::Record(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::raw;

    #[test]
    fn a_new_estimate_takes_either_decision() {
        assert_eq!(
            decide(ShownStatus::New, false, Decision::Accepted, true),
            Ok(Decided::Record(StoredStatus::Accepted))
        );
        assert_eq!(
            decide(ShownStatus::New, false, Decision::Declined, true),
            Ok(Decided::Record(StoredStatus::Declined))
        );
        assert!(can_decide(ShownStatus::New, false));
    }

    #[test]
    fn a_decision_on_an_offer_that_changed_since_the_page_is_refused() {
        for decision in [Decision::Accepted, Decision::Declined] {
            assert_eq!(
                decide(ShownStatus::New, false, decision, false),
                Err(Refusal::Changed)
            );
        }
        // A repeated decision stays harmless whatever page it came from.
        assert_eq!(
            decide(ShownStatus::Accepted, false, Decision::Accepted, false),
            Ok(Decided::AlreadyRecorded)
        );
    }

    #[test]
    fn the_same_decision_again_changes_nothing_and_the_other_is_refused() {
        assert_eq!(
            decide(ShownStatus::Accepted, false, Decision::Accepted, true),
            Ok(Decided::AlreadyRecorded)
        );
        assert_eq!(
            decide(ShownStatus::Declined, false, Decision::Declined, true),
            Ok(Decided::AlreadyRecorded)
        );
        assert_eq!(
            decide(ShownStatus::Accepted, false, Decision::Declined, true),
            Err(Refusal::AlreadyDecided)
        );
        assert_eq!(
            decide(ShownStatus::Declined, false, Decision::Accepted, true),
            Err(Refusal::AlreadyDecided)
        );
    }

    #[test]
    fn expired_revised_and_draft_estimates_refuse_with_their_reason() {
        for decision in [Decision::Accepted, Decision::Declined] {
            assert_eq!(
                decide(ShownStatus::Expired, false, decision, true),
                Err(Refusal::Expired)
            );
            assert_eq!(
                decide(ShownStatus::Revised, false, decision, true),
                Err(Refusal::Revised)
            );
            assert_eq!(
                decide(ShownStatus::Draft, false, decision, true),
                Err(Refusal::Draft)
            );
        }
        for shown in [
            ShownStatus::Draft,
            ShownStatus::Accepted,
            ShownStatus::Declined,
            ShownStatus::Revised,
            ShownStatus::Expired,
        ] {
            assert!(!can_decide(shown, false), "{shown:?}");
        }
    }

    #[test]
    fn a_decline_reason_is_trimmed_optional_and_at_most_1000_characters() {
        let d = DecisionRequest::parse(Decision::Declined, &raw(&[("reason", "  Too dear  ")]))
            .unwrap();
        assert_eq!(d.reason.as_deref(), Some("Too dear"));
        let none = DecisionRequest::parse(Decision::Declined, &raw(&[])).unwrap();
        assert_eq!(none.reason, None);
        let blank = DecisionRequest::parse(Decision::Declined, &raw(&[("reason", "   ")])).unwrap();
        assert_eq!(blank.reason, None);
        let longest = "é".repeat(1000);
        assert!(DecisionRequest::parse(Decision::Declined, &raw(&[("reason", &longest)])).is_ok());
        let r = DecisionRequest::parse(Decision::Declined, &raw(&[("reason", &"x".repeat(1001))]))
            .unwrap_err();
        assert_eq!(
            r.errors.get("reason"),
            Some(&["The reason may not be greater than 1000 characters.".to_owned()][..])
        );
    }

    #[test]
    fn an_accept_ignores_a_reason() {
        let d = DecisionRequest::parse(Decision::Accepted, &raw(&[("reason", &"x".repeat(5000))]))
            .unwrap();
        assert_eq!(d.reason, None);
    }

    #[test]
    fn the_response_serialises_as_the_contract_shows_it() {
        let at = Timestamp(
            chrono::DateTime::parse_from_rfc3339("2026-11-25T10:00:00Z")
                .unwrap()
                .into(),
        );
        let r = ClientResponse {
            decision: Decision::Declined,
            reason: Some("Too dear".into()),
            at,
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"decision":"declined","reason":"Too dear","at":"2026-11-25T10:00:00.000000Z"}"#
        );
    }

    #[test]
    fn a_converted_estimate_takes_no_decision_and_offers_none() {
        for decision in [Decision::Accepted, Decision::Declined] {
            assert_eq!(
                decide(ShownStatus::New, true, decision, true),
                Err(Refusal::Converted)
            );
        }
        assert!(!can_decide(ShownStatus::New, true));
        // A decision recorded before the conversion stays recorded.
        assert_eq!(
            decide(ShownStatus::Accepted, true, Decision::Accepted, true),
            Ok(Decided::AlreadyRecorded)
        );
    }
}
