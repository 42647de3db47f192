//! When each key was last used, to the minute, kept in memory and written in batches.
//!
//! `crm keys list` shows the minute a key was last used. Writing it on every request would
//! turn every read into a write (and every request of a busy key into a wait on one row
//! lock), so a request only notes its minute here — a read lock and an atomic load, and
//! one atomic store when the key's minute changes — and the periodic upkeep writes the
//! minutes that changed in one statement every [`RECORD_USE_EVERY`]
//! ([`super::Keys::record_use`]). A key costs at most one row update a minute, whatever its
//! traffic. Only verified keys are noted, so the map holds at most one entry per key.

use std::collections::HashMap;
use std::sync::RwLock;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use chrono::{DateTime, Utc};
use crm_core::ids::ApiKeyId;

/// How often `crm serve` writes the minutes keys were last used: what `crm keys list`
/// shows may trail the truth by this much.
pub const RECORD_USE_EVERY: Duration = Duration::from_secs(10);

/// No minute written yet.
const NEVER: i64 = i64::MIN;

/// One key's minutes (whole minutes since the Unix epoch).
#[derive(Debug)]
struct Minutes {
    /// The latest minute it was used in.
    used: AtomicI64,
    /// The latest minute handed out to be written.
    written: AtomicI64,
}

/// The minute each key was last used, and what of it is still to be written.
#[derive(Debug, Default)]
pub struct LastUse {
    keys: RwLock<HashMap<ApiKeyId, Minutes>>,
}

/// The minute of `at`, counted from the Unix epoch.
fn minute_of(at: DateTime<Utc>) -> i64 {
    at.timestamp().div_euclid(60)
}

impl LastUse {
    /// Notes that `key` was used at `now`.
    pub fn record(&self, key: ApiKeyId, now: DateTime<Utc>) {
        let minute = minute_of(now);
        {
            let keys = self.keys.read().unwrap_or_else(|p| p.into_inner());
            if let Some(minutes) = keys.get(&key) {
                if minutes.used.load(Ordering::Relaxed) < minute {
                    minutes.used.fetch_max(minute, Ordering::Relaxed);
                }
                return;
            }
        }
        let mut keys = self.keys.write().unwrap_or_else(|p| p.into_inner());
        keys.entry(key)
            .or_insert_with(|| Minutes {
                used: AtomicI64::new(minute),
                written: AtomicI64::new(NEVER),
            })
            .used
            .fetch_max(minute, Ordering::Relaxed);
    }

    /// The keys whose latest minute has not been handed out yet, each with that minute (its
    /// first instant), now counted as written.
    pub fn take(&self) -> Vec<(ApiKeyId, DateTime<Utc>)> {
        let keys = self.keys.read().unwrap_or_else(|p| p.into_inner());
        let mut out = Vec::new();
        for (key, minutes) in keys.iter() {
            let used = minutes.used.load(Ordering::Relaxed);
            let before = minutes.written.fetch_max(used, Ordering::Relaxed);
            if before < used
                && let Some(at) = DateTime::from_timestamp(used.saturating_mul(60), 0)
            {
                out.push((*key, at));
            }
        }
        out
    }

    /// Gives back a batch from [`LastUse::take`] that could not be written: the next take
    /// hands its minutes out again (unless a later one replaced them).
    pub fn restore(&self, batch: &[(ApiKeyId, DateTime<Utc>)]) {
        let keys = self.keys.read().unwrap_or_else(|p| p.into_inner());
        for (key, at) in batch {
            if let Some(minutes) = keys.get(key) {
                let minute = minute_of(*at);
                let _ = minutes.written.compare_exchange(
                    minute,
                    NEVER,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(hour: u32, minute: u32, second: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, hour, minute, second)
            .unwrap()
    }

    fn key(n: i64) -> ApiKeyId {
        ApiKeyId::new(n).unwrap()
    }

    fn sorted(mut batch: Vec<(ApiKeyId, DateTime<Utc>)>) -> Vec<(ApiKeyId, DateTime<Utc>)> {
        batch.sort();
        batch
    }

    #[test]
    fn many_uses_in_one_minute_are_one_write_of_that_minute() {
        let uses = LastUse::default();
        for second in 0..60 {
            uses.record(key(1), at(9, 30, second));
        }
        uses.record(key(2), at(9, 31, 5));
        assert_eq!(
            sorted(uses.take()),
            [(key(1), at(9, 30, 0)), (key(2), at(9, 31, 0))]
        );
        assert_eq!(uses.take(), [], "nothing new since");
        uses.record(key(1), at(9, 30, 59));
        assert_eq!(uses.take(), [], "the same minute again");
    }

    #[test]
    fn a_later_minute_is_written_and_an_earlier_one_never_replaces_it() {
        let uses = LastUse::default();
        uses.record(key(1), at(9, 30, 0));
        assert_eq!(uses.take(), [(key(1), at(9, 30, 0))]);
        uses.record(key(1), at(9, 45, 10));
        uses.record(key(1), at(9, 31, 0));
        assert_eq!(uses.take(), [(key(1), at(9, 45, 0))]);
    }

    #[test]
    fn a_batch_that_could_not_be_written_is_handed_out_again() {
        let uses = LastUse::default();
        uses.record(key(1), at(9, 30, 0));
        let batch = uses.take();
        uses.restore(&batch);
        assert_eq!(uses.take(), batch);
        // A later minute noted meanwhile wins over the restored one.
        uses.record(key(1), at(9, 30, 0));
        let batch = uses.take();
        assert_eq!(batch, []);
        uses.record(key(1), at(9, 40, 0));
        let later = uses.take();
        uses.restore(&[(key(1), at(9, 30, 0))]);
        assert_eq!(later, [(key(1), at(9, 40, 0))]);
        assert_eq!(uses.take(), [], "the restored minute was older");
    }
}
