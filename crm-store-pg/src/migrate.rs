//! Schema migrations: numbered SQL files under `migrations/`, embedded in the binary.
//!
//! The runner takes a session advisory lock (so two processes starting at once apply each
//! migration once), records every applied migration with the SHA-256 of its text, applies
//! the missing ones each in its own transaction, and refuses to start when an applied
//! migration was edited or when the database has a migration this binary does not know.

use sha2::{Digest, Sha256};
use tokio_postgres::Client;

use crate::error::StoreError;
use crate::pool::StoreConfig;
use crate::pool::connect;

/// One migration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Migration {
    /// Its number (the file name's prefix).
    pub version: i32,
    /// Its name (the file name without number and extension).
    pub name: &'static str,
    /// Its SQL.
    pub sql: &'static str,
}

/// Every migration, in order: the files of `migrations/`, listed by the build script
/// (`build.rs`), which refuses a misnamed file or a gap in the numbers.
pub const MIGRATIONS: &[Migration] = include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

impl Migration {
    /// The hex SHA-256 of the migration's text.
    pub fn checksum(&self) -> String {
        hex(&Sha256::digest(self.sql.as_bytes()))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A checksum of the whole migration set (names the test template database).
pub fn schema_fingerprint() -> String {
    let mut hasher = Sha256::new();
    for m in MIGRATIONS {
        hasher.update(m.version.to_be_bytes());
        hasher.update(m.sql.as_bytes());
    }
    hex(&hasher.finalize())
}

/// The advisory lock key held while migrating ("crm-migr" in ASCII).
const LOCK_KEY: i64 = i64::from_be_bytes(*b"crm-migr");

/// Applies the missing migrations to the database of `config`. Returns the versions
/// applied now (empty when the schema was current).
pub async fn migrate(config: &StoreConfig) -> Result<Vec<i32>, StoreError> {
    let client = connect(&config.pg_config()?).await?;
    client
        .execute("SELECT pg_advisory_lock($1)", &[&LOCK_KEY])
        .await?;
    let outcome = apply_missing(&client).await;
    // The lock also ends with the session; unlocking explicitly frees it sooner.
    let unlocked = client
        .execute("SELECT pg_advisory_unlock($1)", &[&LOCK_KEY])
        .await;
    let applied = outcome?;
    unlocked?;
    Ok(applied)
}

async fn apply_missing(client: &Client) -> Result<Vec<i32>, StoreError> {
    // The migrations' own connection: no "already exists, skipping" notices in the log.
    client
        .batch_execute(
            "SET client_min_messages = warning;
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version     INTEGER PRIMARY KEY,
                name        TEXT NOT NULL,
                checksum    TEXT NOT NULL,
                applied_at  TIMESTAMPTZ NOT NULL DEFAULT now()
            )",
        )
        .await?;
    let rows = client
        .query(
            "SELECT version, name, checksum FROM schema_migrations ORDER BY version",
            &[],
        )
        .await?;
    let mut applied = Vec::new();
    for row in &rows {
        let version: i32 = row.get(0);
        let name: String = row.get(1);
        let checksum: String = row.get(2);
        let known = MIGRATIONS.iter().find(|m| m.version == version).ok_or_else(|| {
            StoreError::Migration(format!(
                "the database has migration {version:04}_{name}, which this binary does not know; use a newer binary"
            ))
        })?;
        if known.checksum() != checksum {
            return Err(StoreError::Migration(format!(
                "migration {version:04}_{name} was edited after it was applied (checksum {checksum} in the database, {} in this binary); add a new migration instead",
                known.checksum()
            )));
        }
        applied.push(version);
    }
    let mut now_applied = Vec::new();
    for m in MIGRATIONS.iter().filter(|m| !applied.contains(&m.version)) {
        client.batch_execute("BEGIN").await?;
        let result = async {
            client.batch_execute(m.sql).await?;
            client
                .execute(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                    &[&m.version, &m.name, &m.checksum()],
                )
                .await?;
            client.batch_execute("COMMIT").await
        }
        .await;
        if let Err(e) = result {
            let _ = client.batch_execute("ROLLBACK").await;
            // The server's message in full (a migration may stop on purpose, saying why).
            return Err(StoreError::Migration(format!(
                "migration {:04}_{} failed: {}",
                m.version,
                m.name,
                crate::error::describe(&e)
            )));
        }
        tracing::info!(version = m.version, name = m.name, "migration applied");
        now_applied.push(m.version);
    }
    Ok(now_applied)
}

/// Creates the database named in `config` when it does not exist, by connecting to the
/// server's `postgres` database with the same settings. Returns whether it was created.
/// Several processes doing this at once are fine: one creates it, the others see it exist.
pub async fn create_database_if_missing(config: &StoreConfig) -> Result<bool, StoreError> {
    let target = config.pg_config()?;
    let Some(name) = target.get_dbname().map(str::to_owned) else {
        return Ok(false);
    };
    let mut admin = target.clone();
    admin.dbname("postgres");
    // The connection is to the maintenance database, but what failed is reaching the
    // URL's database: the message names that one.
    let client = connect(&admin).await.map_err(|e| match e {
        StoreError::Unavailable(message) => StoreError::Unavailable(
            message.replace(&crate::pool::target(&admin), &crate::pool::target(&target)),
        ),
        other => other,
    })?;
    let exists = client
        .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
        .await?
        .is_some();
    if exists {
        return Ok(false);
    }
    match client
        .batch_execute(&format!("CREATE DATABASE {}", quote_ident(&name)))
        .await
    {
        Ok(()) => Ok(true),
        // 42P04 duplicate_database, or 23505 on pg_database's name index when another
        // process's CREATE DATABASE commits while this one runs: either way it exists now.
        Err(e)
            if e.as_db_error()
                .is_some_and(|d| matches!(d.code().code(), "42P04" | "23505")) =>
        {
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}

/// Checks that the database of `config` exists, for the commands that never create one
/// (`keys`, `seed`, `deliver`): a URL naming a database that is not there (a typo) is
/// an error that names it and the server, not a new empty database.
pub async fn require_database(config: &StoreConfig) -> Result<(), StoreError> {
    let target = config.pg_config()?;
    match crate::pool::connect(&target).await {
        Ok(_) => Ok(()),
        Err(StoreError::Unavailable(message)) if message.contains(" 3D000: ") => {
            Err(StoreError::Config(format!(
                "database \"{}\" does not exist at {}; only `crm migrate` and `crm serve` \
                 create a database: check the database URL's name, or run `crm migrate` first",
                target.get_dbname().unwrap_or("(none)"),
                crate::pool::target(&target)
            )))
        }
        Err(other) => Err(other),
    }
}

/// Quotes an SQL identifier.
pub(crate) fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_numbered_in_order_without_gaps() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i32 + 1);
            assert!(!m.sql.trim().is_empty());
        }
    }

    #[test]
    fn identifiers_are_quoted_safely() {
        assert_eq!(quote_ident("crm"), "\"crm\"");
        assert_eq!(quote_ident("a\"b"), "\"a\"\"b\"");
    }
}
