//! Categories: types, visibility, the category record, its commands and its rules.
//!
//! Name uniqueness within a type ignores case, width (fullwidth `Ｄ` is `D`), runs of spaces
//! and invisible characters, and is held by the database (the key is migration 0018's
//! `name_key`: NFKC, default-ignorable characters removed, case folded); the store
//! reports a duplicate as a 422 on `category_name` ([`duplicate_name_error`]). A request
//! rejected for other fields carries its name as a claim ([`NameScope`]), so that a taken
//! name is reported with them.

use serde::Serialize;

use crate::choice_enum;
use crate::conflict::Conflict;
use crate::ids::{CategoryId, UserId};
use crate::input::{Form, Patch, RawMap, TextRule, read_choice, read_id, text};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::references::{NameScope, RefKind};
use crate::time::RecordDates;
use crate::validation::{FieldErrors, References, Rejected, message};

pub use crate::references::CategoryType;

choice_enum!(
    /// Who sees a category.
    pub enum CategoryVisibility {
        /// Everyone.
        Everyone = "everyone",
        /// Team members only.
        Team = "team",
        /// Clients.
        Client = "client",
    }
);

choice_enum!(
    /// Sort keys of the category list.
    pub enum CategorySort {
        /// By name.
        Name = "category_name",
        /// By type.
        Type = "category_type",
        /// By creation time.
        Created = "category_created",
    }
);

/// A category as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Category {
    /// Category id.
    pub id: CategoryId,
    /// Name (unique within the type, ignoring case, width and invisible characters).
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// The kind of records it groups; immutable.
    #[serde(rename = "type")]
    pub category_type: CategoryType,
    /// Visibility.
    pub visibility: Option<CategoryVisibility>,
    /// Icon class.
    pub icon: Option<String>,
    /// `yes` for the system defaults, which cannot be deleted.
    #[serde(serialize_with = "crate::serde_yes_no")]
    pub system_default: bool,
    /// `<id>-<name as slug>`.
    pub slug: String,
    /// Records of the category's type in it.
    pub count: i64,
    /// Team members assigned to it.
    pub users_count: i64,
    /// Creation and update times.
    pub dates: RecordDates,
}

/// `POST /categories`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCategory {
    /// `category_name` (≤ 150 characters, no HTML).
    pub name: String,
    /// `category_type`.
    pub category_type: CategoryType,
    /// `category_visibility`.
    pub visibility: Option<CategoryVisibility>,
    /// `category_description`.
    pub description: Option<String>,
    /// `category_icon`.
    pub icon: Option<String>,
}

impl NewCategory {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let name = form.required("category_name", text(TextRule::CATEGORY_NAME));
        let category_type = form.required("category_type", read_choice::<CategoryType>);
        let visibility = form.optional("category_visibility", read_choice::<CategoryVisibility>);
        let description = form.optional("category_description", text(TextRule::LONG));
        let icon = form.optional("category_icon", text(TextRule::SHORT));
        if let (Some(name), Some(category_type)) = (&name, category_type) {
            form.claim_name("category_name", name, NameScope::Type(category_type));
        }
        form.finish()?;
        match (name, category_type) {
            (Some(name), Some(category_type)) => Ok(NewCategory {
                name,
                category_type,
                visibility,
                description,
                icon,
            }),
            _ => Err(Rejected::default()),
        }
    }
}

/// `PATCH /categories/{id}`: the name is required; other fields follow [`Patch`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryUpdate {
    /// `category_name`.
    pub name: String,
    /// `category_visibility`.
    pub visibility: Patch<CategoryVisibility>,
    /// `category_description`.
    pub description: Patch<String>,
    /// `category_icon`.
    pub icon: Patch<String>,
}

impl CategoryUpdate {
    /// Reads the command for category `id` from a request. `category_type` is ignored: it
    /// cannot change.
    pub fn parse(raw: &RawMap, id: CategoryId) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let name = form.required("category_name", text(TextRule::CATEGORY_NAME));
        let visibility = form.patch("category_visibility", read_choice::<CategoryVisibility>);
        let description = form.patch("category_description", text(TextRule::LONG));
        let icon = form.patch("category_icon", text(TextRule::SHORT));
        if let Some(name) = &name {
            form.claim_name("category_name", name, NameScope::TypeOf(id.get()));
        }
        form.finish()?;
        let name = name.ok_or_else(Rejected::default)?;
        Ok(CategoryUpdate {
            name,
            visibility,
            description,
            icon,
        })
    }
}

/// The most team members one request may name.
pub const MAX_TEAM: usize = 1000;

/// `PUT /categories/{id}/team`: the full set of team members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryTeam {
    /// Distinct team users, in request order.
    pub users: Vec<UserId>,
    references: References,
}

impl CategoryTeam {
    /// Reads `users` (required; `[]` clears). Each element must be a team user; duplicates
    /// are ignored.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let mut users: Vec<UserId> = Vec::new();
        if let Some(items) = form.list("users", true, MAX_TEAM) {
            for (i, value) in items {
                let key = format!("users.{i}");
                if let Some(id) = form.element(&key, value, read_id) {
                    form.reference(&key, RefKind::TeamUser, id);
                    if let Some(user) = UserId::new(id).filter(|u| !users.contains(u)) {
                        users.push(user);
                    }
                }
            }
        }
        let references = form.finish()?;
        Ok(CategoryTeam { users, references })
    }

    /// The user ids to check (each must be a team member).
    pub fn references(&self) -> &References {
        &self.references
    }
}

/// `PUT /categories/{id}/migrate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CategoryMigration {
    /// `target_id`: the category that receives the records.
    pub target: CategoryId,
}

impl CategoryMigration {
    /// Reads `target_id` (required integer, different from `source`). Existence and same
    /// type are checked by the store with [`migration_target_error`].
    pub fn parse(raw: &RawMap, source: CategoryId) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let target = form
            .required("target_id", read_id)
            .and_then(CategoryId::new);
        if target == Some(source) {
            form.error("target_id", message::invalid("target_id"));
        }
        form.finish()?;
        let target = target.ok_or_else(Rejected::default)?;
        Ok(CategoryMigration { target })
    }
}

/// The error for a migration target that does not exist or is of another type.
pub fn migration_target_error() -> FieldErrors {
    FieldErrors::single("target_id", message::invalid("target_id"))
}

/// The message for a name already used by a category of the same type.
pub const DUPLICATE_NAME: &str = "A category with this name already exists.";

/// The error for a name already used by a category of the same type.
pub fn duplicate_name_error() -> FieldErrors {
    FieldErrors::single("category_name", DUPLICATE_NAME.to_owned())
}

/// `GET /categories`: paging, order, sort, search (on the name), and [`CategoryFilters`].
pub type CategoryListQuery = ListQuery<CategoryFilters>;

/// The category list's filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryFilters {
    /// `type` filter.
    pub category_type: Option<CategoryType>,
    /// `visibility` filter.
    pub visibility: Option<CategoryVisibility>,
}

impl ListFilters for CategoryFilters {
    const LIST: &'static str = "categories";
    type Sort = CategorySort;

    fn read(form: &mut Form<'_>) -> Self {
        CategoryFilters {
            category_type: form.optional("type", read_choice::<CategoryType>),
            visibility: form.optional("visibility", read_choice::<CategoryVisibility>),
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}",
            self.category_type.map_or("", |t| t.as_str()),
            self.visibility.map_or("", |v| v.as_str())
        )
    }

    fn key_kind(sort: Option<CategorySort>) -> KeyKind {
        match sort {
            None | Some(CategorySort::Created) => KeyKind::Integer,
            Some(CategorySort::Name | CategorySort::Type) => KeyKind::Text,
        }
    }
}

/// Whether a category may be deleted: never a system default, never while it has records.
pub fn check_deletion(system_default: bool, count: i64) -> Result<(), Conflict> {
    if system_default {
        Err(Conflict::SystemDefaultCategory)
    } else if count > 0 {
        Err(Conflict::CategoryNotEmpty)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawValue;
    use crate::input::test_input::{msg, raw};

    fn errors(r: Result<impl std::fmt::Debug, Rejected>) -> FieldErrors {
        r.unwrap_err().errors
    }

    #[test]
    fn a_new_category_needs_a_name_and_a_known_type() {
        let e = errors(NewCategory::parse(&raw(&[])));
        assert_eq!(
            msg(&e, "category_name"),
            ["The category name field is required."]
        );
        assert_eq!(
            msg(&e, "category_type"),
            ["The category type field is required."]
        );
        let e = errors(NewCategory::parse(&raw(&[
            ("category_name", "X"),
            ("category_type", "planet"),
        ])));
        assert_eq!(
            msg(&e, "category_type"),
            ["The selected category type is invalid."]
        );
    }

    #[test]
    fn a_new_category_reads_every_field() {
        let c = NewCategory::parse(&raw(&[
            ("category_name", " Development "),
            ("category_type", "project"),
            ("category_visibility", "team"),
            ("category_description", "Work"),
            ("category_icon", "ti ti-folder"),
        ]))
        .unwrap();
        assert_eq!(c.name, "Development");
        assert_eq!(c.category_type, CategoryType::Project);
        assert_eq!(c.visibility, Some(CategoryVisibility::Team));
        assert_eq!(c.description.as_deref(), Some("Work"));
        assert_eq!(c.icon.as_deref(), Some("ti ti-folder"));
    }

    #[test]
    fn category_names_are_limited_to_150_characters_without_html() {
        let long = "n".repeat(151);
        let e = errors(NewCategory::parse(&raw(&[
            ("category_name", &long),
            ("category_type", "project"),
        ])));
        assert_eq!(
            msg(&e, "category_name"),
            ["The category name may not be greater than 150 characters."]
        );
        let e = errors(NewCategory::parse(&raw(&[
            ("category_name", "<i>x</i>"),
            ("category_type", "project"),
        ])));
        assert_eq!(
            msg(&e, "category_name"),
            ["The category name must not contain any HTML."]
        );
    }

    #[test]
    fn an_unknown_visibility_is_invalid() {
        let e = errors(NewCategory::parse(&raw(&[
            ("category_name", "A"),
            ("category_type", "project"),
            ("category_visibility", "world"),
        ])));
        assert_eq!(
            msg(&e, "category_visibility"),
            ["The selected category visibility is invalid."]
        );
    }

    #[test]
    fn a_rejected_request_claims_its_name_for_the_store_to_check() {
        let rejected = NewCategory::parse(&raw(&[
            ("category_name", " Design "),
            ("category_type", "project"),
            ("category_visibility", "bogus"),
        ]))
        .unwrap_err();
        let claims = rejected.references.names();
        assert_eq!(claims.len(), 1);
        assert_eq!(claims[0].field, "category_name");
        assert_eq!(claims[0].name, "Design");
        assert_eq!(claims[0].scope, NameScope::Type(CategoryType::Project));

        let id = CategoryId::new(7).unwrap();
        let long_icon = "i".repeat(251);
        let rejected = CategoryUpdate::parse(
            &raw(&[("category_name", "Sales"), ("category_icon", &long_icon)]),
            id,
        )
        .unwrap_err();
        assert_eq!(rejected.references.names()[0].scope, NameScope::TypeOf(7));

        // Without a type there is no scope to claim the name in.
        let rejected = NewCategory::parse(&raw(&[("category_name", "Design")])).unwrap_err();
        assert!(rejected.references.names().is_empty());
    }

    #[test]
    fn an_update_requires_the_name_and_patches_the_rest() {
        let id = CategoryId::new(3).unwrap();
        let e = errors(CategoryUpdate::parse(&raw(&[("category_icon", "x")]), id));
        assert_eq!(
            msg(&e, "category_name"),
            ["The category name field is required."]
        );
        let u = CategoryUpdate::parse(
            &raw(&[("category_name", "B"), ("category_description", "")]),
            id,
        )
        .unwrap();
        assert_eq!(u.description, Patch::Clear);
        assert_eq!(u.icon, Patch::Keep);
    }

    #[test]
    fn a_team_lists_distinct_users_and_reports_each_bad_element() {
        let mut r = RawMap::new();
        r.insert(
            "users",
            RawValue::List(vec![
                RawValue::text("5"),
                RawValue::text("8"),
                RawValue::text("5"),
            ]),
        );
        let team = CategoryTeam::parse(&r).unwrap();
        assert_eq!(
            team.users.iter().map(|u| u.get()).collect::<Vec<_>>(),
            vec![5, 8]
        );
        assert_eq!(team.references().as_slice().len(), 3);
        r.insert(
            "users",
            RawValue::List(vec![
                RawValue::text("5"),
                RawValue::text("x"),
                RawValue::text("-1"),
            ]),
        );
        let e = errors(CategoryTeam::parse(&r));
        assert_eq!(msg(&e, "users.1"), ["The users.1 must be an integer."]);
        assert_eq!(msg(&e, "users.2"), ["The selected users.2 is invalid."]);
    }

    #[test]
    fn an_empty_team_clears_it_but_a_missing_one_is_required() {
        let mut r = RawMap::new();
        r.insert("users", RawValue::List(vec![]));
        assert!(CategoryTeam::parse(&r).unwrap().users.is_empty());
        let e = errors(CategoryTeam::parse(&RawMap::new()));
        assert_eq!(msg(&e, "users"), ["The users field is required."]);
    }

    #[test]
    fn a_migration_target_must_be_another_category() {
        let source = CategoryId::new(3).unwrap();
        let e = errors(CategoryMigration::parse(
            &raw(&[("target_id", "3")]),
            source,
        ));
        assert_eq!(msg(&e, "target_id"), ["The selected target id is invalid."]);
        let e = errors(CategoryMigration::parse(&raw(&[]), source));
        assert_eq!(msg(&e, "target_id"), ["The target id field is required."]);
        let e = errors(CategoryMigration::parse(
            &raw(&[("target_id", "four")]),
            source,
        ));
        assert_eq!(msg(&e, "target_id"), ["The target id must be an integer."]);
        assert_eq!(
            CategoryMigration::parse(&raw(&[("target_id", "4")]), source)
                .unwrap()
                .target
                .get(),
            4
        );
    }

    #[test]
    fn system_defaults_and_non_empty_categories_cannot_be_deleted() {
        assert_eq!(
            check_deletion(true, 0),
            Err(Conflict::SystemDefaultCategory)
        );
        assert_eq!(check_deletion(false, 2), Err(Conflict::CategoryNotEmpty));
        assert_eq!(check_deletion(false, 0), Ok(()));
        assert_eq!(
            Conflict::CategoryNotEmpty.message(),
            "This category is not empty. First move its items to another category."
        );
        assert_eq!(
            Conflict::SystemDefaultCategory.message(),
            "You cannot delete a system default category."
        );
    }

    #[test]
    fn list_filters_are_checked_against_their_values() {
        let e = errors(CategoryListQuery::parse(&raw(&[
            ("type", "x"),
            ("visibility", "y"),
            ("sort", "name"),
        ])));
        assert_eq!(msg(&e, "type"), ["The selected type is invalid."]);
        assert_eq!(
            msg(&e, "visibility"),
            ["The selected visibility is invalid."]
        );
        assert_eq!(msg(&e, "sort"), ["The selected sort is invalid."]);
        let q = CategoryListQuery::parse(&raw(&[
            ("type", "project"),
            ("sort", "category_name"),
            ("order", "asc"),
        ]))
        .unwrap();
        assert_eq!(q.filters.category_type, Some(CategoryType::Project));
        assert_eq!(q.params.sort, Some(CategorySort::Name));
    }

    #[test]
    fn only_types_with_records_can_be_filled() {
        assert!(CategoryType::Estimate.has_records());
        assert!(!CategoryType::Proposal.has_records());
    }

    #[test]
    fn the_duplicate_name_error_is_on_category_name() {
        assert_eq!(
            msg(&duplicate_name_error(), "category_name"),
            ["A category with this name already exists."]
        );
    }
}
