//! When a recurring invoice falls due (API.md §20, issue 51, first part): a schedule's
//! occurrence dates, and which of them a run on a given day makes.
//!
//! Every date is computed from the start date, never from the previous one: the n-th
//! occurrence of a monthly schedule started on 31 January is the last day of the month
//! when the month is shorter (28 or 29 February, 30 April) and the 31st again when it is
//! not, so a schedule never drifts. An occurrence is named by its index (0 for the start
//! date); the store keys the invoice it makes by (schedule, date), which is what makes a
//! run exactly once.
//!
//! Nothing here reads a clock: a run is told its day ([`Schedule::due`]).
//!
//! ```
//! use chrono::NaiveDate;
//! use crm_core::recurring::{CatchUp, Frequency, Schedule};
//!
//! let day = |m, d| NaiveDate::from_ymd_opt(2026, m, d).unwrap();
//! let s = Schedule::new(Frequency::Monthly, 1, day(1, 31), None, None).unwrap();
//! let dates: Vec<_> = (0..4).filter_map(|n| s.occurrence(n)).collect();
//! assert_eq!(dates, [day(1, 31), day(2, 28), day(3, 31), day(4, 30)]);
//! // Down for three months: with `latest`, only the last missed occurrence is made.
//! let due = s.due(1, day(4, 30), CatchUp::Latest);
//! assert_eq!(due.make, [(3, day(4, 30))]);
//! assert_eq!(due.skipped, [(1, day(2, 28)), (2, day(3, 31))]);
//! ```

use chrono::{DateTime, Days, Months, NaiveDate, Utc};

use crate::choice_enum;

mod input;
pub mod template;

pub use input::{
    DEFAULT_DUE_DAYS, MAX_COUNT, MAX_DUE_DAYS, MAX_INTERVAL, RecurringFilters, RecurringInput,
    RecurringInvoice, RecurringListQuery, RecurringSort, RecurringStatus, ScheduleFields,
    template_errors,
};

choice_enum!(
    /// How often a schedule recurs (`frequency`), each `interval` times over.
    pub enum Frequency {
        /// Every `interval` weeks.
        Weekly = "weekly",
        /// Every `interval` months.
        Monthly = "monthly",
        /// Every `interval` quarters (three months each).
        Quarterly = "quarterly",
        /// Every `interval` years.
        Yearly = "yearly",
    }
);

choice_enum!(
    /// What a run makes of the occurrences missed while nothing ran (`catch_up`).
    pub enum CatchUp {
        /// One invoice for each missed occurrence.
        All = "all",
        /// Only the latest; the earlier ones are skipped.
        Latest = "latest",
    }
);

/// Why a schedule is not one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// The interval is zero.
    #[error("the interval must be at least 1")]
    ZeroInterval,
    /// The end date is before the start date.
    #[error("the end date is before the start date")]
    EndBeforeStart,
    /// The count is zero.
    #[error("the count must be at least 1")]
    ZeroCount,
}

/// A recurring schedule: how often, from when, until when (an end date, a number of
/// occurrences, both, or neither).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    frequency: Frequency,
    interval: u32,
    start: NaiveDate,
    end: Option<NaiveDate>,
    count: Option<u32>,
}

/// What a run on a day does: the occurrences to make, and those it skips (missed, with
/// [`CatchUp::Latest`]), each as (index, date), in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Due {
    /// Occurrences to make now.
    pub make: Vec<(u32, NaiveDate)>,
    /// Missed occurrences passed over.
    pub skipped: Vec<(u32, NaiveDate)>,
}

impl Schedule {
    /// A schedule, checked: an interval and a count of at least 1, an end not before the
    /// start.
    pub fn new(
        frequency: Frequency,
        interval: u32,
        start: NaiveDate,
        end: Option<NaiveDate>,
        count: Option<u32>,
    ) -> Result<Schedule, ScheduleError> {
        if interval == 0 {
            return Err(ScheduleError::ZeroInterval);
        }
        if end.is_some_and(|end| end < start) {
            return Err(ScheduleError::EndBeforeStart);
        }
        if count == Some(0) {
            return Err(ScheduleError::ZeroCount);
        }
        Ok(Schedule {
            frequency,
            interval,
            start,
            end,
            count,
        })
    }

    /// The date of occurrence `n` (0: the start date), computed from the start date; `None`
    /// past the schedule's end or count (or past the calendar's end).
    pub fn occurrence(&self, n: u32) -> Option<NaiveDate> {
        if self.count.is_some_and(|count| n >= count) {
            return None;
        }
        let steps = n.checked_mul(self.interval)?;
        let date = match self.frequency {
            Frequency::Weekly => self
                .start
                .checked_add_days(Days::new(u64::from(steps).checked_mul(7)?)),
            Frequency::Monthly => self.start.checked_add_months(Months::new(steps)),
            Frequency::Quarterly => self
                .start
                .checked_add_months(Months::new(steps.checked_mul(3)?)),
            Frequency::Yearly => self
                .start
                .checked_add_months(Months::new(steps.checked_mul(12)?)),
        }?;
        match self.end {
            Some(end) if date > end => None,
            _ => Some(date),
        }
    }

    /// The first occurrence at index `from` or later, as (index, date): the schedule's next
    /// date once occurrences `0..from` are made (`None`: it is finished).
    pub fn next(&self, from: u32) -> Option<(u32, NaiveDate)> {
        self.occurrence(from).map(|date| (from, date))
    }

    /// The first occurrence after `date`, as (index, date): where a schedule whose rule
    /// changed goes on after the last occurrence it made (`None`: it is finished).
    pub fn first_after(&self, date: NaiveDate) -> Option<(u32, NaiveDate)> {
        let mut n = 0u32;
        loop {
            let next = self.occurrence(n)?;
            if next > date {
                return Some((n, next));
            }
            n = n.checked_add(1)?;
        }
    }

    /// What a run on `today` does when occurrences `0..from` were made or skipped: every
    /// occurrence from `from` on whose date is `today` or earlier is due; `catch_up` says
    /// whether all of them are made, or only the latest (the others skipped).
    pub fn due(&self, from: u32, today: NaiveDate, catch_up: CatchUp) -> Due {
        let mut passed = Vec::new();
        let mut n = from;
        while let Some(date) = self.occurrence(n) {
            if date > today {
                break;
            }
            passed.push((n, date));
            n = match n.checked_add(1) {
                Some(next) => next,
                None => break,
            };
        }
        match catch_up {
            CatchUp::All => Due {
                make: passed,
                skipped: Vec::new(),
            },
            CatchUp::Latest => {
                let make = passed.pop().into_iter().collect();
                Due {
                    make,
                    skipped: passed,
                }
            }
        }
    }
}

/// The day it is at `now` in time zone `zone` (an IANA name; an unknown one is UTC):
/// a schedule's "today", whose occurrences fall due at midnight there.
pub fn local_date(now: DateTime<Utc>, zone: &str) -> NaiveDate {
    match zone.parse::<chrono_tz::Tz>() {
        Ok(tz) => now.with_timezone(&tz).date_naive(),
        Err(_) => now.date_naive(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Datelike;
    use proptest::prelude::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn a_schedule_needs_an_interval_a_count_and_an_end_after_its_start() {
        let start = day(2026, 1, 1);
        assert_eq!(
            Schedule::new(Frequency::Weekly, 0, start, None, None),
            Err(ScheduleError::ZeroInterval)
        );
        assert_eq!(
            Schedule::new(Frequency::Weekly, 1, start, Some(day(2025, 12, 31)), None),
            Err(ScheduleError::EndBeforeStart)
        );
        assert_eq!(
            Schedule::new(Frequency::Weekly, 1, start, None, Some(0)),
            Err(ScheduleError::ZeroCount)
        );
    }

    #[test]
    fn each_frequency_steps_from_the_start_and_stops_at_its_end_or_count() {
        let start = day(2024, 2, 29);
        let weekly = Schedule::new(Frequency::Weekly, 2, start, None, Some(3)).unwrap();
        let dates: Vec<_> = (0..5).filter_map(|n| weekly.occurrence(n)).collect();
        assert_eq!(dates, [start, day(2024, 3, 14), day(2024, 3, 28)]);
        let quarterly =
            Schedule::new(Frequency::Quarterly, 1, start, Some(day(2025, 2, 28)), None).unwrap();
        let dates: Vec<_> = (0..9).filter_map(|n| quarterly.occurrence(n)).collect();
        assert_eq!(
            dates,
            [
                start,
                day(2024, 5, 29),
                day(2024, 8, 29),
                day(2024, 11, 29),
                day(2025, 2, 28)
            ]
        );
        let yearly = Schedule::new(Frequency::Yearly, 1, start, None, None).unwrap();
        assert_eq!(yearly.occurrence(1), Some(day(2025, 2, 28)));
        assert_eq!(yearly.occurrence(4), Some(day(2028, 2, 29)));
        assert_eq!(yearly.next(2), Some((2, day(2026, 2, 28))));
    }

    #[test]
    fn a_run_makes_every_missed_occurrence_or_only_the_latest() {
        let s = Schedule::new(Frequency::Monthly, 1, day(2026, 1, 15), None, None).unwrap();
        let all = s.due(0, day(2026, 3, 20), CatchUp::All);
        assert_eq!(
            all.make,
            [
                (0, day(2026, 1, 15)),
                (1, day(2026, 2, 15)),
                (2, day(2026, 3, 15))
            ]
        );
        assert!(all.skipped.is_empty());
        // Nothing due before the next date; the day itself is due.
        assert_eq!(s.due(3, day(2026, 4, 14), CatchUp::All), Due::default());
        assert_eq!(
            s.due(3, day(2026, 4, 15), CatchUp::Latest).make,
            [(3, day(2026, 4, 15))]
        );
    }

    #[test]
    fn a_changed_rule_goes_on_after_the_last_occurrence_made() {
        let s = Schedule::new(Frequency::Monthly, 1, day(2026, 1, 31), None, Some(5)).unwrap();
        assert_eq!(s.first_after(day(2026, 2, 28)), Some((2, day(2026, 3, 31))));
        assert_eq!(s.first_after(day(2025, 1, 1)), Some((0, day(2026, 1, 31))));
        assert_eq!(s.first_after(day(2026, 5, 31)), None);
    }

    #[test]
    fn today_is_the_day_in_the_schedules_time_zone() {
        use chrono::TimeZone;
        let now = Utc.with_ymd_and_hms(2026, 3, 31, 23, 30, 0).unwrap();
        assert_eq!(local_date(now, "UTC"), day(2026, 3, 31));
        assert_eq!(local_date(now, "Europe/Berlin"), day(2026, 4, 1));
        assert_eq!(local_date(now, "America/New_York"), day(2026, 3, 31));
    }

    proptest! {
        /// Monthly occurrences never drift: each is on the start's day of the month, or on
        /// the last day of a shorter month; they strictly increase; `due` makes and skips
        /// exactly the occurrences not after the day, each once.
        #[test]
        fn monthly_dates_come_back_to_the_start_day_and_runs_partition_the_occurrences(
            y in 2000i32..2100, m in 1u32..=12, d in 1u32..=31, interval in 1u32..=4,
            n in 0u32..60, from in 0u32..20, ahead in 0u64..2000,
            latest in any::<bool>(),
        ) {
            let start = NaiveDate::from_ymd_opt(y, m, d)
                .or_else(|| NaiveDate::from_ymd_opt(y, m, 28))
                .unwrap();
            let s = Schedule::new(Frequency::Monthly, interval, start, None, None).unwrap();
            let a = s.occurrence(n).unwrap();
            let b = s.occurrence(n + 1).unwrap();
            prop_assert!(a < b);
            let last_of_month = a.checked_add_days(Days::new(1)).unwrap().month() != a.month();
            prop_assert!(a.day() == start.day() || (a.day() < start.day() && last_of_month));
            let today = start.checked_add_days(Days::new(ahead)).unwrap();
            let catch_up = if latest { CatchUp::Latest } else { CatchUp::All };
            let due = s.due(from, today, catch_up);
            let mut seen: Vec<(u32, NaiveDate)> =
                due.skipped.iter().chain(&due.make).copied().collect();
            seen.sort();
            let expected: Vec<(u32, NaiveDate)> = (from..from + 200)
                .filter_map(|i| s.occurrence(i).map(|date| (i, date)))
                .take_while(|(_, date)| *date <= today)
                .collect();
            prop_assert_eq!(seen, expected.clone());
            if latest {
                prop_assert!(due.make.len() <= 1);
                prop_assert_eq!(due.make.first(), expected.last());
            } else {
                prop_assert!(due.skipped.is_empty());
            }
        }
    }
}
