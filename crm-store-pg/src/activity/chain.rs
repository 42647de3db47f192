//! The tamper-evident chain of the entries of issued documents (API.md §21): numbers
//! assigned, credit notes, payments, an invoice's status changes (crm-core's
//! `activity::is_chained`).
//!
//! Each chained entry has its place (`chain_seq`: 1, 2, 3, … without a gap) and holds the
//! SHA-256 of the previous entry's [`canonical`] form (`prev_hash`; 32 zero bytes for the
//! first); the head row (`activity_chain`) holds the last entry's place and hash. An entry
//! is appended at its transaction's commit: the head is locked (`FOR UPDATE`), so that
//! concurrent issues append one at a time, in the order they commit, and a rolled-back one
//! leaves no link. Any later edit of a chained row, a deletion, or a row inserted into the
//! chain breaks a link that [`Store::verify_chain`] names. (A rewrite of the whole chain
//! from the broken link on is not detectable from the database alone: keep the head hash
//! `crm audit verify` prints somewhere else, as docs/operations.md says.)

use crm_core::time::Timestamp;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::Written;
use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::store::Store;

/// The previous hash of the first entry, and the head's hash of an empty chain.
pub const GENESIS: [u8; 32] = [0; 32];

/// Locks the head of the chain until the transaction ends and reads the last place and
/// hash.
pub(crate) const LOCK_HEAD_SQL: &str =
    "SELECT seq, hash FROM activity_chain WHERE id = 1 FOR UPDATE";

/// Moves the head to the appended entry (`$1` its place, `$2` its hash).
pub(crate) const MOVE_HEAD_SQL: &str = "UPDATE activity_chain SET seq = $1, hash = $2 WHERE id = 1";

/// The fields of an entry that its hash covers, borrowed from an entry being written or from
/// a stored row.
#[derive(Debug, Clone, Copy)]
pub struct Fields<'a> {
    /// When.
    pub at: Timestamp,
    /// Its type.
    pub kind: &'a str,
    /// Its record.
    pub resource_type: &'a str,
    /// Its record's id.
    pub resource_id: i64,
    /// `key`, `client_link`, `system`.
    pub actor_kind: &'a str,
    /// The key.
    pub key_id: Option<i64>,
    /// The key's user.
    pub user_id: Option<i64>,
    /// The link's record or the part of the service.
    pub detail: Option<&'a str>,
    /// The user a private note's entry is for.
    pub private_to: Option<i64>,
    /// `{field: [before, after]}`.
    pub changes: &'a Value,
}

impl Written {
    /// The fields its hash covers.
    pub(crate) fn fields(&self) -> Fields<'_> {
        Fields {
            at: self.at,
            kind: self.kind,
            resource_type: self.resource_type,
            resource_id: self.resource_id,
            actor_kind: self.actor_kind,
            key_id: self.key_id,
            user_id: self.user_id,
            detail: self.detail.as_deref(),
            private_to: self.private_to,
            changes: &self.changes,
        }
    }
}

/// The canonical form of a chained entry: the compact JSON array of its place, the
/// previous hash (hex), when (the API's timestamp text), its type, record, actor (kind,
/// key, user, detail), audience and changes (objects with their keys in byte order, as
/// `serde_json` writes them), which is what the next entry's `prev_hash` digests.
pub fn canonical(seq: i64, prev: &[u8; 32], entry: Fields<'_>) -> String {
    serde_json::json!([
        seq,
        hex(prev),
        entry.at.to_string(),
        entry.kind,
        entry.resource_type,
        entry.resource_id,
        entry.actor_kind,
        entry.key_id,
        entry.user_id,
        entry.detail,
        entry.private_to,
        entry.changes,
    ])
    .to_string()
}

/// The SHA-256 of a canonical form.
pub fn digest(canonical: &str) -> [u8; 32] {
    Sha256::digest(canonical.as_bytes()).into()
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The head of the chain read under its lock: the next entry's place and previous hash.
pub(crate) async fn lock_head(db: &impl Db) -> Result<(i64, [u8; 32]), StoreError> {
    let row = db.row(LOCK_HEAD_SQL, &[]).await?;
    let seq: i64 = rows::get(&row, "seq")?;
    Ok((seq + 1, hash_of(&row, "hash")?))
}

fn hash_of(row: &tokio_postgres::Row, column: &str) -> Result<[u8; 32], StoreError> {
    let bytes: Vec<u8> = rows::get(row, column)?;
    <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| crate::error::corrupt(column, hex(&bytes)))
}

/// What [`Store::verify_chain`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainCheck {
    /// Every link holds: `entries` chained entries, the last one's hash `head`.
    Intact {
        /// How many entries the chain has.
        entries: i64,
        /// The hash of the last entry's canonical form (hex).
        head: String,
    },
    /// The first broken link.
    Broken {
        /// The place in the chain where it breaks.
        seq: i64,
        /// The activity entry at that place, if there is one.
        entry: Option<i64>,
        /// What is wrong there.
        reason: String,
    },
}

/// The chained entries from place `$1` on, in order, a batch at a time.
const WALK_SQL: &str = "SELECT id, chain_seq, prev_hash, made_at, type, resource_type, \
     resource_id, actor_kind, actor_key_id, actor_user_id, actor_detail, private_to, changes \
     FROM activity WHERE chain_seq >= $1 ORDER BY chain_seq LIMIT 1000";

/// A stored chained row's id, place and previous hash.
fn link_of(row: &tokio_postgres::Row) -> Result<(i64, i64, [u8; 32]), StoreError> {
    Ok((
        rows::get(row, "id")?,
        rows::get(row, "chain_seq")?,
        hash_of(row, "prev_hash")?,
    ))
}

/// The canonical form of a stored chained row.
fn canonical_of(
    row: &tokio_postgres::Row,
    seq: i64,
    prev: &[u8; 32],
) -> Result<String, StoreError> {
    let kind: String = rows::get(row, "type")?;
    let resource_type: String = rows::get(row, "resource_type")?;
    let actor_kind: String = rows::get(row, "actor_kind")?;
    let detail: Option<String> = rows::get(row, "actor_detail")?;
    let changes: Value = rows::get(row, "changes")?;
    let fields = Fields {
        at: rows::timestamp(row, "made_at")?,
        kind: &kind,
        resource_type: &resource_type,
        resource_id: rows::get(row, "resource_id")?,
        actor_kind: &actor_kind,
        key_id: rows::get(row, "actor_key_id")?,
        user_id: rows::get(row, "actor_user_id")?,
        detail: detail.as_deref(),
        private_to: rows::get(row, "private_to")?,
        changes: &changes,
    };
    Ok(canonical(seq, prev, fields))
}

impl Store {
    /// Walks the chain of issued documents from its first entry and names the first broken
    /// link: a place missing (an entry deleted), an entry whose `prev_hash` is not the
    /// hash of the one before it (that one, or this one, was changed), or a head that does
    /// not name the last entry (the last ones deleted or changed). One read at a time of
    /// 1,000 entries, on the shared reader.
    pub async fn verify_chain(&self) -> Result<ChainCheck, StoreError> {
        let reader = self.reader().await?;
        let db = &*reader;
        let mut expected_seq = 1_i64;
        let mut expected_prev = GENESIS;
        let mut last_entry = None;
        loop {
            let batch = db.rows(WALK_SQL, &[&expected_seq]).await?;
            if batch.is_empty() {
                break;
            }
            for row in &batch {
                let (id, seq, prev) = link_of(row)?;
                if seq != expected_seq {
                    return Ok(ChainCheck::Broken {
                        seq: expected_seq,
                        entry: None,
                        reason: format!(
                            "the entry at place {expected_seq} is missing (the next one found is at place {seq}, activity entry {id})"
                        ),
                    });
                }
                if prev != expected_prev {
                    let before = match last_entry {
                        Some(before) => format!("activity entry {before}, at place {}", seq - 1),
                        None => "the start of the chain".to_owned(),
                    };
                    return Ok(ChainCheck::Broken {
                        seq,
                        entry: Some(id),
                        reason: format!(
                            "activity entry {id} does not hold the hash of {before}: one of them was changed"
                        ),
                    });
                }
                expected_prev = digest(&canonical_of(row, seq, &prev)?);
                expected_seq += 1;
                last_entry = Some(id);
            }
        }
        let head = db
            .row("SELECT seq, hash FROM activity_chain WHERE id = 1", &[])
            .await?;
        let head_seq: i64 = rows::get(&head, "seq")?;
        let head_hash = hash_of(&head, "hash")?;
        let entries = expected_seq - 1;
        if head_seq > entries {
            return Ok(ChainCheck::Broken {
                seq: entries + 1,
                entry: None,
                reason: format!(
                    "the entries from place {} on are missing: the chain's head names place {head_seq}, the last entry found is at place {entries}",
                    entries + 1
                ),
            });
        }
        if head_seq < entries {
            return Ok(ChainCheck::Broken {
                seq: head_seq + 1,
                entry: None,
                reason: format!(
                    "the entries after place {head_seq} were not appended through the chain's head (it names place {head_seq}, the entries go on to place {entries})"
                ),
            });
        }
        if head_hash != expected_prev {
            let last = last_entry.map_or(String::new(), |id| format!(" (activity entry {id})"));
            return Ok(ChainCheck::Broken {
                seq: entries,
                entry: last_entry,
                reason: format!(
                    "the last entry, at place {entries}{last}, is not the one the chain's head names: it was changed"
                ),
            });
        }
        Ok(ChainCheck::Intact {
            entries,
            head: hex(&head_hash),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    fn entry() -> Written {
        Written {
            at: Timestamp(Utc.with_ymd_and_hms(2026, 11, 28, 10, 0, 0).unwrap()),
            kind: "invoice.published",
            resource_type: "invoice",
            resource_id: 7,
            actor_kind: "key",
            key_id: Some(2),
            user_id: Some(1),
            detail: None,
            private_to: None,
            changes: serde_json::json!({"status": ["Draft", "Due"], "number": [null, "INV-2026-00001"]}),
            chained: true,
            parent: None,
        }
    }

    #[test]
    fn the_canonical_form_is_a_compact_array_with_sorted_keys() {
        assert_eq!(
            canonical(1, &GENESIS, entry().fields()),
            format!(
                "[1,\"{}\",\"2026-11-28T10:00:00.000000Z\",\"invoice.published\",\"invoice\",7,\"key\",2,1,null,null,{{\"number\":[null,\"INV-2026-00001\"],\"status\":[\"Draft\",\"Due\"]}}]",
                "0".repeat(64)
            )
        );
    }

    #[test]
    fn any_field_of_an_entry_changes_its_hash() {
        let base = digest(&canonical(1, &GENESIS, entry().fields()));
        let mut other = entry();
        other.resource_id = 8;
        assert_ne!(digest(&canonical(1, &GENESIS, other.fields())), base);
        assert_ne!(digest(&canonical(2, &GENESIS, entry().fields())), base);
        assert_ne!(digest(&canonical(1, &[1; 32], entry().fields())), base);
    }
}
