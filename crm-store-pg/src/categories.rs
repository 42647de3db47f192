//! Categories: list, read, create, update and delete (team and migration in [`team`]).
//!
//! A category's `slug` is derived on every read (`crm_core::slug::slug`), never stored, so
//! a rename cannot leave it stale. `count` (records of the category's type that point at
//! it) and `users_count` (team size) are computed by the statement that reads the category.
//!
//! What each write locks:
//! - create and update are one statement each; the unique index `categories_type_name_key`
//!   settles concurrent duplicates, which come back as the 422 on `category_name`;
//! - delete locks the category row (`FOR UPDATE`) and only then counts its records: adding
//!   a record takes a key-share lock on the category row (foreign key check), so nothing can
//!   be added between the count and the delete;
//! - team and migration: see [`team`].

mod team;

pub(crate) use team::sync_projects;

use crm_core::category::{
    self, Category, CategoryListQuery, CategorySort, CategoryUpdate, NewCategory,
};
use crm_core::conflict::Resource;
use crm_core::ids::CategoryId;
use crm_core::input::Patch;
use crm_core::listing::like_pattern;
use crm_core::slug::slug;
use crm_core::webhook::EventType;
use tokio_postgres::Row;

use crate::db::Db;
use crate::error::StoreError;
use crate::listed::Listed;
use crate::rows;
use crate::sql::{self, PageRequest, SortKey, Sql, micros_key};
use crate::store::{Ctx, Store};

/// The computed columns of a category row aliased `$a` (a string literal): `count`, the
/// records of the category's type that reference it (types without records here count 0;
/// contract backing estimates have no category, so they never count), and `users_count`.
///
/// The `WHEN` arms must match `CategoryType::has_records` (checked by a unit test below).
macro_rules! category_counts {
    ($a:literal) => {
        concat!(
            "CASE ",
            $a,
            ".type",
            records_of!("project", "projects", $a),
            records_of!("client", "clients", $a),
            records_of!("contract", "contracts", $a),
            records_of!("estimate", "estimates", $a),
            records_of!("invoice", "invoices", $a),
            records_of!("lead", "leads", $a),
            records_of!("ticket", "tickets", $a),
            records_of!("item", "items", $a),
            records_of!("expense", "expenses", $a),
            " ELSE 0::bigint END AS count, (SELECT count(*) FROM category_users u WHERE u.category_id = ",
            $a,
            ".id) AS users_count"
        )
    };
}

/// One `WHEN` arm of [`category_counts`]: categories of `$type` count the rows of `$table`.
macro_rules! records_of {
    ($type:literal, $table:literal, $a:literal) => {
        concat!(
            " WHEN '",
            $type,
            "' THEN (SELECT count(*) FROM ",
            $table,
            " r WHERE r.category_id = ",
            $a,
            ".id)"
        )
    };
}

/// Decodes a row of `categories` plus the computed columns of [`category_counts`].
fn category_from(row: &Row) -> Result<Category, StoreError> {
    let id = rows::id(row, "id", CategoryId::new)?;
    let name: String = rows::get(row, "name")?;
    Ok(Category {
        id,
        slug: slug(id.get(), &name),
        name,
        description: rows::get(row, "description")?,
        category_type: rows::choice(row, "type")?,
        visibility: rows::opt_choice(row, "visibility")?,
        icon: rows::get(row, "icon")?,
        system_default: rows::get(row, "system_default")?,
        count: rows::get(row, "count")?,
        users_count: rows::get(row, "users_count")?,
        dates: rows::record_dates(row)?,
    })
}

const CATEGORY_SQL: &str = concat!(
    "SELECT c.*, ",
    category_counts!("c"),
    " FROM categories c WHERE c.id = $1"
);

/// The category `id` as seen by `db` (in or out of a transaction).
async fn read(db: &impl Db, id: CategoryId) -> Result<Category, StoreError> {
    match db.row_opt(CATEGORY_SQL, &[&id.get()]).await? {
        Some(row) => category_from(&row),
        None => Err(StoreError::NotFound(Resource::Category)),
    }
}

const LOCK_SQL: &str = "SELECT id FROM categories WHERE id = $1 FOR UPDATE";

/// Locks the category row until the end of the transaction; not found if there is none.
async fn lock(db: &impl Db, id: CategoryId) -> Result<(), StoreError> {
    match db.row_opt(LOCK_SQL, &[&id.get()]).await? {
        Some(_) => Ok(()),
        None => Err(StoreError::NotFound(Resource::Category)),
    }
}

/// `(keep, value)` parameters of an optional field: `keep` leaves the stored value alone.
fn patch_params<T>(patch: &Patch<T>) -> (bool, Option<&T>) {
    match patch {
        Patch::Keep => (true, None),
        Patch::Clear => (false, None),
        Patch::Set(value) => (false, Some(value)),
    }
}

impl Store {
    /// One page of categories: filters `type` and `visibility`, search on the name, sort by
    /// name, type or creation time (default id), ties broken by id.
    pub async fn list_categories(
        &self,
        q: &CategoryListQuery,
    ) -> Result<Listed<Category>, StoreError> {
        let mut filtered = Sql::new("SELECT c.* FROM categories c WHERE TRUE");
        if let Some(t) = q.filters.category_type {
            filtered.push_with(" AND c.type = {}", t.as_str());
        }
        if let Some(v) = q.filters.visibility {
            filtered.push_with(" AND c.visibility = {}", v.as_str());
        }
        if let Some(search) = &q.params.search {
            filtered.push_with(" AND c.name ILIKE {}", like_pattern(search));
        }
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(CategorySort::Name) => SortKey::new("lower(name)", "lower(name)", "{}::text"),
            Some(CategorySort::Type) => SortKey::new("type", "type", "{}::text"),
            Some(CategorySort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let request = PageRequest::of(&q.params, q.binding());
        // The counts are computed for the page's rows only.
        let reader = self.reader().await?;
        let found = sql::page(
            &*reader,
            filtered,
            None,
            sort,
            &request,
            concat!(", ", category_counts!("p")),
        )
        .await?;
        Listed::decoded(&found, category_from)
    }

    /// The category `id`.
    pub async fn category(&self, id: CategoryId) -> Result<Category, StoreError> {
        let reader = self.reader().await?;
        read(&*reader, id).await
    }

    /// Creates a category; a name its type already has (ignoring case, width, spacing and
    /// invisible characters: `name_key`, migration 0018) is a 422 on `category_name`, also
    /// when two creates race (the unique index decides).
    pub async fn create_category(
        &self,
        ctx: Ctx,
        cmd: &NewCategory,
    ) -> Result<Category, StoreError> {
        const SQL: &str = concat!(
            "WITH c AS (INSERT INTO categories (name, type, visibility, description, icon, creator_id)",
            " VALUES ($1, $2, $3, $4, $5, $6) RETURNING *)",
            " SELECT c.*, ",
            category_counts!("c"),
            " FROM c"
        );
        let visibility = cmd.visibility.map(|v| v.as_str());
        let tx = self.begin().await?;
        let row = tx
            .row(
                SQL,
                &[
                    &cmd.name,
                    &cmd.category_type.as_str(),
                    &visibility,
                    &cmd.description,
                    &cmd.icon,
                    &ctx.actor.get(),
                ],
            )
            .await?;
        let category = category_from(&row)?;
        tx.emit(EventType::CategoryCreated, category.id.get(), &category)?;
        tx.commit().await?;
        Ok(category)
    }

    /// Renames the category and patches visibility, description and icon (absent: kept;
    /// sent empty: cleared). The slug follows the name; a taken name is a 422.
    pub async fn update_category(
        &self,
        id: CategoryId,
        cmd: &CategoryUpdate,
    ) -> Result<Category, StoreError> {
        const SQL: &str = concat!(
            "WITH c AS (UPDATE categories SET name = $2,",
            " visibility = CASE WHEN $3 THEN visibility ELSE $4 END,",
            " description = CASE WHEN $5 THEN description ELSE $6 END,",
            " icon = CASE WHEN $7 THEN icon ELSE $8 END,",
            " updated_at = now() WHERE id = $1 RETURNING *)",
            " SELECT c.*, ",
            category_counts!("c"),
            " FROM c"
        );
        let (keep_visibility, visibility) = patch_params(&cmd.visibility);
        let visibility = visibility.map(|v| v.as_str());
        let (keep_description, description) = patch_params(&cmd.description);
        let (keep_icon, icon) = patch_params(&cmd.icon);
        let tx = self.begin().await?;
        // With `If-Match`: lock the row and compare under the lock before writing.
        tx.if_match(async {
            lock(&tx, id).await?;
            read(&tx, id).await
        })
        .await?;
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 8] = [
            &id.get(),
            &cmd.name,
            &keep_visibility,
            &visibility,
            &keep_description,
            &description,
            &keep_icon,
            &icon,
        ];
        let category = match tx.row_opt(SQL, &params).await? {
            Some(row) => category_from(&row)?,
            None => return Err(StoreError::NotFound(Resource::Category)),
        };
        tx.emit(EventType::CategoryUpdated, id.get(), &category)?;
        tx.commit().await?;
        Ok(category)
    }

    /// Deletes an empty, non-default category with its team (409 otherwise).
    pub async fn delete_category(&self, id: CategoryId) -> Result<(), StoreError> {
        const SQL: &str = "DELETE FROM categories WHERE id = $1";
        let tx = self.begin().await?;
        lock(&tx, id).await?;
        tx.if_match(read(&tx, id)).await?;
        // Counted after the lock, by a new statement: it sees every record committed so far.
        let current = read(&tx, id).await?;
        category::check_deletion(current.system_default, current.count)?;
        // The team rows (category_users) go with it (ON DELETE CASCADE).
        tx.run(SQL, &[&id.get()]).await?;
        tx.emit_deleted(EventType::CategoryDeleted, id.get())?;
        tx.commit().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crm_core::category::CategoryType;
    use crm_core::input::Choice;

    /// The table of a type's records, for the types with records here.
    fn records_table(t: CategoryType) -> Option<&'static str> {
        match t {
            CategoryType::Project => Some("projects"),
            CategoryType::Client => Some("clients"),
            CategoryType::Contract => Some("contracts"),
            CategoryType::Estimate => Some("estimates"),
            CategoryType::Invoice => Some("invoices"),
            CategoryType::Lead => Some("leads"),
            CategoryType::Ticket => Some("tickets"),
            CategoryType::Item => Some("items"),
            CategoryType::Expense => Some("expenses"),
            CategoryType::Proposal | CategoryType::Knowledgebase | CategoryType::Subscription => {
                None
            }
        }
    }

    #[test]
    fn the_count_column_counts_exactly_the_types_with_records() {
        let sql = category_counts!("c");
        for (text, t) in CategoryType::CHOICES {
            let arm = format!("WHEN '{text}' THEN");
            assert_eq!(sql.contains(&arm), t.has_records(), "{text}");
            assert_eq!(records_table(*t).is_some(), t.has_records(), "{text}");
            if let Some(table) = records_table(*t) {
                assert!(
                    sql.contains(&format!("{arm} (SELECT count(*) FROM {table} r WHERE")),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn migration_moves_the_records_of_every_type_with_records() {
        for (text, t) in CategoryType::CHOICES {
            if let Some(table) = records_table(*t) {
                assert!(
                    super::team::MOVE_SQL.contains(&format!("UPDATE {table} SET category_id = $2")),
                    "{text}"
                );
            }
        }
    }
}
