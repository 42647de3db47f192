//! Timestamps as the API shows them: UTC, ISO 8601 with microseconds
//! (`2026-06-15T09:30:00.000000Z`). Dates are `chrono::NaiveDate`, shown `YYYY-MM-DD`.

use std::fmt;

use chrono::{DateTime, Datelike, Timelike, Utc};
use serde::{Serialize, Serializer};

/// A point in time, stored as `TIMESTAMPTZ` (microseconds) and shown in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp(pub DateTime<Utc>);

impl fmt::Display for Timestamp {
    /// `2026-06-15T09:30:00.000000Z` (written field by field: this is on every response).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.0;
        write!(
            f,
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
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl From<DateTime<Utc>> for Timestamp {
    fn from(value: DateTime<Utc>) -> Self {
        Timestamp(value)
    }
}

/// The `dates` object of records that only have creation and update times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
}
