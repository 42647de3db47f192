//! Reference checks: do the ids a request names exist, as what they must be? One
//! statement for any number of references, run inside the writing transaction (and on
//! the read side for rejected requests, to report every failing field together). The
//! category names a rejected request claims are checked here too; for writes the unique
//! index decides.

use crm_core::category::{CategoryType, DUPLICATE_NAME};
use crm_core::conflict::Resource;
use crm_core::currency::Currency;
use crm_core::validation::{FieldErrors, NameScope, RefKind, References};

use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::store::Store;

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
        RefKind::Milestone => "milestone".into(),
        RefKind::Category(t) => category_tag(t),
    }
}

fn category_tag(t: CategoryType) -> String {
    format!("category:{}", t.as_str())
}

/// The positions (1-based) of the references that do not hold, from `$1` their kinds
/// ([`kind_tag`]) and `$2` their ids ([`statement_params`]); a literal, so that a write can
/// use it as a subquery of its one statement.
macro_rules! invalid_refs_sql {
    () => {
        "
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
    WHEN 'milestone' THEN EXISTS (SELECT 1 FROM milestones WHERE id = r.id)
    ELSE EXISTS (SELECT 1 FROM categories WHERE id = r.id AND 'category:' || type = r.kind)
END
ORDER BY r.i"
    };
}
pub(crate) use invalid_refs_sql;

const INVALID_SQL: &str = invalid_refs_sql!();

/// The kinds and ids of `references`, as [`invalid_refs_sql`] takes them (`$1`, `$2`), for a
/// write that checks them in its one statement; references that also claim category names
/// (checked apart, by [`invalid`]) cannot be.
pub(crate) fn statement_params(
    references: &References,
) -> Result<(Vec<String>, Vec<i64>), StoreError> {
    if references.names().is_empty() {
        Ok(id_params(references))
    } else {
        Err(StoreError::Internal(
            "a one-statement write claims a category name".to_owned(),
        ))
    }
}

/// Why a one-statement write guarded by [`invalid_refs_sql`] wrote nothing: every failing
/// field ([`StoreError::Invalid`]), or an internal error if all hold by now (one was
/// created meanwhile).
pub(crate) async fn refused(db: &impl Db, references: &References) -> StoreError {
    match require(db, references).await {
        Err(e) => e,
        Ok(()) => {
            StoreError::Internal("a reference changed during a one-statement write".to_owned())
        }
    }
}

/// The kinds and ids of the id references, as [`INVALID_SQL`] takes them.
fn id_params(references: &References) -> (Vec<String>, Vec<i64>) {
    references
        .as_slice()
        .iter()
        .map(|r| (kind_tag(r.kind), r.id))
        .unzip()
}

/// Whether a category name is taken in a scope: `$1` the type, or `$2` the category whose
/// type counts (and which itself does not). The same `(type, name_key(name))` the unique
/// index `categories_type_name_key` holds (migration 0018: case, width, spacing and
/// invisible characters aside).
const NAME_TAKEN_SQL: &str = "
SELECT EXISTS (
    SELECT 1 FROM categories c
    WHERE name_key(c.name) = name_key($3)
      AND c.type = COALESCE($1, (SELECT type FROM categories WHERE id = $2))
      AND c.id IS DISTINCT FROM $2
)";

/// The errors of the references that do not hold ("The selected … is invalid."), of the
/// category names already taken, and of the payments their invoices would refuse.
pub(crate) async fn invalid(
    db: &impl Db,
    references: &References,
) -> Result<FieldErrors, StoreError> {
    let mut errors = FieldErrors::new();
    if !references.as_slice().is_empty() {
        let (kinds, ids) = id_params(references);
        let rows = db.rows(INVALID_SQL, &[&kinds, &ids]).await?;
        let bad = rows
            .iter()
            .map(|row| usize::try_from(row.get::<_, i64>(0) - 1).unwrap_or(usize::MAX));
        errors.merge(references.errors_for(bad));
    }
    for claim in references.payments() {
        errors.merge(crate::payments::judge(db, claim).await?);
    }
    for claim in references.names() {
        let (category_type, category) = match claim.scope {
            NameScope::Type(t) => (Some(t.as_str()), None),
            NameScope::TypeOf(id) => (None, Some(id)),
        };
        let taken: bool = db
            .row(NAME_TAKEN_SQL, &[&category_type, &category, &claim.name])
            .await?
            .try_get(0)?;
        if taken {
            errors.add(&claim.field, DUPLICATE_NAME.to_owned());
        }
    }
    Ok(errors)
}

/// Fails with the field errors of the references that do not hold.
pub(crate) async fn require(db: &impl Db, references: &References) -> Result<(), StoreError> {
    invalid(db, references)
        .await?
        .into_result()
        .map_err(StoreError::Invalid)
}

/// The stored currency of the bill `target` names (an estimate or an invoice), if any.
async fn target_currency(
    db: &impl Db,
    target: Option<(Resource, i64)>,
) -> Result<Option<Currency>, StoreError> {
    let sql = match target {
        Some((Resource::Estimate, _)) => "SELECT currency FROM estimates WHERE id = $1",
        Some((Resource::Invoice, _)) => "SELECT currency FROM invoices WHERE id = $1",
        _ => return Ok(None),
    };
    let id = target.map_or(0, |(_, id)| id);
    match db.row_opt(sql, &[&id]).await? {
        Some(row) => Ok(Some(rows::currency(&row, "currency")?)),
        None => Ok(None),
    }
}

impl Store {
    /// Checks the references of a rejected request, so that a 422 lists every failing
    /// field at once ("The selected doc client id is invalid." beside a missing title),
    /// and its bill amounts against the currency (the request's, else that of the bill
    /// `target` names).
    pub async fn check_references(
        &self,
        references: &References,
        target: Option<(Resource, i64)>,
    ) -> Result<FieldErrors, StoreError> {
        if references.is_empty() {
            return Ok(FieldErrors::new());
        }
        let reader = self.inner.readers.get().await?;
        let mut errors = invalid(&*reader, references).await?;
        if !references.amounts().is_empty() {
            let stored = target_currency(&*reader, target).await?;
            for claim in references.amounts() {
                if let Some(currency) = claim.currency.or(stored) {
                    currency.money(&claim.field, claim.amount, &mut errors);
                }
            }
        }
        Ok(errors)
    }
}
