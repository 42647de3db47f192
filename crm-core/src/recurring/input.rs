//! `POST /recurring-invoices` and `PATCH /recurring-invoices/{id}` (API.md §20): the
//! schedule's own fields, read and checked together; the template's fields are kept as
//! given ([`super::template`]) and checked by making an invoice of them.

use chrono::NaiveDate;
use serde::Serialize;

use super::template::{self, merged, sends_template, template_of};
use super::{CatchUp, Frequency, Schedule, ScheduleError};
use crate::choice_enum;
use crate::ids::{ClientId, RecurringInvoiceId, UserId};
use crate::input::{Form, Patch, Presence, RawMap, read_choice, read_date, read_integer};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::party::read_time_zone;
use crate::time::RecordDates;
use crate::validation::{FieldErrors, message};
use crate::webhook::read_bool;

choice_enum!(
    /// Whether a schedule makes invoices (`status`).
    pub enum RecurringStatus {
        /// It makes its occurrences as they fall due.
        Active = "active",
        /// It makes nothing until set active again; occurrences passed meanwhile are
        /// missed (made as `catch_up` says when it is active again).
        Paused = "paused",
        /// It has no occurrence left (its end date or count is reached); set by the
        /// service, never by a request.
        Finished = "finished",
    }
);

choice_enum!(
    /// Sort keys of the recurring invoice list.
    pub enum RecurringSort {
        /// By next date (finished schedules last).
        NextDate = "next_date",
        /// By start date.
        StartDate = "start_date",
        /// By creation time.
        Created = "recurring_invoice_created",
    }
);

/// The largest interval, count and number of due days a schedule takes.
pub const MAX_INTERVAL: i64 = 1000;
/// The most occurrences a schedule may count.
pub const MAX_COUNT: i64 = 10_000;
/// The most days after its date an invoice of a schedule may be due.
pub const MAX_DUE_DAYS: i64 = 3650;

/// A schedule's stored fields, checked together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleFields {
    /// How often.
    pub frequency: Frequency,
    /// Every how many periods.
    pub interval: u32,
    /// The first occurrence's date.
    pub start_date: NaiveDate,
    /// No occurrence after this date.
    pub end_date: Option<NaiveDate>,
    /// At most this many occurrences.
    pub count: Option<u32>,
    /// An invoice is due this many days after its date.
    pub due_days: u32,
    /// Issue and email each invoice, or leave it a draft.
    pub auto_publish: bool,
    /// What a run makes of missed occurrences.
    pub catch_up: CatchUp,
    /// `active` or `paused` (as asked; `finished` comes from the dates).
    pub status: RecurringStatus,
    /// The IANA time zone its dates are days of.
    pub timezone: String,
}

impl ScheduleFields {
    /// The date rule of these fields.
    pub fn schedule(&self) -> Result<Schedule, ScheduleError> {
        Schedule::new(
            self.frequency,
            self.interval,
            self.start_date,
            self.end_date,
            self.count,
        )
    }
}

/// The default of `due_days`: as an invoice created without a due date (API.md §9).
pub const DEFAULT_DUE_DAYS: u32 = 30;

/// A create (`frequency`, `start_date` and the template's `client_id` and `category_id`
/// required) or a PATCH (the fields sent) of a schedule. Errors of the schedule's fields
/// are kept inside ([`RecurringInput::errors`]) so that the store reports them together
/// with what the template's invoice refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringInput {
    frequency: Option<Frequency>,
    interval: Option<u32>,
    start_date: Option<NaiveDate>,
    end_date: Patch<NaiveDate>,
    count: Patch<u32>,
    due_days: Option<u32>,
    auto_publish: Option<bool>,
    catch_up: Option<CatchUp>,
    status: Option<RecurringStatus>,
    timezone: Option<String>,
    template: RawMap,
    sends_template: bool,
    errors: FieldErrors,
}

/// Reads a whole number from `min` to `max`.
fn bounded(
    min: i64,
    max: i64,
) -> impl FnOnce(&str, &crate::input::RawValue, &mut FieldErrors) -> Option<u32> {
    move |field, value, errors| {
        let n = read_integer(field, value, errors)?;
        if n < min || n > max {
            errors.add(
                field,
                message::between(field, &min.to_string(), &max.to_string()),
            );
            return None;
        }
        u32::try_from(n).ok()
    }
}

/// Reads a status a request may set: `active` or `paused`.
fn read_settable_status(
    field: &str,
    value: &crate::input::RawValue,
    errors: &mut FieldErrors,
) -> Option<RecurringStatus> {
    match read_choice::<RecurringStatus>(field, value, errors)? {
        RecurringStatus::Finished => {
            errors.add(field, message::invalid(field));
            None
        }
        status => Some(status),
    }
}

impl RecurringInput {
    /// Reads a create (`creating`) or a PATCH. Never fails: what fails is kept in
    /// [`RecurringInput::errors`].
    pub fn parse(raw: &RawMap, creating: bool) -> RecurringInput {
        let mut form = Form::new(raw);
        let kept = |form: &mut Form<'_>, key: &str| -> bool {
            creating || !matches!(form.presence(key), Presence::Absent)
        };
        let frequency = if kept(&mut form, "frequency") {
            form.required("frequency", read_choice::<Frequency>)
        } else {
            None
        };
        let interval = if kept(&mut form, "interval") && !creating {
            form.required("interval", bounded(1, MAX_INTERVAL))
        } else {
            form.optional("interval", bounded(1, MAX_INTERVAL))
        };
        let start_date = if kept(&mut form, "start_date") {
            form.required("start_date", read_date)
        } else {
            None
        };
        let end_date = form.patch("end_date", read_date);
        let count = form.patch("count", bounded(1, MAX_COUNT));
        if matches!((&end_date, &count), (Patch::Set(_), Patch::Set(_))) {
            form.error(
                "count",
                format!(
                    "The {} field is prohibited when {} is present.",
                    crate::validation::attribute("count"),
                    crate::validation::attribute("end_date")
                ),
            );
        }
        let due_days = form.optional("due_days", bounded(0, MAX_DUE_DAYS));
        let auto_publish = form.optional("auto_publish", read_bool);
        let catch_up = form.optional("catch_up", read_choice::<CatchUp>);
        let status = form.optional("status", read_settable_status);
        let timezone = form.optional("timezone", read_time_zone);
        if creating {
            for field in ["client_id", "category_id"] {
                if raw.get(field).is_none_or(|v| v.is_empty()) {
                    form.error(field, message::required(field));
                }
            }
        }
        let errors = form.finish().err().map(|r| r.errors).unwrap_or_default();
        RecurringInput {
            frequency,
            interval,
            start_date,
            end_date,
            count,
            due_days,
            auto_publish,
            catch_up,
            status,
            timezone,
            template: template_of(raw),
            sends_template: sends_template(raw),
            errors,
        }
    }

    /// What failed in the request's own fields (empty: nothing).
    pub fn errors(&self) -> &FieldErrors {
        &self.errors
    }

    /// Whether the request sends any template field (a PATCH that sends none leaves the
    /// template as it is, unchecked).
    pub fn sends_template(&self) -> bool {
        self.sends_template
    }

    /// The template after this request: the stored one (none for a create) with the
    /// fields sent replacing its own.
    pub fn template(&self, stored: Option<&RawMap>) -> RawMap {
        match stored {
            None => self.template.clone(),
            Some(stored) => merged(stored, &self.template),
        }
    }

    /// The schedule's fields after this request, from `current` (`None` for a create:
    /// the defaults, with `company_zone` as the time zone), checked together: `None`
    /// when a field failed (already in [`RecurringInput::errors`]), or the end is before
    /// the start (added to `errors`, also beside other failing fields).
    pub fn apply(
        &self,
        current: Option<&ScheduleFields>,
        company_zone: &str,
        errors: &mut FieldErrors,
    ) -> Option<ScheduleFields> {
        let fields = ScheduleFields {
            frequency: self.frequency.or(current.map(|c| c.frequency))?,
            interval: self.interval.or(current.map(|c| c.interval)).unwrap_or(1),
            start_date: self.start_date.or(current.map(|c| c.start_date))?,
            end_date: self.end_date.apply_ref(current.and_then(|c| c.end_date)),
            count: self.count.apply_ref(current.and_then(|c| c.count)),
            due_days: self
                .due_days
                .or(current.map(|c| c.due_days))
                .unwrap_or(DEFAULT_DUE_DAYS),
            auto_publish: self
                .auto_publish
                .or(current.map(|c| c.auto_publish))
                .unwrap_or(false),
            catch_up: self
                .catch_up
                .or(current.map(|c| c.catch_up))
                .unwrap_or(CatchUp::Latest),
            status: self
                .status
                .or(current.map(|c| c.status))
                .unwrap_or(RecurringStatus::Active),
            timezone: self
                .timezone
                .clone()
                .or(current.map(|c| c.timezone.clone()))
                .unwrap_or_else(|| company_zone.to_owned()),
        };
        match fields.schedule() {
            Ok(_) if self.errors.is_empty() => Some(fields),
            Ok(_) => None,
            Err(ScheduleError::EndBeforeStart) => {
                errors.add(
                    "end_date",
                    message::after_or_equal("end_date", "start_date"),
                );
                None
            }
            // Interval and count were read within their bounds.
            Err(ScheduleError::ZeroInterval | ScheduleError::ZeroCount) => None,
        }
    }
}

/// What a template's invoice refused, for [`template::template_errors`].
pub use template::template_errors;

/// A recurring invoice as the API shows it: the template's fields as kept, the schedule,
/// and where it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecurringInvoice {
    /// Recurring invoice id.
    pub id: RecurringInvoiceId,
    /// The template's fields (`client_id`, `category_id`, `items`, …).
    #[serde(flatten)]
    pub template: RawMap,
    /// How often.
    pub frequency: Frequency,
    /// Every how many periods.
    pub interval: u32,
    /// The first occurrence.
    pub start_date: NaiveDate,
    /// The last day an occurrence may fall on.
    pub end_date: Option<NaiveDate>,
    /// The number of occurrences.
    pub count: Option<u32>,
    /// Days from an invoice's date to its due date.
    pub due_days: u32,
    /// Whether each invoice is issued and emailed.
    pub auto_publish: bool,
    /// `all` or `latest`.
    pub catch_up: CatchUp,
    /// `active`, `paused` or `finished`.
    pub status: RecurringStatus,
    /// The date of the next occurrence (`null` once finished).
    pub next_date: Option<NaiveDate>,
    /// The IANA time zone of its dates.
    pub timezone: String,
    /// How many invoices it has made.
    pub invoices_made: u32,
    /// Who created it.
    pub creator_id: Option<UserId>,
    /// Creation and update times.
    pub dates: RecordDates,
}

impl RecurringInvoice {
    /// The stored fields (what a PATCH starts from).
    pub fn fields(&self) -> ScheduleFields {
        ScheduleFields {
            frequency: self.frequency,
            interval: self.interval,
            start_date: self.start_date,
            end_date: self.end_date,
            count: self.count,
            due_days: self.due_days,
            auto_publish: self.auto_publish,
            catch_up: self.catch_up,
            status: match self.status {
                RecurringStatus::Paused => RecurringStatus::Paused,
                RecurringStatus::Active | RecurringStatus::Finished => RecurringStatus::Active,
            },
            timezone: self.timezone.clone(),
        }
    }
}

/// `GET /recurring-invoices`: paging, order, sort, and [`RecurringFilters`].
pub type RecurringListQuery = ListQuery<RecurringFilters>;

/// The recurring invoice list's filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringFilters {
    /// `status` filter.
    pub status: Option<RecurringStatus>,
    /// `client_id` filter.
    pub client_id: Option<ClientId>,
}

impl ListFilters for RecurringFilters {
    const LIST: &'static str = "recurring-invoices";
    type Sort = RecurringSort;

    fn read(form: &mut Form<'_>) -> Self {
        RecurringFilters {
            status: form.optional("status", read_choice::<RecurringStatus>),
            client_id: form
                .optional("client_id", crate::input::read_id)
                .and_then(ClientId::new),
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}",
            self.status.map_or("", RecurringStatus::as_str),
            self.client_id.map_or(String::new(), |c| c.to_string())
        )
    }

    fn key_kind(sort: Option<RecurringSort>) -> KeyKind {
        match sort {
            None | Some(RecurringSort::Created) => KeyKind::Integer,
            Some(RecurringSort::NextDate | RecurringSort::StartDate) => KeyKind::Text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::raw;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn a_create_takes_the_defaults_and_the_companys_time_zone() {
        let input = RecurringInput::parse(
            &raw(&[
                ("client_id", "1"),
                ("category_id", "4"),
                ("frequency", "monthly"),
                ("start_date", "2026-01-31"),
            ]),
            true,
        );
        assert!(input.errors().is_empty(), "{:?}", input.errors());
        let mut errors = FieldErrors::new();
        let f = input.apply(None, "Europe/Berlin", &mut errors).unwrap();
        assert_eq!(f.interval, 1);
        assert_eq!(f.due_days, DEFAULT_DUE_DAYS);
        assert_eq!(f.catch_up, CatchUp::Latest);
        assert_eq!(f.status, RecurringStatus::Active);
        assert_eq!(f.timezone, "Europe/Berlin");
        assert!(!f.auto_publish);
    }

    #[test]
    fn every_malformed_field_is_named() {
        let input = RecurringInput::parse(
            &raw(&[
                ("frequency", "fortnightly"),
                ("interval", "0"),
                ("start_date", "2026-02-30"),
                ("timezone", "Europe/Atlantis"),
                ("status", "finished"),
                ("catch_up", "some"),
            ]),
            true,
        );
        let errors = input.errors();
        for field in [
            "frequency",
            "interval",
            "start_date",
            "timezone",
            "status",
            "catch_up",
            "client_id",
            "category_id",
        ] {
            assert!(errors.has(field), "{field}: {errors:?}");
        }
        assert_eq!(
            errors.get("timezone").unwrap(),
            ["The selected timezone is invalid."]
        );
        assert_eq!(
            errors.get("frequency").unwrap(),
            ["The selected frequency is invalid."]
        );
    }

    #[test]
    fn an_end_before_the_start_is_refused_also_against_the_stored_start() {
        let create = RecurringInput::parse(
            &raw(&[
                ("client_id", "1"),
                ("category_id", "4"),
                ("frequency", "weekly"),
                ("start_date", "2026-03-01"),
            ]),
            true,
        );
        let mut errors = FieldErrors::new();
        let stored = create.apply(None, "UTC", &mut errors).unwrap();
        let patch = RecurringInput::parse(&raw(&[("end_date", "2026-02-01")]), false);
        assert!(patch.apply(Some(&stored), "UTC", &mut errors).is_none());
        assert_eq!(
            errors.get("end_date").unwrap(),
            ["The end date must be a date after or equal to start date."]
        );
        let patch = RecurringInput::parse(&raw(&[("count", "3"), ("interval", "2")]), false);
        let mut errors = FieldErrors::new();
        let after = patch.apply(Some(&stored), "UTC", &mut errors).unwrap();
        assert_eq!((after.count, after.interval), (Some(3), 2));
        assert_eq!(after.start_date, day(2026, 3, 1));
    }
}
