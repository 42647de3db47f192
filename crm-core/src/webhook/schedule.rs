//! The retry schedule of a delivery and the rule that disables an endpoint.

use chrono::Duration;

use crate::time::Timestamp;

/// How long an endpoint may fail every delivery before it is disabled.
pub const DISABLE_AFTER: Duration = Duration::days(5);
/// The waits between attempts (API.md §13): after the first failure 5 s, then 5 min,
/// 30 min, 2 h, 5 h, 10 h and 10 h; after the eighth attempt the delivery is failed.
pub const RETRY_SCHEDULE: [Duration; 7] = [
    Duration::seconds(5),
    Duration::minutes(5),
    Duration::minutes(30),
    Duration::hours(2),
    Duration::hours(5),
    Duration::hours(10),
    Duration::hours(10),
];
/// The most attempts of one delivery.
pub const MAX_ATTEMPTS: u32 = RETRY_SCHEDULE.len() as u32 + 1;
/// The longest wait a `Retry-After` may ask for (the schedule's longest step).
pub const MAX_RETRY_AFTER: Duration = Duration::hours(10);

/// What an attempt came to, as the schedule sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// A 2xx.
    Delivered,
    /// `410 Gone`: the delivery fails and the endpoint is disabled at once.
    Gone,
    /// Anything else; `retry_after` from a 429 or 503 that named one.
    Failed {
        /// The wait the endpoint asked for.
        retry_after: Option<Duration>,
    },
}

/// What happens after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// The delivery is done.
    Delivered,
    /// Try again at this time.
    RetryAt(Timestamp),
    /// Given up.
    Failed,
}

/// The next step of a delivery after its `attempts`-th attempt (counting this one) came to
/// `attempt` at `now`. `jitter` in `[-1, 1]` moves a scheduled wait by up to ±10 %; a
/// `Retry-After` replaces the scheduled wait (capped at [`MAX_RETRY_AFTER`]) but not the
/// count of attempts.
pub fn next_step(attempts: u32, attempt: Attempt, now: Timestamp, jitter: f64) -> Next {
    match attempt {
        Attempt::Delivered => Next::Delivered,
        Attempt::Gone => Next::Failed,
        Attempt::Failed { .. } if attempts >= MAX_ATTEMPTS => Next::Failed,
        Attempt::Failed { retry_after } => {
            let index = usize::try_from(attempts.max(1) - 1).unwrap_or(usize::MAX);
            let scheduled = RETRY_SCHEDULE[index.min(RETRY_SCHEDULE.len() - 1)];
            let wait = match retry_after {
                Some(asked) => asked.clamp(Duration::zero(), MAX_RETRY_AFTER),
                None => {
                    let millis = scheduled.num_milliseconds() as f64;
                    let moved = millis * (1.0 + 0.1 * jitter.clamp(-1.0, 1.0));
                    Duration::milliseconds(moved.round() as i64)
                }
            };
            Next::RetryAt(Timestamp(now.0 + wait))
        }
    }
}

/// Whether an endpoint failing every delivery since `failing_since` is disabled at `now`.
pub fn disables(failing_since: Timestamp, now: Timestamp) -> bool {
    now.0 - failing_since.0 >= DISABLE_AFTER
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    fn at(secs: i64) -> Timestamp {
        Timestamp(Utc.timestamp_opt(1_800_000_000 + secs, 0).unwrap())
    }

    #[test]
    fn the_schedule_waits_longer_each_time_with_jitter_and_gives_up_after_eight_attempts() {
        let failed = Attempt::Failed { retry_after: None };
        assert_eq!(next_step(1, failed, at(0), 0.0), Next::RetryAt(at(5)));
        assert_eq!(next_step(2, failed, at(0), 0.0), Next::RetryAt(at(300)));
        assert_eq!(
            next_step(1, failed, at(0), 1.0),
            Next::RetryAt(Timestamp(at(0).0 + Duration::milliseconds(5500)))
        );
        assert_eq!(
            next_step(1, failed, at(0), -1.0),
            Next::RetryAt(Timestamp(at(0).0 + Duration::milliseconds(4500)))
        );
        assert_eq!(next_step(7, failed, at(0), 0.0), Next::RetryAt(at(36_000)));
        assert_eq!(next_step(8, failed, at(0), 0.0), Next::Failed);
        let total: Duration = RETRY_SCHEDULE.iter().copied().sum();
        assert_eq!(
            total,
            Duration::seconds(5 + 300 + 1800 + 7200 + 18_000 + 36_000 + 36_000)
        );
        assert_eq!(
            next_step(3, Attempt::Delivered, at(0), 0.0),
            Next::Delivered
        );
        assert_eq!(next_step(1, Attempt::Gone, at(0), 0.0), Next::Failed);
    }

    #[test]
    fn retry_after_replaces_the_scheduled_wait_within_bounds() {
        let asked = |d| Attempt::Failed {
            retry_after: Some(d),
        };
        assert_eq!(
            next_step(1, asked(Duration::seconds(120)), at(0), 1.0),
            Next::RetryAt(at(120))
        );
        assert_eq!(
            next_step(1, asked(Duration::days(3)), at(0), 0.0),
            Next::RetryAt(at(36_000))
        );
        assert_eq!(
            next_step(8, asked(Duration::seconds(1)), at(0), 0.0),
            Next::Failed
        );
    }

    #[test]
    fn five_days_of_failures_disable_an_endpoint() {
        assert!(!disables(at(0), at(5 * 86_400 - 1)));
        assert!(disables(at(0), at(5 * 86_400)));
    }
}
