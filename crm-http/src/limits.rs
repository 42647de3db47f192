//! Resource bounds that do not belong to one request: the per-key cap on requests in
//! progress, the process's open-file limit, and the default connection limit derived from
//! it.
//!
//! The other bounds live where they act: the header size and the read buffer, the
//! connection limit and the accept back-off in [`crate::server`]; the body limit and the
//! body timeout in [`crate::app`].

use std::collections::HashMap;
use std::sync::Mutex;

use crm_core::ids::ApiKeyId;

use crate::error::ApiError;

/// Requests in progress per API key, capped so that one key (a runaway client, a stuck
/// loop, a trickling attacker holding a key) cannot take every connection, pooled database
/// connection and worker from the others.
#[derive(Debug)]
pub struct InFlight {
    max: usize,
    counts: Mutex<HashMap<ApiKeyId, usize>>,
}

/// One request counted against its key; dropping it ends the count.
#[derive(Debug)]
pub struct InFlightGuard<'a> {
    owner: &'a InFlight,
    key: ApiKeyId,
}

impl InFlight {
    /// At most `max` requests in progress per key (at least 1).
    pub fn new(max: usize) -> Self {
        InFlight {
            max: max.max(1),
            counts: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one more request of `key`, or 429 when it already has the maximum.
    pub fn enter(&self, key: ApiKeyId) -> Result<InFlightGuard<'_>, ApiError> {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let count = counts.entry(key).or_insert(0);
        if *count >= self.max {
            return Err(ApiError::TooManyInFlight);
        }
        *count += 1;
        Ok(InFlightGuard { owner: self, key })
    }

    /// The requests of `key` in progress now.
    pub fn count(&self, key: ApiKeyId) -> usize {
        let counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.get(&key).copied().unwrap_or(0)
    }
}

impl Drop for InFlightGuard<'_> {
    fn drop(&mut self) {
        let mut counts = self.owner.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = counts.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            // Keys with nothing in progress leave the map, so it stays as small as the
            // number of keys busy at once.
            if *count == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

/// File descriptors kept out of the connection limit: the database connections (`pool`
/// and `readers`), the listener, log output, the private cluster's files and some slack.
pub fn reserved_files(pool: usize, readers: usize) -> u64 {
    (pool + readers) as u64 + 64
}

/// Raises the soft open-file limit to the hard limit (each connection is a file) and
/// returns the limit in force, or `None` when it cannot be read (no limit known).
#[cfg(unix)]
pub fn raise_file_limit() -> Option<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if let Err(e) = setrlimit(Resource::Nofile, raised) {
            tracing::warn!(error = %e, "cannot raise the open-file limit");
        }
    }
    getrlimit(Resource::Nofile).current
}

/// Raises the soft open-file limit to the hard limit (not on this platform).
#[cfg(not(unix))]
pub fn raise_file_limit() -> Option<u64> {
    None
}

/// The default connection limit: the open-file limit less [`reserved_files`], and at
/// least 16; 10,000 when the file limit is unknown or unlimited.
pub fn default_max_connections(file_limit: Option<u64>, reserved: u64) -> usize {
    match file_limit {
        Some(limit) if limit < u64::from(u32::MAX) => {
            usize::try_from(limit.saturating_sub(reserved).max(16)).unwrap_or(usize::MAX)
        }
        _ => 10_000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: i64) -> ApiKeyId {
        ApiKeyId::new(n).unwrap()
    }

    #[test]
    fn a_key_gets_at_most_its_maximum_and_others_are_unaffected() {
        let in_flight = InFlight::new(2);
        let a1 = in_flight.enter(key(1)).unwrap();
        let _a2 = in_flight.enter(key(1)).unwrap();
        assert!(matches!(
            in_flight.enter(key(1)),
            Err(ApiError::TooManyInFlight)
        ));
        let _b = in_flight.enter(key(2)).unwrap();
        drop(a1);
        assert_eq!(in_flight.count(key(1)), 1);
        let _a3 = in_flight.enter(key(1)).unwrap();
    }

    #[test]
    fn idle_keys_leave_the_map() {
        let in_flight = InFlight::new(1);
        drop(in_flight.enter(key(7)).unwrap());
        assert!(in_flight.counts.lock().unwrap().is_empty());
    }

    #[test]
    fn the_default_connection_limit_follows_the_file_limit() {
        assert_eq!(default_max_connections(Some(20_000), 84), 19_916);
        assert_eq!(default_max_connections(Some(50), 84), 16);
        assert_eq!(default_max_connections(None, 84), 10_000);
        assert_eq!(default_max_connections(Some(u64::MAX), 84), 10_000);
    }

    #[cfg(unix)]
    #[test]
    fn the_soft_file_limit_is_raised_to_the_hard_one() {
        let limit = raise_file_limit();
        let now = rustix::process::getrlimit(rustix::process::Resource::Nofile);
        assert_eq!(limit, now.current);
        assert_eq!(now.current, now.maximum);
    }
}
