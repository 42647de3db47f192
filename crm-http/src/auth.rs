//! API keys: the key format, generation, and the check of `Authorization: Bearer <key>`
//! for a route.
//!
//! A key reads `crm_<id>_<secret>`: the id names the stored row, the secret is 32 random
//! bytes in hex. Only SHA-256(secret) is stored. Checking a key looks its row up by id and
//! compares digests in constant time, and the key's user must still be an administrator
//! (API.md §1: a key acts as one administrative user). Then the key's grant decides
//! (`crm_core::scope::Grant::decide`, API.md §15): an expired key is a 401 like an unknown
//! one, a route outside its scopes a 403, both decided against the clock the caller
//! passes. Rows are cached in memory for [`CACHE_TTL`], so an authenticated request costs
//! no database round trip on the hot path (scope and expiry included), and a revocation,
//! a demotion or a change of scopes takes effect within that time; an expiry takes effect
//! at its instant, since the cached row carries it. An id with no row is
//! cached too (as absent), so unknown ids cost no more database work than known ones, and
//! both are checked the same way: the secret's digest compared in constant time with the
//! row's, or with a digest no secret has. The cache holds at most [`CACHE_CAPACITY`] ids.
//! The other bound on guessing, a limit on failed authentications per client address,
//! is [`crate::app`]'s. Keys are never logged.
//!
//! When each key was last used is kept in memory to the minute ([`LastUse`]) and written
//! in batches ([`Keys::record_use`], which `crm serve` runs every [`RECORD_USE_EVERY`]
//! and once more when it stops), never once per request.

mod last_use;

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use crm_core::ids::{ApiKeyId, UserId};
use crm_core::scope::{Grant, Need, Verdict};
use crm_store_pg::{Store, StoreError};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::error::{ApiError, Unauthenticated};
pub use last_use::{LastUse, RECORD_USE_EVERY};

/// How long a key row (or its absence) is trusted without asking the database again.
pub const CACHE_TTL: Duration = Duration::from_secs(3);

/// The most key ids cached at once; past it, expired entries are dropped, and if every entry
/// is fresh the cache starts again empty (a flood of made-up ids cannot grow it without
/// bound, and is also held back by the failed-authentication limit per address).
pub const CACHE_CAPACITY: usize = 10_000;

/// What an absent key's secret is compared with: no secret's SHA-256 digest is all zeros
/// (that would be a preimage), so the comparison always fails, after the same work as
/// for a key that exists.
const NO_DIGEST: [u8; 32] = [0; 32];

/// The digest stored for a secret.
pub fn digest(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// A new random secret (64 hex characters).
pub fn new_secret() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The key text for a stored id and its secret.
pub fn key_text(id: ApiKeyId, secret: &str) -> String {
    format!("crm_{id}_{secret}")
}

/// Splits a key into id and secret; `None` if it is not of our format.
pub fn parse_key(key: &str) -> Option<(ApiKeyId, &str)> {
    let rest = key.strip_prefix("crm_")?;
    let (id, secret) = rest.split_once('_')?;
    let id = ApiKeyId::from_path(id)?;
    (secret.len() == 64 && secret.bytes().all(|b| b.is_ascii_hexdigit())).then_some((id, secret))
}

/// The bearer token of an `Authorization` header value.
fn bearer(header: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(header).ok()?.trim();
    let (scheme, token) = text.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The token a request presents, or why it presents none: no `Authorization` header (with
/// the key in `X-Api-Key`, a habit of other APIs, said so), or one of another scheme.
fn presented(headers: &http::HeaderMap) -> Result<&str, Unauthenticated> {
    match headers.get(http::header::AUTHORIZATION) {
        // `Bearer` with nothing after it: the scheme is right, the token is missing.
        Some(value)
            if value
                .as_bytes()
                .trim_ascii()
                .eq_ignore_ascii_case(b"bearer") =>
        {
            Err(Unauthenticated::Malformed)
        }
        Some(value) => bearer(value.as_bytes()).ok_or(Unauthenticated::OtherScheme),
        None if headers.contains_key("x-api-key") => Err(Unauthenticated::KeyHeader),
        None => Err(Unauthenticated::Missing),
    }
}

#[derive(Debug)]
struct Cached {
    /// The stored digest; [`NO_DIGEST`] for an id with no key.
    digest: Vec<u8>,
    /// The key's user and what it is granted; `None` for an id with no key.
    key: Option<(UserId, Grant)>,
    /// Revoked, or its user is no longer an administrator (or no such key).
    refused: bool,
    fetched: Instant,
}

/// A verified key: which key, and the administrator it acts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified {
    /// The key's id (requests in progress are counted per key).
    pub key: ApiKeyId,
    /// The user the request acts as.
    pub user: UserId,
}

/// Verifies keys against the store, with a short-lived cache, and remembers when each was
/// last used.
#[derive(Debug)]
pub struct Keys {
    store: Store,
    cache: RwLock<HashMap<ApiKeyId, Arc<Cached>>>,
    ttl: Duration,
    last_use: LastUse,
}

impl Keys {
    /// A verifier over `store` trusting cached rows for `ttl`.
    pub fn new(store: Store, ttl: Duration) -> Self {
        Keys {
            store,
            cache: RwLock::new(HashMap::new()),
            ttl,
            last_use: LastUse::default(),
        }
    }

    fn cached(&self, id: ApiKeyId) -> Option<Arc<Cached>> {
        let cache = self.cache.read().unwrap_or_else(|p| p.into_inner());
        cache
            .get(&id)
            .filter(|c| c.fetched.elapsed() < self.ttl)
            .cloned()
    }

    /// The key and the user of a request needing `need` at `now`, from its headers
    /// (`Authorization: Bearer <key>`): 401 for a missing, misplaced, malformed, unknown,
    /// revoked or expired key (or one whose user is no longer an administrator), each
    /// with its reason, 403 for a key whose scopes do not grant `need`. A key that passes,
    /// or is refused only for its scopes, counts as used at `now`.
    pub async fn authenticate(
        &self,
        headers: &http::HeaderMap,
        need: Need,
        now: DateTime<Utc>,
    ) -> Result<Verified, ApiError> {
        let token = presented(headers).map_err(ApiError::Unauthorized)?;
        let (id, secret) =
            parse_key(token).ok_or(ApiError::Unauthorized(Unauthenticated::Malformed))?;
        let row = match self.cached(id) {
            Some(row) => row,
            // Boxed: a database read, rare (the cache holds the key), would otherwise
            // make every request's future as large as its own.
            None => Box::pin(self.fetch(id)).await?,
        };
        let matches: bool = digest(secret)
            .as_slice()
            .ct_eq(row.digest.as_slice())
            .into();
        let Some((user, grant)) = row.key.as_ref().filter(|_| matches && !row.refused) else {
            return Err(ApiError::Unauthorized(Unauthenticated::Refused));
        };
        match grant.decide(need, now) {
            Verdict::Expired => Err(ApiError::Unauthorized(Unauthenticated::Expired)),
            Verdict::OutOfScope => {
                self.last_use.record(id, now);
                Err(ApiError::OutOfScope(need))
            }
            Verdict::Allowed => {
                self.last_use.record(id, now);
                Ok(Verified {
                    key: id,
                    user: *user,
                })
            }
        }
    }

    /// Reads the row of `id` (or its absence) and caches it.
    async fn fetch(&self, id: ApiKeyId) -> Result<Arc<Cached>, ApiError> {
        let stored = self.store.api_key(id).await.map_err(|e| match e {
            StoreError::Unavailable(cause) => ApiError::Unavailable(cause),
            other => ApiError::Internal(other.to_string()),
        })?;
        let row = Arc::new(match stored {
            Some(stored) => Cached {
                digest: stored.digest,
                refused: stored.revoked || !stored.user_is_admin,
                key: Some((stored.user_id, stored.grant)),
                fetched: Instant::now(),
            },
            None => Cached {
                digest: NO_DIGEST.to_vec(),
                key: None,
                refused: true,
                fetched: Instant::now(),
            },
        });
        self.remember(id, Arc::clone(&row));
        Ok(row)
    }

    /// Caches `row` for `id`, within [`CACHE_CAPACITY`].
    fn remember(&self, id: ApiKeyId, row: Arc<Cached>) {
        let mut cache = self.cache.write().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= CACHE_CAPACITY && !cache.contains_key(&id) {
            let ttl = self.ttl;
            cache.retain(|_, c| c.fetched.elapsed() < ttl);
            if cache.len() >= CACHE_CAPACITY {
                cache.clear();
            }
        }
        cache.insert(id, row);
    }

    /// Ids cached now (fresh or not).
    pub fn cached_ids(&self) -> usize {
        self.cache.read().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Writes the minutes keys were used since the last call, in one statement (nothing
    /// when no key's minute changed); returns the rows changed. When the write fails, the
    /// minutes are kept for the next call.
    pub async fn record_use(&self) -> Result<u64, StoreError> {
        let batch = self.last_use.take();
        if batch.is_empty() {
            return Ok(0);
        }
        let written = self.store.record_api_key_use(&batch).await;
        if written.is_err() {
            self.last_use.restore(&batch);
        }
        written
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_their_id_and_a_64_hex_secret() {
        let secret = new_secret().unwrap();
        let key = key_text(ApiKeyId::new(42).unwrap(), &secret);
        assert_eq!(
            parse_key(&key),
            Some((ApiKeyId::new(42).unwrap(), secret.as_str()))
        );
        assert_eq!(parse_key("crm_42_short"), None);
        assert_eq!(parse_key(&format!("xyz_42_{secret}")), None);
        assert_eq!(parse_key(&format!("crm_0_{secret}")), None);
    }

    #[test]
    fn secrets_are_random() {
        assert_ne!(new_secret().unwrap(), new_secret().unwrap());
    }

    #[test]
    fn a_missing_or_misplaced_key_is_told_apart() {
        let mut headers = http::HeaderMap::new();
        assert_eq!(presented(&headers), Err(Unauthenticated::Missing));
        headers.insert("x-api-key", http::HeaderValue::from_static("crm_1_x"));
        assert_eq!(presented(&headers), Err(Unauthenticated::KeyHeader));
        headers.insert(
            http::header::AUTHORIZATION,
            http::HeaderValue::from_static("crm_1_x"),
        );
        assert_eq!(presented(&headers), Err(Unauthenticated::OtherScheme));
        headers.insert(
            http::header::AUTHORIZATION,
            http::HeaderValue::from_static("Bearer crm_1_x"),
        );
        assert_eq!(presented(&headers), Ok("crm_1_x"));
        headers.insert(
            http::header::AUTHORIZATION,
            http::HeaderValue::from_static("Bearer "),
        );
        assert_eq!(presented(&headers), Err(Unauthenticated::Malformed));
    }

    #[test]
    fn only_the_bearer_scheme_is_accepted() {
        assert_eq!(bearer(b"Bearer abc"), Some("abc"));
        assert_eq!(bearer(b"bearer  abc "), Some("abc"));
        assert_eq!(bearer(b"Basic abc"), None);
        assert_eq!(bearer(b"Bearer"), None);
        assert_eq!(bearer(b"\xff"), None);
    }
}
