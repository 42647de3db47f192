//! Notes: the record, its commands and the visibility rule.
//!
//! A note may be attached to a client, lead, project, task or user. A private note is
//! visible only to its creator. Sticky notes exist in the schema but the API never lists,
//! serves or creates them. The attachment cannot be changed after creation.

use serde::{Deserialize, Serialize};

use crate::choice_enum;
use crate::ids::{NoteId, UserId};
use crate::input::{Form, Patch, RawMap, TextRule, read_choice, read_id, text};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::time::RecordDates;
use crate::validation::{RefKind, References, Rejected, message};

choice_enum!(
    /// What a note can be attached to.
    pub enum NoteResourceType {
        /// A client.
        Client = "client",
        /// A lead.
        Lead = "lead",
        /// A project.
        Project = "project",
        /// A task.
        Task = "task",
        /// A user.
        User = "user",
    }
);

choice_enum!(
    /// Who can see a note.
    pub enum NoteVisibility {
        /// Everyone with access (the default).
        Public = "public",
        /// Only its creator.
        Private = "private",
    }
);

choice_enum!(
    /// Sort keys of the note list.
    pub enum NoteSort {
        /// By title.
        Title = "note_title",
        /// By creation time.
        Created = "note_created",
        /// By update time.
        Updated = "note_updated",
    }
);

impl NoteResourceType {
    /// What the attached id must exist as.
    pub fn ref_kind(self) -> RefKind {
        match self {
            NoteResourceType::Client => RefKind::Client,
            NoteResourceType::Lead => RefKind::Lead,
            NoteResourceType::Project => RefKind::Project,
            NoteResourceType::Task => RefKind::Task,
            NoteResourceType::User => RefKind::User,
        }
    }
}

/// The resource a note is attached to; both `null` for a standalone note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteResource {
    /// The resource type.
    #[serde(rename = "type")]
    pub resource_type: Option<NoteResourceType>,
    /// The resource id.
    pub id: Option<i64>,
}

/// A note as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Note id.
    pub id: NoteId,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// `public` or `private`.
    pub visibility: NoteVisibility,
    /// The attached resource.
    pub resource: NoteResource,
    /// Who created it.
    pub creator_id: UserId,
    /// Tag titles.
    pub tags: Vec<String>,
    /// Creation and update times.
    pub dates: RecordDates,
}

impl NoteVisibility {
    /// Whether notes of this visibility are visible to every user, not only to their
    /// creator (the store filters lists with this, so the rule is written once).
    pub fn shared(self) -> bool {
        match self {
            NoteVisibility::Public => true,
            NoteVisibility::Private => false,
        }
    }
}

/// Who may see a note with this visibility created by `creator`, as webhook events about
/// it are delivered: everyone, or its creator alone.
pub fn audience(visibility: NoteVisibility, creator: UserId) -> crate::webhook::Audience {
    if visibility.shared() {
        crate::webhook::Audience::Everyone
    } else {
        crate::webhook::Audience::Only(creator)
    }
}

impl Note {
    /// Who may see this note ([`audience`]).
    pub fn audience(&self) -> crate::webhook::Audience {
        audience(self.visibility, self.creator_id)
    }
}

/// Whether `viewer` may see a note with this visibility created by `creator`: whether
/// they are in its [`audience`], so the API and the webhooks share one rule.
pub fn visible_to(visibility: NoteVisibility, creator: UserId, viewer: UserId) -> bool {
    audience(visibility, creator).includes(viewer)
}

/// `POST /notes`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewNote {
    /// `note_title`.
    pub title: String,
    /// `note_description`.
    pub description: String,
    /// `note_visibility` (default `public`).
    pub visibility: NoteVisibility,
    /// `noteresource_type` + `noteresource_id`.
    pub resource: Option<(NoteResourceType, i64)>,
    references: References,
}

impl NewNote {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let title = form.required("note_title", text(TextRule::TITLE));
        let description = form.required("note_description", text(TextRule::LONG));
        let visibility = form
            .optional("note_visibility", read_choice::<NoteVisibility>)
            .unwrap_or(NoteVisibility::Public);
        let type_given = form.is_filled("noteresource_type");
        let id_given = form.is_filled("noteresource_id");
        let resource_type = form.optional("noteresource_type", read_choice::<NoteResourceType>);
        let resource_id = form.optional("noteresource_id", read_id);
        if type_given && !id_given {
            form.error(
                "noteresource_id",
                message::required_with("noteresource_id", "noteresource_type"),
            );
        }
        if id_given && !type_given {
            form.error(
                "noteresource_type",
                message::required_with("noteresource_type", "noteresource_id"),
            );
        }
        let resource = resource_type.zip(resource_id);
        if let Some((t, id)) = resource {
            form.reference("noteresource_id", t.ref_kind(), id);
        }
        let references = form.finish()?;
        match (title, description) {
            (Some(title), Some(description)) => Ok(NewNote {
                title,
                description,
                visibility,
                resource,
                references,
            }),
            _ => Err(Rejected::default()),
        }
    }

    /// The attached resource to check.
    pub fn references(&self) -> &References {
        &self.references
    }
}

/// `PATCH /notes/{id}`: title and description are required; the visibility follows
/// [`Patch`] (cleared means `public`); attachment fields are ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteUpdate {
    /// `note_title`.
    pub title: String,
    /// `note_description`.
    pub description: String,
    /// `note_visibility`.
    pub visibility: Patch<NoteVisibility>,
}

impl NoteUpdate {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let title = form.required("note_title", text(TextRule::TITLE));
        let description = form.required("note_description", text(TextRule::LONG));
        let visibility = form.patch("note_visibility", read_choice::<NoteVisibility>);
        form.finish()?;
        match (title, description) {
            (Some(title), Some(description)) => Ok(NoteUpdate {
                title,
                description,
                visibility,
            }),
            _ => Err(Rejected::default()),
        }
    }

    /// The visibility after the update, given the stored one.
    pub fn visibility_after(&self, current: NoteVisibility) -> NoteVisibility {
        match self.visibility {
            Patch::Keep => current,
            Patch::Clear => NoteVisibility::Public,
            Patch::Set(v) => v,
        }
    }
}

/// `GET /notes`: paging, order, sort, search (title and description), and
/// [`NoteFilters`].
pub type NoteListQuery = ListQuery<NoteFilters>;

/// The note list's filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteFilters {
    /// `resource_type` filter.
    pub resource_type: Option<NoteResourceType>,
    /// `resource_id` filter.
    pub resource_id: Option<i64>,
    /// `visibility` filter.
    pub visibility: Option<NoteVisibility>,
}

impl ListFilters for NoteFilters {
    const LIST: &'static str = "notes";
    type Sort = NoteSort;

    fn read(form: &mut Form<'_>) -> Self {
        NoteFilters {
            resource_type: form.optional("resource_type", read_choice::<NoteResourceType>),
            resource_id: form.optional("resource_id", read_id),
            visibility: form.optional("visibility", read_choice::<NoteVisibility>),
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}|{}",
            self.resource_type.map_or("", |t| t.as_str()),
            self.resource_id.map_or(String::new(), |id| id.to_string()),
            self.visibility.map_or("", |v| v.as_str())
        )
    }

    fn key_kind(sort: Option<NoteSort>) -> KeyKind {
        match sort {
            None | Some(NoteSort::Created | NoteSort::Updated) => KeyKind::Integer,
            Some(NoteSort::Title) => KeyKind::Text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw};

    #[test]
    fn a_note_needs_a_title_and_a_description() {
        let r = NewNote::parse(&raw(&[])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "note_title"),
            ["The note title field is required."]
        );
        assert_eq!(
            msg(&r.errors, "note_description"),
            ["The note description field is required."]
        );
    }

    #[test]
    fn notes_are_public_unless_private_is_asked() {
        let n = NewNote::parse(&raw(&[("note_title", "T"), ("note_description", "D")])).unwrap();
        assert_eq!(n.visibility, NoteVisibility::Public);
        assert_eq!(n.resource, None);
        let r = NewNote::parse(&raw(&[
            ("note_title", "T"),
            ("note_description", "D"),
            ("note_visibility", "secret"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "note_visibility"),
            ["The selected note visibility is invalid."]
        );
    }

    #[test]
    fn a_resource_type_needs_an_id_and_an_id_needs_a_type() {
        let r = NewNote::parse(&raw(&[
            ("note_title", "T"),
            ("note_description", "D"),
            ("noteresource_type", "client"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "noteresource_id"),
            ["The noteresource id field is required when noteresource type is present."]
        );
        let r = NewNote::parse(&raw(&[
            ("note_title", "T"),
            ("note_description", "D"),
            ("noteresource_id", "1"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "noteresource_type"),
            ["The noteresource type field is required when noteresource id is present."]
        );
        let r = NewNote::parse(&raw(&[
            ("note_title", "T"),
            ("note_description", "D"),
            ("noteresource_type", "invoice"),
            ("noteresource_id", "1"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "noteresource_type"),
            ["The selected noteresource type is invalid."]
        );
    }

    #[test]
    fn the_attached_resource_is_checked_in_its_own_table() {
        let n = NewNote::parse(&raw(&[
            ("note_title", "T"),
            ("note_description", "D"),
            ("noteresource_type", "task"),
            ("noteresource_id", "9"),
        ]))
        .unwrap();
        assert_eq!(n.resource, Some((NoteResourceType::Task, 9)));
        let r = &n.references().as_slice()[0];
        assert_eq!(
            (r.field.as_str(), r.kind, r.id),
            ("noteresource_id", RefKind::Task, 9)
        );
    }

    #[test]
    fn private_notes_are_visible_to_their_creator_only() {
        let a = UserId::new(1).unwrap();
        let b = UserId::new(2).unwrap();
        assert!(visible_to(NoteVisibility::Private, a, a));
        assert!(!visible_to(NoteVisibility::Private, a, b));
        assert!(visible_to(NoteVisibility::Public, a, b));
    }

    #[test]
    fn only_public_notes_are_shared_with_everyone() {
        assert!(NoteVisibility::Public.shared());
        assert!(!NoteVisibility::Private.shared());
    }

    #[test]
    fn an_update_clearing_the_visibility_makes_the_note_public() {
        let u = NoteUpdate::parse(&raw(&[
            ("note_title", "T"),
            ("note_description", "D"),
            ("note_visibility", ""),
        ]))
        .unwrap();
        assert_eq!(
            u.visibility_after(NoteVisibility::Private),
            NoteVisibility::Public
        );
        let u = NoteUpdate::parse(&raw(&[("note_title", "T"), ("note_description", "D")])).unwrap();
        assert_eq!(
            u.visibility_after(NoteVisibility::Private),
            NoteVisibility::Private
        );
    }

    #[test]
    fn list_filters_are_checked() {
        let r = NoteListQuery::parse(&raw(&[
            ("resource_type", "x"),
            ("resource_id", "y"),
            ("visibility", "z"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "resource_type"),
            ["The selected resource type is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "resource_id"),
            ["The resource id must be an integer."]
        );
        assert_eq!(
            msg(&r.errors, "visibility"),
            ["The selected visibility is invalid."]
        );
    }
}
