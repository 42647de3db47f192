//! Estimate status: what is stored, what is shown, which changes are allowed.
//!
//! The status is stored as set. The shown status is derived: a stored `new` whose expiry
//! date is before today shows as `expired`; moving the expiry date forward brings it back.
//! `PUT status` accepts the five stored values from any status but `accepted`, which an
//! estimate keeps with what was agreed ([`lock`]). Publishing moves a stored `draft` to
//! `new`; emailing needs a non-draft; converting happens once.

use chrono::NaiveDate;

use crate::bill::Lock;
use crate::choice_enum;
use crate::conflict::Conflict;
use crate::input::{Form, RawMap, read_choice};
use crate::validation::Rejected;

choice_enum!(
    /// A status as stored (and as `PUT status` accepts it).
    pub enum StoredStatus {
        /// Not yet published.
        Draft = "draft",
        /// Published, awaiting the client's answer.
        New = "new",
        /// Accepted by the client.
        Accepted = "accepted",
        /// Declined by the client.
        Declined = "declined",
        /// Revised.
        Revised = "revised",
    }
);

choice_enum!(
    /// A status as shown (and as the `status` list filter takes it).
    pub enum ShownStatus {
        /// Not yet published.
        Draft = "draft",
        /// Published and not expired.
        New = "new",
        /// Accepted.
        Accepted = "accepted",
        /// Declined.
        Declined = "declined",
        /// Revised.
        Revised = "revised",
        /// Stored `new` with an expiry date before today.
        Expired = "expired",
    }
);

/// The conditions that select one shown status: the stored status, and whether the
/// expiry date must be before today (`Some(true)`), must not be (`Some(false)`: on or
/// after today, or no expiry date), or does not matter (`None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShownConditions {
    /// The stored status.
    pub stored: StoredStatus,
    /// Whether the expiry date is before today.
    pub expired: Option<bool>,
}

impl ShownStatus {
    /// The stored status and expiry condition under which an estimate shows `self`.
    pub fn conditions(self) -> ShownConditions {
        let (stored, expired) = match self {
            ShownStatus::Draft => (StoredStatus::Draft, None),
            ShownStatus::New => (StoredStatus::New, Some(false)),
            ShownStatus::Expired => (StoredStatus::New, Some(true)),
            ShownStatus::Accepted => (StoredStatus::Accepted, None),
            ShownStatus::Declined => (StoredStatus::Declined, None),
            ShownStatus::Revised => (StoredStatus::Revised, None),
        };
        ShownConditions { stored, expired }
    }

    /// The shown status of an estimate stored as `stored` with `expiry`, on `today`.
    pub fn derive(
        stored: StoredStatus,
        expiry: Option<NaiveDate>,
        today: NaiveDate,
    ) -> ShownStatus {
        match stored {
            StoredStatus::New if expiry.is_some_and(|e| e < today) => ShownStatus::Expired,
            StoredStatus::New => ShownStatus::New,
            StoredStatus::Draft => ShownStatus::Draft,
            StoredStatus::Accepted => ShownStatus::Accepted,
            StoredStatus::Declined => ShownStatus::Declined,
            StoredStatus::Revised => ShownStatus::Revised,
        }
    }
}

/// `PUT /estimates/{id}/status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusChange {
    /// The new stored status (`expired` is not settable).
    pub status: StoredStatus,
}

impl StatusChange {
    /// Reads `status` (required, one of the five stored values).
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let status = form.required("status", read_choice::<StoredStatus>);
        form.finish()?;
        status
            .map(|status| StatusChange { status })
            .ok_or_else(Rejected::default)
    }
}

/// Publishing is allowed only from a stored draft, and gives `new`.
pub fn publish(stored: StoredStatus) -> Result<StoredStatus, Conflict> {
    match stored {
        StoredStatus::Draft => Ok(StoredStatus::New),
        StoredStatus::New
        | StoredStatus::Accepted
        | StoredStatus::Declined
        | StoredStatus::Revised => Err(Conflict::EstimateAlreadyPublished),
    }
}

/// How far an estimate may change (API.md §18): once accepted it keeps what was agreed
/// ([`Lock::Accepted`]).
pub fn lock(stored: StoredStatus) -> Lock {
    match stored {
        StoredStatus::Accepted => Lock::Accepted,
        StoredStatus::Draft
        | StoredStatus::New
        | StoredStatus::Declined
        | StoredStatus::Revised => Lock::Open,
    }
}

/// A status set by hand: an accepted estimate keeps its status (409 "An accepted estimate
/// cannot be changed."); any other takes any of the five.
pub fn check_status_change(stored: StoredStatus, wanted: StoredStatus) -> Result<(), Conflict> {
    if stored == StoredStatus::Accepted && wanted != StoredStatus::Accepted {
        Err(Conflict::AcceptedEstimateChanged)
    } else {
        Ok(())
    }
}

/// Emailing the client is allowed for every estimate that is not a stored draft.
pub fn check_send_email(stored: StoredStatus) -> Result<(), Conflict> {
    match stored {
        StoredStatus::Draft => Err(Conflict::EstimateStillDraft),
        StoredStatus::New
        | StoredStatus::Accepted
        | StoredStatus::Declined
        | StoredStatus::Revised => Ok(()),
    }
}

/// An estimate converts to an invoice once.
pub fn check_convert(already_converted: bool) -> Result<(), Conflict> {
    if already_converted {
        Err(Conflict::EstimateAlreadyConverted)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::day;
    use crate::input::{Choice, RawValue};

    #[test]
    fn a_new_estimate_past_its_expiry_date_shows_as_expired() {
        let today = day("2026-11-22");
        assert_eq!(
            ShownStatus::derive(StoredStatus::New, Some(day("2026-11-21")), today),
            ShownStatus::Expired
        );
        assert_eq!(
            ShownStatus::derive(StoredStatus::New, Some(today), today),
            ShownStatus::New
        );
        assert_eq!(
            ShownStatus::derive(StoredStatus::New, None, today),
            ShownStatus::New
        );
    }

    #[test]
    fn only_new_estimates_expire() {
        let past = Some(day("2000-01-01"));
        let today = day("2026-11-22");
        assert_eq!(
            ShownStatus::derive(StoredStatus::Draft, past, today),
            ShownStatus::Draft
        );
        assert_eq!(
            ShownStatus::derive(StoredStatus::Accepted, past, today),
            ShownStatus::Accepted
        );
        assert_eq!(
            ShownStatus::derive(StoredStatus::Declined, past, today),
            ShownStatus::Declined
        );
        assert_eq!(
            ShownStatus::derive(StoredStatus::Revised, past, today),
            ShownStatus::Revised
        );
    }

    #[test]
    fn the_filter_conditions_select_exactly_the_derived_status() {
        let today = day("2026-11-22");
        for (_, stored) in StoredStatus::CHOICES {
            for expiry in [
                None,
                Some(day("2026-11-21")),
                Some(today),
                Some(day("2026-11-23")),
            ] {
                let expired = expiry.is_some_and(|e| e < today);
                let matching: Vec<_> = ShownStatus::CHOICES
                    .iter()
                    .map(|(_, s)| *s)
                    .filter(|s| {
                        let c = s.conditions();
                        c.stored == *stored && c.expired.is_none_or(|e| e == expired)
                    })
                    .collect();
                assert_eq!(matching, vec![ShownStatus::derive(*stored, expiry, today)]);
            }
        }
    }

    #[test]
    fn put_status_accepts_the_five_stored_values_but_not_expired() {
        for s in ["draft", "new", "accepted", "declined", "revised"] {
            let raw: RawMap = [("status", RawValue::text(s))].into_iter().collect();
            assert_eq!(StatusChange::parse(&raw).unwrap().status.as_str(), s);
        }
        let raw: RawMap = [("status", RawValue::text("expired"))]
            .into_iter()
            .collect();
        let r = StatusChange::parse(&raw).unwrap_err();
        assert_eq!(
            r.errors.get("status"),
            Some(&["The selected status is invalid.".to_owned()][..])
        );
        let r = StatusChange::parse(&RawMap::new()).unwrap_err();
        assert_eq!(
            r.errors.get("status"),
            Some(&["The status field is required.".to_owned()][..])
        );
    }

    #[test]
    fn only_a_draft_can_be_published_and_it_becomes_new() {
        assert_eq!(publish(StoredStatus::Draft), Ok(StoredStatus::New));
        for s in [
            StoredStatus::New,
            StoredStatus::Accepted,
            StoredStatus::Declined,
            StoredStatus::Revised,
        ] {
            assert_eq!(publish(s), Err(Conflict::EstimateAlreadyPublished));
        }
        assert_eq!(
            Conflict::EstimateAlreadyPublished.message(),
            "Estimate has already been published."
        );
    }

    #[test]
    fn a_draft_cannot_be_emailed() {
        assert_eq!(
            check_send_email(StoredStatus::Draft),
            Err(Conflict::EstimateStillDraft)
        );
        assert_eq!(check_send_email(StoredStatus::Accepted), Ok(()));
        assert_eq!(
            Conflict::EstimateStillDraft.message(),
            "Estimate is still in draft status."
        );
    }

    #[test]
    fn an_estimate_converts_once() {
        assert_eq!(check_convert(false), Ok(()));
        assert_eq!(check_convert(true), Err(Conflict::EstimateAlreadyConverted));
        assert_eq!(
            Conflict::EstimateAlreadyConverted.message(),
            "Estimate has already been converted to an invoice."
        );
    }
}
