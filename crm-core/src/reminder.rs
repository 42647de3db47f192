//! Payment reminders (API.md §20, issue 51 item 3, first part): the company's reminder
//! steps, and which step of an unpaid invoice is due on a day and at an hour.
//!
//! A step is a number of days relative to an invoice's due date (`-3`: three days before,
//! `7`: a week after). Each (invoice, step) is sent at most once; when several steps have
//! passed unsent (the service was down, or the invoice was issued late), only the latest is
//! sent and the earlier ones are skipped ([`due_step`]). Reminders go out only between
//! 09:00 and 18:00 in the company's time zone ([`within_sending_hours`]). Nothing here reads
//! a clock: the day and the hour are parameters.
//!
//! ```
//! use chrono::NaiveDate;
//! use crm_core::reminder::{ReminderSteps, due_step};
//!
//! let steps = ReminderSteps::new(vec![-3, 7, 14, 30]).unwrap();
//! let due = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
//! let today = NaiveDate::from_ymd_opt(2026, 3, 16).unwrap();
//! // Nothing sent yet: 7 and 14 days after have passed; 14 is sent, -3 and 7 are skipped.
//! let step = due_step(&steps, due, today, &[]).unwrap();
//! assert_eq!((step.send, step.skip), (Some(14), vec![-3, 7]));
//! ```

use chrono::{Days, NaiveDate, NaiveTime};

use crate::input::{Form, Presence, RawValue, read_integer};
use crate::validation::{FieldErrors, message};

/// The earliest and latest step a company may set: a year before or after the due date.
pub const MAX_OFFSET_DAYS: i32 = 365;
/// The most steps a company may set.
pub const MAX_STEPS: usize = 10;
/// The first hour of the day reminders are sent in, in the company's time zone.
pub const SENDING_FROM: u32 = 9;
/// The hour reminders stop being sent at.
pub const SENDING_UNTIL: u32 = 18;

/// The company's reminder steps: distinct day offsets from the due date, in increasing
/// order (the empty set: no reminders).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReminderSteps(Vec<i32>);

impl serde::Serialize for ReminderSteps {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl ReminderSteps {
    /// The steps of `offsets` (any order), checked: each within a year of the due date,
    /// no repeat, at most [`MAX_STEPS`]; every failing one is named (`reminders.2`).
    pub fn new(offsets: Vec<i32>) -> Result<ReminderSteps, FieldErrors> {
        let mut errors = FieldErrors::new();
        if offsets.len() > MAX_STEPS {
            errors.add("reminders", message::max_items("reminders", MAX_STEPS));
        }
        for (i, offset) in offsets.iter().enumerate() {
            let field = format!("reminders.{i}");
            if offset.abs() > MAX_OFFSET_DAYS {
                let (min, max) = (-MAX_OFFSET_DAYS, MAX_OFFSET_DAYS);
                errors.add(
                    &field,
                    message::between(&field, &min.to_string(), &max.to_string()),
                );
            } else if offsets[..i].contains(offset) {
                errors.add(&field, message::distinct(&field));
            }
        }
        errors.into_result()?;
        let mut steps = offsets;
        steps.sort_unstable();
        Ok(ReminderSteps(steps))
    }

    /// The offsets, in increasing order.
    pub fn offsets(&self) -> &[i32] {
        &self.0
    }

    /// Reads the company's `reminders` field from a PATCH: `None` when absent (kept), the
    /// empty set when sent empty or `null` (no reminders), else the steps, every failing
    /// element named by the position it was sent at (`reminders.2`).
    pub fn read(form: &mut Form<'_>) -> Option<ReminderSteps> {
        if matches!(form.presence(FIELD), Presence::Absent) {
            return None;
        }
        let list = form.list(FIELD, false, MAX_STEPS)?;
        let mut offsets: Vec<(usize, i32)> = Vec::new();
        for (i, value) in list {
            let field = format!("{FIELD}.{i}");
            let Some(n) = form.element(&field, value, read_offset) else {
                continue;
            };
            if offsets.iter().any(|(_, o)| *o == n) {
                form.error_at(&field, message::distinct(&field));
            } else {
                offsets.push((i, n));
            }
        }
        let mut steps: Vec<i32> = offsets.into_iter().map(|(_, o)| o).collect();
        steps.sort_unstable();
        Some(ReminderSteps(steps))
    }
}

/// The company field that holds the steps.
pub const FIELD: &str = "reminders";

/// Reads one step: a whole number of days within a year of the due date.
fn read_offset(field: &str, value: &RawValue, errors: &mut FieldErrors) -> Option<i32> {
    let n = read_integer(field, value, errors)?;
    if n.abs() > i64::from(MAX_OFFSET_DAYS) {
        let (min, max) = (-MAX_OFFSET_DAYS, MAX_OFFSET_DAYS);
        errors.add(
            field,
            message::between(field, &min.to_string(), &max.to_string()),
        );
        return None;
    }
    i32::try_from(n).ok()
}

/// What is due for one invoice: the step to send now (if any), and the steps passed that
/// are not sent and will not be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueStep {
    /// The step whose reminder is sent (`None`: only steps to pass over).
    pub send: Option<i32>,
    /// Steps passed unsent, recorded as skipped: those before the one sent, and any whose
    /// day came but that is earlier than one already recorded (a step added later).
    pub skip: Vec<i32>,
}

/// The day of step `offset` of an invoice due on `due` (`None` past the calendar).
pub fn step_date(due: NaiveDate, offset: i32) -> Option<NaiveDate> {
    let days = Days::new(u64::from(offset.unsigned_abs()));
    if offset < 0 {
        due.checked_sub_days(days)
    } else {
        due.checked_add_days(days)
    }
}

/// The reminder due on `today` for an invoice due on `due` whose steps in `recorded` were
/// sent or skipped before: the latest step whose day has come and that is not recorded is
/// sent, the earlier unrecorded ones that have come are skipped; a step earlier than one
/// already recorded is never sent (it was passed over), only skipped. `None`: nothing to
/// do.
pub fn due_step(
    steps: &ReminderSteps,
    due: NaiveDate,
    today: NaiveDate,
    recorded: &[i32],
) -> Option<DueStep> {
    let latest_recorded = recorded.iter().max().copied();
    let passed: Vec<i32> = steps
        .offsets()
        .iter()
        .copied()
        .filter(|s| step_date(due, *s).is_some_and(|d| d <= today))
        .filter(|s| !recorded.contains(s))
        .collect();
    let (mut sendable, late): (Vec<i32>, Vec<i32>) = passed
        .into_iter()
        .partition(|s| latest_recorded.is_none_or(|l| *s > l));
    let send = sendable.pop();
    let mut skip = late;
    skip.extend(sendable);
    if send.is_none() && skip.is_empty() {
        return None;
    }
    Some(DueStep { send, skip })
}

/// The company's local date and time at `now` in time zone `zone` (an IANA name; an
/// unknown one is UTC).
pub fn company_time(now: chrono::DateTime<chrono::Utc>, zone: &str) -> chrono::NaiveDateTime {
    match zone.parse::<chrono_tz::Tz>() {
        Ok(tz) => now.with_timezone(&tz).naive_local(),
        Err(_) => now.naive_utc(),
    }
}

/// Whether `time` (the company's local time) is within the hours reminders are sent:
/// from 09:00 up to, not including, 18:00.
pub fn within_sending_hours(time: NaiveTime) -> bool {
    use chrono::Timelike;
    (SENDING_FROM..SENDING_UNTIL).contains(&time.hour())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn steps_are_sorted_and_each_bad_one_is_named() {
        let steps = ReminderSteps::new(vec![30, -3, 7]).unwrap();
        assert_eq!(steps.offsets(), [-3, 7, 30]);
        let errors = ReminderSteps::new(vec![7, 400, 7]).unwrap_err();
        assert_eq!(
            errors.get("reminders.1").unwrap(),
            ["The reminders.1 must be between -365 and 365."]
        );
        assert_eq!(
            errors.get("reminders.2").unwrap(),
            ["The reminders.2 field has a duplicate value."]
        );
        assert!(ReminderSteps::new((0..11).collect()).is_err());
        assert_eq!(
            ReminderSteps::new(vec![]).unwrap().offsets(),
            [] as [i32; 0]
        );
    }

    #[test]
    fn one_step_is_sent_on_its_day_and_never_again() {
        let steps = ReminderSteps::new(vec![-3, 7]).unwrap();
        let due = day(2026, 3, 10);
        assert_eq!(due_step(&steps, due, day(2026, 3, 6), &[]), None);
        let first = due_step(&steps, due, day(2026, 3, 7), &[]).unwrap();
        assert_eq!((first.send, first.skip.len()), (Some(-3), 0));
        assert_eq!(due_step(&steps, due, day(2026, 3, 16), &[-3]), None);
        assert_eq!(
            due_step(&steps, due, day(2026, 3, 17), &[-3]).and_then(|s| s.send),
            Some(7)
        );
        assert_eq!(due_step(&steps, due, day(2026, 4, 30), &[-3, 7]), None);
        // A step added after a later one was sent is passed over, never sent.
        let more = ReminderSteps::new(vec![-5, -3, 7]).unwrap();
        let late = due_step(&more, due, day(2026, 3, 20), &[-3, 7]).unwrap();
        assert_eq!((late.send, late.skip), (None, vec![-5]));
    }

    #[test]
    fn reminders_go_out_in_office_hours_only() {
        let at = |h, m| NaiveTime::from_hms_opt(h, m, 0).unwrap();
        assert!(!within_sending_hours(at(8, 59)));
        assert!(within_sending_hours(at(9, 0)));
        assert!(within_sending_hours(at(17, 59)));
        assert!(!within_sending_hours(at(18, 0)));
        assert!(!within_sending_hours(at(23, 0)));
    }

    proptest! {
        /// Whatever days the runs fall on, each step is sent or skipped at most once, a
        /// step is never sent before its day, and the last step whose day came is sent
        /// (not skipped) by the run on or after it.
        #[test]
        fn runs_on_any_days_send_each_step_at_most_once_and_the_latest_always(
            offsets in proptest::collection::btree_set(-30i32..60, 0..6),
            gaps in proptest::collection::vec(1u64..20, 1..12),
        ) {
            let steps = ReminderSteps::new(offsets.into_iter().collect()).unwrap();
            let due = day(2026, 5, 15);
            let mut today = day(2026, 4, 1);
            let (mut sent, mut recorded) = (Vec::new(), Vec::new());
            for gap in gaps {
                today = today.checked_add_days(Days::new(gap)).unwrap();
                if let Some(step) = due_step(&steps, due, today, &recorded) {
                    if let Some(send) = step.send {
                        prop_assert!(step_date(due, send).unwrap() <= today);
                        prop_assert!(!recorded.contains(&send));
                        prop_assert!(recorded.iter().all(|r| *r < send), "never an older one");
                        sent.push(send);
                        recorded.push(send);
                    }
                    recorded.extend(step.skip);
                }
            }
            let mut unique = recorded.clone();
            unique.sort_unstable();
            unique.dedup();
            prop_assert_eq!(unique.len(), recorded.len());
            let last_come = steps
                .offsets()
                .iter()
                .rev()
                .find(|s| step_date(due, **s).unwrap() <= today);
            if let Some(last) = last_come {
                prop_assert!(sent.contains(last));
            }
        }
    }
}
