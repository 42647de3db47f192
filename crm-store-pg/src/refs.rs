//! Reference checks: do the ids a request names exist, as what they must be? One
//! statement for any number of references, run inside the writing transaction (and on
//! the read side for rejected requests, to report every failing field together).

use crm_core::category::CategoryType;
use crm_core::validation::{FieldErrors, RefKind, References};

use crate::StoreError;
use crate::db::Db;

/// The text tag of a reference kind, as the SQL below knows it.
fn kind_tag(kind: RefKind) -> String {
    match kind {
        RefKind::Client => "client".into(),
        RefKind::Project => "project".into(),
        RefKind::Lead => "lead".into(),
        RefKind::Task => "task".into(),
        RefKind::User => "user".into(),
        RefKind::TeamUser => "team_user".into(),
        RefKind::ContractTemplate => "contract_template".into(),
        RefKind::EnabledTaxRate => "enabled_tax_rate".into(),
        RefKind::Category(t) => category_tag(t),
    }
}

fn category_tag(t: CategoryType) -> String {
    format!("category:{}", t.as_str())
}

const INVALID_SQL: &str = "
SELECT r.i FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS r(kind, id, i)
WHERE NOT CASE r.kind
    WHEN 'client' THEN EXISTS (SELECT 1 FROM clients WHERE id = r.id)
    WHEN 'project' THEN EXISTS (SELECT 1 FROM projects WHERE id = r.id)
    WHEN 'lead' THEN EXISTS (SELECT 1 FROM leads WHERE id = r.id)
    WHEN 'task' THEN EXISTS (SELECT 1 FROM tasks WHERE id = r.id)
    WHEN 'user' THEN EXISTS (SELECT 1 FROM users WHERE id = r.id)
    WHEN 'team_user' THEN EXISTS (SELECT 1 FROM users WHERE id = r.id AND kind = 'team')
    WHEN 'contract_template' THEN EXISTS (SELECT 1 FROM contract_templates WHERE id = r.id)
    WHEN 'enabled_tax_rate' THEN EXISTS (SELECT 1 FROM tax_rates WHERE id = r.id AND status = 'enabled')
    ELSE EXISTS (SELECT 1 FROM categories WHERE id = r.id AND 'category:' || type = r.kind)
END
ORDER BY r.i";

/// The errors of the references that do not hold ("The selected … is invalid.").
pub(crate) async fn invalid(
    db: &impl Db,
    references: &References,
) -> Result<FieldErrors, StoreError> {
    if references.is_empty() {
        return Ok(FieldErrors::new());
    }
    let kinds: Vec<String> = references
        .as_slice()
        .iter()
        .map(|r| kind_tag(r.kind))
        .collect();
    let ids: Vec<i64> = references.as_slice().iter().map(|r| r.id).collect();
    let rows = db.rows(INVALID_SQL, &[&kinds, &ids]).await?;
    let bad = rows
        .iter()
        .map(|row| usize::try_from(row.get::<_, i64>(0) - 1).unwrap_or(usize::MAX));
    Ok(references.errors_for(bad))
}

/// Fails with the field errors of the references that do not hold.
pub(crate) async fn require(db: &impl Db, references: &References) -> Result<(), StoreError> {
    invalid(db, references)
        .await?
        .into_result()
        .map_err(StoreError::Invalid)
}
