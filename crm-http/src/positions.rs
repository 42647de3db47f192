//! Each API key's last write position, for reads from replicas with read-your-writes
//! (API.md §16, `--replica-url`).
//!
//! After a request that wrote, the service reads the primary's position and keeps it for
//! the request's key; a later request of that key reads only from a replica that has
//! replayed that far ([`crm_store_pg::Needed`]). With `--redis-url` the positions are kept
//! in Redis (`crm:lsn:<key id>`), so a read through any instance sees the key's writes
//! through any other, as GitLab's database load balancer does. Without Redis they are
//! kept in this process's memory: read-your-writes then holds for requests that reach the
//! same instance (a load balancer with sticky sessions per key), and a read through
//! another instance may come from a replica up to `--replica-max-lag` behind.
//!
//! While Redis does not answer (and for the longest lag allowed after it answers again,
//! [`Positions::needed`]), reads go to the primary: a position kept by one instance alone
//! meanwhile must not be missed by the others.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crm_core::ids::ApiKeyId;
use crm_core::replica::Lsn;
use crm_store_pg::Needed;

use crate::shared::Shared;

/// Where the keys' positions are kept.
#[derive(Debug, Default)]
pub struct Positions {
    shared: Option<Arc<Shared>>,
    local: Mutex<HashMap<ApiKeyId, Lsn>>,
    /// How long Redis must have answered before its positions are trusted again.
    trust_after: Duration,
}

impl Positions {
    /// Positions kept in this process only.
    pub fn local() -> Positions {
        Positions::default()
    }

    /// Positions kept in Redis, trusted once Redis has answered for `trust_after` (the
    /// longest lag a replica may have, and a little more).
    pub fn shared(shared: Arc<Shared>, trust_after: Duration) -> Positions {
        Positions {
            shared: Some(shared),
            local: Mutex::new(HashMap::new()),
            trust_after,
        }
    }

    fn name(key: ApiKeyId) -> String {
        format!("crm:lsn:{}", key.get())
    }

    fn kept_here(&self, key: ApiKeyId) -> Option<Lsn> {
        self.local
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .copied()
    }

    /// What the reads of a request made with `key` must see.
    pub async fn needed(&self, key: ApiKeyId) -> Needed {
        let here = self.kept_here(key);
        let Some(shared) = &self.shared else {
            return here.map_or(Needed::Anything, Needed::After);
        };
        if !shared.trusted_after_down(self.trust_after) {
            return Needed::Primary;
        }
        match shared.position(&Self::name(key)).await {
            Ok(kept) => match kept.max(here) {
                Some(lsn) => Needed::After(lsn),
                None => Needed::Anything,
            },
            Err(()) => Needed::Primary,
        }
    }

    /// Keeps `lsn` as `key`'s last write position (raised, never lowered).
    pub async fn record(&self, key: ApiKeyId, lsn: Lsn) {
        {
            let mut local = self.local.lock().unwrap_or_else(PoisonError::into_inner);
            let kept = local.entry(key).or_insert(lsn);
            *kept = (*kept).max(lsn);
        }
        if let Some(shared) = &self.shared {
            shared.raise_position(&Self::name(key), lsn).await;
        }
    }
}
