//! The category writes: create, update, delete, team, migrate.

use serde_json::json;

use crate::sweep::body::{ALL, invalid, status};
use crate::sweep::document::Api;
use crate::sweep::msg;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// The name clash of a category.
const TAKEN: &str = "A category with this name already exists.";

/// The category targets.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let s = |v: i64| v.to_string();
    let category = s(w.category);
    let team = Target::new(
        api,
        "setCategoryTeam",
        format!("/api/categories/{category}/team"),
        json!({"users": ["1", "2"]}),
    )
    .appended(
        "users",
        "users[]=1",
        0,
        invalid("users", msg::max_items("users", 1000)),
    )
    .extra(
        "a client user",
        json!({"users": ["1", s(w.client_user)]}),
        ALL,
        invalid("users.1", msg::invalid("users.1")),
    );
    let not_target = || invalid("target_id", msg::invalid("target_id"));
    let migrate = Target::new(
        api,
        "migrateCategory",
        format!("/api/categories/{category}/migrate"),
        json!({"target_id": s(w.category2)}),
    )
    .extra("itself", json!({"target_id": category}), ALL, not_target())
    .extra(
        "another type",
        json!({"target_id": s(w.default_project_category)}),
        ALL,
        not_target(),
    )
    .extra(
        "a list",
        json!({"target_id": [s(w.category2)]}),
        ALL,
        invalid("target_id", msg::integer("target_id")),
    );
    vec![create(api), update(w, api), delete(w, api), team, migrate]
}

/// `POST /api/categories`.
fn create(api: &Api) -> Target {
    Target::new(
        api,
        "createCategory",
        "/api/categories".into(),
        json!({"category_name": "Sweep Category", "category_type": "project", "category_visibility": "team", "category_description": "About", "category_icon": "ti-folder"}),
    )
    .extra(
        "duplicate name (case-insensitive)",
        json!({"category_name": "  SWEEP contracts ", "category_type": "contract"}),
        ALL,
        invalid("category_name", TAKEN.into()),
    )
    .extra(
        "a plural type",
        json!({"category_name": "X", "category_type": "contracts"}),
        ALL,
        invalid("category_type", msg::invalid("category_type")),
    )
}

/// `PATCH /api/categories/{id}`.
fn update(w: &World, api: &Api) -> Target {
    Target::new(
        api,
        "updateCategory",
        format!("/api/categories/{}", w.category),
        json!({"category_name": "Sweep Contracts Renamed", "category_visibility": "everyone", "category_description": "d", "category_icon": "ti-x"}),
    )
    .extra(
        "rename to a sibling's name",
        json!({"category_name": "sweep target"}),
        ALL,
        invalid("category_name", TAKEN.into()),
    )
}

/// `DELETE /api/categories/{id}`: an empty category; a default one and a used one refused.
fn delete(w: &World, api: &Api) -> Target {
    let path = |id: i64| format!("/api/categories/{id}");
    Target::new(api, "deleteCategory", path(w.category3), json!({}))
        .extra_at(
            "system default",
            path(w.default_contract_category),
            json!({}),
            status(409, "You cannot delete a system default category."),
        )
        .extra_at(
            "not empty",
            path(w.category),
            json!({}),
            status(
                409,
                "This category is not empty. First move its items to another category.",
            ),
        )
}
