//! API keys. Only the SHA-256 digest of a key's secret is stored; the key text itself is
//! made and shown once by the `crm keys create` command (crm-http), which also owns the
//! key format and the constant-time comparison.

use chrono::{DateTime, Utc};
use crm_core::ids::{ApiKeyId, UserId};
use crm_core::time::Timestamp;
use serde::Serialize;

use crate::db::Db;
use crate::rows::{get, id, opt_timestamp, timestamp};
use crate::{Store, StoreError};

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
}

const CREATE_SQL: &str = "
INSERT INTO api_keys (name, digest, user_id)
SELECT $1, $2, u.id FROM users u WHERE u.id = $3 AND u.is_admin
RETURNING id";

const LIST_SQL: &str = "SELECT id, name, user_id, created_at, revoked_at FROM api_keys ORDER BY id";

const REVOKE_SQL: &str =
    "UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL";

const LOOKUP_SQL: &str = "
SELECT k.digest, k.user_id, k.revoked_at, (u.kind = 'team' AND u.is_admin) AS user_is_admin
FROM api_keys k JOIN users u ON u.id = k.user_id
WHERE k.id = $1";

impl Store {
    /// Stores a new key for the administrator `user`; `None` (nothing stored) when `user`
    /// is not an administrator.
    pub async fn create_api_key(
        &self,
        name: &str,
        user: UserId,
        digest: &[u8; 32],
    ) -> Result<Option<ApiKeyId>, StoreError> {
        let db = self.writer().await?;
        let rows = db
            .rows(CREATE_SQL, &[&name, &digest.as_slice(), &user.get()])
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
                })
            })
            .collect()
    }

    /// Revokes a key. Returns false when no active key has that id.
    pub async fn revoke_api_key(&self, key: ApiKeyId) -> Result<bool, StoreError> {
        let db = self.writer().await?;
        Ok(db.run(REVOKE_SQL, &[&key.get()]).await? == 1)
    }

    /// The stored digest and user of a key, and whether that user is still an
    /// administrator (one read on the shared connections).
    pub async fn api_key(&self, key: ApiKeyId) -> Result<Option<StoredKey>, StoreError> {
        let row = self
            .checked(async {
                Ok(self
                    .reader()
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
        }))
    }
}
