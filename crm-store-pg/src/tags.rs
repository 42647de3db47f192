//! Tags of contracts, estimates, invoices and notes (one `tags` table, one foreign key
//! column per owner kind).

use crm_core::ids::UserId;
use crm_core::tags::TagSet;

use crate::db::Db;
use crate::error::StoreError;

/// Whose tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TagOwner {
    /// A contract's.
    Contract(i64),
    /// An estimate's.
    Estimate(i64),
    /// An invoice's.
    Invoice(i64),
    /// A note's.
    Note(i64),
}

impl TagOwner {
    fn column_and_id(self) -> (&'static str, i64) {
        match self {
            TagOwner::Contract(id) => ("contract_id", id),
            TagOwner::Estimate(id) => ("estimate_id", id),
            TagOwner::Invoice(id) => ("invoice_id", id),
            TagOwner::Note(id) => ("note_id", id),
        }
    }
}

/// Replaces the owner's tags with `tags`, in order (call inside a transaction).
pub(crate) async fn replace(
    db: &impl Db,
    owner: TagOwner,
    tags: &TagSet,
    actor: UserId,
) -> Result<(), StoreError> {
    let (column, id) = owner.column_and_id();
    // `column` comes from the closed set above, never from input.
    let delete = format!("DELETE FROM tags WHERE {column} = $1");
    db.run(&delete, &[&id]).await?;
    if tags.is_empty() {
        return Ok(());
    }
    let insert = format!(
        "INSERT INTO tags (title, position, {column}, creator_id) \
         SELECT t.title, t.position, $1, $3 FROM unnest($2::text[]) WITH ORDINALITY AS t(title, position)"
    );
    db.run(&insert, &[&id, &tags.titles(), &actor.get()])
        .await?;
    Ok(())
}
