//! The note writes: create, update, delete, tags. A note is attached by a type and an id
//! given together; another user's private note and a sticky note are not found, whatever
//! the body.

use serde_json::{Value, json};

use super::tags_target;
use crate::sweep::body::{ALL, Expect, invalid, status};
use crate::sweep::document::Api;
use crate::sweep::msg;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// The 404 of a note the caller may not see.
fn hidden() -> Expect {
    status(404, "Note not found.")
}

/// The note targets.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let project = w.project.to_string();
    let note_base = json!({"note_title": "Sweep Note 2", "note_description": "Body", "note_visibility": "private", "noteresource_type": "project", "noteresource_id": project});
    let create = Target::new(api, "createNote", "/api/notes".into(), note_base)
        .extra(
            "a type without an id",
            json!({"note_title": "T", "note_description": "D", "noteresource_type": "project"}),
            ALL,
            invalid(
                "noteresource_id",
                msg::required_with("noteresource_id", "noteresource_type"),
            ),
        )
        .extra(
            "an id without a type",
            json!({"note_title": "T", "note_description": "D", "noteresource_id": project}),
            ALL,
            invalid(
                "noteresource_type",
                msg::required_with("noteresource_type", "noteresource_id"),
            ),
        )
        .extra(
            "an unknown lead",
            json!({"note_title": "T", "note_description": "D", "noteresource_type": "lead", "noteresource_id": "999999"}),
            ALL,
            invalid("noteresource_id", msg::invalid("noteresource_id")),
        );
    let patch = json!({"note_title": "Sweep Note Renamed", "note_description": "New body", "note_visibility": "public"});
    let update = hidden_notes(
        w,
        "",
        Target::new(
            api,
            "updateNote",
            format!("/api/notes/{}", w.note),
            patch.clone(),
        ),
        [
            ("", patch.clone(), patch),
            (
                ", invalid body",
                json!({}),
                json!({"note_title": "<b>x</b>"}),
            ),
        ],
    );
    let delete = hidden_notes(
        w,
        "",
        Target::new(
            api,
            "deleteNote",
            format!("/api/notes/{}", w.note),
            json!({}),
        ),
        [("", json!({}), json!({}))],
    );
    let tags = tags_target(api, "setNoteTags", format!("/api/notes/{}/tags", w.note));
    let tags = hidden_notes(
        w,
        "/tags",
        tags,
        [
            ("", json!({"tags": ["a"]}), json!({"tags": ["a"]})),
            (", invalid tags", json!({"tags": {"k": "x"}}), Value::Null),
            (", no tags", Value::Null, json!({})),
        ],
    );
    vec![create, update, delete, tags]
}

/// Requests of `target`'s route to another user's private note and to a sticky note: for
/// each `(suffix, private body, sticky body)`, the labels end with the suffix, and a `null`
/// body sends nothing to that note.
fn hidden_notes<const N: usize>(
    w: &World,
    tail: &str,
    mut target: Target,
    bodies: [(&str, Value, Value); N],
) -> Target {
    let path = |id: i64| format!("/api/notes/{id}{tail}");
    for (suffix, private, sticky) in bodies {
        if !private.is_null() {
            let label = format!("another user's private note{suffix}");
            target = target.extra_at(&label, path(w.private_note), private, hidden());
        }
        if !sticky.is_null() {
            let label = format!("a sticky note{suffix}");
            target = target.extra_at(&label, path(w.sticky_note), sticky, hidden());
        }
    }
    target
}
