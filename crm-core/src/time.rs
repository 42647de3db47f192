//! Timestamps as the API shows them: UTC, ISO 8601 with microseconds
//! (`2026-06-15T09:30:00.000000Z`). Dates are `chrono::NaiveDate`, shown `YYYY-MM-DD`.

use std::fmt;

use chrono::{DateTime, Datelike, Timelike, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The date type of the API (re-exported, so that a caller needs no `chrono` dependency of
/// its own to pass one).
pub use chrono::NaiveDate;

/// A point in time, stored as `TIMESTAMPTZ` (microseconds) and shown in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp(pub DateTime<Utc>);

impl Timestamp {
    /// The text of a timestamp of years 0 to 9999 (every timestamp PostgreSQL and the
    /// API exchange), digit by digit into a fixed buffer: this is on every response, twice
    /// per record. `None` for other years, which [`fmt::Display`] writes with a formatter.
    fn text(&self) -> Option<[u8; 27]> {
        let t = &self.0;
        let year = u32::try_from(t.year()).ok().filter(|y| *y <= 9999)?;
        let mut out = *b"0000-00-00T00:00:00.000000Z";
        let mut put = |at: usize, width: usize, mut value: u32| {
            for i in (at..at + width).rev() {
                out[i] = b'0' + (value % 10) as u8;
                value /= 10;
            }
        };
        put(0, 4, year);
        put(5, 2, t.month());
        put(8, 2, t.day());
        put(11, 2, t.hour());
        put(14, 2, t.minute());
        put(17, 2, t.second());
        put(20, 6, t.timestamp_subsec_micros().min(999_999));
        Some(out)
    }
}

impl fmt::Display for Timestamp {
    /// `2026-06-15T09:30:00.000000Z`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.text() {
            // The buffer holds ASCII digits and separators only.
            Some(text) => f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?),
            None => write_fields(&self.0, f),
        }
    }
}

/// The same text as [`Timestamp::text`], through a formatter (any year).
fn write_fields(t: &DateTime<Utc>, out: &mut impl fmt::Write) -> fmt::Result {
    write!(
        out,
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.timestamp_subsec_micros().min(999_999)
    )
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.text() {
            Some(text) => serializer
                .serialize_str(std::str::from_utf8(&text).map_err(serde::ser::Error::custom)?),
            None => serializer.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    /// Read from RFC 3339 text (`2026-06-15T09:30:00.000000Z`, any offset), as a client of
    /// the API reads what it wrote.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        DateTime::parse_from_rfc3339(&text)
            .map(|t| Timestamp(t.with_timezone(&Utc)))
            .map_err(serde::de::Error::custom)
    }
}

impl From<DateTime<Utc>> for Timestamp {
    fn from(value: DateTime<Utc>) -> Self {
        Timestamp(value)
    }
}

/// The `dates` object of records that only have creation and update times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordDates {
    /// When the record was created.
    pub created: Timestamp,
    /// When the record was last changed.
    pub updated: Timestamp,
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn timestamps_show_microseconds_and_a_z() {
        let t = Utc.with_ymd_and_hms(2026, 6, 15, 9, 30, 0).unwrap();
        assert_eq!(Timestamp(t).to_string(), "2026-06-15T09:30:00.000000Z");
        let t = t + chrono::Duration::microseconds(1234);
        assert_eq!(
            serde_json::to_string(&Timestamp(t)).unwrap(),
            "\"2026-06-15T09:30:00.001234Z\""
        );
    }

    #[test]
    fn the_digit_writer_agrees_with_the_formatter_and_other_years_fall_back() {
        let formatted = |t: DateTime<Utc>| {
            let mut text = String::new();
            write_fields(&t, &mut text).unwrap();
            text
        };
        let mut t = Utc.with_ymd_and_hms(0, 1, 1, 0, 0, 0).unwrap();
        let end = Utc.with_ymd_and_hms(9999, 12, 31, 23, 59, 59).unwrap();
        // Steps of a prime number of microseconds cross every field's digits.
        while t <= end {
            let shown = Timestamp(t).to_string();
            assert_eq!(shown, formatted(t));
            assert_eq!(
                serde_json::to_string(&Timestamp(t)).unwrap(),
                format!("\"{shown}\"")
            );
            t += chrono::Duration::microseconds(1_234_567_890_123);
        }
        assert_eq!(Timestamp(end).to_string(), "9999-12-31T23:59:59.000000Z");
        for year in [-1, 10_000, 262_000] {
            let t = Utc.with_ymd_and_hms(year, 2, 3, 4, 5, 6).unwrap();
            assert_eq!(Timestamp(t).to_string(), formatted(t));
            assert_eq!(
                serde_json::to_string(&Timestamp(t)).unwrap(),
                format!("\"{}\"", formatted(t))
            );
        }
        // A leap second shows as second 59 with at most 999999 microseconds.
        let leap = chrono::NaiveDate::from_ymd_opt(2016, 12, 31)
            .unwrap()
            .and_hms_micro_opt(23, 59, 59, 1_500_000)
            .unwrap()
            .and_utc();
        assert_eq!(Timestamp(leap).to_string(), "2016-12-31T23:59:59.999999Z");
    }
}
