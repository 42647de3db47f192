//! The milestone writes: create, reorder, update, delete. Titles are unique within a
//! project (case-insensitively), and a project's default milestone cannot be deleted.

use serde_json::json;

use crate::sweep::body::{ALL, invalid, status};
use crate::sweep::document::Api;
use crate::sweep::msg;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// The 409 of a title another milestone of the project has.
const DUPLICATE_TITLE: &str = "A milestone with this title already exists in this project.";

/// The milestone targets.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let s = |v: i64| v.to_string();
    let project = s(w.project);
    let create = Target::new(
        api,
        "createMilestone",
        "/api/milestones".into(),
        json!({"milestone_projectid": project, "milestone_title": "Sweep Milestone 2", "milestone_color": "success"}),
    )
    .extra(
        "duplicate title",
        json!({"milestone_projectid": project, "milestone_title": "  PLANNING ", "milestone_color": "info"}),
        ALL,
        status(409, DUPLICATE_TITLE),
    );
    let reorder = Target::new(
        api,
        "reorderMilestones",
        "/api/milestones/positions".into(),
        json!({"milestones": [s(w.milestone), s(w.planning)]}),
    )
    .appended(
        "milestones",
        "milestones[]=1",
        0,
        invalid("milestones", msg::max_items("milestones", 1000)),
    )
    .extra(
        "a repeated id",
        json!({"milestones": [s(w.milestone), s(w.milestone)]}),
        ALL,
        invalid("milestones.1", msg::distinct("milestones.1")),
    )
    .extra(
        "milestones of two projects",
        json!({"milestones": [s(w.milestone), s(w.other_project_milestone)]}),
        ALL,
        invalid("milestones.1", msg::invalid("milestones.1")),
    );
    vec![create, reorder, update(w, api), delete(w, api)]
}

/// `PATCH /api/milestones/{id}`.
fn update(w: &World, api: &Api) -> Target {
    Target::new(
        api,
        "updateMilestone",
        format!("/api/milestones/{}", w.milestone),
        json!({"milestone_title": "Sweep Milestone Renamed", "milestone_color": "danger"}),
    )
    .extra(
        "a sibling's title",
        json!({"milestone_title": w.design_title.to_lowercase(), "milestone_color": "info"}),
        ALL,
        status(409, DUPLICATE_TITLE),
    )
}

/// `DELETE /api/milestones/{id}`: the default milestone is refused, with or without its
/// tasks.
fn delete(w: &World, api: &Api) -> Target {
    let default = format!("/api/milestones/{}", w.uncategorised);
    let refused = || status(409, "You cannot delete the default milestone.");
    let path = format!("/api/milestones/{}", w.milestone);
    Target::new(api, "deleteMilestone", path, json!({}))
        .extra_at(
            "the default milestone",
            default.clone(),
            json!({}),
            refused(),
        )
        .extra_at(
            "the default milestone with its tasks",
            format!("{default}?delete_tasks=yes"),
            json!({"delete_tasks": "yes"}),
            refused(),
        )
}
