//! API keys. Only the SHA-256 digest of a key's secret is stored; the key text itself is
//! made and shown once by the `crm keys create` command (crm-http), which also owns the
//! key format and the constant-time comparison. A key carries what it is granted (its
//! scopes and expiry, `crm_core::scope`) and the minute it was last used, which the service
//! writes in batches ([`Store::record_api_key_use`]).

use chrono::{DateTime, Utc};
use crm_core::ids::{ApiKeyId, UserId};
use crm_core::scope::{Grant, Scopes};
use crm_core::time::Timestamp;
use serde::Serialize;

use crate::db::Db;
use crate::error::StoreError;
use crate::rows::{get, id, opt_timestamp, timestamp};
use crate::store::Store;

/// A key as `crm keys list` shows it (never the digest).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiKeyInfo {
    /// Key id (part of the key text).
    pub id: ApiKeyId,
    /// The name given at creation.
    pub name: String,
    /// The administrator the key acts as.
    pub user_id: UserId,
    /// When it was created.
    pub created: Timestamp,
    /// When it was revoked, if it was.
    pub revoked: Option<Timestamp>,
    /// What it may do.
    pub scopes: Scopes,
    /// From when it no longer works, if it expires.
    pub expires: Option<Timestamp>,
    /// The minute it was last used (as far as the service has written it), if ever.
    pub last_used: Option<Timestamp>,
}

/// What authentication needs of a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredKey {
    /// SHA-256 of the key's secret.
    pub digest: Vec<u8>,
    /// The administrator the key acts as.
    pub user_id: UserId,
    /// Whether it was revoked.
    pub revoked: bool,
    /// Whether its user is still an administrator (a team member with `is_admin`): a key
    /// acts as one administrative user (API.md §1), so a demoted user's keys stop working.
    pub user_is_admin: bool,
    /// Its scopes (those this version knows) and expiry.
    pub grant: Grant,
}

const CREATE_SQL: &str = "
INSERT INTO api_keys (name, digest, user_id, scopes, expires_at)
SELECT $1, $2, u.id, $4, $5 FROM users u WHERE u.id = $3 AND u.is_admin
RETURNING id";

const LIST_SQL: &str = "
SELECT id, name, user_id, created_at, revoked_at, scopes, expires_at, last_used_at
FROM api_keys ORDER BY id";

/// Revokes a key and, in the same statement, disables the webhook endpoints that belong to
/// it (`$2`, the reason): they receive nothing from then on. Gives the keys revoked (0 or 1).
const REVOKE_SQL: &str = "WITH k AS (UPDATE api_keys SET revoked_at = now() \
       WHERE id = $1 AND revoked_at IS NULL RETURNING id), \
     w AS (UPDATE webhook_endpoints e SET enabled = false, disabled_at = now(), disabled_reason = $2 \
       FROM k WHERE e.key_id = k.id AND e.enabled RETURNING e.id) \
     SELECT (SELECT count(*) FROM k) AS revoked";

const LOOKUP_SQL: &str = "
SELECT k.digest, k.user_id, k.revoked_at, k.scopes, k.expires_at,
    (u.kind = 'team' AND u.is_admin) AS user_is_admin
FROM api_keys k JOIN users u ON u.id = k.user_id
WHERE k.id = $1";

/// One statement for every key used since the last batch; a minute never goes backwards
/// (another instance may have written a later one).
const RECORD_USE_SQL: &str = "
UPDATE api_keys k SET last_used_at = u.at
FROM UNNEST($1::bigint[], $2::timestamptz[]) AS u(id, at)
WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.at)";

impl Store {
    /// Stores a new key for the administrator `user` that may do everything and never
    /// expires (`write`); `None` (nothing stored) when `user` is not an administrator.
    pub async fn create_api_key(
        &self,
        name: &str,
        user: UserId,
        digest: &[u8; 32],
    ) -> Result<Option<ApiKeyId>, StoreError> {
        self.create_api_key_with(name, user, digest, &Grant::everything())
            .await
    }

    /// Stores a new key for the administrator `user` granted `grant` (its scopes and
    /// expiry); `None` (nothing stored) when `user` is not an administrator.
    pub async fn create_api_key_with(
        &self,
        name: &str,
        user: UserId,
        digest: &[u8; 32],
        grant: &Grant,
    ) -> Result<Option<ApiKeyId>, StoreError> {
        let db = self.writer().await?;
        let scopes = grant.scopes.texts();
        let rows = db
            .rows(
                CREATE_SQL,
                &[
                    &name,
                    &digest.as_slice(),
                    &user.get(),
                    &scopes,
                    &grant.expires,
                ],
            )
            .await?;
        rows.first()
            .map(|row| id(row, "id", ApiKeyId::new))
            .transpose()
    }

    /// Every key, oldest first.
    pub async fn list_api_keys(&self) -> Result<Vec<ApiKeyInfo>, StoreError> {
        let db = self.writer().await?;
        db.rows(LIST_SQL, &[])
            .await?
            .iter()
            .map(|row| {
                Ok(ApiKeyInfo {
                    id: id(row, "id", ApiKeyId::new)?,
                    name: get(row, "name")?,
                    user_id: id(row, "user_id", UserId::new)?,
                    created: timestamp(row, "created_at")?,
                    revoked: opt_timestamp(row, "revoked_at")?,
                    scopes: scopes(row)?,
                    expires: opt_timestamp(row, "expires_at")?,
                    last_used: opt_timestamp(row, "last_used_at")?,
                })
            })
            .collect()
    }

    /// Revokes a key, and disables the webhook endpoints that belong to it. Returns false
    /// when no active key has that id.
    pub async fn revoke_api_key(&self, key: ApiKeyId) -> Result<bool, StoreError> {
        let db = self.writer().await?;
        let reason = crm_core::webhook::disabled_reason::KEY_REVOKED;
        let row = db.row(REVOKE_SQL, &[&key.get(), &reason]).await?;
        Ok(get::<i64>(&row, "revoked")? == 1)
    }

    /// Records when keys were last used: each `(key, minute)` sets the key's `last_used_at`
    /// unless it already holds a later minute. One statement for the whole batch; returns
    /// the rows changed.
    pub async fn record_api_key_use(
        &self,
        uses: &[(ApiKeyId, DateTime<Utc>)],
    ) -> Result<u64, StoreError> {
        if uses.is_empty() {
            return Ok(0);
        }
        let mut uses = uses.to_vec();
        // Rows in one order in every instance's batch: two batches wait for each other
        // rather than deadlock (as far as the plan keeps the order).
        uses.sort_unstable_by_key(|(key, _)| *key);
        let ids: Vec<i64> = uses.iter().map(|(key, _)| key.get()).collect();
        let minutes: Vec<DateTime<Utc>> = uses.iter().map(|(_, at)| *at).collect();
        let db = self.writer().await?;
        Ok(db.run(RECORD_USE_SQL, &[&ids, &minutes]).await?)
    }

    /// The stored digest, user and grant of a key, and whether that user is still an
    /// administrator (one read on the shared connections).
    pub async fn api_key(&self, key: ApiKeyId) -> Result<Option<StoredKey>, StoreError> {
        let row = self
            .checked(async {
                Ok(self
                    .primary_reader()
                    .await?
                    .row_opt(LOOKUP_SQL, &[&key.get()])
                    .await?)
            })
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let revoked: Option<DateTime<Utc>> = get(&row, "revoked_at")?;
        Ok(Some(StoredKey {
            digest: get(&row, "digest")?,
            user_id: id(&row, "user_id", UserId::new)?,
            revoked: revoked.is_some(),
            user_is_admin: get(&row, "user_is_admin")?,
            grant: Grant {
                scopes: scopes(&row)?,
                expires: get(&row, "expires_at")?,
            },
        }))
    }
}

/// The `scopes` column: those this version knows (a scope written by a newer version
/// grants nothing here).
/// A key row's `scopes`, those this version knows.
pub(crate) fn scopes(row: &tokio_postgres::Row) -> Result<Scopes, StoreError> {
    let texts: Vec<&str> = get(row, "scopes")?;
    Ok(Scopes::known(texts))
}
